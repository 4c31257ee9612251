/*
 * httperf: options -> run -> report -> exit status.
 *
 * The only process-wide state lives here: the SIGINT flag.  Everything
 * else is built on the stack of main() and passed down explicitly.
 *
 * main.c holds the two tables of modules, collectors and generators
 * (stat/collector.h, gen/generator.h): a row names the module's instance,
 * says when a run has it and builds its settings from the options.  The
 * run walks the tables; nothing here knows one module from another
 * besides its row.
 */
#include "config.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <sys/time.h>

#include <errno.h>
#include <poll.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/clock.h"
#include "core/conn.h"
#include "core/loop.h"
#include "gen/call_rate.h"
#include "gen/conn_gen.h"
#include "gen/generator.h"
#include "gen/uri_wlog.h"
#include "gen/uri_wset.h"
#include "gen/wsess.h"
#include "gen/wsesslog.h"
#include "report/html_out.h"
#include "lib/jsonw.h"
#include "report/merge.h"
#include "net/sock.h"
#include "opt/options.h"
#include "report/result.h"
#include "setup.h"
#include "stat/basic.h"
#include "stat/collector.h"
#include "stat/interval.h"
#include "stat/print.h"
#include "stat/progress.h"
#include "stat/proxy_stat.h"
#include "stat/sched_stat.h"
#include "stat/sess_stat.h"
#include "stat/tls_stat.h"
#include "stat/h2_stat.h"
#include "lib/util.h"

#define PERF_SAMPLE_SEC	5	/* reply-rate sampling interval */

/* --start-at: an instant past by more than this is refused. */
#define START_AT_LATE_NS	CLOCK_NS_PER_SEC

extern char **environ;

/* Set by the SIGINT (SIGTERM, SIGHUP) handler, read once per loop turn. */
static volatile sig_atomic_t interrupted;

/* The run draws the progress line: a second signal erases it. */
static volatile sig_atomic_t progress_on;

/* A module of this run: its state, if the run has it. */
struct run_mod {
	int		 on;
	void		*state;
};

/* Everything a run needs, so callbacks can reach it. */
struct run {
	const struct options *o;
	struct loop	*loop;
	struct bus	*bus;
	struct core	 core;
	int		 have_core;	/* core_init() was called */
	struct setup	 setup;		/* what the core points into */
	struct run_mod	*stats;		/* by run_stats[] row */
	struct run_mod	*gens;		/* by run_gens[] row */
	size_t		 workload;	/* its run_gens[] row */
	/* Set-Cookie fields the session workload ignored (its jars were
	   full), for the session collector's report. */
	uint64_t	 cookies_ignored;
	struct timer	 sample_timer;
	uint64_t	 sample_next;
	uint64_t	 sample_last;
	struct timer	 runtime_timer;
	FILE		*out;		/* the report: stdout, or stderr
					   with --json - */
	FILE		*json;		/* --json's stream, or NULL */
	FILE		*html;		/* --html's file, or NULL */
	uint64_t	 wall_start;	/* ns since the epoch */
	uint64_t	 cut_at;	/* a signal ended the run then; 0: not */
};

static void
on_sigint(int sig)
{
	/* The progress line's erase, without stdio (the collector's
	   stop never comes). */
	if (interrupted) {
		if (progress_on)
			(void)!write(STDERR_FILENO, "\r\033[K", 4);
		_exit(1);
	}
	interrupted = 1;
}

/* Checks for SIGINT, SIGTERM or SIGHUP once per loop turn. */
static void
run_turn(struct loop *l, void *arg, uint64_t now)
{
	struct run *r = arg;

	if (interrupted) {
		if (r->cut_at == 0)
			r->cut_at = now;
		loop_stop(l);
	}
}

/*
 * Pushes out what is left of the report.  A full disk or a reader that
 * went away (SIGPIPE is ignored, so writes fail with EPIPE) would lose it
 * silently: say so, so that main() exits 1.  Returns 0 or -1.
 */
static int
run_flush_report(const struct options *o, FILE *out)
{
	int e;

	errno = 0;
	if (fflush(out) == 0 && !ferror(out))
		return 0;
	e = errno != 0 ? errno : EIO;
	fprintf(stderr, "%s: cannot write the report to the standard "
	    "%s: %s\n", o->prog, out == stderr ? "error" : "output",
	    strerror(e));
	return -1;
}

