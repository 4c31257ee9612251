/*
 * One test's life cycle (run.h): set-up, start, the loop, stop, the
 * report, tear-down.  The run walks the modules' tables (modules.h);
 * nothing here knows one module from another besides its row, but for
 * the two warnings that end the report.
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
#include "lib/jsonw.h"
#include "lib/util.h"
#include "modules.h"
#include "net/sock.h"
#include "opt/options.h"
#include "report/html_out.h"
#include "report/result.h"
#include "report/slo_doc.h"
#include "report/sweep_search.h"
#include "run.h"
#include "run_int.h"
#include "run_sweep.h"
#include "setup.h"
#include "stat/basic_report.h"
#include "stat/slo.h"

#define PERF_SAMPLE_SEC	5	/* reply-rate sampling interval */

/* --start-at: an instant past by more than this is refused. */
#define START_AT_LATE_NS	CLOCK_NS_PER_SEC

/* Checks for SIGINT, SIGTERM or SIGHUP once per loop turn. */
static void
run_turn(struct loop *l, void *arg, uint64_t now)
{
	struct run *r = arg;

	if (*r->sig->interrupted) {
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


/*
 * The run ends at `end' (--runtime, a signal): the workload makes no
 * arrival meant for later and counts those due by then it never made.
 */
void
run_end(struct run *r, uint64_t end)
{
	size_t i;

	for (i = 0; i < mod_ngens; i++)
		if (r->gens[i].on && mod_gens[i].gen->end != NULL)
			mod_gens[i].gen->end(r->gens[i].state, end);
}

/*
 * --slo-abort: objective o can no longer pass; the run ends now (the
 * report covers what ran) and says why after the verdicts.
 */
static void
run_slo_abort(void *arg, uint64_t now, uint64_t at, const struct slo *o,
    double value)
{
	struct run *r = arg;

	if (r->abort_slo != NULL)
		return;
	r->abort_slo = o;
	r->abort_at = at;
	r->abort_value = value;
	run_end(r, now);
	loop_stop(r->loop);
}

/* The line after the verdicts saying why --slo-abort stopped the run. */
static void
run_slo_abort_line(const struct run *r)
{
	const struct slo *o = r->abort_slo;

	fprintf(r->out, "Aborted at %.3f s: objective %s can no longer pass "
	    "(", (double)r->abort_at / 1e9, o->text);
	if (o->unit == SLO_U_NS)
		fprintf(r->out, "%.3f ms)\n", r->abort_value / 1e6);
	else
		fprintf(r->out, "%.0f count)\n", r->abort_value);
}

/* Stops every generator: nothing more is created. */
static void
run_stop(struct run *r)
{
	size_t i;

	for (i = 0; i < mod_ngens; i++)
		if (r->gens[i].on && mod_gens[i].gen->stop != NULL)
			mod_gens[i].gen->stop(r->gens[i].state);
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
	const struct generator *g = mod_gens[r->workload].gen;

	if (g->drain != NULL)
		g->drain(r->gens[r->workload].state, now);
	else
		run_done(r, now);
}

int
run_col_init(struct run *r, const struct mod_ctx *ctx, struct core *core,
    struct bus *bus, size_t i, struct run_mod *m, char *err, size_t errlen)
{
	const struct mod_stat *row = &mod_stats[i];
	struct collector_env env;
	union mod_cfg u;

	if (row->want != NULL && !row->want(ctx->o))
		return 0;
	memset(&env, 0, sizeof(env));
	memset(&u, 0, sizeof(u));
	env.core = core;
	env.bus = bus;
	if (row->cfg != NULL) {
		row->cfg(ctx, &u);
		env.cfg = &u;
	}
	env.out = r->out;
	env.verbose = ctx->o->verbose;
	if (row->col->init(&m->state, &env, err, errlen) == -1) {
		fprintf(stderr, "%s: %s\n", r->o->prog, err);
		return -1;
	}
	m->on = 1;
	return 0;
}

/* Creates generator `i' if the run has it.  Returns 0 or -1. */
static int
run_gen_init(struct run *r, size_t i, char *err, size_t errlen)
{
	const struct mod_gen *row = &mod_gens[i];
	struct gen_env env;
	union mod_cfg u;

	if (!row->want(r->o))
		return 0;
	memset(&env, 0, sizeof(env));
	memset(&u, 0, sizeof(u));
	row->cfg(&r->ctx, &u);
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

	r->stats = xcalloc(mod_nstats, sizeof(*r->stats));
	r->gens = xcalloc(mod_ngens, sizeof(*r->gens));
	for (i = 0; i < mod_nstats; i++)
		if (run_col_init(r, &r->ctx, &r->core, r->bus, i,
		    &r->stats[i], err, errlen) == -1)
			return -1;
	/* A sweep's steps see the events after the whole run's collectors
	   and before the generators. */
	if (r->sweep != NULL && run_sweep_subscribe(r, err, errlen) == -1)
		return -1;
	for (i = 0; i < mod_ngens; i++)
		if (run_gen_init(r, i, err, errlen) == -1)
			return -1;
	return 0;
}

/*
 * --start-at: refuses an instant past by more than START_AT_LATE_NS (the
 * fleet started without this client), or, with `wait', sleeps until the
 * instant on the wall clock, absolute, so that a clock step while asleep
 * moves the wake-up with it.  A signal while asleep (SIGINT, SIGTERM,
 * SIGHUP: main.c) ends the process without a test.  Returns 0, or
 * -1 after one line.
 */
static int
run_start_at(struct run *r, int wait)
{
	const struct options *o = r->o;
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
	while (!*r->sig->interrupted && (now = clock_wall_now()) < o->start_at) {
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
	if (*r->sig->interrupted) {
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

	if (run_start_at(r, 0) == -1)
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
	r->sig->install();
	if (setup_core(&r->setup, o, &cfg, err, sizeof(err)) == -1)
		return -1;
	if ((r->loop = loop_new(setup_backend(o->prog), err,
	    sizeof(err))) == NULL) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return -1;
	}
	loop_busy_poll(r->loop, o->busy_poll);
	r->bus = bus_new();
	core_init(&r->core, r->loop, r->bus, &cfg);
	r->have_core = 1;
	if (run_modules(r, err, sizeof(err)) == -1 || setup_script(&r->setup,
	    o, &r->core, r->bus, run_done, r) == -1)
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

	for (i = 0; i < mod_nstats; i++)
		if (r->stats[i].on && mod_stats[i].col->report != NULL)
			mod_stats[i].col->report(r->stats[i].state, r->out,
			    cr);
	for (i = 0; i < mod_nstats; i++)
		if (r->stats[i].on && mod_stats[i].col->extra != NULL)
			mod_stats[i].col->extra(r->stats[i].state, r->out,
			    cr);
}

/*
 * Writes the result document to f: the head, the options, and each
 * collector's part under "stats".  Returns jsonw_finish()'s answer.
 */
int
run_json_doc(struct run *r, const struct collector_run *cr, FILE *f)
{
	/* A --jobs worker's document names the whole run's options. */
	const struct options *o = r->o->whole != NULL ? r->o->whole : r->o;
	const struct collector *cols[MOD_NSTATS];
	void *states[MOD_NSTATS];
	struct result_doc d;
	char host[HOST_NAME_MAX + 1], *echo = NULL;
	size_t i, len = 0;
	unsigned id = r->o->client_id;
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
	d.head.num_clients = r->o->num_clients;
	d.head.ids = &id;
	d.head.nids = 1;
	d.head.host = host;
	d.head.echo = echo != NULL ? echo : "";
	d.o = o;
	mod_cols(cols);
	for (i = 0; i < MOD_NSTATS; i++)
		states[i] = r->stats[i].on ? r->stats[i].state : NULL;
	d.cols = cols;
	d.states = states;
	d.ncols = MOD_NSTATS;
	d.run = cr;
	d.slo = o->slo;
	d.slo_measured = r->slo_measured;
	d.nslo = o->n_slo;
	if ((d.abort_slo = r->abort_slo) != NULL) {
		d.abort_at_s = (double)r->abort_at / 1e9;
		d.abort_value = d.abort_slo->unit == SLO_U_NS ?
		    r->abort_value / 1e6 : r->abort_value;
	}
	if (r->sweep != NULL) {
		d.tail = run_sweep_json;
		d.tail_arg = r->sweep;
	}
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

	for (i = 0; i < mod_nstats; i++)
		if (r->stats[i].on && mod_stats[i].col == &sched_stat_collector)
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

	for (i = 0; i < mod_nstats; i++)
		if (r->stats[i].on && mod_stats[i].col == &basic_collector) {
			b = r->stats[i].state;
			basic_fail_warn(r->out, &b->t);
		}
}

/*
 * After the whole report: the bottleneck warning (the JSON carries it
 * too), the warning of a run that mostly failed, the objectives'
 * verdicts, then the --json and --html files.  Returns the run's exit
 * status from `rv' (0 or -1 so far): 3 when the client was the
 * bottleneck with --max-lateness, else 4 when an objective failed.
 */
static int
run_after(struct run *r, const struct collector_run *cr, int rv)
{
	struct run_html_arg a = { r, cr };
	int warned, failed = 0, swept = 0;

	warned = run_warn(r, cr);
	run_warn_failed(r);
	/* A sweep's objectives judge its steps, not the whole run. */
	if (r->o->n_slo > 0 && r->sweep == NULL) {
		r->slo_measured = xcalloc(r->o->n_slo,
		    sizeof(*r->slo_measured));
		if ((failed = slo_doc_report(r->o->prog, r->out,
		    run_html_doc, &a, r->o->slo, r->o->n_slo,
		    r->slo_measured)) == -1)
			rv = -1;
	}
	if (r->abort_slo != NULL)
		run_slo_abort_line(r);
	if (r->sweep != NULL && (swept = run_sweep_report(r)) == -1)
		rv = -1;
	if (r->json != NULL && run_json(r, cr) == -1)
		rv = -1;
	if (r->html != NULL && run_html(r, cr) == -1)
		rv = -1;
	if (rv == 0 && r->sweep != NULL)
		rv = swept;
	else if (rv == 0 && warned && r->o->max_lateness_given)
		rv = 3;
	else if (rv == 0 && (failed > 0 || r->abort_slo != NULL))
		rv = 4;
	return rv;
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
	int rv = 0;

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
	if (run_start_at(r, 1) == -1)
		return -1;

	r->wall_start = clock_wall_now();
	start = clock_now();
	run_timers(r, start);
	for (i = 0; i < mod_nstats; i++)
		if (r->stats[i].on && mod_stats[i].col->start != NULL)
			mod_stats[i].col->start(r->stats[i].state, start);
	getrusage(RUSAGE_SELF, &ru0);
	if (r->sweep != NULL)
		run_sweep_start(r, start);
	/* The first arrival happens now. */
	for (i = 0; i < mod_ngens; i++)
		if (r->gens[i].on && mod_gens[i].gen->start != NULL)
			mod_gens[i].gen->start(r->gens[i].state, start);
	if (r->sweep != NULL)
		run_sweep_started(r, start);
	if (loop_run(r->loop) == -1)
		fprintf(stderr, "%s: event loop failed: %s\n", o->prog,
		    strerror(errno));
	stop = clock_now();
	getrusage(RUSAGE_SELF, &ru1);
	if (*r->sig->interrupted)
		run_end(r, r->cut_at != 0 ? r->cut_at : stop);
	run_stop(r);
	timer_cancel(&r->sample_timer);
	timer_cancel(&r->runtime_timer);
	if (r->sweep != NULL)
		run_sweep_stop(r);
	for (i = 0; i < mod_nstats; i++)
		if (r->stats[i].on && mod_stats[i].col->stop != NULL &&
		    mod_stats[i].col->stop(r->stats[i].state, stop, err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "%s: %s\n", o->prog, err);
			rv = -1;
		}

	cr.duration = stop - start;
	cr.cpu_user = tv_sec(&ru1.ru_utime) - tv_sec(&ru0.ru_utime);
	cr.cpu_sys = tv_sec(&ru1.ru_stime) - tv_sec(&ru0.ru_stime);
	run_report(r, &cr);
	rv = setup_script_done(&r->setup, o, r->out, cr.duration, rv);
	return run_after(r, &cr, rv);
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
	run_sweep_free(r->sweep);
	for (i = mod_ngens; r->gens != NULL && i-- > 0;)
		if (r->gens[i].on)
			mod_gens[i].gen->fini(r->gens[i].state);
	for (i = mod_nstats; r->stats != NULL && i-- > 0;)
		if (r->stats[i].on)
			mod_stats[i].col->fini(r->stats[i].state);
	if (r->have_core)
		core_fini(&r->core);
	free(r->gens);
	free(r->stats);
	free(r->slo_measured);
	bus_free(r->bus);
	loop_free(r->loop);
	setup_free(&r->setup);
	if (r->json != NULL && r->json != stdout)
		fclose(r->json);
	if (r->html != NULL)
		fclose(r->html);
}

/* The run of the options, before its set-up. */
static void
run_init(struct run *r, const struct options *o, const struct run_sig *sig)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->sig = sig;
	r->ctx.o = o;
	r->ctx.setup = &r->setup;
	r->ctx.cookies_ignored = &r->cookies_ignored;
	r->ctx.progress_on = sig->progress_on;
	r->ctx.slo_abort = run_slo_abort;
	r->ctx.slo_abort_arg = r;
	r->ctx.live = sig->live, r->ctx.live_arg = sig->live_arg;
	r->ctx.stop = run_done, r->ctx.stop_arg = r;	/* --log failed */
	/* With the JSON (or --log's records) on the standard output, the
	   report goes aside. */
	r->out = (o->json_file != NULL && strcmp(o->json_file, "-") == 0) ||
	    (o->log_file != NULL && strcmp(o->log_file, "-") == 0) ?
	    stderr : stdout;
}

int
run_check(const struct options *o, const struct run_sig *sig)
{
	struct run r;
	int rv;

	run_init(&r, o, sig);
	rv = run_setup(&r);
	run_teardown(&r, clock_now());
	return rv;
}

int
run_main(const struct options *o, const struct run_sig *sig)
{
	struct run r;
	struct sweep_spec spec;
	int status = 1, rc;

	/* A usage error, before anything is set up. */
	if (run_sweep_check(o, &spec) == -1)
		return 1;
	run_init(&r, o, sig);
	if (o->sweep != NULL && (r.sweep = run_sweep_new(o, &spec)) == NULL)
		return 1;
	if (run_setup(&r) == 0 && (rc = run_test(&r)) != -1 &&
	    run_flush_report(o, r.out) == 0 &&
	    run_flush_report(o, stdout) == 0)
		status = rc;
	run_teardown(&r, clock_now());
	return status;
}
