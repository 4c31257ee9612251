/*
 * httperf --merge (see merge.h for the rules).  Each file is read whole,
 * parsed by the strict reader (jsonr.h), checked against the first file
 * and added into the collectors' own structs, which are then printed and
 * written by the collectors' own functions: the merged report is the one
 * a run with those totals prints, line for line.
 *
 * Every member is read by its full path, so a refusal names it: "PROG:
 * --merge: FILE: stats.basic.requests.total: missing or not an unsigned
 * integer".  Nothing in a file is trusted: sums that would overflow are
 * refused, strings are copied with bounds, histograms are decoded by the
 * hardened decoder.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "opt/options.h"
#include "report/html.h"
#include "report/html_out.h"
#include "report/merge.h"
#include "report/result.h"
#include "stat/stat_json.h"

/* Reading one file: where messages go, and the first fault only. */
struct mrd {
	struct merge	*m;
	const struct jv	*root;
	const char	*path;
	const char	*prog;
	FILE		*err;
	int		 failed;
	int		 first;		/* the first file */
};

static void __attribute__((format(printf, 3, 4)))
mfail(struct mrd *r, const char *field, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	r->failed = 1;
	fprintf(r->err, "%s: --merge: ", r->prog);
	util_put_escaped(r->err, r->path, strlen(r->path));
	if (field != NULL)
		fprintf(r->err, ": %s", field);
	fputs(": ", r->err);
	va_start(ap, fmt);
	vfprintf(r->err, fmt, ap);
	va_end(ap);
	putc('\n', r->err);
}

/* The member at `path' (dotted) of the document. */
static const struct jv *
rd(struct mrd *r, const char *path)
{
	return jv_path(r->root, path);
}

static uint64_t
rd_u64(struct mrd *r, const char *path)
{
	uint64_t v = 0;

	if (jv_u64(rd(r, path), &v) == -1)
		mfail(r, path, "missing or not an unsigned integer");
	return v;
}

static double
rd_num(struct mrd *r, const char *path)
{
	double v = 0;

	if (jv_num(rd(r, path), &v) == -1 || v < 0)
		mfail(r, path, "missing or not a number at least 0");
	return v;
}

/* *acc += the u64 at path, refusing an overflow. */
static void
add_u64(struct mrd *r, const char *path, uint64_t *acc)
{
	uint64_t v = rd_u64(r, path);

	if (v > UINT64_MAX - *acc)
		mfail(r, path, "the sum overflows");
	else
		*acc += v;
}

/* Whether two values are the same JSON (numbers by value). */
static int
jv_equal(const struct jv *a, const struct jv *b)
{
	const char *sa, *sb;
	size_t la, lb, i;
	double da, db;
	uint64_t ua, ub;
	int ba, bb;

	if (jv_type(a) != jv_type(b))
		return 0;
	switch (jv_type(a)) {
	case JV_NULL:
		return 1;
	case JV_BOOL:
		jv_bool(a, &ba);
		jv_bool(b, &bb);
		return ba == bb;
	case JV_NUM:
		if (jv_u64(a, &ua) == 0 && jv_u64(b, &ub) == 0)
			return ua == ub;
		jv_num(a, &da);
		jv_num(b, &db);
		return da == db;
	case JV_STR:
		sa = jv_str(a, &la);
		sb = jv_str(b, &lb);
		return la == lb && memcmp(sa, sb, la) == 0;
	case JV_ARR:
		if (jv_len(a) != jv_len(b))
			return 0;
		for (i = 0; i < jv_len(a); i++)
			if (!jv_equal(jv_at(a, i), jv_at(b, i)))
				return 0;
		return 1;
	case JV_OBJ:
		if (jv_len(a) != jv_len(b))
			return 0;
		for (i = 0; i < jv_len(a); i++)
			if (!jv_equal(jv_at(a, i), jv_get(b, jv_key_at(a, i))))
				return 0;
		return 1;
	}
	return 0;
}

static int
may_differ(const char *name)
{
	size_t i;

	for (i = 0; options_merge_may_differ[i] != NULL; i++)
		if (strcmp(options_merge_may_differ[i], name) == 0)
			return 1;
	return 0;
}

/* The options define the workload: they must be the first file's. */
static void
rd_options(struct mrd *r)
{
	const struct jv *o = rd(r, "options"), *o0 = r->m->options;
	const char *k;
	char field[128];
	size_t i;

	if (jv_type(o) != JV_OBJ) {
		mfail(r, "options", "missing or not an object");
		return;
	}
	if (r->first) {
		r->m->options = o;
		return;
	}
	for (i = 0; i < jv_len(o) && !r->failed; i++) {
		k = jv_key_at(o, i);
		snprintf(field, sizeof(field), "options.%s", k);
		if (may_differ(k))
			continue;
		if (jv_get(o0, k) == NULL)
			mfail(r, field, "not in %s (a different version?)",
			    r->m->first);
		else if (!jv_equal(jv_at(o, i), jv_get(o0, k)))
			mfail(r, field, "differs from %s: the files must be "
			    "runs of the same workload", r->m->first);
	}
	for (i = 0; i < jv_len(o0) && !r->failed; i++) {
		k = jv_key_at(o0, i);
		snprintf(field, sizeof(field), "options.%s", k);
		if (!may_differ(k) && jv_get(o, k) == NULL)
			mfail(r, field, "missing (it is in %s)", r->m->first);
	}
}

static int
id_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/*
 * Adds the file's client ids (below n) to the merge's, refusing one that
 * is already there: the file's sorted, then merged with the merge's
 * sorted ones, so O(k log k + n) for k ids in the file.
 */
static int
rd_ids(struct mrd *r, const struct jv *ids, uint64_t n)
{
	struct merge *m = r->m;
	unsigned *v, *out, dup;
	size_t k = jv_len(ids), i, a, b, o;
	uint64_t id;
	int found = 0;

	v = xreallocarray(NULL, k, sizeof(*v));
	for (i = 0; i < k; i++) {
		if (jv_u64(jv_at(ids, i), &id) == -1 || id >= n) {
			mfail(r, "client.ids", "an id is not below client.count");
			free(v);
			return -1;
		}
		v[i] = (unsigned)id;
	}
	qsort(v, k, sizeof(*v), id_cmp);
	out = xreallocarray(NULL, m->nids + k, sizeof(*out));
	for (a = b = o = 0; a < m->nids || b < k; ) {
		if (b == k || (a < m->nids && m->ids[a] < v[b]))
			out[o++] = m->ids[a++];
		else if ((a < m->nids && m->ids[a] == v[b]) ||
		    (o > 0 && out[o - 1] == v[b])) {
			found = 1;
			dup = v[b];
			break;
		} else
			out[o++] = v[b++];
	}
	free(v);
	if (found) {
		free(out);
		mfail(r, "client.ids", "client %u/%u is also in an earlier "
		    "file or twice in this one (each process needs its own "
		    "--client I/N)", dup, m->num_clients);
		return -1;
	}
	free(m->ids);
	m->ids = out;
	m->nids = o;
	return 0;
}

