/*
 * --script (script/script.h), built from the options: the `wrk' table's
 * target from the URL or --server, --port, --uri, --method,
 * --add-header and --body; init()'s arguments; done() after the report.
 * A build without LuaJIT has none of it (the options refuse --script).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "lib/util.h"
#include "opt/options.h"
#include "setup.h"
#ifdef HAVE_LUAJIT
#include "script/script.h"

/* Whether the URL's authority has a port (wrk.port is nil without). */
static int
setup_url_port(const char *url)
{
	const char *a = strstr(url, "://"), *end, *c;

	if (a == NULL)
		return 0;
	a += 3;
	end = a + strcspn(a, "/?#");
	if ((c = memchr(a, '@', (size_t)(end - a))) != NULL)
		a = c + 1;
	if (*a == '[' && (c = memchr(a, ']', (size_t)(end - a))) != NULL)
		a = c;
	return memchr(a, ':', (size_t)(end - a)) != NULL;
}

int
setup_script(struct setup *st, const struct options *o, struct core *core,
    struct bus *bus, void (*stop)(void *, uint64_t), void *stop_arg)
{
	struct script_conf cf;
	struct script *s;
	char port[16], err[512], *url = NULL;
	size_t len;

	if (o->script == NULL)
		return 0;
	memset(&cf, 0, sizeof(cf));
	cf.file = o->script;
	cf.url = o->url;
	cf.args = o->script_args;
	cf.nargs = o->n_script_args;
	cf.scheme = o->ssl ? "https" : "http";
	cf.host = o->server;
	snprintf(port, sizeof(port), "%u", o->port);
	if (o->url != NULL ? setup_url_port(o->url) : o->port_given)
		cf.port = port;
	if (cf.url == NULL) {
		/* No URL argument: the one wrk would have been given. */
		len = strlen(o->server) + strlen(o->uri) + 32;
		url = xmalloc(len);
		snprintf(url, len, strchr(o->server, ':') != NULL ?
		    "%s://[%s]:%s%s" : "%s://%s:%s%s", cf.scheme, o->server,
		    port, o->uri);
		cf.url = url;
	}
	cf.method = o->method != NULL ? o->method : "GET";
	cf.path = o->uri;
	cf.headers = o->add_header;
	cf.headers_len = o->add_header_len;
	cf.body = o->body;
	cf.body_len = o->body_len;
	cf.open_loop = o->call_rate > 0;
	cf.closed_loop = o->concurrency > 0;
	cf.direct = st->proxy == NULL && o->unix_socket == NULL;
	cf.stop = stop;
	cf.stop_arg = stop_arg;
	s = script_new(&cf, err, sizeof(err));
	free(url);
	if (s == NULL) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return -1;
	}
	script_start(s, core, bus);
	st->script = s;
	return 0;
}

int
setup_script_done(struct setup *st, const struct options *o, FILE *out,
    uint64_t duration, int rv)
{
	struct script_summary sum = { .duration_ns = duration };
	struct script *s = st->script;
	char err[512];

	if (s == NULL)
		return rv;
	script_report(s, out, o->prog);
	fflush(out);
	if (script_done(s, &sum, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return -1;
	}
	return rv;
}

void
setup_script_free(struct script *s)
{
	script_free(s);
}
#else
int
setup_script(struct setup *st, const struct options *o, struct core *core,
    struct bus *bus, void (*stop)(void *, uint64_t), void *stop_arg)
{
	(void)st, (void)o, (void)core, (void)bus, (void)stop, (void)stop_arg;
	return 0;
}

int
setup_script_done(struct setup *st, const struct options *o, FILE *out,
    uint64_t duration, int rv)
{
	(void)st, (void)o, (void)out, (void)duration;
	return rv;
}

void
setup_script_free(struct script *s)
{
	(void)s;
}
#endif
