/*
 * The rules between options, checked once the whole command line is
 * known (so the order of the options does not matter).  httperf 0.9.0
 * silently ignored most of these combinations, leaving the user to
 * wonder why the test did not do what was asked.  The first rule broken,
 * in the order of the table, is the one reported.  Last, --call-rate's
 * schedule and totals are completed (opt_check_call_rate()).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/conn_h2.h"
#include "lib/util.h"
#include "opt/options_int.h"
#include "stat/slo.h"

/* Stand-ins for "one of several options" in a rule's `other'. */
enum {
	OPT_ANY_SESSION = OPT_NOPTS,	/* --wsess, --wsesslog, --wsesspage */
	OPT_ANY_SSL,			/* --ssl or --ssl-protocol */
	OPT_ANY_POOL,			/* a session workload or --call-rate */
	OPT_ANY_BOUND,			/* --num-calls or --runtime */
	OPT_ANY_SCHEDULE,		/* a rate above 0 (--rate, --period),
					   or --call-rate */
	OPT_ANY_PROXY,			/* --proxy or --proxy-env */
	OPT_ANY_LEVEL,			/* what --sweep moves: a schedule
					   or --concurrency */
	OPT_ANY_SEEDED,			/* --template or --wsesspage */
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
	/*
	 * --call-rate is a workload of its own: requests on a schedule
	 * over a pool of connections, --num-calls of them in all.
	 */
	{ OPT_CALL_RATE, 0, OPT_RATE, "cannot be used with --rate "
	    "(--call-rate is the request rate; --period may shape it)" },
	{ OPT_CALL_RATE, 0, OPT_WSESS, "cannot be used with --wsess" },
	{ OPT_CALL_RATE, 0, OPT_WSESSLOG, "cannot be used with --wsesslog" },
	{ OPT_NUM_CONNS, 0, OPT_CALL_RATE, "does not apply to --call-rate "
	    "(--max-connections is its pool, --num-calls the total)" },
	{ OPT_BURST_LENGTH, 0, OPT_CALL_RATE, "does not apply to "
	    "--call-rate (one request at a time per connection)" },
	{ OPT_CALL_RATE, 1, OPT_ANY_BOUND, "requires --num-calls (the total "
	    "of requests) or --runtime" },
	/*
	 * --concurrency is the closed loop: no schedule, N connections,
	 * --num-calls requests in all.
	 */
	{ OPT_CONCURRENCY, 0, OPT_RATE, "cannot be used with --rate "
	    "(a closed loop has no schedule)" },
	{ OPT_CONCURRENCY, 0, OPT_PERIOD, "cannot be used with --period "
	    "(a closed loop has no schedule)" },
	{ OPT_CONCURRENCY, 0, OPT_CALL_RATE,
	    "cannot be used with --call-rate" },
	{ OPT_CONCURRENCY, 0, OPT_WSESS, "cannot be used with --wsess" },
	{ OPT_CONCURRENCY, 0, OPT_WSESSLOG,
	    "cannot be used with --wsesslog" },
	{ OPT_NUM_CONNS, 0, OPT_CONCURRENCY, "does not apply to "
	    "--concurrency (N is the connections, --num-calls the total)" },
	{ OPT_MAX_CONNECTIONS, 0, OPT_CONCURRENCY, "does not apply to "
	    "--concurrency (N is the connections)" },
	{ OPT_CONCURRENCY, 1, OPT_ANY_BOUND, "requires --num-calls (the "
	    "total of requests) or --runtime" },
	{ OPT_WSESS, 0, OPT_WSESSLOG, "cannot be used with --wsesslog" },
	{ OPT_WSESSPAGE, 0, OPT_WSESS, "cannot be used with --wsess" },
	{ OPT_WSESSPAGE, 0, OPT_WSESSLOG, "cannot be used with --wsesslog" },
	{ OPT_WSESSPAGE, 0, OPT_CALL_RATE, "cannot be used with --call-rate" },
	{ OPT_WSESSPAGE, 0, OPT_CONCURRENCY, "cannot be used with "
	    "--concurrency" },
	{ OPT_WSESSPAGE, 0, OPT_NUM_CONNS, "cannot be used with --num-conns "
	    "(N1 is the number of sessions)" },
	{ OPT_WSESSPAGE, 0, OPT_NUM_CALLS, "cannot be used with --num-calls "
	    "(the pages set the calls of a view)" },
	{ OPT_WSESSPAGE, 0, OPT_BURST_LENGTH, "cannot be used with "
	    "--burst-length (a view is a burst)" },
	{ OPT_WSESSPAGE, 0, OPT_WLOG, "cannot be used with --wlog (the "
	    "pages choose the URIs)" },
	{ OPT_WSESSPAGE, 0, OPT_WSET, "cannot be used with --wset (the "
	    "pages choose the URIs)" },
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
	{ OPT_MAX_CONNECTIONS, 1, OPT_ANY_POOL, "requires a session "
	    "workload (--wsess or --wsesslog) or --call-rate" },
	{ OPT_MAX_PIPED_CALLS, 1, OPT_ANY_SESSION, needs_sess },
	{ OPT_FAILURE_STATUS, 1, OPT_ANY_SESSION, needs_sess },
	{ OPT_RETRY_ON_FAILURE, 1, OPT_ANY_SESSION, needs_sess },
	{ OPT_MAX_RETRIES, 1, OPT_RETRY_ON_FAILURE,
	    "requires --retry-on-failure" },
	{ OPT_BODY, 0, OPT_BODY_FILE, "cannot be used with --body-file" },
	{ OPT_SEED, 1, OPT_ANY_SEEDED, "requires --template or --wsesspage "
	    "(it seeds the templates' random values and the pages' walk)" },
	{ OPT_DATA, 1, OPT_TEMPLATE, "requires --template (its values go "
	    "in by {{data.COL}})" },
	{ OPT_DATA_ORDER, 1, OPT_DATA, "requires --data" },
	{ OPT_DATA_WRAP, 1, OPT_DATA, "requires --data" },
	{ OPT_LOG_DROP, 1, OPT_LOG, "requires --log" },
	/* --jobs makes its workers clients I/N of one merged run. */
	{ OPT_JOBS, 0, OPT_CLIENT, "cannot be used with --client (its "
	    "workers are the clients)" },
	{ OPT_CPUS, 1, OPT_JOBS, "requires --jobs" },
	{ OPT_SCRIPT_ARG, 1, OPT_SCRIPT, "requires --script" },
	{ OPT_SCRIPT, 0, OPT_SERVERS, "cannot be used with --servers (a wrk "
	    "script has one target: wrk.host and wrk.port)" },
	{ OPT_SCRIPT, 0, OPT_WSESSPAGE, "cannot be used with --wsesspage (a "
	    "page view's requests come from its pages)" },
	/* Without a schedule nothing can be late. */
	{ OPT_MAX_LATENESS, 1, OPT_ANY_SCHEDULE, "requires a schedule "
	    "(--rate or --period above 0, or --call-rate)" },
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
	{ OPT_HTTP2_FALLBACK, 1, OPT_ANY_SSL, needs_ssl },
	/*
	 * A Unix socket has no ports, no source address and no proxy in
	 * front of it; the proxy comes from --proxy or the environment,
	 * not both.
	 */
	{ OPT_HOG, 0, OPT_UNIX_SOCKET, "cannot be used with --unix-socket "
	    "(a Unix socket has no ports)" },
	{ OPT_MYADDR, 0, OPT_UNIX_SOCKET, "cannot be used with "
	    "--unix-socket (a Unix socket has no source address)" },
	{ OPT_PROXY, 0, OPT_UNIX_SOCKET, "cannot be used with --unix-socket" },
	{ OPT_PROXY_ENV, 0, OPT_UNIX_SOCKET,
	    "cannot be used with --unix-socket" },
	{ OPT_PROXY_ENV, 0, OPT_PROXY, "cannot be used with --proxy "
	    "(--proxy names the proxy)" },
	{ OPT_PROXY_USER, 1, OPT_ANY_PROXY, "requires --proxy or --proxy-env" },
	/*
	 * --servers names the servers, each with its own Host and TLS
	 * name, and reaches them directly.
	 */
	{ OPT_SERVERS, 0, OPT_SERVER, "cannot be used with --server or a "
	    "URL (give one or the other)" },
	{ OPT_SERVERS, 0, OPT_SERVER_NAME, "cannot be used with --server-name "
	    "(each server's Host is its name in the file)" },
	{ OPT_SERVERS, 0, OPT_TLS_SERVER_NAME, "cannot be used with "
	    "--tls-server-name (each server's SNI is its name in the file)" },
	{ OPT_SERVERS, 0, OPT_UNIX_SOCKET, "cannot be used with --unix-socket" },
	{ OPT_SERVERS, 0, OPT_ANY_PROXY, "cannot be used with --proxy or "
	    "--proxy-env" },
	/*
	 * --sweep moves the rate of the workload's schedule from step to
	 * step; the sweep decides the length of the test.
	 */
	{ OPT_SWEEP, 1, OPT_ANY_LEVEL, "requires a schedule "
	    "(--rate or --period above 0, or --call-rate) or --concurrency" },
	{ OPT_SWEEP, 1, OPT_STEP_TIME, "requires --step-time" },
	{ OPT_STEP_TIME, 1, OPT_SWEEP, "requires --sweep" },
	{ OPT_STEP_WARMUP, 1, OPT_SWEEP, "requires --sweep" },
	{ OPT_SWEEP_PRECISION, 1, OPT_SWEEP, "requires --sweep" },
	{ OPT_SWEEP_TSV, 1, OPT_SWEEP, "requires --sweep" },
	{ OPT_RUNTIME, 0, OPT_SWEEP, "cannot be used with --sweep "
	    "(the sweep decides the length of the test)" },
	{ OPT_NUM_CONNS, 0, OPT_SWEEP, "cannot be used with --sweep "
	    "(the sweep decides the length of the test)" },
	{ OPT_NUM_CALLS, 0, OPT_SWEEP, "cannot be used with --sweep "
	    "(the sweep decides the length of the test)" },
	{ OPT_SLO_ABORT, 0, OPT_SWEEP, "cannot be used with --sweep "
	    "(the objectives judge each step)" },
};

