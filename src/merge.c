#include "config.h"

#include <stdio.h>

#include "merge.h"
#include "options.h"

int
merge_main(const struct options *o)
{
	fprintf(stderr, "%s: --merge: not yet\n", o->prog);
	return 1;
}
