/*
 * HTTP/2 on a connection, with libnghttp2 (when configure found it): the
 * connection's second engine beside HTTP/1.1 (conn_h2.c, its table
 * conn_h2_ops in conn_int.h), what other layers see of it here.
 *
 * nghttp2 does no I/O here: the connection's read path hands the bytes
 * it read to the engine, and its write path has it take the frames
 * nghttp2 has ready and write them through the connection's transport.
 * A connection is HTTP/2 (c->h2 set) once the engine started on it
 * (after TCP for h2c, after TLS when ALPN selected "h2").
 *
 * Calls are streams.  conn_send() queues a call on the connection as on
 * HTTP/1.1; the engine submits it as a stream when fewer than the
 * connection's limit are open (else it waits on the queue), and signals
 * BUS_CALL_SEND_START then.  BUS_CALL_SEND_STOP follows when the frame
 * that ends the request has been written to the transport; the reply
 * signals BUS_CALL_RECV_START at its :status, BUS_CALL_RECV_HDR with a
 * status line "HTTP/2 NNN" then each field as "name: value" and the empty
 * line, BUS_CALL_RECV_DATA, trailers as BUS_CALL_RECV_FOOTER, and
 * BUS_CALL_RECV_STOP at the server's END_STREAM after a final head,
 * whether or not the stream is closed yet (a request not all sent then
 * is cut short: its upload stops with RST_STREAM NO_ERROR).  Replies
 * complete by stream, in any order.  What a call counts: req_len is the bytes of its frames
 * (9-byte frame headers included), hdr_bytes the size the reply's header
 * section would have in HTTP/1.1 ("HTTP/2 NNN" line, "name: value" lines
 * with CRLF, the empty line), decoded, not as HPACK compressed it.
 *
 * A stream that fails (RST_STREAM from the server, refused, lost to a
 * GOAWAY, a protocol error, :status outside 100-599, more than 100
 * interim heads) signals BUS_CALL_FAILED with one of the causes below,
 * counted in the classic report's `other', or client-timo for a stream
 * that timed out: --timeout holds for each stream on its own progress,
 * not on the connection's bytes.  A connection that fails with streams
 * in flight counts each of them: one BUS_CALL_FAILED per stream but the
 * last, which BUS_CONN_FAILED counts.
 * On a session's connection (c->sess) a failed stream fails the whole
 * connection, so that the session's retry and failure rules stay those
 * of HTTP/1.1.
 */
#ifndef HTTPERF_CORE_CONN_H2_H
#define HTTPERF_CORE_CONN_H2_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

struct call;
struct conn;
struct h2_conn;

/* The causes of HTTP/2 failures (errno values counted as `other'). */
#define H2_ERR_RESET	ECANCELED	/* RST_STREAM with no full reply */
#define H2_ERR_REFUSED	EAGAIN		/* REFUSED_STREAM, or above the
					   GOAWAY's last stream id */
#define H2_ERR_GOAWAY	ESHUTDOWN	/* lost to a GOAWAY with an error */
#define H2_ERR_ALPN	ENOPROTOOPT	/* ALPN did not select h2 */
#define H2_ERR_PROTOCOL	EBADMSG		/* nghttp2 session error */
/* A stream that timed out alone (its connection lives on), or one of
   several in flight on a connection that timed out: client-timo. */
#define H2_ERR_TIMEOUT	ETIME

#define H2_DEFAULT_STREAMS	100	/* without --max-streams, when the
					   server sets no limit */

/* What one connection did, for the h2_stat collector. */
struct h2_stats {
	uint64_t	 streams;	/* streams opened */
	uint64_t	 max_concurrent; /* most open at once */
	uint64_t	 rst_recv;
	uint64_t	 rst_sent;
	uint64_t	 goaway_recv;
	uint64_t	 stalls;	/* request bodies held by the server's
					   flow-control window */
	/* Header fields: name + value lengths (as h2load counts them),
	   and the HEADERS and CONTINUATION payload that carried them. */
	uint64_t	 hdr_sent_raw;
	uint64_t	 hdr_sent_enc;
	uint64_t	 hdr_recv_raw;
	uint64_t	 hdr_recv_enc;
};

/* Returns non-zero if this httperf has HTTP/2 built in. */
int	h2_built(void);

/*
 * These answer for any connection, in any build: without libnghttp2 no
 * connection is HTTP/2 (conn.c asks the connection's engine).
 */

/* Returns the connection's counters, or NULL if it is not HTTP/2. */
const struct h2_stats *h2_conn_stats(const struct conn *c);

/* Returns non-zero if the HTTP/2 connection is over TLS (h2, not h2c). */
int	h2_conn_tls(const struct conn *c);

/*
 * Returns how many streams the HTTP/2 connection may have open at once
 * (--max-streams within the server's limit), or 0 while the server's
 * SETTINGS have not come, or if the connection is not HTTP/2.
 */
unsigned h2_conn_streams(const struct conn *c);

#endif
