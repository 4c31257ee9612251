/*
 * The event bus: typed events about connections, calls and sessions.
 * Workload generators and statistics collectors subscribe here and talk to
 * each other only through it.  Any number of handlers per event; they run
 * synchronously, in subscription order.
 */
#ifndef HTTPERF_CORE_BUS_H
#define HTTPERF_CORE_BUS_H

#include <stddef.h>
#include <stdint.h>

enum bus_event {
	BUS_PERF_SAMPLE,	/* obj NULL; arg.d = 1 / seconds since last */

	BUS_CONN_NEW,		/* obj conn */
	/* Socket ready, connect() about to run; arg.i = the loop turn
	   (connects started in one turn are one burst). */
	BUS_CONN_CONNECTING,
	BUS_CONN_CONNECTED,
	BUS_CONN_FAILED,	/* arg.i = errno-style cause */
	BUS_CONN_TIMEOUT,	/* no forward progress for --timeout */
	BUS_CONN_CLOSED,	/* before close(2) */
	BUS_CONN_DESTROYED,
	/* arg.i = bytes read from (written to) the connection, as the
	   transport hands them over (with TLS: plaintext).  A handler must
	   not close the connection. */
	BUS_CONN_BYTES_IN,
	BUS_CONN_BYTES_OUT,

	BUS_CALL_NEW,		/* obj call */
	BUS_CALL_SEND_START,	/* first byte about to be written */
	BUS_CALL_SEND_STOP,	/* request completely written */
	BUS_CALL_RECV_START,	/* status line of the reply parsed */
	/* arg.buf = one line of the reply's header section, without EOL:
	   status lines, header lines and the empty line ending each block,
	   interim (1xx) replies included, in the order received. */
	BUS_CALL_RECV_HDR,
	BUS_CALL_RECV_DATA,	/* arg.buf = body bytes, de-chunked */
	/* arg.buf = one trailer line, without EOL, the final empty one
	   included. */
	BUS_CALL_RECV_FOOTER,
	BUS_CALL_RECV_STOP,	/* reply complete */
	/* The call failed on its own while its connection lives on, or
	   one of several calls in flight on a connection that failed (an
	   HTTP/2 stream reset or refused), or, with call->conn NULL, a call
	   the server did not process is destroyed unanswered (call.h:
	   unprocessed); arg.i = errno-style cause, counted like
	   BUS_CONN_FAILED's.  The call is then dropped. */
	BUS_CALL_FAILED,
	BUS_CALL_DESTROYED,

	BUS_SESS_NEW,		/* obj session, just made (its owner's
				   state not yet set) */
	BUS_SESS_FAILED,	/* obj session */
	BUS_SESS_DESTROYED,

	/*
	 * A workload made an arrival of its schedule (--rate, --period,
	 * --call-rate): a connection, a session or a request.  obj NULL;
	 * arg.i = the time the schedule meant it for (ns, the clock of
	 * `now'); `now' = when the workload made it.  Sequential workloads
	 * (rate 0) have no schedule and signal nothing.
	 */
	BUS_ARRIVAL,
	/*
	 * Scheduled arrivals that never started their first request: the
	 * test ended with their time come, or they failed before sending
	 * (no file descriptor, no local address, ...).  arg.i = how many.
	 * obj NULL; but --call-rate, whose requests are made (BUS_ARRIVAL)
	 * when taken into its queue and counted here when one then never
	 * goes out, gives a non-NULL obj (its own) for arrivals it never
	 * took in: due before the end, the schedule behind.
	 */
	BUS_ARRIVAL_MISSED,

	/* A page view (--wsesspage) is complete: obj its struct
	   bus_page_view; arg unused. */
	BUS_PAGE_VIEW,
	/* --script: a hook raised an error or returned the wrong type (the
	   class `script'; the call goes on).  obj NULL. */
	BUS_SCRIPT_ERROR,

	BUS_NEVENTS
};

/* BUS_PAGE_VIEW's obj: one page view and what it fetched. */
struct bus_page_view {
	uint64_t	 time;		/* ns, page request to last object */
	uint64_t	 objects;	/* fetched, the page not counted */
	uint64_t	 bytes;		/* of every reply of the view */
	uint64_t	 cross;		/* objects of other origins, skipped */
	uint64_t	 over;		/* beyond the page's object limit */
	uint64_t	 redirects;	/* followed */
};

/* The event's argument; which member is set depends on the event. */
union bus_arg {
	long		i;
	double		d;
	struct {
		const char	*p;
		size_t		 len;
	}		buf;
};

/* A handler: `ctx' is what was given to bus_subscribe(). */
typedef void bus_handler(void *ctx, enum bus_event ev, void *obj,
    union bus_arg arg, uint64_t now);

struct bus;

/* Creates an empty bus.  Never returns NULL. */
struct bus	*bus_new(void);

/* Frees the bus.  NULL is ok. */
void		 bus_free(struct bus *b);

/* Adds `h' (with `ctx') to the handlers of `ev'. */
void		 bus_subscribe(struct bus *b, enum bus_event ev,
		    bus_handler *h, void *ctx);

/* Runs every handler of `ev'. */
void		 bus_signal(struct bus *b, enum bus_event ev, void *obj,
		    union bus_arg arg, uint64_t now);

/* Returns non-zero if `ev' has a handler (to skip building arguments). */
int		 bus_wanted(const struct bus *b, enum bus_event ev);

#endif
