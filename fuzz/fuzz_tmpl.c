/*
 * libFuzzer target for the template compiler and its expansion
 * (src/lib/tmpl.c), through lib/tmpl.h only.
 *
 * The input is the template, in a heap buffer of exactly its length (not
 * NUL-terminated) so that AddressSanitizer sees any read past it.  Names
 * that start with 'x' are known to a resolver (their hook appends
 * "<id>"), the others are unknown.  Checked against the contract:
 * a failure has a message and a column within the input and leaves
 * nothing allocated; an input without "{{" compiles to itself; the
 * literal bytes never exceed the input; two expansions from the same seed
 * are the same bytes; every random piece's text has its alphabet and
 * length.  Contract violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tmpl.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The most a run expands (randstr's lengths added up). */
#define FZ_EXPAND_MAX	((uint64_t)4 << 20)

static int
fz_resolve(void *arg, const char *name, size_t len)
{
	(void)arg;
	return len > 0 && name[0] == 'x' ? (int)len : -1;
}

static int
fz_value(void *arg, void *subject, uint64_t id, struct tmpl_buf *out)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "<%llu>", (unsigned long long)id);

	(void)arg;
	(void)subject;
	tmpl_buf_add(out, buf, (size_t)n);
	return 0;
}

static void
fz_expand(const struct tmpl *t, struct tmpl_buf *b)
{
	struct tmpl_rng rng;
	struct tmpl_ctx ctx;

	tmpl_rng_seed(&rng, 7, 3);
	memset(&ctx, 0, sizeof(ctx));
	ctx.seq = 1;
	ctx.conn = 2;
	ctx.session = 3;
	ctx.client = 3;
	ctx.epoch_ns = UINT64_C(1764212345678901234);
	ctx.rng = &rng;
	ctx.value = fz_value;
	if (tmpl_expand(t, &ctx, b) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size ? size : 1), err[256];
	struct tmpl t;
	struct tmpl_buf a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	uint64_t total = 0;
	size_t col = 0, i;
	int has_open;

	if (s == NULL)
		return 0;
	if (size > 0)
		memcpy(s, data, size);
	has_open = size >= 2 && memmem(s, size, "{{", 2) != NULL;
	err[0] = '\0';
	if (tmpl_compile(&t, s, size, fz_resolve, NULL, err, sizeof(err),
	    &col) == -1) {
		if (!has_open || err[0] == '\0' || col < 1 || col > size ||
		    t.text != NULL || t.pieces != NULL || t.n != 0)
			abort();
		free(s);
		return 0;
	}
	if (t.text_len > size || (t.vars && !has_open))
		abort();
	for (i = 0; i < t.n; i++) {
		if (t.pieces[i].kind == TMPL_LIT &&
		    t.pieces[i].off + t.pieces[i].len > t.text_len)
			abort();
		if (t.pieces[i].kind == TMPL_RANDSTR) {
			if (t.pieces[i].a < 1 ||
			    t.pieces[i].a > TMPL_RANDSTR_MAX)
				abort();
			total += t.pieces[i].a;
		}
		if (t.pieces[i].kind == TMPL_RAND &&
		    (int64_t)t.pieces[i].a > (int64_t)t.pieces[i].b)
			abort();
	}
	if (total <= FZ_EXPAND_MAX) {
		fz_expand(&t, &a);
		fz_expand(&t, &b);
		if (a.len != b.len || (a.len > 0 && memcmp(a.p, b.p, a.len)))
			abort();
		if (!has_open && (a.len != size ||
		    (size > 0 && memcmp(a.p, s, size) != 0)))
			abort();
	}
	free(a.p);
	free(b.p);
	tmpl_free(&t);
	free(s);
	return 0;
}
