/*
 * Unit tests for the --wsesslog file parser: table-driven good files
 * (rendered to a compact text dump and compared whole, so every field is
 * checked), table-driven bad files (the exact message with its line
 * number), huge inputs, input ending on a guard page, and sesslog_load.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#if defined(__SANITIZE_ADDRESS__)
/* AddressSanitizer's (sanitizer/allocator_interface.h, not with gcc). */
size_t	__sanitizer_get_current_allocated_bytes(void);
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

#include "gen/sesslog.h"
#include "lib/util.h"
#include "unit.h"

/* The example file of the 0.9.0 manual, as printed there. */
static const char manual_example[] =
    "# Comment lines start with a ``#'' as the first\n"
    "# character.  Lines with only whitespace delimit\n"
    "# sessions (multiple blank lines do not generate\n"
    "# ``null'' sessions).  All other lines specify a\n"
    "# uri-sequence (1 uri per line).  If the first\n"
    "# character of the line is whitespace (e.g. space\n"
    "# or tab), the uri is considered to be part of a\n"
    "# burst that is sent out after the previous\n"
    "# non-burst uri.\n"
    "\n"
    "# session 1 definition (this is a comment)\n"
    "/foo.html think=2.0\n"
    "     /pict1.gif\n"
    "     /pict2.gif\n"
    "/foo2.html method=POST contents='Post data'\n"
    "     /pict3.gif\n"
    "     /pict4.gif\n"
    "\n"
    "# session 2 definition\n"
    "/foo3.html method=POST contents=\"Multiline\\ndata\"\n"
    "/foo4.html method=HEAD\n";

/*
 * Dump format: "S<nreqs>" per session, " B<think>" per burst, and per
 * request "  <line> <method|-> <uri> <\"body\"|-> <think>", one per line.
 */
struct good_row {
	const char	*name;
	const char	*in;
	size_t		 len;		/* 0: strlen(in) */
	const char	*dump;
};

