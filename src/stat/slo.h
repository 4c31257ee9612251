/*
 * Objectives (--slo): "METRIC OP VALUE", e.g. "p99<5ms", "errors<0.1%",
 * "corrected.p99<=20ms", "5xx<1%", "reply-rate>=100", "achieved>=99%",
 * "late<1%", "client-timo<=0", "connect.p99<1ms".  The parser and the
 * verdict on a measured value; what is measured is the caller's (the
 * module knows no collector and no core).
 */
#ifndef HTTPERF_STAT_SLO_H
#define HTTPERF_STAT_SLO_H

#include <stddef.h>

/* The longest expression kept (longer ones are refused). */
#define SLO_TEXT_MAX	64
/* Room for a parse error message. */
#define SLO_ERR_MAX	128
/* Room for one verdict line (slo_format), newline excluded. */
#define SLO_LINE_MAX	(SLO_TEXT_MAX + 64)

enum slo_metric {
	SLO_HIST,		/* a statistic of a time histogram */
	SLO_ERRORS,		/* all errors */
	SLO_ERRCLASS,		/* one error class (`index', basic_err) */
	SLO_STATUS,		/* a status class (`index' 0 is 1xx) */
	SLO_REPLY_RATE,		/* replies per second */
	SLO_ACHIEVED,		/* achieved over target rate */
	SLO_LATE,		/* arrivals late over the threshold */
};

/* The histogram of a SLO_HIST objective. */
enum slo_hist {
	SLO_H_REPLY,
	SLO_H_CORRECTED,
	SLO_H_CONNECT,
	SLO_H_TLS,
	SLO_H_FIRST_BYTE,
	SLO_H_TRANSFER,
	SLO_H_SESSION,
	SLO_H_COUNT,
};

enum slo_stat {
	SLO_ST_PCT,		/* the percentile `q' */
	SLO_ST_MAX,
	SLO_ST_MEAN,
};

enum slo_op { SLO_LT, SLO_LE, SLO_GT, SLO_GE };

/* What `value' (and the measured value) is in. */
enum slo_unit {
	SLO_U_NS,		/* a time, in nanoseconds */
	SLO_U_PCT,		/* a percentage, 0 to 100 */
	SLO_U_COUNT,		/* an absolute count */
	SLO_U_RATE,		/* per second */
};

struct slo {
	char		 text[SLO_TEXT_MAX];	/* canonical: no blanks */
	enum slo_metric	 metric;
	enum slo_hist	 hist;		/* SLO_HIST */
	enum slo_stat	 stat;		/* SLO_HIST */
	double		 q;		/* SLO_ST_PCT: 0 < q < 100 */
	int		 index;		/* SLO_ERRCLASS, SLO_STATUS */
	enum slo_op	 op;
	enum slo_unit	 unit;
	double		 value;
};

/* The histograms' names as the expressions spell them ("" for reply). */
extern const char *const slo_hist_name[SLO_H_COUNT];

/*
 * Parses one expression (blanks around its parts allowed).  Returns 0
 * with *o filled, or -1 with a message in err (no expression in it:
 * the caller names it).
 */
int	slo_parse(const char *s, struct slo *o, char *err, size_t errsize);

/*
 * The verdict on a measured value in o->unit (a count for an absolute
 * objective, a percentage for a relative one): 1 pass, 0 fail.  NaN
 * (nothing measured) fails.
 */
int	slo_pass(const struct slo *o, double measured);

/*
 * The measured value of a count objective: the count itself when the
 * objective is absolute, else 100 * count / total (NaN when total is 0).
 */
double	slo_count_value(const struct slo *o, double count, double total);

/*
 * One verdict line, "Objective EXPR: VALUE UNIT PASS|FAIL" (UNIT: ms, %,
 * count or /s; VALUE "-" when nothing was measured), in buf.
 */
void	slo_format(char *buf, size_t size, const struct slo *o,
	    double measured);

struct jsonw;

/*
 * One verdict as a JSON object: {"objective": TEXT, "value": the measure
 * in the line's unit (null when nothing was measured), "unit": the
 * line's, "pass": BOOL}.
 */
void	slo_json(struct jsonw *w, const struct slo *o, double measured);

#endif
