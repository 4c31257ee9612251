/*
 * A streaming JSON writer (RFC 8259): objects, arrays, keys and scalars go
 * straight to a stdio stream, pretty-printed with a two-space indent and
 * one member or element per line.  Nothing is buffered but the nesting.
 *
 * Strings (keys as well) are written as valid UTF-8 whatever bytes they
 * are given, since some of them come from outside (a server's, a file's,
 * the command line's): '"' and '\\' are escaped, control characters
 * (below 0x20, and 0x7f) are written as \b \f \n \r \t or \u00XX, valid
 * UTF-8 sequences pass through unchanged, and every byte that does not
 * begin a valid sequence (a stray continuation byte, a truncated or
 * overlong sequence, a surrogate, a code point above U+10FFFF) is
 * replaced by \ufffd, one per byte.  The output is then always valid
 * JSON; the replacement is lossy, which only matters for bytes that were
 * not text anyway.
 *
 * Numbers: unsigned and signed 64-bit integers exactly; a double with the
 * fewest significant digits (at most 17) that read back to the same
 * double, and null for an infinity or a NaN, which JSON cannot carry.
 *
 * Misuse (a value where a key is due, an end that matches no begin,
 * nesting deeper than JSONW_MAX_DEPTH) does not crash: the writer marks
 * itself failed and jsonw_finish() says so, as it does for a write error.
 */
#ifndef HTTPERF_LIB_JSONW_H
#define HTTPERF_LIB_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH	32

struct jsonw {
	FILE		*f;
	int		 depth;		/* open containers */
	int		 failed;	/* misuse or a write error */
	int		 after_key;	/* a key was written, its value is due */
	/* Per level: 1 for an object, 0 for an array; whether it has a
	   member or element yet. */
	unsigned char	 is_obj[JSONW_MAX_DEPTH];
	unsigned char	 has_item[JSONW_MAX_DEPTH];
	int		 done;		/* the top-level value is complete */
};

/* Starts a document on `f'. */
void	jsonw_init(struct jsonw *w, FILE *f);

/*
 * Ends the document with a newline and flushes the stream.  Returns 0, or
 * -1 when the document is incomplete, the writer was misused, or the
 * stream had an error.
 */
int	jsonw_finish(struct jsonw *w);

void	jsonw_obj_begin(struct jsonw *w);
void	jsonw_obj_end(struct jsonw *w);
void	jsonw_arr_begin(struct jsonw *w);
void	jsonw_arr_end(struct jsonw *w);

/* The key of the next member (inside an object only). */
void	jsonw_key(struct jsonw *w, const char *k);

void	jsonw_str(struct jsonw *w, const char *s);	/* NULL: null */
void	jsonw_strn(struct jsonw *w, const char *s, size_t len);
void	jsonw_u64(struct jsonw *w, uint64_t v);
void	jsonw_i64(struct jsonw *w, int64_t v);
void	jsonw_double(struct jsonw *w, double v);
void	jsonw_bool(struct jsonw *w, int v);
void	jsonw_null(struct jsonw *w);

/* A key and its value in one call. */
void	jsonw_kstr(struct jsonw *w, const char *k, const char *s);
void	jsonw_ku64(struct jsonw *w, const char *k, uint64_t v);
void	jsonw_kdouble(struct jsonw *w, const char *k, double v);
void	jsonw_kbool(struct jsonw *w, const char *k, int v);

/*
 * Writes the shortest decimal form of d that strtod() reads back to d
 * (at most 17 significant digits) into buf (at least JSONW_DBL_LEN
 * bytes); "null" when d is not finite.  Returns buf.
 */
#define JSONW_DBL_LEN	32
char	*jsonw_fmt_double(char *buf, double d);

#endif
