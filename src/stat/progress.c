/*
 * The progress collector (see progress.h): a live line on a terminal,
 * from the per-second counts of an interval collector of its own.
 */
#include "config.h"

#include <sys/ioctl.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/clock.h"
#include "core/core.h"
#include "core/loop.h"
#include "lib/hdr.h"
#include "lib/util.h"
#include "stat/collector.h"
#include "stat/interval.h"
#include "stat/progress.h"

#define NS_PER_SEC	UINT64_C(1000000000)
#define PROGRESS_STEP	(NS_PER_SEC / PROGRESS_HZ)

/* The bar's width: the room left, within these bounds. */
#define BAR_MIN		10
#define BAR_MAX		40
/* Below this much room for the bar, the numbers are written short. */
#define BAR_LONG_MIN	20

/* Back to the line's start; erase to its end. */
#define CR		"\r"
#define EL		"\033[K"

struct progress {
	struct interval	 iv;		/* the seconds' counts */
	struct timer_wheel *wheel;
	struct timer	 timer;		/* the next redraw */
	FILE		*tty;
	int		 fd;
	enum progress_unit unit;
	uint64_t	 total;
	uint64_t	 runtime;
	double		 target;	/* the run's: 0, no schedule */
	double		 shown;		/* the target shown: a --sweep
					   step's */
	uint64_t	 calls;		/* a closed loop's calls made in
					   the second going on */

	uint64_t	 start;
	int		 running;
	int		 drawn;		/* a line is on the terminal */
	uint64_t	 done;		/* units */
	uint64_t	 replies;	/* of the seconds ended */
	uint64_t	 errors;
	int		 have_last;	/* a second has ended */
	struct progress_rate rate;
	int		 have_p99;
	double		 p99;		/* ms, of the last second */
};

/* Appends to a line being built; what does not fit is dropped. */
struct line {
	char	*p;
	size_t	 size;
	size_t	 len;
};

static void
line_add(struct line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len + 1 >= l->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->p + l->len, l->size - l->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		l->p[l->len] = '\0';
	else if ((size_t)n >= l->size - l->len)
		l->len = l->size - 1;
	else
		l->len += (size_t)n;
}

/* "M:SS" or "H:MM:SS"; up: rounded up to the second, else down. */
static void
put_dur(char *buf, size_t size, uint64_t ns, int up)
{
	uint64_t s = ns / NS_PER_SEC;

	if (up && ns % NS_PER_SEC != 0)
		s++;
	if (s >= 3600)
		snprintf(buf, size, "%llu:%02u:%02u",
		    (unsigned long long)(s / 3600), (unsigned)(s / 60 % 60),
		    (unsigned)(s % 60));
	else
		snprintf(buf, size, "%u:%02u", (unsigned)(s / 60),
		    (unsigned)(s % 60));
}

/* A time in ms with 3 significant digits or more. */
static void
put_ms(char *buf, size_t size, double ms)
{
	if (ms < 10)
		snprintf(buf, size, "%.2f", ms);
	else if (ms < 100)
		snprintf(buf, size, "%.1f", ms);
	else
		snprintf(buf, size, "%.0f", ms);
}

/* The numbers after the bar, with words or short. */
static void
put_tail(struct line *l, const struct progress_view *v, int shortly)
{
	char ms[32], rate[PROGRESS_LINE_MAX];

	if (v->have_p99)
		put_ms(ms, sizeof(ms), v->p99);
	else
		snprintf(ms, sizeof(ms), "-");
	if (v->have_rate)
		snprintf(rate, sizeof(rate), "%.1f", v->rate);
	else
		snprintf(rate, sizeof(rate), "-");
	if (shortly) {
		line_add(l, " %s", rate);
		if (v->target > 0)
			line_add(l, "/%.1f", v->target);
		line_add(l, "/s %llu rep %llu err p99 %s%s",
		    (unsigned long long)v->replies,
		    (unsigned long long)v->errors, ms,
		    v->have_p99 ? "ms" : "");
		return;
	}
	line_add(l, "  rate %s%s", rate, v->have_rate ? "/s" : "");
	if (v->target > 0)
		line_add(l, " of %.1f/s", v->target);
	line_add(l, "  replies %llu  errors %llu  p99 %s%s",
	    (unsigned long long)v->replies, (unsigned long long)v->errors,
	    ms, v->have_p99 ? " ms" : "");
}

