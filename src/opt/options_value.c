/*
 * The kinds of value an option takes (enum opt_kind): each parsed and
 * checked by one function with one wording of its errors, then stored
 * into its field of struct options, whatever the field's C type.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "opt/options_int.h"

void
opt_store(struct options *o, const struct opt_val *v,
    const union opt_value *x)
{
	void *p = OPT_FIELD(o, v->off);

	switch (v->type) {
	case OPT_T_INT:
		*(int *)p = (int)x->u;
		break;
	case OPT_T_UINT:
		*(unsigned *)p = (unsigned)x->u;
		break;
	case OPT_T_ULONG:
		*(unsigned long *)p = (unsigned long)x->u;
		break;
	case OPT_T_ULLONG:
		*(unsigned long long *)p = x->u;
		break;
	case OPT_T_DOUBLE:
		*(double *)p = x->d;
		break;
	case OPT_T_STR:
		*(const char **)p = x->s;
		break;
	case OPT_T_NONE:
		break;
	}
}

uint64_t
opt_load_uint(const struct options *o, const struct opt_val *v)
{
	const void *p = OPT_FIELD(o, v->off);

	switch (v->type) {
	case OPT_T_INT:
		return (uint64_t)*(const int *)p;
	case OPT_T_UINT:
		return *(const unsigned *)p;
	case OPT_T_ULONG:
		return *(const unsigned long *)p;
	case OPT_T_ULLONG:
		return *(const unsigned long long *)p;
	default:
		return 0;
	}
}

/*
 * Parses a whole decimal integer in [min, max].  strtoull() alone would
 * accept leading blanks, a sign (and negate!), and stop at junk, so those
 * cases are caught first.
 */
static int
opt_uint(const struct opt_ctx *c, const struct opt_row *r, const char *field,
    const char *whole, const char *arg, uint64_t min, uint64_t max,
    uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*arg == '\0')
		return opt_fail(c, r, field, whole, "empty number");
	if (*arg == '-' && isdigit((unsigned char)arg[1]))
		return opt_fail(c, r, field, whole, "must not be negative");
	if (!isdigit((unsigned char)*arg))
		return opt_fail(c, r, field, whole, "not a number");
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno == ERANGE)
		return opt_fail(c, r, field, whole, "number too large");
	if (*end != '\0')
		return opt_fail(c, r, field, whole,
		    "unexpected characters after the number");
	if (v < min || v > max) {
		if (max == UINT64_MAX)
			return opt_fail(c, r, field, whole,
			    "must be at least %llu", (unsigned long long)min);
		return opt_fail(c, r, field, whole,
		    "must be between %llu and %llu", (unsigned long long)min,
		    (unsigned long long)max);
	}
	*out = v;
	return 0;
}

/*
 * Parses a finite, non-negative number of seconds (or a rate).  `arg' is
 * the number, `whole' the option argument it came from (for the message).
 */
int
opt_double(const struct opt_ctx *c, const struct opt_row *r,
    const char *field, const char *whole, const char *arg, double *out)
{
	double v;
	char *end;

	if (*arg == '\0')
		return opt_fail(c, r, field, whole, "empty number");
	if (isspace((unsigned char)*arg))
		return opt_fail(c, r, field, whole, "not a number");
	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || isnan(v))
		return opt_fail(c, r, field, whole, "not a number");
	if (*end != '\0')
		return opt_fail(c, r, field, whole,
		    "unexpected characters after the number");
	if (isinf(v))
		return opt_fail(c, r, field, whole, "must be finite");
	if (v < 0)
		return opt_fail(c, r, field, whole, "must not be negative");
	*out = v == 0 ? 0.0 : v;	/* no "-0" in the echo line */
	return 0;
}

/*
 * Checks the characters of a string value.  A word goes verbatim into the
 * request line or the Host header: a space, a tab, CR, LF or any other
 * control character there would change the meaning of the request.  Text
 * for a library (a cipher list) may have spaces, OpenSSL's separators,
 * but a control character can only be a mistake that would also break
 * the one-line echo.  (A NUL cannot reach us: argv strings end at the
 * first one.)
 */
