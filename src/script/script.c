/*
 * The script's two Lua states and its start-up (script.h): the `wrk'
 * table from the run's target, the script loaded in each state,
 * setup(thread) in the first, init(args) in the second, and done() after
 * the report.
 */
#include "config.h"

#include <sys/socket.h>

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "core/core.h"
#include "lib/hdr.h"
#include "lib/util.h"
#include "script/script_int.h"

/*
 * wrk.format(method, path, headers, body): each nil argument is the
 * table's field; Host from wrk.headers when missing, Content-Length the
 * body's length (none without a body), then the request line, the
 * headers in the table's order, an empty line and the body: wrk's bytes.
 */
static const char script_format_lua[] =
"local wrk = ...\n"
"function wrk.format(method, path, headers, body)\n"
"  method = method or wrk.method\n"
"  path = path or wrk.path\n"
"  headers = headers or wrk.headers\n"
"  body = body or wrk.body\n"
"  if not headers[\"Host\"] then\n"
"    headers[\"Host\"] = wrk.headers[\"Host\"]\n"
"  end\n"
"  headers[\"Content-Length\"] = body and string.len(body)\n"
"  local lines = { string.format(\"%s %s HTTP/1.1\", method, path) }\n"
"  for name, value in pairs(headers) do\n"
"    lines[#lines + 1] = string.format(\"%s: %s\", name, value)\n"
"  end\n"
"  lines[#lines + 1] = \"\"\n"
"  lines[#lines + 1] = body or \"\"\n"
"  return table.concat(lines, \"\\r\\n\")\n"
"end\n";

int
script_call(struct script *s, lua_State *L, const char *hook, int nargs,
    int nres, char *err, size_t errlen)
{
	const char *msg;

	lua_getglobal(L, hook);
	lua_insert(L, -(nargs + 1));
	if (lua_pcall(L, nargs, nres, 0) == 0)
		return 0;
	msg = lua_tostring(L, -1);
	snprintf(err, errlen, "--script: %s (in %s())",
	    msg != NULL ? msg : "an error that is not a string", hook);
	lua_pop(L, 1);
	(void)s;
	return -1;
}

void
script_bad_return(struct script *s, lua_State *L, const char *hook,
    const char *want, char *err, size_t errlen)
{
	const char *got = luaL_typename(L, -1);
	lua_Debug ar;

	memset(&ar, 0, sizeof(ar));
	lua_getglobal(L, hook);
	if (lua_isfunction(L, -1) && lua_getinfo(L, ">S", &ar))
		snprintf(err, errlen, "--script: %s:%d: %s() returned %s, "
		    "not %s", s->cf.file, ar.linedefined, hook, got, want);
	else {
		lua_pop(L, 1);
		snprintf(err, errlen, "--script: %s: %s() returned %s, not %s",
		    s->cf.file, hook, got, want);
	}
}

/* wrk.headers: the run's header lines "Name: value". */
static void
script_headers(struct script *s, lua_State *L)
{
	const char *p = s->cf.headers, *end, *nl, *colon, *v, *ve;

	lua_newtable(L);
	if (p == NULL)
		return;
	for (end = p + s->cf.headers_len; p < end;) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		ve = nl > p && nl[-1] == '\r' ? nl - 1 : nl;
		if ((colon = memchr(p, ':', (size_t)(ve - p))) != NULL) {
			for (v = colon + 1; v < ve && (*v == ' ' || *v == '\t');
			    v++)
				;
			lua_pushlstring(L, p, (size_t)(colon - p));
			lua_pushlstring(L, v, (size_t)(ve - v));
			lua_settable(L, -3);
		}
		p = nl + 1;
	}
}

/* A new state with the libraries and the `wrk' table of the target. */
static lua_State *
script_state(struct script *s, char *err, size_t errlen)
{
	lua_State *L;

	if ((L = luaL_newstate()) == NULL) {
		snprintf(err, errlen, "--script: cannot create a Lua state");
		return NULL;
	}
	luaL_openlibs(L);
	lua_newtable(L);
	lua_pushstring(L, s->cf.scheme);
	lua_setfield(L, -2, "scheme");
	lua_pushstring(L, s->cf.host);
	lua_setfield(L, -2, "host");
	if (s->cf.port != NULL) {
		lua_pushstring(L, s->cf.port);
		lua_setfield(L, -2, "port");
	}
	lua_pushstring(L, s->cf.method);
	lua_setfield(L, -2, "method");
	lua_pushstring(L, s->cf.path);
	lua_setfield(L, -2, "path");
	script_headers(s, L);
	lua_setfield(L, -2, "headers");
	if (s->cf.body != NULL) {
		lua_pushlstring(L, s->cf.body, s->cf.body_len);
		lua_setfield(L, -2, "body");
	}
	lua_setglobal(L, "wrk");
	script_lib_open(s, L);
	lua_getglobal(L, "wrk");
	script_push_thread(s, L);
	lua_setfield(L, -2, "thread");
	lua_pop(L, 1);
	if (luaL_loadbuffer(L, script_format_lua, sizeof(script_format_lua) - 1,
	    "=wrk") != 0)
		abort();	/* our own code */
	lua_getglobal(L, "wrk");
	lua_call(L, 1, 0);
	if (luaL_loadfile(L, s->cf.file) != 0 || lua_pcall(L, 0, 0, 0) != 0) {
		snprintf(err, errlen, "--script: %s (loading the script)",
		    lua_tostring(L, -1));
		lua_close(L);
		return NULL;
	}
	return L;
}