/* --runtime expired. */
static void
run_runtime_fired(struct timer *t, uint64_t now)
{
	struct run *r = containerof(t, struct run, runtime_timer);

	loop_stop(r->loop);
}

/* The reply-rate sample, on an absolute 5 s schedule. */
static void
run_sample_fired(struct timer *t, uint64_t now)
{
	struct run *r = containerof(t, struct run, sample_timer);
	union bus_arg arg;

	arg.d = now > r->sample_last ?
	    1.0 / clock_to_sec(now - r->sample_last) : 0.0;
	r->sample_last = now;
	bus_signal(r->bus, BUS_PERF_SAMPLE, NULL, arg, now);
	r->sample_next += PERF_SAMPLE_SEC * CLOCK_NS_PER_SEC;
	timer_add(loop_timers(r->loop), &r->sample_timer, r->sample_next);
}

static double
tv_sec(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

/* The settings of one module, built from the options (read at init). */
union run_cfg {
	struct basic_config	 basic;
	struct sess_stat_config	 sess;
	struct print_config	 print;
	struct uri_wlog_config	 wlog;
	struct uri_wset_config	 wset;
	struct wsess_config	 wsess;
	struct wsesslog_config	 wsesslog;
	struct conn_gen_config	 conns;
	struct interval_config	 interval;
	struct call_rate_config	 crate;
	struct sched_stat_config sched;
	struct progress_config	 progress;
	struct proxy_stat_config proxy;
};

/* Says whether the options give the run this module. */
typedef int run_want_fn(const struct options *);

/* Fills the module's settings in (the union is zeroed). */
typedef void run_cfg_fn(struct run *, union run_cfg *);

/*
 * The run has a schedule: arrivals can be late (sched_stat).  With
 * --call-rate, options_check.c has made o->rate the requests' schedule
 * (the call rate, or --period's at the same mean), so the target rate is
 * the call rate in both modes.
 */
static int
run_want_sched(const struct options *o)
{
	return o->call_rate > 0 || rate_spec_rate(&o->rate) > 0;
}

static void
run_cfg_sched(struct run *r, union run_cfg *u)
{
	const struct options *o = r->o;

	u->sched.rate = rate_spec_rate(&o->rate);
	u->sched.threshold = setup_ns((o->max_lateness_given ?
	    o->max_lateness : OPTIONS_LATENESS_MS) / 1e3);
	/* Its arrivals are requests taken into a queue (sched_stat.h). */
	u->sched.requests = o->call_rate > 0;
}

static void
run_cfg_basic(struct run *r, union run_cfg *u)
{
	u->basic.tls = r->o->ssl;
	u->basic.sessions = options_session(r->o);
	u->basic.periodic = r->o->periodic_stats;
	u->basic.corrected = run_want_sched(r->o);
}

/*
 * A proxy may be in use: --proxy, or --proxy-env (whose variables may
 * name none for this server: the collector then prints nothing).
 */
static int
run_want_proxy(const struct options *o)
{
	return o->proxy != NULL || o->proxy_env;
}

static void
run_cfg_proxy(struct run *r, union run_cfg *u)
{
	u->proxy.proxy = r->setup.proxy;
	u->proxy.tunnel = r->setup.tunnel != NULL;
}

static int
run_want_tls(const struct options *o)
{
	return o->ssl;
}

static int
run_want_h2(const struct options *o)
{
	return o->http2;
}

static void
run_cfg_sess(struct run *r, union run_cfg *u)
{
	u->sess.cookies = r->o->session_cookies;
	u->sess.cookies_ignored = &r->cookies_ignored;
}

static int
run_want_print(const struct options *o)
{
	return o->print_request || o->print_reply;
}

static void
run_cfg_print(struct run *r, union run_cfg *u)
{
	u->print.request_flags = r->o->print_request;
	u->print.reply_flags = r->o->print_reply;
}

/*
 * --hlog, --interval, --periodic-stats (stat/interval.h), and the
 * per-interval records of the --json document and the --html page.
 */
static int
run_want_interval(const struct options *o)
{
	return o->hlog_file != NULL || o->interval > 0 ||
	    o->periodic_stats || o->json_file != NULL || o->html_file != NULL;
}

static void
run_cfg_interval(struct run *r, union run_cfg *u)
{
	const struct options *o = r->o;

	u->interval.period = clock_from_sec(o->interval);
	u->interval.hlog = o->hlog_file;
	u->interval.lines = o->interval > 0 ? stderr : NULL;
	u->interval.periodic = o->periodic_stats;
	u->interval.target_rate = rate_spec_rate(&o->rate);
	u->interval.record = o->json_file != NULL || o->html_file != NULL;
}

/*
 * The progress line (stat/progress.h): only on a terminal that knows
 * the erase to the end of a line, and only when nothing else writes on
 * a terminal while the test runs: --interval's lines go to standard
 * error; -v's, --periodic-stats' and the traces' to the report's stream,
 * which matters when that is a terminal too.
 */
static int
run_want_progress(const struct options *o)
{
	const char *term = getenv("TERM");
	int lines = o->verbose > 0 || o->periodic_stats || run_want_print(o);
	int json_out = o->json_file != NULL && strcmp(o->json_file, "-") == 0;

	if (o->quiet || o->interval > 0 || !isatty(STDERR_FILENO) ||
	    term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
		return 0;
	/* With --json -, the report goes to standard error. */
	return !lines || (!json_out && !isatty(STDOUT_FILENO));
}

/* Its end: the workload's total, --runtime, or whichever comes first. */
static void
run_cfg_progress(struct run *r, union run_cfg *u)
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
	} else if (o->call_rate > 0) {
		u->progress.unit = PROGRESS_U_ARRIVALS;
		u->progress.total = o->num_calls;
	} else {
		u->progress.unit = PROGRESS_U_CONNS;
		u->progress.total = o->num_conns;
	}
	progress_on = 1;
}

