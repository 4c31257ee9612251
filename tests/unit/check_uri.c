/*
 * Unit tests for the URI sources: --wlog (NUL- and newline-separated
 * files, CR LF, wrapping, stopping after the last URI, refused files) and
 * --wset (0.9.0's walk: sequences for several miss rates, --client start
 * and stride, directory levels, the --uri prefix).  The modules are driven
 * through a real core and bus by creating calls.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/loop.h"
#include "gen/uri_wlog.h"
#include "gen/uri_wset.h"
#include "lib/util.h"
#include "net/http_req.h"
#include "unit.h"

/* A core with a bus and a request template, as main() builds one. */
struct fix {
	struct loop	*loop;
	struct bus	*bus;
	struct http_req_tmpl tmpl;
	struct core	 core;
	char		 path[64];	/* temporary wlog file, or "" */
	int		 ndone;		/* done callbacks seen */
};

static void
fix_init(struct fix *f)
{
	struct core_config cfg;

	memset(f, 0, sizeof(*f));
	unit_req_tmpl(&f->tmpl, NULL);
	memset(&cfg, 0, sizeof(cfg));
	cfg.req = &f->tmpl;
	unit_core_init(&f->core, &f->loop, &f->bus, &cfg);
}

static void
fix_fini(struct fix *f)
{
	unit_core_fini(&f->core);
	http_req_tmpl_free(&f->tmpl);
	if (f->path[0] != '\0')
		unlink(f->path);
}

/* Writes `len' bytes to a new temporary file named in f->path. */
static const char *
fix_file(struct fix *f, const char *data, size_t len)
{
	int fd;

	snprintf(f->path, sizeof(f->path), "/tmp/check_uri.XXXXXX");
	fd = mkstemp(f->path);
	ck_assert_int_ne(fd, -1);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return f->path;
}

static void
fix_done(void *arg, uint64_t now)
{
	struct fix *f = arg;

	f->ndone++;
}

/* Creates a call and returns a copy of its URI ("" for none). */
static void
next_uri(struct fix *f, char *buf, size_t size, int *abandon)
{
	struct call *c = call_new(&f->core, 0);

	ck_assert_uint_lt(c->uri_len, size);
	if (c->uri != NULL) {
		/* The URI must be a C string of exactly uri_len bytes. */
		ck_assert_uint_eq(strlen(c->uri), c->uri_len);
		memcpy(buf, c->uri, c->uri_len);
	}
	buf[c->uri_len] = '\0';
	if (abandon != NULL)
		*abandon = c->abandon;
	call_unref(c, 0);
}

/* Loads `data' as a wlog file and expects the URIs `want' in order. */
static void
wlog_expect(const char *data, size_t len, int wrap, const char *const *want,
    size_t nwant)
{
	struct fix f;
	struct uri_wlog w;
	char err[256], uri[256];
	size_t i;
	int ab;

	fix_init(&f);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core, fix_file(&f, data, len),
	    wrap, 0, stdout, "httperf", fix_done, &f, err, sizeof(err)), 0);
	for (i = 0; i < nwant; i++) {
		next_uri(&f, uri, sizeof(uri), &ab);
		ck_assert_int_eq(ab, 0);
		ck_assert_str_eq(uri, want[i]);
	}
	ck_assert_int_eq(f.ndone, 0);
	uri_wlog_fini(&w);
	uri_wlog_fini(&w);
	fix_fini(&f);
}

START_TEST(wlog_nul)
{
	static const char data[] = "/a\0/bb\0\0\0/ccc/d?x=1\0";
	static const char *const want[] = {
		"/a", "/bb", "/ccc/d?x=1", "/a", "/bb", "/ccc/d?x=1", "/a"
	};

	wlog_expect(data, sizeof(data) - 1, 1, want, nitems(want));
}
END_TEST

START_TEST(wlog_nul_unterminated)
{
	/* The last entry needs no NUL; a newline is not a separator. */
	static const char data[] = "\0/a\0/b";
	static const char *const want[] = { "/a", "/b", "/a" };

	wlog_expect(data, sizeof(data) - 1, 1, want, nitems(want));
}
END_TEST

START_TEST(wlog_newline)
{
	static const char data[] = "/a\n\n/b/c.html\n/d";
	static const char *const want[] = {
		"/a", "/b/c.html", "/d", "/a", "/b/c.html"
	};

	wlog_expect(data, sizeof(data) - 1, 1, want, nitems(want));
}
END_TEST

