/*
 * The collector interface.  A collector (basic, sess_stat, tls_stat,
 * print) listens to the bus and turns events into its part of the report,
 * or into output of its own while the test runs.  It never makes load and
 * never includes gen/.
 *
 * Each module exports one `const struct collector' (basic_collector, ...)
 * and declares its settings, if any, in its header; modules.c lists the
 * instances in its table and fills the settings from the options; run.c
 * walks the table: init in table order (the order the handlers run on the bus),
 * start and stop around the test, then after the test every report, then
 * every extra, then fini.  The
 * split between report and extra keeps 0.9.0's report first and whole:
 * lines 0.9.0 did not print come only after all of it.  A module keeps all
 * its state behind the pointer its init allocates: no globals.
 *
 * --merge (report/merge.c) walks the same table without a core: it makes
 * each state by init with env->core and env->bus NULL (a state that gets
 * no events and has no settings: the first file's part brings them), adds
 * every file's part with merge, completes it with merge_end, then prints
 * and writes it with report, extra and json, as after a run.
 */
#ifndef HTTPERF_STAT_COLLECTOR_H
#define HTTPERF_STAT_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bus;
struct core;
struct jsonw;
struct jv;

/* What a collector's init gets. */
struct collector_env {
	struct core	*core;		/* the run's core; NULL: a state for
					   --merge (then bus and cfg are NULL
					   too, and out and verbose unused) */
	struct bus	*bus;		/* core->bus: the events */
	const void	*cfg;		/* the module's settings (its header's
					   struct), read during init only;
					   NULL for a module without any */
	FILE		*out;		/* the report stream; -v lines too */
	int		 verbose;	/* -v level */
};

/* What the run measured itself, for the report. */
struct collector_run {
	uint64_t	 duration;	/* ns, from the start to the stop */
	double		 cpu_user;	/* s of user CPU time in that span */
	double		 cpu_sys;	/* s of system CPU time */
};

/*
 * What a collector's merge op gets: one file's part of the document, and
 * where a refusal goes.  The readers of stat/stat_merge.h take it and
 * report the first fault by the member's full path: "PROG: --merge: FILE:
 * stats.NAME.MEMBER: problem".
 */
struct collector_merge {
	const struct jv	*obj;		/* the file's stats.NAME: present,
					   an object if `always', else any
					   value (the readers refuse what is
					   not there) */
	const char	*name;		/* NAME */
	const char	*path;		/* the file, as named */
	const char	*first_path;	/* the first file, for "differs from" */
	const char	*prog;		/* the program's name */
	FILE		*err;		/* where the refusal goes */
	int		 first;		/* this is the first file */
	int		 failed;	/* a fault was reported */
	uint64_t	 start_ns;	/* the file's start (ns since the
					   epoch) and duration, checked */
	uint64_t	 duration_ns;
	struct collector_run *run;	/* the merge's own measures: the CPU
					   times are added in by the
					   collector that writes them */
};

struct collector {
	const char	*name;
	/* Every run has it: --merge refuses a file without stats.NAME. */
	int		 always;
	/*
	 * Allocates the state into *state and subscribes it to the bus.
	 * Returns 0, or -1 with a message in err (no program name) and
	 * nothing left to free.
	 */
	int	(*init)(void **state, const struct collector_env *env,
		    char *err, size_t errlen);
	/*
	 * The test starts at `now' (before its first arrival) and ends
	 * at `now' (before any report), for a collector that writes while
	 * the test runs.  stop returns 0, or -1 with a message in err (no
	 * program name) when what it wrote is incomplete: the run then
	 * exits 1.  NULL: nothing to do.
	 */
	void	(*start)(void *state, uint64_t now);
	int	(*stop)(void *state, uint64_t now, char *err, size_t errlen);
	/*
	 * The schedule's target rate is `rate' arrivals a second from
	 * `now' on (a --sweep step's level), for a collector that shows it
	 * while the test runs.  NULL: nothing to do.
	 */
	void	(*set_rate)(void *state, double rate, uint64_t now);
	/* Prints its lines of 0.9.0's report.  NULL: none. */
	void	(*report)(void *state, FILE *out,
		    const struct collector_run *run);
	/* Prints its lines that 0.9.0 did not have; they follow every
	   collector's report.  NULL: none. */
	void	(*extra)(void *state, FILE *out,
		    const struct collector_run *run);
	/*
	 * Writes its part of the --json document: exactly one value (an
	 * object), which becomes member `name' of the document's "stats"
	 * object.  Called after report and extra.  NULL: none.  Adding
	 * one: write it here, describe it under stats in
	 * doc/httperf-result.schema.json, and give the collector a merge
	 * op that reads it back, or merging files that have it is refused.
	 */
	void	(*json)(void *state, struct jsonw *w,
		    const struct collector_run *run);
	/*
	 * --merge: adds one file's stats.NAME (mg->obj) into the state (made
	 * by init for a merge); called for each file, in order, when the
	 * first file has the member (the driver checked that every file
	 * has it then, and none has it otherwise).  It must check every
	 * member it reads (the file is not trusted: types, ranges, sums that
	 * would overflow, strings that go into the report), take the
	 * settings from the first file (mg->first) and refuse a later file
	 * whose settings differ, reporting the first fault with
	 * stat_merge_fail() or the readers (stat/stat_merge.h); after one
	 * (mg->failed) the state is only good for fini.  Then json must
	 * write the sum as a run with those totals would have.  NULL: files
	 * with the member are refused.
	 */
	void	(*merge)(void *state, struct collector_merge *mg);
	/*
	 * --merge: every file was added; the merge spans start_ns to end_ns
	 * on the wall clock (ns since the epoch).  Before report.  NULL:
	 * nothing to complete.
	 */
	void	(*merge_end)(void *state, uint64_t start_ns, uint64_t end_ns);
	/* Frees the state, after the core closed the connections still
	   open (quietly).  Events may no longer come. */
	void	(*fini)(void *state);
};

#endif
