/*
 * The tables of the run's modules and the builders of their settings
 * (modules.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "modules.h"
#include "opt/options.h"
#include "setup.h"
#include "stat/h2_stat.h"
#include "stat/tls_stat.h"
#include "lib/util.h"

/*
 * The run has a schedule: arrivals can be late (sched_stat).  With
 * --call-rate, options_check.c has made o->rate the requests' schedule
 * (the call rate, or --period's at the same mean), so the target rate is
 * the call rate in both modes.
 */
int
mod_want_sched(const struct options *o)
{
	return o->call_rate > 0 || rate_spec_rate(&o->rate) > 0;
}

static void
mod_cfg_sched(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->sched.rate = rate_spec_rate(&o->rate);
	u->sched.threshold = setup_ns((o->max_lateness_given ?
	    o->max_lateness : OPTIONS_LATENESS_MS) / 1e3);
	/* Its arrivals are requests taken into a queue (sched_stat.h). */
	u->sched.requests = o->call_rate > 0;
}

static void
mod_cfg_basic(const struct mod_ctx *r, union mod_cfg *u)
{
	u->basic.tls = r->o->ssl;
	u->basic.sessions = options_session(r->o);
	u->basic.periodic = r->o->periodic_stats;
	u->basic.corrected = mod_want_sched(r->o);
}

/*
 * A proxy may be in use: --proxy, or --proxy-env (whose variables may
 * name none for this server: the collector then prints nothing).
 */
static int
mod_want_proxy(const struct options *o)
{
	return o->proxy != NULL || o->proxy_env;
}

static void
mod_cfg_proxy(const struct mod_ctx *r, union mod_cfg *u)
{
	u->proxy.proxy = r->setup->proxy;
	u->proxy.tunnel = r->setup->tunnel != NULL;
}

/* --servers: a line per server. */
static int
mod_want_servers(const struct options *o)
{
	return o->servers_file != NULL;
}

static void
mod_cfg_servers(const struct mod_ctx *r, union mod_cfg *u)
{
	u->servers.targets = r->setup->targets;
	u->servers.n = r->setup->servers.n;
}

static int
mod_want_tls(const struct options *o)
{
	return o->ssl;
}

static int
mod_want_h2(const struct options *o)
{
	return o->http2;
}

static void
mod_cfg_sess(const struct mod_ctx *r, union mod_cfg *u)
{
	u->sess.cookies = r->o->session_cookies;
	u->sess.cookies_ignored = r->cookies_ignored;
}

static int
mod_want_print(const struct options *o)
{
	return o->print_request || o->print_reply;
}

static void
mod_cfg_print(const struct mod_ctx *r, union mod_cfg *u)
{
	u->print.request_flags = r->o->print_request;
	u->print.reply_flags = r->o->print_reply;
}

/*
 * --hlog, --interval, --periodic-stats (stat/interval.h), and the
 * per-interval records of the --json document and the --html page.
 */
static int
mod_want_interval(const struct options *o)
{
	return o->hlog_file != NULL || o->interval > 0 ||
	    o->periodic_stats || o->json_file != NULL || o->html_file != NULL ||
	    o->slo_abort;
}

static void
mod_cfg_interval(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->interval.period = clock_from_sec(o->interval);
	u->interval.hlog = o->hlog_file;
	u->interval.lines = o->interval > 0 ? stderr : NULL;
	u->interval.periodic = o->periodic_stats;
	u->interval.target_rate = rate_spec_rate(&o->rate);
	u->interval.slo = o->slo;
	u->interval.nslo = o->n_slo;
	if (o->slo_abort) {
		u->interval.abort = r->slo_abort;
		u->interval.abort_arg = r->slo_abort_arg;
	}
	u->interval.record = o->json_file != NULL || o->html_file != NULL;
	/* A --jobs worker: its intervals go to the parent, which prints
	   the lines and writes the hlog (it is given live only then). */
	if (r->live != NULL) {
		u->interval.lines = NULL;
		u->interval.flush = r->live;
		u->interval.flush_arg = r->live_arg;
	}
}

