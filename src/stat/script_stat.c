/*
 * The script collector (see script_stat.h): one count, of the
 * BUS_SCRIPT_ERROR events.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bus.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/collector.h"
#include "stat/script_stat.h"
#include "stat/stat_merge.h"

#define SC_K_ERRORS	"errors"

struct script_stat {
	uint64_t	 errors;
};

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

static void
script_stat_json(void *state, struct jsonw *w,
    const struct collector_run *run)
{
	const struct script_stat *st = state;

	(void)run;
	jsonw_obj_begin(w);
	jsonw_ku64(w, SC_K_ERRORS, st->errors);
	jsonw_obj_end(w);
}

static void
script_stat_merge(void *state, struct collector_merge *mg)
{
	struct script_stat *st = state;

	stat_merge_add(mg, SC_K_ERRORS, &st->errors);
}

static void
script_stat_fini(void *state)
{
	free(state);
}

const struct collector script_stat_collector = {
	.name = "script",
	.init = script_stat_init,
	.extra = script_stat_extra,
	.json = script_stat_json,
	.merge = script_stat_merge,
	.fini = script_stat_fini,
};
