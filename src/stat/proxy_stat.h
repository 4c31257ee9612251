/*
 * Proxy statistics (--proxy, or --proxy-env with a proxy in the
 * environment): which proxy and how, the CONNECT tunnels (--ssl) opened
 * and refused, and the tunnel setup time (from the first byte of the
 * CONNECT request to the proxy's 2xx reply head), printed after the
 * classic report:
 *
 *	Proxy: 127.0.0.1:3128 (CONNECT tunnels), tunnels 10 established 10
 *	    refused 0
 *	Tunnel setup percentiles [ms]: p50 ... max ...
 *	Proxy errors: connect-refused 0 (last status 0)
 *
 * Plain HTTP through a proxy (absolute-form requests) has only the first
 * line, without the tunnel counts.  A tunnel counts once it is
 * established, fails or times out: tunnels = established + refused +
 * those that failed otherwise (the proxy closed, reset, sent no HTTP
 * reply head, or --timeout passed).  A refused CONNECT (a final status
 * outside 2xx) is also the classic Errors line's `other'.
 */
#ifndef HTTPERF_STAT_PROXY_STAT_H
#define HTTPERF_STAT_PROXY_STAT_H

#include <stdint.h>
#include <stdio.h>

struct collector;
struct hdr;
struct jsonw;

/* Its settings (collector_env.cfg). */
struct proxy_stat_config {
	const char	*proxy;		/* "host:port", as the report says it;
					   NULL: none in use (--proxy-env) */
	int		 tunnel;	/* CONNECT tunnels (--ssl), else
					   absolute-form requests */
};

struct proxy_stat {
	char		*proxy;		/* owned copy */
	int		 tunnel;
	uint64_t	 tunnels;	/* CONNECT requests that ended */
	uint64_t	 established;	/* 2xx */
	uint64_t	 refused;	/* a final status outside 2xx */
	int		 last_status;	/* of the last refusal, 0: none */
	struct hdr	*setup;		/* tunnel setup time, ns */
};

/* Prints the proxy lines. */
void	proxy_stat_print(const struct proxy_stat *st, FILE *out);

/* Writes the lines' numbers as one JSON object (histogram included). */
void	proxy_stat_json(const struct proxy_stat *st, struct jsonw *w);

/* The collector (stat/collector.h); its extra is the proxy lines. */
extern const struct collector proxy_stat_collector;

#endif
