/*
 * Basic statistics collector (see basic.h): turns events into the totals
 * of the classic report.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/conn_h2.h"
#include "core/sess.h"
#include "lib/hdr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "lib/jsonr.h"
#include "stat/basic.h"
#include "stat/collector.h"
#include "stat/reply.h"
#include "stat/stat_merge.h"

/* The member of its --json part with the histograms (basic_json()). */
#define BASIC_K_HISTOGRAMS	"histograms"

#define BASIC_BIN_NS	UINT64_C(1000000)	/* -v -v bins: 1 ms */
#define BASIC_NBINS	100000			/* up to 100 s, then last */

/* Connects started in the same loop turn `turn' make one burst. */
static void
basic_connecting(struct basic *b, uint64_t turn)
{
	b->t.conns_issued++;
	if (turn != b->burst_turn || b->burst_cur == 0) {
		b->burst_turn = turn;
		b->burst_cur = 0;
	}
	if (++b->burst_cur > b->burst_max)
		b->burst_max = b->burst_cur;
}

/* A connection is gone: its lifetime counts if it had a reply. */
static void
basic_conn_gone(struct basic *b, const struct conn *c, uint64_t now)
{
	struct basic_totals *t = &b->t;
	uint64_t v, bin;

	b->concurrent--;
	if (c->nreplies == 0)
		return;
	v = now - c->t_connect_start;
	if (t->lifetime_n == 0 || v < t->lifetime_min)
		t->lifetime_min = v;
	if (v > t->lifetime_max)
		t->lifetime_max = v;
	t->lifetime_n++;
	t->lifetime_sum += v;
	t->lifetime_sum2 += (double)v * 1e-9 * (double)v * 1e-9;
	hdr_record(b->phase[BASIC_PH_LIFETIME], v);
	if (b->bins != NULL) {
		bin = v / BASIC_BIN_NS;
		b->bins[bin < b->nbins ? bin : b->nbins - 1]++;
	}
}

/* A connection is ready for requests: its connect and handshake times. */
static void
basic_connected(struct basic *b, const struct conn *c)
{
	struct basic_totals *t = &b->t;

	t->connects_n++;
	t->connect_sum += c->t_connected - c->t_connect_start;
	hdr_record(b->phase[BASIC_PH_CONNECT],
	    c->t_tcp_connected - c->t_connect_start);
	/* Through a proxy's tunnel, TLS starts once it is open. */
	if (b->phase[BASIC_PH_TLS] != NULL)
		hdr_record(b->phase[BASIC_PH_TLS], c->t_connected -
		    (c->t_tunneled != 0 ? c->t_tunneled : c->t_tcp_connected));
}

/* A reply is complete. */
static void
basic_reply(struct basic *b, const struct call *call)
{
	struct basic_totals *t = &b->t;
	int status = call->status;
	struct stat_reply m;

	if (status >= 100 && status <= 599)
		t->replies[status / 100]++;
	if (status == 200)
		t->s200++;
	else if (status == 302)
		t->s302++;
	b->interval_replies++;
	if (call->early) {
		/*
		 * Answered before it was all written: a request all the
		 * same, counted now (its last bytes may never go if the
		 * connection ends first).  Cut short: only the bytes that
		 * went out.
		 */
		t->early++;
		t->reqs_sent++;
		t->req_bytes += call->cut ? call->req_sent : call->req_len;
	}
	if (call->cut) {
		t->cut++;
		t->unsent_bytes += call->req_len - call->req_sent;
	}
	t->transfer_sum += call->t_recv_stop - call->t_recv_start;
	t->hdr_bytes += call->hdr_bytes;
	t->content_bytes += call->body_bytes;
	t->footer_bytes += call->footer_bytes;
	hdr_record(b->phase[BASIC_PH_TRANSFER],
	    call->t_recv_stop - call->t_recv_start);
	stat_reply_measure(call, &m);
	/* A reply read ahead of its request counts, as it always did here,
	   at the top of the histogram (clamped); the intervals count 0. */
	hdr_record(b->phase[BASIC_PH_REPLY], m.ahead ? UINT64_MAX : m.reply);
	if (b->phase[BASIC_PH_REPLY_CORR] != NULL)
		hdr_record(b->phase[BASIC_PH_REPLY_CORR], m.corrected);
}

