/*
 * src/script/: the Lua <-> C boundary of --script.  wrk.format()'s bytes,
 * the Host header wrk adds, init()'s arguments, the start-up errors with
 * their exact words, the requests of a pipelined string, request()'s
 * nil and non-string returns (counted, the call still sent), and the
 * headers table and body response() receives, odd keys and a large body
 * included.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lua.h>

#include "core/bus.h"
#include "core/call.h"
#include "script/script_int.h"
#include "unit.h"

/* The script `src' in a temporary file; its path (static, one at once). */
static const char *
script_file(const char *src)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/check_script.XXXXXX");
	ck_assert_int_ne(fd = mkstemp(path), -1);
	ck_assert_ptr_nonnull(f = fdopen(fd, "w"));
	fputs(src, f);
	fclose(f);
	return path;
}

/* A script of `src' for http://h:8080/p (port NULL: none in the URL). */
static struct script *
load(const char *src, const char *host, const char *port, char *err,
    size_t errlen)
{
	static const char *const args[] = { "one", "two" };
	struct script_conf cf;
	struct script *s;

	memset(&cf, 0, sizeof(cf));
	cf.file = script_file(src);
	cf.url = "http://h:8080/p";
	cf.args = args;
	cf.nargs = 2;
	cf.scheme = "http";
	cf.host = host;
	cf.port = port;
	cf.method = "GET";
	cf.path = "/p";
	cf.headers = "X-A:  spaced\r\nNoColon\r\nX-Empty:\r\nX-B: b\n";
	cf.headers_len = strlen(cf.headers);
	err[0] = '\0';
	s = script_new(&cf, err, errlen);
	unlink(cf.file);
	return s;
}

/* The string global `name' of the load's state, or NULL. */
static const char *
global(struct script *s, const char *name)
{
	const char *v;

	lua_getglobal(s->th, name);
	v = lua_tostring(s->th, -1);
	lua_pop(s->th, 1);
	return v;
}

START_TEST(test_format)
{
	static const char want_head[] = "POST /x HTTP/1.1\r\n";
	char err[512];
	struct script *s = load(
	    "wrk.headers = {}\n"
	    "function init(args)\n"
	    "  a = wrk.format(\"POST\", \"/x\", {}, \"abc\")\n"
	    "  b = wrk.format(nil, nil, { [\"Content-Length\"] = \"9\" })\n"
	    "  c = wrk.format(\"GET\", \"/\", { [\"X-N\"] = 5 })\n"
	    "end\n", "h", "8080", err, sizeof(err));
	const char *a;

	ck_assert_msg(s != NULL, "%s", err);
	a = global(s, "a");
	ck_assert_uint_eq(strlen(a), strlen(want_head) +
	    strlen("Host: h:8080\r\n") + strlen("Content-Length: 3\r\n") +
	    strlen("\r\nabc"));
	ck_assert(strncmp(a, want_head, strlen(want_head)) == 0);
	ck_assert_ptr_nonnull(strstr(a, "\r\nHost: h:8080\r\n"));
	ck_assert_ptr_nonnull(strstr(a, "\r\nContent-Length: 3\r\n"));
	ck_assert_str_eq(a + strlen(a) - 7, "\r\n\r\nabc");
	/* No body: Content-Length removed, the table's method and path. */
	ck_assert_str_eq(global(s, "b"),
	    "GET /p HTTP/1.1\r\nHost: h:8080\r\n\r\n");
	ck_assert_ptr_nonnull(strstr(global(s, "c"), "\r\nX-N: 5\r\n"));
	/* Without request(): wrk.format() after init(), Host added. */
	ck_assert_str_eq(s->fixed, "GET /p HTTP/1.1\r\nHost: h:8080\r\n\r\n");
	script_free(s);
}
END_TEST

