/*
 * --sweep: one test, the rate moved through steps (issue 25).
 *
 * The steps are windows of one run: the workload's schedule goes on at
 * each step's level (the generator's set_rate), the connections carry
 * over.  The search (report/sweep_search.h) hands out the levels; a step
 * timer ends each step.  From the end of a step's warm-up to its end a
 * fresh set of collectors (every mod_stats[] row but those that write
 * while the test runs: print, progress, interval) measures the step
 * alone, made with a copy of the options whose rate is the step's, so
 * that the schedule collector judges lateness and the achieved rate
 * against it.  They sit on a bus of their own, which a forwarder on the
 * run's bus feeds: it is subscribed after the whole-run collectors and
 * before the generators, so the steps see the events in the order the
 * whole run does, and a step's collectors leave by the step's bus being
 * freed.  An event counts in the step whose measure is open when it
 * happens: a call in the step of its reply (or error), a connection in
 * the step it was created in for its creation and in the step it closed
 * in for its end; the warm-ups' events count only in the whole run.
 * Each step's result is kept as its result document's text.
 *
 * With --client I/N, N above 1, the plan is fixed (every level runs:
 * the verdicts that count are those of a --merge of the clients' files;
 * a --jobs worker, a client too, runs its share of each level)
 * and the steps sit on a grid of the wall clock every client shares:
 * step k from the --start-at instant + k * --step-time, the drain after
 * a step taking its time out of the next one's warm-up, so that no
 * drain shifts a later step.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/time.h>

#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/clock.h"
#include "core/loop.h"
#include "gen/rate.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "modules.h"
#include "opt/options.h"
#include "report/sweep_out.h"
#include "report/sweep_search.h"
#include "run_int.h"
#include "run_sweep.h"
#include "stat/basic_report.h"

/* --sweep-precision not given: 2 %. */
#define SWEEP_PRECISION_PCT	2.0

/* Between steps: the schedule's rate meanwhile (an arrival a week
   later), and how often the drain looks for calls still in flight. */
#define SWEEP_PAUSE_RATE	1e-6
#define SWEEP_DRAIN_POLL_NS	(CLOCK_NS_PER_SEC / 1000)

struct run_sweep {
	struct run	*r;
	struct sweep_spec spec;
	struct sweep_search ss;
	struct options	 so;		/* the step's options: its rate */
	struct mod_ctx	 ctx;		/* ... and what its collectors get */
	struct core	 core;		/* the run's, with the step's bus */
	struct bus	*bus;		/* the step's; NULL: not measuring */
	struct run_mod	 stats[MOD_NSTATS];
	struct timer	 warm_timer;
	struct timer	 step_timer;
	double		 level;
	enum sweep_kind	 kind;
	uint64_t	 m_start;	/* the measure's start */
	uint64_t	 m_wall;	/* ... on the wall clock */
	struct rusage	 ru0;
	struct sweep_step *steps;
	size_t		 nsteps;
	size_t		 cap;
	int		 over;		/* the search is over */
	int		 started;	/* the generators are */
	struct timer	 drain_timer;
	uint64_t	 drain_end;
	uint64_t	 live;		/* calls in flight */
	int		 idle_polls;
	FILE		*tsv;		/* --sweep-tsv's file, or NULL */
	/* --client I/N, N above 1: a fixed plan whose steps sit on the
	   wall-clock grid every client shares (step k from grid0 + k *
	   --step-time, grid0 the --start-at instant as the monotonic
	   clock saw it). */
	int		 grid;
	uint64_t	 grid0;
};

static void	sweep_set_level(struct run_sweep *sw, double level,
		    uint64_t now);
static uint64_t	sweep_grid_at(const struct run_sweep *sw, size_t k);

int
run_sweep_check(const struct options *o, struct sweep_spec *s)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	if (o->sweep == NULL)
		return 0;
	/* A concurrency's levels are whole numbers. */
	if (sweep_spec_parse(o->sweep, o->concurrency > 0, s, err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "%s: --sweep: %s: %s\n", o->prog, o->sweep,
		    err);
		return -1;
	}
	return 0;
}

