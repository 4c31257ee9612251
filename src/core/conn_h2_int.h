/*
 * What the two files of the HTTP/2 engine share: conn_h2.c (the nghttp2
 * session, its callbacks, reading and writing, the engine's table) and
 * conn_h2_stream.c (streams: their records, the requests submitted as
 * streams, their deadlines, how they end).  Nothing else includes this.
 * Every function that may close the connection says so.
 */
#ifndef HTTPERF_CORE_CONN_H2_INT_H
#define HTTPERF_CORE_CONN_H2_INT_H

#include <stddef.h>
#include <stdint.h>

#include <nghttp2/nghttp2.h>

#include "core/conn_h2.h"

struct call;
struct conn;
struct http_req_tmpl;

/*
 * One stream: its call and what the connection needs to know of it.  The
 * streams in flight are on a list in the order of their calls on the
 * connection's queue (h2_flight_add()), so that a call completed in any
 * order leaves the queue in O(1).
 */
struct h2_stream {
	struct h2_stream *next_free;
	struct h2_stream *next_all;	/* every record of the connection */
	struct h2_stream *prev;		/* in flight: the one before, */
	struct h2_stream *next;		/* and after */
	struct call	*call;		/* NULL once it ended for us (its
					   nghttp2 stream may still close) */
	int		 in_flight;	/* on the list */
	int		 closed;	/* its nghttp2 stream closed */
	int32_t		 id;
	const char	*body;		/* request body still to send */
	size_t		 body_left;
	int		 final;		/* a final (non-1xx) head came */
	int		 in_trailer;	/* the header block is a trailer */
	int		 got_end;	/* END_STREAM received */
	int		 rst_recv;	/* RST_STREAM received */
	uint32_t	 rst_code;
	int		 not_sent;	/* nghttp2 could not send it */
	int		 end_sent;	/* our END_STREAM went out */
	int		 stalled;	/* body held by flow control now */
	uint64_t	 head_bytes;	/* decoded bytes of the reply's head
					   (interim ones included), or of
					   its trailer */
	unsigned	 ninterim;	/* 1xx heads */
	uint64_t	 last;		/* its last progress: its frames
					   written, its reply's fields and
					   body bytes read */
	uint64_t	 head_since;	/* a head (or trailer) under way
					   since, or 0 */
};

/* A request whose last frame is written once out_done reaches `end'. */
struct h2_sent {
	struct call	*call;
	uint64_t	 end;
};

struct h2_conn {
	struct conn	*conn;
	nghttp2_session	*ng;
	int		 tls;
	int		 busy;		/* inside nghttp2 */
	uint64_t	 now;		/* of the bytes nghttp2 is given or
					   asked for: the callbacks' time */
	unsigned	 active;	/* streams in flight (their calls not
					   done) */
	uint32_t	 server_max;	/* its MAX_CONCURRENT_STREAMS, */
	int		 server_limit;	/* if it set one */
	int		 settings;	/* its SETTINGS came */
	int		 goaway;	/* GOAWAY received */
	uint32_t	 goaway_code;
	int		 die_err;	/* fail the connection with it, or 0 */
	unsigned	 ncont;		/* CONTINUATIONs of this block */
	int		 fill_streams;	/* h2_fill() took stream frames */
	uint64_t	 streams_end;	/* out_total after the last of them */
	uint64_t	 wrote;		/* when the last write carried some */

	/* Frames taken from nghttp2, not yet written. */
	char		*obuf;
	size_t		 ooff;
	size_t		 olen;
	size_t		 ocap;
	uint64_t	 out_total;	/* bytes taken from nghttp2 */
	uint64_t	 out_done;	/* bytes written */
	struct h2_sent	*sent;		/* SEND_STOP to signal, in order: */
	size_t		 sent_off;	/* [sent_off, nsent) */
	size_t		 nsent;
	size_t		 capsent;

	/* The run's fixed request fields, names lowercased. */
	nghttp2_nv	*base;
	size_t		 nbase;
	char		*base_buf;
	const char	*authority;	/* into base_buf, or NULL */
	size_t		 authority_len;
	/* Per-request scratch: the fields of one request. */
	nghttp2_nv	*nv;
	size_t		 nvcap;
	char		*lbuf;		/* lowercased per-call names */
	size_t		 lcap;
	/* A reply line for BUS_CALL_RECV_HDR. */
	char		*line;
	size_t		 linecap;

	struct h2_stream *free_streams;
	struct h2_stream *first;	/* in flight, oldest first */
	struct h2_stream *last;
	struct h2_stream *all_streams;	/* free or not: freed at the end */
	struct h2_stats	 st;
};

/* conn_h2_stream.c: streams. */

/* Puts a stream record back on the connection's free list. */
void	h2_stream_put(struct h2_conn *h, struct h2_stream *s);

/* Returns the record of stream `id' while its call waits on it, or NULL. */
struct h2_stream *h2_stream_of(nghttp2_session *ng, int32_t id);

/* The stream progressed at `now'; `head': a head or trailer starts. */
void	h2_progress(struct conn *c, struct h2_stream *s, int head,
	    uint64_t now);

/* Takes the run's fixed header fields from the HTTP/1.1 template. */
void	h2_base_init(struct h2_conn *h, const struct http_req_tmpl *t);

/* Returns how many streams may be open at once. */
unsigned h2_limit(const struct h2_conn *h);

/* Submits queued calls while the limit allows.  May close. */
void	h2_pump(struct conn *c, uint64_t now);

/* Returns the number of calls submitted as streams and not done. */
size_t	h2_inflight(const struct conn *c);

/* The engine's fail, deadline and expire (conn_int.h). */
void	h2_fail_streams(struct conn *c, int err, uint64_t now);
uint64_t h2_deadline(const struct conn *c);
int	h2_expire(struct conn *c, uint64_t now);

/* The stream's call has its whole reply.  May close. */
void	h2_reply_done(struct conn *c, struct h2_stream *s, uint64_t now);

/* Returns the cause a stream closed with `code' before its reply had. */
int	h2_stream_cause(const struct h2_conn *h, const struct h2_stream *s,
	    uint32_t code);

/* The stream failed with `err'.  May close. */
void	h2_stream_failed(struct conn *c, struct h2_stream *s, int err,
	    uint64_t now);

/* conn_h2.c: the session. */

/* Submits what the stream limit allows and writes.  May close. */
void	h2_send(struct conn *c, uint64_t now);

/* Fails the connection with `err' (closes it if no call is on it). */
void	h2_die(struct conn *c, int err, uint64_t now);

#endif