static int
run_want_wlog(const struct options *o)
{
	return o->wlog_file != NULL;
}

static void
run_cfg_wlog(struct run *r, union run_cfg *u)
{
	u->wlog.path = r->o->wlog_file;
	u->wlog.wrap = r->o->wlog_wrap;
	u->wlog.client_id = r->o->client_id;
	u->wlog.num_clients = r->o->num_clients;
}

static int
run_want_wset(const struct options *o)
{
	return o->wset_n > 0;
}

static void
run_cfg_wset(struct run *r, union run_cfg *u)
{
	const struct options *o = r->o;

	u->wset.nfiles = o->wset_n;
	u->wset.miss_rate = o->wset_x;
	u->wset.client_id = o->client_id;
	u->wset.num_clients = o->num_clients;
	u->wset.prefix = o->uri;
}

/* What both session workloads take from the command line. */
static void
run_cfg_session(struct run *r, struct session_config *s)
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
	s->cookies_ignored = &r->cookies_ignored;
}

static int
run_want_wsess(const struct options *o)
{
	return o->wsess_n > 0;
}

static void
run_cfg_wsess(struct run *r, union run_cfg *u)
{
	run_cfg_session(r, &u->wsess.sess);
	u->wsess.sess.nsess = r->o->wsess_n;
	u->wsess.ncalls = r->o->wsess_calls;
	u->wsess.burst_len = r->o->burst_len;
	u->wsess.think = r->o->wsess_think;
}

/* options.c refuses --wsess with --wsesslog. */
static int
run_want_wsesslog(const struct options *o)
{
	return o->wsesslog_n > 0;
}

static void
run_cfg_wsesslog(struct run *r, union run_cfg *u)
{
	run_cfg_session(r, &u->wsesslog.sess);
	u->wsesslog.sess.nsess = r->o->wsesslog_n;
	u->wsesslog.think = r->o->wsesslog_think;
	u->wsesslog.path = r->o->wsesslog_file;
}

static int
run_want_conns(const struct options *o)
{
	return !options_session(o) && o->call_rate == 0;
}

static void
run_cfg_conns(struct run *r, union run_cfg *u)
{
	const struct options *o = r->o;

	u->conns.num_conns = o->num_conns;
	u->conns.num_calls = o->num_calls;
	u->conns.burst_len = o->burst_len;
	u->conns.rate = &o->rate;
	u->conns.client_id = o->client_id;
	u->conns.num_clients = o->num_clients;
}

/* --call-rate: options.c refuses it with the other workloads. */
static int
run_want_crate(const struct options *o)
{
	return o->call_rate > 0;
}

