/*
 * The closed loop's line (--concurrency N, gen/call_rate.h), after the
 * classic report:
 *
 *   Concurrency N: R req/s, L calls in flight (Little's law)
 *
 * R is the replies received per second of the test; L the mean number of
 * calls in flight over the test, the time every call spent from its
 * first byte sent to its end (its reply's last byte, or its failure)
 * summed and divided by the test's length: by Little's law the rate of
 * calls times their mean time.  With N connections each carrying one
 * call, L near N says the loop kept them busy; well below N, the client
 * spent the time elsewhere (connecting again, its own work).  Calls still
 * in flight at the end count for the time they had.
 *
 * JSON: stats.concurrency {concurrency, replies, calls, busy_ns,
 * reply_rate, in_flight}.  --merge adds the concurrency and the counts,
 * and the files' rates and calls in flight (each file's own, over its
 * own length: the clients ran side by side).
 */
#ifndef HTTPERF_STAT_CONC_STAT_H
#define HTTPERF_STAT_CONC_STAT_H

#include <stdint.h>

/* Its settings. */
struct conc_stat_config {
	unsigned	 concurrency;	/* --concurrency N */
};

struct collector;

/* The collector (stat/collector.h), json key "concurrency". */
extern const struct collector conc_stat_collector;

#endif