START_TEST(wlog_crlf)
{
	static const char data[] = "/a\r\n/b\r\n\r\n/c\n";
	static const char *const want[] = { "/a", "/b", "/c", "/a" };

	wlog_expect(data, sizeof(data) - 1, 1, want, nitems(want));
}
END_TEST

START_TEST(wlog_single)
{
	static const char data[] = "/only";
	static const char *const want[] = { "/only", "/only", "/only" };

	wlog_expect(data, sizeof(data) - 1, 1, want, nitems(want));
}
END_TEST

START_TEST(wlog_large)
{
	/* Far more than one read's worth. */
	struct fix f;
	struct uri_wlog w;
	char err[256], uri[64], want[64];
	char *data;
	size_t len = 0, i, n = 50000;
	int ab;

	data = xmalloc(n * 16);
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(data + len, "/file%zu\n", i);
	fix_init(&f);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core, fix_file(&f, data, len),
	    0, 0, stdout, "httperf", fix_done, &f, err, sizeof(err)), 0);
	ck_assert_uint_eq(w.nuris, n);
	for (i = 0; i < n; i++) {
		next_uri(&f, uri, sizeof(uri), &ab);
		snprintf(want, sizeof(want), "/file%zu", i);
		ck_assert_str_eq(uri, want);
	}
	next_uri(&f, uri, sizeof(uri), &ab);
	ck_assert_int_eq(ab, 1);
	ck_assert_int_eq(f.ndone, 1);
	uri_wlog_fini(&w);
	fix_fini(&f);
	free(data);
}
END_TEST

START_TEST(wlog_stop)
{
	/* --wlog n: exactly N URIs, then abandoned calls and one "done". */
	static const char data[] = "/1\0/2\0/3\0";
	struct fix f;
	struct uri_wlog w;
	char err[256], uri[64], want[8];
	int ab, i;

	fix_init(&f);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core,
	    fix_file(&f, data, sizeof(data) - 1), 0, 0, stdout, "httperf",
	    fix_done, &f, err, sizeof(err)), 0);
	for (i = 1; i <= 3; i++) {
		next_uri(&f, uri, sizeof(uri), &ab);
		snprintf(want, sizeof(want), "/%d", i);
		ck_assert_str_eq(uri, want);
		ck_assert_int_eq(ab, 0);
		ck_assert_int_eq(f.ndone, 0);
	}
	for (i = 0; i < 5; i++) {
		next_uri(&f, uri, sizeof(uri), &ab);
		ck_assert_int_eq(ab, 1);
		ck_assert_str_eq(uri, "");
		ck_assert_int_eq(f.ndone, 1);
	}
	uri_wlog_fini(&w);
	fix_fini(&f);
}
END_TEST

START_TEST(wlog_clients)
{
	/*
	 * --client I/N over 10 URIs.  n: client I gives entries
	 * floor(10I/N) .. floor(10(I+1)/N) - 1, then abandons, so the 3
	 * clients give each URI exactly once; y: client I starts at
	 * floor(10I/N) and goes round the whole list.
	 */
	static const char data[] = "/0\n/1\n/2\n/3\n/4\n/5\n/6\n/7\n/8\n/9\n";
	static const size_t first[] = { 0, 3, 6, 10 };
	struct fix f;
	struct uri_wlog w;
	char err[256], uri[64], want[8];
	unsigned id;
	size_t i, seen = 0;
	int ab;

	for (id = 0; id < 3; id++) {
		fix_init(&f);
		ck_assert_int_eq(uri_wlog_init(&w, &f.core,
		    fix_file(&f, data, sizeof(data) - 1), 0, 0, stdout,
		    "httperf", fix_done, &f, err, sizeof(err)), 0);
		uri_wlog_client(&w, id, 3);
		for (i = first[id]; i < first[id + 1]; i++) {
			next_uri(&f, uri, sizeof(uri), &ab);
			snprintf(want, sizeof(want), "/%zu", i);
			ck_assert_str_eq(uri, want);
			ck_assert_int_eq(ab, 0);
			seen++;
		}
		next_uri(&f, uri, sizeof(uri), &ab);
		ck_assert_int_eq(ab, 1);
		ck_assert_int_eq(f.ndone, 1);
		uri_wlog_fini(&w);
		fix_fini(&f);
	}
	ck_assert_uint_eq(seen, 10);

	fix_init(&f);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core,
	    fix_file(&f, data, sizeof(data) - 1), 1, 0, stdout, "httperf",
	    fix_done, &f, err, sizeof(err)), 0);
	uri_wlog_client(&w, 2, 3);
	for (i = 0; i < 25; i++) {
		next_uri(&f, uri, sizeof(uri), &ab);
		snprintf(want, sizeof(want), "/%zu", (6 + i) % 10);
		ck_assert_str_eq(uri, want);
		ck_assert_int_eq(ab, 0);
	}
	ck_assert_int_eq(f.ndone, 0);
	uri_wlog_fini(&w);
	fix_fini(&f);

	/* More clients than URIs: some give none and are done at once. */
	fix_init(&f);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core,
	    fix_file(&f, "/a\n", 3), 0, 0, stdout, "httperf", fix_done, &f,
	    err, sizeof(err)), 0);
	uri_wlog_client(&w, 0, 4);
	next_uri(&f, uri, sizeof(uri), &ab);
	ck_assert_int_eq(ab, 1);
	ck_assert_int_eq(f.ndone, 1);
	uri_wlog_fini(&w);
	fix_fini(&f);
}
END_TEST

