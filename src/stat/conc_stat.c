/*
 * The closed loop's line (see conc_stat.h).
 *
 * The time calls spend in flight is summed without keeping a record per
 * call: a call's first byte adds its start to `open_sum' and its end
 * takes it off again, adding its length to `busy'; at the stop, the calls
 * still in flight add open * stop - open_sum.  The sum is kept modulo
 * 2^64 (unsigned arithmetic), which gives the exact difference as long
 * as it is below 2^64 ns.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bus.h"
#include "core/call.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/conc_stat.h"
#include "stat/stat_merge.h"

#define CS_K_CONC	"concurrency"
#define CS_K_REPLIES	"replies"
#define CS_K_CALLS	"calls"
#define CS_K_BUSY	"busy_ns"
#define CS_K_RATE	"reply_rate"
#define CS_K_FLIGHT	"in_flight"

struct conc_stat {
	uint64_t	 conc;
	uint64_t	 replies;	/* replies received */
	uint64_t	 calls;		/* calls sent and over */
	uint64_t	 busy;		/* ns in flight, summed */
	uint64_t	 open;		/* calls in flight */
	uint64_t	 open_sum;	/* their starts, modulo 2^64 */
	uint64_t	 start;		/* the measure's (a --sweep step's
					   begins with calls in flight) */
	int		 stopped;
	/* --merge: the sums of the files' rates and calls in flight. */
	int		 merged;
	double		 rate_sum;
	double		 flight_sum;
};

static void
conc_stat_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct conc_stat *st = ctx;
	const struct call *call = obj;
	uint64_t end;

	if (st->stopped)
		return;
	switch (ev) {
	case BUS_CALL_SEND_START:
		st->open++;
		st->open_sum += now;
		break;
	case BUS_CALL_RECV_STOP:
		st->replies++;
		break;
	case BUS_CALL_DESTROYED:
		if (call->t_send_start == 0)
			break;		/* never sent */
		end = call->t_recv_stop != 0 ? call->t_recv_stop : now;
		if (call->t_send_start < st->start) {
			/* In flight at the start: its time since. */
			st->calls++;
			if (end > st->start)
				st->busy += end - st->start;
			break;
		}
		if (st->open == 0)
			break;
		st->open--;
		st->open_sum -= call->t_send_start;
		st->calls++;
		if (end > call->t_send_start)
			st->busy += end - call->t_send_start;
		break;
	default:
		break;
	}
}

static int
conc_stat_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	static const enum bus_event evs[] = {
		BUS_CALL_SEND_START, BUS_CALL_RECV_STOP, BUS_CALL_DESTROYED,
	};
	const struct conc_stat_config *cfg = env->cfg;
	struct conc_stat *st = xcalloc(1, sizeof(*st));
	size_t i;

	*state = st;
	if (env->core == NULL) {
		st->merged = 1;
		return 0;
	}
	st->conc = cfg != NULL ? cfg->concurrency : 0;
	for (i = 0; i < nitems(evs); i++)
		bus_subscribe(env->bus, evs[i], conc_stat_event, st);
	return 0;
}

static void
conc_stat_start(void *state, uint64_t now)
{
	struct conc_stat *st = state;

	st->start = now;
}

/* The calls still in flight count for the time they had. */
static int
conc_stat_stop(void *state, uint64_t now, char *err, size_t errlen)
{
	struct conc_stat *st = state;

	if (!st->stopped) {
		st->busy += st->open * now - st->open_sum;
		st->stopped = 1;
	}
	return 0;
}

/* The rate and the calls in flight: the run's, or the merged sums. */
static void
conc_stat_figures(const struct conc_stat *st, const struct collector_run *run,
    double *rate, double *flight)
{
	double sec = run != NULL ? (double)run->duration / 1e9 : 0;

	if (st->merged) {
		*rate = st->rate_sum;
		*flight = st->flight_sum;
		return;
	}
	*rate = basic_ratio((double)st->replies, sec);
	*flight = basic_ratio((double)st->busy / 1e9, sec);
}

static void
conc_stat_extra(void *state, FILE *out, const struct collector_run *run)
{
	const struct conc_stat *st = state;
	double rate, flight;

	conc_stat_figures(st, run, &rate, &flight);
	fprintf(out, "Concurrency %llu: %.1f req/s, %.1f calls in flight "
	    "(Little's law)\n", (unsigned long long)st->conc, rate, flight);
}

static void
conc_stat_json(void *state, struct jsonw *w, const struct collector_run *run)
{
	const struct conc_stat *st = state;
	double rate, flight;

	conc_stat_figures(st, run, &rate, &flight);
	jsonw_obj_begin(w);
	jsonw_ku64(w, CS_K_CONC, st->conc);
	jsonw_ku64(w, CS_K_REPLIES, st->replies);
	jsonw_ku64(w, CS_K_CALLS, st->calls);
	jsonw_ku64(w, CS_K_BUSY, st->busy);
	jsonw_kdouble(w, CS_K_RATE, rate);
	jsonw_kdouble(w, CS_K_FLIGHT, flight);
	jsonw_obj_end(w);
}

/*
 * --merge: the counts added; each file's rate and calls in flight
 * recomputed from its counts over its own length, then added (the
 * figures the file wrote are not trusted).
 */
static void
conc_stat_merge(void *state, struct collector_merge *mg)
{
	struct conc_stat *st = state;
	uint64_t replies = 0, busy = 0;
	double sec;

	stat_merge_add(mg, CS_K_CONC, &st->conc);
	stat_merge_add(mg, CS_K_REPLIES, &replies);
	stat_merge_add(mg, CS_K_CALLS, &st->calls);
	stat_merge_add(mg, CS_K_BUSY, &busy);
	(void)stat_merge_num(mg, CS_K_RATE);
	(void)stat_merge_num(mg, CS_K_FLIGHT);
	if (mg->failed)
		return;
	if (st->replies > UINT64_MAX - replies ||
	    st->busy > UINT64_MAX - busy) {
		stat_merge_fail(mg, CS_K_REPLIES, "the sum overflows");
		return;
	}
	st->replies += replies;
	st->busy += busy;
	sec = (double)mg->duration_ns / 1e9;
	st->rate_sum += basic_ratio((double)replies, sec);
	st->flight_sum += basic_ratio((double)busy / 1e9, sec);
}

static void
conc_stat_fini(void *state)
{
	free(state);
}

const struct collector conc_stat_collector = {
	.name = "concurrency",
	.init = conc_stat_init,
	.start = conc_stat_start,
	.stop = conc_stat_stop,
	.extra = conc_stat_extra,
	.json = conc_stat_json,
	.merge = conc_stat_merge,
	.fini = conc_stat_fini,
};
