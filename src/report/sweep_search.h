/*
 * The capacity search of a sweep (--sweep, --slo): which rate (or
 * concurrency) to run next, given the verdicts of the steps run so far,
 * and the answer at the end.  Pure logic: no core, no network, no clock;
 * the caller runs each step and hands its verdict back, so the whole
 * search is tested with made-up step results (tests/unit/check_sweep).
 *
 * The plan: a fixed sweep FROM, FROM+STEP, ... up to TO (or FROM,
 * FROM*FACTOR, ... up to TO).  Without objectives every planned step
 * runs and there is no capacity.  With objectives the sweep stops at the
 * first failing step, then bisects between the last passing and the
 * first failing level, each probe a full step, until the two are closer
 * than the precision (a share of the level); then the verdicts nearest
 * the boundary (the last pass and the first fail) are run once more, and
 * a repeat that disagrees is reported, not hidden.  A step where the
 * client itself was the bottleneck ends the search: the client, not the
 * server, was the limit, and that step never counts as a pass.
 *
 * The decisions, in detail:
 * - Levels.  Linear: FROM + i*STEP; geometric: FROM * FACTOR^i; every
 *   level <= TO (with a relative slack of 1e-9 for rounding), as
 *   autobench's `rate <= high_rate': TO itself is a level only when it
 *   falls on the grid (10:100:20 is 10 30 50 70 90; 1:100*2 ends at 64).
 *   With `integer' a geometric level is rounded to the nearest whole
 *   number and a level equal to the one before it is dropped (1:10*1.5
 *   is 1 2 3 5 8).  At most SWEEP_LEVELS_MAX levels before that.
 * - Bisection.  Between the last pass P and the first fail F the probe
 *   is (P + F) / 2 (rounded down with `integer'); it stops when
 *   F - P <= precision * P, or with `integer' when F - P <= 1, or when
 *   the midpoint no longer differs from P or F.  From a 10 % bracket to
 *   2 % that is 3 probes.
 * - Repeats (only after a bisection or a plan FAIL that has a pass
 *   below it): P runs again, then F.  `repeated' counts the repeats
 *   run, `agree' is 1 while every repeat gave its first verdict.  If P
 *   fails on its repeat it is not trusted: the capacity becomes the
 *   highest OTHER level that passed (each of its runs passed), F becomes
 *   P, agree is 0, F is not repeated and no further probe runs; when no
 *   other level passed the end is SWEEP_E_FIRST_FAIL.  If F passes on
 *   its repeat, agree is 0 and the capacity stays P (every run at P
 *   passed; F failed once): the conservative answer either way.
 * - SWEEP_E_ALL_PASS: the capacity is the highest plan level (TO when
 *   TO is on the grid).  SWEEP_E_FIRST_FAIL: no repeat (nothing passed).
 * - SWEEP_V_CLIENT ends the search at any step, with objectives or
 *   not: SWEEP_E_CLIENT, capacity the last pass if any (else 0).
 * - Without objectives the verdicts PASS and FAIL are taken as NONE.
 * - A fixed plan (sweep_search_fixed: several clients, --client I/N,
 *   whose verdicts only a --merge of their files can give): every
 *   planned level runs, whatever its verdict, and nothing else (no
 *   probe, no repeat).  The answer is the plan's first step that is not
 *   a pass: a FAIL gives SWEEP_E_FOUND (capacity the pass before it,
 *   fail its level; repeated 0, agree 1) or SWEEP_E_FIRST_FAIL when it
 *   is the first; a CLIENT gives SWEEP_E_CLIENT (capacity the pass
 *   before it, if any).  Every step a pass: SWEEP_E_ALL_PASS; without
 *   objectives SWEEP_E_NONE (unless a step was CLIENT).
 */
#ifndef HTTPERF_REPORT_SWEEP_SEARCH_H
#define HTTPERF_REPORT_SWEEP_SEARCH_H

#include <stddef.h>

/* Room for a spec parse error message. */
#define SWEEP_ERR_MAX	128

/* The most levels a fixed sweep may have. */
#define SWEEP_LEVELS_MAX	1000

/* FROM:TO:STEP (linear) or FROM:TO*FACTOR (geometric). */
struct sweep_spec {
	double		 from;
	double		 to;
	double		 step;		/* linear: > 0; geometric: 0 */
	double		 factor;	/* geometric: > 1; linear: 0 */
	int		 integer;	/* levels are rounded to whole numbers
					   (a concurrency) */
};

