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
#include "stat/script_stat.h"
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
	cf.done_only = o->script_jobs == 1;
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

/* done(); rv, or -1 after printing why. */
static int
setup_script_call(struct script *s, const struct options *o,
    const struct script_summary *sum, int rv)
{
	char err[512];

	if (script_done(s, sum, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return -1;
	}
	return rv;
}

int
setup_script_done(struct setup *st, const struct options *o, FILE *out,
    uint64_t duration, int rv)
{
	struct script_summary sum = { .duration_ns = duration };
	struct script *s = st->script;

	if (s == NULL)
		return rv;
	script_report(s, out, o->prog);
	fflush(out);
	script_counts(s, &sum);
	/* A --jobs worker: done() is the parent's. */
	return o->script_jobs == 2 ? rv : setup_script_call(s, o, &sum, rv);
}

void
setup_script_free(struct script *s)
{
	script_free(s);
}

void
setup_script_fill(const void *arg, struct script_stat_counts *c)
{
	const struct setup *st = arg;
	struct script_summary sum;

	if (st->script == NULL)
		return;
	memset(&sum, 0, sizeof(sum));
	script_counts(st->script, &sum);
	c->replies = sum.replies;
	c->bytes = sum.bytes;
	c->e_connect = sum.e_connect;
	c->e_read = sum.e_read;
	c->e_write = sum.e_write;
	c->e_status = sum.e_status;
	c->e_timeout = sum.e_timeout;
	c->lat = sum.lat;
	c->rps = sum.rps;
}

int
setup_script_merged(const struct options *o, const void *state,
    uint64_t duration, FILE *out, int rv)
{
	struct script_summary sum = { .duration_ns = duration };
	struct script_stat_counts c;
	struct setup st;

	if (o->script == NULL || state == NULL)
		return rv;
	memset(&st, 0, sizeof(st));
	if (setup_script(&st, o, NULL, NULL, NULL, NULL) == -1)
		return -1;
	script_stat_counts(state, &c);
	sum.replies = c.replies;
	sum.bytes = c.bytes;
	sum.e_connect = c.e_connect;
	sum.e_read = c.e_read;
	sum.e_write = c.e_write;
	sum.e_status = c.e_status;
	sum.e_timeout = c.e_timeout;
	sum.lat = c.lat;
	sum.rps = c.rps;
	fflush(out);
	rv = setup_script_call(st.script, o, &sum, rv);
	setup_script_free(st.script);
	return rv;
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

void
setup_script_fill(const void *arg, struct script_stat_counts *c)
{
	(void)arg, (void)c;
}

int
setup_script_merged(const struct options *o, const void *state,
    uint64_t duration, FILE *out, int rv)
{
	(void)o, (void)state, (void)duration, (void)out;
	return rv;
}
#endif