static int
opt_chars(const struct opt_ctx *c, const struct opt_row *r,
    const struct opt_val *v, const char *whole, const char *arg)
{
	const unsigned char *p;

	if (*arg == '\0')
		return opt_fail(c, r, v->name, whole, "must not be empty");
	for (p = (const unsigned char *)arg; *p != '\0'; p++) {
		if (v->kind == OPT_K_WORD && (*p <= ' ' || *p == 0x7f))
			return opt_fail(c, r, v->name, whole,
			    "contains a space or control character");
		if (v->kind == OPT_K_TEXT && (*p < ' ' || *p == 0x7f))
			return opt_fail(c, r, v->name, whole,
			    "contains a control character");
		if (v->kind == OPT_K_TOKEN && !util_is_tchar(*p))
			return opt_fail(c, r, v->name, whole,
			    "not an HTTP token (letters, digits and "
			    "!#$%%&'*+-.^_`|~ only)");
	}
	return 0;
}

int
opt_parse_val(const struct opt_ctx *c, const struct opt_row *r,
    const struct opt_val *v, const char *whole, const char *text,
    union opt_value *out)
{
	switch (v->kind) {
	case OPT_K_UINT:
		return opt_uint(c, r, v->name, whole, text, v->min, v->max,
		    &out->u);
	case OPT_K_SECONDS:
		/* A deadline (now plus one or two such times, in
		   nanoseconds) must not wrap around the 64-bit clock. */
		if (opt_double(c, r, v->name, whole, text, &out->d) == -1)
			return -1;
		if (out->d > OPTIONS_MAX_SEC)
			return opt_fail(c, r, v->name, whole,
			    "must be at most %.0f seconds", OPTIONS_MAX_SEC);
		return 0;
	case OPT_K_RATIO:
		if (opt_double(c, r, v->name, whole, text, &out->d) == -1)
			return -1;
		if (out->d > 1)
			return opt_fail(c, r, v->name, whole,
			    "must be between 0 and 1");
		return 0;
	case OPT_K_WORD:
	case OPT_K_TOKEN:
	case OPT_K_TEXT:
	case OPT_K_PATH:
		out->s = text;
		return opt_chars(c, r, v, whole, text);
	default:
		return 0;
	}
}

/*
 * Splits `s' in place at its first n - 1 commas into f[0..n-1]; the last
 * field keeps any further commas (a file name may have them).  Returns the
 * number of fields found.
 */
static size_t
split_fields(char *s, char **f, size_t n)
{
	size_t i = 0;

	f[i++] = s;
	while (i < n && (s = strchr(s, ',')) != NULL) {
		*s++ = '\0';
		f[i++] = s;
	}
	return i;
}

/* Parses an OPT_K_FIELDS argument: every field good, or nothing stored. */
static int
opt_fields(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	union opt_value x[OPT_MAXFIELDS];
	char *copy, *f[OPT_MAXFIELDS];
	size_t i;
	int rv = -1;

	copy = xstrdup(arg);
	if (split_fields(copy, f, r->nfields) != r->nfields) {
		opt_fail(c, r, NULL, arg, "expected %s", r->arg);
		goto out;
	}
	for (i = 0; i < r->nfields; i++) {
		if (opt_parse_val(c, r, &r->fields[i], arg, f[i], &x[i]) == -1)
			goto out;
		/* Strings point into argv, as every other one does. */
		if (r->fields[i].type == OPT_T_STR)
			x[i].s = arg + (f[i] - copy);
	}
	for (i = 0; i < r->nfields; i++)
		opt_store(c->o, &r->fields[i], &x[i]);
	rv = 0;
out:
	free(copy);
	return rv;
}

int
opt_apply(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	union opt_value x;

	switch (r->val.kind) {
	case OPT_K_NONE:
		return 0;
	case OPT_K_FLAG:
		*(int *)OPT_FIELD(c->o, r->val.off) = 1;
		return 0;
	case OPT_K_COUNT:
		(*(int *)OPT_FIELD(c->o, r->val.off))++;
		return 0;
	case OPT_K_FIELDS:
		return opt_fields(c, r, arg);
	case OPT_K_FUNC:
		return r->parse(c, r, arg);
	default:
		if (opt_parse_val(c, r, &r->val, arg, arg, &x) == -1)
			return -1;
		opt_store(c->o, &r->val, &x);
		return 0;
	}
}

