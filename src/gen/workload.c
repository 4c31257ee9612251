/*
 * The end of a workload (see workload.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "core/bus.h"
#include "core/clock.h"
#include "core/loop.h"
#include "core/timer.h"
#include "gen/rate.h"
#include "gen/workload.h"
#include "lib/util.h"

/* Arrival: one more unit, until the total. */
static int
workload_tick(void *arg, uint64_t now)
{
	struct workload *w = arg;
	union bus_arg a;
	uint64_t intended, n;
	int paced, rv;

	if (w->finished || w->draining || w->created >= w->total)
		return -1;
	paced = rate_spec_rate(w->spec) > 0;
	intended = paced ? w->rate.due : 0;
	/* A late timer catching up makes nothing meant for the end or
	   after: a run of T seconds is [0, T). */
	if (paced && intended >= w->until)
		return -1;
	/*
	 * The client stalled across the end and wakes up more than an
	 * interval after it: the run is over, and this arrival and the rest
	 * due by the end were never sent.
	 */
	if (paced && now > w->until && now - w->until >
	    clock_from_sec(w->spec->mean_iat)) {
		n = 1 + rate_gen_due(&w->rate, w->until - 1,
		    w->total - w->created - 1);
		a.i = n > (uint64_t)LONG_MAX ? LONG_MAX : (long)n;
		bus_signal(w->bus, BUS_ARRIVAL_MISSED, NULL, a, w->until);
		return -1;
	}
	w->created++;
	rv = w->create(w->arg, w->created - 1, intended, now);
	if (paced) {
		/* Made, or never started: each arrival counts once. */
		if (rv == 0) {
			a.i = (long)intended;
			bus_signal(w->bus, BUS_ARRIVAL, NULL, a, now);
		} else {
			a.i = 1;
			bus_signal(w->bus, BUS_ARRIVAL_MISSED, NULL, a, now);
		}
	}
	return w->created >= w->total ? -1 : 0;
}

/*
 * Rate 0: the next unit starts from the timer phase, so a run of instant
 * failures never recurses.
 */
static void
workload_seq_fired(struct timer *t, uint64_t now)
{
	struct workload *w = containerof(t, struct workload, seq_timer);

	rate_gen_next(&w->rate, now);
}

/* Complete: no more arrivals, and tell the run, once. */
static void
workload_finish(struct workload *w, uint64_t now)
{
	if (w->finished)
		return;
	w->finished = 1;
	rate_gen_stop(&w->rate);
	timer_cancel(&w->seq_timer);
	w->done(w->done_arg, now);
}

void
workload_init(struct workload *w, struct loop *loop, struct bus *bus,
    const struct rate_spec *spec, unsigned client_id, unsigned num_clients,
    uint64_t total, workload_create_cb *create, void *arg, gen_done_cb *done,
    void *done_arg)
{
	memset(w, 0, sizeof(*w));
	w->loop = loop;
	w->bus = bus;
	w->spec = spec;
	w->client_id = client_id;
	w->num_clients = num_clients;
	w->total = total;
	w->create = create;
	w->arg = arg;
	w->done = done;
	w->done_arg = done_arg;
	w->until = UINT64_MAX;
	timer_init(&w->seq_timer, workload_seq_fired);
}

void
workload_start(struct workload *w, uint64_t now)
{
	if (w->total == 0) {
		workload_finish(w, now);
		return;
	}
	rate_gen_start(&w->rate, w->loop, w->spec, w->client_id,
	    w->num_clients, workload_tick, w, now);
	/* A backlog (a client that stalled, a rate beyond what it can
	   make) is taken in a bounded number a turn, so --runtime and the
	   signals are seen between. */
	rate_gen_limit(&w->rate, RATE_TURN_MAX);
}

void
workload_destroyed(struct workload *w, uint64_t now)
{
	w->destroyed++;
	if (w->destroyed >= w->total ||
	    (w->draining && w->destroyed >= w->created))
		workload_finish(w, now);
	else if (rate_spec_rate(w->spec) == 0 && !w->finished &&
	    !w->draining)
		timer_add(loop_timers(w->loop), &w->seq_timer, now);
}

void
workload_drain(struct workload *w, uint64_t now)
{
	if (w->finished || w->draining)
		return;
	w->draining = 1;
	rate_gen_stop(&w->rate);
	timer_cancel(&w->seq_timer);
	if (w->destroyed >= w->created)
		workload_finish(w, now);
}

void
workload_end(struct workload *w, uint64_t end)
{
	if (end < w->until)
		w->until = end;
}

int
workload_never_started(int err)
{
	return err == EMFILE || err == ENFILE || err == EADDRNOTAVAIL;
}

void
workload_stop(struct workload *w)
{
	union bus_arg a;
	uint64_t n;

	/* The run ended with arrivals due and not made: never sent. */
	if (!w->finished && !w->draining && w->created < w->total &&
	    w->until != UINT64_MAX && w->until > 0) {
		n = rate_gen_due(&w->rate, w->until - 1,
		    w->total - w->created);
		if (n > 0) {
			a.i = n > (uint64_t)LONG_MAX ? LONG_MAX : (long)n;
			bus_signal(w->bus, BUS_ARRIVAL_MISSED, NULL, a,
			    w->until);
		}
	}
	w->finished = 1;
	rate_gen_stop(&w->rate);
	timer_cancel(&w->seq_timer);
}

void
workload_set_rate(struct workload *w, double rate, uint64_t now)
{
	if (w->finished)
		return;
	w->spec = rate_gen_rescale(&w->rate, &w->own, rate, now);
}