/* Whether the global `name' of L is a function. */
static int
script_has(lua_State *L, const char *name)
{
	int f;

	lua_getglobal(L, name);
	f = lua_isfunction(L, -1);
	lua_pop(L, 1);
	return f;
}

/* The Host header as wrk adds it: [v6], and :port when in the URL. */
static void
script_host(struct script *s)
{
	lua_State *L = s->th;

	lua_getglobal(L, "wrk");
	lua_getfield(L, -1, "headers");
	lua_getfield(L, -1, "Host");
	if (lua_isnil(L, -1)) {
		lua_pushfstring(L, strchr(s->cf.host, ':') != NULL ? "[%s]%s%s" :
		    "%s%s%s", s->cf.host, s->cf.port != NULL ? ":" : "",
		    s->cf.port != NULL ? s->cf.port : "");
		lua_setfield(L, -3, "Host");
	}
	lua_pop(L, 3);
}

/* init(args): args[0] the URL, then every --script-arg. */
static int
script_init(struct script *s, char *err, size_t errlen)
{
	lua_State *L = s->th;
	size_t i;

	script_host(s);
	if (!script_has(L, "init"))
		return 0;
	lua_newtable(L);
	lua_pushstring(L, s->cf.url);
	lua_rawseti(L, -2, 0);
	for (i = 0; i < s->cf.nargs; i++) {
		lua_pushstring(L, s->cf.args[i]);
		lua_rawseti(L, -2, (int)i + 1);
	}
	return script_call(s, L, "init", 1, 0, err, errlen);
}

/* wrk.request(): the request wrk.format() made after init(). */
static int
script_request_fn(lua_State *L)
{
	lua_pushvalue(L, lua_upvalueindex(1));
	return 1;
}

/*
 * wrk.format() once after init(), and wrk.request returning it: what
 * every call sends without request().
 */
static int
script_fixed(struct script *s, char *err, size_t errlen)
{
	lua_State *L = s->th;
	const char *p;
	size_t len;

	lua_getglobal(L, "wrk");
	lua_getfield(L, -1, "format");
	if (lua_pcall(L, 0, 1, 0) != 0) {
		snprintf(err, errlen, "--script: %s (in wrk.format())",
		    lua_tostring(L, -1));
		lua_pop(L, 2);
		return -1;
	}
	p = lua_tolstring(L, -1, &len);
	s->fixed = xmalloc(len + 1);
	memcpy(s->fixed, p, len + 1);
	s->fixed_len = len;
	lua_pushcclosure(L, script_request_fn, 1);
	lua_setfield(L, -2, "request");
	lua_pop(L, 1);
	return 0;
}

/* thread.addr: the target's first address, as wrk's resolve gives. */
static void
script_addr(struct script *s)
{
	struct addrinfo hints, *res;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(s->cf.host, s->cf.port != NULL ? s->cf.port :
	    strcmp(s->cf.scheme, "https") == 0 ? "443" : "80", &hints,
	    &res) != 0)
		return;
	if (res->ai_addrlen <= sizeof(s->addr)) {
		memcpy(&s->addr, res->ai_addr, res->ai_addrlen);
		s->addr_len = res->ai_addrlen;
	}
	freeaddrinfo(res);
}

/*
 * request() called once at start-up, its string thrown away, as wrk
 * does to check it (so a counter starts at the same request): an error
 * or a value that is no request string stops the run before it starts.
 */
static int
script_verify(struct script *s, char *err, size_t errlen)
{
	lua_State *L = s->th;
	size_t len = 0;

	if (!s->has_request)
		return 0;
	if (script_call(s, L, "request", 0, 1, err, errlen) == -1)
		return -1;
	if (lua_type(L, -1) != LUA_TSTRING ||
	    (lua_tolstring(L, -1, &len), len == 0)) {
		script_bad_return(s, L, "request", "a request string", err,
		    errlen);
		lua_pop(L, 1);
		return -1;
	}
	lua_pop(L, 1);
	return 0;
}

/* The hooks the load's state has, and what the run allows of them. */
static int
script_hooks(struct script *s, char *err, size_t errlen)
{
	s->has_request = script_has(s->th, "request");
	s->has_response = script_has(s->th, "response");
	s->has_delay = script_has(s->th, "delay");
	s->has_done = script_has(s->main, "done");
	if (s->has_delay && s->cf.open_loop) {
		snprintf(err, errlen, "--script: %s: delay() cannot be used "
		    "with --call-rate (an open loop has no pause between a "
		    "connection's calls)", s->cf.file);
		return -1;
	}
	if (s->has_delay && !s->cf.closed_loop) {
		snprintf(err, errlen, "--script: %s: delay() needs "
		    "--concurrency (a pause before each request of the closed "
		    "loop)", s->cf.file);
		return -1;
	}
	return script_fixed(s, err, errlen) == -1 ||
	    script_verify(s, err, errlen) == -1 ? -1 : 0;
}