static const struct good_row good_rows[] = {
	{ .name = "manual example", .in = manual_example, .dump =
	    "S6\n"
	    " B2\n"
	    "  12 - /foo.html - 2\n"
	    "  13 - /pict1.gif - -1\n"
	    "  14 - /pict2.gif - -1\n"
	    " B-1\n"
	    "  15 POST /foo2.html \"Post data\" -1\n"
	    "  16 - /pict3.gif - -1\n"
	    "  17 - /pict4.gif - -1\n"
	    "S2\n"
	    " B-1\n"
	    "  20 POST /foo3.html \"Multiline\\ndata\" -1\n"
	    " B-1\n"
	    "  21 HEAD /foo4.html - -1\n" },
	{ .name = "header=, extract=, check=", .in =
	    "/l header='A: 1' extract=t:json:a.b header=\"B-2: x y\"\n"
	    "/p check=status:200 header='C: {{t}}'\n"
	    "/q\n", .dump =
	    "S3\n"
	    " B-1\n"
	    "  1 - /l - -1 HA: 1\\r\\nB-2: x y\\r\\n 1Xxt:json:a.b\\x00\n"
	    " B-1\n"
	    "  2 - /p - -1 HC: {{t}}\\r\\n 1Xcstatus:200\\x00\n"
	    " B-1\n"
	    "  3 - /q - -1\n" },
	{ .name = "every escape, double quotes",
	  .in = "/a contents=\"n\\nr\\rt\\tb\\\\d\\\"s\\'\"\n", .dump =
	    "S1\n B-1\n  1 - /a \"n\\nr\\rt\\tb\\\\d\\\"s'\" -1\n" },
	{ .name = "every escape, single quotes",
	  .in = "/a contents='n\\nr\\rt\\tb\\\\d\\\"s\\''\n", .dump =
	    "S1\n B-1\n  1 - /a \"n\\nr\\rt\\tb\\\\d\\\"s'\" -1\n" },
	{ .name = "every escape, unquoted",
	  .in = "/a contents=n\\nr\\rt\\tb\\\\d\\\"s\\'\n", .dump =
	    "S1\n B-1\n  1 - /a \"n\\nr\\rt\\tb\\\\d\\\"s'\" -1\n" },
	{ .name = "quotes inside the other quotes",
	  .in = "/a contents='say \"hi\"'\n/b contents=\"it's\"\n", .dump =
	    "S2\n B-1\n  1 - /a \"say \\\"hi\\\"\" -1\n"
	    " B-1\n  2 - /b \"it's\" -1\n" },
	{ .name = "blanks inside quotes, quote inside a bare value",
	  .in = "/a contents=' a  b\t'\n/b contents=x'y\"z\n", .dump =
	    "S2\n B-1\n  1 - /a \" a  b\\t\" -1\n"
	    " B-1\n  2 - /b \"x'y\\\"z\" -1\n" },
	{ .name = "CRLF escapes in contents",
	  .in = "/form method=POST contents='a=1\\r\\nb=2\\r\\n'\n", .dump =
	    "S1\n B-1\n  1 POST /form \"a=1\\r\\nb=2\\r\\n\" -1\n" },
	{ .name = "continuation inside a quoted value",
	  .in = "/a contents='one\\\ntwo\\\nthree'\n/b\n", .dump =
	    "S2\n B-1\n  1 - /a \"one\\ntwo\\nthree\" -1\n"
	    " B-1\n  4 - /b - -1\n" },
	{ .name = "continuation inside a bare value and between params",
	  .in = "/a contents=x\\\ny \\\n  method=PUT \\\n\n /b\n", .dump =
	    "S2\n B-1\n  1 PUT /a \"x\\ny\" -1\n  5 - /b - -1\n" },
	{ .name = "continuation with CRLF",
	  .in = "/a contents='x\\\r\ny'\r\n", .dump =
	    "S1\n B-1\n  1 - /a \"x\\ny\" -1\n" },
	{ .name = "continuation right after the URI",
	  .in = "/a\\\nthink=3\n", .dump =
	    "S1\n B3\n  1 - /a - 3\n" },
	{ .name = "backslash inside a URI is literal",
	  .in = "/a\\b\\n\n", .dump =
	    "S1\n B-1\n  1 - /a\\\\b\\\\n - -1\n" },
	{ .name = "comments anywhere, indented # is a request",
	  .in = "#c1\n/a\n#c2\n /b\n #x\n#c3\n\n#c4\n/c\n#", .dump =
	    "S3\n B-1\n  2 - /a - -1\n  4 - /b - -1\n  5 - #x - -1\n"
	    "S1\n B-1\n  9 - /c - -1\n" },
	{ .name = "comment does not end a session, hash after a URI",
	  .in = "/a\n# c\n/b#frag\n", .dump =
	    "S2\n B-1\n  1 - /a - -1\n B-1\n  3 - /b#frag - -1\n" },
	{ .name = "several blank lines, leading and trailing",
	  .in = "\n\n  \n/a\n\n\t\n \t \r\n\n/b\n\n\n", .dump =
	    "S1\n B-1\n  4 - /a - -1\nS1\n B-1\n  9 - /b - -1\n" },
	{ .name = "tab indentation joins the burst",
	  .in = "/a\n\t/b\n\t\t/c\n/d\n", .dump =
	    "S4\n B-1\n  1 - /a - -1\n  2 - /b - -1\n  3 - /c - -1\n"
	    " B-1\n  4 - /d - -1\n" },
	{ .name = "think on the first request",
	  .in = "/a think=1.5\n /b\n/c think=0\n/d think=1e1\n", .dump =
	    "S4\n B1.5\n  1 - /a - 1.5\n  2 - /b - -1\n"
	    " B0\n  3 - /c - 0\n B10\n  4 - /d - 10\n" },
	{ .name = "think on a later request sets the burst (0.9.0)",
	  .in = "/a\n /b think=4\n /c\n", .dump =
	    "S3\n B4\n  1 - /a - -1\n  2 - /b - 4\n  3 - /c - -1\n" },
	{ .name = "several thinks in a burst: the last wins",
	  .in = "/a think=1\n /b think=2\n /c\n", .dump =
	    "S3\n B2\n  1 - /a - 1\n  2 - /b - 2\n  3 - /c - -1\n" },
	{ .name = "think forms",
	  .in = "/a think=.25\n/b think='3'\n/c think=2.\n/d think=-0\n",
	  .dump =
	    "S4\n B0.25\n  1 - /a - 0.25\n B3\n  2 - /b - 3\n"
	    " B2\n  3 - /c - 2\n B0\n  4 - /d - 0\n" },
	{ .name = "huge think: the burst's exact, the request's clamped",
	  .in = "/a think=1e300\n", .dump =
	    "S1\n B1e+300\n  1 - /a - 3.40282e+38\n" },
	{ .name = "method tokens",
	  .in = "/a method=PROPFIND\n/b method=M-SEARCH\n/c method=\"GET\"\n"
	    "/d method=get\n/e method=x!#$%&*+-.^_`|~9\n", .dump =
	    "S5\n B-1\n  1 PROPFIND /a - -1\n B-1\n  2 M-SEARCH /b - -1\n"
	    " B-1\n  3 GET /c - -1\n B-1\n  4 get /d - -1\n"
	    " B-1\n  5 x!#$%&*+-.^_`|~9 /e - -1\n" },
	{ .name = "repeated params: the last wins",
	  .in = "/a method=GET method=PUT contents=x contents=yy think=1 "
	    "think=2\n", .dump =
	    "S1\n B2\n  1 PUT /a \"yy\" 2\n" },
	{ .name = "empty contents is an empty body",
	  .in = "/a contents=''\n/b contents=\n", .dump =
	    "S2\n B-1\n  1 - /a \"\" -1\n B-1\n  2 - /b \"\" -1\n" },
	{ .name = "CRLF file",
	  .in = "/a think=1\r\n /b\r\n\r\n/c method=HEAD\r\n", .dump =
	    "S2\n B1\n  1 - /a - 1\n  2 - /b - -1\nS1\n B-1\n"
	    "  4 HEAD /c - -1\n" },
	{ .name = "no final newline",
	  .in = "/a\n /b contents='z'", .dump =
	    "S2\n B-1\n  1 - /a - -1\n  2 - /b \"z\" -1\n" },
	{ .name = "blanks around params, trailing blanks",
	  .in = "/a \t method=POST\t\tcontents=q  \t\n", .dump =
	    "S1\n B-1\n  1 POST /a \"q\" -1\n" },
	{ .name = "NUL and high bytes in contents",
	  .in = "/a contents=x\0\xff\n", .len = 16, .dump =
	    "S1\n B-1\n  1 - /a \"x\\x00\\xff\" -1\n" },
	{ .name = "empty file", .in = "", .dump = "" },
	{ .name = "only comments and blanks", .in = "# x\n\n \n#y",
	  .dump = "" },
};

