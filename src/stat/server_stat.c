/*
 * Per-server statistics collector (see server_stat.h).  A connection's
 * server is conn->target, an index into the core's array of them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/sess.h"
#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/servers.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/reply.h"
#include "stat/server_stat.h"
#include "stat/stat_json.h"
#include "stat/stat_merge.h"

/* The members of its --json part, written and read back (--merge) here. */
#define SRV_K_SERVERS		"servers"
#define SRV_K_SERVER		"server"
#define SRV_K_CONNECTIONS	"connections"
#define SRV_K_REQUESTS		"requests"
#define SRV_K_REPLIES		"replies"
#define SRV_K_ERRORS		"errors"
#define SRV_K_REFUSED		"connrefused"
#define SRV_K_TIMEOUTS		"client-timo"
#define SRV_K_REPLY		"reply_time"

#define SRV_NAME_MAX		300	/* a merged file's name, at most */

/* The counts of server `t', or NULL. */
static struct server_count *
server_of(struct server_stat *st, const struct core_target *t)
{
	return t != NULL ? &st->s[t - st->targets] : NULL;
}

/* The server of call `call': its connection's, else its session's. */
static const struct core_target *
server_call(const struct call *call)
{
	if (call->conn != NULL)
		return call->conn->target;
	return call->sess != NULL ? call->sess->target : NULL;
}

static void
server_failed(struct server_count *sc, int err)
{
	sc->errors++;
	switch (basic_err_class(err)) {
	case BASIC_ERR_CONNREFUSED:
		sc->refused++;
		break;
	case BASIC_ERR_CLIENT_TIMO:
		sc->timeouts++;
		break;
	default:
		break;
	}
}

static void
server_reply(struct server_count *sc, const struct call *call)
{
	struct stat_reply m;

	sc->replies++;
	if (call->early)
		sc->requests++;		/* as basic counts it */
	stat_reply_measure(call, &m);
	hdr_record(sc->reply, m.ahead ? UINT64_MAX : m.reply);
}

static void
server_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct server_stat *st = ctx;
	const struct call *call = obj;
	const struct conn *c = obj;
	struct server_count *sc;

	(void)now;
	if (ev == BUS_CONN_CONNECTING || ev == BUS_CONN_FAILED ||
	    ev == BUS_CONN_TIMEOUT)
		sc = server_of(st, c->target);
	else
		sc = server_of(st, server_call(call));
	if (sc == NULL)
		return;
	switch (ev) {
	case BUS_CONN_CONNECTING:
		sc->conns++;
		break;
	case BUS_CONN_FAILED:
	case BUS_CALL_FAILED:
		server_failed(sc, (int)arg.i);
		break;
	case BUS_CONN_TIMEOUT:
		/* As the classic Errors line: client-timo. */
		sc->errors++;
		sc->timeouts++;
		break;
	case BUS_CALL_SEND_STOP:
		if (!call->early)
			sc->requests++;
		break;
	case BUS_CALL_RECV_STOP:
		server_reply(sc, call);
		break;
	default:
		break;
	}
}

/* Makes room for `n' servers, each with an empty histogram. */
static void
server_alloc(struct server_stat *st, size_t n)
{
	size_t i;

	st->s = xcalloc(n, sizeof(*st->s));
	st->n = n;
	for (i = 0; i < n; i++)
		st->s[i].reply = hdr_new_ns();
}

static int
server_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	static const enum bus_event evs[] = {
		BUS_CONN_CONNECTING, BUS_CONN_FAILED, BUS_CONN_TIMEOUT,
		BUS_CALL_FAILED, BUS_CALL_SEND_STOP, BUS_CALL_RECV_STOP,
	};
	struct server_stat *st = xcalloc(1, sizeof(*st));
	const struct server_stat_config *cfg = env->cfg;
	size_t i;

	(void)err;
	(void)errlen;
	*state = st;
	if (env->core == NULL)
		return 0;
	server_alloc(st, cfg->n);
	st->targets = cfg->targets;
	for (i = 0; i < st->n; i++)
		st->s[i].name = xstrdup(cfg->targets[i].name);
	for (i = 0; i < nitems(evs); i++)
		bus_subscribe(env->bus, evs[i], server_event, st);
	return 0;
}

static void
server_extra(void *state, FILE *out, const struct collector_run *run)
{
	const struct server_stat *st = state;
	const struct server_count *sc;
	size_t i;

	(void)run;
	for (i = 0; i < st->n; i++) {
		sc = &st->s[i];
		fprintf(out, "Server %s: connections %llu requests %llu "
		    "replies %llu errors %llu connrefused %llu client-timo "
		    "%llu reply-p99 %.3f ms\n", sc->name,
		    (unsigned long long)sc->conns,
		    (unsigned long long)sc->requests,
		    (unsigned long long)sc->replies,
		    (unsigned long long)sc->errors,
		    (unsigned long long)sc->refused,
		    (unsigned long long)sc->timeouts,
		    hdr_count(sc->reply) > 0 ?
		    (double)hdr_value_at_percentile(sc->reply, 99.0) / 1e6 :
		    0.0);
	}
}

