/*
 * The options for running many clients as one test: --client auto[/N],
 * which takes the client's place I and the number of clients N from the
 * environment of the launcher that started it, and --start-at TIME, the
 * wall-clock instant every client of a fleet starts at; --jobs and
 * --cpus, and the split of one run's workload over --jobs' workers.
 *
 * The environment is handed in (struct opt_ctx's env, main() passes
 * environ), so the lookups can be tested without touching the process's
 * own.
 */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/call_rate.h"
#include "gen/rate.h"
#include "lib/util.h"
#include "opt/options_int.h"

/*
 * The launchers' variables, in the order they are looked at: the first
 * one set gives I.  A count of NULL means the launcher does not say how
 * many processes it started, so --client auto/N must.
 */
static const struct opt_launcher {
	const char	*index;		/* I, 0-based (1-based: base 1) */
	const char	*count;		/* N, or NULL */
	unsigned	 base;
} opt_launchers[] = {
	{ "JOB_COMPLETION_INDEX", NULL, 0 },		/* Kubernetes */
	{ "PSSH_NODENUM", "PSSH_NUMNODES", 0 },		/* pssh, pdsh -R */
	{ "SLURM_PROCID", "SLURM_NTASKS", 0 },		/* srun */
	{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", 0 }, /* mpirun */
	{ "PARALLEL_SEQ", NULL, 1 },			/* GNU parallel */
};

/*
 * Returns the value of variable `name' in `env' (NULL-terminated
 * "NAME=value" strings, may be NULL), or NULL when it is not set.  An
 * empty value counts as not set: a launcher's variable is never empty,
 * and a shell that clears one with NAME= means it gone.
 */
const char *
opt_env(char *const *env, const char *name)
{
	size_t len = strlen(name);

	for (; env != NULL && *env != NULL; env++)
		if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
			return (*env)[len + 1] != '\0' ? *env + len + 1 :
			    NULL;
	return NULL;
}

/*
 * Parses the value of variable `name' as a whole number from `min':
 * messages name the variable and quote its value.
 */
static int
opt_env_uint(const struct opt_ctx *c, const struct opt_row *r,
    const char *name, const char *value, uint64_t min, unsigned *out)
{
	const struct opt_val v = { .name = name, .kind = OPT_K_UINT,
	    .min = min, .max = UINT_MAX };
	union opt_value x;

	if (opt_parse_val(c, r, &v, value, value, &x) == -1)
		return -1;
	*out = (unsigned)x.u;
	return 0;
}

/*
 * --client auto or auto/N: I from the first launcher variable set, N from
 * the launcher's count or from /N (both: they must agree).  The result is
 * stored as if --client I/N had been typed.
 */
int
opt_client_auto(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	static const struct opt_val part = { .kind = OPT_K_UINT, .min = 1,
	    .max = UINT_MAX };
	const struct opt_launcher *l = NULL;
	const char *ival = NULL, *nval = NULL;
	union opt_value given = { .u = 0 };
	unsigned id, n = 0;
	size_t i;

	if (arg[4] == '/') {
		if (opt_parse_val(c, r, &part, arg, arg + 5, &given) == -1)
			return -1;
	} else if (arg[4] != '\0')
		return opt_fail(c, r, NULL, arg, "expected I/N or auto[/N]");
	for (i = 0; i < nitems(opt_launchers) && ival == NULL; i++) {
		l = &opt_launchers[i];
		ival = opt_env(c->env, l->index);
	}
	if (ival == NULL)
		return opt_fail(c, r, NULL, arg, "none of JOB_COMPLETION_INDEX, "
		    "PSSH_NODENUM, SLURM_PROCID, OMPI_COMM_WORLD_RANK or "
		    "PARALLEL_SEQ is set");
	if (opt_env_uint(c, r, l->index, ival, l->base, &id) == -1)
		return -1;
	id -= l->base;
	if (l->count != NULL && (nval = opt_env(c->env, l->count)) != NULL &&
	    opt_env_uint(c, r, l->count, nval, 1, &n) == -1)
		return -1;
	if (nval != NULL && given.u != 0 && given.u != n)
		return opt_fail(c, r, NULL, arg, "%s=%s disagrees with the "
		    "number of clients given", l->count, nval);
	if (nval == NULL && given.u == 0) {
		if (l->count == NULL)
			return opt_fail(c, r, NULL, arg, "%s gives no number "
			    "of clients: use auto/N", l->index);
		return opt_fail(c, r, NULL, arg, "%s is set but %s is not: "
		    "use auto/N", l->index, l->count);
	}
	if (nval == NULL)
		n = (unsigned)given.u;
	if (id >= n)
		return opt_fail(c, r, NULL, arg, "%s=%s makes client id %u, "
		    "not less than the number of clients %u", l->index, ival,
		    id, n);
	c->o->client_id = id;
	c->o->num_clients = n;
	return 0;
}

/* The most seconds since the epoch an instant in nanoseconds can have. */
#define OPT_TIME_MAX_SEC	INT64_C(9223372035)	/* 2262-04-11 */

/*
 * Reads exactly `n' digits at *p into *out and moves *p past them.
 * Returns 0, or -1 when there are fewer.
 */
static int
opt_digits(const char **p, int n, unsigned *out)
{
	unsigned v = 0;

	for (; n > 0; n--, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (unsigned)(**p - '0');
	}
	*out = v;
	return 0;
}

/*
 * Reads a fraction's digits at *p (at least one) into nanoseconds; the
 * digits past the ninth are read and dropped.  Returns 0 or -1.
 */
static int
opt_fraction(const char **p, uint64_t *ns)
{
	uint64_t scale = 100000000;

	*ns = 0;
	if (!isdigit((unsigned char)**p))
		return -1;
	for (; isdigit((unsigned char)**p); (*p)++) {
		*ns += (uint64_t)(**p - '0') * scale;
		scale /= 10;
	}
	return 0;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t
opt_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static unsigned
opt_month_days(unsigned y, unsigned m)
{
	static const unsigned char days[12] = { 31, 28, 31, 30, 31, 30, 31,
	    31, 30, 31, 30, 31 };

	if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
		return 29;
	return days[m - 1];
}

/* "YYYY-MM-DDTHH:MM:SS[.F](Z|+HH:MM|-HH:MM)" into seconds and ns. */
static int
opt_parse_rfc3339(const char *p, int64_t *sec, uint64_t *frac,
    const char **why)
{
	static const char shape[] = "expected an RFC 3339 date-time "
	    "(YYYY-MM-DDTHH:MM:SS[.F]Z or +HH:MM)";
	unsigned y, mo, d, h, mi, s, oh = 0, om = 0;
	int sign = 0;

	*frac = 0;
	*why = shape;
	if (opt_digits(&p, 4, &y) == -1 || *p++ != '-' ||
	    opt_digits(&p, 2, &mo) == -1 || *p++ != '-' ||
	    opt_digits(&p, 2, &d) == -1)
		return -1;
	if (*p != 'T' && *p != 't' && *p != ' ')
		return -1;
	p++;
	if (opt_digits(&p, 2, &h) == -1 || *p++ != ':' ||
	    opt_digits(&p, 2, &mi) == -1 || *p++ != ':' ||
	    opt_digits(&p, 2, &s) == -1)
		return -1;
	if (*p == '.') {
		p++;
		if (opt_fraction(&p, frac) == -1)
			return -1;
	}
	if (*p == 'Z' || *p == 'z')
		p++;
	else if (*p == '+' || *p == '-') {
		sign = *p++ == '+' ? 1 : -1;
		if (opt_digits(&p, 2, &oh) == -1 || *p++ != ':' ||
		    opt_digits(&p, 2, &om) == -1)
			return -1;
	} else {
		*why = "missing time zone (Z or +HH:MM)";
		return -1;
	}
	if (*p != '\0')
		return -1;
	if (mo < 1 || mo > 12)
		*why = "month out of range";
	else if (d < 1 || d > opt_month_days(y, mo))
		*why = "day out of range for the month";
	else if (h > 23)
		*why = "hour out of range";
	else if (mi > 59)
		*why = "minute out of range";
	else if (s > 59)
		*why = "second out of range (no leap seconds)";
	else if (oh > 23 || om > 59)
		*why = "time zone offset out of range";
	else {
		*sec = opt_days_from_civil(y, mo, d) * 86400 +
		    (int64_t)(h * 3600 + mi * 60 + s) -
		    sign * (int64_t)(oh * 3600 + om * 60);
		return 0;
	}
	return -1;
}

int
opt_parse_time(const char *s, uint64_t *ns, const char **why)
{
	const char *p = s;
	uint64_t frac = 0;
	int64_t sec = 0;

	if (strlen(s) > 4 && isdigit((unsigned char)s[0]) && s[4] == '-') {
		if (opt_parse_rfc3339(s, &sec, &frac, why) == -1)
			return -1;
	} else {
		*why = "expected seconds since the epoch or an RFC 3339 "
		    "date-time";
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			sec = sec * 10 + (*p - '0');
			if (sec > OPT_TIME_MAX_SEC) {
				*why = "too far in the future (after 2262)";
				return -1;
			}
		}
		if (*p == '.') {
			p++;
			if (opt_fraction(&p, &frac) == -1)
				return -1;
		}
		if (*p != '\0')
			return -1;
	}
	if (sec < 0) {
		*why = "before 1970";
		return -1;
	}
	if (sec > OPT_TIME_MAX_SEC) {
		*why = "too far in the future (after 2262)";
		return -1;
	}
	*ns = (uint64_t)sec * UINT64_C(1000000000) + frac;
	return 0;
}

/* --start-at TIME: the instant, checked for its form only here. */
int
opt_start_at(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	const char *why = NULL;
	uint64_t ns;

	if (opt_parse_time(arg, &ns, &why) == -1)
		return opt_fail(c, r, NULL, arg, "%s", why);
	c->o->start_at = ns;
	c->o->start_at_raw = arg;
	return 0;
}

/* --jobs N|auto: N from 1 (1: no workers, today's run). */
int
opt_jobs(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	static const struct opt_val v = { .kind = OPT_K_UINT, .min = 1,
	    .max = OPTIONS_MAX_CPU };
	union opt_value x;

	if (strcmp(arg, "auto") == 0) {
		c->o->jobs_auto = 1;
		c->o->jobs = 0;
		return 0;
	}
	if (opt_parse_val(c, r, &v, arg, arg, &x) == -1)
		return -1;
	c->o->jobs_auto = 0;
	c->o->jobs = (unsigned)x.u;
	return 0;
}

/* Echoed only when it makes workers: --jobs 1 is today's run. */
void
opt_echo_jobs(const struct options *o, const struct opt_row *r, FILE *out)
{
	if (o->jobs > 1)
		fprintf(out, " --%s=%u", r->name, o->jobs);
}

int
options_cpus_parse(const char *s, unsigned **cpus, size_t *n,
    const char **why)
{
	unsigned long lo, hi, k;
	const char *p = s;
	char *end;

	*cpus = NULL;
	*n = 0;
	*why = "expected CPU numbers and ranges such as 0-3,6";
	do {
		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = hi = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)*++p))
				goto bad;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (hi >= OPTIONS_MAX_CPU || lo > hi) {
			*why = lo > hi ? "a range must go upwards" :
			    "CPU number too large";
			goto bad;
		}
		*cpus = xreallocarray(*cpus, *n + (hi - lo) + 1,
		    sizeof(**cpus));
		for (k = lo; k <= hi; k++)
			(*cpus)[(*n)++] = (unsigned)k;
	} while (*p++ == ',');
	if (p[-1] == '\0')
		return 0;