static void
run_cfg_crate(struct run *r, union run_cfg *u)
{
	const struct options *o = r->o;

	u->crate.rate = &o->rate;
	u->crate.total = o->num_calls;
	u->crate.max_conns = o->max_connections;
	u->crate.client_id = o->client_id;
	u->crate.num_clients = o->num_clients;
}

/*
 * The collectors, in the order they subscribe to the bus (so their
 * handlers run in this order) and print: each report in this order, then
 * each extra.  want NULL: every run; cfg NULL: no settings.
 */
static const struct run_stat {
	const struct collector *col;
	run_want_fn	*want;
	run_cfg_fn	*cfg;
} run_stats[] = {
	{ &basic_collector, NULL, run_cfg_basic },
	{ &tls_stat_collector, run_want_tls, NULL },
	{ &h2_stat_collector, run_want_h2, NULL },
	{ &proxy_stat_collector, run_want_proxy, run_cfg_proxy },
	{ &sess_stat_collector, options_session, run_cfg_sess },
	{ &print_collector, run_want_print, run_cfg_print },
	{ &interval_collector, run_want_interval, run_cfg_interval },
	{ &sched_stat_collector, run_want_sched, run_cfg_sched },
	{ &progress_collector, run_want_progress, run_cfg_progress },
};

/* The collectors of run_stats[], in its order (--merge, --json). */
static void
run_cols(const struct collector **cols)
{
	size_t i;

	for (i = 0; i < nitems(run_stats); i++)
		cols[i] = run_stats[i].col;
}

/*
 * The generators, subscribed after the collectors in this order: the URI
 * sources (at most one per run), then the workloads (exactly one).
 */
static const struct run_gen {
	const struct generator *gen;
	run_want_fn	*want;
	run_cfg_fn	*cfg;
	const char	*opt;		/* names it in init's messages */
	int		 workload;	/* else a URI source */
	int		 escape;	/* init's message may quote a file */
} run_gens[] = {
	{ &uri_wlog_generator, run_want_wlog, run_cfg_wlog, "--wlog", 0, 0 },
	{ &uri_wset_generator, run_want_wset, run_cfg_wset, "--wset", 0, 0 },
	{ &wsess_generator, run_want_wsess, run_cfg_wsess, "--wsess", 1, 0 },
	{ &wsesslog_generator, run_want_wsesslog, run_cfg_wsesslog,
	    "--wsesslog", 1, 1 },
	{ &conn_gen_generator, run_want_conns, run_cfg_conns, "--num-conns",
	    1, 0 },
	{ &call_rate_generator, run_want_crate, run_cfg_crate, "--call-rate",
	    1, 0 },
};

/*
 * The run ends at `end' (--runtime, a signal): the workload makes no
 * arrival meant for later and counts those due by then it never made.
 */
static void
run_end(struct run *r, uint64_t end)
{
	size_t i;

	for (i = 0; i < nitems(run_gens); i++)
		if (r->gens[i].on && run_gens[i].gen->end != NULL)
			run_gens[i].gen->end(r->gens[i].state, end);
}

/* Stops every generator: nothing more is created. */
static void
run_stop(struct run *r)
{
	size_t i;

	for (i = 0; i < nitems(run_gens); i++)
		if (r->gens[i].on && run_gens[i].gen->stop != NULL)
			run_gens[i].gen->stop(r->gens[i].state);
}

/*
 * The workload is complete: create nothing more, and end the run at the
 * end of this loop turn.
 */
static void
run_done(void *arg, uint64_t now)
{
	struct run *r = arg;

	run_stop(r);
	loop_stop(r->loop);
}

/*
 * --wlog n ran out of URIs: the workload drains.  Connections: create no
 * more, but let those under way finish, so the replies in flight count,
 * and end the run with the last of them.  --wsess: no new session; the
 * live ones run on (their later calls get no URI and are abandoned) and
 * the run ends after them.
 */
static void
run_drain(void *arg, uint64_t now)
{
	struct run *r = arg;
	const struct generator *g = run_gens[r->workload].gen;

	if (g->drain != NULL)
		g->drain(r->gens[r->workload].state, now);
	else
		run_done(r, now);
}

