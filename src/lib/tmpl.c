/*
 * Templates (see tmpl.h): the compiler, the expansion and the random
 * generator behind it.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tmpl.h"
#include "lib/util.h"

void
tmpl_buf_add(struct tmpl_buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (b->len + n + 1 > cap)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static uint64_t
tmpl_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void
tmpl_rng_seed(struct tmpl_rng *r, uint64_t seed, unsigned client)
{
	/* The client's id picks a stream: the seed's own mixed with it. */
	uint64_t x = seed ^ ((uint64_t)client * 0xd1b54a32d192ed03u);
	size_t i;

	for (i = 0; i < 4; i++)
		r->s[i] = tmpl_splitmix(&x);
}

static uint64_t
tmpl_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
tmpl_rng_next(struct tmpl_rng *r)
{
	uint64_t *s = r->s;
	uint64_t v = tmpl_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = tmpl_rotl(s[3], 45);
	return v;
}

uint64_t
tmpl_rng_below(struct tmpl_rng *r, uint64_t n)
{
	/* Rejects the top partial copy of [0, n). */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, v;

	do
		v = tmpl_rng_next(r);
	while (v >= lim);
	return v % n;
}

/* The built-in names and how many arguments each takes. */
static const struct {
	const char	*name;
	enum tmpl_kind	 kind;
	int		 nargs;
} tmpl_vars[] = {
	{ "seq", TMPL_SEQ, 0 },
	{ "conn", TMPL_CONN, 0 },
	{ "session", TMPL_SESSION, 0 },
	{ "client", TMPL_CLIENT, 0 },
	{ "rand", TMPL_RAND, 2 },
	{ "randstr", TMPL_RANDSTR, 1 },
	{ "uuid", TMPL_UUID, 0 },
	{ "time", TMPL_TIME, 0 },
	{ "time_ms", TMPL_TIME_MS, 0 },
};

/* The compiler's state. */
struct tmpl_cc {
	struct tmpl	*t;
	size_t		 cap;
	const char	*s;		/* the source */
	char		*err;
	size_t		 errlen;
	size_t		*col;
};

static int __attribute__((format(printf, 3, 4)))
tmpl_fail(struct tmpl_cc *cc, const char *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cc->err, cc->errlen, fmt, ap);
	va_end(ap);
	*cc->col = (size_t)(at - cc->s) + 1;
	return -1;
}

