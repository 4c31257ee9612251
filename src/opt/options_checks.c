/*
 * --check SPEC (repeatable): a check of every reply (gen/svars.h's
 * check= syntax, checked here with its compiler), kept as given, in
 * order; echoed each quoted.  Its row is in options_table.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "gen/svars.h"
#include "lib/util.h"
#include "opt/options_int.h"

int
opt_checks(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	struct options *o = c->o;
	struct svars *sv = xcalloc(1, sizeof(*sv));
	char err[512];
	int rv;

	rv = svars_global(sv, &arg, 1, err, sizeof(err));
	svars_free(sv);
	if (rv == -1)
		return opt_fail(c, r, NULL, arg, "%s", err);
	o->check = xreallocarray(o->check, o->n_check + 1, sizeof(*o->check));
	o->check[o->n_check++] = arg;
	return 0;
}

void
opt_echo_checks(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	size_t i;

	for (i = 0; i < o->n_check; i++)
		fprintf(out, " --%s='%s'", r->name, o->check[i]);
}
