/*
 * The --wlog URI source (see uri_wlog.h).
 *
 * The file is read whole into memory and split in place: every separator
 * becomes a NUL, so each URI is a C string inside the copy and a call's
 * URI is a pointer into it (nothing is copied per call).  A file with a
 * NUL byte anywhere is split on NULs only, as 0.9.0 did; any other file is
 * split on LF with a CR before the LF dropped, which is what users write
 * (0.9.0 sent such a file as one URI, upstream issue #12).  Empty entries
 * are skipped; an entry with a space or a control character would break
 * the request line, so such a file is refused.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "gen/uri_wlog.h"
#include "lib/util.h"

/* Returns non-zero if the byte cannot appear in a request target. */
static int
uri_wlog_bad_char(unsigned char ch)
{
	return ch <= ' ' || ch == 0x7f;
}

/*
 * Says which entry is invalid, quoting its start with every byte that is
 * not printable ASCII escaped: the file may hold anything.
 */
static void
uri_wlog_bad_entry(const char *path, size_t entry, const char *p,
    size_t len, char *errbuf, size_t errlen)
{
	char quote[64];

	snprintf(errbuf, errlen, "%s:%zu: invalid URI ('%s')", path, entry,
	    util_escape(quote, sizeof(quote), p, len));
}

/*
 * Splits w->data in place into w->uris.  Returns 0, or -1 with a message
 * naming the first invalid entry.
 */
static int
uri_wlog_split(struct uri_wlog *w, const char *path, char *errbuf,
    size_t errlen)
{
	char *p = w->data, *end = w->data + w->size, *sep;
	char sepch;
	size_t len, entry = 0, cap = 0, i;

	sepch = memchr(w->data, '\0', w->size) != NULL ? '\0' : '\n';
	while (p < end) {
		entry++;
		if ((sep = memchr(p, sepch, (size_t)(end - p))) == NULL)
			sep = end;
		*sep = '\0';
		len = (size_t)(sep - p);
		if (sepch == '\n' && len > 0 && p[len - 1] == '\r')
			p[--len] = '\0';
		if (len > 0) {
			for (i = 0; i < len; i++) {
				if (uri_wlog_bad_char((unsigned char)p[i])) {
					uri_wlog_bad_entry(path, entry, p, len,
					    errbuf, errlen);
					return -1;
				}
			}
			if (w->nuris == cap) {
				cap = cap == 0 ? 64 : cap * 2;
				w->uris = xreallocarray(w->uris, cap,
				    sizeof(*w->uris));
			}
			w->uris[w->nuris].uri = p;
			w->uris[w->nuris].len = len;
			w->nuris++;
		}
		p = sep + 1;
	}
	if (w->nuris == 0) {
		snprintf(errbuf, errlen, "%s: no URI in the file", path);
		return -1;
	}
	return 0;
}

/* BUS_CALL_NEW: the next URI, or abandon when --wlog n has run out. */
static void
uri_wlog_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct uri_wlog *w = ctx;
	struct call *call = obj;
	const struct uri_wlog_entry *e;

	if (w->uris == NULL)
		return;
	if (w->next == (w->wrap ? w->nuris : w->end)) {
		if (!w->wrap) {
			call->abandon = 1;
			if (!w->finished) {
				w->finished = 1;
				if (w->done != NULL)
					w->done(w->done_arg, now);
			}
			return;
		}
		w->next = 0;
	}
	e = &w->uris[w->next++];
	call->uri = e->uri;
	call->uri_len = e->len;
	if (w->verbose >= 1)
		fprintf(w->out, "%s: accessing URI `%s'\n", w->prog, e->uri);
}

int
uri_wlog_init(struct uri_wlog *w, struct core *core, const char *path,
    int wrap, int verbose, FILE *out, const char *prog,
    uri_wlog_done_cb *done, void *done_arg, char *errbuf, size_t errlen)
{
	int e;

	memset(w, 0, sizeof(*w));
	w->core = core;
	w->wrap = wrap;
	w->verbose = verbose;
	w->out = out;
	w->prog = prog;
	w->done = done;
	w->done_arg = done_arg;
	if ((e = util_read_file(path, &w->data, &w->size)) != 0) {
		snprintf(errbuf, errlen, "%s: %s", path,
		    util_read_strerror(e));
		return -1;
	}
	if (w->size == 0) {
		snprintf(errbuf, errlen, "%s: file is empty", path);
		uri_wlog_fini(w);
		return -1;
	}
	if (uri_wlog_split(w, path, errbuf, errlen) == -1) {
		uri_wlog_fini(w);
		return -1;
	}
	w->end = w->nuris;
	bus_subscribe(core->bus, BUS_CALL_NEW, uri_wlog_event, w);
	return 0;
}

size_t
uri_wlog_share(size_t count, unsigned id, unsigned n)
{
	/* In 128 bits: count * id does not overflow. */
	return (size_t)((unsigned __int128)count * id / n);
}

void
uri_wlog_client(struct uri_wlog *w, unsigned id, unsigned n)
{
	if (n <= 1 || id >= n)
		return;
	w->next = uri_wlog_share(w->nuris, id, n);
	if (!w->wrap)
		w->end = uri_wlog_share(w->nuris, id + 1, n);
}

void
uri_wlog_fini(struct uri_wlog *w)
{
	free(w->uris);
	w->uris = NULL;
	w->nuris = 0;
	w->next = 0;
	w->end = 0;
	free(w->data);
	w->data = NULL;
	w->size = 0;
}

/* The generator interface (gen/generator.h). */

static int
uri_wlog_gen_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct uri_wlog_config *cfg = env->cfg;
	struct uri_wlog *w;

	w = xmalloc(sizeof(*w));
	if (uri_wlog_init(w, env->core, cfg->path, cfg->wrap, env->verbose,
	    env->out, env->prog, env->done, env->done_arg, err,
	    errlen) == -1) {
		free(w);
		return -1;
	}
	uri_wlog_client(w, cfg->client_id, cfg->num_clients);
	*state = w;
	return 0;
}

static void
uri_wlog_gen_fini(void *state)
{
	uri_wlog_fini(state);
	free(state);
}

const struct generator uri_wlog_generator = {
	.name = "uri_wlog",
	.init = uri_wlog_gen_init,
	.fini = uri_wlog_gen_fini,
};