struct bad_row {
	const char	*in;
	const char	*err;
};

static const struct bad_row bad_rows[] = {
	{ "/a header=X-A\n",
	    "t.log:1: bad header 'X-A' (want \"Name: value\")" },
	{ "/a header=:v\n",
	    "t.log:1: bad header ':v' (want \"Name: value\")" },
	{ "/a header='X A: v'\n",
	    "t.log:1: bad header 'X A: v' (want \"Name: value\")" },
	{ "/a header='X: a\\nb'\n",
	    "t.log:1: CR, LF or NUL in header 'X: a\\nb'" },
	{ "/a\n/b extract=''\n", "t.log:2: empty extract=" },
	{ "/a check=\n", "t.log:1: empty check=" },
	{ "/a foo=1\n", "t.log:1: unknown parameter 'foo'" },
	{ "/a Method=GET\n", "t.log:1: unknown parameter 'Method'" },
	{ "/a =x\n", "t.log:1: unknown parameter ''" },
	{ "/a\n/b method\n", "t.log:2: missing '=' after 'method'" },
	{ "/a think 3\n", "t.log:1: missing '=' after 'think'" },
	{ "#\n\n/a contents='abc\n", "t.log:3: unterminated ' quote" },
	{ "/a contents=\"abc\n/b\n", "t.log:1: unterminated \" quote" },
	{ "/a contents='x\\\ny\\\nz\n", "t.log:1: unterminated ' quote" },
	{ "/a contents='abc", "t.log:1: unterminated ' quote" },
	{ "/a contents='x'y\n", "t.log:1: junk after closing ' quote" },
	{ "/a contents=\\q\n", "t.log:1: unknown escape '\\q'" },
	{ "/a\n /b\n /c contents='\\0'\n", "t.log:3: unknown escape '\\0'" },
	{ "/a contents=\\ x\n",
	  "t.log:1: unknown escape '\\' followed by byte 0x20" },
	{ "/a contents=x\\", "t.log:1: backslash at end of file" },
	{ "/a think=-1\n", "t.log:1: bad think time '-1'" },
	{ "/a think=\n", "t.log:1: bad think time ''" },
	{ "/a think=abc\n", "t.log:1: bad think time 'abc'" },
	{ "/a think=1.5s\n", "t.log:1: bad think time '1.5s'" },
	{ "/a think=nan\n", "t.log:1: bad think time 'nan'" },
	{ "/a think=inf\n", "t.log:1: bad think time 'inf'" },
	{ "/a think=1e999\n", "t.log:1: bad think time '1e999'" },
	{ "/a think=1..2\n", "t.log:1: bad think time '1..2'" },
	{ "/a think=0x10\n", "t.log:1: bad think time '0x10'" },
	{ "/a method=\n", "t.log:1: bad method ''" },
	{ "/a method='G T'\n", "t.log:1: bad method 'G T'" },
	{ "/a method=GE(T\n", "t.log:1: bad method 'GE(T'" },
	{ "/a method=\"GET\\r\\n\"\n", "t.log:1: bad method 'GET\\r\\n'" },
	/* Quoted file text is escaped: one line of printable ASCII. */
	{ "/a method=G\x1bT\n", "t.log:1: bad method 'G\\x1bT'" },
	{ "/a method='\x1b[2J\x7f'\n",
	  "t.log:1: bad method '\\x1b[2J\\x7f'" },
	{ "/a think=1\x07\n", "t.log:1: bad think time '1\\x07'" },
	{ "/a think='1\\\\2\\t'\n", "t.log:1: bad think time '1\\\\2\\t'" },
	{ "/a f\x1b[2J=1\n", "t.log:1: unknown parameter 'f\\x1b[2J'" },
	{ "/a \xff\xfe\x80=1\n",
	  "t.log:1: unknown parameter '\\xff\\xfe\\x80'" },
	{ "/a \x01\x1b\n", "t.log:1: missing '=' after '\\x01\\x1b'" },
	{ "/a method=\"a b\\nc\"\n", "t.log:1: bad method 'a b\\nc'" },
	/* At most 64 bytes of the file are quoted, then "...". */
	{ "/a x01234567890123456789012345678901234567890123456789"
	  "01234567890123456=1\n",
	  "t.log:1: unknown parameter 'x0123456789012345678901234"
	  "56789012345678901234567890123456789012...'" },
	{ "/a \x1b"
	  "012345678901234567890123456789012345678901234567890123"
	  "4567890\x1b\x1b\n",
	  "t.log:1: missing '=' after '\\x1b012345678901234567890"
	  "1234567890123456789012345678901234567890\\x1b\\x1b'" },
	{ "/a \x1b"
	  "012345678901234567890123456789012345678901234567890123"
	  "45678901\x1b\x1b\n",
	  "t.log:1: missing '=' after '\\x1b012345678901234567890"
	  "12345678901234567890123456789012345678901\\x1b...'" },
};