/* Creates collector `i' if the run has it.  Returns 0 or -1. */
static int
run_stat_init(struct run *r, size_t i, char *err, size_t errlen)
{
	const struct run_stat *row = &run_stats[i];
	struct collector_env env;
	union run_cfg u;

	if (row->want != NULL && !row->want(r->o))
		return 0;
	memset(&env, 0, sizeof(env));
	memset(&u, 0, sizeof(u));
	env.core = &r->core;
	env.bus = r->bus;
	if (row->cfg != NULL) {
		row->cfg(r, &u);
		env.cfg = &u;
	}
	env.out = r->out;
	env.verbose = r->o->verbose;
	if (row->col->init(&r->stats[i].state, &env, err, errlen) == -1) {
		fprintf(stderr, "%s: %s\n", r->o->prog, err);
		return -1;
	}
	r->stats[i].on = 1;
	return 0;
}

/* Creates generator `i' if the run has it.  Returns 0 or -1. */
static int
run_gen_init(struct run *r, size_t i, char *err, size_t errlen)
{
	const struct run_gen *row = &run_gens[i];
	struct gen_env env;
	union run_cfg u;

	if (!row->want(r->o))
		return 0;
	memset(&env, 0, sizeof(env));
	memset(&u, 0, sizeof(u));
	row->cfg(r, &u);
	env.core = &r->core;
	env.bus = r->bus;
	env.cfg = &u;
	env.out = r->out;
	env.verbose = r->o->verbose;
	env.prog = r->o->prog;
	env.done = row->workload ? run_done : run_drain;
	env.done_arg = r;
	if (row->gen->init(&r->gens[i].state, &env, err, errlen) == -1) {
		fprintf(stderr, "%s: %s: ", r->o->prog, row->opt);
		if (row->escape)
			/* Keep it on one line, free of terminal controls. */
			util_put_escaped(stderr, err, strlen(err));
		else
			fputs(err, stderr);
		putc('\n', stderr);
		return -1;
	}
	r->gens[i].on = 1;
	if (row->workload)
		r->workload = i;
	return 0;
}

/*
 * Creates the collectors, then the generators, in the order their
 * handlers must run.  Returns 0, or -1 after printing why.
 */
static int
run_modules(struct run *r, char *err, size_t errlen)
{
	size_t i;

	r->stats = xcalloc(nitems(run_stats), sizeof(*r->stats));
	r->gens = xcalloc(nitems(run_gens), sizeof(*r->gens));
	for (i = 0; i < nitems(run_stats); i++)
		if (run_stat_init(r, i, err, errlen) == -1)
			return -1;
	for (i = 0; i < nitems(run_gens); i++)
		if (run_gen_init(r, i, err, errlen) == -1)
			return -1;
	return 0;
}