START_TEST(wlog_stop_no_cb)
{
	static const char data[] = "/1\n";
	struct fix f;
	struct uri_wlog w;
	char err[256], uri[64];
	int ab;

	fix_init(&f);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core,
	    fix_file(&f, data, sizeof(data) - 1), 0, 0, stdout, "httperf",
	    NULL, NULL, err, sizeof(err)), 0);
	next_uri(&f, uri, sizeof(uri), &ab);
	ck_assert_str_eq(uri, "/1");
	next_uri(&f, uri, sizeof(uri), &ab);
	ck_assert_int_eq(ab, 1);
	uri_wlog_fini(&w);
	fix_fini(&f);
}
END_TEST

START_TEST(wlog_verbose)
{
	static const char data[] = "/a\n/b\n";
	struct fix f;
	struct uri_wlog w;
	char err[256], uri[64], *text = NULL;
	size_t tlen = 0;
	FILE *out = open_memstream(&text, &tlen);
	int ab;

	ck_assert_ptr_nonnull(out);
	fix_init(&f);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core,
	    fix_file(&f, data, sizeof(data) - 1), 0, 1, out, "httperf",
	    fix_done, &f, err, sizeof(err)), 0);
	next_uri(&f, uri, sizeof(uri), &ab);
	next_uri(&f, uri, sizeof(uri), &ab);
	next_uri(&f, uri, sizeof(uri), &ab);
	fclose(out);
	ck_assert_str_eq(text,
	    "httperf: accessing URI `/a'\n"
	    "httperf: accessing URI `/b'\n");
	free(text);
	uri_wlog_fini(&w);
	fix_fini(&f);
}
END_TEST

/* Files refused by uri_wlog_init(), and the start of the message. */
static const struct {
	const char	*data;
	size_t		 len;
	const char	*msg;		/* after "PATH" */
} wlog_bad[] = {
	{ "", 0, ": file is empty" },
	{ "\n\n\r\n", 4, ": no URI in the file" },
	{ "\0\0\0", 3, ": no URI in the file" },
	{ "/a\n/b c\n", 8, ":2: invalid URI ('/b c')" },
	{ "/a\n\n/b\tc\n", 9, ":3: invalid URI ('/b\\tc')" },
	{ "/a\r/b\n", 6, ":1: invalid URI ('/a\\r/b')" },
	{ "/a\n/\x7f\n", 6, ":2: invalid URI ('/\\x7f')" },
	{ "/a\0/b\n/c\0", 9, ":2: invalid URI ('/b\\n/c')" },
	{ "/a\0\0/b \0", 8, ":3: invalid URI ('/b ')" },
	{ " /a\n", 4, ":1: invalid URI (' /a')" },
	/* The entry is quoted escaped, so no terminal control gets out. */
	{ "/\x1b[2J\xff\n", 7, ":1: invalid URI ('/\\x1b[2J\\xff')" },
	{ "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaa \n", 73, ":1: invalid URI ('/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa...')" },
};