/* Appends `s' to `f' with C escapes, so a dump stays one line per item. */
static void
put_escaped(FILE *f, const char *s, size_t len)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\\' || c == '"')
			fprintf(f, "\\%c", c);
		else if (c < ' ' || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

/* Checks the invariants of one request that the dump does not show. */
static void
check_req(const struct sesslog_req *r)
{
	char clen[64];

	ck_assert_ptr_nonnull(r->uri);
	ck_assert_uint_eq(r->uri_len, strlen(r->uri));
	ck_assert_uint_gt(r->uri_len, 0);
	if (r->method != NULL)
		ck_assert_uint_eq(r->method_len, strlen(r->method));
	else
		ck_assert_uint_eq(r->method_len, 0);
	if (r->body == NULL) {
		ck_assert_uint_eq(r->body_len, 0);
		ck_assert_ptr_null(r->clen);
		ck_assert_uint_eq(r->clen_len, 0);
		return;
	}
	ck_assert_int_eq(r->body[r->body_len], '\0');
	snprintf(clen, sizeof(clen), "Content-Length: %zu\r\n",
	    (size_t)r->body_len);
	ck_assert_ptr_nonnull(r->clen);
	ck_assert_str_eq(r->clen, clen);
	ck_assert_uint_eq(r->clen_len, strlen(clen));
}

/* Renders `log' in the dump format; the caller frees the result. */
static char *
dump(const struct sesslog *log)
{
	const struct sesslog_sess *s;
	const struct sesslog_burst *b;
	const struct sesslog_req *r;
	size_t i, j, k, n, size;
	char *out;
	FILE *f;

	f = open_memstream(&out, &size);
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < log->nsess; i++) {
		s = &log->sess[i];
		ck_assert_uint_gt(s->nbursts, 0);
		fprintf(f, "S%zu\n", s->nreqs);
		n = 0;
		for (j = 0; j < s->nbursts; j++) {
			b = &s->bursts[j];
			ck_assert_uint_gt(b->nreqs, 0);
			fprintf(f, " B%g\n", b->think);
			for (k = 0; k < b->nreqs; k++) {
				r = &b->reqs[k];
				check_req(r);
				fprintf(f, "  %u %s ", r->line,
				    r->method != NULL ? r->method : "-");
				put_escaped(f, r->uri, r->uri_len);
				if (r->body != NULL) {
					fputs(" \"", f);
					put_escaped(f, r->body, r->body_len);
					fputs("\"", f);
				} else
					fputs(" -", f);
				fprintf(f, " %g", r->think);
				/* header=, extract=, check=: only if given. */
				if (r->hdrs != NULL) {
					fputs(" H", f);
					put_escaped(f, r->hdrs, r->hdrs_len);
				}
				if (r->specs != NULL) {
					fprintf(f, " %uX", r->nspecs);
					put_escaped(f, r->specs, r->specs_len);
				}
				fputc('\n', f);
			}
			n += b->nreqs;
		}
		ck_assert_uint_eq(n, s->nreqs);
	}
	fclose(f);
	return out;
}

