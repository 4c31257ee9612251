/*
 * lib/tmpl.c: the template compiler and its expansion.  With a fixed
 * seed every random variable gives exactly the same text, so the
 * expansions below are exact; errors name their 1-based column.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tmpl.h"
#include "unit.h"

/* Expands `src' with seed 7, client 0 and fixed numbers into a string. */
static char *
expand(const char *src)
{
	struct tmpl t;
	struct tmpl_rng rng;
	struct tmpl_buf b = { NULL, 0, 0 };
	struct tmpl_ctx ctx;
	char err[256];
	size_t col = 0;

	ck_assert_msg(tmpl_compile(&t, src, strlen(src), NULL, NULL, err,
	    sizeof(err), &col) == 0, "%s: column %zu: %s", src, col, err);
	tmpl_rng_seed(&rng, 7, 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.seq = 42;
	ctx.conn = 3;
	ctx.session = 5;
	ctx.client = 1;
	ctx.epoch_ns = UINT64_C(1764212345678901234);
	ctx.rng = &rng;
	ck_assert_int_eq(tmpl_expand(&t, &ctx, &b), 0);
	tmpl_buf_add(&b, "", 0);	/* an empty expansion is "" too */
	tmpl_free(&t);
	return b.p;
}

#define EXPECT(src, want)	do {					\
	char *got_ = expand(src);					\
	ck_assert_str_eq(got_, want);					\
	free(got_);							\
} while (0)

/* Compiles `src', which must fail at column `col' with `msg' in it. */
static void
expect_error(const char *src, size_t want_col, const char *msg)
{
	struct tmpl t;
	char err[256];
	size_t col = 0;

	ck_assert_int_eq(tmpl_compile(&t, src, strlen(src), NULL, NULL, err,
	    sizeof(err), &col), -1);
	ck_assert_msg(col == want_col, "%s: column %zu, expected %zu (%s)",
	    src, col, want_col, err);
	ck_assert_msg(strstr(err, msg) != NULL, "%s: '%s' lacks '%s'", src,
	    err, msg);
	ck_assert_ptr_null(t.text);
	ck_assert_ptr_null(t.pieces);
}

START_TEST(test_numbers)
{
	EXPECT("/a/{{seq}}?c={{conn}}&s={{session}}&k={{client}}",
	    "/a/42?c=3&s=5&k=1");
	EXPECT("{{time}} {{time_ms}}", "1764212345 1764212345678");
	EXPECT("{{ seq }}", "42");
	EXPECT("{{seq\t}}", "42");
}
END_TEST

START_TEST(test_random)
{
	EXPECT("{{rand 1 6}},{{rand 1 6}},{{rand 1 6}},{{rand -5 5}}",
	    "1,3,1,3");
	EXPECT("{{randstr 12}}", "454mlvlbtyg0");
	EXPECT("{{uuid}}", "b358faf7-4ef9-465a-875c-3d964f482cd2");
	EXPECT("{{rand -9223372036854775808 9223372036854775807}}",
	    "3699983033973700186");
	EXPECT("{{rand 9 9}}", "9");
}
END_TEST

