/*
 * libFuzzer target for the JSON reader (src/lib/jsonr.c), through its public
 * API (jsonr.h) only.
 *
 * The input, in a heap buffer of exactly its length so that
 * AddressSanitizer sees any read past it, is parsed.  A tree must be
 * consistent: every member found by its name (names are unique), string
 * lengths right, integers equal to their doubles; written out again as
 * JSON it must parse to the same tree and write out the same.  An error
 * must be a "line L, column C: ..." message.  The input is parsed again
 * with a memory budget taken from its bytes, which must give the same
 * result or "out of memory".  Contract violations abort().
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FZ_ERRLEN	256

static void
fz_write_str(FILE *f, const char *s, size_t len)
{
	size_t i;

	putc('"', f);
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			fprintf(f, "\\%c", s[i]);
		else if ((unsigned char)s[i] < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)s[i]);
		else
			putc(s[i], f);
	}
	putc('"', f);
}

/* Checks v and writes it to f as JSON. */
static void
fz_walk(FILE *f, const struct jv *v)
{
	const char *s;
	uint64_t u;
	int64_t i64;
	double d;
	size_t len, i;
	int b;

	switch (jv_type(v)) {
	case JV_NULL:
		fputs("null", f);
		break;
	case JV_BOOL:
		if (jv_bool(v, &b) != 0 || (b != 0 && b != 1))
			abort();
		fputs(b ? "true" : "false", f);
		break;
	case JV_NUM:
		if (jv_num(v, &d) != 0 || !isfinite(d))
			abort();
		if (jv_u64(v, &u) == 0 && (double)u != d)
			abort();
		if (jv_i64(v, &i64) == 0 && (double)i64 != d)
			abort();
		fprintf(f, "%.17g", d);
		break;
	case JV_STR:
		if ((s = jv_str(v, &len)) == NULL || s[len] != '\0' ||
		    jv_len(v) != 0 || jv_at(v, 0) != NULL)
			abort();
		fz_write_str(f, s, len);
		break;
	case JV_ARR:
		putc('[', f);
		for (i = 0; i < jv_len(v); i++) {
			if (i > 0)
				putc(',', f);
			if (jv_key_at(v, i) != NULL)
				abort();
			fz_walk(f, jv_at(v, i));
		}
		if (jv_at(v, i) != NULL)
			abort();
		putc(']', f);
		break;
	case JV_OBJ:
		putc('{', f);
		for (i = 0; i < jv_len(v); i++) {
			if (i > 0)
				putc(',', f);
			if ((s = jv_key_at(v, i)) == NULL)
				abort();
			len = jv_key_len(v, i);
			if (s[len] != '\0')
				abort();
			/* Unique names: a name without NUL finds its own. */
			if (strlen(s) == len && (jv_get(v, s) != jv_at(v, i) ||
			    (strchr(s, '.') == NULL &&
			    jv_path(v, s) != jv_at(v, i))))
				abort();
			fz_write_str(f, s, len);
			putc(':', f);
			fz_walk(f, jv_at(v, i));
		}
		if (jv_at(v, i) != NULL || jv_key_at(v, i) != NULL)
			abort();
		putc('}', f);
		break;
	default:
		abort();
	}
}

/* v written as JSON, in a new buffer. */
static char *
fz_write(const struct jv *v, size_t *len)
{
	char *out;
	FILE *f;

	if ((f = open_memstream(&out, len)) == NULL)
		abort();
	fz_walk(f, v);
	if (fclose(f) != 0)
		abort();
	return out;
}

static void
fz_check_err(const char *err)
{
	if (memchr(err, '\0', FZ_ERRLEN) == NULL ||
	    strncmp(err, "line ", 5) != 0 || strstr(err, ", column ") == NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, *out, *out2, err[FZ_ERRLEN], err2[FZ_ERRLEN];
	struct jv *v, *v2;
	size_t len, len2, max = 0, i;

	if ((copy = malloc(size != 0 ? size : 1)) == NULL)
		abort();
	memcpy(copy, data, size);
	v = jv_parse(copy, size, err, sizeof(err));
	out = NULL;
	len = 0;
	if (v != NULL) {
		out = fz_write(v, &len);
		if ((v2 = jv_parse(out, len, err2, sizeof(err2))) == NULL)
			abort();
		out2 = fz_write(v2, &len2);
		if (len2 != len || memcmp(out, out2, len) != 0)
			abort();
		free(out2);
		jv_free(v2);
	} else
		fz_check_err(err);

	/* Again within a budget from the last bytes. */
	for (i = size > 2 ? size - 2 : 0; i < size; i++)
		max = max * 256 + data[i];
	max *= 4;
	v2 = jv_parse_max(copy, size, max, err2, sizeof(err2));
	if (v2 != NULL) {
		if (v == NULL)
			abort();
		out2 = fz_write(v2, &len2);
		if (len2 != len || memcmp(out, out2, len) != 0)
			abort();
		free(out2);
	} else {
		fz_check_err(err2);
		if (strstr(err2, ": out of memory") == NULL &&
		    (v != NULL || strcmp(err, err2) != 0))
			abort();
	}
	jv_free(v2);
	free(out);
	jv_free(v);
	free(copy);
	return 0;
}
