/*
 * The capacity search of a sweep: the spec parser, the fixed sweep's
 * levels and the search's state machine.  See sweep_search.h.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sweep_search.h"

/* The slack when comparing a level with TO. */
#define SWEEP_SLACK	1e-9

enum {
	SWEEP_P_PLAN,
	SWEEP_P_BISECT,
	SWEEP_P_REPEAT,
	SWEEP_P_DONE,
};

/* One part of a spec: [s, e) must be a finite number. */
static int
sweep_spec_num(const char *s, const char *e, const char *name, double *v,
    char *err, size_t errsize)
{
	char buf[64], *end;
	size_t n = (size_t)(e - s);

	if (n == 0) {
		snprintf(err, errsize, "no %s", name);
		return -1;
	}
	if (n >= sizeof(buf) || strchr(" \t\n\v\f\r", *s) != NULL)
		goto nan;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, &end);
	if (*end == '\0' && isfinite(*v))
		return 0;
nan:
	snprintf(err, errsize, "%s \"%.*s\" is not a number", name,
	    n > 32 ? 32 : (int)n, s);
	return -1;
}

static int
sweep_spec_whole(double v, const char *name, char *err, size_t errsize)
{
	if (v == floor(v))
		return 0;
	snprintf(err, errsize, "%s is not a whole number", name);
	return -1;
}

/* The checks on the numbers, once each is one. */
static int
sweep_spec_check(const struct sweep_spec *s, char *err, size_t errsize)
{
	const char *name = s->factor > 0 ? "FACTOR" : "STEP";

	if (s->from <= 0) {
		snprintf(err, errsize, "FROM is not above 0");
		return -1;
	}
	if (s->to < s->from) {
		snprintf(err, errsize, "TO is below FROM");
		return -1;
	}
	if (s->factor == 0 && s->step <= 0) {
		snprintf(err, errsize, "STEP is not above 0");
		return -1;
	}
	if (s->factor == 0 ? 0 : s->factor <= 1) {
		snprintf(err, errsize, "FACTOR is not above 1");
		return -1;
	}
	if (s->integer && (sweep_spec_whole(s->from, "FROM", err,
	    errsize) != 0 || sweep_spec_whole(s->to, "TO", err,
	    errsize) != 0 || (s->factor == 0 && sweep_spec_whole(s->step,
	    name, err, errsize) != 0)))
		return -1;
	/* Raw levels past FROM, before rounding drops any. */
	if ((s->factor > 0 ? log(s->to / s->from) / log(s->factor) :
	    (s->to - s->from) / s->step) >= SWEEP_LEVELS_MAX) {
		snprintf(err, errsize, "more than %d levels",
		    SWEEP_LEVELS_MAX);
		return -1;
	}
	return 0;
}

int
sweep_spec_parse(const char *text, int integer, struct sweep_spec *s,
    char *err, size_t errsize)
{
	const char *c1, *c2, *e = text + strlen(text);

	memset(s, 0, sizeof(*s));
	s->integer = integer != 0;
	if ((c1 = strchr(text, ':')) == NULL || ((c2 = strchr(c1 + 1,
	    ':')) == NULL && (c2 = strchr(c1 + 1, '*')) == NULL)) {
		snprintf(err, errsize, "expected FROM:TO:STEP or "
		    "FROM:TO*FACTOR");
		return -1;
	}
	if (sweep_spec_num(text, c1, "FROM", &s->from, err, errsize) != 0 ||
	    sweep_spec_num(c1 + 1, c2, "TO", &s->to, err, errsize) != 0 ||
	    sweep_spec_num(c2 + 1, e, *c2 == ':' ? "STEP" : "FACTOR",
	    *c2 == ':' ? &s->step : &s->factor, err, errsize) != 0)
		return -1;
	if (*c2 == '*' && s->factor == 0)
		s->factor = -1;		/* refused as FACTOR, not STEP */
	return sweep_spec_check(s, err, errsize);
}