static struct tmpl_piece *
tmpl_push(struct tmpl_cc *cc, enum tmpl_kind kind)
{
	struct tmpl *t = cc->t;
	struct tmpl_piece *p;

	if (t->n == cc->cap) {
		cc->cap = cc->cap ? cc->cap * 2 : 8;
		t->pieces = xreallocarray(t->pieces, cc->cap,
		    sizeof(*t->pieces));
	}
	p = &t->pieces[t->n++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	return p;
}

/* Adds literal bytes, joining them to a literal just before. */
static void
tmpl_lit(struct tmpl_cc *cc, const char *p, size_t n)
{
	struct tmpl *t = cc->t;
	struct tmpl_piece *last = t->n > 0 ? &t->pieces[t->n - 1] : NULL;

	if (n == 0)
		return;
	if (last == NULL || last->kind != TMPL_LIT) {
		last = tmpl_push(cc, TMPL_LIT);
		last->off = t->text_len;
	}
	memcpy(t->text + t->text_len, p, n);
	t->text_len += n;
	last->len += n;
}

/* Reads a decimal integer [p, e) into *v; -1 if it is none. */
static int
tmpl_int(const char *p, const char *e, int64_t *v)
{
	char buf[32];
	char *end;
	long long x;

	if (e - p <= 0 || (size_t)(e - p) >= sizeof(buf))
		return -1;
	memcpy(buf, p, (size_t)(e - p));
	buf[e - p] = '\0';
	if (buf[0] != '-' && (buf[0] < '0' || buf[0] > '9'))
		return -1;
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = x;
	return 0;
}

/* The word [s, e) fit to quote in a one-line message, in buf (64 bytes). */
#define TMPL_WORD_MAX	64

static const char *
tmpl_word(char *buf, const char *s, const char *e)
{
	return util_escape(buf, TMPL_WORD_MAX, s, (size_t)(e - s));
}

/* Parses a built-in variable's arguments (words in args[]). */
static int
tmpl_args(struct tmpl_cc *cc, struct tmpl_piece *pc, const char **args,
    const char **ends)
{
	char q[TMPL_WORD_MAX];
	int64_t a, b;

	if (pc->kind == TMPL_RAND) {
		if (tmpl_int(args[0], ends[0], &a) == -1)
			return tmpl_fail(cc, args[0], "rand: '%s' is no "
			    "integer", tmpl_word(q, args[0], ends[0]));
		if (tmpl_int(args[1], ends[1], &b) == -1)
			return tmpl_fail(cc, args[1], "rand: '%s' is no "
			    "integer", tmpl_word(q, args[1], ends[1]));
		if (a > b)
			return tmpl_fail(cc, args[0], "rand: %" PRId64 " is "
			    "above %" PRId64, a, b);
		pc->a = (uint64_t)a;
		pc->b = (uint64_t)b;
	} else if (pc->kind == TMPL_RANDSTR) {
		if (tmpl_int(args[0], ends[0], &a) == -1 || a < 1 ||
		    (uint64_t)a > TMPL_RANDSTR_MAX)
			return tmpl_fail(cc, args[0], "randstr: the length "
			    "'%s' is not from 1 to %" PRIu64,
			    tmpl_word(q, args[0], ends[0]), TMPL_RANDSTR_MAX);
		pc->a = (uint64_t)a;
	}
	return 0;
}

/* Compiles the placeholder [p, e) (between the braces) at `at'. */
static int
tmpl_var(struct tmpl_cc *cc, const char *at, const char *p, const char *e,
    tmpl_resolve_fn resolve, void *arg)
{
	const char *w[4], *we[4];
	char q[TMPL_WORD_MAX];
	int nw = 0, id;
	size_t i;
	struct tmpl_piece *pc;

	while (p < e) {
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e)
			break;
		if (nw == (int)nitems(w))
			return tmpl_fail(cc, p, "too many arguments");
		w[nw] = p;
		while (p < e && *p != ' ' && *p != '\t')
			p++;
		we[nw++] = p;
	}
	if (nw == 0)
		return tmpl_fail(cc, at, "empty placeholder");
	for (i = 0; i < nitems(tmpl_vars); i++) {
		if ((size_t)(we[0] - w[0]) != strlen(tmpl_vars[i].name) ||
		    memcmp(w[0], tmpl_vars[i].name, (size_t)(we[0] - w[0])))
			continue;
		if (nw - 1 != tmpl_vars[i].nargs)
			return tmpl_fail(cc, w[0], "%s takes %d argument%s, "
			    "not %d", tmpl_vars[i].name, tmpl_vars[i].nargs,
			    tmpl_vars[i].nargs == 1 ? "" : "s", nw - 1);
		pc = tmpl_push(cc, tmpl_vars[i].kind);
		return tmpl_args(cc, pc, w + 1, we + 1);
	}
	id = resolve != NULL ? resolve(arg, w[0], (size_t)(we[0] - w[0])) :
	    -1;
	if (id < 0)
		return tmpl_fail(cc, w[0], "unknown variable '%s'",
		    tmpl_word(q, w[0], we[0]));
	if (nw > 1)
		return tmpl_fail(cc, w[1], "%s takes no argument",
		    tmpl_word(q, w[0], we[0]));
	pc = tmpl_push(cc, TMPL_HOOK);
	pc->a = (uint64_t)id;
	return 0;
}

int
tmpl_compile(struct tmpl *t, const char *s, size_t len,
    tmpl_resolve_fn resolve, void *arg, char *err, size_t errlen,
    size_t *col)
{
	struct tmpl_cc cc = { t, 0, s, err, errlen, col };
	const char *p = s, *e = s + len, *open, *close;

	memset(t, 0, sizeof(*t));
	t->text = xmalloc(len + 1);
	while (p < e) {
		open = memchr(p, '{', (size_t)(e - p));
		while (open != NULL && (open + 1 == e || open[1] != '{'))
			open = memchr(open + 1, '{', (size_t)(e - open - 1));
		if (open == NULL) {
			tmpl_lit(&cc, p, (size_t)(e - p));
			break;
		}
		tmpl_lit(&cc, p, (size_t)(open - p));
		if (e - open >= 4 && open[2] == '{' && open[3] == '{') {
			tmpl_lit(&cc, "{{", 2);
			p = open + 4;
			continue;
		}
		for (close = open + 2; close + 1 < e; close++)
			if (close[0] == '}' && close[1] == '}')
				break;
		if (close + 1 >= e) {
			tmpl_fail(&cc, open, "unterminated placeholder");
			goto fail;
		}
		if (tmpl_var(&cc, open, open + 2, close, resolve, arg) == -1)
			goto fail;
		t->vars = 1;
		p = close + 2;
	}
	t->text[t->text_len] = '\0';
	return 0;
fail:
	tmpl_free(t);
	return -1;
}

/* Appends v in decimal. */
static void
tmpl_u64(struct tmpl_buf *out, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	tmpl_buf_add(out, p, (size_t)(buf + sizeof(buf) - p));
}

