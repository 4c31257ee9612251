/*
 * The request-rate workload (--call-rate): requests arrive open-loop on
 * the schedule (--call-rate R, shaped by --period), whatever the server
 * does, and go out over a pool of at most --max-connections keep-alive
 * connections, one request at a time on each; a request that finds no
 * idle connection waits in a queue, and its latency counts from the time
 * the schedule meant it for (call->intended).  See gen/call_pool.h for
 * the pool and the queue.  --num-calls is the total of requests.
 *
 * The closed loop (--concurrency N) is the same pool without a schedule:
 * N connections, opened at once, each sending its next request as soon
 * as one of its own ends, so that every connection always has its share
 * in flight: one request (or --burst-length pipelined ones) on HTTP/1.1,
 * --max-streams streams (100 when not given) on HTTP/2.  A connection the
 * server closes (Connection: close, a keep-alive limit) or that fails is
 * replaced once its socket is closed, so the server never sees more than
 * N at once.  Nothing is late in a closed loop: no arrival is signalled
 * (BUS_ARRIVAL), and a request is sent the moment it is made.
 */
#ifndef HTTPERF_GEN_CALL_RATE_H
#define HTTPERF_GEN_CALL_RATE_H

#include <stdint.h>

#include "gen/generator.h"
#include "gen/rate.h"

/* --max-connections when not given. */
#define CALL_RATE_DEFAULT_CONNS	100

/* Its settings (gen_env.cfg). */
struct call_rate_config {
	const struct rate_spec *rate;	/* the requests' schedule (mean
					   interval > 0); must outlive the
					   generator */
	uint64_t	 total;		/* requests; 0: no limit */
	unsigned	 max_conns;	/* 0: CALL_RATE_DEFAULT_CONNS */
	unsigned	 client_id;	/* --client I/N: seeds the schedule */
	unsigned	 num_clients;	/* and shifts it (rate.h) */
	/* --concurrency N: the closed loop, `rate' and the client's
	   share unused; 0: the schedule. */
	unsigned	 concurrency;
	uint64_t	 burst_len;	/* in flight on an HTTP/1.1 connection
					   of the closed loop (0: 1) */
};

/*
 * The generator: done is called once every request has been sent and has
 * ended, or was never sent; drain sends nothing more and lets the
 * requests in flight finish.
 */
extern const struct generator call_rate_generator;

/*
 * The closed loop's concurrency becomes `n' (>= 1) while the run goes on
 * (a sweep over concurrency drives it): more connections are opened at
 * once, or the surplus ones close after their requests in flight.
 * `state' is the generator's (its init's); no effect on a schedule.
 */
void	closed_set_concurrency(void *state, unsigned n, uint64_t now);

#endif
