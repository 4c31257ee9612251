/*
 * A dotted path into a JSON document ("auth.token", "items[2].id",
 * "[0]"), compiled once, then looked up in a reply body without building
 * a tree: one pass that skips what is off the path.  Bounded: never reads
 * past the given length, nesting at most JSONPATH_MAX_DEPTH deep, and the
 * document must be valid JSON along the way up to the value found (what
 * comes after it is not looked at).  The value comes out as text: a
 * string unescaped (\uXXXX as UTF-8, surrogate pairs joined), a number,
 * true, false or null as written, an object or array as its JSON text.
 */
#ifndef HTTPERF_LIB_JSONPATH_H
#define HTTPERF_LIB_JSONPATH_H

#include <stddef.h>

#include "lib/tmpl.h"

#define JSONPATH_MAX_DEPTH	64	/* nesting of the document */
#define JSONPATH_MAX_STEPS	32	/* steps of a path */

struct jsonpath_step {
	const char	*key;		/* NULL: an array index */
	size_t		 len;		/* key's length, or the index */
};

struct jsonpath {
	char		*text;		/* the keys, unescaped */
	struct jsonpath_step steps[JSONPATH_MAX_STEPS];
	size_t		 n;
};

/*
 * Compiles `len' bytes of `s': keys separated by '.', each followed by
 * any number of [N] (decimal index); a key is any bytes but '.', '[' and
 * ']' ('\' escapes one of them).  Returns 0, or -1 with the problem in
 * err (and its 1-based column in *col).
 */
int	jsonpath_compile(struct jsonpath *p, const char *s, size_t len,
	    char *err, size_t errlen, size_t *col);

/*
 * Appends the value at `p' in the `len' bytes of `doc' to `out'.
 * Returns 0, or -1 (out unchanged) when the path is missing or the
 * document is not valid JSON up to it, or nests too deep.
 */
int	jsonpath_get(const struct jsonpath *p, const char *doc, size_t len,
	    struct tmpl_buf *out);

/* Frees what jsonpath_compile() allocated.  Harmless twice. */
void	jsonpath_free(struct jsonpath *p);

#endif
