/*
 * The checks collector (see check_stat.h).  A call's outcome comes on
 * its BUS_CALL_RECV_STOP (call->check_done, check_fail, check_names,
 * set before it); a call never sent for want of a value is a
 * BUS_CALL_FAILED with cause CALL_ENOVALUE.  The names are few (the
 * checks of a session file and --check): a list, the last one found
 * tried first.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/check_stat.h"
#include "stat/collector.h"
#include "stat/stat_merge.h"

#define CK_K_PASSED	"passed"
#define CK_K_FAILED	"failed"
#define CK_K_CALLS	"calls_failed"
#define CK_K_NOVALUE	"no_value"
#define CK_K_BYNAME	"by_name"

struct check_count {
	char		*name;
	uint64_t	 passed;
	uint64_t	 failed;
};

struct check_stat {
	int		 always;	/* --check */
	uint64_t	 passed;
	uint64_t	 failed;
	uint64_t	 calls_failed;	/* calls with a check failed */
	uint64_t	 no_value;
	struct check_count *c;
	size_t		 n;
	size_t		 last;
};

/* The count of check `name' (made on first sight). */
static struct check_count *
check_stat_of(struct check_stat *st, const char *name, size_t len)
{
	size_t i;

	if (st->last < st->n && strlen(st->c[st->last].name) == len &&
	    memcmp(st->c[st->last].name, name, len) == 0)
		return &st->c[st->last];
	for (i = 0; i < st->n; i++)
		if (strlen(st->c[i].name) == len &&
		    memcmp(st->c[i].name, name, len) == 0)
			break;
	if (i == st->n) {
		st->c = xreallocarray(st->c, st->n + 1, sizeof(*st->c));
		memset(&st->c[i], 0, sizeof(st->c[i]));
		st->c[i].name = xstrndup(name, len);
		st->n++;
	}
	st->last = i;
	return &st->c[i];
}

static void
check_stat_reply(struct check_stat *st, const struct call *call)
{
	struct check_count *cc;
	uint64_t bit;
	size_t i;

	for (i = 0; i < 64 && (call->check_done >> i) != 0; i++) {
		bit = (uint64_t)1 << i;
		if (!(call->check_done & bit))
			continue;
		cc = check_stat_of(st, call->check_names[i],
		    strlen(call->check_names[i]));
		if (call->check_fail & bit) {
			cc->failed++;
			st->failed++;
		} else {
			cc->passed++;
			st->passed++;
		}
	}
	if (call->check_fail != 0)
		st->calls_failed++;
}

static void
check_stat_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct check_stat *st = ctx;
	const struct call *call = obj;

	(void)now;
	if (ev == BUS_CALL_FAILED) {
		if (arg.i == CALL_ENOVALUE)
			st->no_value++;
	} else if (call->check_done != 0)
		check_stat_reply(st, call);
}

static int
check_stat_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	const struct check_stat_config *cfg = env->cfg;
	struct check_stat *st = xcalloc(1, sizeof(*st));

	(void)err;
	(void)errlen;
	*state = st;
	if (env->core == NULL)
		return 0;
	st->always = cfg != NULL && cfg->checks;
	bus_subscribe(env->bus, BUS_CALL_RECV_STOP, check_stat_event, st);
	bus_subscribe(env->bus, BUS_CALL_FAILED, check_stat_event, st);
	return 0;
}

static void
check_stat_extra(void *state, FILE *out, const struct collector_run *run)
{
	const struct check_stat *st = state;

	(void)run;
	if (st->always || st->passed > 0 || st->failed > 0)
		fprintf(out, "Checks: passed %llu failed %llu\n",
		    (unsigned long long)st->passed,
		    (unsigned long long)st->failed);
	if (st->calls_failed > 0 || st->no_value > 0)
		fprintf(out, "Call failures: check %llu no-value %llu\n",
		    (unsigned long long)st->calls_failed,
		    (unsigned long long)st->no_value);
}

static void
check_stat_json(void *state, struct jsonw *w, const struct collector_run *run)
{
	const struct check_stat *st = state;
	size_t i;

	(void)run;
	jsonw_obj_begin(w);
	jsonw_ku64(w, CK_K_PASSED, st->passed);
	jsonw_ku64(w, CK_K_FAILED, st->failed);
	jsonw_ku64(w, CK_K_CALLS, st->calls_failed);
	jsonw_ku64(w, CK_K_NOVALUE, st->no_value);
	jsonw_key(w, CK_K_BYNAME);
	jsonw_obj_begin(w);
	for (i = 0; i < st->n; i++) {
		jsonw_key(w, st->c[i].name);
		jsonw_obj_begin(w);
		jsonw_ku64(w, CK_K_PASSED, st->c[i].passed);
		jsonw_ku64(w, CK_K_FAILED, st->c[i].failed);
		jsonw_obj_end(w);
	}
	jsonw_obj_end(w);
	jsonw_obj_end(w);
}

/* Adds one file's per-name counts. */
static void
check_stat_merge_names(struct check_stat *st, struct collector_merge *mg)
{
	const struct jv *by = stat_merge_get(mg, CK_K_BYNAME), *o;
	struct check_count *cc;
	uint64_t p, f;
	size_t i;

	if (jv_type(by) != JV_OBJ) {
		stat_merge_fail(mg, CK_K_BYNAME, "missing or not an object");
		return;
	}
	for (i = 0; i < jv_len(by) && !mg->failed; i++) {
		o = jv_at(by, i);
		if (jv_type(o) != JV_OBJ ||
		    jv_u64(jv_get(o, CK_K_PASSED), &p) == -1 ||
		    jv_u64(jv_get(o, CK_K_FAILED), &f) == -1) {
			stat_merge_fail(mg, CK_K_BYNAME, "%s: want passed and "
			    "failed counts", jv_key_at(by, i));
			return;
		}
		cc = check_stat_of(st, jv_key_at(by, i), jv_key_len(by, i));
		if (cc->passed > UINT64_MAX - p || cc->failed > UINT64_MAX - f) {
			stat_merge_fail(mg, CK_K_BYNAME, "the sum overflows");
			return;
		}
		cc->passed += p;
		cc->failed += f;
	}
}

static void
check_stat_merge(void *state, struct collector_merge *mg)
{
	struct check_stat *st = state;

	stat_merge_add(mg, CK_K_PASSED, &st->passed);
	stat_merge_add(mg, CK_K_FAILED, &st->failed);
	stat_merge_add(mg, CK_K_CALLS, &st->calls_failed);
	stat_merge_add(mg, CK_K_NOVALUE, &st->no_value);
	if (!mg->failed)
		check_stat_merge_names(st, mg);
	/* A merged run with checks prints its line as the runs did. */
	if (st->n > 0)
		st->always = 1;
}

static void
check_stat_fini(void *state)
{
	struct check_stat *st = state;
	size_t i;

	for (i = 0; i < st->n; i++)
		free(st->c[i].name);
	free(st->c);
	free(st);
}

const struct collector check_stat_collector = {
	.name = "checks",
	.init = check_stat_init,
	.extra = check_stat_extra,
	.json = check_stat_json,
	.merge = check_stat_merge,
	.fini = check_stat_fini,
};
