/*
 * gen/svars.c: the extract= and check= specs (their errors), and what a
 * reply the core kept gives: each kind of extraction, each kind of
 * check, values refused (CR, LF, NUL, a body over the limit), a NUL in
 * a body that a pattern still reads past, the values of a session and
 * {{NAME}} through svars_value().
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/call.h"
#include "core/sess.h"
#include "gen/session_int.h"
#include "gen/svars.h"
#include "lib/util.h"
#include "unit.h"

/* A call of a session, as the core leaves it after a reply. */
struct fake {
	struct session	 ss;
	struct sess	 s;
	struct call	 call;
};

static void
fake_init(struct fake *f, int status, const char *head, const char *body,
    size_t blen)
{
	memset(f, 0, sizeof(*f));
	f->s.priv = &f->ss;
	f->s.owner = f;
	f->ss.sess = &f->s;
	f->call.sess = &f->s;
	f->call.status = status;
	call_keep_hdr(&f->call, "HTTP/1.1 200 OK", 15, NULL, 0);
	tmpl_buf_add(&f->call.rhead, head, strlen(head));
	f->call.keep_body = 1;
	call_keep_body(&f->call, body, blen);
}

static void
fake_fini(struct fake *f)
{
	svars_vals_free(f->ss.vars);
	free(f->call.rhead.p);
	free(f->call.rbody.p);
}

/* Compiles the specs (each "x..." or "c...", then a NUL). */
static void
compile(struct svars *sv, struct svars_spec *spec, const char *specs,
    size_t n)
{
	char err[256];

	ck_assert_msg(svars_spec_compile(sv, spec, specs, n, err,
	    sizeof(err)) == 0, "%s", err);
}

/* {{NAME}}'s value in the fake's session, or "<none>". */
static const char *
value(struct svars *sv, struct fake *f, const char *name, char *buf)
{
	struct tmpl_buf b = { NULL, 0, 0 };
	int id = svars_resolve(sv, name, strlen(name));

	ck_assert_int_ge(id, 0);
	if (svars_value(sv, &f->call, (uint64_t)id, &b) == -1)
		strcpy(buf, "<none>");
	else {
		memcpy(buf, b.p != NULL ? b.p : "", b.len);
		buf[b.len] = '\0';
	}
	free(b.p);
	return buf;
}

static const char head[] =
    "Content-Type: application/json\r\n"
    "x-token:   tok9 \t\r\n"
    "X-Token: second\r\n"
    "Set-Cookie: a=1; Path=/\r\n"
    "set-cookie:  sid = s e c ; HttpOnly\r\n"
    "X-Bad: a\rb\r\n"
    "\r\n";

static const char body[] = "{\"auth\":{\"token\":\"j1\"},\"n\":[1,2.5],"
    "\"t\":\"x\\ny\"}";

START_TEST(test_extract)
{
	static const char specs[] =
	    "xa:json:auth.token\0xb:json:n[1]\0xc:header:X-TOKEN\0"
	    "xd:cookie:sid\0xe:regex:\"n\":\\[([0-9]+),\0xf:regex:j[0-9]\0"
	    "xg:json:t\0xh:header:X-Bad\0xi:json:nope\0xj:cookie:zz\0"
	    "xk:header:Content-Type";
	struct svars sv;
	struct svars_spec spec;
	struct fake f;
	char buf[256];

	memset(&sv, 0, sizeof(sv));
	compile(&sv, &spec, specs, 11);
	ck_assert_uint_eq(sv.n, 11);
	ck_assert_int_eq(spec.keep_body, 1);
	ck_assert_int_eq(spec.keep_head, 1);
	ck_assert_int_eq(svars_resolve(&sv, "zz", 2), -1);
	fake_init(&f, 200, head, body, strlen(body));
	/* Before any reply: no value. */
	ck_assert_str_eq(value(&sv, &f, "a", buf), "<none>");
	f.call.rspec = &spec;
	svars_reply(&sv, &f.call, 0);
	ck_assert_str_eq(value(&sv, &f, "a", buf), "j1");
	ck_assert_str_eq(value(&sv, &f, "b", buf), "2.5");
	ck_assert_str_eq(value(&sv, &f, "c", buf), "tok9");
	ck_assert_str_eq(value(&sv, &f, "d", buf), "s e c");
	ck_assert_str_eq(value(&sv, &f, "e", buf), "1");
	ck_assert_str_eq(value(&sv, &f, "f", buf), "j1");
	/* A value with CR, LF or NUL is no value. */
	ck_assert_str_eq(value(&sv, &f, "g", buf), "<none>");
	ck_assert_str_eq(value(&sv, &f, "h", buf), "<none>");
	ck_assert_str_eq(value(&sv, &f, "i", buf), "<none>");
	ck_assert_str_eq(value(&sv, &f, "j", buf), "<none>");
	ck_assert_str_eq(value(&sv, &f, "k", buf), "application/json");
	ck_assert_uint_eq(f.call.check_done, 0);
	fake_fini(&f);
	svars_spec_free(&spec);
	svars_clear(&sv);
}
END_TEST

