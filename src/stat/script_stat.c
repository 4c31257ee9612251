/*
 * The script collector (see script_stat.h): the count of the
 * BUS_SCRIPT_ERROR events, and the script's counts for done() as the
 * script gives them (a run) or added up (--merge, --jobs).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "lib/hdr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/collector.h"
#include "stat/script_stat.h"
#include "stat/stat_json.h"
#include "stat/stat_merge.h"

#define SC_K_ERRORS	"errors"
#define SC_K_LAT	"latency"
#define SC_K_RPS	"requests"

struct script_stat {
	uint64_t	 errors;
	struct script_stat_config cfg;
	struct script_stat_counts c;	/* merged: the sums */
	struct hdr	*lat, *rps;	/* merged: owned */
};

/* The counts' members: their JSON names and places. */
static const struct {
	const char	*key;
	size_t		 off;
} script_stat_u64[] = {
	{ "replies", offsetof(struct script_stat_counts, replies) },
	{ "bytes", offsetof(struct script_stat_counts, bytes) },
	{ "connect", offsetof(struct script_stat_counts, e_connect) },
	{ "read", offsetof(struct script_stat_counts, e_read) },
	{ "write", offsetof(struct script_stat_counts, e_write) },
	{ "status", offsetof(struct script_stat_counts, e_status) },
	{ "timeout", offsetof(struct script_stat_counts, e_timeout) },
};

static uint64_t *
script_stat_field(struct script_stat_counts *c, size_t i)
{
	return (uint64_t *)(void *)((char *)c + script_stat_u64[i].off);
}

static void
script_stat_event(void *ctx, enum bus_event ev, void *obj,
    union bus_arg arg, uint64_t now)
{
	struct script_stat *st = ctx;

	(void)ev, (void)obj, (void)arg, (void)now;
	st->errors++;
}

static int
script_stat_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	struct script_stat *st = xcalloc(1, sizeof(*st));

	(void)err;
	(void)errlen;
	*state = st;
	if (env->cfg != NULL)
		st->cfg = *(const struct script_stat_config *)env->cfg;
	if (env->core != NULL)
		bus_subscribe(env->bus, BUS_SCRIPT_ERROR, script_stat_event,
		    st);
	return 0;
}

static void
script_stat_extra(void *state, FILE *out, const struct collector_run *run)
{
	const struct script_stat *st = state;

	(void)run;
	if (st->errors > 0)
		fprintf(out, "Errors: script %llu\n",
		    (unsigned long long)st->errors);
}

void
script_stat_counts(const void *state, struct script_stat_counts *c)
{
	const struct script_stat *st = state;

	if (st->cfg.fill != NULL) {
		memset(c, 0, sizeof(*c));
		st->cfg.fill(st->cfg.fill_arg, c);
	} else
		*c = st->c;
}

static void
script_stat_json(void *state, struct jsonw *w,
    const struct collector_run *run)
{
	struct script_stat_counts c;
	const struct script_stat *st = state;
	size_t i;

	(void)run;
	script_stat_counts(st, &c);
	jsonw_obj_begin(w);
	jsonw_ku64(w, SC_K_ERRORS, st->errors);
	for (i = 0; i < nitems(script_stat_u64); i++)
		jsonw_ku64(w, script_stat_u64[i].key,
		    *script_stat_field(&c, i));
	if (c.lat != NULL && c.rps != NULL) {
		jsonw_key(w, SC_K_LAT);
		(void)stat_json_hdr(w, c.lat);
		jsonw_key(w, SC_K_RPS);
		(void)stat_json_hdr(w, c.rps);
	}
	jsonw_obj_end(w);
}

static void
script_stat_merge(void *state, struct collector_merge *mg)
{
	struct script_stat *st = state;
	size_t i;

	stat_merge_add(mg, SC_K_ERRORS, &st->errors);
	for (i = 0; i < nitems(script_stat_u64); i++)
		stat_merge_add(mg, script_stat_u64[i].key,
		    script_stat_field(&st->c, i));
	stat_merge_hist(mg, SC_K_LAT, &st->lat);
	stat_merge_hist(mg, SC_K_RPS, &st->rps);
	st->c.lat = st->lat;
	st->c.rps = st->rps;
}

static void
script_stat_fini(void *state)
{
	struct script_stat *st = state;

	hdr_free(st->lat);
	hdr_free(st->rps);
	free(st);
}

const struct collector script_stat_collector = {
	.name = "script",
	.init = script_stat_init,
	.extra = script_stat_extra,
	.json = script_stat_json,
	.merge = script_stat_merge,
	.fini = script_stat_fini,
};
