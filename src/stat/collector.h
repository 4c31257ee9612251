/*
 * The collector interface.  A collector (basic, sess_stat, tls_stat,
 * print) listens to the bus and turns events into its part of the report,
 * or into output of its own while the test runs.  It never makes load and
 * never includes gen/.
 *
 * Each module exports one `const struct collector' (basic_collector, ...)
 * and declares its settings, if any, in its header; main.c lists the
 * instances in its table, fills the settings from the options and walks
 * the table: init in table order (the order the handlers run on the bus),
 * start and stop around the test, then after the test every report, then
 * every extra, then fini.  The
 * split between report and extra keeps 0.9.0's report first and whole:
 * lines 0.9.0 did not print come only after all of it.  A module keeps all
 * its state behind the pointer its init allocates: no globals.
 */
#ifndef HTTPERF_STAT_COLLECTOR_H
#define HTTPERF_STAT_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bus;
struct core;
struct jsonw;

/* What a collector's init gets. */
struct collector_env {
	struct core	*core;		/* the run's core */
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

struct collector {
	const char	*name;
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
	 * doc/httperf-result.schema.json, and teach --merge to add it up
	 * (report/merge.c), or merging files that have it is refused.
	 */
	void	(*json)(void *state, struct jsonw *w,
		    const struct collector_run *run);
	/* Frees the state, after the core closed the connections still
	   open (quietly).  Events may no longer come. */
	void	(*fini)(void *state);
};

#endif