/*
 * Parses "FROM:TO:STEP" or "FROM:TO*FACTOR" (FROM > 0, TO >= FROM).
 * With `integer' every part of a linear spec and FROM and TO of a
 * geometric one must be whole.  Returns 0 with *s filled, or -1 with a
 * message in err (without the spec: the caller names it).
 */
int	sweep_spec_parse(const char *text, int integer, struct sweep_spec *s,
	    char *err, size_t errsize);

/* How many levels the fixed sweep has (at least 1). */
size_t	sweep_spec_count(const struct sweep_spec *s);

/* The fixed sweep's level `i' (0 <= i < sweep_spec_count). */
double	sweep_spec_level(const struct sweep_spec *s, size_t i);

/* Why a step runs. */
enum sweep_kind {
	SWEEP_K_PLAN,		/* a level of the fixed sweep */
	SWEEP_K_PROBE,		/* a bisection probe */
	SWEEP_K_REPEAT,		/* a boundary verdict run once more */
};

/* A step's verdict, as the caller hands it back. */
enum sweep_verdict {
	SWEEP_V_NONE,		/* no objectives */
	SWEEP_V_PASS,		/* every objective met */
	SWEEP_V_FAIL,		/* one or more failed */
	SWEEP_V_CLIENT,		/* the client was the bottleneck: not
				   the server's verdict */
};

/* How the search ended. */
enum sweep_end {
	SWEEP_E_NONE,		/* no objectives: every planned step ran */
	SWEEP_E_FOUND,		/* a capacity between pass and fail */
	SWEEP_E_ALL_PASS,	/* every planned level passed: the
				   capacity is at least TO */
	SWEEP_E_FIRST_FAIL,	/* the first level failed: below FROM */
	SWEEP_E_CLIENT,		/* the client was the limit */
};

/* The answer (sweep_search_answer). */
struct sweep_capacity {
	enum sweep_end	 end;
	double		 capacity;	/* the highest level that met every
					   objective (FOUND, ALL_PASS,
					   CLIENT when one passed); else 0 */
	double		 fail;		/* the lowest failing level known
					   (FOUND); else 0 */
	int		 repeated;	/* how many boundary verdicts ran
					   again (0 to 2) */
	int		 agree;		/* ...and each agreed (1 when none
					   ran) */
	double		 client_level;	/* CLIENT: the level it happened at */
};

/* The search's state; the caller owns it, fields are private. */
struct sweep_search {
	struct sweep_spec spec;
	double		 precision;	/* a share: 0.02 is 2 % */
	int		 objectives;
	size_t		 planned;	/* plan levels run so far */
	size_t		 nplan;
	double		 last_pass;	/* 0: none yet */
	double		 prev_pass;	/* the pass before last_pass */
	double		 first_fail;	/* 0: none yet */
	int		 have_pass, have_fail;
	int		 phase;		/* plan, bisect, repeat, done */
	int		 repeat_left;
	int		 fixed;		/* a fixed plan: no search */
	int		 decided;	/* fixed: the answer is known */
	double		 pending;	/* the level handed out last */
	enum sweep_kind	 pending_kind;
	struct sweep_capacity cap;
};

void	sweep_search_init(struct sweep_search *ss,
	    const struct sweep_spec *spec, double precision, int objectives);

/*
 * Makes the search (just initialized) a fixed plan: every planned level
 * runs, whatever the verdicts, and they give the answer (see above).
 */
void	sweep_search_fixed(struct sweep_search *ss);

/*
 * The answer a fixed plan gives for the n steps at level[] with
 * verdict[], in the order they ran (a merge's steps).
 */
void	sweep_search_fixed_answer(const double *level,
	    const enum sweep_verdict *verdict, size_t n, int objectives,
	    struct sweep_capacity *cap);

/*
 * The next step: returns 1 with its level and why it runs, or 0 when the
 * search is over.  Each call must be followed by sweep_search_result for
 * that level before the next call.
 */
int	sweep_search_next(struct sweep_search *ss, double *level,
	    enum sweep_kind *kind);

/* The verdict of the step sweep_search_next handed out last. */
void	sweep_search_result(struct sweep_search *ss, enum sweep_verdict v);

/* The answer, once sweep_search_next returned 0. */
void	sweep_search_answer(const struct sweep_search *ss,
	    struct sweep_capacity *cap);

#endif
