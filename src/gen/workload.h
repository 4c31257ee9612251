/*
 * When a workload ends, and how its arrivals are accounted: the rules
 * the connection and session generators share.  A workload creates units (connections or sessions)
 * on the arrival schedule (--rate, --period), up to a total; at rate 0
 * the next unit comes when the previous one is destroyed.  It is complete
 * when the total has been destroyed, or, once drained (a URI source ran
 * out), when every unit created so far has been: then `done' is called,
 * once.
 *
 * Arrivals.  With a schedule (rate > 0) every arrival is signalled on the
 * bus exactly once: BUS_ARRIVAL (arg.i = its place on the schedule, `now'
 * = when it was made) when its unit started, or one count of
 * BUS_ARRIVAL_MISSED when it never did: its unit failed at creation for a
 * cause of the client's own (workload_never_started()), or the run
 * ended (workload_end(), workload_stop()) with its time come.  An
 * arrival meant for after the run's end is not scheduled.  So the arrivals
 * scheduled are the sum of the two.  Sequential workloads (rate 0)
 * signal nothing.
 */
#ifndef HTTPERF_GEN_WORKLOAD_H
#define HTTPERF_GEN_WORKLOAD_H

#include <stdint.h>

#include "core/timer.h"
#include "gen/generator.h"
#include "gen/rate.h"

struct bus;
struct loop;

/*
 * Creates unit number `idx' (0 for the first), which the schedule meant
 * for `intended' (0: no schedule).  Returns 0, or -1 when the unit never
 * started (workload_never_started() of its failure): then nothing of it
 * was sent.
 */
typedef int workload_create_cb(void *arg, uint64_t idx, uint64_t intended,
    uint64_t now);

struct workload {
	struct loop	*loop;
	struct bus	*bus;		/* the arrivals go there */
	const struct rate_spec *spec;
	unsigned	 client_id;	/* --client I/N: seeds and offsets */
	unsigned	 num_clients;	/* the schedule (rate.h) */
	uint64_t	 total;		/* units to create */
	workload_create_cb *create;
	void		*arg;
	gen_done_cb	*done;
	void		*done_arg;

	struct rate_gen	 rate;
	struct timer	 seq_timer;	/* rate 0: the next unit */
	uint64_t	 created;
	uint64_t	 destroyed;
	int		 finished;	/* no more units; done was called or
					   the run is stopped */
	int		 draining;	/* workload_drain() was called */
	uint64_t	 until;		/* the run's end; UINT64_MAX: none */
	struct rate_spec own;		/* spec's copy once the rate changed */
};

/* Prepares it; `spec' must outlive it. */
void	workload_init(struct workload *w, struct loop *loop, struct bus *bus,
	    const struct rate_spec *spec, unsigned client_id,
	    unsigned num_clients, uint64_t total, workload_create_cb *create,
	    void *arg, gen_done_cb *done, void *done_arg);

/* Creates the first unit and starts the schedule (total 0: done now). */
void	workload_start(struct workload *w, uint64_t now);

/* Counts one unit destroyed; may call done, or create the next. */
void	workload_destroyed(struct workload *w, uint64_t now);

/* Creates no more units; done comes after the last live one. */
void	workload_drain(struct workload *w, uint64_t now);

/*
 * The run ends at `end' (the --runtime deadline, told at the start; the
 * moment of a signal, told after the loop): no arrival meant for after
 * it is made, and the arrivals due by then and never made are signalled
 * as missed (one BUS_ARRIVAL_MISSED): at workload_stop(), or as soon as
 * a timer catching up after a stall finds the end more than one mean
 * interval past (the run is over: they would never be sent).  The
 * earliest end told counts.
 */
void	workload_end(struct workload *w, uint64_t end);

/* The generator's set_rate (gen/generator.h), on a copy of the spec. */
void	workload_set_rate(struct workload *w, double rate, uint64_t now);

/* Creates no more units and never calls done (the run is over). */
void	workload_stop(struct workload *w);

/*
 * Returns 1 if a unit that failed at creation with errno-style cause
 * `err' never started because of the client itself: no descriptor
 * (EMFILE: fd-unavail; ENFILE: ftab-full) or no local address
 * (EADDRNOTAVAIL: addrunavail).  Failures the server causes (refused,
 * reset, timed out) are arrivals made, counted in their error class.
 */
int	workload_never_started(int err);

#endif