/* Every uuid has the version 4 and variant nibbles; clients differ. */
START_TEST(test_uuid_shape_streams)
{
	struct tmpl t;
	struct tmpl_rng r0, r1;
	struct tmpl_ctx ctx;
	struct tmpl_buf b = { NULL, 0, 0 };
	char err[64];
	size_t col, i, j;
	int k;

	ck_assert_int_eq(tmpl_compile(&t, "{{uuid}}", 8, NULL, NULL, err,
	    sizeof(err), &col), 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.rng = &r0;
	tmpl_rng_seed(&r0, 0, 0);
	for (i = 0; i < 1000; i++) {
		b.len = 0;
		ck_assert_int_eq(tmpl_expand(&t, &ctx, &b), 0);
		ck_assert_uint_eq(b.len, 36);
		for (j = 0; j < 36; j++) {
			if (j == 8 || j == 13 || j == 18 || j == 23)
				ck_assert_int_eq(b.p[j], '-');
			else
				ck_assert(strchr("0123456789abcdef",
				    b.p[j]) != NULL);
		}
		ck_assert_int_eq(b.p[14], '4');
		ck_assert(strchr("89ab", b.p[19]) != NULL);
	}
	free(b.p);
	tmpl_free(&t);
	/* Same seed and client: the same stream; another client: not. */
	tmpl_rng_seed(&r0, 7, 0);
	tmpl_rng_seed(&r1, 7, 0);
	for (k = 0; k < 100; k++)
		ck_assert_uint_eq(tmpl_rng_next(&r0), tmpl_rng_next(&r1));
	tmpl_rng_seed(&r0, 7, 0);
	tmpl_rng_seed(&r1, 7, 1);
	ck_assert_uint_ne(tmpl_rng_next(&r0), tmpl_rng_next(&r1));
	tmpl_rng_seed(&r1, 8, 0);
	ck_assert_uint_ne(tmpl_rng_next(&r1), UINT64_C(4716216831252312410));
}
END_TEST

/* rand stays within its bounds and reaches both. */
START_TEST(test_rand_bounds)
{
	struct tmpl_rng r;
	uint64_t v;
	int seen[3] = { 0, 0, 0 }, i;

	tmpl_rng_seed(&r, 1, 2);
	for (i = 0; i < 3000; i++) {
		v = tmpl_rng_below(&r, 3);
		ck_assert_uint_lt(v, 3);
		seen[v]++;
	}
	ck_assert_int_gt(seen[0], 800);
	ck_assert_int_gt(seen[1], 800);
	ck_assert_int_gt(seen[2], 800);
}
END_TEST

/* randstr: twelve characters a draw, every one of the 36 about as often. */
START_TEST(test_randstr_spread)
{
	const char *alnum = "abcdefghijklmnopqrstuvwxyz0123456789";
	char *got = expand("{{randstr 36000}}");
	int count[36] = { 0 }, i;
	const char *p;

	ck_assert_uint_eq(strlen(got), 36000);
	for (i = 0; i < 36000; i++) {
		p = strchr(alnum, got[i]);
		ck_assert(p != NULL);
		count[p - alnum]++;
	}
	for (i = 0; i < 36; i++)
		ck_assert_msg(count[i] > 850 && count[i] < 1150,
		    "'%c': %d of 36000", alnum[i], count[i]);
	free(got);
}
END_TEST

START_TEST(test_literals)
{
	EXPECT("", "");
	EXPECT("plain /path?x=1", "plain /path?x=1");
	EXPECT("{{{{", "{{");
	EXPECT("a{{{{seq}}b", "a{{seq}}b");
	EXPECT("{{{{{{seq}}", "{{42");
	EXPECT("{ {x} }} }", "{ {x} }} }");
	EXPECT("{{seq}}{{seq}}{{conn}}", "42423");
	EXPECT("{", "{");
	EXPECT("x{", "x{");
}
END_TEST

/* A template without placeholders is one literal, marked so. */
START_TEST(test_pieces)
{
	struct tmpl t;
	char err[64];
	size_t col;

	ck_assert_int_eq(tmpl_compile(&t, "/x/y", 4, NULL, NULL, err,
	    sizeof(err), &col), 0);
	ck_assert_int_eq(t.vars, 0);
	ck_assert_uint_eq(t.n, 1);
	ck_assert_int_eq(t.pieces[0].kind, TMPL_LIT);
	tmpl_free(&t);
	tmpl_free(&t);
	ck_assert_int_eq(tmpl_compile(&t, "", 0, NULL, NULL, err,
	    sizeof(err), &col), 0);
	ck_assert_int_eq(t.vars, 0);
	ck_assert_uint_eq(t.n, 0);
	tmpl_free(&t);
	ck_assert_int_eq(tmpl_compile(&t, "a{{{{b{{seq}}c", 14, NULL, NULL,
	    err, sizeof(err), &col), 0);
	ck_assert_int_eq(t.vars, 1);
	ck_assert_uint_eq(t.n, 3);	/* "a{{b", seq, "c" */
	tmpl_free(&t);
}
END_TEST

START_TEST(test_errors)
{
	expect_error("/x/{{seq", 4, "unterminated");
	expect_error("{{seq}", 1, "unterminated");
	expect_error("ab{{nope}}", 5, "unknown variable 'nope'");
	expect_error("{{data.email}}", 3, "unknown variable 'data.email'");
	expect_error("{{}}", 1, "empty placeholder");
	expect_error("{{  }}", 1, "empty placeholder");
	expect_error("{{seq 1}}", 3, "seq takes 0 arguments, not 1");
	expect_error("{{rand 1}}", 3, "rand takes 2 arguments, not 1");
	expect_error("{{rand 6 1}}", 8, "6 is above 1");
	expect_error("{{rand 1 x}}", 10, "'x' is no integer");
	expect_error("{{rand 1 99999999999999999999}}", 10, "no integer");
	expect_error("{{randstr 0}}", 11, "from 1 to 1048576");
	expect_error("{{randstr 1048577}}", 11, "from 1 to 1048576");
	expect_error("{{randstr -1}}", 11, "from 1 to 1048576");
	expect_error("ok {{seq}} {{uuid x}}", 14, "uuid takes 0");
	expect_error("{{a b c d e}}", 11, "too many arguments");
	/* What is quoted stays on one line, and short. */
	expect_error("{{a\nb}}", 3, "unknown variable 'a\\nb'");
	expect_error("{{rand 1\r\n 2}}", 8, "rand: '1\\r\\n' is no integer");
	expect_error("{{aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}}", 3,
	    "unknown variable 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaa...'");
}
END_TEST

/* Names beyond the built-in ones go through the resolver and the hook. */
static int
resolve(void *arg, const char *name, size_t len)
{
	(void)arg;
	if (len == 5 && memcmp(name, "token", 5) == 0)
		return 9;
	return -1;
}

static int
value(void *arg, void *subject, uint64_t id, struct tmpl_buf *out)
{
	const char *v = subject;

	if (v == NULL)
		return -1;
	ck_assert_uint_eq(id, 9);
	ck_assert(arg != NULL);
	tmpl_buf_add(out, v, strlen(v));
	return 0;
}

START_TEST(test_hooks)
{
	struct tmpl t;
	struct tmpl_ctx ctx;
	struct tmpl_buf b = { NULL, 0, 0 };
	char err[64];
	size_t col;

	ck_assert_int_eq(tmpl_compile(&t, "Bearer {{token}}!", 17, resolve,
	    NULL, err, sizeof(err), &col), 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.value = value;
	ctx.value_arg = &t;
	ctx.subject = "abc";
	ck_assert_int_eq(tmpl_expand(&t, &ctx, &b), 0);
	ck_assert_str_eq(b.p, "Bearer abc!");
	ctx.subject = NULL;
	ck_assert_int_eq(tmpl_expand(&t, &ctx, &b), -1);
	free(b.p);
	tmpl_free(&t);
	ck_assert_int_eq(tmpl_compile(&t, "{{token 1}}", 11, resolve, NULL,
	    err, sizeof(err), &col), -1);
	ck_assert_uint_eq(col, 9);
	ck_assert_int_eq(tmpl_compile(&t, "{{other}}", 9, resolve, NULL,
	    err, sizeof(err), &col), -1);
	ck_assert_uint_eq(col, 3);
}
END_TEST

/* A 1 MiB literal and a 1 MiB randstr, byte for byte. */
START_TEST(test_big)
{
	size_t n = (size_t)1 << 20, i;
	char *src = malloc(n + 20), *got;

	ck_assert_ptr_nonnull(src);
	for (i = 0; i < n; i++)
		src[i] = (char)('a' + i % 26);
	memcpy(src + n, "{{seq}}", 8);
	got = expand(src);
	ck_assert_uint_eq(strlen(got), n + 2);
	ck_assert(memcmp(got, src, n) == 0);
	ck_assert_str_eq(got + n, "42");
	free(got);
	got = expand("{{randstr 1048576}}");
	ck_assert_uint_eq(strlen(got), n);
	ck_assert_uint_eq(strspn(got, "abcdefghijklmnopqrstuvwxyz"
	    "0123456789"), n);
	ck_assert(memcmp(got, "454mlvlbtyg0", 12) == 0);
	free(got);
	free(src);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tmpl");
	TCase *tc = tcase_create("tmpl");

	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_uuid_shape_streams);
	tcase_add_test(tc, test_rand_bounds);
	tcase_add_test(tc, test_randstr_spread);
	tcase_add_test(tc, test_literals);
	tcase_add_test(tc, test_pieces);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_hooks);
	tcase_add_test(tc, test_big);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
