/*
 * --script: wrk's Lua scripting interface (wrk 4's SCRIPTING) on
 * httperf's engine.  Two Lua states per run, as wrk has one for setup()
 * and done() and one per thread: httperf's one thread is its event loop
 * (with --jobs, each worker's; the parent has one state, for done()).
 * The `wrk' table, wrk.format(), wrk.lookup(), wrk.connect() and
 * wrk.time_us(), the thread object, and the hooks setup(), init(),
 * request(), response() and done().  A request() string is the whole
 * request, sent as it is; several requests in one string go out one per
 * call, the next calls taking the rest before request() is called again.
 * Errors at start-up are one line naming the script, its line and the
 * hook; errors during the run count the call in the class `script'.
 */
#ifndef HTTPERF_SCRIPT_SCRIPT_H
#define HTTPERF_SCRIPT_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bus;
struct core;
struct hdr;

/* What the script is told of the run; the strings outlive the script. */
struct script_conf {
	const char	*file;		/* (copied) */
	const char	*url;		/* init()'s args[0] (copied) */
	const char *const *args;	/* args[1..] */
	size_t		 nargs;
	const char	*scheme;	/* "http" or "https" */
	const char	*host;
	const char	*port;		/* NULL: not in the URL */
	const char	*method;
	const char	*path;
	/* Header lines "Name: value" each ending in CR LF (or LF). */
	const char	*headers;
	size_t		 headers_len;
	const char	*body;		/* NULL: none */
	size_t		 body_len;
	/* --call-rate: delay() has no meaning there; --concurrency: it is
	   the pause before each request of the closed loop. */
	int		 open_loop;
	int		 closed_loop;
	/* --jobs: only the first state, only for done() (the parent's). */
	int		 done_only;
	/* Connections go straight to the server (no proxy, no --unix-socket):
	   a thread.addr the script sets is then where they go. */
	int		 direct;
	/* thread:stop(): ends the run cleanly. */
	void		(*stop)(void *arg, uint64_t now);
	void		*stop_arg;
};

/*
 * What done() is given: one run's (script_counts()) or, with --jobs, the
 * workers' added up.  The histograms have the settings HDR_NS_*: the
 * latency in ns (from the schedule's start, else the first byte sent),
 * the replies of each 100 ms as a rate per second.  NULL: empty.
 */
struct script_summary {
	uint64_t	 duration_ns;
	uint64_t	 replies, bytes;
	uint64_t	 e_connect, e_read, e_write, e_status, e_timeout;
	const struct hdr *lat;
	const struct hdr *rps;
};

struct script;

/*
 * Loads the script twice (the setup state, the load's state), fills the
 * `wrk' table, calls setup(thread) then init(args).  Returns NULL with
 * one line in err (no trailing newline) on any error.
 */
struct script	*script_new(const struct script_conf *cf, char *err,
		    size_t errlen);

/* Subscribes the hooks the script defines to the run's bus. */
void		 script_start(struct script *s, struct core *core,
		    struct bus *bus);

/*
 * After the classic report: the first error of the class `script', when
 * any, on the standard error, after prog (the class's line in the report
 * is stat/script_stat.c's; out is unused).
 */
void		 script_report(struct script *s, FILE *out, const char *prog);

/* done(summary, latency, requests); -1 with one line in err. */
int		 script_done(struct script *s, const struct script_summary *sum,
		    char *err, size_t errlen);

/* The number of calls counted in the class `script'. */
uint64_t	 script_errors(const struct script *s);

/* This run's counts for done() into sum (all but duration_ns). */
void		 script_counts(const struct script *s,
		    struct script_summary *sum);

void		 script_free(struct script *s);

#endif
