/*
 * HTTP/2 statistics (--http2): connections by protocol, streams, frames
 * that end streams or connections, header compression, and the HTTP/2
 * error classes, printed after the classic report.
 */
#ifndef HTTPERF_STAT_H2_STAT_H
#define HTTPERF_STAT_H2_STAT_H

#include <stdint.h>
#include <stdio.h>

struct core;
struct jsonw;

/* The error classes of the `HTTP/2 errors' line. */
enum h2_stat_err {
	H2_STAT_RESET,		/* stream-reset */
	H2_STAT_REFUSED,	/* refused-stream */
	H2_STAT_GOAWAY,		/* goaway */
	H2_STAT_ALPN,		/* alpn */
	H2_STAT_PROTOCOL,	/* protocol */
	H2_STAT_NERR
};

/* Everything the lines print; adds up across runs (--merge). */
struct h2_totals {
	uint64_t	 conns_h2;	/* HTTP/2 over TLS */
	uint64_t	 conns_h2c;	/* HTTP/2 over plain TCP */
	uint64_t	 conns_http11;	/* --http2-fallback: ALPN http/1.1 */
	uint64_t	 streams;
	uint64_t	 streams_max;	/* on one connection */
	uint64_t	 max_concurrent; /* on one connection at once */
	uint64_t	 rst_recv;
	uint64_t	 rst_sent;
	uint64_t	 goaway_recv;
	uint64_t	 stalls;
	uint64_t	 hdr_sent_raw;
	uint64_t	 hdr_sent_enc;
	uint64_t	 hdr_recv_raw;
	uint64_t	 hdr_recv_enc;
	uint64_t	 errors[H2_STAT_NERR];
};

/* The JSON names of the error classes, in enum order. */
extern const char *const h2_stat_err_name[H2_STAT_NERR];

/* Prints the four HTTP/2 lines. */
void	h2_stat_print(const struct h2_totals *t, FILE *out);

/* Writes them as one JSON object (stats.h2). */
void	h2_stat_json(const struct h2_totals *t, struct jsonw *w);

struct collector;

/* The collector (stat/collector.h), json key "h2".  No settings. */
extern const struct collector h2_stat_collector;

#endif