START_TEST(wlog_refused)
{
	struct fix f;
	struct uri_wlog w;
	char err[256], want[256];

	fix_init(&f);
	fix_file(&f, wlog_bad[_i].data, wlog_bad[_i].len);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core, f.path, 1, 0, stdout,
	    "httperf", fix_done, &f, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s%s", f.path, wlog_bad[_i].msg);
	ck_assert_str_eq(err, want);
	ck_assert(!bus_wanted(f.bus, BUS_CALL_NEW));
	uri_wlog_fini(&w);
	fix_fini(&f);
}
END_TEST

START_TEST(wlog_unreadable)
{
	struct fix f;
	struct uri_wlog w;
	char err[256];

	fix_init(&f);
	ck_assert_int_eq(uri_wlog_init(&w, &f.core,
	    "/nonexistent/check_uri.log", 1, 0, stdout, "httperf", fix_done,
	    &f, err, sizeof(err)), -1);
	ck_assert_str_eq(err,
	    "/nonexistent/check_uri.log: No such file or directory");
	ck_assert_int_eq(uri_wlog_init(&w, &f.core, "/", 1, 0, stdout,
	    "httperf", fix_done, &f, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "/: Is a directory");
	fix_fini(&f);
}
END_TEST

/* Runs a walk and expects the file numbers `want'. */
static void
wset_expect(uint64_t n, double x, unsigned id, unsigned nclients,
    const uint64_t *want, size_t nwant)
{
	struct fix f;
	struct uri_wset w;
	char uri[256], exp[256];
	size_t i;

	fix_init(&f);
	uri_wset_init(&w, &f.core, n, x, id, nclients, "/", 0, stdout,
	    "httperf");
	for (i = 0; i < nwant; i++) {
		next_uri(&f, uri, sizeof(uri), NULL);
		uri_wset_format(&w, want[i], exp);
		ck_assert_msg(strcmp(uri, exp) == 0,
		    "call %zu: got %s, want %s", i, uri, exp);
	}
	uri_wset_fini(&w);
	uri_wset_fini(&w);
	fix_fini(&f);
}

START_TEST(wset_half)
{
	/* Verified against 0.9.0. */
	static const uint64_t want[] = {
		0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6
	};

	wset_expect(1024, 0.5, 0, 1, want, nitems(want));
}
END_TEST

START_TEST(wset_tenth)
{
	/* 0.1 ten times is 0.9999999999999999: 0.9.0's first drand48()
	   value (3.9e-14) makes the tenth call a miss. */
	uint64_t want[60];
	size_t i;

	for (i = 0; i < nitems(want); i++)
		want[i] = (i + 1) / 10;
	wset_expect(1024, 0.1, 0, 1, want, nitems(want));
}
END_TEST

START_TEST(wset_one)
{
	static const uint64_t want[] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2
	};

	wset_expect(10, 1.0, 0, 1, want, nitems(want));
}
END_TEST

START_TEST(wset_quarter)
{
	static const uint64_t want[] = {
		0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4
	};

	wset_expect(1024, 0.25, 0, 1, want, nitems(want));
}
END_TEST

START_TEST(wset_zero)
{
	static const uint64_t want[] = { 5, 5, 5, 5, 5 };

	wset_expect(100, 0.0, 5, 8, want, nitems(want));
}
END_TEST

START_TEST(wset_client)
{
	/* --client 1/2: start at 1, move by 2, wrap modulo N. */
	static const uint64_t half[] = { 1, 3, 3, 5, 5, 7, 7, 9, 9, 1, 1 };
	static const uint64_t one[] = { 3, 5, 7, 9, 1, 3, 5 };
	/* Ids and strides beyond N stay in the set (0.9.0 left it). */
	static const uint64_t big[] = { 0, 1, 2, 0, 1 };

	wset_expect(10, 0.5, 1, 2, half, nitems(half));
	wset_expect(10, 1.0, 1, 2, one, nitems(one));
	wset_expect(3, 1.0, 2, 4, big, nitems(big));
}
END_TEST

START_TEST(wset_first_value)
{
	struct fix f;
	struct uri_wset w;

	fix_init(&f);
	uri_wset_init(&w, &f.core, 10, 0.5, 0, 1, "/", 0, stdout,
	    "httperf");
	/* Each test runs in its own process, which never seeded drand48. */
	ck_assert(w.miss_prob == drand48());
	ck_assert(w.miss_prob > 3.9e-14 && w.miss_prob < 3.91e-14);
	uri_wset_fini(&w);
	fix_fini(&f);
}
END_TEST

