/*
 * The --wsess workload (see wsess.h): every session is the same, N2 calls
 * cut into bursts of --burst-length, the last burst possibly shorter.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/clock.h"
#include "gen/generator.h"
#include "gen/session.h"
#include "gen/wsess.h"
#include "lib/util.h"

struct wsess {
	struct session_gen gen;
	uint64_t	 ncalls;
	uint64_t	 burst_len;
	uint64_t	 think;		/* ns */
};

/* Burst `b' has burst_len calls, or what is left of N2. */
static size_t
wsess_burst(void *arg, uint64_t idx, size_t b)
{
	const struct wsess *w = arg;
	uint64_t first;

	if (b >= w->ncalls / w->burst_len + 1)
		return 0;
	first = (uint64_t)b * w->burst_len;
	if (first >= w->ncalls)
		return 0;
	return (size_t)(w->ncalls - first < w->burst_len ?
	    w->ncalls - first : w->burst_len);
}

static uint64_t
wsess_think(void *arg, uint64_t idx, size_t b)
{
	const struct wsess *w = arg;

	return w->think;
}

static const struct session_ops wsess_ops = {
	.burst = wsess_burst,
	.fill = NULL,
	.think = wsess_think,
};

/* The generator interface: the state is the session engine. */

static int
wsess_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct wsess_config *cfg = env->cfg;
	struct wsess *w;

	w = xcalloc(1, sizeof(*w));
	w->ncalls = cfg->ncalls;
	w->burst_len = cfg->burst_len > 0 ? cfg->burst_len : 1;
	w->think = clock_from_sec(cfg->think);
	session_gen_init(&w->gen, env->core, &cfg->sess, &wsess_ops, w,
	    env->done, env->done_arg);
	*state = &w->gen;
	return 0;
}

static void
wsess_fini(void *state)
{
	struct wsess *w = containerof(state, struct wsess, gen);

	session_gen_fini(&w->gen);
	free(w);
}

const struct generator wsess_generator = {
	.name = "wsess",
	.init = wsess_init,
	.start = session_gen_start,
	.drain = session_gen_drain,
	.end = session_gen_end,
	.set_rate = session_gen_set_rate,
	.stop = session_gen_stop,
	.fini = wsess_fini,
};
