/*
 * What run.c shares with the driver of --sweep's steps (run_sweep.c):
 * the run itself, and the few of run.c's steps a sweep calls too.
 */
#ifndef HTTPERF_RUN_INT_H
#define HTTPERF_RUN_INT_H

#include <stdint.h>
#include <stdio.h>

#include "core/core.h"
#include "core/timer.h"
#include "modules.h"
#include "setup.h"

struct collector_run;
struct run_sweep;

/* A module of this run: its state, if the run has it. */
struct run_mod {
	int		 on;
	void		*state;
};

/* Everything a run needs, so callbacks can reach it. */
struct run {
	const struct options *o;
	struct loop	*loop;
	struct bus	*bus;
	struct core	 core;
	int		 have_core;	/* core_init() was called */
	struct setup	 setup;		/* what the core points into */
	struct run_mod	*stats;		/* by mod_stats[] row */
	double		*slo_measured;	/* --slo: each objective's measure,
					   for stats.slo; NULL before */
	struct run_mod	*gens;		/* by mod_gens[] row */
	size_t		 workload;	/* its mod_gens[] row */
	const struct run_sig *sig;	/* the signal flags */
	struct mod_ctx	 ctx;		/* what the settings come from */
	/* Set-Cookie fields the session workload ignored (its jars were
	   full), for the session collector's report. */
	uint64_t	 cookies_ignored;
	struct timer	 sample_timer;
	uint64_t	 sample_next;
	uint64_t	 sample_last;
	struct timer	 runtime_timer;
	FILE		*out;		/* the report: stdout, or stderr
					   with --json - */
	FILE		*json;		/* --json's stream, or NULL */
	FILE		*html;		/* --html's file, or NULL */
	uint64_t	 wall_start;	/* ns since the epoch */
	uint64_t	 cut_at;	/* a signal ended the run then; 0: not */
	/* --slo-abort: the objective that stopped the run, or NULL. */
	const struct slo *abort_slo;
	uint64_t	 abort_at;	/* ns after the start */
	double		 abort_value;	/* its live measure (count or ns) */
	struct run_sweep *sweep;	/* --sweep's driver, or NULL */
};

/*
 * Creates collector `i' of mod_stats[] into *m if the options of ctx
 * give it, on `core' and `bus' (a step's, for a sweep).  Returns 0, or
 * -1 after printing why.
 */
int	run_col_init(struct run *r, const struct mod_ctx *ctx,
	    struct core *core, struct bus *bus, size_t i, struct run_mod *m,
	    char *err, size_t errlen);

/* The run ends at `end': no arrival meant for later. */
void	run_end(struct run *r, uint64_t end);

/*
 * Writes the result document of r (its options, its collectors) to f.
 * Returns result_write()'s answer.
 */
int	run_json_doc(struct run *r, const struct collector_run *cr, FILE *f);

#endif
