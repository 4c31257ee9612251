/*
 * Arrival schedules: parsing --rate and --period, drawing interarrival
 * times from erand48() seeded as httperf 0.9.0 seeds it, and the generator
 * that turns them into ticks on an absolute schedule driven by the loop's
 * timer wheel.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/loop.h"
#include "core/timer.h"
#include "gen/rate.h"
#include "lib/util.h"

/* At most this many numbers in one --period argument. */
#define RATE_MAX_NUMS	(2 * RATE_MAX_VAR)

void
rate_spec_set_rate(struct rate_spec *s, double rate)
{
	memset(s, 0, sizeof(*s));
	s->dist = RATE_DETERMINISTIC;
	s->mean_iat = rate > 0 ? 1.0 / rate : 0.0;
	if (!isfinite(s->mean_iat))
		s->mean_iat = 0.0;
}

/* Returns 1 if [p, end) holds a letter other than an exponent's e. */
static int
rate_has_alpha(const char *p, const char *end)
{
	for (; p < end; p++)
		if (isalpha((unsigned char)*p) && *p != 'e' && *p != 'E')
			return 1;
	return 0;
}

/*
 * Splits "T1,T2,..." into nums[].  Returns the count, -1 with a message
 * when a number is missing, malformed or negative, or -2 when there are
 * more than maxnums.
 */
static int
rate_parse_nums(const char *p, double *nums, size_t maxnums, char *errbuf,
    size_t errlen)
{
	size_t n = 0;
	char *end;
	double v;

	for (;;) {
		if (*p == '\0' || *p == ',') {
			snprintf(errbuf, errlen, n == 0 ? "missing time" :
			    "missing time after ','");
			return -1;
		}
		/* strtod would skip blanks and accept signs, inf and nan. */
		if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-') {
			snprintf(errbuf, errlen, "invalid time \"%s\"", p);
			return -1;
		}
		v = strtod(p, &end);
		if (end == p || (*end != '\0' && *end != ',') ||
		    rate_has_alpha(p, end)) {
			snprintf(errbuf, errlen, "invalid time \"%s\"", p);
			return -1;
		}
		if (!isfinite(v)) {
			snprintf(errbuf, errlen, "time out of range");
			return -1;
		}
		if (v < 0) {
			snprintf(errbuf, errlen, "negative time");
			return -1;
		}
		if (n == maxnums)
			return -2;
		nums[n++] = v;
		if (*end == '\0')
			return (int)n;
		p = end + 1;
	}
}

/*
 * Fills tmp from a variable-rate list of pairs.  Returns 0 or -1.  The
 * mean interval is that of the whole cycle, each rate weighted by its
 * duration: the cycle's time over its arrivals, sum(D) / sum(D / T).
 * (The plain mean of the T's would make v0.001,1,0.0005,3, 1000/s for
 * 1 s then 2000/s for 3 s, a rate of 1,333/s rather than 1,750/s.)
 */
static int
rate_parse_var(struct rate_spec *tmp, const double *nums, int n,
    char *errbuf, size_t errlen)
{
	double dur = 0.0, arrivals = 0.0;
	int i;

	if (n < 2 || n % 2 != 0) {
		snprintf(errbuf, errlen,
		    "variable needs pairs T1,D1[,T2,D2...]");
		return -1;
	}
	if ((size_t)n / 2 > RATE_MAX_VAR) {
		snprintf(errbuf, errlen, "too many rates (at most %d)",
		    RATE_MAX_VAR);
		return -1;
	}
	for (i = 0; i < n; i += 2) {
		if (nums[i] <= 0) {
			snprintf(errbuf, errlen,
			    "variable times must be > 0");
			return -1;
		}
		if (nums[i + 1] <= 0) {
			snprintf(errbuf, errlen,
			    "variable durations must be > 0");
			return -1;
		}
		tmp->var_iat[tmp->nvar] = nums[i];
		tmp->var_dur[tmp->nvar] = nums[i + 1];
		tmp->nvar++;
		dur += nums[i + 1];
		arrivals += nums[i + 1] / nums[i];
	}
	tmp->mean_iat = dur / arrivals;
	if (!isfinite(tmp->mean_iat) || tmp->mean_iat <= 0) {
		snprintf(errbuf, errlen, "time out of range");
		return -1;
	}
	return 0;
}

/*
 * Parses a --period argument into a scratch spec so that `s' is left
 * untouched on error.
 */
