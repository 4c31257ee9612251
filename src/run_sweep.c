/*
 * --sweep: one test, the rate moved through steps (issue 25).  So far
 * the check of the spec, which opt/ cannot make (it includes nothing of
 * report/, where the spec's parser is).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "opt/options.h"
#include "report/sweep_search.h"
#include "run_sweep.h"

int
run_sweep_check(const struct options *o, struct sweep_spec *s)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	if (o->sweep == NULL)
		return 0;
	if (sweep_spec_parse(o->sweep, 0, s, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: --sweep: %s: %s\n", o->prog, o->sweep,
		    err);
		return -1;
	}
	return 0;
}
