/*
 * HTTP/2 statistics collector (see h2_stat.h).  A connection's counters
 * live in its HTTP/2 state (core/conn_h2.h) and are added here when it is
 * destroyed; the report adds those of the connections still open.  The
 * errors come from the failure events and their causes (H2_ERR_*).
 * A --sweep step's collector starts mid-run: what the connections open
 * at its start had counted by then is their base, taken off when they
 * are added, so that a step counts only its own streams, frames and
 * header bytes (the most streams open at once stays the connection's
 * whole life's).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/conn_h2.h"
#include "core/core.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/h2_stat.h"
#include "stat/stat_merge.h"

/* A connection open at the start, and its counters then. */
struct h2_base {
	uint64_t	 id;
	struct h2_stats	 s;
};

struct h2_stat {
	struct core	*core;
	struct h2_totals t;		/* of the connections destroyed */
	struct h2_base	*base;		/* by id, ascending */
	size_t		 nbase;
};

const char *const h2_stat_err_name[H2_STAT_NERR] = {
	[H2_STAT_RESET] = "stream_reset",
	[H2_STAT_REFUSED] = "refused_stream",
	[H2_STAT_GOAWAY] = "goaway",
	[H2_STAT_ALPN] = "alpn",
	[H2_STAT_PROTOCOL] = "protocol",
};

/* Returns the class of cause `err', or -1 for a cause not HTTP/2's. */
static int
h2_stat_class(int err)
{
	switch (err) {
	case H2_ERR_RESET:
		return H2_STAT_RESET;
	case H2_ERR_REFUSED:
		return H2_STAT_REFUSED;
	case H2_ERR_GOAWAY:
		return H2_STAT_GOAWAY;
	case H2_ERR_ALPN:
		return H2_STAT_ALPN;
	case H2_ERR_PROTOCOL:
		return H2_STAT_PROTOCOL;
	default:
		return -1;
	}
}

static int
h2_base_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct h2_base *)a)->id;
	uint64_t y = ((const struct h2_base *)b)->id;

	return x < y ? -1 : x > y;
}

/* Connection c's counters at the start, or NULL: opened since. */
static const struct h2_stats *
h2_stat_base(const struct h2_stat *st, const struct conn *c)
{
	const struct h2_base *b;
	struct h2_base key;

	if (st->nbase == 0)
		return NULL;
	key.id = c->id;
	b = bsearch(&key, st->base, st->nbase, sizeof(*st->base),
	    h2_base_cmp);
	return b != NULL ? &b->s : NULL;
}

/* Adds connection c's counters s, less their base. */
static void
h2_stat_add(const struct h2_stat *st, struct h2_totals *t,
    const struct conn *c, const struct h2_stats *s)
{
	static const struct h2_stats zero;
	const struct h2_stats *b = h2_stat_base(st, c);
	uint64_t streams;

	if (b == NULL)
		b = &zero;
	streams = s->streams - b->streams;
	t->streams += streams;
	if (streams > t->streams_max)
		t->streams_max = streams;
	if (s->max_concurrent > t->max_concurrent)
		t->max_concurrent = s->max_concurrent;
	t->rst_recv += s->rst_recv - b->rst_recv;
	t->rst_sent += s->rst_sent - b->rst_sent;
	t->goaway_recv += s->goaway_recv - b->goaway_recv;
	t->stalls += s->stalls - b->stalls;
	t->hdr_sent_raw += s->hdr_sent_raw - b->hdr_sent_raw;
	t->hdr_sent_enc += s->hdr_sent_enc - b->hdr_sent_enc;
	t->hdr_recv_raw += s->hdr_recv_raw - b->hdr_recv_raw;
	t->hdr_recv_enc += s->hdr_recv_enc - b->hdr_recv_enc;
}

static void
h2_stat_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct h2_stat *st = ctx;
	struct conn *c;
	struct call *call;
	const struct h2_stats *s;
	int k;

	switch (ev) {
	case BUS_CONN_CONNECTED:
		c = obj;
		if (c->h2 == NULL)
			st->t.conns_http11++;
		else if (h2_conn_tls(c))
			st->t.conns_h2++;
		else
			st->t.conns_h2c++;
		break;
	case BUS_CONN_DESTROYED:
		c = obj;
		if ((s = h2_conn_stats(c)) != NULL)
			h2_stat_add(st, &st->t, c, s);
		break;
	case BUS_CONN_FAILED:
		c = obj;
		k = h2_stat_class((int)arg.i);
		/* ALPN fails before the connection is HTTP/2. */
		if (k >= 0 && (c->h2 != NULL || k == H2_STAT_ALPN))
			st->t.errors[k]++;
		break;
	case BUS_CALL_FAILED:
		call = obj;
		k = h2_stat_class((int)arg.i);
		/* No connection: one not processed, never answered. */
		if (k >= 0 && (call->conn == NULL || call->conn->h2 != NULL))
			st->t.errors[k]++;
		break;
	default:
		break;
	}
}