size_t
progress_format(char *buf, size_t size, const struct progress_view *v,
    unsigned width)
{
	char head[32], mid[64], left[32], tl[PROGRESS_LINE_MAX],
	    ts[PROGRESS_LINE_MAX];
	struct line ltl = { tl, sizeof(tl), 0 }, lts = { ts, sizeof(ts), 0 };
	struct line out = { buf, size, 0 };
	const char *tail;
	size_t w, fixed, bar = 0, fill, i;
	double frac;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	w = width > 0 ? width - 1 : 0;
	if (w > size - 1)
		w = size - 1;
	put_dur(head, sizeof(head), v->elapsed, 0);
	mid[0] = '\0';
	/* NaN too: the casts below must stay in range. */
	frac = !(v->frac > 0) ? 0 : v->frac > 1 ? 1 : v->frac;
	if (v->known) {
		if (v->have_left)
			put_dur(left, sizeof(left), v->left, 1);
		else
			snprintf(left, sizeof(left), "-:--");
		snprintf(mid, sizeof(mid), " %3u%% ETA %s",
		    (unsigned)(frac * 100), left);
	}
	put_tail(&ltl, v, 0);
	put_tail(&lts, v, 1);
	/* The bar is " [" BAR "]" between the time and the percentage. */
	fixed = strlen(head) + strlen(mid) + 3;
	tail = tl;
	if (v->known && fixed + ltl.len + BAR_LONG_MIN <= w)
		bar = w - fixed - ltl.len;
	else if (v->known && fixed + lts.len + BAR_MIN <= w) {
		tail = ts;
		bar = w - fixed - lts.len;
	} else if (strlen(head) + strlen(mid) + ltl.len > w)
		tail = ts;
	if (bar > BAR_MAX)
		bar = BAR_MAX;
	line_add(&out, "%s", head);
	if (bar > 0) {
		fill = (size_t)(frac * (double)bar);
		line_add(&out, " [");
		for (i = 0; i < bar; i++)
			line_add(&out, "%c", i < fill ? '#' : '-');
		line_add(&out, "]");
	}
	line_add(&out, "%s%s", mid, tail);
	if (out.len > w) {
		out.len = w;
		buf[w] = '\0';
	}
	return out.len;
}

unsigned
progress_width(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return PROGRESS_WIDTH_DEFAULT;
}

/* What the schedule (or the closed loop, or the connections) made. */
static uint64_t
progress_made(const struct progress *p, const struct interval_counts *c)
{
	if (p->target > 0)
		return c->arrivals;
	return p->unit == PROGRESS_U_CALLS ? p->calls : c->conns;
}

void
progress_rate_start(struct progress_rate *r)
{
	memset(r, 0, sizeof(*r));
}

void
progress_rate_event(struct progress_rate *r, uint64_t now)
{
	if (r->have_second)
		return;
	if (r->n == 0)
		r->first = now;
	r->last = now;
	r->n++;
}

void
progress_rate_second(struct progress_rate *r, uint64_t n, uint64_t len)
{
	if (len == 0)
		return;
	r->second = (double)n / ((double)len / (double)NS_PER_SEC);
	r->have_second = 1;
}

int
progress_rate_get(const struct progress_rate *r, uint64_t now, double *rate)
{
	double gaps, since;

	if (r->have_second) {
		*rate = r->second;
		return 0;
	}
	/*
	 * The first second, so far: never its events over the time passed,
	 * which scales a partial second up (one arrival at the start of
	 * --rate 1 read 4/s at 0.25 s).  With two events or more, the
	 * smaller of the rate between the first and the last (n - 1 gaps)
	 * and that of n events from the first to now: the first for a
	 * regular schedule, the second once the events have stopped
	 * coming for longer than their mean gap.  With one event or none,
	 * no estimate until the second ends.
	 */
	if (r->n < 2 || now <= r->first)
		return -1;
	since = (double)(now - r->first) / (double)NS_PER_SEC;
	*rate = (double)r->n / since;
	if (r->last > r->first) {
		gaps = (double)(r->n - 1) / ((double)(r->last - r->first) /
		    (double)NS_PER_SEC);
		if (gaps < *rate)
			*rate = gaps;
	}
	return 0;
}