/* Returns non-zero if `id' (an option or OPT_ANY_*) was given. */
static int
opt_given(const struct opt_ctx *c, int id)
{
	switch (id) {
	case OPT_ANY_SESSION:
		return c->given[OPT_WSESS] || c->given[OPT_WSESSLOG] ||
		    c->given[OPT_WSESSPAGE];
	case OPT_ANY_SSL:
		return c->given[OPT_SSL] || c->given[OPT_SSL_PROTOCOL];
	case OPT_ANY_POOL:
		return c->given[OPT_WSESS] || c->given[OPT_WSESSLOG] ||
		    c->given[OPT_WSESSPAGE] || c->given[OPT_CALL_RATE];
	case OPT_ANY_BOUND:
		return c->given[OPT_NUM_CALLS] || c->given[OPT_RUNTIME] ||
		    c->given[OPT_SWEEP];
	case OPT_ANY_SCHEDULE:
		/* --call-rate's schedule is built after the rules. */
		return rate_spec_rate(&c->o->rate) > 0 ||
		    c->given[OPT_CALL_RATE];
	case OPT_ANY_PROXY:
		return c->given[OPT_PROXY] || c->given[OPT_PROXY_ENV];
	case OPT_ANY_LEVEL:
		return opt_given(c, OPT_ANY_SCHEDULE) ||
		    c->given[OPT_CONCURRENCY];
	case OPT_ANY_SEEDED:
		return c->given[OPT_TEMPLATE] || c->given[OPT_WSESSPAGE];
	default:
		return c->given[id];
	}
}