struct run_sweep *
run_sweep_new(const struct options *o, const struct sweep_spec *s)
{
	struct run_sweep *sw;
	double p = o->sweep_precision > 0 ? o->sweep_precision :
	    SWEEP_PRECISION_PCT;
	FILE *f = NULL;

	/* Created before the test, as --json's, so a bad path costs none. */
	if (o->sweep_tsv != NULL && (f = fopen(o->sweep_tsv, "w")) == NULL) {
		fprintf(stderr, "%s: --sweep-tsv: %s: %s\n", o->prog,
		    o->sweep_tsv, strerror(errno));
		return NULL;
	}
	sw = xcalloc(1, sizeof(*sw));
	sw->tsv = f;
	sw->spec = *s;
	sw->so = *o;
	sweep_search_init(&sw->ss, s, p / 100, o->n_slo > 0);
	/* Several clients: only a merge of their files has the verdicts
	   a search needs, so each runs the whole plan. */
	if (o->num_clients > 1) {
		sweep_search_fixed(&sw->ss);
		sw->grid = 1;
	}
	return sw;
}

/* The collectors a step has: not those that write while the test runs. */
static int
sweep_col_wanted(size_t i)
{
	const struct collector *c = mod_stats[i].col;

	return c != &print_collector && c != &progress_collector &&
	    c != &interval_collector && c != &calllog_collector;
}

/* The run's events, handed on to the step's collectors while they are. */
static void
sweep_forward(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct run_sweep *sw = ctx;

	if (sw->bus != NULL)
		bus_signal(sw->bus, ev, obj, arg, now);
}

/* The calls in flight, for the drain. */
static void
sweep_calls(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct run_sweep *sw = ctx;

	if (ev == BUS_CALL_NEW)
		sw->live++;
	else if (sw->live > 0)
		sw->live--;
}

/* Closes the step's collectors and its bus. */
static void
sweep_cols_free(struct run_sweep *sw)
{
	size_t i;

	for (i = MOD_NSTATS; i-- > 0;)
		if (sw->stats[i].on) {
			mod_stats[i].col->fini(sw->stats[i].state);
			sw->stats[i].on = 0;
		}
	bus_free(sw->bus);
	sw->bus = NULL;
}

/*
 * Makes the step's collectors on a fresh bus of their own.  Returns 0,
 * or -1 after a message (none is left then).
 */
static int
sweep_cols_new(struct run_sweep *sw, char *err, size_t errlen)
{
	struct run *r = sw->r;
	size_t i;
	int verbose;

	sw->bus = bus_new();
	sw->core = r->core;
	sw->core.bus = sw->bus;
	sw->ctx = r->ctx;
	sw->ctx.o = &sw->so;
	/* A step prints nothing live (-v's rate samples): the run does. */
	verbose = sw->so.verbose;
	sw->so.verbose = 0;
	for (i = 0; i < MOD_NSTATS; i++)
		if (sweep_col_wanted(i) && run_col_init(r, &sw->ctx,
		    &sw->core, sw->bus, i, &sw->stats[i], err, errlen) == -1) {
			sw->so.verbose = verbose;
			sweep_cols_free(sw);
			return -1;
		}
	sw->so.verbose = verbose;
	return 0;
}

int
run_sweep_subscribe(struct run *r, char *err, size_t errlen)
{
	struct run_sweep *sw = r->sweep;
	int ev;

	sw->r = r;
	timer_init(&sw->warm_timer, NULL);
	timer_init(&sw->step_timer, NULL);
	timer_init(&sw->drain_timer, NULL);
	bus_subscribe(r->bus, BUS_CALL_NEW, sweep_calls, sw);
	bus_subscribe(r->bus, BUS_CALL_DESTROYED, sweep_calls, sw);
	/* Forward only what a step's collectors listen to: a trial set. */
	if (sweep_cols_new(sw, err, errlen) == -1)
		return -1;
	for (ev = 0; ev < BUS_NEVENTS; ev++)
		if (bus_wanted(sw->bus, (enum bus_event)ev))
			bus_subscribe(r->bus, (enum bus_event)ev,
			    sweep_forward, sw);
	sweep_cols_free(sw);
	return 0;
}

/* The state of the step's collector `col', or NULL. */
static void *
sweep_col(struct run_sweep *sw, const struct collector *col)
{
	size_t i;

	for (i = 0; i < MOD_NSTATS; i++)
		if (sw->stats[i].on && mod_stats[i].col == col)
			return sw->stats[i].state;
	return NULL;
}