/* A second ended: keep what the line shows of it. */
static void
progress_second(void *arg, const struct interval *iv, uint64_t end)
{
	struct progress *p = arg;
	const struct hdr *h = iv->h[INTERVAL_H_REPLY];

	p->replies += interval_replies(&iv->c);
	p->errors += interval_errors(&iv->c);
	progress_rate_second(&p->rate, progress_made(p, &iv->c),
	    end - iv->mark);
	p->calls = 0;
	p->have_p99 = hdr_count(h) > 0;
	if (p->have_p99)
		p->p99 = (double)hdr_value_at_percentile(h, 99.0) / 1e6;
	p->have_last = 1;
}

uint64_t
progress_left(uint64_t elapsed, uint64_t done, uint64_t total)
{
	if (done >= total)
		return 0;
	if (done == 0)
		return UINT64_MAX;
	return util_dtou64((double)elapsed * (double)(total - done) /
	    (double)done);
}

/* The numbers at `now'. */
static void
progress_view(const struct progress *p, uint64_t now,
    struct progress_view *v)
{
	const struct interval *iv = &p->iv;
	const struct hdr *h = iv->h[INTERVAL_H_REPLY];
	uint64_t el = now - p->start, left;
	double f;

	memset(v, 0, sizeof(*v));
	v->elapsed = el;
	v->target = p->shown;
	v->replies = p->replies + interval_replies(&iv->c);
	v->errors = p->errors + interval_errors(&iv->c);
	v->have_rate = progress_rate_get(&p->rate, now, &v->rate) == 0;
	if (p->have_last) {
		v->have_p99 = p->have_p99;
		v->p99 = p->p99;
	} else {
		/* The first second, so far. */
		v->have_p99 = hdr_count(h) > 0;
		if (v->have_p99)
			v->p99 = (double)hdr_value_at_percentile(h, 99.0) /
			    1e6;
	}
	/* The end comes with the first of the total and the runtime. */
	if (p->total > 0) {
		v->known = 1;
		v->frac = p->done >= p->total ? 1 :
		    (double)p->done / (double)p->total;
		if (p->done > 0) {
			v->have_left = 1;
			v->left = progress_left(el, p->done, p->total);
		}
	}
	if (p->runtime > 0) {
		f = el >= p->runtime ? 1 : (double)el / (double)p->runtime;
		left = el >= p->runtime ? 0 : p->runtime - el;
		if (!v->known || f > v->frac)
			v->frac = f;
		if (!v->have_left || left < v->left)
			v->left = left;
		v->known = 1;
		v->have_left = 1;
	}
}

static void
progress_draw(struct progress *p, uint64_t now)
{
	struct progress_view v;
	char line[PROGRESS_LINE_MAX];

	progress_view(p, now, &v);
	progress_format(line, sizeof(line), &v, progress_width(p->fd));
	fputs(CR, p->tty);
	fputs(line, p->tty);
	fputs(EL, p->tty);
	fflush(p->tty);
	p->drawn = 1;
}

/* The next redraw, on an absolute schedule from the start. */
static void
progress_fired(struct timer *t, uint64_t now)
{
	struct progress *p = containerof(t, struct progress, timer);
	uint64_t k = (now - p->start) / PROGRESS_STEP + 1;

	progress_draw(p, now);
	timer_add(p->wheel, &p->timer, p->start + k * PROGRESS_STEP);
}

static void
progress_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct progress *p = ctx;

	if (!p->running)
		return;
	switch (ev) {
	case BUS_ARRIVAL_MISSED:
		if (arg.i > 0)
			p->done += (uint64_t)arg.i;
		break;
	default:
		p->done++;
		break;
	}
}

/* An event the achieved rate counts. */
static void
progress_made_event(void *ctx, enum bus_event ev, void *obj,
    union bus_arg arg, uint64_t now)
{
	struct progress *p = ctx;

	if (!p->running)
		return;
	progress_rate_event(&p->rate, now);
	if (ev == BUS_CALL_NEW)
		p->calls++;
}

/* The settings every progress line has, collector or --jobs' parent. */
static void
progress_setup(struct progress *p, const struct progress_config *cfg)
{
	p->tty = cfg->tty;
	p->fd = cfg->fd;
	p->unit = cfg->unit;
	p->total = cfg->unit != PROGRESS_U_NONE ? cfg->total : 0;
	p->runtime = cfg->runtime;
	p->target = cfg->target_rate;
	p->shown = p->target;
}

