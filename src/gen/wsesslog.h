/*
 * The --wsesslog N,X,F workload: N sessions whose requests, bursts and
 * think times come from the session file F (parsed by sesslog.h), its
 * sessions taken round-robin.  The sessions run on the session engine
 * (session.h).
 */
#ifndef HTTPERF_GEN_WSESSLOG_H
#define HTTPERF_GEN_WSESSLOG_H

#include <stddef.h>
#include <stdint.h>

#include "gen/session.h"
#include "gen/sesslog.h"

struct core;

struct wsesslog_config {
	struct session_config sess;	/* sess.nsess = N */
	double		 think;		/* X: default think (s) */
	const char	*path;		/* F */
};

struct wsesslog {
	struct session_gen gen;
	struct sesslog	 log;
	uint64_t	 think;		/* default, ns */
	int		 loaded;
};

/*
 * Loads the session file and prepares the workload, subscribing it to the
 * core's events.  Returns 0, or -1 with a message naming the file (and
 * line) in errbuf; nothing is left to free then.
 */
int	wsesslog_init(struct wsesslog *w, struct core *core,
	    const struct wsesslog_config *cfg, session_done_cb *done,
	    void *done_arg, char *errbuf, size_t errlen);

/* Creates the first session and starts the arrival schedule. */
void	wsesslog_start(struct wsesslog *w, uint64_t now);

/* Stops creating sessions and running them (end of the run). */
void	wsesslog_stop(struct wsesslog *w);

/* Frees live sessions (see session_gen_fini()) and the loaded file. */
void	wsesslog_fini(struct wsesslog *w);

#endif