START_TEST(test_unset_by_next_reply)
{
	static const char specs[] = "xa:json:auth.token";
	struct svars sv;
	struct svars_spec spec;
	struct fake f;
	struct svars_vals *vals;
	char buf[64];

	memset(&sv, 0, sizeof(sv));
	compile(&sv, &spec, specs, 1);
	fake_init(&f, 200, "\r\n", body, strlen(body));
	f.call.rspec = &spec;
	svars_reply(&sv, &f.call, 0);
	ck_assert_str_eq(value(&sv, &f, "a", buf), "j1");
	vals = f.ss.vars;
	f.ss.vars = NULL;
	fake_fini(&f);
	fake_init(&f, 200, "\r\n", "{\"auth\":{}}", 11);
	f.ss.vars = vals;
	f.call.rspec = &spec;
	svars_reply(&sv, &f.call, 0);
	ck_assert_str_eq(value(&sv, &f, "a", buf), "<none>");
	fake_fini(&f);
	svars_spec_free(&spec);
	svars_clear(&sv);
}
END_TEST

START_TEST(test_nul_and_limit)
{
	static const char specs[] = "xa:regex:tok=([a-z]+)\0xb:json:a\0"
	    "cbody:contains:zz";
	static const char nul[] = "head\0tail tok=abc";
	struct svars sv;
	struct svars_spec spec;
	struct fake f;
	char buf[64], *big;

	memset(&sv, 0, sizeof(sv));
	compile(&sv, &spec, specs, 3);
	ck_assert_int_eq(spec.keep_head, 0);
	fake_init(&f, 200, "\r\n", nul, sizeof(nul) - 1);
	f.call.rspec = &spec;
	svars_reply(&sv, &f.call, 0);
#ifdef REG_STARTEND
	ck_assert_str_eq(value(&sv, &f, "a", buf), "abc");
#endif
	ck_assert_uint_eq(f.call.check_done, 1);
	ck_assert_uint_eq(f.call.check_fail, 1);
	fake_fini(&f);
	/* A body over the limit: kept up to it, its reads fail. */
	big = xmalloc(CALL_BODY_MAX + 10);
	memset(big, ' ', CALL_BODY_MAX + 10);
	memcpy(big, "{\"a\":1}", 7);
	memcpy(big + CALL_BODY_MAX, "zz", 2);
	fake_init(&f, 200, "\r\n", big, 7);
	call_keep_body(&f.call, big + 7, CALL_BODY_MAX + 3);
	ck_assert_int_eq(f.call.body_over, 1);
	ck_assert_uint_eq(f.call.rbody.len, CALL_BODY_MAX);
	f.call.rspec = &spec;
	svars_reply(&sv, &f.call, 0);
	ck_assert_str_eq(value(&sv, &f, "b", buf), "<none>");
	ck_assert_uint_eq(f.call.check_fail, 1);
	fake_fini(&f);
	free(big);
	svars_spec_free(&spec);
	svars_clear(&sv);
}
END_TEST