/*
 * The progress line (stat/progress.h): only on a terminal that knows
 * the erase to the end of a line, and only when nothing else writes on
 * a terminal while the test runs: --interval's lines go to standard
 * error; -v's, --periodic-stats' and the traces' to the report's stream,
 * which matters when that is a terminal too.
 */
static int
mod_want_progress(const struct options *o)
{
	const char *term = getenv("TERM");
	int lines = o->verbose > 0 || o->periodic_stats || mod_want_print(o);
	int json_out = o->json_file != NULL && strcmp(o->json_file, "-") == 0;

	if (o->quiet || o->interval > 0 || !isatty(STDERR_FILENO) ||
	    term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
		return 0;
	/* With --json -, the report goes to standard error. */
	return !lines || (!json_out && !isatty(STDOUT_FILENO));
}

/* Its end: the workload's total, --runtime, or whichever comes first. */
static void
mod_cfg_progress(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->progress.tty = stderr;
	u->progress.fd = STDERR_FILENO;
	u->progress.target_rate = rate_spec_rate(&o->rate);
	u->progress.runtime = setup_ns(o->runtime);
	if (o->wsess_n > 0) {
		u->progress.unit = PROGRESS_U_SESSIONS;
		u->progress.total = o->wsess_n;
	} else if (o->wsesslog_n > 0) {
		u->progress.unit = PROGRESS_U_SESSIONS;
		u->progress.total = o->wsesslog_n;
	} else if (o->wsesspage_n > 0) {
		u->progress.unit = PROGRESS_U_SESSIONS;
		u->progress.total = o->wsesspage_n;
	} else if (o->concurrency > 0) {
		/* The closed loop signals no arrivals: its calls. */
		u->progress.unit = PROGRESS_U_CALLS;
		u->progress.total = o->num_calls;
	} else if (o->call_rate > 0) {
		u->progress.unit = PROGRESS_U_ARRIVALS;
		u->progress.total = o->num_calls;
	} else {
		u->progress.unit = PROGRESS_U_CONNS;
		u->progress.total = o->num_conns;
	}
	/* A sweep's end is the search's: no bar. */
	if (o->sweep != NULL)
		u->progress.total = 0;
	*r->progress_on = 1;
}

static int
mod_want_wlog(const struct options *o)
{
	return o->wlog_file != NULL;
}

static void
mod_cfg_wlog(const struct mod_ctx *r, union mod_cfg *u)
{
	u->wlog.path = r->o->wlog_file;
	u->wlog.wrap = r->o->wlog_wrap;
	u->wlog.client_id = r->o->client_id;
	u->wlog.num_clients = r->o->num_clients;
}

static int
mod_want_wset(const struct options *o)
{
	return o->wset_n > 0;
}

static void
mod_cfg_wset(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->wset.nfiles = o->wset_n;
	u->wset.miss_rate = o->wset_x;
	u->wset.client_id = o->client_id;
	u->wset.num_clients = o->num_clients;
	u->wset.prefix = o->uri;
}

static int
mod_want_data(const struct options *o)
{
	return o->data_file != NULL;
}

/* --data: the rows setup.c read. */
static void
mod_cfg_data(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->data.file = &r->setup->data;
	u->data.path = o->data_file;
	u->data.random = o->data_random;
	u->data.wrap = !o->data_no_wrap;
	u->data.sessions = options_session(o);
	u->data.seed = o->seed;
	u->data.client_id = o->client_id;
	u->data.num_clients = o->num_clients;
}

/* What both session workloads take from the command line. */
static void
mod_cfg_session(const struct mod_ctx *r, struct session_config *s)
{
	const struct options *o = r->o;

	s->rate = &o->rate;
	s->client_id = o->client_id;
	s->num_clients = o->num_clients;
	s->max_conns = o->max_connections;
	s->max_piped = o->max_piped;
	s->http_minor = o->http_minor;
	s->cookies = o->session_cookies;
	s->failure_status = o->failure_status;
	s->retry = o->retry_on_failure;
	s->max_retries = o->max_retries;
	s->cookies_ignored = r->cookies_ignored;
}

static int
mod_want_wsess(const struct options *o)
{
	return o->wsess_n > 0;
}

static void
mod_cfg_wsess(const struct mod_ctx *r, union mod_cfg *u)
{
	mod_cfg_session(r, &u->wsess.sess);
	u->wsess.sess.nsess = r->o->sweep != NULL ? UINT64_MAX :
	    r->o->wsess_n;	/* --sweep: its steps end the run */
	u->wsess.ncalls = r->o->wsess_calls;
	u->wsess.burst_len = r->o->burst_len;
	u->wsess.think = r->o->wsess_think;
}

static int
mod_want_wsesspage(const struct options *o)
{
	return o->wsesspage_n > 0;
}

static void
mod_cfg_wsesspage(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	mod_cfg_session(r, &u->wsesspage.sess);
	u->wsesspage.sess.nsess = o->sweep != NULL ? UINT64_MAX :
	    o->wsesspage_n;	/* --sweep: its steps end the run */
	u->wsesspage.nviews = o->wsesspage_views;
	u->wsesspage.think = o->wsesspage_think;
	u->wsesspage.https = o->ssl;
	u->wsesspage.host = o->server;
	u->wsesspage.port = o->port;
	u->wsesspage.uri = o->uri;
	u->wsesspage.seed = o->seed;
	u->wsesspage.http2 = o->http2;
}

/* options.c refuses --wsess with --wsesslog. */
static int
mod_want_wsesslog(const struct options *o)
{
	return o->wsesslog_n > 0;
}

static void
mod_cfg_wsesslog(const struct mod_ctx *r, union mod_cfg *u)
{
	mod_cfg_session(r, &u->wsesslog.sess);
	u->wsesslog.sess.nsess = r->o->sweep != NULL ? UINT64_MAX :
	    r->o->wsesslog_n;	/* --sweep: its steps end the run */
	u->wsesslog.think = r->o->wsesslog_think;
	u->wsesslog.template = r->o->template;
	u->wsesslog.path = r->o->wsesslog_file;
	/* Only read: the resolver's argument is not const. */
	if (r->setup->data_on)
		u->wsesslog.data = (struct datafile *)(uintptr_t)
		    &r->setup->data;
	u->wsesslog.checks = r->o->check;
	u->wsesslog.nchecks = r->o->n_check;
}

static int
mod_want_conns(const struct options *o)
{
	return !options_session(o) && o->call_rate == 0 &&
	    o->concurrency == 0;
}

static void
mod_cfg_conns(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->conns.num_conns = o->sweep != NULL ? UINT64_MAX :
	    o->num_conns;	/* --sweep: its steps end the run */
	u->conns.num_calls = o->num_calls;
	u->conns.burst_len = o->burst_len;
	u->conns.rate = &o->rate;
	u->conns.client_id = o->client_id;
	u->conns.num_clients = o->num_clients;
}

/* The checks collector: --check, or a session file (its check= and
   extract=). */
static int
mod_want_check_stat(const struct options *o)
{
	return o->n_check > 0 || o->wsesslog_n > 0;
}

static void
mod_cfg_check_stat(const struct mod_ctx *r, union mod_cfg *u)
{
	u->check_stat.checks = r->o->n_check > 0;
}

/* --check: --wsesslog applies them itself. */
static int
mod_want_checks(const struct options *o)
{
	return o->n_check > 0 && o->wsesslog_n == 0;
}

static void
mod_cfg_checks(const struct mod_ctx *r, union mod_cfg *u)
{
	u->checks.checks = r->o->check;
	u->checks.n = r->o->n_check;
}

/* --call-rate: options.c refuses it with the other workloads. */
static int
mod_want_crate(const struct options *o)
{
	return o->call_rate > 0;
}

static void
mod_cfg_crate(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->crate.rate = &o->rate;
	u->crate.total = o->num_calls;
	u->crate.max_conns = o->max_connections;
	u->crate.client_id = o->client_id;
	u->crate.num_clients = o->num_clients;
}

/* --concurrency N: the closed loop over the --call-rate pool. */
static int
mod_want_closed(const struct options *o)
{
	return o->concurrency > 0;
}

static void
mod_cfg_closed(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->crate.total = o->num_calls;
	u->crate.concurrency = o->concurrency;
	u->crate.burst_len = o->burst_len;
}

static void
mod_cfg_conc(const struct mod_ctx *r, union mod_cfg *u)
{
	u->conc.concurrency = r->o->concurrency;
}

static int
mod_want_log(const struct options *o)
{
	return o->log_file != NULL;
}

static void
mod_cfg_log(const struct mod_ctx *r, union mod_cfg *u)
{
	const struct options *o = r->o;

	u->log.path = o->log_file;
	u->log.drop = o->log_drop;
	u->log.worker = o->log_worker;
	u->log.client = o->client_id;
	u->log.http_minor = o->http_minor;
	u->log.stop = r->stop;
	u->log.stop_arg = r->stop_arg;
}

/* The class `script' (--script). */
static int
mod_want_script(const struct options *o)
{
	return o->script != NULL;
}

static void
mod_cfg_script(const struct mod_ctx *r, union mod_cfg *u)
{
	u->script_stat.fill = setup_script_fill;
	u->script_stat.fill_arg = r->setup;
}

const struct mod_stat mod_stats[MOD_NSTATS] = {
	{ &basic_collector, NULL, mod_cfg_basic },
	{ &tls_stat_collector, mod_want_tls, NULL },
	{ &h2_stat_collector, mod_want_h2, NULL },
	{ &proxy_stat_collector, mod_want_proxy, mod_cfg_proxy },
	{ &sess_stat_collector, options_session, mod_cfg_sess },
	{ &print_collector, mod_want_print, mod_cfg_print },
	{ &interval_collector, mod_want_interval, mod_cfg_interval },
	{ &sched_stat_collector, mod_want_sched, mod_cfg_sched },
	{ &progress_collector, mod_want_progress, mod_cfg_progress },
	{ &conc_stat_collector, mod_want_closed, mod_cfg_conc },
	{ &check_stat_collector, mod_want_check_stat, mod_cfg_check_stat },
	{ &calllog_collector, mod_want_log, mod_cfg_log },
	{ &script_stat_collector, mod_want_script, mod_cfg_script },
	{ &page_stat_collector, mod_want_wsesspage, NULL },
	{ &server_stat_collector, mod_want_servers, mod_cfg_servers },
};

const struct mod_gen mod_gens[] = {
	{ &uri_wlog_generator, mod_want_wlog, mod_cfg_wlog, "--wlog", 0, 0 },
	{ &uri_wset_generator, mod_want_wset, mod_cfg_wset, "--wset", 0, 0 },
	{ &data_generator, mod_want_data, mod_cfg_data, "--data", 0, 1 },
	{ &checks_generator, mod_want_checks, mod_cfg_checks, "--check", 0,
	    0 },
	{ &wsess_generator, mod_want_wsess, mod_cfg_wsess, "--wsess", 1, 0 },
	{ &wsesslog_generator, mod_want_wsesslog, mod_cfg_wsesslog,
	    "--wsesslog", 1, 1 },
	{ &wsesspage_generator, mod_want_wsesspage, mod_cfg_wsesspage,
	    "--wsesspage", 1, 0 },
	{ &conn_gen_generator, mod_want_conns, mod_cfg_conns, "--num-conns",
	    1, 0 },
	{ &call_rate_generator, mod_want_crate, mod_cfg_crate, "--call-rate",
	    1, 0 },
	{ &call_rate_generator, mod_want_closed, mod_cfg_closed,
	    "--concurrency", 1, 0 },
};

const size_t mod_nstats = nitems(mod_stats);
_Static_assert(sizeof(mod_stats) / sizeof(mod_stats[0]) == MOD_NSTATS,
    "MOD_NSTATS is mod_stats[]'s size");
const size_t mod_ngens = nitems(mod_gens);

void
mod_cols(const struct collector *cols[MOD_NSTATS])
{
	size_t i;

	for (i = 0; i < MOD_NSTATS; i++)
		cols[i] = mod_stats[i].col;
}