/* SIGPIPE ignored (a failed write is counted); SIGINT ends the test. */
static void
run_signals(void)
{
	struct sigaction sa;

	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * --start-at: refuses an instant past by more than START_AT_LATE_NS (the
 * fleet started without this client), or, with `wait', sleeps until the
 * instant on the wall clock, absolute, so that a clock step while asleep
 * moves the wake-up with it.  A signal while asleep (SIGINT, SIGTERM,
 * SIGHUP: run_signals()) ends the process without a test.  Returns 0, or
 * -1 after one line.
 */
static int
run_start_at(const struct options *o, int wait)
{
	struct timespec ts;
	sigset_t block, old;
	uint64_t now, left;
	int e;

	if (o->start_at_raw == NULL)
		return 0;
	now = clock_wall_now();
	if (now > o->start_at && now - o->start_at > START_AT_LATE_NS) {
		fprintf(stderr, "%s: --start-at: %.3f s in the past ('%s')\n",
		    o->prog, (double)(now - o->start_at) / 1e9,
		    o->start_at_raw);
		return -1;
	}
	if (!wait)
		return 0;
	/*
	 * The signals stay blocked but inside ppoll(), which lets them in
	 * atomically: one that comes between the check of `interrupted'
	 * and the sleep is not lost (it ends the sleep at once).  The wall
	 * clock is read again after each wake-up, at least every second,
	 * so a clock step moves the start with it.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!interrupted && (now = clock_wall_now()) < o->start_at) {
		left = o->start_at - now;
		if (left > CLOCK_NS_PER_SEC)
			left = CLOCK_NS_PER_SEC;
		ts.tv_sec = (time_t)(left / CLOCK_NS_PER_SEC);
		ts.tv_nsec = (long)(left % CLOCK_NS_PER_SEC);
		if (ppoll(NULL, 0, &ts, &old) == -1 && errno != EINTR) {
			e = errno;
			sigprocmask(SIG_SETMASK, &old, NULL);
			fprintf(stderr, "%s: --start-at: %s\n", o->prog,
			    strerror(e));
			return -1;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (interrupted) {
		fprintf(stderr, "%s: --start-at: interrupted before the test "
		    "started\n", o->prog);
		return -1;
	}
	return 0;
}

/*
 * Builds everything the test needs, checking what can be wrong before the
 * report starts.  Returns 0, or -1 after printing why.
 */
static int
run_setup(struct run *r)
{
	const struct options *o = r->o;
	struct core_config cfg;
	char err[256];

	if (run_start_at(o, 0) == -1)
		return -1;
	if (o->json_file != NULL) {
		/* Created before the test, so a bad path costs no test. */
		if (strcmp(o->json_file, "-") == 0)
			r->json = stdout;
		else if ((r->json = fopen(o->json_file, "w")) == NULL) {
			fprintf(stderr, "%s: --json: %s: %s\n", o->prog,
			    o->json_file, strerror(errno));
			return -1;
		}
	}
	if (o->html_file != NULL &&
	    (r->html = html_open(o->prog, o->html_file)) == NULL)
		return -1;
	memset(&cfg, 0, sizeof(cfg));
	if (setup_addresses(&r->setup, o, &cfg, err, sizeof(err)) == -1)
		return -1;
	run_signals();
	if (setup_core(&r->setup, o, &cfg, err, sizeof(err)) == -1)
		return -1;
	if ((r->loop = loop_new(setup_backend(o->prog), err,
	    sizeof(err))) == NULL) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return -1;
	}
	r->bus = bus_new();
	core_init(&r->core, r->loop, r->bus, &cfg);
	r->have_core = 1;
	if (run_modules(r, err, sizeof(err)) == -1)
		return -1;
	loop_on_turn(r->loop, run_turn, r);
	return 0;
}

/* Arms the reply-rate sample and the --runtime deadline. */
static void
run_timers(struct run *r, uint64_t start)
{
	const struct options *o = r->o;
	uint64_t first;

	/* The first sample is offset by --client, as in 0.9.0. */
	first = (uint64_t)(o->client_id + 1) * PERF_SAMPLE_SEC *
	    CLOCK_NS_PER_SEC / o->num_clients;
	r->sample_last = start;
	r->sample_next = start + first;
	timer_init(&r->sample_timer, run_sample_fired);
	timer_add(loop_timers(r->loop), &r->sample_timer, r->sample_next);
	timer_init(&r->runtime_timer, run_runtime_fired);
	if (o->runtime > 0) {
		timer_add(loop_timers(r->loop), &r->runtime_timer,
		    start + setup_ns(o->runtime));
		run_end(r, start + setup_ns(o->runtime));
	}
}

/* Prints the report: every collector's report, then every extra. */
static void
run_report(struct run *r, const struct collector_run *cr)
{
	size_t i;

	for (i = 0; i < nitems(run_stats); i++)
		if (r->stats[i].on && run_stats[i].col->report != NULL)
			run_stats[i].col->report(r->stats[i].state, r->out,
			    cr);
	for (i = 0; i < nitems(run_stats); i++)
		if (r->stats[i].on && run_stats[i].col->extra != NULL)
			run_stats[i].col->extra(r->stats[i].state, r->out,
			    cr);
}

/*
 * Writes the result document to f: the head, the options, and each
 * collector's part under "stats".  Returns jsonw_finish()'s answer.
 */