/*
 * An objective over a measure the run cannot have: the corrected times,
 * lateness and the achieved rate need a schedule, tls.* --ssl, session.*
 * a session workload.  Refused naming the objective (not for --merge,
 * whose measures are in its files: one they lack is "-" and fails).
 */
static int
opt_check_slo(const struct opt_ctx *c)
{
	const struct slo *s;
	const char *why;
	size_t i;

	/* A merge's measures are the files': one they lack fails. */
	for (i = 0; !c->given[OPT_MERGE] && i < c->o->n_slo; i++) {
		s = &c->o->slo[i];
		why = NULL;
		if ((s->metric == SLO_HIST && s->hist == SLO_H_CORRECTED) ||
		    s->metric == SLO_LATE || s->metric == SLO_ACHIEVED) {
			if (!opt_given(c, OPT_ANY_SCHEDULE))
				why = "corrected times, late and achieved "
				    "require a schedule (--rate or --call-rate)";
		} else if (s->metric == SLO_HIST && s->hist == SLO_H_TLS) {
			if (!opt_given(c, OPT_ANY_SSL))
				why = "tls times require --ssl";
		} else if (s->metric == SLO_HIST &&
		    s->hist == SLO_H_SESSION && !opt_given(c, OPT_ANY_SESSION))
			why = "session times require a session workload "
			    "(--wsess or --wsesslog)";
		if (why != NULL)
			return opt_fail(c, &opt_table[OPT_SLO], NULL, s->text,
			    "%s", why);
	}
	return 0;
}

/*
 * --sweep's steps: a length above 0, a warm-up shorter than the step, a
 * precision above 0 and below 100 percent.  The spec's syntax is
 * checked at start-up by report/sweep_search.c (opt/ includes nothing
 * of report/).
 */
static int
opt_check_sweep(const struct opt_ctx *c)
{
	const struct options *o = c->o;

	if (!c->given[OPT_SWEEP])
		return 0;
	if (o->step_time <= 0)
		return opt_fail(c, &opt_table[OPT_STEP_TIME], NULL, NULL,
		    "must be above 0");
	if (o->step_warmup >= o->step_time)
		return opt_fail(c, &opt_table[OPT_STEP_WARMUP], NULL, NULL,
		    "must be shorter than --step-time");
	if (c->given[OPT_SWEEP_PRECISION] &&
	    (o->sweep_precision <= 0 || o->sweep_precision >= 100))
		return opt_fail(c, &opt_table[OPT_SWEEP_PRECISION], NULL,
		    NULL, "must be above 0 and below 100 (percent)");
	return 0;
}