int
rate_spec_parse_period(struct rate_spec *s, const char *arg, char *errbuf,
    size_t errlen)
{
	struct rate_spec tmp;
	double nums[RATE_MAX_NUMS];
	int n;

	memset(&tmp, 0, sizeof(tmp));
	switch (tolower((unsigned char)arg[0])) {
	case 'd':
		tmp.dist = RATE_DETERMINISTIC;
		arg++;
		break;
	case 'u':
		tmp.dist = RATE_UNIFORM;
		arg++;
		break;
	case 'e':
		tmp.dist = RATE_EXPONENTIAL;
		arg++;
		break;
	case 'v':
		tmp.dist = RATE_VARIABLE;
		arg++;
		break;
	default:
		tmp.dist = RATE_DETERMINISTIC;
		break;
	}
	n = rate_parse_nums(arg, nums, nitems(nums), errbuf, errlen);
	if (n == -2 && tmp.dist == RATE_VARIABLE)
		snprintf(errbuf, errlen, "too many rates (at most %d)",
		    RATE_MAX_VAR);
	else if (n == -2)
		snprintf(errbuf, errlen, "too many times");
	if (n < 0)
		return -1;

	switch (tmp.dist) {
	case RATE_DETERMINISTIC:
	case RATE_EXPONENTIAL:
		if (n != 1) {
			snprintf(errbuf, errlen, "%s needs one time T1",
			    tmp.dist == RATE_EXPONENTIAL ? "exponential" :
			    "deterministic");
			return -1;
		}
		tmp.mean_iat = nums[0];
		break;
	case RATE_UNIFORM:
		if (n != 2) {
			snprintf(errbuf, errlen,
			    "uniform needs two times T1,T2");
			return -1;
		}
		if (nums[0] > nums[1]) {
			snprintf(errbuf, errlen, "uniform needs T1 <= T2");
			return -1;
		}
		tmp.min_iat = nums[0];
		tmp.max_iat = nums[1];
		tmp.mean_iat = (nums[0] + nums[1]) / 2.0;
		break;
	case RATE_VARIABLE:
		if (rate_parse_var(&tmp, nums, n, errbuf, errlen) < 0)
			return -1;
		break;
	}
	*s = tmp;
	return 0;
}

double
rate_spec_rate(const struct rate_spec *s)
{
	return s->mean_iat > 0 ? 1.0 / s->mean_iat : 0.0;
}

void
rate_spec_scale(struct rate_spec *s, double rate)
{
	double f;
	size_t i;

	if (s->mean_iat <= 0 || !(rate > 0) || !isfinite(1.0 / rate)) {
		rate_spec_set_rate(s, rate);
		return;
	}
	f = 1.0 / rate / s->mean_iat;
	s->mean_iat = 1.0 / rate;
	s->min_iat *= f;
	s->max_iat *= f;
	for (i = 0; i < s->nvar; i++)
		s->var_iat[i] *= f;
}

void
rate_state_init(struct rate_state *st, unsigned client_id)
{
	st->xsubi[0] = (unsigned short)(0x1234 ^ client_id);
	st->xsubi[1] = (unsigned short)(0x5678 ^ (client_id << 8));
	st->xsubi[2] = (unsigned short)(0x9abc ^ ~client_id);
	st->var_cur = 0;
	st->var_elapsed = 0.0;
}

/*
 * Draws the next interval.  For v the time spent at a rate is the sum of
 * the intervals handed out, not wall time, as in 0.9.0.
 */
double
rate_next_iat(struct rate_state *st, const struct rate_spec *s)
{
	double iat;

	switch (s->dist) {
	case RATE_UNIFORM:
		return s->min_iat + (s->max_iat - s->min_iat) *
		    erand48(st->xsubi);
	case RATE_EXPONENTIAL:
		return -s->mean_iat * log(1.0 - erand48(st->xsubi));
	case RATE_VARIABLE:
		if (s->nvar == 0)
			return s->mean_iat;
		if (st->var_cur >= s->nvar)
			st->var_cur = 0;
		iat = s->var_iat[st->var_cur];
		st->var_elapsed += iat;
		if (st->var_elapsed >= s->var_dur[st->var_cur]) {
			st->var_cur = (st->var_cur + 1) % s->nvar;
			st->var_elapsed = 0.0;
		}
		return iat;
	case RATE_DETERMINISTIC:
	default:
		return s->mean_iat;
	}
}

