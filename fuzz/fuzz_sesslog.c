/*
 * libFuzzer target for the --wsesslog session file parser
 * (src/gen/sesslog.c).  The input is a whole file image, copied into a
 * heap buffer of exactly its size (it is not NUL-terminated) so that
 * AddressSanitizer sees any read past the end.  Every parsed string is
 * read byte by byte, the structure is checked against the promises of
 * sesslog.h, and the log is freed.  Contract violations abort().
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/sesslog.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Size of the error buffer, kept on the heap to catch overflows. */
#define FZ_ERRLEN	256

/*
 * Folds a NUL-terminated string of `len' bytes into `h'; aborts if the NUL
 * is not where the length says.
 */
static uint64_t
fz_touch(uint64_t h, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	if (s[len] != '\0')
		abort();
	return h;
}

/* Checks one request and reads all its bytes. */
static uint64_t
fz_check_req(uint64_t h, const struct sesslog_req *q)
{
	if (q->uri == NULL || q->line == 0)
		abort();
	h = fz_touch(h, q->uri, q->uri_len);
	if (q->method != NULL)
		h = fz_touch(h, q->method, q->method_len);
	if ((q->body == NULL) != (q->clen == NULL))
		abort();
	if (q->body != NULL) {
		h = fz_touch(h, q->body, q->body_len);
		h = fz_touch(h, q->clen, q->clen_len);
		if (q->clen_len < 19 ||
		    strncmp(q->clen, "Content-Length: ", 16) != 0 ||
		    q->clen[q->clen_len - 2] != '\r' ||
		    q->clen[q->clen_len - 1] != '\n')
			abort();
	}
	if (q->think != -1 && !(q->think >= 0 && isfinite(q->think)))
		abort();
	return h;
}

/* Walks the whole log; returns a digest so the reads are not dropped. */
static uint64_t
fz_walk(const struct sesslog *log)
{
	const struct sesslog_sess *s;
	const struct sesslog_burst *b;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i, j, k, nreqs;
	unsigned line = 0;

	if (log->nsess != 0 && log->sess == NULL)
		abort();
	for (i = 0; i < log->nsess; i++) {
		s = &log->sess[i];
		/* Blank lines never make empty sessions or bursts. */
		if (s->nbursts == 0 || s->bursts == NULL)
			abort();
		nreqs = 0;
		for (j = 0; j < s->nbursts; j++) {
			b = &s->bursts[j];
			if (b->nreqs == 0 || b->reqs == NULL)
				abort();
			if (b->think != -1 &&
			    !(b->think >= 0 && isfinite(b->think)))
				abort();
			for (k = 0; k < b->nreqs; k++) {
				/* Requests come in file order. */
				if (b->reqs[k].line <= line)
					abort();
				line = b->reqs[k].line;
				h = fz_check_req(h, &b->reqs[k]);
			}
			nreqs += b->nreqs;
		}
		if (nreqs != s->nreqs)
			abort();
	}
	return h;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sesslog log;
	char *copy, *errbuf;
	const char *fname;
	volatile uint64_t sink;

	if ((copy = malloc(size != 0 ? size : 1)) == NULL ||
	    (errbuf = malloc(FZ_ERRLEN)) == NULL)
		abort();
	if (size != 0)
		memcpy(copy, data, size);
	/* The name in messages: given, or NULL for "-". */
	fname = size % 2 == 0 ? "fuzz.log" : NULL;
	memset(errbuf, 'x', FZ_ERRLEN);
	memset(&log, 0xa5, sizeof(log));
	if (sesslog_parse(&log, copy, size, fname, errbuf,
	    FZ_ERRLEN) == 0) {
		sink = fz_walk(&log);
		(void)sink;
	} else {
		if (log.nsess != 0)
			abort();
		if (memchr(errbuf, '\0', FZ_ERRLEN) == NULL)
			abort();
		if (strncmp(errbuf, fname != NULL ? fname : "-",
		    strlen(fname != NULL ? fname : "-")) != 0)
			abort();
	}
	sesslog_free(&log);
	if (log.nsess != 0 || log.sess != NULL)
		abort();
	free(errbuf);
	free(copy);
	return 0;
}
