/*
 * libFuzzer target for the --data readers (src/lib/datafile.c), CSV and
 * JSON Lines, through lib/datafile.h only.
 *
 * The first byte picks the reader (bit 0: JSON Lines) and whether only
 * the header is read (bit 1); the rest is the file, in a heap buffer of
 * exactly its length plus the NUL the reader is given.  Checked against
 * the contract: a failure has a message naming the file and leaves
 * nothing allocated; a table has columns, rows unless only the header
 * was read, offsets in order within the input, and every column found
 * by its name; and a table written back (every field quoted in CSV,
 * every value a string in JSON Lines) reads back the same.  Contract
 * violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/datafile.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A growable output buffer. */
struct fz_out {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

static void
fz_put(struct fz_out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		if ((o->p = realloc(o->p, o->cap)) == NULL)
			abort();
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

/* One value, quoted as CSV or as a JSON string. */
static void
fz_quote(struct fz_out *o, const char *s, size_t n, int jsonl)
{
	char esc[8];
	size_t i;

	fz_put(o, "\"", 1);
	for (i = 0; i < n; i++) {
		if (!jsonl && s[i] == '"')
			fz_put(o, "\"\"", 2);
		else if (jsonl && (s[i] == '"' || s[i] == '\\')) {
			fz_put(o, "\\", 1);
			fz_put(o, s + i, 1);
		} else if (jsonl && (unsigned char)s[i] < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x",
			    (unsigned char)s[i]);
			fz_put(o, esc, 6);
		} else
			fz_put(o, s + i, 1);
	}
	fz_put(o, "\"", 1);
}

static const char *
fz_name(const struct datafile *d, size_t c, size_t *len)
{
	*len = d->name_off[c + 1] - d->name_off[c];
	return d->names + d->name_off[c];
}

/* The table written back in its format. */
static void
fz_write(const struct datafile *d, int jsonl, struct fz_out *o)
{
	const char *v;
	size_t r, c, len;

	if (!jsonl) {
		for (c = 0; c < d->ncols; c++) {
			fz_put(o, c > 0 ? "," : "", c > 0);
			v = fz_name(d, c, &len);
			fz_quote(o, v, len, 0);
		}
		fz_put(o, "\n", 1);
	}
	for (r = 0; r < d->nrows; r++) {
		fz_put(o, jsonl ? "{" : "", jsonl);
		for (c = 0; c < d->ncols; c++) {
			fz_put(o, c > 0 ? "," : "", c > 0);
			if (jsonl) {
				v = fz_name(d, c, &len);
				fz_quote(o, v, len, 1);
				fz_put(o, ":", 1);
			}
			v = datafile_value(d, r, c, &len);
			fz_quote(o, v, len, jsonl);
		}
		fz_put(o, jsonl ? "}\n" : "\n", jsonl ? 2 : 1);
	}
}

/* The contract of a table read from `size' bytes. */
static void
fz_check(const struct datafile *d, size_t size, int head)
{
	size_t i, len, n = d->nrows * d->ncols;
	const char *name;

	if (d->ncols == 0 || (!head && d->nrows == 0) || d->off[0] != 0 ||
	    d->off[n] > size)
		abort();
	for (i = 0; i < n; i++)
		if (d->off[i] > d->off[i + 1])
			abort();
	for (i = 0; i < d->ncols; i++) {
		name = fz_name(d, i, &len);
		if (len == 0 || datafile_col(d, name, len) != (long)i)
			abort();
	}
}

/* Reads `o' back: the same names and values as `d'. */
static void
fz_same(const struct datafile *d, struct fz_out *o, int jsonl)
{
	struct datafile e;
	const char *a, *b;
	size_t i, la, lb;
	char err[256];

	if (datafile_parse(&e, o->p, o->len, jsonl, 0, "back", err,
	    sizeof(err)) == -1 || e.ncols != d->ncols || e.nrows != d->nrows)
		abort();
	o->p = NULL;
	for (i = 0; i < d->ncols; i++) {
		a = fz_name(d, i, &la);
		b = fz_name(&e, i, &lb);
		if (la != lb || memcmp(a, b, la) != 0)
			abort();
	}
	for (i = 0; i < d->nrows * d->ncols; i++) {
		a = datafile_value(d, i / d->ncols, i % d->ncols, &la);
		b = datafile_value(&e, i / d->ncols, i % d->ncols, &lb);
		if (la != lb || memcmp(a, b, la) != 0)
			abort();
	}
	datafile_free(&e);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct datafile d;
	struct fz_out o = { NULL, 0, 0 };
	const char *name;
	char *s, err[256];
	int jsonl, head;

	if (size == 0)
		return 0;
	jsonl = data[0] & 1;
	head = (data[0] & 2) != 0;
	name = jsonl ? "f.jsonl" : "f.csv";
	data++;
	size--;
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	err[0] = '\0';
	if (datafile_parse(&d, s, size, jsonl, head, name, err,
	    sizeof(err)) == -1) {
		if (strncmp(err, name, strlen(name)) != 0 || d.vals != NULL ||
		    d.off != NULL || d.names != NULL || d.name_off != NULL)
			abort();
		return 0;
	}
	fz_check(&d, size, head);
	if (!head) {
		fz_write(&d, jsonl, &o);
		fz_same(&d, &o, jsonl);
	}
	free(o.p);
	datafile_free(&d);
	return 0;
}