/*
 * A failure of cause `err' on connection `c' (NULL for a call without
 * one), or of `call' (or NULL): counted in its class, and as announced
 * when the server had said it would not process the request: a reset
 * after a reply that closed the connection (HTTP/1.x), a stream refused
 * after a GOAWAY, or a call given back unprocessed and dropped unanswered
 * (no connection).
 */
static void
basic_failed(struct basic *b, int err, const struct conn *c,
    const struct call *call)
{
	struct basic_totals *t = &b->t;
	int announced;

	t->errors[basic_err_class(err)]++;
	if (call != NULL && c == NULL)
		announced = call->unprocessed != 0;
	else
		announced = c != NULL && c->draining;
	if (!announced)
		return;
	if (err == ECONNRESET && (c == NULL || c->h2 == NULL))
		t->announced_close++;
	else if (err == H2_ERR_REFUSED)
		t->announced_goaway++;
}

static void
basic_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct basic *b = ctx;
	struct basic_totals *t = &b->t;
	struct call *call;
	struct sess *s;
	uint64_t v;

	switch (ev) {
	case BUS_PERF_SAMPLE:
		v = b->interval_replies;
		b->interval_replies = 0;
		if (!basic_sample_whole(b->start, now, arg.d))
			break;		/* begun before the measure */
		stat_samples_add(&t->reply_rate, &b->rr, (double)v * arg.d);
		if (b->verbose > 0)
			fprintf(b->out, "reply-rate = %-8.1f\n",
			    (double)v * arg.d);
		break;
	case BUS_CONN_NEW:
		if (++b->concurrent > t->max_concurrent)
			t->max_concurrent = b->concurrent;
		break;
	case BUS_CONN_CONNECTING:
		basic_connecting(b, (uint64_t)arg.i);
		break;
	case BUS_CONN_BYTES_IN:
	case BUS_CONN_BYTES_OUT:
		b->net_bytes += (uint64_t)arg.i;
		break;
	case BUS_CONN_CONNECTED:
		basic_connected(b, obj);
		break;
	case BUS_CONN_FAILED:
		basic_failed(b, (int)arg.i, obj, NULL);
		break;
	case BUS_CALL_FAILED:
		call = obj;
		basic_failed(b, (int)arg.i, call->conn, call);
		break;
	case BUS_CONN_TIMEOUT:
		t->errors[BASIC_ERR_CLIENT_TIMO]++;
		break;
	case BUS_CONN_DESTROYED:
		basic_conn_gone(b, obj, now);
		break;
	case BUS_CALL_SEND_STOP:
		call = obj;
		if (call->early)
			break;		/* counted with its reply */
		t->reqs_sent++;
		t->req_bytes += call->req_len;
		break;
	case BUS_CALL_RECV_START:
		call = obj;
		t->responses_n++;
		t->response_sum += call->t_recv_start - call->t_send_start;
		hdr_record(b->phase[BASIC_PH_FIRST_BYTE],
		    call->t_recv_start - call->t_send_start);
		break;
	case BUS_SESS_DESTROYED:
		/* Completed sessions, as the Session lifetime line. */
		s = obj;
		if (!s->failed)
			hdr_record(b->phase[BASIC_PH_SESSION],
			    now - s->t_start);
		break;
	case BUS_CALL_RECV_STOP:
		call = obj;
		if (call->unprocessed != 0)
			t->retried++;
		basic_reply(b, call);
		break;
	default:
		break;
	}
}

