/*
 * The request-rate workload (--call-rate): requests arrive open-loop on
 * the schedule (--call-rate R, shaped by --period), whatever the server
 * does, and go out over a pool of at most --max-connections keep-alive
 * connections, one request at a time on each; a request that finds no
 * idle connection waits in a queue, and its latency counts from the time
 * the schedule meant it for (call->intended).  See gen/call_pool.h for
 * the pool and the queue.  --num-calls is the total of requests.
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
};

/*
 * The generator: done is called once every request has been sent and has
 * ended, or was never sent; drain sends nothing more and lets the
 * requests in flight finish.
 */
extern const struct generator call_rate_generator;

#endif
