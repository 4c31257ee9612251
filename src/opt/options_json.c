/*
 * The option set as JSON, for the --json document: every row of the
 * option table (options_table.c) with its effective value, keyed by the
 * long name.  The value's JSON type follows the row's kind: a flag is a
 * boolean, a number a number, a string a string (null when unset), the
 * fields of --wsess and friends an object (null when not given).  The
 * options whose value has a shape of its own are written here one by
 * one; a row this file does not know (an option added later) is written
 * as the text its echo function prints, or null.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"
#include "lib/util.h"
#include "opt/options_int.h"

const char *const options_merge_may_differ[] = {
	"client", "json", "html", "hlog", "interval", "periodic-stats", "verbose",
	"debug", "print-reply", "print-request", "myaddr", "max-lateness",
	"start-at", "quiet", "slo", "jobs", "cpus", "busy-poll", "log",
	"log-drop", "use-timer-cache",
	/* Its path; the servers are compared by stats.servers. */
	"servers", NULL
};

/* One value of a row, by its kind. */
static void
opt_json_val(const struct options *o, const struct opt_val *v,
    struct jsonw *w)
{
	const void *p = OPT_FIELD(o, v->off);

	switch (v->kind) {
	case OPT_K_FLAG:
		jsonw_bool(w, *(const int *)p != 0);
		break;
	case OPT_K_SECONDS:
	case OPT_K_RATIO:
		jsonw_double(w, *(const double *)p);
		break;
	case OPT_K_WORD:
	case OPT_K_TOKEN:
	case OPT_K_TEXT:
	case OPT_K_PATH:
		jsonw_str(w, *(const char *const *)p);
		break;
	default:
		if (v->type == OPT_T_DOUBLE)
			jsonw_double(w, *(const double *)p);
		else if (v->type == OPT_T_STR)
			jsonw_str(w, *(const char *const *)p);
		else
			jsonw_u64(w, opt_load_uint(o, v));
		break;
	}
}

/* --period: the distribution as --period writes it, null if none. */
static void
opt_json_period(const struct options *o, struct jsonw *w)
{
	const struct rate_spec *r = &o->rate;
	char a[JSONW_DBL_LEN], b[JSONW_DBL_LEN];
	char *s = NULL;
	size_t len = 0, i;
	FILE *f;

	if (rate_spec_rate(r) <= 0) {
		jsonw_null(w);
		return;
	}
	if ((f = open_memstream(&s, &len)) == NULL) {
		jsonw_null(w);
		return;
	}
	switch (r->dist) {
	case RATE_DETERMINISTIC:
		fprintf(f, "d%s", jsonw_fmt_double(a, r->mean_iat));
		break;
	case RATE_UNIFORM:
		fprintf(f, "u%s,%s", jsonw_fmt_double(a, r->min_iat),
		    jsonw_fmt_double(b, r->max_iat));
		break;
	case RATE_EXPONENTIAL:
		fprintf(f, "e%s", jsonw_fmt_double(a, r->mean_iat));
		break;
	case RATE_VARIABLE:
		putc('v', f);
		for (i = 0; i < r->nvar; i++)
			fprintf(f, "%s%s,%s", i > 0 ? "," : "",
			    jsonw_fmt_double(a, r->var_iat[i]),
			    jsonw_fmt_double(b, r->var_dur[i]));
		break;
	}
	fclose(f);
	jsonw_strn(w, s, len);
	free(s);
}

static void
opt_json_print(int what, struct jsonw *w)
{
	if (what == (PRINT_HEADER | PRINT_BODY))
		jsonw_str(w, "both");
	else if (what == PRINT_HEADER)
		jsonw_str(w, "header");
	else if (what == PRINT_BODY)
		jsonw_str(w, "body");
	else
		jsonw_null(w);
}

static void
opt_json_strings(const char *const *v, size_t n, struct jsonw *w)
{
	size_t i;

	jsonw_arr_begin(w);
	for (i = 0; i < n; i++)
		jsonw_str(w, v[i]);
	jsonw_arr_end(w);
}

/* A row with a function of its own that this file does not know. */
static void
opt_json_echo(const struct options *o, const struct opt_row *r,
    struct jsonw *w)
{
	char *s = NULL;
	const char *v;
	size_t len = 0;
	FILE *f;

