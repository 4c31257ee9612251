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
 */
#ifndef HTTPERF_REPORT_SWEEP_SEARCH_H
#define HTTPERF_REPORT_SWEEP_SEARCH_H

#include <stddef.h>

/* Room for a spec parse error message. */
#define SWEEP_ERR_MAX	128

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
	int		 repeated;	/* boundary verdicts run again */
	int		 agree;		/* ...and they agreed */
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
	double		 first_fail;	/* 0: none yet */
	int		 have_pass, have_fail;
	int		 phase;		/* plan, bisect, repeat, done */
	int		 repeat_left;
	double		 pending;	/* the level handed out last */
	enum sweep_kind	 pending_kind;
	struct sweep_capacity cap;
};

void	sweep_search_init(struct sweep_search *ss,
	    const struct sweep_spec *spec, double precision, int objectives);

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