static int
progress_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	const struct progress_config *cfg = env->cfg;
	struct interval_config ic;
	struct progress *p = xcalloc(1, sizeof(*p));

	p->wheel = loop_timers(env->core->loop);
	progress_setup(p, cfg);
	memset(&ic, 0, sizeof(ic));
	ic.period = NS_PER_SEC;
	ic.target_rate = cfg->target_rate;
	ic.flush = progress_second;
	ic.flush_arg = p;
	if (interval_init(&p->iv, env->bus, p->wheel, env->out, &ic, err,
	    errlen) == -1) {
		free(p);
		return -1;
	}
	timer_init(&p->timer, progress_fired);
	switch (p->unit) {
	case PROGRESS_U_CONNS:
		bus_subscribe(env->bus, BUS_CONN_DESTROYED, progress_event, p);
		break;
	case PROGRESS_U_SESSIONS:
		bus_subscribe(env->bus, BUS_SESS_DESTROYED, progress_event, p);
		break;
	case PROGRESS_U_ARRIVALS:
		bus_subscribe(env->bus, BUS_ARRIVAL, progress_event, p);
		bus_subscribe(env->bus, BUS_ARRIVAL_MISSED, progress_event, p);
		break;
	case PROGRESS_U_CALLS:
		bus_subscribe(env->bus, BUS_CALL_NEW, progress_event, p);
		break;
	default:
		break;
	}
	bus_subscribe(env->bus, p->target > 0 ? BUS_ARRIVAL :
	    p->unit == PROGRESS_U_CALLS ? BUS_CALL_NEW : BUS_CONN_CONNECTING,
	    progress_made_event, p);
	*state = p;
	return 0;
}

static void
progress_start(void *state, uint64_t now)
{
	struct progress *p = state;

	p->start = now;
	p->running = 1;
	progress_rate_start(&p->rate);
	interval_start(&p->iv, now, clock_wall_now());
	timer_add(p->wheel, &p->timer, now + PROGRESS_STEP);
}

/* A --sweep step's level: the target shown, and the seconds'. */
static void
progress_set_rate(void *state, double rate, uint64_t now)
{
	struct progress *p = state;

	if (p->target > 0)
		p->shown = rate;
	interval_set_rate(&p->iv, rate);
}

/* Erases the line, if one is drawn. */
static void
progress_erase(struct progress *p)
{
	if (p->drawn) {
		fputs(CR EL, p->tty);
		fflush(p->tty);
		p->drawn = 0;
	}
}

/* Erases the line before the report (the stop comes first). */
static int
progress_stop(void *state, uint64_t now, char *err, size_t errlen)
{
	struct progress *p = state;

	timer_cancel(&p->timer);
	p->running = 0;
	(void)interval_stop(&p->iv, now, err, errlen);
	progress_erase(p);
	return 0;
}

struct progress *
progress_sum_new(const struct progress_config *cfg)
{
	struct progress *p = xcalloc(1, sizeof(*p));

	progress_setup(p, cfg);
	if (p->unit == PROGRESS_U_SESSIONS)
		p->total = 0;	/* not in the counts */
	p->iv.h[INTERVAL_H_REPLY] = hdr_new_ns();	/* no second going on */
	progress_rate_start(&p->rate);
	p->running = 1;
	return p;
}

void
progress_sum_second(struct progress *p, const struct interval *iv,
    uint64_t end)
{
	const struct interval_counts *c = &iv->c;

	switch (p->unit) {
	case PROGRESS_U_CONNS:
		p->done += c->conns;
		break;
	case PROGRESS_U_ARRIVALS:
		p->done += c->arrivals + c->missed;
		break;
	case PROGRESS_U_CALLS:
		p->calls = interval_replies(c) + interval_errors(c);
		p->done += p->calls;
		break;
	default:
		break;
	}
	progress_second(p, iv, end);
	progress_draw(p, end);
}

void
progress_sum_free(struct progress *p)
{
	if (p == NULL)
		return;
	progress_erase(p);
	hdr_free(p->iv.h[INTERVAL_H_REPLY]);
	free(p);
}

static void
progress_fini(void *state)
{
	struct progress *p = state;

	timer_cancel(&p->timer);
	interval_fini(&p->iv);
	free(p);
}

const struct collector progress_collector = {
	.name = "progress",
	.init = progress_init,
	.start = progress_start,
	.stop = progress_stop,
	.set_rate = progress_set_rate,
	.fini = progress_fini,
};
