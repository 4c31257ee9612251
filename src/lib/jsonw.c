/*
 * Streaming JSON writer (see jsonw.h).  Layout: every member and element
 * on its own line, indented two spaces per level; an empty object or
 * array is written "{}" or "[]".
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"

void
jsonw_init(struct jsonw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void
jsonw_indent(struct jsonw *w)
{
	int i;

	putc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/*
 * Before any value: checks that one may come here, and writes the comma
 * and the line break an array element needs (a member's came with its
 * key).  Returns 0, or -1 (and fails the writer) on misuse.
 */
static int
jsonw_pre_value(struct jsonw *w)
{
	if (w->failed)
		return -1;
	if (w->depth == 0) {
		if (w->done) {
			w->failed = 1;
			return -1;
		}
		return 0;
	}
	if (w->is_obj[w->depth - 1]) {
		if (!w->after_key) {
			w->failed = 1;
			return -1;
		}
		w->after_key = 0;
		return 0;
	}
	if (w->has_item[w->depth - 1])
		putc(',', w->f);
	w->has_item[w->depth - 1] = 1;
	jsonw_indent(w);
	return 0;
}

/* After a value: at the top level the document is then complete. */
static void
jsonw_post_value(struct jsonw *w)
{
	if (w->depth == 0)
		w->done = 1;
}

static void
jsonw_begin(struct jsonw *w, int obj)
{
	if (jsonw_pre_value(w) == -1)
		return;
	if (w->depth == JSONW_MAX_DEPTH) {
		w->failed = 1;
		return;
	}
	putc(obj ? '{' : '[', w->f);
	w->is_obj[w->depth] = (unsigned char)obj;
	w->has_item[w->depth] = 0;
	w->depth++;
}

static void
jsonw_end(struct jsonw *w, int obj)
{
	int had;

	if (w->failed)
		return;
	if (w->depth == 0 || w->is_obj[w->depth - 1] != obj ||
	    w->after_key) {
		w->failed = 1;
		return;
	}
	had = w->has_item[w->depth - 1];
	w->depth--;
	if (had)
		jsonw_indent(w);
	putc(obj ? '}' : ']', w->f);
	jsonw_post_value(w);
}

void
jsonw_obj_begin(struct jsonw *w)
{
	jsonw_begin(w, 1);
}

void
jsonw_obj_end(struct jsonw *w)
{
	jsonw_end(w, 1);
}

void
jsonw_arr_begin(struct jsonw *w)
{
	jsonw_begin(w, 0);
}

void
jsonw_arr_end(struct jsonw *w)
{
	jsonw_end(w, 0);
}

/*
 * Returns the length of the valid UTF-8 sequence at s (of n bytes left),
 * or 0 when s[0] does not begin one (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF).
 */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* overlong below U+0800 */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* surrogates U+D800..U+DFFF */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;	/* overlong below U+10000 */
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* Writes s as a JSON string (see jsonw.h for the escaping). */
static void
jsonw_quote(struct jsonw *w, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, len;
	unsigned char ch;

	putc('"', w->f);
	while (i < n) {
		ch = s[i];
		switch (ch) {
		case '"':
			fputs("\\\"", w->f);
			break;
		case '\\':
			fputs("\\\\", w->f);
			break;
		case '\b':
			fputs("\\b", w->f);
			break;
		case '\f':
			fputs("\\f", w->f);
			break;
		case '\n':
			fputs("\\n", w->f);
			break;
		case '\r':
			fputs("\\r", w->f);
			break;
		case '\t':
			fputs("\\t", w->f);
			break;
		default:
			if (ch < 0x20 || ch == 0x7f) {
				fprintf(w->f, "\\u%04x", ch);
				break;
			}
			if ((len = utf8_len(s + i, n - i)) == 0) {
				fputs("\\ufffd", w->f);
				break;
			}
			fwrite(s + i, 1, len, w->f);
			i += len;
			continue;
		}
		i++;
	}
	putc('"', w->f);
}

void
jsonw_key(struct jsonw *w, const char *k)
{
	if (w->failed)
		return;
	if (w->depth == 0 || !w->is_obj[w->depth - 1] || w->after_key ||
	    k == NULL) {
		w->failed = 1;
		return;
	}
	if (w->has_item[w->depth - 1])
		putc(',', w->f);
	w->has_item[w->depth - 1] = 1;
	jsonw_indent(w);
	jsonw_quote(w, k, strlen(k));
	fputs(": ", w->f);
	w->after_key = 1;
}

void
jsonw_strn(struct jsonw *w, const char *s, size_t len)
{
	if (jsonw_pre_value(w) == -1)
		return;
	jsonw_quote(w, s, len);
	jsonw_post_value(w);
}

void
jsonw_str(struct jsonw *w, const char *s)
{
	if (s == NULL)
		jsonw_null(w);
	else
		jsonw_strn(w, s, strlen(s));
}

void
jsonw_u64(struct jsonw *w, uint64_t v)
{
	if (jsonw_pre_value(w) == -1)
		return;
	fprintf(w->f, "%" PRIu64, v);
	jsonw_post_value(w);
}

void
jsonw_i64(struct jsonw *w, int64_t v)
{
	if (jsonw_pre_value(w) == -1)
		return;
	fprintf(w->f, "%" PRId64, v);
	jsonw_post_value(w);
}

char *
jsonw_fmt_double(char *buf, double d)
{
	int prec;

	if (!isfinite(d)) {
		strcpy(buf, "null");
		return buf;
	}
	/* Whole numbers as such ("100", not "1e+02") while exact. */
	if (d == floor(d) && fabs(d) < 9007199254740992.0) {
		snprintf(buf, JSONW_DBL_LEN, "%.0f", d);
		return buf;
	}
	/* %.17g always reads back exactly; stop at the first that does. */
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, JSONW_DBL_LEN, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return buf;
}

void
jsonw_double(struct jsonw *w, double v)
{
	char buf[JSONW_DBL_LEN];

	if (jsonw_pre_value(w) == -1)
		return;
	fputs(jsonw_fmt_double(buf, v), w->f);
	jsonw_post_value(w);
}

void
jsonw_bool(struct jsonw *w, int v)
{
	if (jsonw_pre_value(w) == -1)
		return;
	fputs(v ? "true" : "false", w->f);
	jsonw_post_value(w);
}

void
jsonw_null(struct jsonw *w)
{
	if (jsonw_pre_value(w) == -1)
		return;
	fputs("null", w->f);
	jsonw_post_value(w);
}

void
jsonw_kstr(struct jsonw *w, const char *k, const char *s)
{
	jsonw_key(w, k);
	jsonw_str(w, s);
}

void
jsonw_ku64(struct jsonw *w, const char *k, uint64_t v)
{
	jsonw_key(w, k);
	jsonw_u64(w, v);
}

void
jsonw_kdouble(struct jsonw *w, const char *k, double v)
{
	jsonw_key(w, k);
	jsonw_double(w, v);
}

void
jsonw_kbool(struct jsonw *w, const char *k, int v)
{
	jsonw_key(w, k);
	jsonw_bool(w, v);
}

int
jsonw_finish(struct jsonw *w)
{
	if (!w->failed && w->done)
		putc('\n', w->f);
	if (fflush(w->f) != 0 || ferror(w->f))
		w->failed = 1;
	return w->failed || !w->done ? -1 : 0;
}
