/*
 * Objectives (--slo): the expression parser and the verdict.  See slo.h.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/slo.h"

const char *const slo_hist_name[SLO_H_COUNT] = {
	[SLO_H_REPLY] = "",
	[SLO_H_CORRECTED] = "corrected",
	[SLO_H_CONNECT] = "connect",
	[SLO_H_TLS] = "tls",
	[SLO_H_FIRST_BYTE] = "first-byte",
	[SLO_H_TRANSFER] = "transfer",
	[SLO_H_SESSION] = "session",
};

static const struct {
	const char	*name;
	double		 ns;
} slo_time_unit[] = {
	{ "", 1e6 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
};

/* Is [s, e) (a number: digits and at most one dot, a digit in it)? */
static int
slo_is_number(const char *s, const char *e)
{
	int dots = 0, digits = 0;

	for (; s < e; s++) {
		if (*s == '.')
			dots++;
		else if (*s >= '0' && *s <= '9')
			digits++;
		else
			return 0;
	}
	return dots <= 1 && digits > 0;
}

/* The span of a number's characters at s. */
static const char *
slo_number_end(const char *s, const char *e)
{
	while (s < e && ((*s >= '0' && *s <= '9') || *s == '.'))
		s++;
	return s;
}

/* [s, e) is a copy's worth of text: strtod on a bounded copy. */
static double
slo_strtod(const char *s, const char *e)
{
	char tmp[SLO_TEXT_MAX];
	size_t n = (size_t)(e - s);

	if (n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return strtod(tmp, NULL);
}

static int
slo_span_is(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - s) == n && memcmp(s, word, n) == 0;
}

/* A histogram's statistic: "p99", "p99.9", "max", "mean". */
static int
slo_parse_stat(const char *s, const char *e, struct slo *o)
{
	o->metric = SLO_HIST;
	if (slo_span_is(s, e, "max")) {
		o->stat = SLO_ST_MAX;
		return 0;
	}
	if (slo_span_is(s, e, "mean")) {
		o->stat = SLO_ST_MEAN;
		return 0;
	}
	if (e - s < 2 || *s != 'p' || !slo_is_number(s + 1, e))
		return -1;
	o->stat = SLO_ST_PCT;
	o->q = slo_strtod(s + 1, e);
	return 0;
}

/* A metric that is not a histogram's: errors, classes, rates. */
static int
slo_parse_count(const char *s, const char *e, struct slo *o)
{
	size_t i;

	if (slo_span_is(s, e, "errors"))
		o->metric = SLO_ERRORS;
	else if (slo_span_is(s, e, "reply-rate"))
		o->metric = SLO_REPLY_RATE;
	else if (slo_span_is(s, e, "achieved"))
		o->metric = SLO_ACHIEVED;
	else if (slo_span_is(s, e, "late"))
		o->metric = SLO_LATE;
	else {
		for (i = 0; i < BASIC_ERR_COUNT; i++)
			if (slo_span_is(s, e, basic_err_name[i]))
				break;
		if (i < BASIC_ERR_COUNT) {
			o->metric = SLO_ERRCLASS;
			o->index = (int)i;
			return 0;
		}
		for (i = 0; i < BASIC_NSTATUS; i++)
			if (slo_span_is(s, e, basic_status_name[i]))
				break;
		if (i == BASIC_NSTATUS)
			return -1;
		o->metric = SLO_STATUS;
		o->index = (int)i;
	}
	return 0;
}

static int
slo_parse_metric(const char *s, const char *e, struct slo *o, char *err,
    size_t errsize)
{
	size_t n;
	int h;

	o->hist = SLO_H_REPLY;
	for (h = 1; h < SLO_H_COUNT; h++) {
		n = strlen(slo_hist_name[h]);
		if ((size_t)(e - s) > n + 1 && memcmp(s, slo_hist_name[h], n) == 0 &&
		    s[n] == '.') {
			o->hist = (enum slo_hist)h;
			s += n + 1;
			break;
		}
	}
	if (slo_parse_stat(s, e, o) == 0) {
		if (o->stat == SLO_ST_PCT && !(o->q > 0 && o->q < 100)) {
			snprintf(err, errsize, "a percentile is above p0 and "
			    "below p100 (max is the largest)");
			return -1;
		}
		return 0;
	}
	if (o->hist == SLO_H_REPLY && slo_parse_count(s, e, o) == 0)
		return 0;
	if (o->hist != SLO_H_REPLY)
		snprintf(err, errsize, "unknown statistic \"%.*s\" (pN, max "
		    "or mean)", (int)(e - s), s);
	else
		snprintf(err, errsize, "unknown metric \"%.*s\"", (int)(e - s),
		    s);
	return -1;
}

/* The value of a time: a number and a unit, ms without one. */
static int
slo_parse_time(double v, const char *u, const char *e, struct slo *o,
    char *err, size_t errsize)
{
	size_t i;

	for (i = 0; i < nitems(slo_time_unit); i++)
		if (slo_span_is(u, e, slo_time_unit[i].name)) {
			o->unit = SLO_U_NS;
			o->value = v * slo_time_unit[i].ns;
			return 0;
		}
	snprintf(err, errsize, "a time's unit is ns, us, ms or s, not "
	    "\"%.*s\"", (int)(e - u), u);
	return -1;
}

