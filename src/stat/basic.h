/*
 * The basic statistics collector: subscribes to connection and call
 * events, keeps the totals of the classic report, and prints it.
 */
#ifndef HTTPERF_STAT_BASIC_H
#define HTTPERF_STAT_BASIC_H

#include <stdint.h>
#include <stdio.h>

#include "stat/basic_report.h"
#include "stat/stat_json.h"

struct core;
struct hdr;
struct jsonw;

/*
 * The phases with a percentile line after the classic report, in the
 * order of the lines.  In ns:
 *	LIFETIME	a connection with a reply: connect start to its end
 *	CONNECT		TCP connect: connect start to TCP connected
 *	TLS		the TLS handshake: TCP connected to connected
 *	FIRST_BYTE	send start to the reply's first byte
 *	TRANSFER	the reply's first byte to its end
 *	REPLY		the whole call: send start to the reply's end
 *	REPLY_CORR	the whole call from when the schedule meant it to
 *			start (call->intended, or else its send start) to
 *			the reply's end: the corrected reply time
 *	SESSION		a completed session: its creation to its end
 */
enum basic_phase {
	BASIC_PH_LIFETIME,
	BASIC_PH_CONNECT,
	BASIC_PH_TLS,
	BASIC_PH_FIRST_BYTE,
	BASIC_PH_TRANSFER,
	BASIC_PH_REPLY,
	BASIC_PH_REPLY_CORR,
	BASIC_PH_SESSION,
	BASIC_NPHASES
};

/* Its settings (collector_env.cfg; NULL is all 0). */
struct basic_config {
	int		 tls;		/* --ssl: the TLS handshake line */
	int		 sessions;	/* a session workload: its line */
	int		 periodic;	/* --periodic-stats: its final line */
	int		 corrected;	/* the run has a schedule: the
					   corrected reply time line */
};

struct basic {
	FILE		*out;		/* where -v samples go */
	int		 verbose;
	struct basic_totals t;
	uint64_t	 net_bytes;	/* read and written */
	/* Connects started in one loop turn form a burst. */
	uint64_t	 burst_turn;
	uint64_t	 burst_cur;
	uint64_t	 burst_max;
	uint64_t	 concurrent;
	uint64_t	 interval_replies;	/* since the last sample */
	uint64_t	 start;		/* the measure's (see start) */
	struct stat_samples rr;		/* every reply-rate sample */
	/* One histogram per phase (enum basic_phase); NULL when the run
	   has no such phase (no --ssl, no sessions, no schedule). */
	struct hdr	*phase[BASIC_NPHASES];
	uint32_t	*bins;		/* -v -v: 1 ms lifetime bins */
	uint32_t	 nbins;
	struct stat_samples rr_merge;	/* --merge: the files' k-th reply
					   rate samples added */
};

/* Subscribes the collector to the core's events. */
void	basic_init(struct basic *b, struct core *core, int verbose,
	    FILE *out, const struct basic_config *cfg);

/* Frees the collector's memory. */
void	basic_fini(struct basic *b);

/*
 * Prints the classic report, from its first line ("Maximum connect burst
 * length"): test duration `duration' ns and CPU times in seconds are
 * measured by the caller.
 */
void	basic_print(struct basic *b, FILE *out, uint64_t duration,
	    double cpu_user, double cpu_sys);

/*
 * Prints the lines that come after every classic line: one percentile
 * line per phase of the run, then the early replies.
 */
void	basic_print_extra(struct basic *b, FILE *out);

/*
 * Writes the collector's part of the --json document (one object): the
 * classic report's numbers as basic_report_json() writes them, and
 * "histograms", one object per phase of the run (stat_json_hdr()).  The
 * duration and CPU times are as for basic_print().  Returns 0, or -1 when
 * a histogram cannot be encoded.
 */
int	basic_json(struct basic *b, struct jsonw *w, uint64_t duration,
	    double cpu_user, double cpu_sys);

/* The member names of the phases under "histograms". */
extern const char *const basic_phase_json[BASIC_NPHASES];

/* The phases' names on the report's percentile lines and the page. */
extern const char *const basic_phase_label[BASIC_NPHASES];

struct collector;

/* The collector (stat/collector.h): its report is the classic one, its
   extra the percentile and early-reply lines.  Settings: basic_config. */
extern const struct collector basic_collector;

#endif
