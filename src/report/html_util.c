/*
 * The page's shared helpers (html_util.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
