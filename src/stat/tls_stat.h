/*
 * TLS statistics (--ssl): handshakes completed and resumed, handshakes
 * that failed, and the handshake time, printed after the classic report.
 */
#ifndef HTTPERF_STAT_TLS_STAT_H
#define HTTPERF_STAT_TLS_STAT_H

#include <stdint.h>
#include <stdio.h>

struct core;
struct hdr;
struct jsonw;

struct tls_stat {
	uint64_t	 handshakes;	/* completed */
	uint64_t	 resumed;
	uint64_t	 failed;
	uint64_t	 time_min;	/* ns */
	uint64_t	 time_max;
	uint64_t	 time_sum;
	struct hdr	*time;
	char		 version[32];	/* of the last completed handshake */
	char		 cipher[64];
};

/* Subscribes the collector to the core's events. */
void	tls_stat_init(struct tls_stat *st, struct core *core);

/* Prints the three TLS lines (they follow the percentile lines). */
void	tls_stat_print(const struct tls_stat *st, FILE *out);

/*
 * Writes the TLS lines' numbers as one JSON object, the handshake time
 * histogram included.  Returns 0, or -1 when it cannot be encoded.
 */
int	tls_stat_json(const struct tls_stat *st, struct jsonw *w);

/* Frees the collector's memory. */
void	tls_stat_fini(struct tls_stat *st);

struct collector;

/* The collector (stat/collector.h): its extra is the TLS lines.  No
   settings. */
extern const struct collector tls_stat_collector;

#endif
