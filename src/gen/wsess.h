/*
 * The --wsess N1,N2,X workload: N1 sessions of N2 calls each, in bursts
 * of --burst-length calls separated by X seconds of user think time.  The
 * requests are the run's default (or a URI source's); the sessions run on
 * the session engine (session.h).
 */
#ifndef HTTPERF_GEN_WSESS_H
#define HTTPERF_GEN_WSESS_H

#include <stdint.h>

#include "gen/session.h"

struct core;

struct wsess_config {
	struct session_config sess;	/* sess.nsess = N1 */
	uint64_t	 ncalls;	/* N2 */
	uint64_t	 burst_len;	/* --burst-length, 0 taken as 1 */
	double		 think;		/* X, seconds */
};

struct wsess {
	struct session_gen gen;
	uint64_t	 ncalls;
	uint64_t	 burst_len;
	uint64_t	 think;		/* ns */
};

/*
 * Prepares the workload and subscribes it to the core's events.  `done'
 * is called once every session has completed or failed.  Returns 0.
 */
int	wsess_init(struct wsess *w, struct core *core,
	    const struct wsess_config *cfg, session_done_cb *done,
	    void *done_arg);

/* Creates the first session and starts the arrival schedule. */
void	wsess_start(struct wsess *w, uint64_t now);

/* Creates no more sessions; the run ends after the live ones. */
void	wsess_drain(struct wsess *w, uint64_t now);

/* Stops creating sessions and running them (end of the run). */
void	wsess_stop(struct wsess *w);

/* Frees what is left of live sessions (see session_gen_fini()). */
void	wsess_fini(struct wsess *w);

#endif
