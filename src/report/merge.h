/*
 * httperf --merge FILE...: combines the --json results of several client
 * processes (--client I/N) into the report, and with --json the document,
 * that one run with the same totals would have given.  The rules (merge.c
 * has the details):
 *	- counts, bytes, sums and sums of squares are added; minimums and
 *	  maximums are the least and greatest; CPU times are added;
 *	- the duration is the union of the runs' windows: from the earliest
 *	  start to the latest end (start + duration), so rates are the sum
 *	  of what the processes did over the whole span;
 *	- histograms are added bucket by bucket (hdr_add) and percentiles
 *	  taken from the sum, never averaged;
 *	- rate samples (reply rate, session rate): sample k of the merge is
 *	  the sum of the files' samples k (a file without one adds 0), as
 *	  the processes sample on the same 5 s period: the aggregate rate;
 *	- the most concurrent connections are added (an upper bound, as the
 *	  report's "<=" says), the longest connect burst is the largest;
 *	- the schedule (stats.sched): arrivals scheduled, made, never sent
 *	  and late are added, the lateness histograms too, the target rates
 *	  are added (each process keeps its own schedule), and the span of
 *	  the schedules is the union of the files' (their times since each
 *	  file's start, placed on the wall clock), so the schedule's and the
 *	  achieved rate are the aggregate ones; the CPU share is the largest
 *	  file's (each process is a client that can saturate on its own).
 *	  The bottleneck warning is then worked out from these totals by
 *	  the function a run uses (sched_stat_verdict()) and printed after
 *	  the report, as a run prints it.  Files with different lateness
 *	  thresholds are refused (their late counts do not add up).
 *	- the intervals (stats.interval): slot j (the files' largest
 *	  joined periods) holds every file's interval that starts in it on
 *	  the wall clock; only slots an interval falls in are made, at most
 *	  INTERVAL_MAX_RECS kept, so the work and the memory follow the
 *	  intervals the files hold, not the span between them.
 *	- --sweep results (report/merge_sweep.c): the files of clients that
 *	  ran the same fixed plan (--client I/N, N above 1) are merged as
 *	  above, and each step's documents as well, step by step; the
 *	  objectives given to --merge judge each merged step, and the
 *	  capacity comes from the merged verdicts.  A sweep's result with
 *	  another's of a different plan (step count, levels, a search's
 *	  probe), or with a result that is no sweep, is refused.
 *	- unequal clients: the files may differ in their load (the options
 *	  merge_load_options lists: rates, counts, --runtime, session
 *	  counts, --max-connections, --jobs; merge_head.c says how far),
 *	  then m->unequal is set and the merged document lists each
 *	  file's load (merged.files[].load, merged.equal_load); the rate
 *	  targets add up as above.
 * Refused, with one line naming the file and the member, exit status 1:
 * a file that cannot be read or is not a valid result, files of
 * different tests (any option but those options_merge_may_differ
 * lists and the load), different histogram settings or collectors,
 * histograms of other settings than the program's (HDR_NS_*),
 * different client counts N, the same client id twice, runs that span
 * more than MERGE_MAX_SPAN_NS together, or an interval past its run's
 * end.
 */
#ifndef HTTPERF_REPORT_MERGE_H
#define HTTPERF_REPORT_MERGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stat/collector.h"

/*
 * The longest wall-clock span (earliest start to latest end) a merge
 * takes: files further apart are refused, naming the file, as the work
 * of a clock set wrong (or of unrelated runs).  31 days.
 */
#define MERGE_MAX_SPAN_NS	(UINT64_C(31) * 86400 * 1000000000)

struct jv;
struct merge_sweep;
struct options;

/*
 * The combination of the files: their head, and each collector's state
 * (made by its init for a merge), by row of the module table.
 */
struct merge {
	size_t		 nfiles;
	uint64_t	 start_ns;	/* earliest start */
	uint64_t	 end_ns;	/* latest end */
	unsigned	 num_clients;
	unsigned	*ids;		/* ascending */
	size_t		 nids;
	char		*hosts;		/* distinct, comma-separated */
	const char	**hostv;	/* distinct, into the documents */
	size_t		 nhosts;
	const struct jv	*options;	/* the first file's */
	int		 unequal;	/* the files' loads differ */
	const char	*echo;		/* the first file's command line */
	const char	*first;		/* the first file's path */
	const struct collector *const *cols;	/* the module table */
	size_t		 ncols;
	void		**states;	/* by cols[] row; NULL: not in the
					   files */
	struct collector_run run;	/* the span; the files' CPU times
					   added (by the collector that
					   writes them) */
	/* The objectives and their measures, for stats.slo (measured
	   NULL: none yet, or no --slo). */
	const struct slo *slo;
	double		*slo_measured;
	size_t		 nslo;
	/* --sweep's results: the first file's "sweep" (NULL: not a
	   sweep), and the merged steps once merged (merge_sweep.c). */
	const struct jv	*sweep;
	struct merge_sweep *msw;
};

/* Starts an empty merge over the collectors of `cols' (a run's table). */
void	merge_init(struct merge *m, const struct collector *const *cols,
	    size_t ncols);

/*
 * Adds document `doc' (read from `path') to m: its head checked against
 * the first file's (the first call starts m), then each collector's part
 * added by the collector.  Returns 0, or -1 after one line "PROG:
 * --merge: PATH: problem" on err, m then only good for merge_free().  m
 * points into the documents: they must outlive it.
 */
int	merge_add(struct merge *m, const struct jv *doc, const char *path,
	    const char *prog, FILE *err);

/*
 * Completes m once every file is added: the duration, each collector's
 * merge_end, the hosts.  Before merge_print() and merge_json().
 */
void	merge_finish(struct merge *m);

/* The state of collector `col' in m, or NULL (not in the files). */
void	*merge_state(const struct merge *m, const struct collector *col);

/*
 * Prints the classic report and the lines after it, then the warnings,
 * as a run would: every collector's report, every extra, the bottleneck
 * warning if the merged schedule calls for it, the warning of a run that
 * mostly failed.
 */
void	merge_print(struct merge *m, FILE *out);

/*
 * Writes the merged document to f (report/result.c's writer; it
 * validates against the schema and can be merged again); paths, hosts
 * and clients of the `nfiles' files in the "merged" member.  Returns
 * jsonw_finish()'s answer.
 */
int	merge_json(struct merge *m, FILE *f, const struct jv *const *docs,
	    char *const *paths, size_t nfiles);

void	merge_free(struct merge *m);

/*
 * --sweep results (merge_sweep.c), once the files are merged
 * (merge_finish), before anything is printed: step j of the `n'
 * documents `docs' (named `paths', as given to merge_add) merged into
 * one, judged by the objectives of `o' (--slo).  Returns 0 (also when
 * the files are no sweep: m->sweep NULL), or -1 after a message (a step
 * that does not merge).  --merge and --jobs both call it.
 */
int	merge_sweep_steps(struct merge *m, const struct options *o,
	    const struct jv *const *docs, char *const *paths, size_t n);

/*
 * After the report, once merge_sweep_steps ran on a sweep: the table of
 * the merged steps and the capacity line.  Returns the sweep's exit
 * status (0, 3, 4).
 */
int	merge_sweep_print(const struct merge *m, FILE *out);

/*
 * Runs the merge the options describe over the collectors of `cols' (the
 * table a run walks); returns the exit status.
 */
int	merge_main(const struct options *o, const struct collector *const *cols,
	    size_t ncols);

#endif