START_TEST(test_target)
{
	char err[512];
	struct script *s = load(
	    "function init(args)\n"
	    "  a0, a1, a2, n = args[0], args[1], args[2], #args\n"
	    "  xa, xe, xb = wrk.headers[\"X-A\"], wrk.headers[\"X-Empty\"],"
	    " wrk.headers[\"X-B\"]\n"
	    "  port = tostring(wrk.port)\n"
	    "  t = { 1, { 2 } }\n"
	    "  wrk.thread:set(\"u\", t)\n"
	    "  same = tostring(wrk.thread:get(\"u\")[2][1])\n"
	    "end\n", "::1", NULL, err, sizeof(err));

	ck_assert_msg(s != NULL, "%s", err);
	ck_assert_str_eq(global(s, "a0"), "http://h:8080/p");
	ck_assert_str_eq(global(s, "a1"), "one");
	ck_assert_str_eq(global(s, "a2"), "two");
	ck_assert_str_eq(global(s, "n"), "2");
	ck_assert_str_eq(global(s, "xa"), "spaced");
	ck_assert_str_eq(global(s, "xe"), "");
	ck_assert_str_eq(global(s, "xb"), "b");
	ck_assert_str_eq(global(s, "port"), "nil");
	/* thread:set() and :get() in the load's own state. */
	ck_assert_str_eq(global(s, "same"), "2");
	ck_assert_ptr_nonnull(strstr(s->fixed, "\r\nHost: [::1]\r\n"));
	script_free(s);
}
END_TEST

/*
 * Loads `src', which must fail with "--script: FILE" and then `want'
 * (the file's name is random).
 */
static void
expect_error(const char *src, const char *want)
{
	static const char head[] = "--script: /tmp/check_script.";
	char err[512];
	struct script *s = load(src, "h", NULL, err, sizeof(err));

	ck_assert_ptr_null(s);
	ck_assert_msg(strncmp(err, head, strlen(head)) == 0, "%s", err);
	ck_assert_str_eq(err + strlen(head) + 6, want);
}

START_TEST(test_errors)
{
	expect_error("x = = 1\n",
	    ":1: unexpected symbol near '=' (loading the "
	    "script)");
	expect_error("function init(args)\n  local t\n  return t.x\nend\n",
	    ":3: attempt to index local 't' (a nil value) "
	    "(in init())");
	expect_error("function setup(thread)\n  error(\"no\")\nend\n",
	    ":2: no (in setup())");
	expect_error("function setup(thread)\n  thread.x = 1\nend\n",
	    ":2: thread.x: only thread.addr can be set "
	    "(in setup())");
	expect_error("function setup(thread)\n  thread:set(\"f\", print)\n"
	    "end\n", ":2: thread:set(\"f\"): only nil, "
	    "booleans, numbers, strings and tables of them (in setup())");
	expect_error("function request()\n  return {}\nend\n",
	    ":1: request() returned table, not a request string");
	expect_error("function request()\n  return \"\"\nend\n",
	    ":1: request() returned string, not a request string");
	expect_error("function request()\n  error(\"x\")\nend\n",
	    ":2: x (in request())");
	expect_error("function delay()\n  return 1\nend\n",
	    ": delay() needs --concurrency (a pause before each request of "
	    "the closed loop)");
}
END_TEST

START_TEST(test_req_len)
{
	static const char two[] = "POST / HTTP/1.1\r\nContent-Length: 3\r\n"
	    "\r\nabcGET / HTTP/1.1\r\n\r\n";

	ck_assert_uint_eq(script_req_len(two, strlen(two)), 41);
	ck_assert_uint_eq(script_req_len(two + 41, strlen(two) - 41), 18);
	/* No end of the head, or a body longer than what is left: all. */
	ck_assert_uint_eq(script_req_len("GET / HTTP/1.1\r\n", 16), 16);
	ck_assert_uint_eq(script_req_len("P / H\r\nContent-Length: 99\r\n\r\nx",
	    30), 30);
}
END_TEST

/* A call given its request by a BUS_CALL_NEW of `s' on `bus'. */
static void
new_call(struct bus *bus, struct call *c)
{
	union bus_arg a = { .i = 0 };

	memset(c, 0, sizeof(*c));
	bus_signal(bus, BUS_CALL_NEW, c, a, 1);
}