/* Raw level i, before rounding. */
static double
sweep_spec_raw(const struct sweep_spec *s, size_t i)
{
	if (s->factor > 0)
		return s->from * pow(s->factor, (double)i);
	return s->from + (double)i * s->step;
}

static int
sweep_spec_in(const struct sweep_spec *s, double v)
{
	return v <= s->to * (1 + SWEEP_SLACK);
}

/*
 * Walks the levels: returns how many there are, and sets *level to
 * level `want' when there is one.
 */
static size_t
sweep_spec_walk(const struct sweep_spec *s, size_t want, double *level)
{
	size_t i, n = 0;
	double v, prev = 0;

	for (i = 0; i <= SWEEP_LEVELS_MAX; i++) {
		v = sweep_spec_raw(s, i);
		if (!sweep_spec_in(s, v))
			break;
		if (s->integer)
			v = round(v);
		if (n > 0 && v == prev)
			continue;
		if (n == want)
			*level = v;
		prev = v;
		n++;
	}
	return n;
}

size_t
sweep_spec_count(const struct sweep_spec *s)
{
	double v;

	return sweep_spec_walk(s, (size_t)-1, &v);
}

double
sweep_spec_level(const struct sweep_spec *s, size_t i)
{
	double v = s->to;

	sweep_spec_walk(s, i, &v);
	return v;
}

void
sweep_search_init(struct sweep_search *ss, const struct sweep_spec *spec,
    double precision, int objectives)
{
	memset(ss, 0, sizeof(*ss));
	ss->spec = *spec;
	ss->precision = precision;
	ss->objectives = objectives != 0;
	ss->nplan = sweep_spec_count(spec);
	ss->phase = SWEEP_P_PLAN;
	ss->cap.end = objectives ? SWEEP_E_ALL_PASS : SWEEP_E_NONE;
	ss->cap.agree = 1;
}

void
sweep_search_fixed(struct sweep_search *ss)
{
	ss->fixed = 1;
}

/* The search is over, with answer `end'. */
static void
sweep_search_end(struct sweep_search *ss, enum sweep_end end)
{
	ss->phase = SWEEP_P_DONE;
	ss->cap.end = end;
	ss->cap.capacity = ss->have_pass ? ss->last_pass : 0;
	ss->cap.fail = end == SWEEP_E_FOUND ? ss->first_fail : 0;
}

/* The bisection's next probe; 0 when the bracket is narrow enough. */
static int
sweep_search_probe(const struct sweep_search *ss, double *level)
{
	double p = ss->last_pass, f = ss->first_fail, mid = (p + f) / 2;

	if (ss->spec.integer)
		mid = floor(mid);
	if (f - p <= ss->precision * p || mid <= p || mid >= f)
		return 0;
	*level = mid;
	return 1;
}

int
sweep_search_next(struct sweep_search *ss, double *level,
    enum sweep_kind *kind)
{
	switch (ss->phase) {
	case SWEEP_P_PLAN:
		if (ss->planned >= ss->nplan && ss->decided) {
			ss->phase = SWEEP_P_DONE;
			return 0;
		}
		if (ss->planned >= ss->nplan) {
			sweep_search_end(ss, ss->objectives ?
			    SWEEP_E_ALL_PASS : SWEEP_E_NONE);
			return 0;
		}
		ss->pending = sweep_spec_level(&ss->spec, ss->planned);
		ss->pending_kind = SWEEP_K_PLAN;
		break;
	case SWEEP_P_BISECT:
		if (sweep_search_probe(ss, &ss->pending)) {
			ss->pending_kind = SWEEP_K_PROBE;
			break;
		}
		ss->phase = SWEEP_P_REPEAT;
		ss->repeat_left = 2;
		/* FALLTHROUGH */
	case SWEEP_P_REPEAT:
		if (ss->repeat_left == 0) {
			sweep_search_end(ss, SWEEP_E_FOUND);
			return 0;
		}
		ss->pending = ss->repeat_left == 2 ? ss->last_pass :
		    ss->first_fail;
		ss->pending_kind = SWEEP_K_REPEAT;
		break;
	default:
		return 0;
	}
	*level = ss->pending;
	*kind = ss->pending_kind;
	return 1;
}

