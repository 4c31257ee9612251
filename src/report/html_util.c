/*
 * The page's shared helpers (html_util.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/html_esc.h"
#include "lib/jsonr.h"
#include "report/html_util.h"

int
html_num(const struct jv *v, const char *path, double *out)
{
	return jv_num(*path != '\0' ? jv_path(v, path) : v, out);
}

const char *
html_str(const struct jv *v, const char *path)
{
	return jv_str(jv_path(v, path), NULL);
}

void
html_put_num(FILE *f, const struct jv *v, const char *path, int dec,
    const char *unit, double scale)
{
	double d;

	if (html_num(v, path, &d) != 0) {
		fputs("n/a", f);
		return;
	}
	if (dec < 0)
		fprintf(f, "%g%s", d * scale, unit);
	else
		fprintf(f, "%.*f%s", dec, d * scale, unit);
}

void
html_put_str(FILE *f, const struct jv *v, const char *path)
{
	const char *s = html_str(v, path);

	if (s != NULL)
		html_escape(f, s);
	else
		fputs("n/a", f);
}

char *
html_fmtdup(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || (s = malloc((size_t)n + 1)) == NULL)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* A load value, short: a number, a string (cut), a session count. */
static void
load_text(const struct jv *v, char *buf, size_t len)
{
	const struct jv *n;
	const char *s;
	size_t sl;
	double d;

	if (jv_type(v) == JV_OBJ && ((n = jv_get(v, "N1")) != NULL ||
	    (n = jv_get(v, "N")) != NULL))
		v = n;
	if (jv_num(v, &d) == 0)
		snprintf(buf, len, "%g", d);
	else if ((s = jv_str(v, &sl)) != NULL) {
		/* At most 40 bytes, cut between two UTF-8 characters. */
		if (sl > 40)
			for (sl = 40; sl > 0 && ((unsigned char)s[sl] &
			    0xc0) == 0x80; sl--)
				;
		snprintf(buf, len, "%.*s", (int)sl, s);
	}
	else
		snprintf(buf, len, "-");
}

/* Whether load option k shows: it differs between the files, and it is
   no echo of another (--period of --rate, --rate of --call-rate). */
static int
load_shows(const struct jv *files, const char *k)
{
	char a[64], b[64];
	size_t i;

	if (strcmp(k, "period") == 0 || (strcmp(k, "rate") == 0 &&
	    jv_type(jv_path(jv_at(files, 0), "load.call-rate")) == JV_STR))
		return 0;
	load_text(jv_get(jv_get(jv_at(files, 0), "load"), k), a, sizeof(a));
	for (i = 1; i < jv_len(files); i++) {
		load_text(jv_get(jv_get(jv_at(files, i), "load"), k), b,
		    sizeof(b));
		if (strcmp(a, b) != 0)
			return 1;
	}
	return 0;
}

/* The load options html_put_loads() shows at most. */
#define LOAD_KEYS	16

void
html_put_loads(FILE *f, const struct jv *doc, size_t max)
{
	const struct jv *files = jv_path(doc, "merged.files"), *ld;
	const char *keys[LOAD_KEYS], *sep;
	char t[64];
	size_t i, j, nk = 0;
	int eq;

	if (jv_bool(jv_path(doc, "merged.equal_load"), &eq) != 0 || eq ||
	    jv_len(files) == 0)
		return;
	ld = jv_get(jv_at(files, 0), "load");
	for (j = 0; j < jv_len(ld) && nk < LOAD_KEYS; j++)
		if (load_shows(files, jv_key_at(ld, j)))
			keys[nk++] = jv_key_at(ld, j);
	fputs("<div><dt>Loads</dt><dd id=\"loads\">", f);
	for (i = 0; i < jv_len(files) && i < max; i++) {
		ld = jv_get(jv_at(files, i), "load");
		fputs(i > 0 ? "; client " : "client ", f);
		html_put_str(f, jv_at(files, i), "client");
		for (j = 0, sep = ": "; j < nk; j++, sep = ", ") {
			load_text(jv_get(ld, keys[j]), t, sizeof(t));
			fprintf(f, "%s--", sep);
			html_escape(f, keys[j]);
			fputc(' ', f);
			html_escape(f, t);
		}
	}
	if (jv_len(files) > max)
		fputs("; \xe2\x80\xa6", f);
	fputs("</dd></div>\n", f);
}