static void
server_json(void *state, struct jsonw *w, const struct collector_run *run)
{
	const struct server_stat *st = state;
	const struct server_count *sc;
	size_t i;

	(void)run;
	jsonw_obj_begin(w);
	jsonw_key(w, SRV_K_SERVERS);
	jsonw_arr_begin(w);
	for (i = 0; i < st->n; i++) {
		sc = &st->s[i];
		jsonw_obj_begin(w);
		jsonw_kstr(w, SRV_K_SERVER, sc->name);
		jsonw_ku64(w, SRV_K_CONNECTIONS, sc->conns);
		jsonw_ku64(w, SRV_K_REQUESTS, sc->requests);
		jsonw_ku64(w, SRV_K_REPLIES, sc->replies);
		jsonw_ku64(w, SRV_K_ERRORS, sc->errors);
		jsonw_ku64(w, SRV_K_REFUSED, sc->refused);
		jsonw_ku64(w, SRV_K_TIMEOUTS, sc->timeouts);
		jsonw_key(w, SRV_K_REPLY);
		if (stat_json_hdr(w, sc->reply) == -1)
			jsonw_null(w);
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

/* Checks one file's server `i' against the first file's (or takes it). */
static void
server_merge_name(struct server_stat *st, struct collector_merge *mg,
    size_t i)
{
	const char *s;
	size_t len, k;

	s = jv_str(stat_merge_get(mg, SRV_K_SERVER), &len);
	if (s == NULL || len == 0 || len > SRV_NAME_MAX) {
		stat_merge_fail(mg, SRV_K_SERVER, "missing or not a host:port");
		return;
	}
	/* It goes into the report: a name, not terminal controls. */
	for (k = 0; k < len; k++)
		if ((unsigned char)s[k] <= ' ' || s[k] == 0x7f) {
			stat_merge_fail(mg, SRV_K_SERVER, "not a host:port");
			return;
		}
	if (mg->first)
		st->s[i].name = xstrndup(s, len);
	else if (strlen(st->s[i].name) != len ||
	    memcmp(st->s[i].name, s, len) != 0)
		stat_merge_fail(mg, SRV_K_SERVER, "differs from %s's (%s)",
		    mg->first_path, st->s[i].name);
}

/* Adds server `i' of one file: `el' is its object. */
static void
server_merge_one(struct server_stat *st, struct collector_merge *mg,
    const struct jv *el, size_t i)
{
	struct collector_merge sub = *mg;
	struct server_count *sc = &st->s[i];
	char name[64];

	snprintf(name, sizeof(name), "%s.%s[%zu]", mg->name, SRV_K_SERVERS,
	    i);
	sub.obj = el;
	sub.name = name;
	if (jv_type(el) != JV_OBJ)
		stat_merge_fail(&sub, NULL, "not an object");
	else
		server_merge_name(st, &sub, i);
	stat_merge_add(&sub, SRV_K_CONNECTIONS, &sc->conns);
	stat_merge_add(&sub, SRV_K_REQUESTS, &sc->requests);
	stat_merge_add(&sub, SRV_K_REPLIES, &sc->replies);
	stat_merge_add(&sub, SRV_K_ERRORS, &sc->errors);
	stat_merge_add(&sub, SRV_K_REFUSED, &sc->refused);
	stat_merge_add(&sub, SRV_K_TIMEOUTS, &sc->timeouts);
	if (mg->first) {
		hdr_free(sc->reply);
		sc->reply = NULL;
	}
	stat_merge_hist(&sub, SRV_K_REPLY, &sc->reply);
	if (!sub.failed && sc->reply == NULL)
		stat_merge_fail(&sub, SRV_K_REPLY, "missing");
	mg->failed = sub.failed;
}

/*
 * --merge: the same servers in the same order in every file; their
 * counts and histograms added.
 */
static void
server_merge(void *state, struct collector_merge *mg)
{
	struct server_stat *st = state;
	const struct jv *arr = stat_merge_get(mg, SRV_K_SERVERS);
	size_t i, n;

	if (jv_type(arr) != JV_ARR || (n = jv_len(arr)) == 0 ||
	    n > SERVERS_MAX) {
		stat_merge_fail(mg, SRV_K_SERVERS, "missing or not a list of "
		    "1 to %d servers", SERVERS_MAX);
		return;
	}
	if (mg->first)
		server_alloc(st, n);
	else if (n != st->n) {
		stat_merge_fail(mg, SRV_K_SERVERS, "%zu servers, %s has %zu",
		    n, mg->first_path, st->n);
		return;
	}
	for (i = 0; i < n && !mg->failed; i++)
		server_merge_one(st, mg, jv_at(arr, i), i);
}

static void
server_fini(void *state)
{
	struct server_stat *st = state;
	size_t i;

	for (i = 0; i < st->n; i++) {
		free(st->s[i].name);
		hdr_free(st->s[i].reply);
	}
	free(st->s);
	free(st);
}

const struct collector server_stat_collector = {
	.name = "servers",
	.init = server_init,
	.extra = server_extra,
	.json = server_json,
	.merge = server_merge,
	.fini = server_fini,
};
