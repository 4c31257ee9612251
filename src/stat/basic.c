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
#include "stat/basic.h"
#include "stat/collector.h"
#include "stat/hist.h"
#include "util.h"

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
	hist_add(b->lifetime, v);
	if (b->bins != NULL) {
		bin = v / BASIC_BIN_NS;
		b->bins[bin < b->nbins ? bin : b->nbins - 1]++;
	}
}

/* A reply is complete. */
static void
basic_reply(struct basic *b, const struct call *call)
{
	struct basic_totals *t = &b->t;
	int status = call->status;

	if (status >= 100 && status <= 599)
		t->replies[status / 100]++;
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
	hist_add(b->reply_time, call->t_recv_stop - call->t_send_start);
}

static void
basic_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct basic *b = ctx;
	struct basic_totals *t = &b->t;
	struct conn *c;
	struct call *call;
	uint64_t v;

	switch (ev) {
	case BUS_PERF_SAMPLE:
		v = b->interval_replies;
		b->interval_replies = 0;
		basic_series_add(&t->reply_rate, (double)v * arg.d);
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
		c = obj;
		t->connects_n++;
		t->connect_sum += c->t_connected - c->t_connect_start;
		break;
	case BUS_CONN_FAILED:
		t->errors[basic_err_class((int)arg.i)]++;
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
		break;
	case BUS_CALL_RECV_STOP:
		basic_reply(b, obj);
		break;
	default:
		break;
	}
}

void
basic_init(struct basic *b, struct core *core, int verbose, FILE *out)
{
	static const enum bus_event evs[] = {
		BUS_PERF_SAMPLE, BUS_CONN_NEW, BUS_CONN_CONNECTING,
		BUS_CONN_CONNECTED, BUS_CONN_FAILED, BUS_CONN_TIMEOUT,
		BUS_CONN_DESTROYED, BUS_CONN_BYTES_IN, BUS_CONN_BYTES_OUT,
		BUS_CALL_SEND_STOP, BUS_CALL_RECV_START, BUS_CALL_RECV_STOP,
	};
	size_t i;

	memset(b, 0, sizeof(*b));
	b->out = out;
	b->verbose = verbose;
	b->lifetime = hist_new();
	b->reply_time = hist_new();
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
	hist_free(b->lifetime);
	hist_free(b->reply_time);
	free(b->bins);
	b->lifetime = b->reply_time = NULL;
	b->bins = NULL;
}

void
basic_print(struct basic *b, FILE *out, uint64_t duration, double cpu_user,
    double cpu_sys)
{
	struct basic_totals *t = &b->t;

	fprintf(out, "Maximum connect burst length: %llu\n",
	    (unsigned long long)b->burst_max);
	t->duration = duration;
	t->cpu_user = cpu_user;
	t->cpu_sys = cpu_sys;
	t->net_bytes = b->net_bytes;
	t->lifetime_hist = b->lifetime;
	t->lifetime_bins = b->bins;
	t->lifetime_nbins = b->nbins;
	basic_report_print(out, t, b->verbose);
}

/* Prints one percentile line of a histogram, in milliseconds. */
static void
basic_print_pct(FILE *out, const char *label, const struct hist *h)
{
	static const double q[] = { 0.50, 0.90, 0.95, 0.99, 0.999 };
	static const char *const name[] = { "p50", "p90", "p95", "p99",
	    "p99.9" };
	size_t i;

	fprintf(out, "%s percentiles [ms]:", label);
	for (i = 0; i < nitems(q); i++)
		fprintf(out, " %s %.1f", name[i],
		    (double)hist_quantile(h, q[i]) * 1e-6);
	fputc('\n', out);
}

void
basic_print_extra(struct basic *b, FILE *out)
{
	fputc('\n', out);
	basic_print_pct(out, "Connection time", b->lifetime);
	basic_print_pct(out, "Reply time", b->reply_time);
	if (b->t.early > 0)
		fprintf(out, "Early replies: %llu (requests cut short %llu, "
		    "request bytes not sent %llu)\n",
		    (unsigned long long)b->t.early,
		    (unsigned long long)b->t.cut,
		    (unsigned long long)b->t.unsent_bytes);
}

/* The collector interface (stat/collector.h). */

static int
basic_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	struct basic *b = xmalloc(sizeof(*b));

	basic_init(b, env->core, env->verbose, env->out);
	*state = b;
	return 0;
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
basic_col_fini(void *state)
{
	basic_fini(state);
	free(state);
}

const struct collector basic_collector = {
	.name = "basic",
	.init = basic_col_init,
	.report = basic_col_report,
	.extra = basic_col_extra,
	.fini = basic_col_fini,
};