START_TEST(test_checks)
{
	static const char specs[] =
	    "cstatus:200\0cstatus:2xx\0cstatus:404\0cbody:contains:\"j1\"\0"
	    "cjson:n[0]=1\0cjson:n[0]=2\0cheader:x-token:tok9\0"
	    "cheader:X-Token:second\0cjson:auth.token=j1";
	const char *const global[] = { "status:x0x" };
	struct svars sv;
	struct svars_spec spec;
	struct fake f;
	char err[128];

	memset(&sv, 0, sizeof(sv));
	ck_assert_int_eq(svars_global(&sv, global, 1, err, sizeof(err)), 0);
	compile(&sv, &spec, specs, 9);
	ck_assert_uint_eq(spec.nchecks, 10);
	ck_assert_str_eq(spec.names[0], "status:200");
	ck_assert_str_eq(spec.names[9], "status:x0x");
	fake_init(&f, 200, head, body, strlen(body));
	f.call.rspec = &spec;
	svars_reply(&sv, &f.call, 0);
	ck_assert_uint_eq(f.call.check_done, 0x3ff);
	/* status:404, json:n[0]=2 and header:X-Token:second (the first
	   X-Token field counts) fail; 200 matches status:x0x. */
	ck_assert_uint_eq(f.call.check_fail, (1u << 2) | (1u << 5) |
	    (1u << 7));
	ck_assert_ptr_eq(f.call.check_names, spec.names);
	fake_fini(&f);
	svars_spec_free(&spec);
	svars_clear(&sv);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char	*spec;
		const char	*err;
	} rows[] = {
		{ "x1a:json:a", "extract=1a:json:a: want NAME:KIND:ARG, NAME a "
		    "letter or _ then letters, digits or _" },
		{ "xa", "extract=a: want NAME:KIND:ARG, NAME a letter or _ "
		    "then letters, digits or _" },
		{ "xa-b:json:a", "extract=a-b:json:a: want NAME:KIND:ARG, "
		    "NAME a letter or _ then letters, digits or _" },
		{ "xa:xml:b", "extract=a:xml:b: want KIND header, json, regex "
		    "or cookie" },
		{ "xa:json", "extract=a:json: want KIND header, json, regex "
		    "or cookie" },
		{ "xa:header:", "extract=a:header:: empty header" },
		{ "xa:json:b..c", "extract=a:json:b..c: path column 3: empty "
		    "key" },
		{ "cstatus:20", "check=status:20: want status:NNN (100-599, x "
		    "for any digit)" },
		{ "cstatus:600", "check=status:600: want status:NNN (100-599, "
		    "x for any digit)" },
		{ "cbody:contains:", "check=body:contains:: want status:NNN, "
		    "body:contains:TEXT, json:PATH=VALUE or header:NAME:VALUE" },
		{ "cjson:a", "check=json:a: want status:NNN, body:contains:TEXT, "
		    "json:PATH=VALUE or header:NAME:VALUE" },
		{ "cheader::v", "check=header::v: want status:NNN, "
		    "body:contains:TEXT, json:PATH=VALUE or header:NAME:VALUE" },
		{ "cjson:[x]=1", "check=json:[x]=1: path column 1: bad index "
		    "(want [N])" },
	};
	struct svars sv;
	struct svars_spec spec;
	char err[256];
	size_t i;

	for (i = 0; i < nitems(rows); i++) {
		memset(&sv, 0, sizeof(sv));
		ck_assert_int_eq(svars_spec_compile(&sv, &spec, rows[i].spec,
		    1, err, sizeof(err)), -1);
		ck_assert_msg(strcmp(err, rows[i].err) == 0, "%s: got \"%s\"",
		    rows[i].spec, err);
		svars_spec_free(&spec);
		svars_clear(&sv);
	}
	/* A regex that does not compile names the problem. */
	memset(&sv, 0, sizeof(sv));
	ck_assert_int_eq(svars_spec_compile(&sv, &spec, "xa:regex:(b", 1,
	    err, sizeof(err)), -1);
	ck_assert_msg(strncmp(err, "extract=a:regex:(b: regex: ", 27) == 0,
	    "%s", err);
	svars_spec_free(&spec);
	svars_clear(&sv);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("svars");
	TCase *tc = tcase_create("svars");

	tcase_add_test(tc, test_extract);
	tcase_add_test(tc, test_unset_by_next_reply);
	tcase_add_test(tc, test_nul_and_limit);
	tcase_add_test(tc, test_checks);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