static int
run_json_doc(struct run *r, const struct collector_run *cr, FILE *f)
{
	const struct options *o = r->o;
	const struct collector *cols[nitems(run_stats)];
	void *states[nitems(run_stats)];
	struct result_doc d;
	char host[HOST_NAME_MAX + 1], *echo = NULL;
	size_t i, len = 0;
	unsigned id = o->client_id;
	FILE *ef;
	int rv;

	if (gethostname(host, sizeof(host)) == -1)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	if ((ef = open_memstream(&echo, &len)) != NULL) {
		options_echo(o, ef);
		fclose(ef);
	}
	if (echo != NULL && len > 0 && echo[len - 1] == '\n')
		echo[--len] = '\0';
	memset(&d, 0, sizeof(d));
	d.head.start_ns = r->wall_start;
	d.head.duration_ns = cr->duration;
	d.head.num_clients = o->num_clients;
	d.head.ids = &id;
	d.head.nids = 1;
	d.head.host = host;
	d.head.echo = echo != NULL ? echo : "";
	d.o = o;
	run_cols(cols);
	for (i = 0; i < nitems(run_stats); i++)
		states[i] = r->stats[i].on ? r->stats[i].state : NULL;
	d.cols = cols;
	d.states = states;
	d.ncols = nitems(run_stats);
	d.run = cr;
	rv = result_write(f, &d);
	free(echo);
	return rv;
}

/* Writes the --json document.  Returns 0, or -1 after a message. */
static int
run_json(struct run *r, const struct collector_run *cr)
{
	const struct options *o = r->o;
	int rv = run_json_doc(r, cr, r->json);

	if (r->json != stdout) {
		if (fclose(r->json) != 0)
			rv = -1;
	}
	r->json = NULL;
	if (rv == -1)
		fprintf(stderr, "%s: --json: cannot write %s\n", o->prog,
		    strcmp(o->json_file, "-") == 0 ? "to the standard output" :
		    o->json_file);
	return rv;
}

/* What run_html_doc needs: the run and its collectors. */
struct run_html_arg {
	struct run			*r;
	const struct collector_run	*cr;
};

/* The result document, as --json would write it (html_doc_fn). */
static int
run_html_doc(FILE *mf, void *arg)
{
	struct run_html_arg *a = arg;

	return run_json_doc(a->r, a->cr, mf);
}

/*
 * Writes the --html page, drawn from the result document (made in
 * memory, as --json would write it).  Returns 0, or -1 after a message.
 */
static int
run_html(struct run *r, const struct collector_run *cr)
{
	struct run_html_arg a = { r, cr };
	FILE *f = r->html;

	r->html = NULL;
	return html_output_doc(r->o->prog, f, r->o->html_file, run_html_doc,
	    &a, NULL, 0);
}

/*
 * After the whole report: the bottleneck warning of the schedule
 * collector, if the run has it.  Returns 1 if it was printed.
 */
static int
run_warn(struct run *r, const struct collector_run *cr)
{
	size_t i;

	for (i = 0; i < nitems(run_stats); i++)
		if (r->stats[i].on && run_stats[i].col == &sched_stat_collector)
			return sched_stat_warn(r->stats[i].state, r->out,
			    cr);
	return 0;
}

/*
 * After the whole report and the bottleneck warning: the warning of a
 * run that mostly failed (stat/basic_report.h).  The exit status stays 0:
 * failures are results.
 */
static void
run_warn_failed(struct run *r)
{
	const struct basic *b;
	size_t i;

	for (i = 0; i < nitems(run_stats); i++)
		if (r->stats[i].on && run_stats[i].col == &basic_collector) {
			b = r->stats[i].state;
			basic_fail_warn(r->out, &b->t);
		}
}

/*
 * Runs the test: the options line, the load until the workload is done
 * (or --runtime, or a signal), the report.  Returns 0, 3 if the client
 * was the bottleneck with --max-lateness, or -1 if the report (or what a
 * collector wrote while the test ran) cannot be
 * written.
 */
