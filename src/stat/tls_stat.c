/*
 * TLS statistics collector (see tls_stat.h).  A connection counts as
 * handshaken when it is connected with TLS; its handshake time runs from
 * the end of the TCP connect to that moment.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/conn.h"
#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "net/tls.h"
#include "net/transport.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/stat_json.h"
#include "stat/stat_merge.h"
#include "stat/tls_stat.h"

/* The members of its --json part, written and read back (--merge) here. */
#define TLS_K_HANDSHAKES		"handshakes"
#define TLS_K_RESUMED			"resumed"
#define TLS_K_FAILED			"failed"
#define TLS_K_TIME_SUM_NS		"time_sum_ns"
#define TLS_K_TIME			"time"
#define TLS_K_PROTOCOL			"protocol"
#define TLS_K_CIPHER			"cipher"
#define TLS_K_TIME_MIN_NS		"time_min_ns"
#define TLS_K_TIME_MAX_NS		"time_max_ns"

static void
tls_stat_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct tls_stat *st = ctx;
	struct conn *c = obj;
	struct tls_conn *tc;
	uint64_t t;

	if (ev == BUS_CONN_FAILED) {
		if (c->hs_failed)
			st->failed++;
		return;
	}
	if (ev != BUS_CONN_CONNECTED ||
	    (tc = transport_tls_conn(&c->xp)) == NULL)
		return;
	/* Through a proxy's tunnel, TLS starts once it is open. */
	t = c->t_connected - (c->t_tunneled != 0 ? c->t_tunneled :
	    c->t_tcp_connected);
	if (st->handshakes == 0 || t < st->time_min)
		st->time_min = t;
	if (t > st->time_max)
		st->time_max = t;
	st->time_sum += t;
	st->handshakes++;
	st->resumed += c->resumed != 0;
	hdr_record(st->time, t);
	snprintf(st->version, sizeof(st->version), "%s",
	    tls_conn_version(tc));
	snprintf(st->cipher, sizeof(st->cipher), "%s",
	    tls_conn_cipher(tc));
}

void
tls_stat_init(struct tls_stat *st, struct core *core)
{
	memset(st, 0, sizeof(*st));
	st->time = hdr_new_ns();
	bus_subscribe(core->bus, BUS_CONN_CONNECTED, tls_stat_event, st);
	bus_subscribe(core->bus, BUS_CONN_FAILED, tls_stat_event, st);
}

void
tls_stat_print(const struct tls_stat *st, FILE *out)
{
	fprintf(out, "TLS: handshakes %llu resumed %llu (%.1f%%) "
	    "failed %llu\n", (unsigned long long)st->handshakes,
	    (unsigned long long)st->resumed,
	    100.0 * basic_ratio((double)st->resumed, (double)st->handshakes),
	    (unsigned long long)st->failed);
	fprintf(out, "TLS handshake time [ms]: min %.1f avg %.1f max %.1f "
	    "median %.1f p90 %.1f p99 %.1f\n",
	    (double)st->time_min * 1e-6,
	    basic_ratio((double)st->time_sum, (double)st->handshakes) * 1e-6,
	    (double)st->time_max * 1e-6,
	    (double)hdr_value_at_percentile(st->time, 50.0) * 1e-6,
	    (double)hdr_value_at_percentile(st->time, 90.0) * 1e-6,
	    (double)hdr_value_at_percentile(st->time, 99.0) * 1e-6);
	fprintf(out, "TLS: protocol %s cipher %s\n",
	    st->version[0] ? st->version : "none",
	    st->cipher[0] ? st->cipher : "none");
}

int
tls_stat_json(const struct tls_stat *st, struct jsonw *w)
{
	int rv = 0;

	jsonw_obj_begin(w);
	jsonw_ku64(w, TLS_K_HANDSHAKES, st->handshakes);
	jsonw_ku64(w, TLS_K_RESUMED, st->resumed);
	jsonw_kdouble(w, "resumed_pct", 100.0 * basic_ratio((double)st->resumed,
	    (double)st->handshakes));
	jsonw_ku64(w, TLS_K_FAILED, st->failed);
	jsonw_ku64(w, TLS_K_TIME_MIN_NS, st->time_min);
	jsonw_ku64(w, TLS_K_TIME_MAX_NS, st->time_max);
	jsonw_ku64(w, TLS_K_TIME_SUM_NS, st->time_sum);
	jsonw_kdouble(w, "time_avg_ms",
	    basic_ratio((double)st->time_sum, (double)st->handshakes) * 1e-6);
	jsonw_key(w, TLS_K_TIME);
	if (stat_json_hdr(w, st->time) == -1) {
		jsonw_null(w);
		rv = -1;
	}
	jsonw_kstr(w, TLS_K_PROTOCOL, st->version[0] ? st->version : NULL);
	jsonw_kstr(w, TLS_K_CIPHER, st->cipher[0] ? st->cipher : NULL);
	jsonw_obj_end(w);
	return rv;
}

void
tls_stat_fini(struct tls_stat *st)
{
	hdr_free(st->time);
	st->time = NULL;
}

/* The collector interface (stat/collector.h). */

static int
tls_stat_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	struct tls_stat *st = xcalloc(1, sizeof(*st));

	if (env->core != NULL)
		tls_stat_init(st, env->core);
	*state = st;
	return 0;
}

static void
tls_stat_col_extra(void *state, FILE *out, const struct collector_run *run)
{
	tls_stat_print(state, out);
}

static void
tls_stat_col_json(void *state, struct jsonw *w,
    const struct collector_run *run)
{
	tls_stat_json(state, w);
}

static void
tls_stat_col_fini(void *state)
{
	tls_stat_fini(state);
	free(state);
}

/*
 * --merge: counts and the time histogram added; the protocol and the
 * cipher are the last file's that has them, like the last handshake.
 */
static void
tls_stat_col_merge(void *state, struct collector_merge *mg)
{
	struct tls_stat *st = state;
	const char *s;

	stat_merge_min_max(mg, stat_merge_u64(mg, TLS_K_HANDSHAKES),
	    st->handshakes, TLS_K_TIME_MIN_NS, &st->time_min, TLS_K_TIME_MAX_NS,
	    &st->time_max);
	stat_merge_add(mg, TLS_K_HANDSHAKES, &st->handshakes);
	stat_merge_add(mg, TLS_K_RESUMED, &st->resumed);
	stat_merge_add(mg, TLS_K_FAILED, &st->failed);
	stat_merge_add(mg, TLS_K_TIME_SUM_NS, &st->time_sum);
	stat_merge_hist(mg, TLS_K_TIME, &st->time);
	if (!mg->failed && st->time == NULL)
		stat_merge_fail(mg, TLS_K_TIME, "missing");
	if ((s = jv_str(stat_merge_get(mg, TLS_K_PROTOCOL), NULL)) != NULL)
		snprintf(st->version, sizeof(st->version), "%s", s);
	if ((s = jv_str(stat_merge_get(mg, TLS_K_CIPHER), NULL)) != NULL)
		snprintf(st->cipher, sizeof(st->cipher), "%s", s);
}

const struct collector tls_stat_collector = {
	.name = "tls_stat",
	.init = tls_stat_col_init,
	.extra = tls_stat_col_extra,
	.json = tls_stat_col_json,
	.merge = tls_stat_col_merge,
	.fini = tls_stat_col_fini,
};