/* The head: format, window, clients, host. */
static void
rd_head(struct mrd *r)
{
	struct merge *m = r->m;
	const struct jv *ids;
	const char *s, *host;
	uint64_t start, dur, n, lo, hi;
	size_t i;

	s = jv_str(rd(r, "format"), NULL);
	if (s == NULL || strcmp(s, RESULT_FORMAT) != 0) {
		mfail(r, "format", "not an httperf result (expected \"%s\")",
		    RESULT_FORMAT);
		return;
	}
	if (rd_u64(r, "schema_version") != RESULT_SCHEMA_VERSION) {
		mfail(r, "schema_version", "not %d, which this version reads",
		    RESULT_SCHEMA_VERSION);
		return;
	}
	start = rd_u64(r, "start.epoch_ns");
	dur = rd_u64(r, "duration_ns");
	n = rd_u64(r, "client.count");
	if ((host = jv_str(rd(r, "host"), NULL)) == NULL)
		mfail(r, "host", "missing or not a string");
	if (r->first && (m->echo = jv_str(rd(r, "command_line"),
	    NULL)) == NULL)
		mfail(r, "command_line", "missing or not a string");
	if (r->failed)
		return;
	if (dur > UINT64_MAX - start) {
		mfail(r, "duration_ns", "too large");
		return;
	}
	if (n == 0 || n > UINT32_MAX) {
		mfail(r, "client.count", "out of range");
		return;
	}
	if (r->first) {
		m->start_ns = start;
		m->end_ns = start + dur;
		m->num_clients = (unsigned)n;
	} else if (n != m->num_clients) {
		mfail(r, "client.count", "%llu differs from %s's %u",
		    (unsigned long long)n, m->first, m->num_clients);
		return;
	}
	lo = start < m->start_ns ? start : m->start_ns;
	hi = start + dur > m->end_ns ? start + dur : m->end_ns;
	if (!r->first && hi - lo > MERGE_MAX_SPAN_NS) {
		mfail(r, "start.epoch_ns", "with %s's, the runs span %.1f "
		    "days on the wall clock; --merge spans at most %llu days "
		    "(a clock set wrong?)", m->first, (double)(hi - lo) /
		    86400e9, (unsigned long long)(MERGE_MAX_SPAN_NS /
		    (UINT64_C(86400) * 1000000000)));
		return;
	}
	m->start_ns = lo;
	m->end_ns = hi;
	ids = rd(r, "client.ids");
	if (jv_type(ids) != JV_ARR || jv_len(ids) == 0) {
		mfail(r, "client.ids", "missing or not a list of ids");
		return;
	}
	if (rd_ids(r, ids, n) == -1)
		return;
	for (i = 0; i < m->nhosts; i++)
		if (strcmp(m->hostv[i], host) == 0)
			break;
	if (i == m->nhosts) {
		m->hostv = xreallocarray(m->hostv, m->nhosts + 1,
		    sizeof(*m->hostv));
		m->hostv[m->nhosts++] = host;
	}
}

/*
 * Adds the histogram object at `path' into *acc: decoded from its
 * encoding, its settings the first file's, its clamped count added.  A
 * histogram the first file did not have (or the other way round) is
 * refused.
 */
static void
rd_hist(struct mrd *r, const char *path, struct hdr **acc)
{
	const struct jv *o = rd(r, path);
	struct hdr *h;
	const char *enc;
	char field[160];
	size_t len;
	uint64_t v;
	int e;

	if (r->failed)
		return;
	if (o == NULL && (r->first || *acc == NULL))
		return;
	if (o == NULL || (!r->first && *acc == NULL)) {
		mfail(r, path, "%s file has this histogram and %s not",
		    o == NULL ? "the first" : "this", o == NULL ? "this" :
		    "the first");
		return;
	}
	snprintf(field, sizeof(field), "%s.hdr", path);
	if ((enc = jv_str(jv_get(o, "hdr"), &len)) == NULL) {
		mfail(r, field, "missing or not a string");
		return;
	}
	if ((e = hdr_decode_ns(enc, len, &h)) != 0) {
		mfail(r, field, "%s", hdr_strerror(e));
		return;
	}
	snprintf(field, sizeof(field), "%s.lowest_ns", path);
	if (rd_u64(r, field) != (uint64_t)hdr_lowest(h))
		mfail(r, field, "does not match the encoding");
	snprintf(field, sizeof(field), "%s.highest_ns", path);
	if (rd_u64(r, field) != (uint64_t)hdr_highest(h))
		mfail(r, field, "does not match the encoding");
	snprintf(field, sizeof(field), "%s.digits", path);
	if (rd_u64(r, field) != (uint64_t)hdr_digits(h))
		mfail(r, field, "does not match the encoding");
	snprintf(field, sizeof(field), "%s.count", path);
	if (rd_u64(r, field) != hdr_count(h))
		mfail(r, field, "does not match the encoding");
	snprintf(field, sizeof(field), "%s.clamped", path);
	v = rd_u64(r, field);
	if (!r->failed && !r->first && !hdr_same_settings(*acc, h))
		mfail(r, path, "histogram settings (lowest_ns, highest_ns, "
		    "digits) differ from %s's", r->m->first);
	if (!r->failed && !r->first && hdr_add(*acc, h) == -1)
		mfail(r, path, "the counts overflow");
	if (r->failed || !r->first) {
		hdr_free(h);
		h = NULL;
	} else
		*acc = h;
	if (!r->failed)
		hdr_add_clamped(*acc, v);
}

/* Adds a series' samples (`path'.values) into sum, index by index. */
static void
rd_samples(struct mrd *r, const char *path, struct stat_samples *sum)
{
	const struct jv *vals;
	char field[160];
	size_t i, n;
	double d;

	snprintf(field, sizeof(field), "%s.values", path);
	vals = rd(r, field);
	if (jv_type(vals) != JV_ARR) {
		mfail(r, field, "missing or not a list");
		return;
	}
	snprintf(field, sizeof(field), "%s.samples", path);
	if ((n = jv_len(vals)) != rd_u64(r, field)) {
		mfail(r, field, "is not the number of values");
		return;
	}
	if (n > sum->cap) {
		sum->v = xreallocarray(sum->v, n, sizeof(*sum->v));
		sum->cap = n;
	}
	for (; sum->n < n; sum->n++)
		sum->v[sum->n] = 0;
	for (i = 0; i < n; i++) {
		if (jv_num(jv_at(vals, i), &d) == -1 || d < 0) {
			mfail(r, field, "a value is not a number at least 0");
			return;
		}
		sum->v[i] += d;
	}
}

