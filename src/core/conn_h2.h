/*
 * HTTP/2 on a connection, with libnghttp2 (when configure found it).
 *
 * nghttp2 does no I/O here: the connection's read path hands the bytes
 * it read to h2_input(), and its write path calls h2_flush(), which takes
 * the frames nghttp2 has ready and writes them through the connection's
 * transport.  A connection is HTTP/2 once h2_conn_new() gave it its
 * state (after TCP for h2c, after TLS when ALPN selected "h2").
 *
 * Calls are streams.  conn_send() queues a call on the connection as on
 * HTTP/1.1; h2_send() submits it as a stream when fewer than the
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
 * that timed out: --timeout holds for each stream on its own progress
 * (h2_deadline()), not on the connection's bytes.  A
 * connection that fails with streams in flight counts each of them: one
 * BUS_CALL_FAILED per stream but the last, which BUS_CONN_FAILED counts.
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
 * Makes `c' an HTTP/2 connection (c->h2) and queues the client preface
 * and SETTINGS.  `tls': over TLS (scheme https).  Returns 0, or -1
 * (errno) if nghttp2 could not allocate.
 */
int	h2_conn_start(struct conn *c, int tls);

/* Frees c->h2 (the connection is being destroyed). */
void	h2_conn_free(struct conn *c);

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

/*
 * A call was queued on the HTTP/2 connection (or the connection just
 * became HTTP/2 with calls queued): submits what the stream limit
 * allows and writes.  May close.
 */
void	h2_send(struct conn *c, uint64_t now);

/* Writes what nghttp2 has ready.  May close. */
void	h2_flush(struct conn *c, uint64_t now);

/* Feeds `len' bytes read from the server.  Returns -1 if it closed. */
int	h2_input(struct conn *c, const char *data, size_t len, uint64_t now);

/*
 * Returns when the connection times out, or 0 for never: the earliest
 * deadline of its streams in flight, each on its own progress (see
 * h2_stream_deadline() in conn_h2.c); with none in flight, --timeout after
 * the connection's last progress.
 */
uint64_t h2_deadline(const struct conn *c);

/*
 * The watchdog found the deadline come: the streams whose deadline came
 * time out (RST_STREAM CANCEL, BUS_CALL_FAILED with H2_ERR_TIMEOUT) and
 * the connection goes on: returns 0.  Returns 1 if the connection itself
 * times out (no stream in flight, or a session's connection, whose
 * streams in flight but one are then counted with H2_ERR_TIMEOUT; the
 * caller's BUS_CONN_TIMEOUT counts that one).  May close.
 */
int	h2_expire(struct conn *c, uint64_t now);

/* The server closed its side.  Closes. */
void	h2_eof(struct conn *c, uint64_t now);

/*
 * The connection fails with cause `err': signals BUS_CALL_FAILED for each
 * stream in flight but one (BUS_CONN_FAILED counts that one).
 */
void	h2_fail_streams(struct conn *c, int err, uint64_t now);

/* The connection is closing: drops what h2 holds of its calls. */
void	h2_closing(struct conn *c, uint64_t now);

#endif