/* The warm-up is over: the step's collectors start. */
static void
sweep_measure(struct run_sweep *sw, uint64_t now)
{
	struct run *r = sw->r;
	struct basic *b, *whole = NULL;
	char err[256];
	size_t i;

	if (sweep_cols_new(sw, err, sizeof(err)) == -1)
		return;
	/* The connections open now close in the step: its basic collector
	   starts with them. */
	for (i = 0; i < mod_nstats; i++)
		if (r->stats[i].on && mod_stats[i].col == &basic_collector)
			whole = r->stats[i].state;
	if ((b = sweep_col(sw, &basic_collector)) != NULL && whole != NULL)
		b->concurrent = whole->concurrent;
	sw->m_start = now;
	sw->m_wall = clock_wall_now();
	getrusage(RUSAGE_SELF, &sw->ru0);
	for (i = 0; i < MOD_NSTATS; i++)
		if (sw->stats[i].on && mod_stats[i].col->start != NULL)
			mod_stats[i].col->start(sw->stats[i].state, now);
}

static void
sweep_warm_fired(struct timer *t, uint64_t now)
{
	struct run_sweep *sw = containerof(t, struct run_sweep, warm_timer);

	/* On the grid a drain ends with the warm-up, at the latest. */
	if (timer_is_armed(&sw->drain_timer)) {
		timer_cancel(&sw->drain_timer);
		sweep_set_level(sw, sw->level, now);
	}
	sweep_measure(sw, now);
}

