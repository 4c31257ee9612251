/*
 * The names a template may use beyond the built-in variables, joined in
 * one resolver and one value callback for the run: --data's columns
 * ("data.COL", gen/data.h) and a session file's variables (extract=,
 * gen/svars.h).  A column's id is its index, as data_resolve() gives it
 * (so a template compiled with data_resolve() alone means the same); a
 * session variable's id has VARS_SESSION added.
 */
#ifndef HTTPERF_GEN_VARS_H
#define HTTPERF_GEN_VARS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/tmpl.h"

#define VARS_SESSION	(1 << 30)	/* a column index is below: a
				   1 GiB header has fewer */

struct datafile;
struct svars;

struct vars {
	struct datafile	*data;		/* --data's file, or NULL */
	struct svars	*sv;		/* the session file's, or NULL */
};

/* tmpl_resolve_fn over a struct vars: a column first, then a variable. */
int	vars_resolve(void *arg, const char *name, size_t len);

/* tmpl_value_fn over a struct vars; the subject is the struct call. */
int	vars_value(void *arg, void *subject, uint64_t id,
	    struct tmpl_buf *out);

#endif
