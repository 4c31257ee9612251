/*
 * Sessions (--wsess, --wsesslog): the engine both session workloads share.
 *
 * A session generator creates sessions on the arrival schedule (--rate,
 * --period; one after another at rate 0) and runs each as a user would:
 * bursts of calls, the first call of a burst alone and the rest together
 * once its reply is in, a think time after the last reply of a burst.  The
 * workload only says how many calls each burst has, what each request
 * carries and how long the user thinks (struct session_ops).
 *
 * Each session has its own connections: at most max_conns, each with at
 * most max_piped calls outstanding; calls that find no room wait in the
 * session's queue.  Connections and their call lists are allocated as
 * they are opened and grow with use, so large limits cost nothing until
 * the workload needs them.  A reply that closes its connection moves the
 * session's remaining calls to new connections, and from then on the
 * session sends one call at a time per connection (no pipelining).  With
 * cookies, every Set-Cookie a session receives is sent back on its later
 * requests (within the jar's limits, see cookie.h).
 *
 * With retry set, a failed try (a reply with failure_status, or a
 * connection that fails before any reply on it) is tried again after a
 * back-off, at most max_retries times in a row: the back-off starts at
 * SESSION_RETRY_FIRST and doubles with each further retry, up to
 * SESSION_RETRY_MAX, and a reply that is not a failure starts the count
 * again.  The failure after the last retry fails the session.
 */
#ifndef HTTPERF_GEN_SESSION_H
#define HTTPERF_GEN_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "gen/generator.h"
#include "gen/rate.h"
#include "gen/workload.h"

struct call;
struct core;
struct session;

#define SESSION_MAX_CONNS	4	/* --max-connections default */
#define SESSION_MAX_PIPED	32	/* --max-piped-calls default, 1.1 */
#define SESSION_RETRY_FIRST	UINT64_C(10000000)	/* 10 ms */
#define SESSION_RETRY_MAX	UINT64_C(1000000000)	/* 1 s */

/* What every session workload takes from the command line. */
struct session_config {
	uint64_t	 nsess;		/* sessions to create */
	const struct rate_spec *rate;	/* must outlive the generator */
	unsigned	 client_id;	/* --client I/N: seeds the schedule */
	unsigned	 num_clients;	/* and shifts it (rate.h) */
	unsigned	 max_conns;	/* per session and server; 0: 4 */
	unsigned	 max_piped;	/* per conn; 0: 32 (1 in HTTP/1.0) */
	int		 http_minor;	/* the run's HTTP/1.x */
	int		 cookies;	/* --session-cookies */
	unsigned	 failure_status; /* 0: none */
	int		 retry;		/* --retry-on-failure */
	unsigned	 max_retries;	/* retries in a row; 0: none */
	/* Where to count Set-Cookie fields ignored because the session's
	   jar was at its limits; NULL: not counted. */
	uint64_t	*cookies_ignored;
};

/*
 * What a workload tells the generator about session number `idx' (0 for
 * the first session created, and so on).
 */
struct session_ops {
	/* Returns the number of calls of burst `b', 0 when there is none
	   (the session is complete). */
	size_t	 (*burst)(void *arg, uint64_t idx, size_t b);
	/* Sets up the request of call `i' of burst `b' (after the URI
	   sources have seen it); NULL leaves calls as they are. */
	void	 (*fill)(void *arg, uint64_t idx, size_t b, size_t i,
		    struct call *call);
	/* Returns the think time (ns) after burst `b'. */
	uint64_t (*think)(void *arg, uint64_t idx, size_t b);
	/* A call of burst `b' has its reply (not a failure): returns how
	   many calls to add to the burst (--wsesspage: a page's objects, a
	   redirect's next hop); NULL: none. */
	size_t	 (*more)(void *arg, uint64_t idx, size_t b,
		    struct call *call, uint64_t now);
	/* Session `idx' is gone (complete or failed); NULL: nothing. */
	void	 (*gone)(void *arg, uint64_t idx);
};

/* A session generator; its fields are private to session*.c. */
struct session_gen {
	struct core	*core;
	struct session_config cfg;
	const struct session_ops *ops;
	void		*ops_arg;
	struct workload	 wl;		/* units are sessions */
	struct session	*live;		/* not yet destroyed */
	int		 stopped;	/* events are ignored */
};

/*
 * Returns the back-off (ns) before retry number `k' in a row (1 for the
 * first): SESSION_RETRY_FIRST doubled k - 1 times, at most
 * SESSION_RETRY_MAX.
 */
uint64_t session_retry_delay(unsigned k);

/*
 * Prepares the generator and subscribes it to the core's events.  `cfg'
 * is copied (cfg->rate must outlive the generator); `ops' and `ops_arg'
 * must outlive it.  `done' is called when cfg->nsess sessions have been
 * destroyed, or after the last live one once drained.
 */
void	session_gen_init(struct session_gen *g, struct core *core,
	    const struct session_config *cfg, const struct session_ops *ops,
	    void *ops_arg, gen_done_cb *done, void *done_arg);

/*
 * The generator hooks (gen/generator.h) of a session workload, whose
 * state is the struct session_gen `g': untyped, so that the workload's
 * `struct generator' points straight at them.
 *
 * start: creates the first session and starts the arrival schedule.
 * drain: no new session from now on (a URI list ran out): the live ones
 * run to their end, and `done' is called after the last of them (at once
 * if none is live).
 * end: the run ends at `end' (workload_end()).
 * set_rate: the schedule's mean rate changes (--sweep, workload_set_rate()).
 * stop: no more sessions, no more timers, events ignored.  Live sessions
 * stay as they are until session_gen_fini().
 */
void	session_gen_start(void *g, uint64_t now);
void	session_gen_drain(void *g, uint64_t now);
void	session_gen_end(void *g, uint64_t end);
void	session_gen_set_rate(void *g, double rate, uint64_t now);
void	session_gen_stop(void *g);

/*
 * Frees the state of the sessions still live, dropping the references the
 * generator holds on them and their calls.  Call after session_gen_stop()
 * and before core_fini(); it relies on no further events.
 */
void	session_gen_fini(struct session_gen *g);

#endif
