/*
 * The core context: what every connection, call and session of a run
 * shares.  It holds the loop and the event bus, the configuration taken
 * from the command line, the transport every connection uses, the id
 * counters and the pools the objects come from.  Nothing in it is a
 * statistic: collectors count from the events on the bus.
 */
#ifndef HTTPERF_CORE_CORE_H
#define HTTPERF_CORE_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "lib/tmpl.h"
#include "net/http_req.h"
#include "net/sock.h"
#include "net/tls.h"

struct bus;
struct call;
struct conn;
struct loop;
struct transport_ops;

/*
 * --template: the fields of the request that are templates, expanded into
 * each call as it is sent (conn_send()); NULL: the field is plain, and in
 * the run's http_req_tmpl as always.  A call's own URI or body (--wlog,
 * --wsesslog) wins over the template's; a call may carry templates of
 * its own (call->uri_tmpl, body_tmpl: a session file's).
 */
struct core_tmpl {
	const struct tmpl *uri;
	const struct tmpl *hdrs;	/* header lines, each with its CRLF */
	const struct tmpl *body;	/* with a Content-Length line of its
					   length among the headers */
	struct tmpl_rng	 rng;		/* --seed and --client's stream */
	uint64_t	 client;	/* {{client}} */
	int64_t		 epoch_off;	/* the epoch's ns minus clock_now()'s */
	/* The values of the names beyond the built-in ones (TMPL_HOOK:
	   --data's columns, a session's variables); the subject is the
	   call.  NULL: no such name was compiled. */
	tmpl_value_fn	 value;
	void		*value_arg;
};

/*
 * --servers: one of the servers a run spreads its connections (or
 * sessions) over, round-robin.  Without --servers the run has none and
 * its one server is core_config's addr, req and tls.
 */
struct core_target {
	struct sockaddr_storage addr;
	socklen_t	 addrlen;
	const struct http_req_tmpl *req; /* its requests (its Host line) */
	struct tls_ctx	*tls;		/* TLS with its SNI, NULL: TCP */
	char		*name;		/* "HOST:PORT", for the report */
	const char	*host;		/* its name or address, no brackets */
	unsigned	 port;
};

/* What the core needs from the command line. */
struct core_config {
	struct sockaddr_storage addr;	/* the server */
	socklen_t	 addrlen;
	struct sock_opts sock;
	int		 hog;		/* explicit source ports */
	/* --myaddr: source addresses used round-robin (port 0), or none. */
	const struct sockaddr_storage *src;
	size_t		 nsrc;
	uint64_t	 timeout;	/* ns without progress, 0: none */
	uint64_t	 think_timeout;	/* ns added while awaiting a reply */
	size_t		 max_line;	/* longest reply line accepted */
	uint64_t	 max_head;	/* largest header (trailer) section */
	int		 debug;		/* -d level */
	const char	*prog;		/* prefix of debug lines */
	const struct http_req_tmpl *req;
	struct core_tmpl *tmpl;		/* --template, or NULL */
	struct tls_ctx	*tls;		/* --ssl: TLS on every connection */
	int		 tls_reuse;	/* offer earlier sessions */
	/* --http2: HTTP/2 (TLS: if ALPN selects h2, else http/1.1 with
	   --http2-fallback); max_streams: concurrent streams per
	   connection, 0: the server's limit (100 if it sets none). */
	int		 http2;
	int		 http2_fallback;
	unsigned	 max_streams;
	/* --proxy with --ssl: the CONNECT request that opens the tunnel
	   on every connection (then TLS), or NULL. */
	const char	*tunnel_req;
	size_t		 tunnel_len;
	/* A call with a reply spec (call->rspec) is handed to reply_fn
	   once its reply is complete, before BUS_CALL_RECV_STOP (session
	   variables, checks: gen/svars.h); NULL: none. */
	void		(*reply_fn)(void *arg, struct call *call,
			    uint64_t now);
	void		*reply_arg;
	/* --servers: the servers, or none (ntargets 0). */
	const struct core_target *targets;
	size_t		 ntargets;
};

/*
 * A pool of objects of one size: a free list that keeps at most as many
 * free objects as there are live ones (and at least CORE_POOL_MIN), so a
 * steady run allocates nothing per object while the memory of a peak
 * (100,000 connections at once) goes back as the load falls.
 */
struct core_pool {
	void		*free;		/* the first word links them */
	size_t		 size;		/* of an object */
	size_t		 nfree;
	size_t		 nlive;		/* taken and not yet put back */
};

#define CORE_POOL_MIN	64

/* The core context shared by all connections and calls of a run. */
struct core {
	struct loop	*loop;
	struct bus	*bus;
	struct core_config cfg;
	int		 tmpl_head;	/* the default method is HEAD */

	/* The transport of every connection, and its run-wide context. */
	const struct transport_ops *xops;
	void		*xctx;

	char		*rbuf;		/* shared read buffer */
	size_t		 rbuf_size;

	struct core_pool conns;
	struct core_pool calls;
	struct core_pool sess;
	struct conn	*live;		/* connections not yet destroyed */
	uint64_t	 next_conn_id;
	uint64_t	 next_call_id;
	uint64_t	 next_sess_id;

	struct sock_hog	*hog;		/* one cursor per source address */
	size_t		 next_src;

	struct tls_slot	 tls_slot;	/* TLS: the run's resumption slot */

	/* --servers: the next target of a connection and of a session,
	   and each target's resumption slot. */
	size_t		 next_target;
	size_t		 next_sess_target;
	struct tls_slot	*target_slots;
	/* --script's delay(): the pause (ns) before the closed loop's next
	   request, asked for each; NULL: none.  Set by the script. */
	uint64_t	(*call_delay)(void *arg, uint64_t now);
	void		*call_delay_arg;
};

/* Sets up the core.  `cfg' is copied; cfg->req must outlive the core. */
void	core_init(struct core *core, struct loop *loop, struct bus *bus,
	    const struct core_config *cfg);

/*
 * --servers: the index of the server whose origin is the scheme (https
 * non-zero: TLS), host (ASCII case-insensitive, no brackets) and port
 * of a URL, or -1 when none is (or the run has no --servers).
 */
long	core_target_find(const struct core_config *cfg, int https,
	    const char *host, unsigned port);

/* Frees the pools and buffers of the core. */
void	core_fini(struct core *core);

/*
 * Closes every connection still open (at the end of a run), quietly:
 * nothing is counted as a failure.
 */
void	core_close_all(struct core *core, uint64_t now);

/* Writes a debug line to stderr when the -d level is at least `level'. */
void	core_debug(const struct core *core, int level, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* Returns an object from the pool (uninitialised memory).  Never NULL. */
void	*core_pool_get(struct core_pool *p);

/* Gives an object back to its pool, which may free it. */
void	core_pool_put(struct core_pool *p, void *obj);

#endif