void
basic_init(struct basic *b, struct core *core, int verbose, FILE *out,
    const struct basic_config *cfg)
{
	static const enum bus_event evs[] = {
		BUS_PERF_SAMPLE, BUS_CONN_NEW, BUS_CONN_CONNECTING,
		BUS_CONN_CONNECTED, BUS_CONN_FAILED, BUS_CONN_TIMEOUT,
		BUS_CONN_DESTROYED, BUS_CONN_BYTES_IN, BUS_CONN_BYTES_OUT,
		BUS_CALL_SEND_STOP, BUS_CALL_RECV_START, BUS_CALL_RECV_STOP,
		BUS_CALL_FAILED,
	};
	size_t i;

	memset(b, 0, sizeof(*b));
	b->out = out;
	b->verbose = verbose;
	b->t.periodic = cfg != NULL && cfg->periodic;
	for (i = 0; i < BASIC_NPHASES; i++)
		b->phase[i] = hdr_new_ns();
	if (cfg == NULL || !cfg->tls) {
		hdr_free(b->phase[BASIC_PH_TLS]);
		b->phase[BASIC_PH_TLS] = NULL;
	}
	if (cfg == NULL || !cfg->corrected) {
		hdr_free(b->phase[BASIC_PH_REPLY_CORR]);
		b->phase[BASIC_PH_REPLY_CORR] = NULL;
	}
	if (cfg == NULL || !cfg->sessions) {
		hdr_free(b->phase[BASIC_PH_SESSION]);
		b->phase[BASIC_PH_SESSION] = NULL;
	} else
		bus_subscribe(core->bus, BUS_SESS_DESTROYED, basic_event, b);
	if (verbose > 1) {
		b->nbins = BASIC_NBINS;
		b->bins = xcalloc(b->nbins, sizeof(*b->bins));
	}
	for (i = 0; i < nitems(evs); i++)
		bus_subscribe(core->bus, evs[i], basic_event, b);
}

void
basic_fini(struct basic *b)
{
	size_t i;

	for (i = 0; i < BASIC_NPHASES; i++) {
		hdr_free(b->phase[i]);
		b->phase[i] = NULL;
	}
	free(b->bins);
	b->bins = NULL;
	stat_samples_free(&b->rr);
}

/* Completes the totals with what the run measured itself. */
static void
basic_totals_fill(struct basic *b, uint64_t duration, double cpu_user,
    double cpu_sys)
{
	struct basic_totals *t = &b->t;

	t->duration = duration;
	t->cpu_user = cpu_user;
	t->cpu_sys = cpu_sys;
	t->net_bytes = b->net_bytes;
	t->lifetime_hist = b->phase[BASIC_PH_LIFETIME];
	t->lifetime_bins = b->bins;
	t->lifetime_nbins = b->nbins;
}

void
basic_print(struct basic *b, FILE *out, uint64_t duration, double cpu_user,
    double cpu_sys)
{
	fprintf(out, "Maximum connect burst length: %llu\n",
	    (unsigned long long)b->burst_max);
	basic_totals_fill(b, duration, cpu_user, cpu_sys);
	basic_report_print(out, &b->t, b->verbose);
}

const char *const basic_phase_json[BASIC_NPHASES] = {
	[BASIC_PH_LIFETIME] = "connection",
	[BASIC_PH_CONNECT] = "connect",
	[BASIC_PH_TLS] = "tls_handshake",
	[BASIC_PH_FIRST_BYTE] = "first_byte",
	[BASIC_PH_TRANSFER] = "transfer",
	[BASIC_PH_REPLY] = "reply",
	[BASIC_PH_REPLY_CORR] = "reply_corrected",
	[BASIC_PH_SESSION] = "session",
};

int
basic_json(struct basic *b, struct jsonw *w, uint64_t duration,
    double cpu_user, double cpu_sys)
{
	size_t i;
	int rv = 0;

	basic_totals_fill(b, duration, cpu_user, cpu_sys);
	jsonw_obj_begin(w);
	basic_report_json(w, &b->t, &b->rr, b->burst_max);
	jsonw_key(w, BASIC_K_HISTOGRAMS);
	jsonw_obj_begin(w);
	for (i = 0; i < BASIC_NPHASES; i++) {
		if (b->phase[i] == NULL)
			continue;
		jsonw_key(w, basic_phase_json[i]);
		if (stat_json_hdr(w, b->phase[i]) == -1) {
			jsonw_null(w);
			rv = -1;
		}
	}
	jsonw_obj_end(w);
	jsonw_obj_end(w);
	return rv;
}

const char *const basic_phase_label[BASIC_NPHASES] = {
	[BASIC_PH_LIFETIME] = "Connection time",
	[BASIC_PH_CONNECT] = "Connect time",
	[BASIC_PH_TLS] = "TLS handshake",
	[BASIC_PH_FIRST_BYTE] = "First byte",
	[BASIC_PH_TRANSFER] = "Transfer time",
	[BASIC_PH_REPLY] = "Reply time",
	[BASIC_PH_REPLY_CORR] = "Reply time (corrected)",
	[BASIC_PH_SESSION] = "Session lifetime",
};

