/*
 * --template: --uri, the header lines (--add-header, --add-header-file)
 * and the body (--body, --body-file) are templates (lib/tmpl.h).  Each is
 * compiled here once the command line is whole, so that a mistake is one
 * line at start naming the option and the column (counted in bytes of
 * the value after its escapes, from 1); setup.c compiles them again for
 * the run.  --uri is a word as before, but for blanks between "{{" and
 * "}}" (rand's arguments), which only --template lets through.
 *
 * --data F: {{data.COL}} needs COL among F's columns; only F's header is
 * read here (the rows are read once, by setup.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/data.h"
#include "lib/datafile.h"
#include "lib/tmpl.h"
#include "lib/util.h"
#include "opt/options_int.h"

/* Turns the blanks inside each placeholder of s into '_', as tmpl reads
   them ("{{{{" is a literal, an unterminated placeholder is left). */
static void
opt_tmpl_blank(char *s)
{
	char *open, *close;

	while ((open = strstr(s, "{{")) != NULL) {
		if (strncmp(open, "{{{{", 4) == 0) {
			s = open + 4;
			continue;
		}
		if ((close = strstr(open + 2, "}}")) == NULL)
			return;
		for (s = open + 2; s < close; s++)
			if (*s == ' ' || *s == '\t')
				*s = '_';
		s = close + 2;
	}
}

int
opt_uri(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	static const struct opt_val word = { .kind = OPT_K_WORD };
	union opt_value v;
	char *s = xstrdup(arg);
	int rc;

	opt_tmpl_blank(s);
	rc = opt_parse_val(c, r, &word, arg, s, &v);
	free(s);
	if (rc == -1)
		return -1;
	c->o->uri = arg;
	return 0;
}

/*
 * Compiles one value; says what is wrong with it, quoting `quote'.
 * Returns 1 if it has a placeholder, 0 if not, -1 if it is wrong.
 */
static int
opt_tmpl_one(const struct opt_ctx *c, enum opt_id id, const char *s,
    size_t len, const char *quote, struct datafile *df)
{
	struct tmpl t;
	char err[256];
	size_t col;
	int vars;

	if (tmpl_compile(&t, s, len, data_resolve, df, err, sizeof(err),
	    &col) == 0) {
		vars = t.vars;
		tmpl_free(&t);
		return vars;
	}
	if (id == OPT_BODY_FILE)
		return opt_fail_file(c, &opt_table[id], c->o->body_file, 0,
		    NULL, "column %zu: %s", col, err);
	return opt_fail(c, &opt_table[id], NULL, quote, "column %zu: %s", col,
	    err);
}

/*
 * The header lines are one template; a mistake is shown in its line,
 * under the option that gave it.
 */
static int
opt_tmpl_hdrs(const struct opt_ctx *c, struct datafile *df)
{
	const struct options *o = c->o;
	const char *s = o->add_header, *p, *e, *l;
	struct tmpl t;
	char err[256], *line;
	size_t col;
	int id;

	if (o->add_header_len == 0)
		return 0;
	if (tmpl_compile(&t, s, o->add_header_len, data_resolve, df, err,
	    sizeof(err), &col) == 0) {
		tmpl_free(&t);
		return 0;
	}
	/* The line around byte col - 1. */
	p = s + col - 1;
	for (l = p; l > s && l[-1] != '\n'; l--)
		;
	e = memchr(p, '\r', (size_t)(s + o->add_header_len - p));
	if (e == NULL)
		e = s + o->add_header_len;
	line = xmalloc((size_t)(e - l) + 1);
	memcpy(line, l, (size_t)(e - l));
	line[e - l] = '\0';
	id = c->given[OPT_ADD_HEADER] || !c->given[OPT_ADD_HEADER_FILE] ?
	    OPT_ADD_HEADER : OPT_ADD_HEADER_FILE;
	opt_fail(c, &opt_table[id], NULL, line, "column %zu: %s",
	    (size_t)(p - l) + 1, err);
	free(line);
	return -1;
}

/* --template's fields, with the columns of `df' (NULL: no --data). */
static int
opt_tmpl_fields(const struct opt_ctx *c, struct datafile *df)
{
	const struct options *o = c->o;
	int vars;

	if ((vars = opt_tmpl_one(c, OPT_URI, o->uri, strlen(o->uri),
	    o->uri, df)) == -1)
		return -1;
	/* --wset makes its URIs from --uri: they would carry the braces. */
	if (vars && c->given[OPT_WSET])
		return opt_fail(c, &opt_table[OPT_URI], NULL, o->uri,
		    "placeholders cannot be used with --wset (its URIs are "
		    "made from this prefix)");
	if (opt_tmpl_hdrs(c, df) == -1)
		return -1;
	if (o->body != NULL && opt_tmpl_one(c, c->given[OPT_BODY_FILE] ?
	    OPT_BODY_FILE : OPT_BODY, o->body, o->body_len, o->body_raw,
	    df) == -1)
		return -1;
	return 0;
}

int
opt_check_tmpl(const struct opt_ctx *c)
{
	const struct options *o = c->o;
	struct datafile df;
	char err[512], msg[512];
	int rv;

	if (!o->template) {
		if (strpbrk(o->uri, " \t") != NULL)
			return opt_fail(c, &opt_table[OPT_URI], NULL, o->uri,
			    "contains a space or control character "
			    "(blanks in {{...}} need --template)");
		return 0;
	}
	if (o->data_file == NULL)
		return opt_tmpl_fields(c, NULL);
	if (datafile_load(&df, o->data_file, 1, err, sizeof(err)) == -1)
		return opt_fail(c, &opt_table[OPT_DATA], NULL, NULL, "%s",
		    util_escape(msg, sizeof(msg), err, strlen(err)));
	rv = opt_tmpl_fields(c, &df);
	datafile_free(&df);
	return rv;
}

int
opt_data_order(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	if (strcmp(arg, "seq") == 0)
		c->o->data_random = 0;
	else if (strcmp(arg, "random") == 0)
		c->o->data_random = 1;
	else
		return opt_fail(c, r, NULL, arg, "expected seq or random");
	return 0;
}

void
opt_echo_data_order(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	if (o->data_random)
		fprintf(out, " --%s=random", r->name);
}

int
opt_data_wrap(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	if (strcmp(arg, "y") == 0 || strcmp(arg, "yes") == 0)
		c->o->data_no_wrap = 0;
	else if (strcmp(arg, "n") == 0 || strcmp(arg, "no") == 0)
		c->o->data_no_wrap = 1;
	else
		return opt_fail(c, r, NULL, arg, "expected y or n");
	return 0;
}

void
opt_echo_data_wrap(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	if (o->data_no_wrap)
		fprintf(out, " --%s=n", r->name);
}