/* The totals so far: the destroyed connections' and the live ones'. */
static void
h2_stat_totals(const struct h2_stat *st, struct h2_totals *t)
{
	const struct conn *c;
	const struct h2_stats *s;

	*t = st->t;
	if (st->core == NULL)		/* --merge */
		return;
	for (c = st->core->live; c != NULL; c = c->live_next)
		if ((s = h2_conn_stats(c)) != NULL)
			h2_stat_add(st, t, c, s);
}

/* Percent saved by compressing `raw' bytes into `enc'. */
static double
h2_stat_saved(uint64_t raw, uint64_t enc)
{
	if (raw == 0)
		return 0;
	return 100.0 * ((double)raw - (double)enc) / (double)raw;
}

void
h2_stat_print(const struct h2_totals *t, FILE *out)
{
	uint64_t h2conns = t->conns_h2 + t->conns_h2c;

	fprintf(out, "HTTP/2: connections %llu (h2 %llu h2c %llu http/1.1 "
	    "%llu), streams %llu, streams/conn %.1f max %llu, max "
	    "concurrent %llu\n",
	    (unsigned long long)(h2conns + t->conns_http11),
	    (unsigned long long)t->conns_h2, (unsigned long long)t->conns_h2c,
	    (unsigned long long)t->conns_http11,
	    (unsigned long long)t->streams,
	    basic_ratio((double)t->streams, (double)h2conns),
	    (unsigned long long)t->streams_max,
	    (unsigned long long)t->max_concurrent);
	fprintf(out, "HTTP/2 frames: RST_STREAM received %llu sent %llu, "
	    "GOAWAY received %llu, flow-control stalls %llu\n",
	    (unsigned long long)t->rst_recv, (unsigned long long)t->rst_sent,
	    (unsigned long long)t->goaway_recv,
	    (unsigned long long)t->stalls);
	fprintf(out, "HTTP/2 header compression: sent %llu B as %llu B "
	    "(%.2f%% saved), received %llu B as %llu B (%.2f%% saved)\n",
	    (unsigned long long)t->hdr_sent_raw,
	    (unsigned long long)t->hdr_sent_enc,
	    h2_stat_saved(t->hdr_sent_raw, t->hdr_sent_enc),
	    (unsigned long long)t->hdr_recv_raw,
	    (unsigned long long)t->hdr_recv_enc,
	    h2_stat_saved(t->hdr_recv_raw, t->hdr_recv_enc));
	fprintf(out, "HTTP/2 errors: stream-reset %llu refused-stream %llu "
	    "goaway %llu alpn %llu protocol %llu\n",
	    (unsigned long long)t->errors[H2_STAT_RESET],
	    (unsigned long long)t->errors[H2_STAT_REFUSED],
	    (unsigned long long)t->errors[H2_STAT_GOAWAY],
	    (unsigned long long)t->errors[H2_STAT_ALPN],
	    (unsigned long long)t->errors[H2_STAT_PROTOCOL]);
}

/*
 * The counts of stats.h2, in the order they are written; --merge adds
 * them up, or takes the largest (`max', the per-connection maxima).
 */
static const struct {
	const char	*key;
	size_t		 off;		/* in struct h2_totals */
	int		 max;
} h2_count[] = {
	{ "conns_h2", offsetof(struct h2_totals, conns_h2), 0 },
	{ "conns_h2c", offsetof(struct h2_totals, conns_h2c), 0 },
	{ "conns_http11", offsetof(struct h2_totals, conns_http11), 0 },
	{ "streams", offsetof(struct h2_totals, streams), 0 },
	{ "streams_max", offsetof(struct h2_totals, streams_max), 1 },
	{ "max_concurrent", offsetof(struct h2_totals, max_concurrent), 1 },
	{ "rst_stream_received", offsetof(struct h2_totals, rst_recv), 0 },
	{ "rst_stream_sent", offsetof(struct h2_totals, rst_sent), 0 },
	{ "goaway_received", offsetof(struct h2_totals, goaway_recv), 0 },
	{ "flow_control_stalls", offsetof(struct h2_totals, stalls), 0 },
	{ "header_sent_bytes", offsetof(struct h2_totals, hdr_sent_raw), 0 },
	{ "header_sent_encoded_bytes",
	    offsetof(struct h2_totals, hdr_sent_enc), 0 },
	{ "header_received_bytes",
	    offsetof(struct h2_totals, hdr_recv_raw), 0 },
	{ "header_received_encoded_bytes",
	    offsetof(struct h2_totals, hdr_recv_enc), 0 },
};
#define H2_K_ERRORS	"errors"