void
basic_print_extra(struct basic *b, FILE *out)
{
	size_t i;

	fputc('\n', out);
	for (i = 0; i < BASIC_NPHASES; i++)
		if (b->phase[i] != NULL)
			basic_print_pct(out, basic_phase_label[i],
			    b->phase[i]);
	if (b->t.early > 0)
		fprintf(out, "Early replies: %llu (requests cut short %llu, "
		    "request bytes not sent %llu)\n",
		    (unsigned long long)b->t.early,
		    (unsigned long long)b->t.cut,
		    (unsigned long long)b->t.unsent_bytes);
	if (b->t.announced_close > 0 || b->t.announced_goaway > 0 ||
	    b->t.retried > 0)
		fprintf(out, "Announced closes: errors %llu (Connection: close "
		    "%llu GOAWAY %llu), requests retried %llu\n",
		    (unsigned long long)(b->t.announced_close +
		    b->t.announced_goaway),
		    (unsigned long long)b->t.announced_close,
		    (unsigned long long)b->t.announced_goaway,
		    (unsigned long long)b->t.retried);
}

/* The collector interface (stat/collector.h). */

static int
basic_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	struct basic *b = xcalloc(1, sizeof(*b));

	if (env->core != NULL)
		basic_init(b, env->core, env->verbose, env->out, env->cfg);
	*state = b;
	return 0;
}

/*
 * A --sweep step's measure starts mid-run, with the connections open
 * then (its driver set concurrent): they are open at once in it.
 */
static void
basic_col_start(void *state, uint64_t now)
{
	struct basic *b = state;

	b->start = now;
	if (b->concurrent > b->t.max_concurrent)
		b->t.max_concurrent = b->concurrent;
}

static void
basic_col_report(void *state, FILE *out, const struct collector_run *run)
{
	basic_print(state, out, run->duration, run->cpu_user, run->cpu_sys);
}

static void
basic_col_extra(void *state, FILE *out, const struct collector_run *run)
{
	basic_print_extra(state, out);
}

static void
basic_col_json(void *state, struct jsonw *w, const struct collector_run *run)
{
	basic_json(state, w, run->duration, run->cpu_user, run->cpu_sys);
}

static void
basic_col_fini(void *state)
{
	struct basic *b = state;

	stat_samples_free(&b->rr_merge);
	basic_fini(b);
	free(b);
}

/* --merge: the histograms, exactly the phases the first file has. */
static void
basic_merge_hists(struct basic *b, struct collector_merge *mg)
{
	const struct jv *hs = stat_merge_get(mg, BASIC_K_HISTOGRAMS);
	char field[160];
	size_t i, k;

	for (i = 0; i < jv_len(hs) && !mg->failed; i++) {
		for (k = 0; k < BASIC_NPHASES; k++)
			if (strcmp(jv_key_at(hs, i), basic_phase_json[k]) == 0)
				break;
		if (k == BASIC_NPHASES)
			stat_merge_fail(mg, BASIC_K_HISTOGRAMS, "%s: a "
			    "histogram this version cannot merge",
			    jv_key_at(hs, i));
	}
	for (i = 0; i < BASIC_NPHASES; i++) {
		snprintf(field, sizeof(field), BASIC_K_HISTOGRAMS ".%s",
		    basic_phase_json[i]);
		stat_merge_hist(mg, field, &b->phase[i]);
	}
}

static void
basic_col_merge(void *state, struct collector_merge *mg)
{
	struct basic *b = state;

	basic_report_merge(mg, &b->t, &b->rr_merge, &b->burst_max,
	    &b->net_bytes);
	basic_merge_hists(b, mg);
}

static void
basic_col_merge_end(void *state, uint64_t start_ns, uint64_t end_ns)
{
	struct basic *b = state;

	stat_merge_samples_end(&b->rr_merge, &b->t.reply_rate, &b->rr);
}

const struct collector basic_collector = {
	.name = "basic",
	.always = 1,
	.init = basic_col_init,
	.start = basic_col_start,
	.report = basic_col_report,
	.extra = basic_col_extra,
	.json = basic_col_json,
	.merge = basic_col_merge,
	.merge_end = basic_col_merge_end,
	.fini = basic_col_fini,
};
