/*
 * --slo EXPR[,EXPR...]: the objectives (stat/slo.c parses each one),
 * repeatable, kept in the order given; echoed and written to the
 * document as their canonical text.  Its row is in options_table.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"
#include "lib/util.h"
#include "opt/options_int.h"
#include "stat/slo.h"

/* Parses one comma-separated piece, `len' bytes at `s'. */
static int
opt_slo_one(struct opt_ctx *c, const struct opt_row *r, const char *s,
    size_t len)
{
	struct options *o = c->o;
	struct slo one;
	char err[SLO_ERR_MAX], *expr = xmalloc(len + 1);
	int rv;

	memcpy(expr, s, len);
	expr[len] = '\0';
	rv = slo_parse(expr, &one, err, sizeof(err));
	if (rv == -1)
		opt_fail(c, r, NULL, expr, "%s", err);
	free(expr);
	if (rv == -1)
		return -1;
	o->slo = xreallocarray(o->slo, o->n_slo + 1, sizeof(*o->slo));
	o->slo[o->n_slo++] = one;
	return 0;
}

int
opt_slo(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	size_t len;

	for (;;) {
		len = strcspn(arg, ",");
		if (opt_slo_one(c, r, arg, len) == -1)
			return -1;
		if (arg[len] == '\0')
			return 0;
		arg += len + 1;
	}
}

/* Every objective, each quoted (the comparisons are the shell's). */
void
opt_echo_slo(const struct options *o, const struct opt_row *r, FILE *out)
{
	size_t i;

	for (i = 0; i < o->n_slo; i++)
		fprintf(out, " --%s='%s'", r->name, o->slo[i].text);
}

/* options.slo: the objectives' texts, an array (empty when none). */
void
opt_json_slo(const struct options *o, struct jsonw *w)
{
	size_t i;

	jsonw_arr_begin(w);
	for (i = 0; i < o->n_slo; i++)
		jsonw_str(w, o->slo[i].text);
	jsonw_arr_end(w);
}
