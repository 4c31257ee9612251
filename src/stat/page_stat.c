/*
 * The page view collector (see page_stat.h): sums of BUS_PAGE_VIEW's
 * figures and a histogram of the view times; --merge adds them up.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/bus.h"
#include "lib/hdr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/page_stat.h"
#include "stat/stat_json.h"
#include "stat/stat_merge.h"

/* The members of its --json part, written and read back (--merge). */
#define PAGE_K_VIEWS		"views"
#define PAGE_K_OBJECTS		"objects"
#define PAGE_K_BYTES		"bytes"
#define PAGE_K_CROSS		"cross_origin"
#define PAGE_K_OVER		"over_limit"
#define PAGE_K_REDIRECTS	"redirects"
#define PAGE_K_TIME		"view_time"

static void
page_stat_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct page_stat *st = ctx;
	const struct bus_page_view *v = obj;

	st->views++;
	st->objects += v->objects;
	st->bytes += v->bytes;
	st->cross += v->cross;
	st->over += v->over;
	st->redirects += v->redirects;
	hdr_record(st->time, v->time);
}

void
page_stat_print(const struct page_stat *st, FILE *out)
{
	basic_print_pct(out, "Page view time", st->time);
	fprintf(out, "Page views: %llu objects/view %.2f bytes/view %.1f "
	    "cross-origin %llu over-limit %llu redirects %llu\n",
	    (unsigned long long)st->views,
	    basic_ratio((double)st->objects, (double)st->views),
	    basic_ratio((double)st->bytes, (double)st->views),
	    (unsigned long long)st->cross, (unsigned long long)st->over,
	    (unsigned long long)st->redirects);
}

void
page_stat_json(const struct page_stat *st, struct jsonw *w)
{
	jsonw_obj_begin(w);
	jsonw_ku64(w, PAGE_K_VIEWS, st->views);
	jsonw_ku64(w, PAGE_K_OBJECTS, st->objects);
	jsonw_ku64(w, PAGE_K_BYTES, st->bytes);
	jsonw_ku64(w, PAGE_K_CROSS, st->cross);
	jsonw_ku64(w, PAGE_K_OVER, st->over);
	jsonw_ku64(w, PAGE_K_REDIRECTS, st->redirects);
	jsonw_kdouble(w, "objects_per_view", basic_ratio((double)st->objects,
	    (double)st->views));
	jsonw_kdouble(w, "bytes_per_view", basic_ratio((double)st->bytes,
	    (double)st->views));
	jsonw_key(w, PAGE_K_TIME);
	if (stat_json_hdr(w, st->time) == -1)
		jsonw_null(w);
	jsonw_obj_end(w);
}

/* The collector interface (stat/collector.h). */

static int
page_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	struct page_stat *st = xcalloc(1, sizeof(*st));

	*state = st;
	if (env->core == NULL)
		return 0;
	st->time = hdr_new_ns();
	bus_subscribe(env->bus, BUS_PAGE_VIEW, page_stat_event, st);
	return 0;
}

static void
page_col_extra(void *state, FILE *out, const struct collector_run *run)
{
	page_stat_print(state, out);
}

static void
page_col_json(void *state, struct jsonw *w, const struct collector_run *run)
{
	page_stat_json(state, w);
}

static void
page_col_fini(void *state)
{
	struct page_stat *st = state;

	hdr_free(st->time);
	free(st);
}

/* --merge: the counts and the view time histogram added. */
static void
page_col_merge(void *state, struct collector_merge *mg)
{
	struct page_stat *st = state;

	stat_merge_add(mg, PAGE_K_VIEWS, &st->views);
	stat_merge_add(mg, PAGE_K_OBJECTS, &st->objects);
	stat_merge_add(mg, PAGE_K_BYTES, &st->bytes);
	stat_merge_add(mg, PAGE_K_CROSS, &st->cross);
	stat_merge_add(mg, PAGE_K_OVER, &st->over);
	stat_merge_add(mg, PAGE_K_REDIRECTS, &st->redirects);
	stat_merge_hist(mg, PAGE_K_TIME, &st->time);
	if (!mg->failed && st->time == NULL)
		stat_merge_fail(mg, PAGE_K_TIME, "missing");
}

const struct collector page_stat_collector = {
	.name = "page",
	.init = page_col_init,
	.extra = page_col_extra,
	.json = page_col_json,
	.merge = page_col_merge,
	.fini = page_col_fini,
};