/* A minimum (when the file counted any) and a maximum. */
static void
rd_min_max(struct mrd *r, uint64_t n, uint64_t had, const char *pmin,
    uint64_t *min, const char *pmax, uint64_t *max)
{
	uint64_t lo = rd_u64(r, pmin), hi = rd_u64(r, pmax);

	if (n == 0)
		return;
	if (had == 0 || lo < *min)
		*min = lo;
	if (hi > *max)
		*max = hi;
}

static void
rd_basic(struct mrd *r)
{
	struct basic *b = &r->m->basic;
	struct basic_totals *t = &b->t;
	char field[160];
	uint64_t n, had, v;
	size_t i;

#define B	"stats.basic."
	if (jv_type(rd(r, "stats.basic")) != JV_OBJ) {
		mfail(r, "stats.basic", "missing or not an object");
		return;
	}
	add_u64(r, B "connections.total", &t->conns_issued);
	v = rd_u64(r, B "connections.max_burst");
	if (v > b->burst_max)
		b->burst_max = v;
	add_u64(r, B "connections.max_concurrent", &t->max_concurrent);
	n = rd_u64(r, B "connections.lifetime.n");
	had = t->lifetime_n;
	rd_min_max(r, n, had, B "connections.lifetime.min_ns",
	    &t->lifetime_min, B "connections.lifetime.max_ns",
	    &t->lifetime_max);
	add_u64(r, B "connections.lifetime.n", &t->lifetime_n);
	add_u64(r, B "connections.lifetime.sum_ns", &t->lifetime_sum);
	t->lifetime_sum2 += rd_num(r, B "connections.lifetime.sum2_s2");
	add_u64(r, B "connections.connect.n", &t->connects_n);
	add_u64(r, B "connections.connect.sum_ns", &t->connect_sum);

	add_u64(r, B "requests.total", &t->reqs_sent);
	add_u64(r, B "requests.bytes", &t->req_bytes);
	add_u64(r, B "requests.early", &t->early);
	add_u64(r, B "requests.cut", &t->cut);
	add_u64(r, B "requests.unsent_bytes", &t->unsent_bytes);

	for (i = 0; i < BASIC_NSTATUS; i++) {
		snprintf(field, sizeof(field), B "replies.status.%s",
		    basic_status_name[i]);
		add_u64(r, field, &t->replies[i + 1]);
	}
	rd_samples(r, B "replies.rate_per_s", &r->m->rr_sum);
	add_u64(r, B "replies.responses", &t->responses_n);
	add_u64(r, B "replies.response_sum_ns", &t->response_sum);
	add_u64(r, B "replies.transfer_sum_ns", &t->transfer_sum);
	add_u64(r, B "replies.header_bytes", &t->hdr_bytes);
	add_u64(r, B "replies.content_bytes", &t->content_bytes);
	add_u64(r, B "replies.footer_bytes", &t->footer_bytes);

	r->m->cpu_user += rd_num(r, B "cpu.user_s");
	r->m->cpu_sys += rd_num(r, B "cpu.system_s");
	add_u64(r, B "net.bytes", &b->net_bytes);
	for (i = 0; i < BASIC_ERR_COUNT; i++) {
		snprintf(field, sizeof(field), B "errors.%s",
		    basic_err_name[i]);
		add_u64(r, field, &t->errors[i]);
	}
	add_u64(r, B "announced.connection_close", &t->announced_close);
	add_u64(r, B "announced.goaway", &t->announced_goaway);
	add_u64(r, B "announced.retried", &t->retried);
	/* The histograms: exactly the phases the first file has. */
	for (i = 0; i < jv_len(rd(r, B "histograms")) && !r->failed; i++) {
		size_t k;

		for (k = 0; k < BASIC_NPHASES; k++)
			if (strcmp(jv_key_at(rd(r, B "histograms"), i),
			    basic_phase_json[k]) == 0)
				break;
		if (k == BASIC_NPHASES)
			mfail(r, B "histograms", "%s: a histogram this "
			    "version cannot merge",
			    jv_key_at(rd(r, B "histograms"), i));
	}
	for (i = 0; i < BASIC_NPHASES; i++) {
		snprintf(field, sizeof(field), B "histograms.%s",
		    basic_phase_json[i]);
		rd_hist(r, field, &b->phase[i]);
	}
#undef B
}

static void
rd_sess(struct mrd *r)
{
	struct sess_stat_totals *t = &r->m->sess.t;
	const struct jv *len;
	uint64_t v;
	size_t i, n, cap;
	int ck;

#define S	"stats.sess_stat."
	add_u64(r, S "completed", &t->completed);
	add_u64(r, S "failed", &t->failed);
	add_u64(r, S "conns", &t->conns);
	add_u64(r, S "lifetime_sum_ns", &t->lifetime_sum);
	add_u64(r, S "failtime_sum_ns", &t->failtime_sum);
	add_u64(r, S "cookies_ignored", &t->cookies_ignored);
	if (jv_bool(rd(r, S "cookies"), &ck) == -1)
		mfail(r, S "cookies", "missing or not a boolean");
	t->cookies |= ck;
	rd_samples(r, S "rate_per_s", &r->m->sess_sum);
	len = rd(r, S "length_histogram");
	if (jv_type(len) != JV_ARR) {
		mfail(r, S "length_histogram", "missing or not a list");
		return;
	}
	n = jv_len(len);
	if (n > t->len_cap) {
		cap = n;
		t->len_hist = xreallocarray(t->len_hist, cap,
		    sizeof(*t->len_hist));
		memset(t->len_hist + t->len_cap, 0,
		    (cap - t->len_cap) * sizeof(*t->len_hist));
		t->len_cap = cap;
	}
	if (n > t->len_n)
		t->len_n = n;
	for (i = 0; i < n && !r->failed; i++) {
		if (jv_u64(jv_at(len, i), &v) == -1 ||
		    v > UINT64_MAX - t->len_hist[i])
			mfail(r, S "length_histogram", "an entry is not an "
			    "unsigned integer, or the sum overflows");
		else
			t->len_hist[i] += v;
	}
#undef S
}