static int
run_test(struct run *r)
{
	const struct options *o = r->o;
	struct collector_run cr;
	struct rusage ru0, ru1;
	uint64_t start, stop;
	size_t i;
	long nofile;
	char err[256];
	int rv = 0, warned;

	/* Everything is checked: the report starts. */
	options_echo(o, r->out);
	nofile = setup_nofile(o);
#ifdef PR_SET_TIMERSLACK
	/*
	 * Linux lets a sleeping thread wake up to 50 us after its timeout
	 * so that wake-ups coalesce; a load generator wants its arrivals on
	 * time (measured: lateness p50 0.07 ms with the default slack).
	 */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
	if (o->verbose > 0)
		fprintf(r->out, "%s: maximum number of open descriptors = "
		    "%ld\n", o->prog, nofile);
	/* No test whose report cannot be written. */
	if (run_flush_report(o, r->out) == -1)
		return -1;
	/* Set up and announced: now wait for the fleet's instant. */
	if (run_start_at(o, 1) == -1)
		return -1;

	r->wall_start = clock_wall_now();
	start = clock_now();
	run_timers(r, start);
	for (i = 0; i < nitems(run_stats); i++)
		if (r->stats[i].on && run_stats[i].col->start != NULL)
			run_stats[i].col->start(r->stats[i].state, start);
	getrusage(RUSAGE_SELF, &ru0);
	/* The first arrival happens now. */
	for (i = 0; i < nitems(run_gens); i++)
		if (r->gens[i].on && run_gens[i].gen->start != NULL)
			run_gens[i].gen->start(r->gens[i].state, start);
	if (loop_run(r->loop) == -1)
		fprintf(stderr, "%s: event loop failed: %s\n", o->prog,
		    strerror(errno));
	stop = clock_now();
	getrusage(RUSAGE_SELF, &ru1);
	if (interrupted)
		run_end(r, r->cut_at != 0 ? r->cut_at : stop);
	run_stop(r);
	timer_cancel(&r->sample_timer);
	timer_cancel(&r->runtime_timer);
	for (i = 0; i < nitems(run_stats); i++)
		if (r->stats[i].on && run_stats[i].col->stop != NULL &&
		    run_stats[i].col->stop(r->stats[i].state, stop, err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "%s: %s\n", o->prog, err);
			rv = -1;
		}

	cr.duration = stop - start;
	cr.cpu_user = tv_sec(&ru1.ru_utime) - tv_sec(&ru0.ru_utime);
	cr.cpu_sys = tv_sec(&ru1.ru_stime) - tv_sec(&ru0.ru_stime);
	run_report(r, &cr);
	/* The bottleneck warning ends the report (the JSON carries it too),
	   then the warning of a run that mostly failed. */
	warned = run_warn(r, &cr);
	run_warn_failed(r);
	if (r->json != NULL && run_json(r, &cr) == -1)
		rv = -1;
	if (r->html != NULL && run_html(r, &cr) == -1)
		rv = -1;
	if (rv == 0 && warned && o->max_lateness_given)
		rv = 3;
	return rv;
}

/*
 * Frees whatever the run set up.  Connections still open (--runtime,
 * SIGINT) are closed quietly first: with an empty bus nobody counts them.
 * Generators go before collectors, and both before the core.
 */
static void
run_teardown(struct run *r, uint64_t now)
{
	size_t i;

	if (r->have_core) {
		bus_free(r->bus);
		r->bus = bus_new();
		r->core.bus = r->bus;
		core_close_all(&r->core, now);
	}
	for (i = nitems(run_gens); r->gens != NULL && i-- > 0;)
		if (r->gens[i].on)
			run_gens[i].gen->fini(r->gens[i].state);
	for (i = nitems(run_stats); r->stats != NULL && i-- > 0;)
		if (r->stats[i].on)
			run_stats[i].col->fini(r->stats[i].state);
	if (r->have_core)
		core_fini(&r->core);
	free(r->gens);
	free(r->stats);
	bus_free(r->bus);
	loop_free(r->loop);
	setup_free(&r->setup);
	if (r->json != NULL && r->json != stdout)
		fclose(r->json);
	if (r->html != NULL)
		fclose(r->html);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct run r;
	int status = 1, rc;

	options_init(&o);
	/* --client auto reads the launcher's variables. */
	switch (options_parse_env(&o, argc, argv, environ, stdout, stderr)) {
	case OPTIONS_RUN:
		break;
	case OPTIONS_EXIT_OK:
		options_free(&o);
		return 0;
	default:
		options_free(&o);
		return 1;
	}

	if (o.merge) {
		const struct collector *cols[nitems(run_stats)];

		run_cols(cols);
		status = merge_main(&o, cols, nitems(run_stats));
		options_free(&o);
		return status;
	}
	memset(&r, 0, sizeof(r));
	r.o = &o;
	/* With the JSON on the standard output, the report goes aside. */
	r.out = o.json_file != NULL && strcmp(o.json_file, "-") == 0 ?
	    stderr : stdout;
	if (run_setup(&r) == 0 && (rc = run_test(&r)) != -1 &&
	    run_flush_report(&o, r.out) == 0 &&
	    run_flush_report(&o, stdout) == 0)
		status = rc;
	run_teardown(&r, clock_now());
	options_free(&o);
	return status;
}
