/*
 * The request-oriented workload: --num-conns connections created on the
 * arrival schedule (--rate, --period), each issuing --num-calls calls in
 * bursts of --burst-length pipelined calls.  It talks to the rest of the
 * program only through the core's events.
 */
#ifndef HTTPERF_GEN_CONN_GEN_H
#define HTTPERF_GEN_CONN_GEN_H

#include <stdint.h>

#include "gen/generator.h"
#include "gen/rate.h"

/* Its settings (gen_env.cfg). */
struct conn_gen_config {
	uint64_t	 num_conns;
	uint64_t	 num_calls;	/* per connection */
	uint64_t	 burst_len;	/* calls pipelined at once */
	const struct rate_spec *rate;	/* must outlive the generator */
	unsigned	 client_id;	/* --client I/N: seeds the schedule */
	unsigned	 num_clients;	/* and shifts it (rate.h) */
};

/*
 * The generator: done is called once every connection has completed or
 * failed; drain lets the connections already made finish.
 */
extern const struct generator conn_gen_generator;

#endif
