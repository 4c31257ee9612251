/*
 * --jobs with --interval or --hlog: each worker, instead of printing its
 * --interval lines (or writing an hlog), writes every interval as it
 * ends (its counts and its histograms, encoded) up a pipe of its own.
 * The parent keeps a slot per interval of the schedule (the workers
 * start at the same instant, so their intervals share the boundaries),
 * adds the records up, and writes the slot's hlog lines and prints its
 * line with the one-process code (interval_hlog_out, interval_line_out)
 * once every worker has sent it, or half a period after the first
 * record came.  A record for a slot already printed (a worker that
 * late) is added to the next one, so that the lines still add up to the
 * report's totals.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "gen/rate.h"
#include "lib/hdr.h"
#include "lib/util.h"
#include "modules.h"
#include "opt/options.h"
#include "stat/interval.h"
#include "stat/progress.h"
#include "run_jobs_live.h"

/* What precedes a record's encoded histograms on the pipe. */
struct live_head {
	uint64_t		start;	/* ns since the test's start */
	uint64_t		end;
	struct interval_counts	c;
	uint32_t		len[INTERVAL_NHIST];
};

/* One interval of the schedule: the workers' records added up. */
struct live_slot {
	int			used;
	uint64_t		end;	/* the latest record's end */
	uint64_t		first;	/* when its first record came */
	struct interval_counts	c;
	struct hdr		*h[INTERVAL_NHIST];
};

/* One worker's pipe. */
struct live_in {
	char			*buf;
	size_t			 len, cap;
	uint64_t		 upto;	/* the end of its last record */
	int			 closed;
};

struct jobs_live {
	struct interval		 iv;	/* the lines' and the hlog's */
	struct progress		*prog;	/* the progress line, or NULL */
	unsigned		 n;
	uint64_t		 period;
	struct live_slot	*s;
	size_t			 ns;	/* slots allocated */
	size_t			 next;	/* the first not printed */
	struct live_in		*in;
};

static void
live_write(int fd, const void *p, size_t len)
{
	const char *c = p;
	ssize_t w;

	while (len > 0) {
		w = write(fd, c, len);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* the parent is gone: so is the worker */
		c += w;
		len -= (size_t)w;
	}
}

void
jobs_live_send(void *arg, const struct interval *iv, uint64_t end)
{
	int fd = *(const int *)arg;
	struct live_head h;
	char *enc[INTERVAL_NHIST];
	size_t i, len;

	memset(&h, 0, sizeof(h));
	h.start = iv->mark - iv->start;
	h.end = end - iv->start;
	h.c = iv->c;
	for (i = 0; i < INTERVAL_NHIST; i++) {
		if (hdr_encode(iv->h[i], &enc[i], &len) != 0) {
			enc[i] = NULL;
			len = 0;
		}
		h.len[i] = (uint32_t)len;
	}
	live_write(fd, &h, sizeof(h));
	for (i = 0; i < INTERVAL_NHIST; i++) {
		live_write(fd, enc[i], h.len[i]);
		free(enc[i]);
	}
}

/*
 * The progress line of the sums, when one process would draw one (the
 * progress collector's row of modules.c), else NULL.
 */
static struct progress *
live_progress(const struct options *o, volatile sig_atomic_t *on)
{
	struct mod_ctx ctx;
	union mod_cfg u;
	size_t i;

	for (i = 0; i < mod_nstats; i++) {
		if (mod_stats[i].col != &progress_collector)
			continue;
		if (!mod_stats[i].want(o))
			return NULL;
		memset(&ctx, 0, sizeof(ctx));
		memset(&u, 0, sizeof(u));
		ctx.o = o;
		ctx.progress_on = on;
		mod_stats[i].cfg(&ctx, &u);
		return progress_sum_new(&u.progress);
	}
	return NULL;
}

int
jobs_live_wanted(const struct options *o)
{
	size_t i;

	if (o->interval > 0 || o->hlog_file != NULL)
		return 1;
	for (i = 0; i < mod_nstats; i++)
		if (mod_stats[i].col == &progress_collector)
			return mod_stats[i].want(o);
	return 0;
}

struct jobs_live *
jobs_live_new(const struct options *o, unsigned n, FILE *lines,
    volatile sig_atomic_t *progress_on)
{
	struct jobs_live *jl = xcalloc(1, sizeof(*jl));

	jl->n = n;
	jl->period = o->interval > 0 ? clock_from_sec(o->interval) :
	    INTERVAL_DEFAULT_NS;
	jl->iv.lines = o->interval > 0 ? lines : NULL;
	jl->iv.period = jl->period;
	jl->iv.target_rate = jl->iv.rate_now = rate_spec_rate(&o->rate);
	jl->iv.slo = o->slo;
	jl->iv.nslo = o->n_slo;
	jl->prog = live_progress(o, progress_on);
	jl->in = xcalloc(n, sizeof(*jl->in));
	return jl;
}

int
jobs_live_hlog(struct jobs_live *jl, const char *path, uint64_t wall,
    char *err, size_t errlen)
{
	return interval_hlog_open(&jl->iv, path, wall, err, errlen);
}

int
jobs_live_end(struct jobs_live *jl, char *err, size_t errlen)
{
	return interval_hlog_close(&jl->iv, err, errlen);
}

