/*
 * The --wsess workload (see wsess.h): every session is the same, N2 calls
 * cut into bursts of --burst-length, the last burst possibly shorter.
 */
#include "config.h"

#include <stdint.h>

#include "core/clock.h"
#include "gen/session.h"
#include "gen/wsess.h"

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

int
wsess_init(struct wsess *w, struct core *core, const struct wsess_config *cfg,
    session_done_cb *done, void *done_arg)
{
	w->ncalls = cfg->ncalls;
	w->burst_len = cfg->burst_len > 0 ? cfg->burst_len : 1;
	w->think = clock_from_sec(cfg->think);
	session_gen_init(&w->gen, core, &cfg->sess, &wsess_ops, w, done,
	    done_arg);
	return 0;
}

void
wsess_start(struct wsess *w, uint64_t now)
{
	session_gen_start(&w->gen, now);
}

void
wsess_drain(struct wsess *w, uint64_t now)
{
	session_gen_drain(&w->gen, now);
}

void
wsess_stop(struct wsess *w)
{
	session_gen_stop(&w->gen);
}

void
wsess_fini(struct wsess *w)
{
	session_gen_fini(&w->gen);
}