/* Returns a + b, saturating at UINT64_MAX. */
static uint64_t
rate_add_ns(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Moves the schedule on by one interval. */
static void
rate_gen_advance(struct rate_gen *g)
{
	g->next = rate_add_ns(g->next,
	    clock_from_sec(rate_next_iat(&g->state, g->spec)));
}

/*
 * Timer callback: one tick per scheduled arrival that is due, so a late
 * firing catches up exactly, then re-arms for the next one.  The schedule
 * is advanced before each tick so a tick that stops (or restarts) the
 * generator sees consistent state.  With a budget, a firing that leaves
 * arrivals due re-arms for just after `now': the next turn, without
 * sleeping (a deadline <= now would fire again in this wheel run).
 */
static void
rate_gen_fire(struct timer *t, uint64_t now)
{
	struct rate_gen *g = containerof(t, struct rate_gen, timer);
	uint64_t n = 0;

	while (g->running && g->next <= now) {
		if (g->budget > 0 && n++ == g->budget) {
			timer_add(loop_timers(g->loop), &g->timer, now + 1);
			return;
		}
		g->due = g->next;
		rate_gen_advance(g);
		if (g->tick(g->arg, now) < 0) {
			rate_gen_stop(g);
			return;
		}
		/* A saturated schedule would otherwise spin forever. */
		if (g->next == UINT64_MAX)
			break;
	}
	if (g->running && !timer_is_armed(&g->timer))
		timer_add(loop_timers(g->loop), &g->timer, g->next);
}

uint64_t
rate_spec_offset(const struct rate_spec *s, unsigned client_id,
    unsigned num_clients)
{
	uint64_t iat;

	if (s->dist != RATE_DETERMINISTIC || s->mean_iat <= 0 ||
	    num_clients < 2 || client_id >= num_clients)
		return 0;
	/* iat * I / N without overflow: I and N are below 2^32. */
	iat = clock_from_sec(s->mean_iat);
	return iat / num_clients * client_id +
	    iat % num_clients * client_id / num_clients;
}

void
rate_gen_start(struct rate_gen *g, struct loop *l,
    const struct rate_spec *spec, unsigned client_id, unsigned num_clients,
    rate_tick_cb *tick, void *arg, uint64_t now)
{
	uint64_t offset = rate_spec_offset(spec, client_id, num_clients);

	g->spec = spec;
	rate_state_init(&g->state, client_id);
	g->loop = l;
	g->tick = tick;
	g->arg = arg;
	g->next = rate_add_ns(now, offset);
	g->due = g->next;
	g->budget = 0;
	g->running = 1;
	timer_init(&g->timer, rate_gen_fire);

	/* Shifted: the first arrival, like the others, is the timer's. */
	if (offset > 0) {
		timer_add(loop_timers(l), &g->timer, g->next);
		return;
	}
	if (spec->mean_iat > 0) {
		rate_gen_advance(g);
		timer_add(loop_timers(l), &g->timer, g->next);
	}
	/* The first arrival is at t=0, as in 0.9.0. */
	if (g->tick(g->arg, now) < 0)
		rate_gen_stop(g);
}

void
rate_gen_limit(struct rate_gen *g, uint64_t n)
{
	g->budget = n;
}

void
rate_gen_next(struct rate_gen *g, uint64_t now)
{
	if (!g->running || g->spec->mean_iat > 0)
		return;
	if (g->tick(g->arg, now) < 0)
		rate_gen_stop(g);
}

uint64_t
rate_gen_due(struct rate_gen *g, uint64_t end, uint64_t max)
{
	uint64_t n = 0, iat;

	if (!g->running || g->spec->mean_iat <= 0)
		return 0;
	while (n < max && n < RATE_DUE_DRAWS && g->next <= end) {
		n++;
		rate_gen_advance(g);
		if (g->next == UINT64_MAX)
			return n;
	}
	if (n < max && g->next <= end) {
		/* Millions overdue: the rest at the mean interval. */
		iat = clock_from_sec(g->spec->mean_iat);
		iat = iat > 0 ? (end - g->next) / iat + 1 : max - n;
		n += iat < max - n ? iat : max - n;
	}
	return n;
}

void
rate_gen_retarget(struct rate_gen *g, uint64_t now)
{
	if (!g->running || g->spec->mean_iat <= 0)
		return;
	timer_cancel(&g->timer);
	g->next = now;
	rate_gen_advance(g);
	timer_add(loop_timers(g->loop), &g->timer, g->next);
}

const struct rate_spec *
rate_gen_rescale(struct rate_gen *g, struct rate_spec *own, double rate,
    uint64_t now)
{
	if (g->spec == NULL || !(rate > 0) || rate_spec_rate(g->spec) == 0)
		return g->spec;
	if (g->spec != own) {
		*own = *g->spec;
		g->spec = own;
	}
	rate_spec_scale(own, rate);
	rate_gen_retarget(g, now);
	return own;
}

void
rate_gen_stop(struct rate_gen *g)
{
	timer_cancel(&g->timer);
	g->running = 0;
}
