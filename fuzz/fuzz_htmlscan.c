/*
 * libFuzzer target for the HTML scanner (src/lib/htmlscan.c), through
 * lib/htmlscan.h only.
 *
 * The first byte chooses the limit (0: HTMLSCAN_MAX_OBJECTS, else 1 to
 * 255); the rest is the page, in a heap buffer of exactly its length (not
 * NUL-terminated) so that AddressSanitizer sees any read past it.
 * Checked against the contract: at most the limit of objects and of
 * links; every URL non-empty, NUL-terminated at its length, at most
 * HTMLSCAN_MAX_URL bytes, without tab, newline or CR, and without leading
 * or trailing space; two scans give the same URLs and counts.  Contract
 * violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/htmlscan.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fz_check_url(const struct htmlscan_url *u)
{
	if (u->len == 0 || u->len > HTMLSCAN_MAX_URL ||
	    strlen(u->s) != u->len || u->tag == NULL ||
	    strpbrk(u->s, "\t\n\r") != NULL || u->s[0] == ' ' ||
	    u->s[u->len - 1] == ' ')
		abort();
}

static void
fz_same(const struct htmlscan_list *a, const struct htmlscan_list *b)
{
	size_t i;

	if (a->n != b->n)
		abort();
	for (i = 0; i < a->n; i++) {
		fz_check_url(&a->v[i]);
		if (a->v[i].len != b->v[i].len ||
		    memcmp(a->v[i].s, b->v[i].s, a->v[i].len) != 0 ||
		    strcmp(a->v[i].tag, b->v[i].tag) != 0)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct htmlscan a, b;
	size_t max, len;
	char *page;

	if (size == 0)
		return 0;
	max = data[0] == 0 ? HTMLSCAN_MAX_OBJECTS : data[0];
	len = size - 1;
	page = malloc(len > 0 ? len : 1);
	if (page == NULL)
		abort();
	memcpy(page, data + 1, len);
	if (htmlscan(&a, page, len, max) != 0 ||
	    htmlscan(&b, page, len, max) != 0)
		abort();
	if (a.objects.n > max || a.links.n > max || a.over != b.over ||
	    a.links_over != b.links_over || a.too_long != b.too_long ||
	    (a.base == NULL) != (b.base == NULL) ||
	    (a.base != NULL && strcmp(a.base, b.base) != 0))
		abort();
	fz_same(&a.objects, &b.objects);
	fz_same(&a.links, &b.links);
	htmlscan_free(&a);
	htmlscan_free(&b);
	free(page);
	return 0;
}