static void
rd_tls(struct mrd *r)
{
	struct tls_stat *st = &r->m->tls;
	const char *s;
	uint64_t n, had = st->handshakes;

#define T	"stats.tls_stat."
	n = rd_u64(r, T "handshakes");
	rd_min_max(r, n, had, T "time_min_ns", &st->time_min,
	    T "time_max_ns", &st->time_max);
	add_u64(r, T "handshakes", &st->handshakes);
	add_u64(r, T "resumed", &st->resumed);
	add_u64(r, T "failed", &st->failed);
	add_u64(r, T "time_sum_ns", &st->time_sum);
	rd_hist(r, T "time", &st->time);
	if (!r->failed && st->time == NULL)
		mfail(r, T "time", "missing");
	/* The last file's that has them, like the last handshake. */
	if ((s = jv_str(rd(r, T "protocol"), NULL)) != NULL)
		snprintf(st->version, sizeof(st->version), "%s", s);
	if ((s = jv_str(rd(r, T "cipher"), NULL)) != NULL)
		snprintf(st->cipher, sizeof(st->cipher), "%s", s);
#undef T
}

/* HTTP/2: counts added, the per-connection maxima the largest. */
static void
rd_h2(struct mrd *r)
{
	struct h2_totals *t = &r->m->h2;
	char path[64];
	uint64_t v;
	size_t i;

#define H	"stats.h2."
	add_u64(r, H "conns_h2", &t->conns_h2);
	add_u64(r, H "conns_h2c", &t->conns_h2c);
	add_u64(r, H "conns_http11", &t->conns_http11);
	add_u64(r, H "streams", &t->streams);
	if ((v = rd_u64(r, H "streams_max")) > t->streams_max)
		t->streams_max = v;
	if ((v = rd_u64(r, H "max_concurrent")) > t->max_concurrent)
		t->max_concurrent = v;
	add_u64(r, H "rst_stream_received", &t->rst_recv);
	add_u64(r, H "rst_stream_sent", &t->rst_sent);
	add_u64(r, H "goaway_received", &t->goaway_recv);
	add_u64(r, H "flow_control_stalls", &t->stalls);
	add_u64(r, H "header_sent_bytes", &t->hdr_sent_raw);
	add_u64(r, H "header_sent_encoded_bytes", &t->hdr_sent_enc);
	add_u64(r, H "header_received_bytes", &t->hdr_recv_raw);
	add_u64(r, H "header_received_encoded_bytes", &t->hdr_recv_enc);
	for (i = 0; i < H2_STAT_NERR; i++) {
		snprintf(path, sizeof(path), H "errors.%s",
		    h2_stat_err_name[i]);
		add_u64(r, path, &t->errors[i]);
	}
#undef H
}

/*
 * The proxy lines: counts and the tunnel setup histogram added; the mode
 * must be the same in every file; the proxy's name and the last refusal's
 * status are the last file's that has one.
 */
static void
rd_proxy(struct mrd *r)
{
	struct proxy_stat *st = &r->m->proxy;
	const char *s, *mode;
	uint64_t status;
	size_t len, i;

#define P	"stats.proxy."
	if ((mode = jv_str(rd(r, P "mode"), NULL)) == NULL ||
	    (strcmp(mode, "connect") != 0 && strcmp(mode, "absolute-form") != 0
	    && strcmp(mode, "none") != 0)) {
		mfail(r, P "mode", "missing or not connect, absolute-form or "
		    "none");
		return;
	}
	if (r->first)
		st->tunnel = strcmp(mode, "connect") == 0;
	else if (st->tunnel != (strcmp(mode, "connect") == 0))
		mfail(r, P "mode", "differs from %s's", r->m->first);
	add_u64(r, P "tunnels", &st->tunnels);
	add_u64(r, P "established", &st->established);
	add_u64(r, P "connect_refused", &st->refused);
	status = rd_u64(r, P "last_status");
	if (status > 999)
		mfail(r, P "last_status", "not an HTTP status");
	else if (status != 0)
		st->last_status = (int)status;
	rd_hist(r, P "tunnel_setup", &st->setup);
	if (!r->failed && st->setup == NULL)
		mfail(r, P "tunnel_setup", "missing");
	if ((s = jv_str(rd(r, P "proxy"), &len)) != NULL && !r->failed) {
		/* It goes into the report: a name, not terminal controls. */
		for (i = 0; i < len; i++)
			if ((unsigned char)s[i] < ' ' || s[i] == 0x7f ||
			    len > 300) {
				mfail(r, P "proxy", "not a host:port");
				return;
			}
		free(st->proxy);
		st->proxy = xmalloc(len + 1);
		memcpy(st->proxy, s, len);
		st->proxy[len] = '\0';
	}
#undef P
}

/*
 * The schedule: counts and histograms added, target rates added, the
 * span the union of the files' on the wall clock (see merge.h).
 */
static void
rd_sched(struct mrd *r)
{
	struct merge *m = r->m;
	struct sched_stat *st = &m->sched;
	uint64_t epoch, sched, made, never, queued, late, thr, t[3];
	double target, cpu = -1;
	int req;

#define SC	"stats.sched."
	if (jv_bool(rd(r, SC "requests"), &req) == -1)
		mfail(r, SC "requests", "missing or not a boolean");
	thr = rd_u64(r, SC "threshold_ns");
	sched = rd_u64(r, SC "scheduled");
	made = rd_u64(r, SC "made");
	never = rd_u64(r, SC "never_sent");
	queued = rd_u64(r, SC "never_sent_queued");
	late = rd_u64(r, SC "late");
	target = rd_num(r, SC "target_rate_per_s");
	if (jv_type(rd(r, SC "cpu_pct")) != JV_NULL)
		cpu = rd_num(r, SC "cpu_pct");
	t[0] = rd_u64(r, SC "first_ns");
	t[1] = rd_u64(r, SC "sched_last_ns");
	t[2] = rd_u64(r, SC "actual_last_ns");
	epoch = rd_u64(r, "start.epoch_ns");
	if (r->failed)
		return;
	if (made > sched || never != sched - made || queued > never ||
	    late > made + queued) {
		mfail(r, "stats.sched", "the counts do not add up (scheduled "
		    "= made + never_sent, never_sent_queued <= never_sent, "
		    "late <= made + never_sent_queued)");
		return;
	}
	if (t[0] > t[1] || t[1] > UINT64_MAX - epoch ||
	    t[2] > UINT64_MAX - epoch) {
		mfail(r, "stats.sched", "first_ns, sched_last_ns, "
		    "actual_last_ns out of range");
		return;
	}
	if (r->first) {
		sched_stat_init(st, NULL, NULL);
		hdr_free(st->late);	/* the first file's comes instead */
		st->late = NULL;
		st->cfg.threshold = thr;
		st->cfg.requests = req;
		m->sched_cpu_pct = -1;
	} else if (thr != st->cfg.threshold) {
		mfail(r, SC "threshold_ns", "%llu differs from %s's %llu "
		    "(their late counts would not add up)",
		    (unsigned long long)thr, m->first,
		    (unsigned long long)st->cfg.threshold);
		return;
	} else if (req != st->cfg.requests) {
		mfail(r, SC "requests", "differs from %s's", m->first);
		return;
	}
	rd_hist(r, SC "lateness", &st->late);
	if (!r->failed && st->late == NULL)
		mfail(r, SC "lateness", "missing");
	if (r->failed)
		return;
	/* made - queued, queued, never - queued: as the events counted. */
	if (made + queued < made || st->made + made + queued < st->made ||
	    st->missed + (never - queued) < st->missed ||
	    st->unsent + queued < st->unsent || st->nlate + late < st->nlate) {
		mfail(r, "stats.sched", "the sums overflow");
		return;
	}
	st->made += made + queued;
	st->unsent += queued;
	st->missed += never - queued;
	st->nlate += late;
	st->cfg.rate += target;
	if (cpu > m->sched_cpu_pct)
		m->sched_cpu_pct = cpu;
	if (sched == 0)
		return;
	/* Each file's times since its start, on the wall clock. */
	if (!st->have_first || epoch + t[0] < st->first)
		st->first = epoch + t[0];
	if (!st->have_first || epoch + t[1] > st->sched_last)
		st->sched_last = epoch + t[1];
	if (epoch + t[2] > st->actual_last)
		st->actual_last = epoch + t[2];
	st->have_first = 1;
#undef SC
}