static double
sweep_tv(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

/* Writes t's result document into st->doc (NULL when it cannot). */
static void
sweep_doc_write(struct run *t, const struct collector_run *cr,
    struct sweep_step *st)
{
	FILE *f;

	st->doc = NULL;
	st->doclen = 0;
	if ((f = open_memstream(&st->doc, &st->doclen)) == NULL)
		return;
	if (run_json_doc(t, cr, f) == -1 || fclose(f) != 0) {
		free(st->doc);
		st->doc = NULL;
		st->doclen = 0;
	}
}

/*
 * The step's result document into st->doc (as --json would write it,
 * with the step's options and collectors), and the objectives' verdict
 * measured on it.
 */
static void
sweep_doc(struct run_sweep *sw, struct sweep_step *st,
    const struct collector_run *cr)
{
	struct run t = *sw->r;

	t.o = &sw->so;
	t.stats = sw->stats;
	t.slo_measured = NULL;
	t.abort_slo = NULL;
	t.wall_start = sw->m_wall;
	t.sweep = NULL;
	sweep_doc_write(&t, cr, st);
	if (sw->so.n_slo == 0)
		return;
	st->verdict = sweep_step_verdict(st, sw->so.slo, sw->so.n_slo);
	/* Again, with stats.slo: the measures and the verdicts. */
	t.slo_measured = st->measured;
	free(st->doc);
	sweep_doc_write(&t, cr, st);
}

/* The requests per second the level asks for, as autobench counts. */
static double
sweep_demand(const struct options *o, double level)
{
	if (o->call_rate > 0 || o->wsesslog_n > 0)
		return level;
	if (o->wsess_n > 0)
		return level * o->wsess_calls;
	return level * (o->num_calls > 0 ? o->num_calls : 1);
}

/* The step's --sweep-tsv row, from its basic collector. */
static void
sweep_tsv_fill(struct run_sweep *sw, struct sweep_step *st,
    const struct basic *b)
{
	struct sweep_tsv_row *t = &st->tsv;
	const struct basic_series *rr = &b->t.reply_rate;
	double d = st->secs > 0 ? st->secs : NAN;

	t->dem_req_rate = sweep_demand(&sw->so, st->level);
	t->req_rate = (double)st->reqs / d;
	t->con_rate = (double)b->t.conns_issued / d;
	t->min_rep_rate = rr->n > 0 ? rr->min : NAN;
	t->max_rep_rate = rr->n > 0 ? rr->max : NAN;
	t->avg_rep_rate = rr->n > 0 ? rr->sum / (double)rr->n : NAN;
	t->stddev_rep_rate = rr->n > 0 ?
	    basic_stddev(rr->n, rr->sum, rr->sum2) : NAN;
	t->resp_time = b->t.responses_n > 0 ? (double)b->t.response_sum /
	    (double)b->t.responses_n / 1e6 : NAN;
	t->net_io = (double)b->net_bytes / d / 1024.0;
	t->errors = st->errors;
	t->replies = st->replies;
}

/* The step's figures from its collectors, then its document. */
static void
sweep_figures(struct run_sweep *sw, struct sweep_step *st, uint64_t now)
{
	struct collector_run cr;
	struct sched_verdict v;
	struct rusage ru1;
	struct basic *b = sweep_col(sw, &basic_collector);
	struct sched_stat *s = sweep_col(sw, &sched_stat_collector);

	getrusage(RUSAGE_SELF, &ru1);
	cr.duration = now - sw->m_start;
	cr.cpu_user = sweep_tv(&ru1.ru_utime) - sweep_tv(&sw->ru0.ru_utime);
	cr.cpu_sys = sweep_tv(&ru1.ru_stime) - sweep_tv(&sw->ru0.ru_stime);
	st->secs = clock_to_sec(cr.duration);
	sweep_step_basic(st, b);
	if (b != NULL)
		sweep_tsv_fill(sw, st, b);
	sweep_doc(sw, st, &cr);
	if (s != NULL) {
		sched_stat_verdict(s, sched_stat_cpu_pct(&cr), &v);
		st->client = v.why != 0;
	}
	if (st->client)
		st->verdict = SWEEP_V_CLIENT;
}

/* Ends the step at `now': its figures, kept; its collectors closed. */
static void
sweep_step_end(struct run_sweep *sw, uint64_t now)
{
	struct sweep_step *st;
	char err[256];
	size_t i;

	if (sw->nsteps == sw->cap) {
		sw->cap = sw->cap == 0 ? 16 : sw->cap * 2;
		sw->steps = xreallocarray(sw->steps, sw->cap,
		    sizeof(*sw->steps));
	}
	st = &sw->steps[sw->nsteps++];
	memset(st, 0, sizeof(*st));
	st->kind = sw->kind;
	st->level = sw->level;
	if (sw->bus != NULL) {
		/* The copy's live connections are the run's now (h2_stat
		   adds theirs up). */
		sw->core = sw->r->core;
		sw->core.bus = sw->bus;
		for (i = 0; i < MOD_NSTATS; i++)
			if (sw->stats[i].on &&
			    mod_stats[i].col->stop != NULL &&
			    mod_stats[i].col->stop(sw->stats[i].state, now,
			    err, sizeof(err)) == -1)
				fprintf(stderr, "%s: %s\n", sw->so.prog, err);
		sweep_figures(sw, st, now);
		sweep_cols_free(sw);
	}
	sweep_search_result(&sw->ss, st->verdict);
}

/*
 * On the grid, with a fixed interval: the instant the level's schedule
 * goes on from (an interval before its first arrival), so that its
 * arrivals fall on the step's lattice, its place on the grid plus the
 * offset --client gives this client (rate_spec_offset) plus whole
 * intervals, the first at or after `now': the clients' arrivals
 * interleave as at the start of a run, however long each one's drain
 * took.  Else `now'.
 */
static uint64_t
sweep_phase(const struct run_sweep *sw, uint64_t now)
{
	const struct options *o = &sw->so;
	uint64_t base, iat;

	if (!sw->grid || o->rate.dist != RATE_DETERMINISTIC ||
	    (iat = clock_from_sec(o->rate.mean_iat)) == 0)
		return now;
	base = sweep_grid_at(sw, sw->nsteps) + rate_spec_offset(&o->rate,
	    o->client_id, o->num_clients);
	if (base < now)
		base += (now - base + iat - 1) / iat * iat;
	return base >= iat ? base - iat : now;
}

/*
 * Sets the level of the workload: its schedule's rate (which the whole
 * run's live lines show from now on), or the closed loop's concurrency.
 */
static void
sweep_set_level(struct run_sweep *sw, double level, uint64_t now)
{
	struct run *r = sw->r;
	const struct generator *g = mod_gens[r->workload].gen;
	size_t i;

	if (sw->so.concurrency > 0) {
		sw->so.concurrency = (unsigned)level;
		if (sw->started)
			closed_set_concurrency(r->gens[r->workload].state,
			    (unsigned)level, now);
		return;
	}
	rate_spec_scale(&sw->so.rate, level);
	if (sw->so.call_rate > 0)
		sw->so.call_rate = level;
	if (sw->started && g->set_rate != NULL)
		g->set_rate(r->gens[r->workload].state, level,
		    sweep_phase(sw, now));
	for (i = 0; i < mod_nstats; i++)
		if (r->stats[i].on && mod_stats[i].col->set_rate != NULL)
			mod_stats[i].col->set_rate(r->stats[i].state, level,
			    now);
}

static void	sweep_step_fired(struct timer *t, uint64_t now);
static void	sweep_drain(struct run_sweep *sw, uint64_t now, uint64_t end);

/* Where step k begins on the grid (monotonic ns). */
static uint64_t
sweep_grid_at(const struct run_sweep *sw, size_t k)
{
	return sw->grid0 + clock_from_sec((double)k * sw->so.step_time);
}

/*
 * The step at sw->level begins: its level, its timers, at `now' or, on
 * the grid, at its place there (its end the next step's place).  On the
 * grid the drain of the step before takes its time out of the warm-up:
 * the level starts once no call is in flight or when the warm-up ends.
 */
static void
sweep_begin(struct run_sweep *sw, uint64_t now)
{
	struct timer_wheel *w = loop_timers(sw->r->loop);
	uint64_t base = sw->grid ? sweep_grid_at(sw, sw->nsteps) : now;
	uint64_t warm = base + clock_from_sec(sw->so.step_warmup);

	if (sw->grid && sw->nsteps > 0 && sw->so.concurrency == 0 &&
	    warm > now)
		sweep_drain(sw, now, warm);
	else
		sweep_set_level(sw, sw->level, now);
	if (sw->so.step_warmup > 0 && warm > now) {
		timer_init(&sw->warm_timer, sweep_warm_fired);
		timer_add(w, &sw->warm_timer, warm);
	} else
		sweep_measure(sw, now);
	timer_init(&sw->step_timer, sweep_step_fired);
	timer_add(w, &sw->step_timer, sw->grid ? sweep_grid_at(sw,
	    sw->nsteps + 1) : now + clock_from_sec(sw->so.step_time));
}

/*
 * Asks the search for the next step; at the end, ends the run.  A --jobs
 * worker runs its share of each level (its document's steps are at the
 * share; the parent's merge sums them back to the whole level).
 */
static int
sweep_pick(struct run_sweep *sw, uint64_t now)
{
	const struct options *o = &sw->so;

	if (sweep_search_next(&sw->ss, &sw->level, &sw->kind)) {
		if (o->whole != NULL)
			sw->level = options_split_level(o, sw->level,
			    o->client_id, o->num_clients);
		return 1;
	}
	sw->over = 1;
	run_end(sw->r, now);
	loop_stop(sw->r->loop);
	return 0;
}

/*
 * Between two steps, the drain: no arrival (the schedule paused) until
 * no call is in flight (two polls in a row), for at most --step-time
 * (on the grid: until the warm-up's end), so that no step inherits the
 * queue of the one before it.  Then the step begins (on the grid: it
 * has, and its level starts).
 */
static void
sweep_drain_fired(struct timer *t, uint64_t now)
{
	struct run_sweep *sw = containerof(t, struct run_sweep, drain_timer);

	sw->idle_polls = sw->live == 0 ? sw->idle_polls + 1 : 0;
	if (sw->idle_polls >= 2 || now >= sw->drain_end) {
		if (sw->grid)
			sweep_set_level(sw, sw->level, now);
		else
			sweep_begin(sw, now);
		return;
	}
	timer_add(loop_timers(sw->r->loop), &sw->drain_timer,
	    now + SWEEP_DRAIN_POLL_NS);
}

static void
sweep_drain(struct run_sweep *sw, uint64_t now, uint64_t end)
{
	struct run *r = sw->r;
	const struct generator *g = mod_gens[r->workload].gen;

	if (g->set_rate != NULL)
		g->set_rate(r->gens[r->workload].state, SWEEP_PAUSE_RATE, now);
	sw->idle_polls = 0;
	sw->drain_end = end;
	timer_init(&sw->drain_timer, sweep_drain_fired);
	timer_add(loop_timers(r->loop), &sw->drain_timer,
	    now + SWEEP_DRAIN_POLL_NS);
}

static void
sweep_step_fired(struct timer *t, uint64_t now)
{
	struct run_sweep *sw = containerof(t, struct run_sweep, step_timer);

	sweep_step_end(sw, now);
	if (!sweep_pick(sw, now))
		return;
	/* A closed loop has no queue of its own to drain; on the grid
	   the step drains in its warm-up. */
	if (sw->so.concurrency > 0 || sw->grid)
		sweep_begin(sw, now);
	else
		sweep_drain(sw, now, now + clock_from_sec(sw->so.step_time));
}

void
run_sweep_start(struct run *r, uint64_t now)
{
	struct run_sweep *sw = r->sweep;
	uint64_t at = r->o->start_at_raw != NULL ? r->o->start_at :
	    r->wall_start;

	/* The grid's origin on the monotonic clock: the --start-at
	   instant (the wake-up comes a little after it), else the start. */
	sw->grid0 = r->wall_start >= at ? now - (r->wall_start - at) :
	    now + (at - r->wall_start);

	if (sweep_pick(sw, now))
		sweep_begin(sw, now);
}

void
run_sweep_started(struct run *r, uint64_t now)
{
	struct run_sweep *sw = r->sweep;

	sw->started = 1;
	if (!sw->over)
		sweep_set_level(sw, sw->level, now);
}

void
run_sweep_stop(struct run *r)
{
	struct run_sweep *sw = r->sweep;

	timer_cancel(&sw->warm_timer);
	timer_cancel(&sw->step_timer);
	timer_cancel(&sw->drain_timer);
	sweep_cols_free(sw);
}

/* The sweep as its output sees it. */
static void
sweep_out_of(const struct run_sweep *sw, struct sweep_out *out)
{
	const struct options *o = &sw->so;

	memset(out, 0, sizeof(*out));
	out->spec = o->sweep;
	out->spec_from = sw->spec.from;
	out->step_time = o->step_time;
	out->warmup = o->step_warmup;
	out->precision = o->sweep_precision > 0 ? o->sweep_precision :
	    SWEEP_PRECISION_PCT;
	out->unit = o->concurrency > 0 ? "conc" : o->call_rate > 0 ?
	    "req/s" : options_session(o) ? "sess/s" : "conn/s";
	out->param = o->concurrency > 0 ? "concurrency" : "rate";
	out->slo = o->slo;
	out->nslo = o->n_slo;
	out->steps = sw->steps;
	out->nsteps = sw->nsteps;
	out->fixed = sw->grid;
	if (sw->over)
		sweep_search_answer(&sw->ss, &out->cap);
	else {
		out->cut = 1;		/* a signal: no answer */
		out->cap.agree = 1;
	}
}

/* The --sweep-tsv file.  Returns 0, or -1 after a message. */
static int
sweep_tsv(struct run_sweep *sw, const struct sweep_out *out)
{
	char host[HOST_NAME_MAX + 1];
	FILE *f = sw->tsv;
	int rv;

	sw->tsv = NULL;
	if (gethostname(host, sizeof(host)) == -1)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	rv = sweep_out_tsv(f, host, out);
	if (fclose(f) != 0)
		rv = -1;
	if (rv == -1)
		fprintf(stderr, "%s: --sweep-tsv: cannot write %s\n",
		    sw->so.prog, sw->so.sweep_tsv);
	return rv;
}

int
run_sweep_report(struct run *r)
{
	struct run_sweep *sw = r->sweep;
	struct sweep_out out;
	int rv;

	sweep_out_of(sw, &out);
	sweep_out_print(r->out, &out);
	rv = sweep_out_status(&out);
	if (sw->tsv != NULL && sweep_tsv(sw, &out) == -1)
		rv = -1;
	return rv;
}

void
run_sweep_json(struct jsonw *w, const void *arg)
{
	const struct run_sweep *sw = arg;
	struct sweep_out out;

	sweep_out_of(sw, &out);
	sweep_out_json(w, &out);
}

void
run_sweep_free(struct run_sweep *sw)
{
	size_t i;

	if (sw == NULL)
		return;
	sweep_cols_free(sw);
	if (sw->tsv != NULL)
		fclose(sw->tsv);
	for (i = 0; i < sw->nsteps; i++) {
		free(sw->steps[i].doc);
		free(sw->steps[i].measured);
	}
	free(sw->steps);
	free(sw);
}