/* URIs of single files: set size, prefix, file number, URI. */
static const struct {
	uint64_t	 n;
	const char	*prefix;
	unsigned	 id;		/* the first file, X = 0 */
	const char	*uri;
} wset_uris[] = {
	{ 1, "/", 0, "/0.html" },
	{ 2, "/", 1, "/1.html" },
	{ 10, "/", 9, "/9.html" },
	{ 11, "/", 10, "/1/0.html" },
	{ 15, "/", 4, "/0/4.html" },
	{ 15, "/", 14, "/1/4.html" },
	{ 100, "/", 7, "/0/7.html" },
	{ 101, "/", 7, "/0/0/7.html" },
	{ 1000, "/", 999, "/9/9/9.html" },
	{ 1024, "/", 103, "/0/1/0/3.html" },
	{ 1024, "/wset1024", 103, "/wset1024/0/1/0/3.html" },
	{ 15, "/w/", 4, "/w/0/4.html" },
	{ 15, "/w", 4, "/w/0/4.html" },
	{ 15, "", 4, "/0/4.html" },
	{ 15, "/w//", 4, "/w//0/4.html" },
	{ 15, "http://h/x/", 4, "http://h/x/0/4.html" },
	{ UINT64_C(10000000000), "/", 1234567,
	    "/0/0/0/1/2/3/4/5/6/7.html" },
};

START_TEST(wset_uri)
{
	struct fix f;
	struct uri_wset w;
	char uri[256];

	fix_init(&f);
	uri_wset_init(&w, &f.core, wset_uris[_i].n, 0.0, wset_uris[_i].id,
	    1, wset_uris[_i].prefix, 0, stdout, "httperf");
	next_uri(&f, uri, sizeof(uri), NULL);
	ck_assert_str_eq(uri, wset_uris[_i].uri);
	ck_assert_uint_eq(uri_wset_uri_len(&w), strlen(wset_uris[_i].uri));
	uri_wset_fini(&w);
	fix_fini(&f);
}
END_TEST

START_TEST(wset_long_prefix)
{
	struct fix f;
	struct uri_wset w;
	char prefix[1001], uri[1100];

	memset(prefix, 'p', sizeof(prefix) - 1);
	prefix[0] = '/';
	prefix[sizeof(prefix) - 1] = '\0';
	fix_init(&f);
	uri_wset_init(&w, &f.core, 1024, 1.0, 0, 1, prefix, 0, stdout,
	    "httperf");
	next_uri(&f, uri, sizeof(uri), NULL);
	ck_assert_uint_eq(strlen(uri), 1000 + 13);
	ck_assert_str_eq(uri + 1000, "/0/0/0/1.html");
	uri_wset_fini(&w);
	fix_fini(&f);
}
END_TEST

START_TEST(wset_pipelined)
{
	/* Calls alive together keep their own URIs. */
	struct fix f;
	struct uri_wset w;
	struct call *c[4];
	size_t i;

	fix_init(&f);
	uri_wset_init(&w, &f.core, 10, 1.0, 0, 1, "/", 0, stdout,
	    "httperf");
	for (i = 0; i < nitems(c); i++)
		c[i] = call_new(&f.core, 0);
	ck_assert_str_eq(c[0]->uri, "/1.html");
	ck_assert_str_eq(c[1]->uri, "/2.html");
	ck_assert_str_eq(c[2]->uri, "/3.html");
	ck_assert_str_eq(c[3]->uri, "/4.html");
	for (i = 0; i < nitems(c); i++) {
		ck_assert_ptr_eq(c[i]->uri, c[i]->owned);
		call_unref(c[i], 0);
	}
	uri_wset_fini(&w);
	fix_fini(&f);
}
END_TEST

START_TEST(wset_verbose)
{
	struct fix f;
	struct uri_wset w;
	char uri[64], *text = NULL;
	size_t tlen = 0;
	FILE *out = open_memstream(&text, &tlen);

	ck_assert_ptr_nonnull(out);
	fix_init(&f);
	uri_wset_init(&w, &f.core, 15, 0.5, 0, 1, "/w/", 1, out, "httperf");
	next_uri(&f, uri, sizeof(uri), NULL);
	next_uri(&f, uri, sizeof(uri), NULL);
	fclose(out);
	ck_assert_str_eq(text,
	    "httperf: accessing URI `/w/0/0.html'\n"
	    "httperf: accessing URI `/w/0/1.html'\n");
	free(text);
	uri_wset_fini(&w);
	fix_fini(&f);
}
END_TEST

