/*
 * Per-server statistics (--servers): for each server of the file, in its
 * order, one line after the classic report (and after the lines that
 * follow it):
 *
 *	Server HOST:PORT: connections C requests R replies P errors E
 *	    connrefused F client-timo T reply-p99 X ms
 *
 * (on one line).  C counts the connections that started connecting to
 * the server; R the requests written (as the classic Total line); P the
 * replies completed; E every failure of its connections and their calls,
 * of any class of the classic Errors lines, F and T two of those
 * classes; X the 99th percentile of the reply time (from the request's
 * first byte to the reply's last, as the Reply time percentiles line),
 * 0.000 without replies.  The sums over the servers are the classic
 * totals (a call that failed without a connection counts on its
 * session's server).
 * The --json part (stats.servers) has the same numbers per server, and
 * --merge sums them when the files name the same servers in the same
 * order.
 */
#ifndef HTTPERF_STAT_SERVER_STAT_H
#define HTTPERF_STAT_SERVER_STAT_H

#include <stddef.h>
#include <stdint.h>

struct collector;
struct core_target;
struct hdr;

/* Its settings (collector_env.cfg): the run's servers (core.h). */
struct server_stat_config {
	const struct core_target *targets;
	size_t		 n;
};

struct server_count {
	char		*name;		/* "HOST:PORT" */
	uint64_t	 conns;
	uint64_t	 requests;
	uint64_t	 replies;
	uint64_t	 errors;
	uint64_t	 refused;
	uint64_t	 timeouts;
	struct hdr	*reply;		/* reply time, ns */
};

struct server_stat {
	struct server_count *s;
	size_t		 n;
	const struct core_target *targets; /* the core's, NULL: merged */
};

/* The collector (stat/collector.h); its extra is the server lines. */
extern const struct collector server_stat_collector;

#endif