/* Count i of t. */
static uint64_t *
h2_count_of(struct h2_totals *t, size_t i)
{
	return (uint64_t *)(void *)((char *)t + h2_count[i].off);
}

void
h2_stat_json(const struct h2_totals *t, struct jsonw *w)
{
	size_t i;

	jsonw_obj_begin(w);
	for (i = 0; i < nitems(h2_count); i++)
		jsonw_ku64(w, h2_count[i].key, *(const uint64_t *)(const void *)
		    ((const char *)t + h2_count[i].off));
	jsonw_key(w, H2_K_ERRORS);
	jsonw_obj_begin(w);
	for (i = 0; i < H2_STAT_NERR; i++)
		jsonw_ku64(w, h2_stat_err_name[i], t->errors[i]);
	jsonw_obj_end(w);
	jsonw_obj_end(w);
}

/* The collector interface (stat/collector.h). */

static int
h2_stat_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	static const enum bus_event evs[] = {
		BUS_CONN_CONNECTED, BUS_CONN_DESTROYED, BUS_CONN_FAILED,
		BUS_CALL_FAILED,
	};
	struct h2_stat *st = xcalloc(1, sizeof(*st));
	size_t i;

	*state = st;
	if (env->core == NULL)
		return 0;
	st->core = env->core;
	for (i = 0; i < nitems(evs); i++)
		bus_subscribe(env->bus, evs[i], h2_stat_event, st);
	return 0;
}

/* The counters of the connections open at the start are their base. */
static void
h2_stat_col_start(void *state, uint64_t now)
{
	struct h2_stat *st = state;
	const struct conn *c;
	const struct h2_stats *s;
	size_t n = 0;

	for (c = st->core->live; c != NULL; c = c->live_next)
		n += h2_conn_stats(c) != NULL;
	if (n == 0)
		return;
	st->base = xreallocarray(NULL, n, sizeof(*st->base));
	for (c = st->core->live; c != NULL; c = c->live_next)
		if ((s = h2_conn_stats(c)) != NULL) {
			st->base[st->nbase].id = c->id;
			st->base[st->nbase++].s = *s;
		}
	qsort(st->base, st->nbase, sizeof(*st->base), h2_base_cmp);
}

static void
h2_stat_col_extra(void *state, FILE *out, const struct collector_run *run)
{
	struct h2_totals t;

	h2_stat_totals(state, &t);
	h2_stat_print(&t, out);
}

static void
h2_stat_col_json(void *state, struct jsonw *w,
    const struct collector_run *run)
{
	struct h2_totals t;

	h2_stat_totals(state, &t);
	h2_stat_json(&t, w);
}

static void
h2_stat_col_fini(void *state)
{
	struct h2_stat *st = state;

	free(st->base);
	free(st);
}

/* --merge: counts added, the per-connection maxima the largest. */
static void
h2_stat_col_merge(void *state, struct collector_merge *mg)
{
	struct h2_totals *t = &((struct h2_stat *)state)->t;
	char path[64];
	size_t i;

	for (i = 0; i < nitems(h2_count); i++)
		if (h2_count[i].max)
			stat_merge_max(mg, h2_count[i].key, h2_count_of(t, i));
		else
			stat_merge_add(mg, h2_count[i].key, h2_count_of(t, i));
	for (i = 0; i < H2_STAT_NERR; i++) {
		snprintf(path, sizeof(path), H2_K_ERRORS ".%s",
		    h2_stat_err_name[i]);
		stat_merge_add(mg, path, &t->errors[i]);
	}
}

const struct collector h2_stat_collector = {
	.name = "h2",
	.init = h2_stat_col_init,
	.start = h2_stat_col_start,
	.extra = h2_stat_col_extra,
	.json = h2_stat_col_json,
	.merge = h2_stat_col_merge,
	.fini = h2_stat_col_fini,
};