struct script *
script_new(const struct script_conf *cf, char *err, size_t errlen)
{
	struct script *s = xcalloc(1, sizeof(*s));

	s->cf = *cf;
	s->cf.url = s->url = xstrdup(cf->url);
	s->cf.file = s->file = xstrdup(cf->file);
	s->hdrs_ref = LUA_NOREF;
	script_addr(s);
	if (cf->done_only) {
		/* --jobs' parent: the workers call setup() and the rest. */
		if ((s->main = script_state(s, err, errlen)) == NULL)
			goto fail;
		s->has_done = script_has(s->main, "done");
		return s;
	}
	if ((s->main = script_state(s, err, errlen)) == NULL ||
	    (s->th = script_state(s, err, errlen)) == NULL)
		goto fail;
	if (script_has(s->main, "setup")) {
		script_push_thread(s, s->main);
		if (script_call(s, s->main, "setup", 1, 0, err, errlen) == -1)
			goto fail;
	}
	if (script_init(s, err, errlen) == -1 ||
	    script_hooks(s, err, errlen) == -1)
		goto fail;
	return s;
fail:
	script_free(s);
	return NULL;
}

void
script_start(struct script *s, struct core *core, struct bus *bus)
{
	s->core = core;
	s->bus = bus;
	if (s->cf.done_only)
		return;
	/* thread.addr set in setup() or init(): the connections' target. */
	if (s->addr_set && s->cf.direct && core != NULL) {
		memcpy(&core->cfg.addr, &s->addr, sizeof(core->cfg.addr));
		core->cfg.addrlen = s->addr_len;
	}
	script_run_subscribe(s);
}

uint64_t
script_errors(const struct script *s)
{
	return s->errors;
}

void
script_report(struct script *s, FILE *out, const char *prog)
{
	(void)out;
	if (s->errors == 0)
		return;
	fprintf(stderr, "%s: %s (the first of %llu)\n", prog, s->first_err,
	    (unsigned long long)s->errors);
}

/* summary: duration (us), requests, bytes, errors {...}. */
static void
script_summary(struct script *s, const struct script_summary *sum)
{
	lua_State *L = s->main;

	lua_newtable(L);
	lua_pushnumber(L, (lua_Number)(sum->duration_ns / 1000));
	lua_setfield(L, -2, "duration");
	lua_pushnumber(L, (lua_Number)sum->replies);
	lua_setfield(L, -2, "requests");
	lua_pushnumber(L, (lua_Number)sum->bytes);
	lua_setfield(L, -2, "bytes");
	lua_newtable(L);
	lua_pushnumber(L, (lua_Number)sum->e_connect);
	lua_setfield(L, -2, "connect");
	lua_pushnumber(L, (lua_Number)sum->e_read);
	lua_setfield(L, -2, "read");
	lua_pushnumber(L, (lua_Number)sum->e_write);
	lua_setfield(L, -2, "write");
	lua_pushnumber(L, (lua_Number)sum->e_status);
	lua_setfield(L, -2, "status");
	lua_pushnumber(L, (lua_Number)sum->e_timeout);
	lua_setfield(L, -2, "timeout");
	lua_setfield(L, -2, "errors");
}

void
script_counts(const struct script *s, struct script_summary *sum)
{
	sum->replies = s->replies;
	sum->bytes = s->bytes;
	sum->e_connect = s->e_connect;
	sum->e_read = s->e_read;
	sum->e_write = s->e_write;
	sum->e_status = s->e_status;
	sum->e_timeout = s->e_timeout;
	sum->lat = s->lat;
	sum->rps = s->rps;
}

/* A histogram of HDR_NS_* settings, its values divided by div. */
static struct hdr *
script_scaled(const struct hdr *h, uint64_t div)
{
	struct hdr *o = hdr_new_ns();
	struct hdr_iter it;

	if (h == NULL)
		return o;
	hdr_iter_init(&it, h);
	while (hdr_iter_next(&it))
		hdr_record_n(o, it.hi / div, it.count);
	return o;
}

int
script_done(struct script *s, const struct script_summary *sum, char *err,
    size_t errlen)
{
	struct hdr *lat, *rps;
	int rv;

	if (!s->has_done)
		return 0;
	/* wrk's latency is in microseconds. */
	lat = script_scaled(sum->lat, 1000);
	rps = script_scaled(sum->rps, 1);
	script_summary(s, sum);
	script_push_stats(s->main, lat);
	script_push_stats(s->main, rps);
	rv = script_call(s, s->main, "done", 3, 0, err, errlen);
	hdr_free(lat);
	hdr_free(rps);
	return rv;
}

void
script_free(struct script *s)
{
	if (s == NULL)
		return;
	script_run_free(s);
	if (s->main != NULL)
		lua_close(s->main);
	if (s->th != NULL)
		lua_close(s->th);
	free(s->fixed);
	free(s->pend);
	free(s->url);
	free(s->file);
	free(s);
}