START_TEST(parse_good)
{
	const struct good_row *row = &good_rows[_i];
	size_t len = row->len != 0 ? row->len : strlen(row->in);
	struct sesslog log;
	char err[256], *out, *in;
	struct unit_guard g;

	in = unit_guard_copy(&g, row->in, len);
	ck_assert_msg(sesslog_parse(&log, in, len, "t.log", err,
	    sizeof(err)) == 0, "%s: %s", row->name, err);
	ck_assert_str_eq(err, "");
	out = dump(&log);
	ck_assert_msg(strcmp(out, row->dump) == 0,
	    "%s: got\n%s\nwant\n%s", row->name, out, row->dump);
	free(out);
	sesslog_free(&log);
	ck_assert_ptr_null(log.sess);
	ck_assert_uint_eq(log.nsess, 0);
	sesslog_free(&log);
	unit_guard_unmap(&g);
}
END_TEST

START_TEST(parse_bad)
{
	const struct bad_row *row = &bad_rows[_i];
	size_t len = strlen(row->in);
	struct sesslog log;
	char err[256], *in;
	struct unit_guard g;

	in = unit_guard_copy(&g, row->in, len);
	ck_assert_int_eq(sesslog_parse(&log, in, len, "t.log", err,
	    sizeof(err)), -1);
	ck_assert_msg(strcmp(err, row->err) == 0, "input \"%s\": got \"%s\"",
	    row->in, err);
	ck_assert_ptr_null(log.sess);
	ck_assert_uint_eq(log.nsess, 0);
	sesslog_free(&log);
	unit_guard_unmap(&g);
}
END_TEST