bad:
	free(*cpus);
	*cpus = NULL;
	*n = 0;
	return -1;
}

/* --cpus LIST: checked for its form here, read again by run_jobs.c. */
int
opt_cpus(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	const char *why;
	unsigned *cpus;
	size_t n;

	if (options_cpus_parse(arg, &cpus, &n, &why) == -1)
		return opt_fail(c, r, NULL, arg, "%s", why);
	free(cpus);
	c->o->cpus = arg;
	return 0;
}

uint64_t
options_share(uint64_t total, unsigned i, unsigned n)
{
	return total / n + (i < total % n ? 1 : 0);
}

/* The --call-rate pool: given, or the generator's default. */
static uint64_t
opt_pool(const struct options *o)
{
	return o->max_connections > 0 ? o->max_connections :
	    CALL_RATE_DEFAULT_CONNS;
}

/* Lowers *max to `count' when that is a count the split divides. */
static void
opt_cap(unsigned *max, uint64_t count)
{
	if (count > 0 && count < *max)
		*max = (unsigned)count;
}

unsigned
options_split_max(const struct options *o)
{
	unsigned max = UINT_MAX;

	/* A sweep's levels are split, not its counts (its steps end the
	   run): run_jobs.c checks each level gives every worker some; a
	   --call-rate pool is split still. */
	if (o->sweep != NULL) {
		if (o->call_rate > 0)
			opt_cap(&max, opt_pool(o));
		return max;
	}
	if (o->wsess_n > 0)
		opt_cap(&max, o->wsess_n);
	else if (o->wsesslog_n > 0)
		opt_cap(&max, o->wsesslog_n);
	else if (o->wsesspage_n > 0)
		opt_cap(&max, o->wsesspage_n);
	else if (o->concurrency > 0) {
		opt_cap(&max, o->concurrency);
		opt_cap(&max, o->num_calls);
	} else if (o->call_rate > 0) {
		opt_cap(&max, opt_pool(o));
		opt_cap(&max, o->num_calls);
	} else
		opt_cap(&max, o->num_conns);
	return max;
}

void
options_split(struct options *o, unsigned i, unsigned n)
{
	double rate = rate_spec_rate(&o->rate);

	o->client_id = i;
	o->num_clients = n;
	if (rate > 0)
		rate_spec_scale(&o->rate, rate / n);
	o->call_rate /= n;
	if (o->wsess_n > 0)
		o->wsess_n = options_share(o->wsess_n, i, n);
	else if (o->wsesslog_n > 0)
		o->wsesslog_n = options_share(o->wsesslog_n, i, n);
	else if (o->wsesspage_n > 0)
		o->wsesspage_n = options_share(o->wsesspage_n, i, n);
	else if (o->concurrency > 0) {
		o->concurrency = (unsigned)options_share(o->concurrency, i, n);
		o->num_calls = options_share(o->num_calls, i, n);
	} else if (o->call_rate > 0) {
		o->max_connections = (unsigned)options_share(opt_pool(o), i,
		    n);
		o->num_calls = options_share(o->num_calls, i, n);
	} else
		o->num_conns = options_share(o->num_conns, i, n);
}

double
options_split_level(const struct options *o, double level, unsigned i,
    unsigned n)
{
	if (o->concurrency > 0)
		return (double)options_share((uint64_t)level, i, n);
	return level / n;
}