/* The interval histograms' member names, by enum interval_rec_hist. */
static const char *const iv_hist_key[INTERVAL_NREC] = {
	[INTERVAL_R_REPLY] = "reply",
	[INTERVAL_R_CORRECTED] = "reply_corrected",
	[INTERVAL_R_LATENESS] = "lateness",
};

/*
 * Checks histogram `key' of interval `iv' (number i): an encoding that
 * decodes, to the settings of the others, with the count it claims.
 * Returns the decoded histogram (the caller frees it), or NULL after a
 * message.
 */
static struct hdr *
rd_iv_hist(struct mrd *r, const struct jv *iv, size_t i, int k)
{
	struct merge *m = r->m;
	const struct jv *o = jv_get(iv, iv_hist_key[k]);
	char field[160];
	const char *enc;
	struct hdr *h;
	uint64_t count;
	size_t len;
	int e;

	snprintf(field, sizeof(field), "stats.interval.intervals[%zu].%s",
	    i, iv_hist_key[k]);
	if ((enc = jv_str(jv_get(o, "hdr"), &len)) == NULL ||
	    jv_u64(jv_get(o, "count"), &count) == -1) {
		mfail(r, field, "missing, or no count and hdr");
		return NULL;
	}
	if ((e = hdr_decode_ns(enc, len, &h)) != 0) {
		mfail(r, field, "%s", hdr_strerror(e));
		return NULL;
	}
	if (hdr_count(h) != count) {
		mfail(r, field, "count does not match the encoding");
		hdr_free(h);
		return NULL;
	}
	if (m->iv_acc[k] == NULL &&
	    (m->iv_acc[k] = hdr_new(hdr_lowest(h), hdr_highest(h),
	    hdr_digits(h))) == NULL) {
		mfail(r, field, "out of memory");
		hdr_free(h);
		return NULL;
	}
	if (!hdr_same_settings(m->iv_acc[k], h)) {
		mfail(r, field, "histogram settings differ from the other "
		    "intervals'");
		hdr_free(h);
		return NULL;
	}
	return h;
}

/*
 * stats.interval: the period and the schedule as the first file's,
 * every interval complete and in time order.  The intervals themselves
 * are added up in merge_finish(), when the merge's start is known.
 */
static void
rd_interval(struct mrd *r)
{
	static const char *const counts[] = { "start_ns", "length_ns",
	    "arrivals", "missed", "conns" };
	struct merge *m = r->m;
	const struct jv *arr, *iv;
	char field[160];
	uint64_t period, v, prev = 0, join = 1, dur;
	double target;
	size_t i, k;
	int sched;
	struct hdr *h;

#define IV	"stats.interval."
	period = rd_u64(r, IV "period_ns");
	target = rd_num(r, IV "target_rate_per_s");
	arr = rd(r, IV "intervals");
	if (r->failed)
		return;
	if (period == 0) {
		mfail(r, IV "period_ns", "is 0");
		return;
	}
	/* Written since the intervals kept are bounded; 1 before. */
	if (rd(r, IV "joined") != NULL && ((join = rd_u64(r, IV "joined")) ==
	    0 || join > INT64_MAX / period)) {
		mfail(r, IV "joined", "out of range");
		return;
	}
	dur = rd_u64(r, "duration_ns");
	if (jv_type(arr) != JV_ARR) {
		mfail(r, IV "intervals", "missing or not an array");
		return;
	}
	sched = target > 0;
	if (r->first) {
		m->iv_period = period;
		m->iv_sched = sched;
	} else if (period != m->iv_period) {
		mfail(r, IV "period_ns", "%llu differs from %s's %llu "
		    "(--interval)", (unsigned long long)period, m->first,
		    (unsigned long long)m->iv_period);
		return;
	} else if (sched != m->iv_sched) {
		mfail(r, IV "target_rate_per_s", "a schedule in one of this "
		    "file and %s only", m->first);
		return;
	}
	for (i = 0; i < jv_len(arr) && !r->failed; i++) {
		iv = jv_at(arr, i);
		for (k = 0; k < nitems(counts); k++) {
			snprintf(field, sizeof(field), IV "intervals[%zu].%s",
			    i, counts[k]);
			if (jv_u64(jv_get(iv, counts[k]), &v) == -1) {
				mfail(r, field, "missing or not an unsigned "
				    "integer");
				break;
			}
			if (k == 0 && (v < prev || v > INT64_MAX)) {
				mfail(r, field, "out of order or too large");
				break;
			}
			/* The last interval starts before the end. */
			if (k == 0 && v > dur) {
				mfail(r, field, "past the run's end "
				    "(duration_ns)");
				break;
			}
			if (k == 0)
				prev = v;
		}
		for (k = 0; k < BASIC_NSTATUS && !r->failed; k++)
			if (jv_u64(jv_get(jv_get(iv, "replies"),
			    basic_status_name[k]), &v) == -1) {
				snprintf(field, sizeof(field),
				    IV "intervals[%zu].replies.%s", i,
				    basic_status_name[k]);
				mfail(r, field, "missing or not an unsigned "
				    "integer");
			}
		for (k = 0; k < BASIC_ERR_COUNT && !r->failed; k++)
			if (jv_u64(jv_get(jv_get(iv, "errors"),
			    basic_err_name[k]), &v) == -1) {
				snprintf(field, sizeof(field),
				    IV "intervals[%zu].errors.%s", i,
				    basic_err_name[k]);
				mfail(r, field, "missing or not an unsigned "
				    "integer");
			}
		for (k = 0; k < INTERVAL_NREC && !r->failed; k++) {
			if (k != INTERVAL_R_REPLY && !sched)
				continue;
			if ((h = rd_iv_hist(r, iv, i, (int)k)) != NULL)
				hdr_free(h);
		}
	}
	if (r->failed)
		return;
	m->iv_target += target;
	if (join > m->iv_join)
		m->iv_join = join;
	m->ivf = xreallocarray(m->ivf, m->nivf + 1, sizeof(*m->ivf));
	m->ivf[m->nivf].arr = arr;
	m->ivf[m->nivf].start_ns = rd_u64(r, "start.epoch_ns");
	m->nivf++;
#undef IV
}

