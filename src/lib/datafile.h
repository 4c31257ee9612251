/*
 * Data files (--data): a table of values read once at start, either CSV
 * with a header row (RFC 4180: fields in double quotes may hold commas,
 * line breaks and "" for a quote; lines end in CRLF or LF) or JSON Lines
 * (one flat object a line, whose members are strings, numbers or
 * booleans; the first line's keys name the columns, every later line has
 * exactly those keys, in any order).  Blank lines are skipped, as is a
 * UTF-8 byte order mark at the start.
 *
 * The rows are kept compact: every value unescaped, back to back, in
 * the file's own buffer (rewritten in place), and one 32-bit offset a
 * value; nothing is allocated per row.  A mistake is one message
 * "NAME:LINE: problem", LINE counting the file's lines from 1 (a CSV
 * record's first line).
 */
#ifndef HTTPERF_LIB_DATAFILE_H
#define HTTPERF_LIB_DATAFILE_H

#include <stddef.h>
#include <stdint.h>

/* The most a header is looked for in, when only the header is read. */
#define DATAFILE_HEAD_MAX	((size_t)1 << 20)

struct datafile {
	char		*vals;		/* the values, back to back */
	uint32_t	*off;		/* value i (row * ncols + col) is
					   vals[off[i], off[i + 1]) */
	size_t		 nrows;
	size_t		 ncols;
	char		*names;		/* the columns' names, back to back */
	uint32_t	*name_off;	/* as off, ncols + 1 of them */
};

/* Non-zero if `path' names a JSON Lines file: .jsonl or .ndjson. */
int	datafile_is_jsonl(const char *path);

/*
 * Parses `len' bytes of `text', a buffer of malloc()'s of at least
 * len + 1 bytes that the table takes over (freed on error too).  With
 * `head' only the header (CSV) or the first line (JSON Lines) is read,
 * and the table may have no row.  Returns 0, or -1 with the problem in
 * err, naming `name'.  Without `head', a table without any row is an
 * error.
 */
int	datafile_parse(struct datafile *d, char *text, size_t len, int jsonl,
	    int head, const char *name, char *err, size_t errlen);

/*
 * Reads regular file `path' (at most 1 GiB) whole, or with `head' only
 * its first DATAFILE_HEAD_MAX bytes for the header, in the format its
 * name says.  Returns 0, or -1 with the problem in err.
 */
int	datafile_load(struct datafile *d, const char *path, int head,
	    char *err, size_t errlen);

/* The index of the column called name[0, len), or -1. */
long	datafile_col(const struct datafile *d, const char *name, size_t len);

/* The value of column `col' of row `row', *len bytes (no NUL after). */
static inline const char *
datafile_value(const struct datafile *d, size_t row, size_t col,
    size_t *len)
{
	size_t i = row * d->ncols + col;

	*len = d->off[i + 1] - d->off[i];
	return d->vals + d->off[i];
}

/* Frees the table.  Harmless twice. */
void	datafile_free(struct datafile *d);

#endif
