/*
 * Connections and the core context.
 *
 * A connection runs the client state machine: socket, connect, write the
 * queued requests (pipelined, with writev), read and parse replies, keep
 * the connection alive or close it as the server says.  Every failure is
 * reported as an event and counted by the collectors; nothing here exits.
 * Connections come from a free list; they are destroyed (and recycled)
 * when the last reference goes, which conn_close() usually drops.
 */
#ifndef HTTPERF_CORE_CONN_H
#define HTTPERF_CORE_CONN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "core/timer.h"
#include "net/http_req.h"
#include "net/http_resp.h"
#include "net/sock.h"
#include "net/tls.h"

struct bus;
struct call;
struct loop;
struct sess;

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
	struct tls_ctx	*tls;		/* --ssl: TLS on every connection */
	int		 tls_reuse;	/* offer earlier sessions */
};

/* The core context shared by all connections and calls of a run. */
struct core {
	struct loop	*loop;
	struct bus	*bus;
	struct core_config cfg;
	int		 tmpl_head;	/* the default method is HEAD */

	char		*rbuf;		/* shared read buffer */
	size_t		 rbuf_size;

	struct conn	*free_conns;
	struct call	*free_calls;
	struct sess	*free_sess;
	struct conn	*live;		/* connections not yet destroyed */
	uint64_t	 next_conn_id;
	uint64_t	 next_call_id;
	uint64_t	 next_sess_id;

	uint64_t	 bytes_in;	/* every byte read */
	uint64_t	 bytes_out;	/* every byte written */
	uint64_t	 open_conns;

	/* Connects started in the same loop turn form a burst. */
	uint64_t	 burst_turn;
	uint64_t	 burst_cur;
	uint64_t	 burst_max;

	struct sock_hog	*hog;		/* one cursor per source address */
	size_t		 next_src;

	char		*wbuf;		/* TLS: requests gathered for a write */
	size_t		 wbuf_size;
	struct tls_slot	 tls_slot;	/* TLS: the run's resumption slot */
};

enum conn_state {
	CONN_NEW,
	CONN_CONNECTING,
	CONN_HANDSHAKE,		/* TLS handshake in progress */
	CONN_CONNECTED,
	CONN_CLOSED,
};

struct conn {
	struct conn	*next_free;
	struct conn	*live_next;	/* core->live list */
	struct conn	*live_prev;
	struct core	*core;
	uint64_t	 id;
	unsigned	 refs;
	enum conn_state	 state;
	int		 fd;
	int		 mask;		/* loop interest */
	int		 draining;	/* server will close: send no more */

	/* Queued calls: replied-to order; `unsent' is the first not yet
	   completely written. */
	struct call	*head;
	struct call	*tail;
	struct call	*unsent;

	struct http_resp resp;		/* reply of the head call */
	int		 resp_active;
	char		*keep;		/* bytes of a line cut by a read */
	size_t		 keep_len;
	size_t		 keep_cap;

	struct timer	 timer;		/* inactivity watchdog */
	uint64_t	 last_progress;
	uint64_t	 head_since;	/* a reply head (or trailer section)
					   started then; 0: not in one */

	uint64_t	 t_connect_start;
	uint64_t	 t_tcp_connected; /* TCP connect done (TLS starts) */
	uint64_t	 t_connected;	/* ready for requests */

	/* TLS (with --ssl). */
	struct tls_conn	*tls;
	struct tls_slot	*tls_slot;	/* where sessions come from and go;
					   the owner may change it before
					   conn_connect(), NULL: no reuse */
	int		 tls_resumed;	/* the handshake resumed a session */
	int		 tls_failed;	/* the handshake failed */
	uint64_t	 nreplies;	/* replies completed */

	struct sess	*sess;		/* session it serves, or NULL; not a
					   reference */

	/* Scratch space for whoever created the connection. */
	void		*owner;
	uint64_t	 owner_data[4];
};

/* Sets up the core.  `cfg' is copied; cfg->req must outlive the core. */
void	core_init(struct core *core, struct loop *loop, struct bus *bus,
	    const struct core_config *cfg);

/* Frees the free lists and buffers of the core. */
void	core_fini(struct core *core);

/*
 * Closes every connection still open (at the end of a run), quietly:
 * nothing is counted as a failure.
 */
void	core_close_all(struct core *core, uint64_t now);

/* Returns the longest burst of connects started in one loop turn. */
uint64_t core_max_burst(const struct core *core);

/* Writes a debug line to stderr when the -d level is at least `level'. */
void	core_debug(const struct core *core, int level, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/*
 * Creates a connection (one reference, held by the caller and dropped by
 * conn_close()) and signals BUS_CONN_NEW.
 */
struct conn *conn_new(struct core *core, uint64_t now);

/*
 * Opens the socket and starts connecting.  Success and failure are
 * reported by events (BUS_CONN_CONNECTED, BUS_CONN_FAILED); a failed
 * connection is closed, which may destroy it before this returns.
 */
void	conn_connect(struct conn *c, uint64_t now);

/*
 * Queues `call' on the connection (taking a reference) and writes it as
 * soon as the connection allows.  Returns 0, or -1 if the connection is
 * closed or will close (the server said so): the call is then not sent.
 */
int	conn_send(struct conn *c, struct call *call, uint64_t now);

/*
 * Closes the connection: drops its calls, signals BUS_CONN_CLOSED, closes
 * the socket and drops the creator's reference.  Harmless twice.
 */
void	conn_close(struct conn *c, uint64_t now);

/* Takes / drops a reference. */
void	conn_ref(struct conn *c);
void	conn_unref(struct conn *c, uint64_t now);

/* Returns the number of calls queued (sent or not, without a reply). */
size_t	conn_pending(const struct conn *c);

#endif