/* a += b, stopping at the largest value (the files were checked). */
static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * The slot of the merge (join periods from its start, on the wall clock)
 * interval iv of file f starts in.
 */
static uint64_t
iv_index(const struct merge *m, const struct merge_ivfile *f,
    const struct jv *iv)
{
	uint64_t start = 0;

	(void)jv_u64(jv_get(iv, "start_ns"), &start);
	return (f->start_ns - m->start_ns + start) / (m->iv_period *
	    m->iv_join);
}

/* Adds interval iv of a file into record r (its histograms into acc). */
static void
iv_add(struct merge *m, struct interval_rec *rec, const struct jv *iv)
{
	const struct jv *o;
	const char *enc;
	struct hdr *h;
	uint64_t v;
	size_t k, len;

#define ADD(name, field) \
	if (jv_u64(jv_get(iv, name), &v) == 0) \
		rec->c.field = sat_add(rec->c.field, v)
	ADD("arrivals", arrivals);
	ADD("missed", missed);
	ADD("conns", conns);
#undef ADD
	for (k = 0; k < BASIC_NSTATUS; k++)
		if (jv_u64(jv_get(jv_get(iv, "replies"),
		    basic_status_name[k]), &v) == 0)
			rec->c.replies[k + 1] = sat_add(rec->c.replies[k + 1],
			    v);
	for (k = 0; k < BASIC_ERR_COUNT; k++)
		if (jv_u64(jv_get(jv_get(iv, "errors"), basic_err_name[k]),
		    &v) == 0)
			rec->c.errors[k] = sat_add(rec->c.errors[k], v);
	for (k = 0; k < INTERVAL_NREC; k++) {
		o = jv_get(iv, iv_hist_key[k]);
		if (m->iv_acc[k] == NULL || (enc = jv_str(jv_get(o, "hdr"),
		    &len)) == NULL || hdr_decode_ns(enc, len, &h) != 0)
			continue;
		/* Checked by rd_iv_hist(); an overflow past INT64_MAX
		   values leaves the sum as it was. */
		(void)hdr_add(m->iv_acc[k], h);
		hdr_free(h);
	}
}

/*
 * The merged intervals: slot j (m->iv_join periods long) holds every
 * file's interval that starts in it, on the wall clock from the merge's
 * start.  Only slots some interval falls in are made, in order, each
 * file's intervals followed with a cursor, so that the work and the
 * memory follow the intervals the files hold, not the span between
 * them, and only one set of histograms is ever held; at most
 * INTERVAL_MAX_RECS are kept (interval_recs_add() joins neighbours).
 */
static void
merge_intervals(struct merge *m)
{
	uint64_t d = m->end_ns - m->start_ns, slot, j, end;
	struct interval_rec rec;
	size_t f, k, *cur;
	const struct jv *arr;
	int any;

	if (m->iv_join == 0)
		m->iv_join = 1;
	slot = m->iv_period * m->iv_join;
	interval_recs_init(&m->ivrecs, m->iv_period, m->iv_join,
	    INTERVAL_MAX_RECS);
	cur = xcalloc(m->nivf, sizeof(*cur));
	for (;;) {
		/* The earliest slot any file's next interval is in. */
		any = 0;
		j = 0;
		for (f = 0; f < m->nivf; f++) {
			arr = m->ivf[f].arr;
			if (cur[f] < jv_len(arr) && (!any || iv_index(m,
			    &m->ivf[f], jv_at(arr, cur[f])) < j)) {
				j = iv_index(m, &m->ivf[f], jv_at(arr, cur[f]));
				any = 1;
			}
		}
		if (!any)
			break;
		memset(&rec, 0, sizeof(rec));
		for (k = 0; k < INTERVAL_NREC; k++)
			if (m->iv_acc[k] != NULL)
				hdr_reset(m->iv_acc[k]);
		for (f = 0; f < m->nivf; f++) {
			arr = m->ivf[f].arr;
			while (cur[f] < jv_len(arr) && iv_index(m, &m->ivf[f],
			    jv_at(arr, cur[f])) <= j)
				iv_add(m, &rec, jv_at(arr, cur[f]++));
		}
		rec.start = j * slot;
		end = rec.start + slot;
		rec.length = (end < d ? end : d) - (rec.start < d ?
		    rec.start : d);
		for (k = 0; k < INTERVAL_NREC; k++)
			if (m->iv_acc[k] != NULL)
				interval_sum_of(&rec.h[k], m->iv_acc[k]);
		/* A last slot cut short by the end to a sliver: joined
		   to the interval before, as a run does. */
		if (m->ivrecs.n > 0 && rec.length < m->iv_period / 4 &&
		    end >= d && m->ivrecs.v[m->ivrecs.n - 1].start +
		    m->ivrecs.v[m->ivrecs.n - 1].length == rec.start)
			interval_rec_join(&m->ivrecs.v[m->ivrecs.n - 1], &rec);
		else
			interval_recs_add(&m->ivrecs, &rec);
		interval_rec_free(&rec);
	}
	free(cur);
}