/* ---- The URL argument: util_url_parse(). ---- */

static const struct url_case {
	const char	*in;
	const char	*err;		/* NULL: parses, else in the message */
	int		 https;
	const char	*host;
	unsigned	 port;
	const char	*target;
} url_cases[] = {
	{ "http://example.com/", NULL, 0, "example.com", 80, "/" },
	{ "https://example.com/", NULL, 1, "example.com", 443, "/" },
	/* Missing path, query only, fragment, uppercase scheme. */
	{ "http://h", NULL, 0, "h", 80, "/" },
	{ "http://h?a=1&b", NULL, 0, "h", 80, "/?a=1&b" },
	{ "http://h#frag", NULL, 0, "h", 80, "/" },
	{ "http://h/p?q#f?g", NULL, 0, "h", 80, "/p?q" },
	{ "http://h/p#f g", NULL, 0, "h", 80, "/p" },
	{ "HTTP://H.Example/X", NULL, 0, "H.Example", 80, "/X" },
	{ "HtTpS://h", NULL, 1, "h", 443, "/" },
	/* Ports: given, the scheme's, empty (the scheme's), leading 0. */
	{ "http://h:8080/a", NULL, 0, "h", 8080, "/a" },
	{ "https://h:80/", NULL, 1, "h", 80, "/" },
	{ "http://h:443/", NULL, 0, "h", 443, "/" },
	{ "http://h:/a", NULL, 0, "h", 80, "/a" },
	{ "http://h:0080", NULL, 0, "h", 80, "/" },
	{ "http://h:65535", NULL, 0, "h", 65535, "/" },
	/* IPv4 and bracketed IPv6, with and without a port. */
	{ "http://127.0.0.1:1/", NULL, 0, "127.0.0.1", 1, "/" },
	{ "http://[::1]/", NULL, 0, "::1", 80, "/" },
	{ "http://[::1]", NULL, 0, "::1", 80, "/" },
	{ "https://[2001:db8::1]:8443/x?y", NULL, 1, "2001:db8::1", 8443,
	    "/x?y" },
	{ "http://[::ffff:127.0.0.1]:81", NULL, 0, "::ffff:127.0.0.1", 81,
	    "/" },
	/* Bytes of the path as they are: %-escapes, non-ASCII. */
	{ "http://h/%20a/\xc3\xa9", NULL, 0, "h", 80, "/%20a/\xc3\xa9" },
	{ "http://h_1.a-b/", NULL, 0, "h_1.a-b", 80, "/" },
	/* Refused. */
	{ .in = "ftp://h/", .err = "only http:// and https://" },
	{ .in = "http:/h/", .err = "only http:// and https://" },
	{ .in = "http://user@h/", .err = "user information" },
	{ .in = "http://u:p@h:80/", .err = "user information" },
	{ .in = "http://", .err = "no host" },
	{ .in = "http:///p", .err = "no host" },
	{ .in = "http://:80/", .err = "no host" },
	{ .in = "http://h:0/", .err = "bad port" },
	{ .in = "http://h:65536/", .err = "bad port" },
	{ .in = "http://h:99999999999999999999/", .err = "bad port" },
	{ .in = "http://h:8o/", .err = "bad port" },
	{ .in = "http://h:-1/", .err = "bad port" },
	{ .in = "http://h:80x", .err = "bad port" },
	{ .in = "http://h :80/", .err = "bad host" },
	{ .in = "http://h\\x/", .err = "bad host" },
	{ .in = "http://::1/", .err = "an IPv6 address goes in brackets" },
	{ .in = "http://[::1/", .err = "no ']'" },
	{ .in = "http://[]/", .err = "bad IPv6 address" },
	{ .in = "http://[x::1]/", .err = "bad IPv6 address" },
	{ .in = "http://[127.0.0.1]/", .err = "bad IPv6 address" },
	{ .in = "http://[::1]x/", .err = "expected ':' and a port after ']'" },
	{ "http://[::1]:/", NULL, 0, "::1", 80, "/" },
	{ .in = "http://[::1]:99999/", .err = "bad port" },
	{ .in = "http://h/a b", .err = "contains a space or control character" },
	{ .in = "http://h/a\tb", .err = "contains a space or control character" },
	{ .in = "http://h/?a\r\n", .err = "contains a space or control character" },
	{ .in = "http://h/#\n", .err = "contains a control character" },
	/* Which check speaks first. */
	{ .in = "http://[zz]x/", .err = "bad IPv6 address" },
	{ .in = "http://[0000:0000:0000:0000:0000:0000:0000:0000:0]/",
	    .err = "bad IPv6 address" },
	{ .in = "http://u@[::1/", .err = "user information" },
	{ .in = "http://h$:1x/", .err = "bad host" },
	{ .in = "http://h:1x/a b", .err = "bad port" },
	{ .in = "http://a:b:c/", .err = "an IPv6 address goes in brackets" },
	{ "http://h:1/a#b c", NULL, 0, "h", 1, "/a" },
};

