/*
 * --log FILE: one CSV record per call that ended, with a reply or with
 * an error of the report's classes (so the records are as many as the
 * report's replies plus its errors), written through a large buffer
 * (CALLLOG_BUF bytes a write), compressed with zlib when the name ends
 * in ".gz" (one gzip member a buffer).
 *
 * The file: a first line "# httperf call log v1 start=RFC3339
 * start_ns=EPOCH_NS" (the run's start on the wall clock), the header
 * line of the columns (calllog_columns), then the records.  Times are
 * ns from the run's start (the monotonic clock's reading at the start,
 * which the first line dates), empty for a time the call never reached;
 * ids are empty when the record has none (a connection that failed
 * before any call: no call, session or URI).  The URI is quoted as RFC
 * 4180 says when it holds a comma, a quote, CR or LF.
 *
 * A write the file refuses (a full disk, EIO) ends the run (the report
 * covers what ran; stop() then fails with the file's name and the cause:
 * exit 1), or, with --log-drop, the records of that buffer are dropped
 * and counted and the run goes on (but a file that refuses its first two
 * lines ends the run all the same).  Either way the records written are
 * whole: a buffer written in part is taken back (ftruncate) where the
 * file allows it (a regular file).  After the report, one line: "Log:
 * FILE: N records written, M dropped" (and the cause when M > 0).
 */
#ifndef HTTPERF_STAT_CALLLOG_H
#define HTTPERF_STAT_CALLLOG_H

#include <stddef.h>
#include <stdint.h>

/* The bytes a buffer holds before it is written. */
#define CALLLOG_BUF	(1024 * 1024)

/* Its settings (collector_env.cfg). */
struct calllog_config {
	const char	*path;		/* FILE, "-": the standard output */
	int		 drop;		/* --log-drop */
	unsigned	 worker;	/* --jobs worker I + 1: FILE.I (with
					   ".gz" kept last); 0: FILE */
	uint64_t	 client;	/* --client I */
	int		 http_minor;	/* the requests' HTTP/1.minor */
	/* Ends the run at once (a write failed without --log-drop);
	   NULL: the run goes on. */
	void		(*stop)(void *arg, uint64_t now);
	void		*stop_arg;
};

/* The times of a record, in the order of the columns. */
enum calllog_time {
	CALLLOG_T_INTENDED,	/* when the schedule meant it to start */
	CALLLOG_T_START,	/* its start: its connection's connect start
				   for the call that waited for it, else
				   its request's first byte */
	CALLLOG_T_CONNECT,	/* TCP connected (the call that waited) */
	CALLLOG_T_TLS,		/* TLS handshake done (idem, --ssl) */
	CALLLOG_T_SENT,		/* the request completely written */
	CALLLOG_T_FIRST,	/* the reply's first byte (status line) */
	CALLLOG_T_END,		/* the reply complete, or the failure */
	CALLLOG_NT
};

/* An id the record does not have. */
#define CALLLOG_NONE	UINT64_MAX

/* One record, before it is formatted. */
struct calllog_rec {
	uint64_t	 t[CALLLOG_NT];	/* monotonic ns; 0: never reached */
	uint64_t	 client;
	uint64_t	 conn;		/* CALLLOG_NONE: none */
	uint64_t	 sess;
	uint64_t	 call;
	const char	*uri;		/* NULL: none */
	size_t		 uri_len;
	int		 status;	/* 0: none */
	uint64_t	 bytes_sent;
	uint64_t	 bytes_recv;
	const char	*err;		/* the error class, NULL: none */
	const char	*version;	/* "1.0", "1.1", "2"; NULL: none */
};

/* The columns' header line, with its LF. */
extern const char calllog_columns[];

/* The most bytes calllog_fmt() writes for `r'. */
size_t	calllog_rec_max(const struct calllog_rec *r);

/*
 * Formats `r' as one CSV line (with its LF) into buf, which has room for
 * calllog_rec_max(r) bytes; times relative to `t0'.  Returns its length.
 */
size_t	calllog_fmt(char *buf, const struct calllog_rec *r, uint64_t t0);

/*
 * Formats the first line (with its LF) for a start at `wall_ns' ns since
 * the epoch into buf (at least 128 bytes).  Returns its length.
 */
size_t	calllog_first_line(char *buf, size_t cap, uint64_t wall_ns);

struct collector;

/* The collector (stat/collector.h): settings calllog_config. */
extern const struct collector calllog_collector;

#endif
