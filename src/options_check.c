/*
 * The rules between options, checked once the whole command line is
 * known (so the order of the options does not matter).  httperf 0.9.0
 * silently ignored most of these combinations, leaving the user to
 * wonder why the test did not do what was asked.  The first rule broken,
 * in the order of the table, is the one reported.
 */
#include "config.h"

#include <stdio.h>

#include "options_int.h"
#include "util.h"

/* Stand-ins for "one of several options" in a rule's `other'. */
enum {
	OPT_ANY_SESSION = OPT_NOPTS,	/* --wsess or --wsesslog */
	OPT_ANY_SSL,			/* --ssl or --ssl-protocol */
	OPT_ANY_SCHEDULE,		/* a rate above 0 (--rate, --period) */
};

struct opt_rule {
	int		 opt;		/* enum opt_id: the option at fault */
	int		 needs;		/* 1: `other' is required; 0: it
					   excludes `opt' */
	int		 other;		/* enum opt_id or OPT_ANY_* */
	const char	*msg;
};

static const char needs_sess[] =
    "requires a session workload (--wsess or --wsesslog)";
static const char needs_ssl[] = "requires --ssl";

static const struct opt_rule opt_rules[] = {
	{ OPT_WSESS, 0, OPT_WSESSLOG, "cannot be used with --wsesslog" },
	{ OPT_WLOG, 0, OPT_WSESSLOG, "cannot be used with --wsesslog "
	    "(its URIs come from its file)" },
	{ OPT_WSET, 0, OPT_WSESSLOG, "cannot be used with --wsesslog "
	    "(its URIs come from its file)" },
	{ OPT_WLOG, 0, OPT_WSET, "cannot be used with --wset" },
	{ OPT_NUM_CONNS, 0, OPT_WSESSLOG, "does not apply to a session "
	    "workload (--wsesslog sets the number of sessions)" },
	{ OPT_NUM_CONNS, 0, OPT_WSESS, "does not apply to a session "
	    "workload (--wsess sets the number of sessions)" },
	{ OPT_NUM_CALLS, 0, OPT_WSESSLOG, "does not apply to a session "
	    "workload (--wsesslog sets the calls of a session)" },
	{ OPT_NUM_CALLS, 0, OPT_WSESS, "does not apply to a session "
	    "workload (--wsess sets the calls of a session)" },
	{ OPT_BURST_LENGTH, 0, OPT_WSESSLOG, "does not apply to --wsesslog "
	    "(bursts come from its file)" },
	{ OPT_SESSION_COOKIES, 1, OPT_ANY_SESSION, needs_sess },
	{ OPT_MAX_CONNECTIONS, 1, OPT_ANY_SESSION, needs_sess },
	{ OPT_MAX_PIPED_CALLS, 1, OPT_ANY_SESSION, needs_sess },
	{ OPT_FAILURE_STATUS, 1, OPT_ANY_SESSION, needs_sess },
	{ OPT_RETRY_ON_FAILURE, 1, OPT_ANY_SESSION, needs_sess },
	{ OPT_MAX_RETRIES, 1, OPT_RETRY_ON_FAILURE,
	    "requires --retry-on-failure" },
	{ OPT_BODY, 0, OPT_BODY_FILE, "cannot be used with --body-file" },
	/* Without a schedule nothing can be late. */
	{ OPT_MAX_LATENESS, 1, OPT_ANY_SCHEDULE, "requires a schedule "
	    "(--rate or --period above 0)" },
	/*
	 * The TLS options only tune TLS, so without --ssl (or
	 * --ssl-protocol, which turns it on) each of them is a mistake; so
	 * is a key without the certificate it belongs to.  The trust
	 * anchors and the server name are fine without --ssl-verify: the
	 * name is sent as SNI in any case, and the anchors are simply not
	 * consulted.
	 */
	{ OPT_SSL_CIPHERS, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_SSL_CIPHERSUITES, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_TLS_SERVER_NAME, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_SSL_NO_REUSE, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_SSL_CERTIFICATE, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_SSL_KEY, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_SSL_CA_FILE, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_SSL_CA_PATH, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_SSL_VERIFY, 1, OPT_ANY_SSL, needs_ssl },
	{ OPT_SSL_KEY, 1, OPT_SSL_CERTIFICATE, "requires --ssl-certificate" },
};

/* Returns non-zero if `id' (an option or OPT_ANY_*) was given. */
static int
opt_given(const struct opt_ctx *c, int id)
{
	switch (id) {
	case OPT_ANY_SESSION:
		return c->given[OPT_WSESS] || c->given[OPT_WSESSLOG];
	case OPT_ANY_SSL:
		return c->given[OPT_SSL] || c->given[OPT_SSL_PROTOCOL];
	case OPT_ANY_SCHEDULE:
		return rate_spec_rate(&c->o->rate) > 0;
	default:
		return c->given[id];
	}
}

int
opt_check(const struct opt_ctx *c)
{
	const struct opt_rule *rule;
	size_t i;

	for (i = 0; i < nitems(opt_rules); i++) {
		rule = &opt_rules[i];
		if (c->given[rule->opt] &&
		    opt_given(c, rule->other) != rule->needs)
			return opt_fail(c, &opt_table[rule->opt], NULL, NULL,
			    "%s", rule->msg);
	}
	return 0;
}
