/*
 * Proxy statistics collector (see proxy_stat.h).  It reads the tunnel's
 * times and status off the connection (core/conn.h) when the connection
 * is connected, fails or times out.
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
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/proxy_stat.h"
#include "stat/stat_json.h"
#include "stat/stat_merge.h"

/* The members of its --json part, written and read back (--merge) here. */
#define PROXY_K_MODE			"mode"
#define PROXY_K_TUNNELS			"tunnels"
#define PROXY_K_ESTABLISHED		"established"
#define PROXY_K_CONNECT_REFUSED		"connect_refused"
#define PROXY_K_LAST_STATUS		"last_status"
#define PROXY_K_TUNNEL_SETUP		"tunnel_setup"
#define PROXY_K_PROXY			"proxy"
/* The values of its mode. */
#define PROXY_MODE_CONNECT		"connect"
#define PROXY_MODE_ABSOLUTE		"absolute-form"
#define PROXY_MODE_NONE			"none"

/* The tunnel got established: its setup time counts. */
static void
proxy_stat_open(struct proxy_stat *st, const struct conn *c)
{
	st->established++;
	hdr_record(st->setup, c->t_tunneled - c->t_tunnel_start);
}

static void
proxy_stat_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct proxy_stat *st = ctx;
	const struct conn *c = obj;

	/* Only connections that sent a CONNECT, each counted once: it
	   ends connected or failed or timed out, never two of them
	   before its tunnel is open; after, only CONNECTED or a TLS
	   failure can count it, and neither follows the other. */
	if (c->t_tunnel_start == 0)
		return;
	switch (ev) {
	case BUS_CONN_CONNECTED:
		if (c->t_tunneled != 0) {
			st->tunnels++;
			proxy_stat_open(st, c);
		}
		break;
	case BUS_CONN_FAILED:
	case BUS_CONN_TIMEOUT:
		if (c->state == CONN_CONNECTED)
			break;		/* counted when it connected */
		st->tunnels++;
		if (c->t_tunneled != 0)
			proxy_stat_open(st, c);	/* TLS failed after */
		else if (c->tunnel_status != 0 && (c->tunnel_status < 200 ||
		    c->tunnel_status > 299)) {
			st->refused++;
			st->last_status = c->tunnel_status;
		}
		break;
	default:
		break;
	}
}

void
proxy_stat_print(const struct proxy_stat *st, FILE *out)
{
	if (st->proxy == NULL)
		return;		/* --proxy-env found none to use */
	if (!st->tunnel) {
		fprintf(out, "Proxy: %s (absolute-form)\n", st->proxy);
		return;
	}
	fprintf(out, "Proxy: %s (CONNECT tunnels), tunnels %llu established "
	    "%llu refused %llu\n", st->proxy, (unsigned long long)st->tunnels,
	    (unsigned long long)st->established,
	    (unsigned long long)st->refused);
	basic_print_pct(out, "Tunnel setup", st->setup);
	fprintf(out, "Proxy errors: connect-refused %llu (last status %d)\n",
	    (unsigned long long)st->refused, st->last_status);
}

void
proxy_stat_json(const struct proxy_stat *st, struct jsonw *w)
{
	jsonw_obj_begin(w);
	jsonw_kstr(w, PROXY_K_PROXY, st->proxy);
	jsonw_kstr(w, PROXY_K_MODE, st->proxy == NULL ? PROXY_MODE_NONE :
	    st->tunnel ? PROXY_MODE_CONNECT : PROXY_MODE_ABSOLUTE);
	jsonw_ku64(w, PROXY_K_TUNNELS, st->tunnels);
	jsonw_ku64(w, PROXY_K_ESTABLISHED, st->established);
	jsonw_ku64(w, PROXY_K_CONNECT_REFUSED, st->refused);
	jsonw_ku64(w, PROXY_K_LAST_STATUS, (uint64_t)st->last_status);
	jsonw_key(w, PROXY_K_TUNNEL_SETUP);
	if (stat_json_hdr(w, st->setup) == -1)
		jsonw_null(w);
	jsonw_obj_end(w);
}

/* The collector interface (stat/collector.h). */

