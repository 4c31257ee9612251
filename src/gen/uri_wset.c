/*
 * The --wset URI source (see uri_wset.h).
 *
 * Each new call adds X to a miss probability; when it reaches 1 the walk
 * moves --client's N files on (modulo the set) and the probability drops
 * by 1.  The probability starts at 0.9.0's first drand48() value: 0.9.0
 * never seeded drand48(), and glibc's unseeded state is all zeros, so
 * that value is 11 / 2^48 (about 3.9e-14).  It decides whether a miss
 * lands on a boundary (X = 0.1: the tenth call misses), so the sequences
 * match 0.9.0's.  Unlike 0.9.0, a --uri ending in '/' loses that
 * '/' and not its first character, and URIs have no length limit.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "gen/uri_wset.h"
#include "lib/util.h"

#define URI_WSET_SUFFIX		".html"
#define URI_WSET_SUFFIX_LEN	(sizeof(URI_WSET_SUFFIX) - 1)

/*
 * Returns the first drand48() value of a process that never seeded it,
 * without touching drand48()'s own state.
 */
static double
uri_wset_first_drand48(void)
{
	unsigned short xsubi[3] = { 0, 0, 0 };

	return erand48(xsubi);
}

size_t
uri_wset_uri_len(const struct uri_wset *w)
{
	return w->prefix_len + 2 * (size_t)w->ndigits + URI_WSET_SUFFIX_LEN;
}

size_t
uri_wset_format(const struct uri_wset *w, uint64_t file_num, char *buf)
{
	size_t len = uri_wset_uri_len(w);
	char *p = buf + w->prefix_len + 2 * (size_t)w->ndigits;
	unsigned i;

	memcpy(buf, w->prefix, w->prefix_len);
	memcpy(p, URI_WSET_SUFFIX, URI_WSET_SUFFIX_LEN + 1);
	/* Right to left: least significant digit last. */
	for (i = 0; i < w->ndigits; i++) {
		*--p = (char)('0' + file_num % 10);
		*--p = '/';
		file_num /= 10;
	}
	return len;
}

/* BUS_CALL_NEW: one step of the walk, and the call's URI. */
static void
uri_wset_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct uri_wset *w = ctx;
	struct call *call = obj;
	char *uri;
	size_t len;

	if (w->prefix == NULL)
		return;
	w->miss_prob += w->miss_rate;
	if (w->miss_prob >= 1.0) {
		w->miss_prob -= 1.0;
		/* file_num + stride, modulo nfiles, without overflow. */
		if (w->file_num >= w->nfiles - w->stride)
			w->file_num -= w->nfiles - w->stride;
		else
			w->file_num += w->stride;
	}
	/*
	 * Calls are pipelined, so each keeps its own copy.  call->owned is
	 * ours by contract (uri_wset.h); were it taken, the old block would
	 * only leak, never be freed under its user.
	 */
	uri = xmalloc(uri_wset_uri_len(w) + 1);
	len = uri_wset_format(w, w->file_num, uri);
	call->owned = uri;
	call->uri = uri;
	call->uri_len = len;
	if (w->verbose >= 1)
		fprintf(w->out, "%s: accessing URI `%s'\n", w->prog, uri);
}

void
uri_wset_init(struct uri_wset *w, struct core *core, uint64_t nfiles,
    double miss_rate, unsigned client_id, unsigned num_clients,
    const char *prefix, int verbose, FILE *out, const char *prog)
{
	uint64_t n;
	size_t len;

	memset(w, 0, sizeof(*w));
	w->core = core;
	w->nfiles = nfiles > 0 ? nfiles : 1;
	w->miss_rate = miss_rate;
	w->stride = (num_clients > 0 ? num_clients : 1) % w->nfiles;
	w->file_num = client_id % w->nfiles;
	w->miss_prob = uri_wset_first_drand48();
	len = strlen(prefix);
	if (len > 0 && prefix[len - 1] == '/')
		len--;
	w->prefix = xmalloc(len + 1);
	memcpy(w->prefix, prefix, len);
	w->prefix[len] = '\0';
	w->prefix_len = len;
	/* As many levels as nfiles - 1 has digits, at least one. */
	w->ndigits = 1;
	for (n = (w->nfiles - 1) / 10; n > 0; n /= 10)
		w->ndigits++;
	w->verbose = verbose;
	w->out = out;
	w->prog = prog;
	bus_subscribe(core->bus, BUS_CALL_NEW, uri_wset_event, w);
}

void
uri_wset_fini(struct uri_wset *w)
{
	free(w->prefix);
	w->prefix = NULL;
	w->prefix_len = 0;
}

/* The generator interface (gen/generator.h). */

static int
uri_wset_gen_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct uri_wset_config *cfg = env->cfg;
	struct uri_wset *w;

	w = xmalloc(sizeof(*w));
	uri_wset_init(w, env->core, cfg->nfiles, cfg->miss_rate,
	    cfg->client_id, cfg->num_clients, cfg->prefix, env->verbose,
	    env->out, env->prog);
	*state = w;
	return 0;
}

static void
uri_wset_gen_fini(void *state)
{
	uri_wset_fini(state);
	free(state);
}

const struct generator uri_wset_generator = {
	.name = "uri_wset",
	.init = uri_wset_gen_init,
	.fini = uri_wset_gen_fini,
};