/* The value of a count: a percentage, or a whole number. */
static int
slo_parse_cval(double v, const char *u, const char *e, struct slo *o,
    char *err, size_t errsize)
{
	if (slo_span_is(u, e, "%") && v <= 100) {
		o->unit = SLO_U_PCT;
		o->value = v;
		return 0;
	}
	if (u == e && o->metric != SLO_ACHIEVED && v == floor(v)) {
		o->unit = SLO_U_COUNT;
		o->value = v;
		return 0;
	}
	if (o->metric == SLO_ACHIEVED)
		snprintf(err, errsize, "achieved is a percentage of the "
		    "target rate, at most 100%%");
	else
		snprintf(err, errsize, "a count's limit is a percentage (at "
		    "most 100%%) or a whole number");
	return -1;
}

static int
slo_parse_value(const char *s, const char *e, struct slo *o, char *err,
    size_t errsize)
{
	const char *u = slo_number_end(s, e);
	double v;

	if (!slo_is_number(s, u)) {
		snprintf(err, errsize, "no number after the comparison");
		return -1;
	}
	v = slo_strtod(s, u);
	if (o->metric == SLO_HIST)
		return slo_parse_time(v, u, e, o, err, errsize);
	if (o->metric != SLO_REPLY_RATE)
		return slo_parse_cval(v, u, e, o, err, errsize);
	if (u != e && !slo_span_is(u, e, "/s")) {
		snprintf(err, errsize, "a rate is a number (per second)");
		return -1;
	}
	o->unit = SLO_U_RATE;
	o->value = v;
	return 0;
}

/* The comparison at *p; *p moves past it. */
static int
slo_parse_op(const char **p, struct slo *o)
{
	const char *s = *p;

	if (s[0] == '<')
		o->op = s[1] == '=' ? SLO_LE : SLO_LT;
	else
		o->op = s[1] == '=' ? SLO_GE : SLO_GT;
	*p = s + (s[1] == '=' ? 2 : 1);
	return 0;
}

int
slo_parse(const char *s, struct slo *o, char *err, size_t errsize)
{
	const char *ms, *me, *vs, *ve, *op;

	memset(o, 0, sizeof(*o));
	op = s + strcspn(s, "<>");
	if (*op == '\0') {
		snprintf(err, errsize, "no comparison (<, <=, > or >=)");
		return -1;
	}
	ms = s;
	me = op;
	util_trim(&ms, &me);
	slo_parse_op(&op, o);
	vs = op;
	ve = op + strlen(op);
	util_trim(&vs, &ve);
	if (ms == me) {
		snprintf(err, errsize, "no metric before the comparison");
		return -1;
	}
	if ((size_t)(me - ms) + 2 + (size_t)(ve - vs) >= SLO_TEXT_MAX) {
		snprintf(err, errsize, "too long (at most %d characters)",
		    SLO_TEXT_MAX - 1);
		return -1;
	}
	if (slo_parse_metric(ms, me, o, err, errsize) != 0 ||
	    slo_parse_value(vs, ve, o, err, errsize) != 0)
		return -1;
	snprintf(o->text, sizeof(o->text), "%.*s%s%.*s", (int)(me - ms), ms,
	    o->op == SLO_LT ? "<" : o->op == SLO_LE ? "<=" :
	    o->op == SLO_GT ? ">" : ">=", (int)(ve - vs), vs);
	return 0;
}

int
slo_pass(const struct slo *o, double measured)
{
	if (isnan(measured))
		return 0;
	switch (o->op) {
	case SLO_LT:
		return measured < o->value;
	case SLO_LE:
		return measured <= o->value;
	case SLO_GT:
		return measured > o->value;
	case SLO_GE:
		return measured >= o->value;
	}
	return 0;
}

double
slo_count_value(const struct slo *o, double count, double total)
{
	if (o->unit == SLO_U_COUNT)
		return count;
	if (!(total > 0))
		return NAN;
	return 100.0 * count / total;
}

/* The unit of a verdict's value, by enum slo_unit. */
static const char *const slo_unit_name[] = {
	[SLO_U_NS] = "ms", [SLO_U_PCT] = "%", [SLO_U_COUNT] = "count",
	[SLO_U_RATE] = "/s",
};

void
slo_format(char *buf, size_t size, const struct slo *o, double measured)
{
	const char *const *unit = slo_unit_name;
	char num[48];
	double v = o->unit == SLO_U_NS ? measured / 1e6 : measured;

	if (isnan(v))
		snprintf(num, sizeof(num), "-");
	else if (!(fabs(v) < 1e15))	/* no number wider than the line */
		snprintf(num, sizeof(num), "%.6e", v);
	else if (o->unit == SLO_U_COUNT)
		snprintf(num, sizeof(num), "%.0f", v);
	else
		snprintf(num, sizeof(num), "%.3f", v);
	snprintf(buf, size, "Objective %s: %s %s %s", o->text, num,
	    unit[o->unit], slo_pass(o, measured) ? "PASS" : "FAIL");
}

void
slo_json(struct jsonw *w, const struct slo *o, double measured)
{
	double v = o->unit == SLO_U_NS ? measured / 1e6 : measured;

	jsonw_obj_begin(w);
	jsonw_kstr(w, "objective", o->text);
	jsonw_key(w, "value");
	if (isnan(v))
		jsonw_null(w);
	else
		jsonw_double(w, v);
	jsonw_kstr(w, "unit", slo_unit_name[o->unit]);
	jsonw_kbool(w, "pass", slo_pass(o, measured));
	jsonw_obj_end(w);
}
