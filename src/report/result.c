/*
 * The --json document (see result.h).
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "opt/options.h"
#include "report/result.h"
#include "stat/collector.h"
#include "stat/slo.h"

char *
result_time(char *buf, uint64_t epoch_ns)
{
	time_t sec = (time_t)(epoch_ns / 1000000000);
	unsigned usec = (unsigned)(epoch_ns % 1000000000 / 1000);
	struct tm tm;
	char date[32];

	if (gmtime_r(&sec, &tm) == NULL ||
	    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(date, sizeof(date), "1970-01-01T00:00:00");
	snprintf(buf, RESULT_TIME_LEN, "%s.%06uZ", date, usec);
	return buf;
}

static void
result_when(struct jsonw *w, const char *key, uint64_t ns)
{
	char buf[RESULT_TIME_LEN];

	jsonw_key(w, key);
	jsonw_obj_begin(w);
	jsonw_kstr(w, "time", result_time(buf, ns));
	jsonw_ku64(w, "epoch_ns", ns);
	jsonw_obj_end(w);
}

void
result_write_head(struct jsonw *w, const struct result_head *h)
{
	size_t i;

	jsonw_kstr(w, "format", RESULT_FORMAT);
	jsonw_ku64(w, "schema_version", RESULT_SCHEMA_VERSION);
	jsonw_key(w, "tool");
	jsonw_obj_begin(w);
	jsonw_kstr(w, "name", PACKAGE_NAME);
	jsonw_kstr(w, "version", PACKAGE_VERSION);
	jsonw_obj_end(w);
	result_when(w, "start", h->start_ns);
	result_when(w, "end", h->start_ns + h->duration_ns);
	jsonw_ku64(w, "duration_ns", h->duration_ns);
	jsonw_kdouble(w, "duration_s", (double)h->duration_ns / 1e9);
	jsonw_key(w, "client");
	jsonw_obj_begin(w);
	jsonw_ku64(w, "id", h->nids > 0 ? h->ids[0] : 0);
	jsonw_ku64(w, "count", h->num_clients);
	jsonw_key(w, "ids");
	jsonw_arr_begin(w);
	for (i = 0; i < h->nids; i++)
		jsonw_u64(w, h->ids[i]);
	jsonw_arr_end(w);
	jsonw_obj_end(w);
	jsonw_kstr(w, "host", h->host);
	jsonw_kstr(w, "command_line", h->echo);
}

void
result_copy(struct jsonw *w, const struct jv *v)
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
			result_copy(w, jv_at(v, i));
		jsonw_arr_end(w);
		break;
	case JV_OBJ:
		jsonw_obj_begin(w);
		for (i = 0; i < jv_len(v); i++) {
			jsonw_key(w, jv_key_at(v, i));
			result_copy(w, jv_at(v, i));
		}
		jsonw_obj_end(w);
		break;
	}
}

/* stats.slo_abort: {at_s, objective, value, unit}. */
static void
result_write_abort(struct jsonw *w, const struct result_doc *d)
{
	jsonw_key(w, "slo_abort");
	jsonw_obj_begin(w);
	jsonw_key(w, "at_s");
	jsonw_double(w, d->abort_at_s);
	jsonw_key(w, "objective");
	jsonw_str(w, d->abort_slo->text);
	jsonw_key(w, "value");
	jsonw_double(w, d->abort_value);
	jsonw_key(w, "unit");
	jsonw_str(w, d->abort_slo->unit == SLO_U_NS ? "ms" : "count");
	jsonw_obj_end(w);
}

int
result_write(FILE *f, const struct result_doc *d)
{
	struct jsonw w;
	size_t i;

	jsonw_init(&w, f);
	jsonw_obj_begin(&w);
	result_write_head(&w, &d->head);
	jsonw_key(&w, "options");
	if (d->o != NULL)
		options_json(d->o, &w);
	else
		result_copy(&w, d->options);
	jsonw_key(&w, "stats");
	jsonw_obj_begin(&w);
	for (i = 0; i < d->ncols; i++)
		if (d->states[i] != NULL && d->cols[i]->json != NULL) {
			jsonw_key(&w, d->cols[i]->name);
			d->cols[i]->json(d->states[i], &w, d->run);
		}
	if (d->slo_measured != NULL) {
		jsonw_key(&w, "slo");
		jsonw_arr_begin(&w);
		for (i = 0; i < d->nslo; i++)
			slo_json(&w, &d->slo[i], d->slo_measured[i]);
		jsonw_arr_end(&w);
	}
	if (d->abort_slo != NULL)
		result_write_abort(&w, d);
	jsonw_obj_end(&w);
	if (d->tail != NULL)
		d->tail(&w, d->tail_arg);
	jsonw_obj_end(&w);
	return jsonw_finish(&w);
}
