/*
 * libFuzzer target for the JSON path lookup (src/lib/jsonpath.c),
 * through lib/jsonpath.h only.
 *
 * The input is a path, a newline, then the document, which is copied to
 * a heap buffer of exactly its length (not NUL-terminated) so that
 * AddressSanitizer sees any read past it.  Checked against the contract:
 * a compile failure has a message and a column within the path (at most
 * one past its end) and leaves nothing allocated; a lookup that fails
 * leaves the output as it was; a value found is never longer than the
 * document (escapes only shrink); two lookups give the same bytes.
 * Contract violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonpath.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	struct tmpl_buf a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	struct jsonpath p;
	size_t plen, dlen, col = 0;
	char err[128], *path, *doc;
	int ra, rb;

	if (nl == NULL)
		return 0;
	plen = (size_t)(nl - data);
	dlen = size - plen - 1;
	path = malloc(plen > 0 ? plen : 1);
	doc = malloc(dlen > 0 ? dlen : 1);
	if (path == NULL || doc == NULL)
		abort();
	memcpy(path, data, plen);
	memcpy(doc, nl + 1, dlen);
	err[0] = '\0';
	if (jsonpath_compile(&p, path, plen, err, sizeof(err), &col) == -1) {
		if (err[0] == '\0' || col == 0 || col > plen + 1 ||
		    p.text != NULL)
			abort();
		goto out;
	}
	if (p.n == 0 || p.n > JSONPATH_MAX_STEPS)
		abort();
	tmpl_buf_add(&a, "x", 1);
	ra = jsonpath_get(&p, doc, dlen, &a);
	rb = jsonpath_get(&p, doc, dlen, &b);
	if (ra != rb || (ra == -1 && (a.len != 1 || b.len != 0)))
		abort();
	if (ra == 0 && (b.len > dlen || a.len != b.len + 1 ||
	    (b.len > 0 && memcmp(a.p + 1, b.p, b.len) != 0)))
		abort();
	jsonpath_free(&p);
out:
	free(a.p);
	free(b.p);
	free(path);
	free(doc);
	return 0;
}
