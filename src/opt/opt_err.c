/*
 * The words of every mistake on the command line: one line each, naming
 * the option, the problem and the offending value, control characters
 * escaped so that no value can break the one-line rule.  Every file of
 * the parser reports through here, and this file calls none of them.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "opt/options_int.h"

/*
 * Writes a user-supplied string so that it cannot break the one-line rule:
 * control characters come out as C escapes.
 */
static void
opt_put_escaped(FILE *f, const char *s)
{
	unsigned char ch;

	for (; *s != '\0'; s++) {
		ch = (unsigned char)*s;
		if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\r')
			fputs("\\r", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			putc(ch, f);
	}
}

void
opt_put_escape_char(FILE *f, unsigned char ch)
{
	if (ch < 0x20 || ch >= 0x7f)
		fprintf(f, "\\x%02x", ch);
	else
		putc(ch, f);
}

/*
 * The one-line message of every mistake: "PROG: NAME[: field]: problem
 * ('value')", NAME being `name' after `dashes' when not NULL.
 */
static int __attribute__((format(printf, 6, 0)))
opt_vfail(const struct opt_ctx *c, const char *dashes, const char *name,
    const char *field, const char *value, const char *fmt, va_list ap)
{
	fprintf(c->err, "%s: ", c->o->prog);
	if (name != NULL) {
		fprintf(c->err, "%s%s", dashes, name);
		if (field != NULL)
			fprintf(c->err, ": %s", field);
		fputs(": ", c->err);
	}
	vfprintf(c->err, fmt, ap);
	if (value != NULL) {
		fputs(" ('", c->err);
		opt_put_escaped(c->err, value);
		fputs("')", c->err);
	}
	putc('\n', c->err);
	return -1;
}

int
opt_fail(const struct opt_ctx *c, const struct opt_row *r,
    const char *field, const char *value, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	opt_vfail(c, "--", r != NULL ? r->name : NULL, field, value, fmt, ap);
	va_end(ap);
	return -1;
}

int
opt_fail_as(const struct opt_ctx *c, const char *name, const char *value,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	opt_vfail(c, "", name, NULL, value, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The text quoted comes from the file, so every byte that is not
 * printable ASCII is escaped.
 */
int
opt_fail_file(const struct opt_ctx *c, const struct opt_row *r,
    const char *path, size_t line, const char *text, const char *fmt, ...)
{
	va_list ap;

	fprintf(c->err, "%s: --%s: ", c->o->prog, r->name);
	opt_put_escaped(c->err, path);
	if (line > 0)
		fprintf(c->err, ": line %zu", line);
	fputs(": ", c->err);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	if (text != NULL) {
		fputs(" ('", c->err);
		util_put_escaped(c->err, text, strlen(text));
		fputs("')", c->err);
	}
	putc('\n', c->err);
	return -1;
}