/* A pass or a fail at a plan level or a probe. */
static void
sweep_search_verdict(struct sweep_search *ss, int pass)
{
	if (pass) {
		ss->prev_pass = ss->last_pass;
		ss->last_pass = ss->pending;
		ss->have_pass = 1;
		if (ss->pending_kind == SWEEP_K_PLAN)
			ss->planned++;
		return;
	}
	ss->first_fail = ss->pending;
	ss->have_fail = 1;
	if (!ss->have_pass)
		sweep_search_end(ss, SWEEP_E_FIRST_FAIL);
	else
		ss->phase = SWEEP_P_BISECT;
}

/* A repeat's verdict: see the header for what a disagreement means. */
static void
sweep_search_repeat(struct sweep_search *ss, int pass)
{
	ss->cap.repeated++;
	if (ss->repeat_left-- == 1) {
		if (pass)
			ss->cap.agree = 0;
		return;
	}
	if (pass)
		return;
	ss->cap.agree = 0;
	ss->first_fail = ss->last_pass;
	ss->last_pass = ss->prev_pass;
	ss->have_pass = ss->prev_pass > 0;
	sweep_search_end(ss, ss->have_pass ? SWEEP_E_FOUND :
	    SWEEP_E_FIRST_FAIL);
}

/*
 * A fixed plan's step: the plan goes on; the first step that is not a
 * pass decides the answer.
 */
static void
sweep_search_fixed_result(struct sweep_search *ss, enum sweep_verdict v)
{
	struct sweep_capacity *c = &ss->cap;

	ss->planned++;
	if (ss->decided || (v != SWEEP_V_CLIENT && !ss->objectives))
		return;
	if (v != SWEEP_V_CLIENT && v != SWEEP_V_FAIL) {
		ss->last_pass = ss->pending;
		ss->have_pass = 1;
		return;
	}
	ss->decided = 1;
	c->capacity = ss->have_pass ? ss->last_pass : 0;
	if (v == SWEEP_V_CLIENT) {
		c->end = SWEEP_E_CLIENT;
		c->client_level = ss->pending;
	} else if (ss->have_pass) {
		c->end = SWEEP_E_FOUND;
		c->fail = ss->pending;
	} else
		c->end = SWEEP_E_FIRST_FAIL;
}

void
sweep_search_fixed_answer(const double *level,
    const enum sweep_verdict *verdict, size_t n, int objectives,
    struct sweep_capacity *cap)
{
	struct sweep_search ss;
	size_t i;

	memset(&ss, 0, sizeof(ss));
	ss.objectives = objectives != 0;
	ss.fixed = 1;
	ss.nplan = n;
	ss.cap.end = objectives ? SWEEP_E_ALL_PASS : SWEEP_E_NONE;
	ss.cap.agree = 1;
	for (i = 0; i < n; i++) {
		ss.pending = level[i];
		sweep_search_fixed_result(&ss, verdict[i]);
	}
	if (!ss.decided)
		sweep_search_end(&ss, ss.cap.end);
	*cap = ss.cap;
}

void
sweep_search_result(struct sweep_search *ss, enum sweep_verdict v)
{
	if (ss->phase == SWEEP_P_DONE)
		return;
	if (ss->fixed) {
		sweep_search_fixed_result(ss, v);
		return;
	}
	if (v == SWEEP_V_CLIENT) {
		ss->cap.client_level = ss->pending;
		sweep_search_end(ss, SWEEP_E_CLIENT);
		return;
	}
	if (!ss->objectives) {
		ss->planned++;
		return;
	}
	if (ss->phase == SWEEP_P_REPEAT)
		sweep_search_repeat(ss, v != SWEEP_V_FAIL);
	else
		sweep_search_verdict(ss, v != SWEEP_V_FAIL);
}

void
sweep_search_answer(const struct sweep_search *ss,
    struct sweep_capacity *cap)
{
	*cap = ss->cap;
}