static void
tmpl_rand(struct tmpl_buf *out, struct tmpl_rng *r, int64_t a, int64_t b)
{
	uint64_t span = (uint64_t)b - (uint64_t)a + 1, v;
	int64_t x;

	v = span == 0 ? tmpl_rng_next(r) : tmpl_rng_below(r, span);
	x = (int64_t)((uint64_t)a + v);
	if (x < 0) {
		tmpl_buf_add(out, "-", 1);
		tmpl_u64(out, 0 - (uint64_t)x);
	} else
		tmpl_u64(out, (uint64_t)x);
}

static const char tmpl_alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";
static const char tmpl_hex[] = "0123456789abcdef";

/* 36^12: twelve characters from one draw below it (it fits in 64 bits). */
#define TMPL_B36_DIGITS	12
#define TMPL_B36_POW	UINT64_C(4738381338321616896)

static void
tmpl_randstr(struct tmpl_buf *out, struct tmpl_rng *r, uint64_t n)
{
	char buf[256 + TMPL_B36_DIGITS];	/* the last draw may overrun k */
	size_t k, i, j;
	uint64_t v;

	while (n > 0) {
		k = n < 256 ? (size_t)n : 256;
		n -= k;
		/* Each base-36 digit of a uniform draw is uniform. */
		for (i = 0; i < k; ) {
			v = tmpl_rng_below(r, TMPL_B36_POW);
			for (j = 0; j < TMPL_B36_DIGITS; j++, v /= 36)
				buf[i++] = tmpl_alnum[v % 36];
		}
		tmpl_buf_add(out, buf, k);
	}
}

static void
tmpl_uuid(struct tmpl_buf *out, struct tmpl_rng *r)
{
	uint64_t hi = tmpl_rng_next(r), lo = tmpl_rng_next(r);
	char h[32], s[36];
	int i;

	/* The version 4 (byte 6's high nibble) and the RFC 9562 variant
	   (byte 8's two high bits) in place, then 32 nibbles from the
	   lowest up, and the dashes after the 8th, 12th, 16th and 20th. */
	hi = (hi & ~UINT64_C(0xf000)) | UINT64_C(0x4000);
	lo = (lo & ~(UINT64_C(0xc0) << 56)) | (UINT64_C(0x80) << 56);
	for (i = 15; i >= 0; i--, hi >>= 4, lo >>= 4) {
		h[i] = tmpl_hex[hi & 0x0f];
		h[16 + i] = tmpl_hex[lo & 0x0f];
	}
	memcpy(s, h, 8);
	s[8] = '-';
	memcpy(s + 9, h + 8, 4);
	s[13] = '-';
	memcpy(s + 14, h + 12, 4);
	s[18] = '-';
	memcpy(s + 19, h + 16, 4);
	s[23] = '-';
	memcpy(s + 24, h + 20, 12);
	tmpl_buf_add(out, s, sizeof(s));
}

int
tmpl_expand(const struct tmpl *t, const struct tmpl_ctx *ctx,
    struct tmpl_buf *out)
{
	const struct tmpl_piece *p;
	size_t i;

	for (i = 0; i < t->n; i++) {
		p = &t->pieces[i];
		switch (p->kind) {
		case TMPL_LIT:
			tmpl_buf_add(out, t->text + p->off, p->len);
			break;
		case TMPL_SEQ:
			tmpl_u64(out, ctx->seq);
			break;
		case TMPL_CONN:
			tmpl_u64(out, ctx->conn);
			break;
		case TMPL_SESSION:
			tmpl_u64(out, ctx->session);
			break;
		case TMPL_CLIENT:
			tmpl_u64(out, ctx->client);
			break;
		case TMPL_RAND:
			tmpl_rand(out, ctx->rng, (int64_t)p->a,
			    (int64_t)p->b);
			break;
		case TMPL_RANDSTR:
			tmpl_randstr(out, ctx->rng, p->a);
			break;
		case TMPL_UUID:
			tmpl_uuid(out, ctx->rng);
			break;
		case TMPL_TIME:
			tmpl_u64(out, ctx->epoch_ns / 1000000000u);
			break;
		case TMPL_TIME_MS:
			tmpl_u64(out, ctx->epoch_ns / 1000000u);
			break;
		case TMPL_HOOK:
			if (ctx->value == NULL ||
			    ctx->value(ctx->value_arg, ctx->subject, p->a,
			    out) == -1)
				return -1;
			break;
		}
	}
	return 0;
}

void
tmpl_free(struct tmpl *t)
{
	free(t->text);
	free(t->pieces);
	memset(t, 0, sizeof(*t));
}