START_TEST(url_parse)
{
	const struct url_case *k = &url_cases[_i];
	struct util_url u;
	char err[128];
	int rv;

	err[0] = '\0';
	rv = util_url_parse(k->in, &u, err, sizeof(err));
	if (k->err != NULL) {
		ck_assert_msg(rv == -1, "row %d (%s): parsed", _i, k->in);
		ck_assert_msg(strstr(err, k->err) != NULL,
		    "row %d (%s): \"%s\" not in \"%s\"", _i, k->in, k->err,
		    err);
		ck_assert_ptr_null(u.host);
		ck_assert_ptr_null(u.target);
		return;
	}
	ck_assert_msg(rv == 0, "row %d (%s): %s", _i, k->in, err);
	ck_assert_int_eq(u.https, k->https);
	ck_assert_str_eq(u.host, k->host);
	ck_assert_uint_eq(u.port, k->port);
	ck_assert_str_eq(u.target, k->target);
	util_url_free(&u);
	util_url_free(&u);	/* harmless twice */
}
END_TEST

/* What counts as a URL argument at all: a scheme and "://". */
START_TEST(url_like)
{
	ck_assert(util_url_like("http://h"));
	ck_assert(util_url_like("HTTPS://h"));
	ck_assert(util_url_like("ftp://h"));
	ck_assert(util_url_like("svn+ssh://h"));
	ck_assert(!util_url_like("h:80"));
	ck_assert(!util_url_like("/path"));
	ck_assert(!util_url_like("://h"));
	ck_assert(!util_url_like("1http://h"));
	ck_assert(!util_url_like("http:/h"));
	ck_assert(!util_url_like(""));
}
END_TEST

static Suite *
uri_suite(void)
{
	Suite *s = suite_create("uri");
	TCase *tc;

	tc = tcase_create("wlog");
	tcase_add_test(tc, wlog_nul);
	tcase_add_test(tc, wlog_nul_unterminated);
	tcase_add_test(tc, wlog_newline);
	tcase_add_test(tc, wlog_crlf);
	tcase_add_test(tc, wlog_single);
	tcase_add_test(tc, wlog_large);
	tcase_add_test(tc, wlog_stop);
	tcase_add_test(tc, wlog_clients);
	tcase_add_test(tc, wlog_stop_no_cb);
	tcase_add_test(tc, wlog_verbose);
	tcase_add_loop_test(tc, wlog_refused, 0, nitems(wlog_bad));
	tcase_add_test(tc, wlog_unreadable);
	suite_add_tcase(s, tc);

	tc = tcase_create("wset");
	tcase_add_test(tc, wset_half);
	tcase_add_test(tc, wset_tenth);
	tcase_add_test(tc, wset_one);
	tcase_add_test(tc, wset_quarter);
	tcase_add_test(tc, wset_zero);
	tcase_add_test(tc, wset_client);
	tcase_add_test(tc, wset_first_value);
	tcase_add_loop_test(tc, wset_uri, 0, nitems(wset_uris));
	tcase_add_test(tc, wset_long_prefix);
	tcase_add_test(tc, wset_pipelined);
	tcase_add_test(tc, wset_verbose);
	suite_add_tcase(s, tc);

	tc = tcase_create("url");
	tcase_add_loop_test(tc, url_parse, 0, nitems(url_cases));
	tcase_add_test(tc, url_like);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(uri_suite());
}
