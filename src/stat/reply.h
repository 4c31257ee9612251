/*
 * The measures of a completed reply, worked out in this one place for
 * every collector that records them (basic, interval), so that the
 * report's, the JSON's and the intervals' reply times cannot disagree.
 */
#ifndef HTTPERF_STAT_REPLY_H
#define HTTPERF_STAT_REPLY_H

#include <stdint.h>

struct call;

struct stat_reply {
	uint64_t	 reply;		/* ns, send start to the reply's end;
					   0 when `ahead' */
	uint64_t	 corrected;	/* ns, from when the schedule meant
					   the call to start (call->intended,
					   or else its send start) to the
					   reply's end; 0 if before */
	int		 ahead;		/* the reply ended before its send
					   start: read ahead of its request,
					   from a server that answered what
					   it was not asked yet (the send
					   start reads the clock afresh) */
};

/* The measures of `call', whose reply is complete. */
void	stat_reply_measure(const struct call *call, struct stat_reply *r);

#endif
