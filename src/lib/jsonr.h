/*
 * A strict, hardened JSON reader (RFC 8259) for files this program wrote
 * itself and reads back (--merge), which may nevertheless have been
 * edited, truncated or damaged: whatever the text, parsing ends in a tree
 * or an error message, never a crash, an abort or unbounded recursion.
 *
 * Accepted is exactly RFC 8259 JSON: any value at the top, surrounded by
 * nothing but space, tab, CR and LF.  Refused, each with an error naming
 * its line and column: trailing commas, leading zeros, numbers without
 * digits, control characters (below 0x20) and invalid escapes in strings,
 * \u escapes of lone surrogates, input that is not valid UTF-8 (overlong
 * forms, surrogates, beyond U+10FFFF), a byte order mark, nesting deeper
 * than JV_MAX_DEPTH, two members of one object with the same name (after
 * escapes are decoded), and a number whose magnitude is beyond the range
 * of a double (1e999): such a number has no value to give, and a result
 * file never holds one.  A number too small for a double (1e-999) reads
 * as the nearest double, 0 or a subnormal, as strtod() rounds it.
 *
 * The tree is read-only and lives in one allocation arena: jv_free() of
 * the root frees all of it; every other pointer into it (values, keys,
 * strings) stays valid until then.  The text need not outlive jv_parse().
 * Lines and columns count from 1; a column counts bytes.
 */
#ifndef HTTPERF_LIB_JSONR_H
#define HTTPERF_LIB_JSONR_H

#include <stddef.h>
#include <stdint.h>

/* Arrays and objects nested deeper than this are an error. */
#define JV_MAX_DEPTH	256

enum jv_type { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ };

struct jv;

/*
 * Parses all of `text' (`len' bytes, no NUL needed; NULs in it are
 * errors).  Returns the root, or NULL with "line L, column C: reason" in
 * `err' (`errlen' bytes, always NUL-terminated; err may be NULL).  Running
 * out of memory is such an error ("out of memory"), never an exit.
 */
struct jv	*jv_parse(const char *text, size_t len, char *err,
		    size_t errlen);
/*
 * jv_parse() that fails with "out of memory" once its allocations would
 * exceed `max' bytes in all (the tree takes about 24 bytes a value, 40 a
 * member, plus its strings; parsing at most as much again): to bound the
 * memory a file can take, and for the tests of that error.
 */
struct jv	*jv_parse_max(const char *text, size_t len, size_t max,
		    char *err, size_t errlen);
/* Frees the tree of a root jv_parse() returned; NULL is fine. */
void		 jv_free(struct jv *v);

/* The type of v; JV_NULL for a NULL v (an absent member). */
enum jv_type	 jv_type(const struct jv *v);

/*
 * The value of member `key' of object `obj' (the whole name: a member
 * whose name holds a \u0000 matches no C string), or NULL when obj is
 * not an object or has no such member.  Objects of more than a few dozen
 * members are looked up by binary search.
 */
const struct jv	*jv_get(const struct jv *obj, const char *key);
/*
 * jv_get() along a path of member names split at dots: "a.b.c" is member
 * c of member b of member a of `v'.  Names with dots in them cannot be
 * reached this way.  NULL when any step is missing or not an object.
 */
const struct jv	*jv_path(const struct jv *v, const char *path);

/* The number of elements of an array or members of an object; else 0. */
size_t		 jv_len(const struct jv *v);
/* Element i of an array, the value of member i of an object (in the
   order of the text); NULL when out of range or neither. */
const struct jv	*jv_at(const struct jv *v, size_t i);
/* The name of member i of an object, NUL-terminated, and its length in
   bytes (it may hold a NUL from \u0000); NULL / 0 when out of range. */
const char	*jv_key_at(const struct jv *obj, size_t i);
size_t		 jv_key_len(const struct jv *obj, size_t i);

/* The number as a double (always finite); -1 if v is not a number. */
int		 jv_num(const struct jv *v, double *out);
/*
 * The number exactly, from its text: only an integer without fraction or
 * exponent ("1.0" and "1e2" do not qualify) in range, 0 .. UINT64_MAX for
 * jv_u64() ("-0" is 0), INT64_MIN .. INT64_MAX for jv_i64().  Else -1
 * and *out untouched.
 */
int		 jv_u64(const struct jv *v, uint64_t *out);
int		 jv_i64(const struct jv *v, int64_t *out);
/* The decoded string, NUL-terminated UTF-8 (a \u0000 in it is a NUL:
   *len, when len is not NULL, tells its true length), or NULL. */
const char	*jv_str(const struct jv *v, size_t *len);
/* 0 and *out = 0 or 1, or -1 if v is not a boolean. */
int		 jv_bool(const struct jv *v, int *out);

#endif /* HTTPERF_LIB_JSONR_H */
