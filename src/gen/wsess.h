/*
 * The --wsess N1,N2,X workload: N1 sessions of N2 calls each, in bursts
 * of --burst-length calls separated by X seconds of user think time.  The
 * requests are the run's default (or a URI source's); the sessions run on
 * the session engine (session.h).
 */
#ifndef HTTPERF_GEN_WSESS_H
#define HTTPERF_GEN_WSESS_H

#include <stdint.h>

#include "gen/generator.h"
#include "gen/session.h"

/* Its settings (gen_env.cfg). */
struct wsess_config {
	struct session_config sess;	/* sess.nsess = N1 */
	uint64_t	 ncalls;	/* N2 */
	uint64_t	 burst_len;	/* --burst-length, 0 taken as 1 */
	double		 think;		/* X, seconds */
};

/*
 * The generator: done is called once every session has completed or
 * failed; drain lets the live sessions run on (their later calls may get
 * no URI and are abandoned) and ends after them.
 */
extern const struct generator wsess_generator;

#endif
