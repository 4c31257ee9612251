/*
 * What the fuzz targets that drive a real connection (fuzz_conn,
 * fuzz_h2) share: made once per process, an event loop and a loopback
 * listener, in a network namespace of the process's own when it may make
 * one; per input, a bus and a core whose server is that listener, a
 * bounded way to run the loop, and the server's side of a connection
 * (accept, drain, reset).  Anything that goes wrong here is a
 * broken fixture, not a finding: it abort()s.
 */
#ifndef HTTPERF_FUZZ_NET_H
#define HTTPERF_FUZZ_NET_H

#include <sys/socket.h>

#include <stdint.h>

#include "core/bus.h"
#include "core/core.h"
#include "core/timer.h"
#include "net/http_req.h"

struct loop;

struct fz_net {
	struct loop		*loop;
	int			 lfd;		/* the listener */
	struct sockaddr_storage	 addr;		/* its address */
	socklen_t		 addrlen;
	struct timer		 guard;		/* a loop turn that hangs */
	const char		*prog;
	struct http_req_tmpl	 tmpl;		/* GET / with Host 127.0.0.1 */
};

/*
 * Ignores SIGPIPE, moves to a network namespace of its own when it may,
 * makes the loop (whose every turn stops it, so that fz_net_step runs
 * one), a listener on 127.0.0.1, port 0, and the request template: GET /
 * HTTP/1.1, with prog as the User-Agent and the header lines extra (with
 * CRLFs; NULL: none).  prog also names the target in the message when
 * there is no loop.
 */
void		fz_net_init(struct fz_net *n, const char *prog,
		    const char *extra);

/*
 * Starts a run: a bus on which fn(ctx) gets the events evs[0..nevs), and
 * a core on it with cfg, which the caller has set but for what is set
 * here: the listener's address, prog and the request template.
 */
struct bus	*fz_net_core(struct fz_net *n, struct core *core,
		    struct core_config *cfg, const enum bus_event *evs,
		    size_t nevs, bus_handler *fn, void *ctx);

/* Ends a run: closes what is left on the core, frees it and the bus. */
void		fz_net_core_free(struct fz_net *n, struct core *core,
		    struct bus *bus);

/*
 * Runs one loop turn; aborts when the turn waits more than a few seconds
 * or *steps (the caller's count for one input, bumped here) passes the
 * bound: the connection did not read what was written, or did not end.
 */
void		fz_net_step(struct fz_net *n, unsigned *steps);

/* Waits (5 s at the most) for the client's connection and accepts it. */
int		fz_net_accept(struct fz_net *n);

/* Reads without blocking and drops what the client sent; how much. */
uint64_t	fz_net_drain(int fd);

/* Closes fd with a reset, so that neither side lingers in TIME_WAIT. */
void		fz_net_reset(int fd);

#endif
