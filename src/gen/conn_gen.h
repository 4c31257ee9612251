/*
 * The request-oriented workload: --num-conns connections created on the
 * arrival schedule (--rate, --period), each issuing --num-calls calls in
 * bursts of --burst-length pipelined calls.  It talks to the rest of the
 * program only through the core's events.
 */
#ifndef HTTPERF_GEN_CONN_GEN_H
#define HTTPERF_GEN_CONN_GEN_H

#include <stdint.h>

#include "core/timer.h"
#include "gen/rate.h"

struct core;

/* Called once every connection has completed or failed. */
typedef void conn_gen_done_cb(void *arg, uint64_t now);

struct conn_gen {
	struct core	*core;
	uint64_t	 num_conns;
	uint64_t	 num_calls;
	uint64_t	 burst_len;
	const struct rate_spec *spec;
	unsigned	 client_id;
	conn_gen_done_cb *done;
	void		*done_arg;

	struct rate_gen	 rate;
	struct timer	 seq_timer;	/* sequential mode: next conn */
	uint64_t	 created;
	uint64_t	 destroyed;
	int		 finished;
	int		 draining;	/* conn_gen_drain() was called */
};

/*
 * Prepares the generator and subscribes it to the core's events.  `spec'
 * must outlive it.
 */
void	conn_gen_init(struct conn_gen *g, struct core *core,
	    uint64_t num_conns, uint64_t num_calls, uint64_t burst_len,
	    const struct rate_spec *spec, unsigned client_id,
	    conn_gen_done_cb *done, void *done_arg);

/* Creates the first connection and starts the schedule. */
void	conn_gen_start(struct conn_gen *g, uint64_t now);

/* Stops creating connections. */
void	conn_gen_stop(struct conn_gen *g);

/*
 * Creates no more connections but lets those already made finish: `done'
 * is called when the last of them is destroyed (at once if none is left).
 * For a URI source that ran out, so the replies still in flight count.
 */
void	conn_gen_drain(struct conn_gen *g, uint64_t now);

#endif