/* Slot k, made (empty) if need be. */
static struct live_slot *
live_slot(struct jobs_live *jl, size_t k)
{
	size_t ns;

	if (k >= jl->ns) {
		ns = k + 16 > jl->ns * 2 ? k + 16 : jl->ns * 2;
		jl->s = xrealloc(jl->s, ns * sizeof(*jl->s));
		memset(jl->s + jl->ns, 0, (ns - jl->ns) * sizeof(*jl->s));
		jl->ns = ns;
	}
	return &jl->s[k];
}

/* Adds a record (its histograms at p) to its slot. */
static void
live_take(struct jobs_live *jl, struct live_in *in,
    const struct live_head *h, const char *p, uint64_t now)
{
	size_t k = (size_t)(h->start / jl->period), i;
	struct live_slot *s;
	struct hdr *d;

	if (k < jl->next)
		k = jl->next;
	s = live_slot(jl, k);
	if (!s->used) {
		s->used = 1;
		s->first = now;
		for (i = 0; i < INTERVAL_NHIST; i++)
			s->h[i] = hdr_new_ns();
	}
	if (h->end > s->end)
		s->end = h->end;
	if (h->end > in->upto)
		in->upto = h->end;
	interval_counts_add(&s->c, &h->c);
	for (i = 0; i < INTERVAL_NHIST; i++) {
		if (h->len[i] > 0 && hdr_decode(p, h->len[i], &d) == 0) {
			(void)hdr_add(s->h[i], d);
			hdr_free(d);
		}
		p += h->len[i];
	}
}

/* The records complete in in->buf, taken out of it. */
static void
live_parse(struct jobs_live *jl, struct live_in *in, uint64_t now)
{
	struct live_head h;
	size_t off = 0, need, i;

	for (;;) {
		if (in->len - off < sizeof(h))
			break;
		memcpy(&h, in->buf + off, sizeof(h));
		need = sizeof(h);
		for (i = 0; i < INTERVAL_NHIST; i++)
			need += h.len[i];
		if (in->len - off < need)
			break;
		live_take(jl, in, &h, in->buf + off + sizeof(h), now);
		off += need;
	}
	memmove(in->buf, in->buf + off, in->len - off);
	in->len -= off;
}

int
jobs_live_read(struct jobs_live *jl, unsigned i, int fd, uint64_t now)
{
	struct live_in *in = &jl->in[i];
	ssize_t got;

	if (in->cap - in->len < 65536) {
		in->cap = in->cap * 2 + 65536;
		in->buf = xrealloc(in->buf, in->cap);
	}
	got = read(fd, in->buf + in->len, in->cap - in->len);
	if (got > 0) {
		in->len += (size_t)got;
		live_parse(jl, in, now);
		return 0;
	}
	if (got == -1 && (errno == EINTR || errno == EAGAIN))
		return 0;
	in->closed = 1;
	return -1;
}

void
jobs_live_gone(struct jobs_live *jl, unsigned i)
{
	jl->in[i].closed = 1;
}

/* Whether every worker has sent slot k (or has ended). */
static int
live_complete(const struct jobs_live *jl, size_t k)
{
	unsigned i;

	for (i = 0; i < jl->n; i++)
		if (!jl->in[i].closed && jl->in[i].upto < (k + 1) * jl->period)
			return 0;
	return 1;
}

/* Prints slot k's line (the last of the test: `last') and empties it. */
static void
live_line(struct jobs_live *jl, size_t k, int last)
{
	struct live_slot *s = &jl->s[k];
	struct interval *iv = &jl->iv;
	uint64_t end;
	size_t i;

	iv->mark = k * jl->period;
	iv->n = k;
	iv->c = s->c;
	for (i = 0; i < INTERVAL_NHIST; i++)
		iv->h[i] = s->h[i];
	end = s->end > iv->mark ? s->end : iv->mark + jl->period;
	interval_hlog_out(iv, end);
	interval_line_out(iv, end, last);
	if (jl->prog != NULL)
		progress_sum_second(jl->prog, iv, end);
	for (i = 0; i < INTERVAL_NHIST; i++) {
		hdr_free(s->h[i]);
		iv->h[i] = NULL;
	}
	memset(s, 0, sizeof(*s));
}

/* Whether a slot after k has a record. */
static int
live_later(const struct jobs_live *jl, size_t k)
{
	for (k++; k < jl->ns; k++)
		if (jl->s[k].used)
			return 1;
	return 0;
}

uint64_t
jobs_live_print(struct jobs_live *jl, uint64_t now, int all)
{
	struct live_slot *s;
	uint64_t due;
	int later;

	for (; jl->next < jl->ns; jl->next++) {
		s = &jl->s[jl->next];
		later = live_later(jl, jl->next);
		if (!s->used) {
			if (!later)
				break;
			continue;	/* every worker was held up past it */
		}
		due = s->first + jl->period / 2;
		if (!all && !live_complete(jl, jl->next) && now < due)
			return due - now;
		live_line(jl, jl->next, all && !later);
	}
	if (all) {
		/* Before the report. */
		progress_sum_free(jl->prog);
		jl->prog = NULL;
	}
	return UINT64_MAX;
}

void
jobs_live_free(struct jobs_live *jl)
{
	size_t i, k;

	if (jl == NULL)
		return;
	for (k = 0; k < jl->ns; k++)
		for (i = 0; i < INTERVAL_NHIST; i++)
			hdr_free(jl->s[k].h[i]);
	for (i = 0; i < jl->n; i++)
		free(jl->in[i].buf);
	progress_sum_free(jl->prog);
	if (jl->iv.hlog != NULL)
		fclose(jl->iv.hlog);
	free(jl->iv.hlog_path);
	free(jl->in);
	free(jl->s);
	free(jl);
}