/* Every prefix of the manual example parses or fails without faults. */
START_TEST(parse_prefixes)
{
	size_t len = strlen(manual_example), i;
	struct sesslog log;
	char err[256], *in;
	struct unit_guard g;

	for (i = 0; i <= len; i++) {
		in = unit_guard_copy(&g, manual_example, i);
		if (sesslog_parse(&log, in, i, NULL, err, sizeof(err)) == -1)
			ck_assert_msg(strncmp(err, "-:", 2) == 0, "%s", err);
		sesslog_free(&log);
		unit_guard_unmap(&g);
	}
}
END_TEST

/* A NULL or tiny error buffer is fine, and messages are truncated. */
START_TEST(parse_errbuf)
{
	struct sesslog log;
	char err[8];

	ck_assert_int_eq(sesslog_parse(&log, "/a x=1", 6, "f", NULL, 0), -1);
	ck_assert_int_eq(sesslog_parse(&log, "/a x=1", 6, "f", err, 1), -1);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(sesslog_parse(&log, "/a x=1", 6, "f", err,
	    sizeof(err)), -1);
	ck_assert_str_eq(err, "f:1: un");
}
END_TEST

START_TEST(huge_body)
{
	size_t n = 1024 * 1024, i;
	struct sesslog log;
	struct sesslog_req *r;
	char err[256], *in, *p, want[64];

	in = xmalloc(n * 2 + 64);
	p = in + sprintf(in, "/big method=POST contents='");
	for (i = 0; i < n; i++) {
		if (i % 1000 == 999) {
			memcpy(p, "\\n", 2);
			p += 2;
		} else
			*p++ = 'a' + i % 26;
	}
	p += sprintf(p, "' think=1\n");
	ck_assert_int_eq(sesslog_parse(&log, in, p - in, "t", err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(log.nsess, 1);
	r = &log.sess[0].bursts[0].reqs[0];
	ck_assert_uint_eq(r->body_len, n);
	for (i = 0; i < n; i++)
		if (r->body[i] != (i % 1000 == 999 ? '\n' :
		    (char)('a' + i % 26)))
			ck_abort_msg("body byte %zu", i);
	snprintf(want, sizeof(want), "Content-Length: %zu\r\n", n);
	ck_assert_str_eq(r->clen, want);
	ck_assert_double_eq(log.sess[0].bursts[0].think, 1);
	sesslog_free(&log);
	free(in);
}
END_TEST

START_TEST(huge_uri)
{
	size_t n = 1024 * 1024;
	struct sesslog log;
	char err[256], *in;

	in = xmalloc(n + 2);
	memset(in, 'u', n);
	in[0] = '/';
	in[n] = '\n';
	in[n + 1] = ' ';	/* a trailing blank line without newline */
	ck_assert_int_eq(sesslog_parse(&log, in, n + 2, "t", err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(log.nsess, 1);
	ck_assert_uint_eq(log.sess[0].bursts[0].reqs[0].uri_len, n);
	ck_assert_int_eq(log.sess[0].bursts[0].reqs[0].uri[n - 1], 'u');
	sesslog_free(&log);
	free(in);
}
END_TEST

/* Writes the many-session file image; the caller frees it. */
static char *
many_sessions(size_t nsess, size_t *lenp)
{
	char *buf;
	size_t size;
	FILE *f;
	size_t i;

	f = open_memstream(&buf, &size);
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < nsess; i++)
		fprintf(f, "# session %zu\n/s%zu/a think=%zu\n  /s%zu/b "
		    "method=POST contents=\"%zu\"\n/s%zu/c\n\n\n", i, i, i % 7,
		    i, i, i);
	fclose(f);
	*lenp = size;
	return buf;
}

/* Checks the log many_sessions() describes. */
static void
check_many(const struct sesslog *log, size_t nsess)
{
	const struct sesslog_sess *s;
	char want[64];
	size_t i;

	ck_assert_uint_eq(log->nsess, nsess);
	for (i = 0; i < nsess; i++) {
		s = &log->sess[i];
		ck_assert_uint_eq(s->nbursts, 2);
		ck_assert_uint_eq(s->nreqs, 3);
		ck_assert_uint_eq(s->bursts[0].nreqs, 2);
		ck_assert_double_eq(s->bursts[0].think, (double)(i % 7));
		ck_assert_double_eq(s->bursts[1].think, -1);
		snprintf(want, sizeof(want), "/s%zu/b", i);
		ck_assert_str_eq(s->bursts[0].reqs[1].uri, want);
		ck_assert_str_eq(s->bursts[0].reqs[1].method, "POST");
		snprintf(want, sizeof(want), "%zu", i);
		ck_assert_str_eq(s->bursts[0].reqs[1].body, want);
		ck_assert_uint_eq(s->bursts[1].reqs[0].line, 6 * i + 4);
	}
}

START_TEST(five_thousand_sessions)
{
	struct sesslog log;
	char err[256], *in;
	size_t len;

	in = many_sessions(5000, &len);
	ck_assert_int_eq(sesslog_parse(&log, in, len, "t", err,
	    sizeof(err)), 0);
	check_many(&log, 5000);
	sesslog_free(&log);
	free(in);
}
END_TEST

/*
 * Bytes the heap has handed out and not taken back, from the allocator
 * in use (AddressSanitizer's or glibc's); 0 where neither tells.
 */
static size_t
heap_in_use(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return __sanitizer_get_current_allocated_bytes();
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
#else
	return 0;
#endif
}

/*
 * The parsed form is compact: a file of short lines (100,000 requests,
 * one per burst, four per session) costs well under 128 bytes per
 * request (0.9.0-like per-burst arrays and per-string allocations cost
 * about 400), and every session and burst is a slice of the log's two
 * arrays, in file order.
 */
START_TEST(compact_form)
{
	size_t n = 100000, i, len, before, used;
	struct sesslog log;
	char err[256], *in;
	FILE *f;

	f = open_memstream(&in, &len);
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++)
		fprintf(f, "/p%zu\n%s", i, i % 4 == 3 ? "\n" : "");
	fclose(f);
	before = heap_in_use();
	ck_assert_int_eq(sesslog_parse(&log, in, len, "t", err,
	    sizeof(err)), 0);
	used = heap_in_use() - before;
	fprintf(stderr, "check_sesslog: %zu requests (%zu bytes of file) "
	    "held in %zu bytes\n", n, len, used);
#if defined(__SANITIZE_ADDRESS__) || (defined(__GLIBC__) && \
    (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33))
	ck_assert_uint_gt(used, 0);
	ck_assert_uint_lt(used, 128 * n);
#endif
	ck_assert_uint_eq(log.nsess, n / 4);
	ck_assert_uint_eq(log.nbursts, n);
	ck_assert_uint_eq(log.nreqs, n);
	for (i = 0; i < n / 4; i++) {
		ck_assert_ptr_eq(log.sess[i].bursts, &log.bursts[4 * i]);
		ck_assert_uint_eq(log.sess[i].nbursts, 4);
	}
	for (i = 0; i < n; i++) {
		ck_assert_ptr_eq(log.bursts[i].reqs, &log.reqs[i]);
		ck_assert_uint_eq(log.reqs[i].line, i + 1 + i / 4);
	}
	ck_assert_str_eq(log.reqs[n - 1].uri, "/p99999");
	sesslog_free(&log);
	ck_assert_ptr_null(log.reqs);
	ck_assert_ptr_null(log.bursts);
	ck_assert_ptr_null(log.arena);
	free(in);
}
END_TEST

/* Writes `len' bytes to a fresh temporary file; returns its path. */
static char *
temp_file(const char *data, size_t len)
{
	char *path = xstrdup("/tmp/check_sesslog.XXXXXX");
	int fd;

	fd = mkstemp(path);
	ck_assert_int_ne(fd, -1);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

START_TEST(load_good)
{
	struct sesslog log;
	char err[256], *in, *path;
	size_t len;

	in = many_sessions(5000, &len);
	ck_assert_uint_gt(len, 4 * 65536);	/* several read(2) calls */
	path = temp_file(in, len);
	ck_assert_msg(sesslog_load(&log, path, err, sizeof(err)) == 0, "%s",
	    err);
	check_many(&log, 5000);
	sesslog_free(&log);
	unlink(path);
	free(path);
	free(in);
}
END_TEST

START_TEST(load_errors)
{
	static const struct {
		const char	*data;
		const char	*suffix;
	} rows[] = {
		{ "", ": no sessions" },
		{ "# nothing\n\n  \n", ": no sessions" },
		{ "/a\n\n/b think=x\n", ":3: bad think time 'x'" },
	};
	struct sesslog log;
	char err[512], want[512], *path;
	size_t i;

	for (i = 0; i < nitems(rows); i++) {
		path = temp_file(rows[i].data, strlen(rows[i].data));
		ck_assert_int_eq(sesslog_load(&log, path, err, sizeof(err)),
		    -1);
		snprintf(want, sizeof(want), "%s%s", path, rows[i].suffix);
		ck_assert_str_eq(err, want);
		ck_assert_uint_eq(log.nsess, 0);
		ck_assert_ptr_null(log.sess);
		unlink(path);
		free(path);
	}
	ck_assert_int_eq(sesslog_load(&log, "/nonexistent/x.log", err,
	    sizeof(err)), -1);
	ck_assert_str_eq(err, "/nonexistent/x.log: No such file or directory");
	ck_assert_int_eq(sesslog_load(&log, "/tmp", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "/tmp: Is a directory");
	ck_assert_int_eq(sesslog_load(&log, "/tmp", NULL, 0), -1);
}
END_TEST

START_TEST(free_zeroed)
{
	struct sesslog log;

	memset(&log, 0, sizeof(log));
	sesslog_free(&log);
	sesslog_free(&log);
	ck_assert_uint_eq(log.nsess, 0);
}
END_TEST

static Suite *
sesslog_suite(void)
{
	Suite *s = suite_create("sesslog");
	TCase *tc;

	tc = tcase_create("parse");
	tcase_add_loop_test(tc, parse_good, 0, nitems(good_rows));
	tcase_add_loop_test(tc, parse_bad, 0, nitems(bad_rows));
	tcase_add_test(tc, parse_prefixes);
	tcase_add_test(tc, parse_errbuf);
	tcase_add_test(tc, free_zeroed);
	suite_add_tcase(s, tc);

	tc = tcase_create("big");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, huge_body);
	tcase_add_test(tc, huge_uri);
	tcase_add_test(tc, five_thousand_sessions);
	tcase_add_test(tc, compact_form);
	suite_add_tcase(s, tc);

	tc = tcase_create("load");
	tcase_add_test(tc, load_good);
	tcase_add_test(tc, load_errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(sesslog_suite());
}