static int
proxy_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	const struct proxy_stat_config *cfg = env->cfg;
	struct proxy_stat *st = xcalloc(1, sizeof(*st));

	*state = st;
	if (env->core == NULL)
		return 0;
	/* NULL: --proxy-env, and the environment names no proxy to use. */
	st->proxy = cfg->proxy != NULL ? xstrdup(cfg->proxy) : NULL;
	st->tunnel = cfg->tunnel;
	st->setup = hdr_new_ns();
	bus_subscribe(env->bus, BUS_CONN_CONNECTED, proxy_stat_event, st);
	bus_subscribe(env->bus, BUS_CONN_FAILED, proxy_stat_event, st);
	bus_subscribe(env->bus, BUS_CONN_TIMEOUT, proxy_stat_event, st);
	return 0;
}

static void
proxy_col_extra(void *state, FILE *out, const struct collector_run *run)
{
	proxy_stat_print(state, out);
}

static void
proxy_col_json(void *state, struct jsonw *w, const struct collector_run *run)
{
	proxy_stat_json(state, w);
}

static void
proxy_col_fini(void *state)
{
	struct proxy_stat *st = state;

	hdr_free(st->setup);
	free(st->proxy);
	free(st);
}

/* --merge: the mode, the same in every file. */
static void
proxy_merge_mode(struct proxy_stat *st, struct collector_merge *mg)
{
	const char *mode = jv_str(stat_merge_get(mg, PROXY_K_MODE), NULL);

	if (mode == NULL || (strcmp(mode, PROXY_MODE_CONNECT) != 0 &&
	    strcmp(mode, PROXY_MODE_ABSOLUTE) != 0 &&
	    strcmp(mode, PROXY_MODE_NONE) != 0))
		stat_merge_fail(mg, PROXY_K_MODE, "missing or not connect, "
		    "absolute-form or none");
	else if (mg->first)
		st->tunnel = strcmp(mode, PROXY_MODE_CONNECT) == 0;
	else if (st->tunnel != (strcmp(mode, PROXY_MODE_CONNECT) == 0))
		stat_merge_fail(mg, PROXY_K_MODE, "differs from %s's",
		    mg->first_path);
}

/*
 * --merge: counts and the tunnel setup histogram added; the proxy's name
 * and the last refusal's status are the last file's that has one.
 */
static void
proxy_col_merge(void *state, struct collector_merge *mg)
{
	struct proxy_stat *st = state;
	const char *s;
	uint64_t status;
	size_t len, i;

	proxy_merge_mode(st, mg);
	if (mg->failed)
		return;
	stat_merge_add(mg, PROXY_K_TUNNELS, &st->tunnels);
	stat_merge_add(mg, PROXY_K_ESTABLISHED, &st->established);
	stat_merge_add(mg, PROXY_K_CONNECT_REFUSED, &st->refused);
	status = stat_merge_u64(mg, PROXY_K_LAST_STATUS);
	if (status > 999)
		stat_merge_fail(mg, PROXY_K_LAST_STATUS, "not an HTTP status");
	else if (status != 0)
		st->last_status = (int)status;
	stat_merge_hist(mg, PROXY_K_TUNNEL_SETUP, &st->setup);
	if (!mg->failed && st->setup == NULL)
		stat_merge_fail(mg, PROXY_K_TUNNEL_SETUP, "missing");
	if ((s = jv_str(stat_merge_get(mg, PROXY_K_PROXY), &len)) == NULL ||
	    mg->failed)
		return;
	/* It goes into the report: a name, not terminal controls. */
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < ' ' || s[i] == 0x7f || len > 300) {
			stat_merge_fail(mg, PROXY_K_PROXY, "not a host:port");
			return;
		}
	free(st->proxy);
	st->proxy = xmalloc(len + 1);
	memcpy(st->proxy, s, len);
	st->proxy[len] = '\0';
}

const struct collector proxy_stat_collector = {
	.name = "proxy",
	.init = proxy_col_init,
	.extra = proxy_col_extra,
	.json = proxy_col_json,
	.merge = proxy_col_merge,
	.fini = proxy_col_fini,
};