/*
 * --call-rate R: the requests' schedule is R per second, deterministic,
 * or --period's when it is given, which must then have R as its mean rate
 * (within 1%), so that the echo line and the target rate say what the
 * schedule does.  --num-calls not given: no limit (--runtime ends the
 * run).  --num-conns does not apply.
 */
static int
opt_check_call_rate(const struct opt_ctx *c)
{
	struct options *o = c->o;
	double r;

	if (!c->given[OPT_CALL_RATE])
		return 0;
	if (c->given[OPT_PERIOD]) {
		r = rate_spec_rate(&o->rate);
		if (r <= 0)
			return opt_fail(c, &opt_table[OPT_PERIOD], NULL, NULL,
			    "must give --call-rate's requests intervals "
			    "above 0");
		if (fabs(r - o->call_rate) > o->call_rate / 100)
			return opt_fail(c, &opt_table[OPT_PERIOD], NULL, NULL,
			    "mean rate %g/s differs from --call-rate %g",
			    r, o->call_rate);
	} else
		rate_spec_set_rate(&o->rate, o->call_rate);
	o->num_conns = 0;
	if (!c->given[OPT_NUM_CALLS])
		o->num_calls = 0;
	return 0;
}

/*
 * --concurrency N: --num-calls not given is no limit (--runtime ends the
 * run); --num-conns does not apply.  On HTTP/2 a connection carries
 * --max-streams, not --burst-length, requests at once.
 */
static int
opt_check_concurrency(const struct opt_ctx *c)
{
	struct options *o = c->o;

	if (!c->given[OPT_CONCURRENCY])
		return 0;
	if (c->given[OPT_BURST_LENGTH] && o->http2)
		return opt_fail(c, &opt_table[OPT_BURST_LENGTH], NULL, NULL,
		    "does not apply to --concurrency with --http2 "
		    "(--max-streams is what a connection carries)");
	o->num_conns = 0;
	if (!c->given[OPT_NUM_CALLS])
		o->num_calls = 0;
	return 0;
}

/*
 * --log -: the records take the standard output, which neither --json -
 * nor --jobs' workers (whose standard output is thrown away) can share.
 */
static int
opt_check_log(const struct opt_ctx *c)
{
	const struct options *o = c->o;

	if (o->log_file == NULL || strcmp(o->log_file, "-") != 0)
		return 0;
	if (o->json_file != NULL && strcmp(o->json_file, "-") == 0)
		return opt_fail(c, &opt_table[OPT_LOG], NULL, NULL,
		    "- cannot be used with --json - (both would take the "
		    "standard output)");
	if (c->given[OPT_JOBS])
		return opt_fail(c, &opt_table[OPT_LOG], NULL, NULL,
		    "- cannot be used with --jobs (each worker writes a file "
		    "of its own)");
	return 0;
}

int
opt_check(const struct opt_ctx *c)
{
	const struct opt_rule *rule;
	size_t i;

	/* --merge runs no test: only its output options go with it. */
	for (i = 0; c->given[OPT_MERGE] && i < OPT_NOPTS; i++)
		if (c->given[i] && i != OPT_MERGE && i != OPT_JSON &&
		    i != OPT_HTML && i != OPT_SLO &&
		    i != OPT_VERBOSE)
			return opt_fail(c, &opt_table[i], NULL, NULL,
			    "cannot be used with --merge");

	for (i = 0; i < nitems(opt_rules); i++) {
		rule = &opt_rules[i];
		if (c->given[rule->opt] &&
		    opt_given(c, rule->other) != rule->needs)
			return opt_fail(c, &opt_table[rule->opt], NULL, NULL,
			    "%s", rule->msg);
	}
	if (c->o->http2 && !h2_built())
		return opt_fail(c, &opt_table[OPT_HTTP2], NULL, NULL,
		    "this httperf was built without HTTP/2 (libnghttp2)");
	/* A forward proxy takes HTTP/1.1 absolute-form requests; HTTP/2
	   goes through it only inside a CONNECT tunnel, that is with TLS. */
	if (c->o->http2 && opt_given(c, OPT_ANY_PROXY) &&
	    !opt_given(c, OPT_ANY_SSL))
		return opt_fail(c, &opt_table[OPT_HTTP2], NULL, NULL,
		    "through a proxy requires --ssl (h2 in a CONNECT tunnel; "
		    "a proxy does not forward h2c)");
	if (opt_check_script(c) == -1)
		return -1;
	if (opt_check_slo(c) == -1 || opt_check_concurrency(c) == -1)
		return -1;
	if (opt_check_sweep(c) == -1 || opt_check_log(c) == -1)
		return -1;
	return opt_check_call_rate(c);
}