START_TEST(test_request)
{
	char err[512];
	struct script *s = load(
	    "wrk.headers = {}\n"
	    "n = 0\n"
	    "function request()\n"
	    "  n = n + 1\n"
	    "  if n == 1 then return \"at start-up, thrown away\" end\n"
	    "  if n == 2 then return wrk.format(nil, \"/a\") ..\n"
	    "    wrk.format(\"POST\", \"/b\", nil, \"xy\") end\n"
	    "  if n == 3 then return nil end\n"
	    "  if n == 4 then return 42 end\n"
	    "  if n == 5 then error(\"bad\") end\n"
	    "  return wrk.format(nil, \"/c\")\n"
	    "end\n", "h", NULL, err, sizeof(err));
	struct bus *bus = bus_new();
	struct call c;

	ck_assert_msg(s != NULL, "%s", err);
	script_start(s, NULL, bus);
	new_call(bus, &c);
	ck_assert_uint_eq(c.raw_len, strlen("GET /a HTTP/1.1\r\nHost: h\r\n"
	    "\r\n"));
	ck_assert(memcmp(c.raw, "GET /a HTTP/1.1\r\n", 17) == 0);
	free(c.owned);
	/* The second request of the string, request() not called. */
	new_call(bus, &c);
	ck_assert(memcmp(c.raw, "POST /b HTTP/1.1\r\n", 18) == 0);
	ck_assert(memcmp(c.raw + c.raw_len - 6, "\r\n\r\nxy", 6) == 0);
	free(c.owned);
	/* nil, 42, an error: wrk.request()'s bytes, each counted. */
	new_call(bus, &c);
	ck_assert_str_eq(c.raw, "GET /p HTTP/1.1\r\nHost: h\r\n\r\n");
	new_call(bus, &c);
	new_call(bus, &c);
	ck_assert_ptr_eq(c.raw, s->fixed);
	ck_assert_uint_eq(script_errors(s), 3);
	ck_assert_ptr_nonnull(strstr(s->first_err,
	    ":3: request() returned nil, not a request string"));
	new_call(bus, &c);
	ck_assert(memcmp(c.raw, "GET /c HTTP/1.1\r\n", 17) == 0);
	free(c.owned);
	ck_assert_str_eq(global(s, "n"), "6");
	script_free(s);
	bus_free(bus);
}
END_TEST

START_TEST(test_response)
{
	static const char *const lines[] = { "HTTP/1.1 100 Continue", "",
	    "HTTP/1.1 201 Created", "X-Odd:   v  ", "Weird Key: x",
	    "NoColon", ":empty-name", "" };
	char err[512];
	struct script *s = load(
	    "function response(status, headers, body)\n"
	    "  st, odd, weird, cont = status, headers[\"X-Odd\"],"
	    " headers[\"Weird Key\"], tostring(headers[\"\"])\n"
	    "  len, tail = #body, body:sub(-3)\n"
	    "  if status == 500 then error(\"boom\") end\n"
	    "end\n", "h", NULL, err, sizeof(err));
	struct bus *bus = bus_new();
	struct call c;
	union bus_arg a;
	char *big;
	size_t i;

	ck_assert_msg(s != NULL, "%s", err);
	script_start(s, NULL, bus);
	new_call(bus, &c);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		a.buf.p = lines[i];
		a.buf.len = strlen(lines[i]);
		bus_signal(bus, BUS_CALL_RECV_HDR, &c, a, 2);
	}
	/* 4 MiB of body in 64 KiB pieces, then its end. */
	big = malloc(65536);
	memset(big, 'z', 65536);
	for (i = 0; i < 64; i++) {
		a.buf.p = big;
		a.buf.len = 65536;
		bus_signal(bus, BUS_CALL_RECV_DATA, &c, a, 3);
	}
	a.buf.p = "end";
	a.buf.len = 3;
	bus_signal(bus, BUS_CALL_RECV_DATA, &c, a, 3);
	c.status = 201;
	a.i = 0;
	bus_signal(bus, BUS_CALL_RECV_STOP, &c, a, 4);
	ck_assert_str_eq(global(s, "st"), "201");
	ck_assert_str_eq(global(s, "odd"), "v  ");
	ck_assert_str_eq(global(s, "weird"), "x");
	ck_assert_str_eq(global(s, "cont"), "empty-name");
	ck_assert_str_eq(global(s, "len"), "4194307");
	ck_assert_str_eq(global(s, "tail"), "end");
	/* A response() that raises: counted, the next reply still seen. */
	c.status = 500;
	bus_signal(bus, BUS_CALL_RECV_STOP, &c, a, 5);
	bus_signal(bus, BUS_CALL_RECV_STOP, &c, a, 6);
	ck_assert_uint_eq(script_errors(s), 2);
	ck_assert_str_eq(global(s, "len"), "0");
	free(big);
	free(c.owned);
	script_free(s);
	bus_free(bus);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("script");
	TCase *tc = tcase_create("script");

	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_target);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_req_len);
	tcase_add_test(tc, test_request);
	tcase_add_test(tc, test_response);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
