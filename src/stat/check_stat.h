/*
 * The checks collector: replies that passed and failed each check
 * (check= in a session file, --check: gen/svars.h), and the calls that
 * failed for want of a session variable (class no-value).  Its lines come
 * after the classic report:
 *	Checks: passed N failed M		(when a check ran, or --check)
 *	Call failures: check C no-value K	(when either is not 0)
 * and stats.checks in --json, per check name too; --merge sums them.
 */
#ifndef HTTPERF_STAT_CHECK_STAT_H
#define HTTPERF_STAT_CHECK_STAT_H

/* Its settings (collector_env.cfg; NULL is all 0). */
struct check_stat_config {
	int		 checks;	/* --check: the Checks line always */
};

struct collector;

extern const struct collector check_stat_collector;

#endif