	if (r->echo != OPT_E_FUNC || r->echo_fn == NULL ||
	    (f = open_memstream(&s, &len)) == NULL) {
		jsonw_null(w);
		return;
	}
	r->echo_fn(o, r, f);
	fclose(f);
	/* " --name=V" or " --name". */
	if (len == 0)
		jsonw_null(w);
	else if ((v = strchr(s, '=')) != NULL)
		jsonw_str(w, v + 1);
	else
		jsonw_bool(w, 1);
	free(s);
}

/* The value of a row whose parse function is its own. */
static void
opt_json_func(const struct options *o, enum opt_id id,
    const struct opt_row *r, struct jsonw *w)
{
	char buf[32];

	switch (id) {
	case OPT_ADD_HEADER:
		opt_json_strings(o->add_header_raw, o->n_add_header, w);
		break;
	case OPT_CHECK:
		opt_json_strings(o->check, o->n_check, w);
		break;
	case OPT_MYADDR:
		opt_json_strings(o->myaddr, o->n_myaddr, w);
		break;
	case OPT_SCRIPT_ARG:
		opt_json_strings(o->script_args, o->n_script_args, w);
		break;
	case OPT_SLO:
		opt_json_slo(o, w);
		break;
	case OPT_CLIENT:
		snprintf(buf, sizeof(buf), "%u/%u", o->client_id,
		    o->num_clients);
		jsonw_str(w, buf);
		break;
	case OPT_HTTP_VERSION:
		jsonw_str(w, o->http2 ? "2" : o->http_minor == 0 ? "1.0" :
		    "1.1");
		break;
	case OPT_PERIOD:
		opt_json_period(o, w);
		break;
	case OPT_RATE:
		jsonw_double(w, rate_spec_rate(&o->rate));
		break;
	case OPT_PRINT_REPLY:
		opt_json_print(o->print_reply, w);
		break;
	case OPT_PRINT_REQUEST:
		opt_json_print(o->print_request, w);
		break;
	case OPT_SSL_PROTOCOL:
		jsonw_str(w, o->ssl_protocol_raw == NULL ? NULL :
		    options_tls_version_name(o->ssl_min_version));
		break;
	case OPT_SSL_VERIFY:
		jsonw_bool(w, o->ssl_verify);
		break;
	case OPT_JOBS:
		jsonw_u64(w, o->jobs);
		break;
	case OPT_CPUS:
		jsonw_str(w, o->cpus);
		break;
	case OPT_DATA_ORDER:
		jsonw_str(w, o->data_random ? "random" : "seq");
		break;
	case OPT_DATA_WRAP:
		jsonw_str(w, o->data_no_wrap ? "n" : "y");
		break;
	case OPT_WLOG:
		if (o->wlog_file == NULL) {
			jsonw_null(w);
			break;
		}
		jsonw_obj_begin(w);
		jsonw_kbool(w, "wrap", o->wlog_wrap);
		jsonw_kstr(w, "file", o->wlog_file);
		jsonw_obj_end(w);
		break;
	default:
		if (r->val.type != OPT_T_NONE)
			opt_json_val(o, &r->val, w);
		else
			opt_json_echo(o, r, w);
		break;
	}
}

void
options_json(const struct options *o, struct jsonw *w)
{
	const struct opt_row *r;
	size_t i, j;

	jsonw_obj_begin(w);
	for (i = 0; i < OPT_NOPTS; i++) {
		r = &opt_table[i];
		if (r->val.kind == OPT_K_NONE)
			continue;	/* --help, --version */
		jsonw_key(w, r->name);
		switch (r->val.kind) {
		case OPT_K_FIELDS:
			if (opt_load_uint(o, &r->fields[0]) == 0) {
				jsonw_null(w);
				break;
			}
			jsonw_obj_begin(w);
			for (j = 0; j < r->nfields; j++) {
				jsonw_key(w, r->fields[j].name);
				opt_json_val(o, &r->fields[j], w);
			}
			jsonw_obj_end(w);
			break;
		case OPT_K_FUNC:
			opt_json_func(o, (enum opt_id)i, r, w);
			break;
		default:
			opt_json_val(o, &r->val, w);
			break;
		}
	}
	jsonw_obj_end(w);
}