/* The collectors: the same ones in every file, each one known. */
static void
rd_stats(struct mrd *r)
{
	const struct jv *st = rd(r, "stats");
	struct merge *m = r->m;
	const char *k;
	size_t i;
	int sess, tls, h2, sched, iv, proxy;

	if (jv_type(st) != JV_OBJ) {
		mfail(r, "stats", "missing or not an object");
		return;
	}
	for (i = 0; i < jv_len(st); i++) {
		k = jv_key_at(st, i);
		if (strcmp(k, "basic") != 0 && strcmp(k, "sess_stat") != 0 &&
		    strcmp(k, "tls_stat") != 0 && strcmp(k, "sched") != 0 &&
		    strcmp(k, "h2") != 0 &&
		    strcmp(k, "interval") != 0 && strcmp(k, "proxy") != 0) {
			mfail(r, "stats", "%s: results this version cannot "
			    "merge", k);
			return;
		}
	}
	sess = jv_get(st, "sess_stat") != NULL;
	tls = jv_get(st, "tls_stat") != NULL;
	h2 = jv_get(st, "h2") != NULL;
	sched = jv_get(st, "sched") != NULL;
	iv = jv_get(st, "interval") != NULL;
	proxy = jv_get(st, "proxy") != NULL;
	if (r->first) {
		m->have_proxy = proxy;
		m->have_sess = sess;
		m->have_tls = tls;
		m->have_h2 = h2;
		m->have_sched = sched;
		m->have_interval = iv;
	} else if (proxy != m->have_proxy) {
		mfail(r, "stats.proxy", "in one of this file and %s only",
		    m->first);
		return;
	} else if (sess != m->have_sess || tls != m->have_tls ||
	    h2 != m->have_h2 ||
	    sched != m->have_sched || iv != m->have_interval) {
		mfail(r, sess != m->have_sess ? "stats.sess_stat" :
		    tls != m->have_tls ? "stats.tls_stat" :
		    h2 != m->have_h2 ? "stats.h2" :
		    sched != m->have_sched ? "stats.sched" : "stats.interval",
		    "in one of this file and %s only", m->first);
		return;
	}
	rd_basic(r);
	if (m->have_sess)
		rd_sess(r);
	if (m->have_tls)
		rd_tls(r);
	if (m->have_h2)
		rd_h2(r);
	if (m->have_proxy && !r->failed)
		rd_proxy(r);
	if (m->have_sched && !r->failed)
		rd_sched(r);
	if (m->have_interval && !r->failed)
		rd_interval(r);
}

int
merge_add(struct merge *m, const struct jv *doc, const char *path,
    const char *prog, FILE *err)
{
	struct mrd r;

	memset(&r, 0, sizeof(r));
	r.m = m;
	r.root = doc;
	r.path = path;
	r.prog = prog;
	r.err = err;
	r.first = m->nfiles == 0;
	if (jv_type(doc) != JV_OBJ)
		mfail(&r, NULL, "not an httperf result (not a JSON object)");
	if (r.first)
		m->first = path;
	if (!r.failed)
		rd_head(&r);
	if (!r.failed)
		rd_options(&r);
	if (!r.failed)
		rd_stats(&r);
	m->nfiles++;
	return r.failed ? -1 : 0;
}

void
merge_finish(struct merge *m)
{
	size_t i, len = 0;

	for (i = 0; i < m->rr_sum.n; i++)
		stat_samples_add(&m->basic.t.reply_rate, &m->basic.rr,
		    m->rr_sum.v[i]);
	for (i = 0; i < m->sess_sum.n; i++)
		stat_samples_add(&m->sess.t.rate, &m->sess.t.rate_samples,
		    m->sess_sum.v[i]);
	stat_samples_free(&m->rr_sum);
	stat_samples_free(&m->sess_sum);
	/* The merged document's schedule times are since its start. */
	m->sched.start = m->start_ns;
	if (m->have_interval)
		merge_intervals(m);
	for (i = 0; i < m->nhosts; i++)
		len += strlen(m->hostv[i]) + 1;
	free(m->hosts);
	m->hosts = xcalloc(1, len + 1);
	for (i = 0; i < m->nhosts; i++) {
		if (i > 0)
			strcat(m->hosts, ",");
		strcat(m->hosts, m->hostv[i]);
	}
}

static uint64_t
merge_duration(const struct merge *m)
{
	return m->end_ns - m->start_ns;
}

void
merge_print(struct merge *m, FILE *out)
{
	uint64_t d = merge_duration(m);

	basic_print(&m->basic, out, d, m->cpu_user, m->cpu_sys);
	if (m->have_sess)
		sess_stat_report(out, &m->sess.t, d);
	basic_print_extra(&m->basic, out);
	if (m->have_tls)
		tls_stat_print(&m->tls, out);
	if (m->have_h2)
		h2_stat_print(&m->h2, out);
	if (m->have_proxy)
		proxy_stat_print(&m->proxy, out);
	if (m->have_sched) {
		sched_stat_print(&m->sched, out);
		sched_stat_print_warning(&m->sched, out, m->sched_cpu_pct);
	}
	/* Last, as after a run: the warning of a run that mostly failed. */
	basic_fail_warn(out, &m->basic.t);
}

/* Copies a value of a document into the one being written. */
static void
jv_copy(struct jsonw *w, const struct jv *v)
{
	const char *s;
	size_t i, len;
	uint64_t u;
	int64_t n;
	double d;
	int b;

	switch (jv_type(v)) {
	case JV_NULL:
		jsonw_null(w);
		break;
	case JV_BOOL:
		jv_bool(v, &b);
		jsonw_bool(w, b);
		break;
	case JV_NUM:
		if (jv_u64(v, &u) == 0)
			jsonw_u64(w, u);
		else if (jv_i64(v, &n) == 0)
			jsonw_i64(w, n);
		else {
			jv_num(v, &d);
			jsonw_double(w, d);
		}
		break;
	case JV_STR:
		s = jv_str(v, &len);
		jsonw_strn(w, s, len);
		break;
	case JV_ARR:
		jsonw_arr_begin(w);
		for (i = 0; i < jv_len(v); i++)
			jv_copy(w, jv_at(v, i));
		jsonw_arr_end(w);
		break;
	case JV_OBJ:
		jsonw_obj_begin(w);
		for (i = 0; i < jv_len(v); i++) {
			jsonw_key(w, jv_key_at(v, i));
			jv_copy(w, jv_at(v, i));
		}
		jsonw_obj_end(w);
		break;
	}
}

