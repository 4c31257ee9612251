/*
 * When a workload ends: the one rule the connection and session
 * generators share.  A workload creates units (connections or sessions)
 * on the arrival schedule (--rate, --period), up to a total; at rate 0
 * the next unit comes when the previous one is destroyed.  It is complete
 * when the total has been destroyed, or, once drained (a URI source ran
 * out), when every unit created so far has been: then `done' is called,
 * once.
 */
#ifndef HTTPERF_GEN_WORKLOAD_H
#define HTTPERF_GEN_WORKLOAD_H

#include <stdint.h>

#include "core/timer.h"
#include "gen/generator.h"
#include "gen/rate.h"

struct loop;

/* Creates unit number `idx' (0 for the first). */
typedef void workload_create_cb(void *arg, uint64_t idx, uint64_t now);

struct workload {
	struct loop	*loop;
	const struct rate_spec *spec;
	unsigned	 client_id;
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
};

/* Prepares it; `spec' must outlive it. */
void	workload_init(struct workload *w, struct loop *loop,
	    const struct rate_spec *spec, unsigned client_id, uint64_t total,
	    workload_create_cb *create, void *arg, gen_done_cb *done,
	    void *done_arg);

/* Creates the first unit and starts the schedule (total 0: done now). */
void	workload_start(struct workload *w, uint64_t now);

/* Counts one unit destroyed; may call done, or create the next. */
void	workload_destroyed(struct workload *w, uint64_t now);

/* Creates no more units; done comes after the last live one. */
void	workload_drain(struct workload *w, uint64_t now);

/* Creates no more units and never calls done (the run is over). */
void	workload_stop(struct workload *w);

#endif