void
merge_json(struct merge *m, struct jsonw *w, const struct jv *const *docs,
    char *const *paths, size_t nfiles)
{
	struct result_head h;
	uint64_t d = merge_duration(m);
	size_t i;

	memset(&h, 0, sizeof(h));
	h.start_ns = m->start_ns;
	h.duration_ns = d;
	h.num_clients = m->num_clients;
	h.ids = m->ids;
	h.nids = m->nids;
	h.host = m->hosts != NULL ? m->hosts : "";
	h.echo = m->echo != NULL ? m->echo : "";
	jsonw_obj_begin(w);
	result_write_head(w, &h);
	jsonw_key(w, "options");
	jv_copy(w, m->options);
	jsonw_key(w, "stats");
	jsonw_obj_begin(w);
	jsonw_key(w, "basic");
	basic_json(&m->basic, w, d, m->cpu_user, m->cpu_sys);
	if (m->have_sess) {
		jsonw_key(w, "sess_stat");
		sess_stat_json(w, &m->sess.t, d);
	}
	if (m->have_tls) {
		jsonw_key(w, "tls_stat");
		tls_stat_json(&m->tls, w);
	}
	if (m->have_h2) {
		jsonw_key(w, "h2");
		h2_stat_json(&m->h2, w);
	}
	if (m->have_proxy) {
		jsonw_key(w, "proxy");
		proxy_stat_json(&m->proxy, w);
	}
	if (m->have_sched) {
		jsonw_key(w, "sched");
		sched_stat_json(&m->sched, w, m->sched_cpu_pct);
	}
	if (m->have_interval) {
		jsonw_key(w, "interval");
		interval_json_recs(w, m->iv_target, &m->ivrecs);
	}
	jsonw_obj_end(w);
	jsonw_key(w, "merged");
	jsonw_obj_begin(w);
	jsonw_key(w, "files");
	jsonw_arr_begin(w);
	for (i = 0; i < nfiles; i++) {
		jsonw_obj_begin(w);
		jsonw_kstr(w, "path", paths[i]);
		jsonw_kstr(w, "host", jv_str(jv_get(docs[i], "host"), NULL));
		jsonw_kstr(w, "client", jv_str(jv_path(docs[i],
		    "options.client"), NULL));
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
	jsonw_obj_end(w);
	jsonw_obj_end(w);
}

void
merge_free(struct merge *m)
{
	size_t i;

	basic_fini(&m->basic);
	sess_stat_fini(&m->sess);
	tls_stat_fini(&m->tls);
	hdr_free(m->proxy.setup);
	free(m->proxy.proxy);
	sched_stat_fini(&m->sched);
	stat_samples_free(&m->rr_sum);
	stat_samples_free(&m->sess_sum);
	for (i = 0; i < INTERVAL_NREC; i++)
		hdr_free(m->iv_acc[i]);
	interval_recs_free(&m->ivrecs);
	free(m->ivf);
	free(m->ids);
	free(m->hosts);
	free(m->hostv);
	memset(m, 0, sizeof(*m));
}

/* What merge_html_doc needs: the merge and its files. */
struct merge_html_arg {
	struct merge		*m;
	const struct options	*o;
	struct jv *const	*docs;
	size_t			 n;
};

/* The merged document, as --json would write it (html_doc_fn). */
static int
merge_html_doc(FILE *mf, void *arg)
{
	struct merge_html_arg *a = arg;
	struct jsonw w;

	jsonw_init(&w, mf);
	merge_json(a->m, &w, (const struct jv *const *)a->docs,
	    a->o->merge_files, a->n);
	return jsonw_finish(&w);
}

/*
 * Writes the --html page of the merge to f (and closes it): the merged
 * document, made in memory, and each file's as a client.  Returns 0, or
 * -1 after a message.
 */
static int
merge_html(struct merge *m, const struct options *o, FILE *f,
    struct jv *const *docs, size_t n)
{
	struct merge_html_arg a = { m, o, docs, n };
	struct html_client *cl;
	char **labels;
	const char *host;
	uint64_t id;
	size_t i, llen;
	int rv;

	cl = xcalloc(n, sizeof(*cl));
	labels = xcalloc(n, sizeof(*labels));
	for (i = 0; i < n; i++) {
		if (jv_u64(jv_path(docs[i], "client.id"), &id) == -1)
			id = i;
		if ((host = jv_str(jv_get(docs[i], "host"), NULL)) == NULL)
			host = "?";
		llen = strlen(host) + 40;
		labels[i] = xmalloc(llen);
		snprintf(labels[i], llen, "client %llu (%s)",
		    (unsigned long long)id, host);
		cl[i].doc = docs[i];
		cl[i].label = labels[i];
	}
	rv = html_output_doc(o->prog, f, o->html_file, merge_html_doc, &a,
	    cl, n);
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(cl);
	return rv;
}

/* Reads and parses one file; NULL after a message. */
static struct jv *
merge_read(const char *prog, const char *path)
{
	char *text, errbuf[256];
	struct jv *doc;
	size_t len;
	int e;

	if ((e = util_read_file(path, &text, &len)) != 0) {
		fprintf(stderr, "%s: --merge: ", prog);
		util_put_escaped(stderr, path, strlen(path));
		fprintf(stderr, ": %s\n", util_read_strerror(e));
		return NULL;
	}
	doc = jv_parse(text, len, errbuf, sizeof(errbuf));
	free(text);
	if (doc == NULL) {
		fprintf(stderr, "%s: --merge: ", prog);
		util_put_escaped(stderr, path, strlen(path));
		fprintf(stderr, ": not valid JSON: %s\n", errbuf);
	}
	return doc;
}

int
merge_main(const struct options *o)
{
	struct jv **docs;
	struct merge m;
	struct jsonw w;
	FILE *out, *jf = NULL, *hf = NULL;
	size_t i, n = o->n_merge_files;
	int status = 1, to_stdout;

	memset(&m, 0, sizeof(m));
	docs = xcalloc(n, sizeof(*docs));
	if (o->html_file != NULL &&
	    (hf = html_open(o->prog, o->html_file)) == NULL)
		goto out;
	for (i = 0; i < n; i++)
		if ((docs[i] = merge_read(o->prog,
		    o->merge_files[i])) == NULL ||
		    merge_add(&m, docs[i], o->merge_files[i], o->prog,
		    stderr) == -1)
			goto out;
	merge_finish(&m);
	to_stdout = o->json_file != NULL && strcmp(o->json_file, "-") == 0;
	if (o->json_file != NULL) {
		if (to_stdout)
			jf = stdout;
		else if ((jf = fopen(o->json_file, "w")) == NULL) {
			fprintf(stderr, "%s: --json: %s: %s\n", o->prog,
			    o->json_file, strerror(errno));
			goto out;
		}
	}
	out = to_stdout ? stderr : stdout;
	merge_print(&m, out);
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, "%s: cannot write the report\n", o->prog);
		goto out;
	}
	status = 0;
	if (jf != NULL) {
		jsonw_init(&w, jf);
		merge_json(&m, &w, (const struct jv *const *)docs,
		    o->merge_files, n);
		if (jsonw_finish(&w) == -1 ||
		    (jf != stdout && fclose(jf) != 0)) {
			fprintf(stderr, "%s: --json: cannot write %s\n",
			    o->prog, to_stdout ? "to the standard output" :
			    o->json_file);
			status = 1;
		}
		jf = NULL;
	}
	if (hf != NULL) {
		if (merge_html(&m, o, hf, docs, n) == -1)
			status = 1;
		hf = NULL;
	}
out:
	if (jf != NULL && jf != stdout)
		fclose(jf);
	if (hf != NULL)
		fclose(hf);
	merge_free(&m);
	for (i = 0; i < n; i++)
		jv_free(docs[i]);
	free(docs);
	return status;
}
