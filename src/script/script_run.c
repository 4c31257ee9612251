/*
 * The script during the run (script.h): request() gives each new call
 * its bytes, response() sees each reply (its body only then reaches the
 * program), and the numbers done() receives are counted here.  A hook
 * that fails counts its call in the class `script' and the run goes on.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/core.h"
#include "lib/hdr.h"
#include "lib/util.h"
#include "script/script_int.h"

#define SCRIPT_WIN_NS	100000000ULL	/* wrk's request rate interval */

size_t
script_req_len(const char *buf, size_t len)
{
	const char *end = NULL, *p, *line;
	size_t i, head, clen = 0;

	for (i = 0; i + 3 < len; i++)
		if (memcmp(buf + i, "\r\n\r\n", 4) == 0) {
			end = buf + i + 4;
			break;
		}
	if (end == NULL)
		return len;
	head = (size_t)(end - buf);
	for (line = buf; line < end; line = p + 1) {
		if ((p = memchr(line, '\n', (size_t)(end - line))) == NULL)
			break;
		if ((size_t)(p - line) > 15 &&
		    strncasecmp(line, "Content-Length:", 15) == 0)
			clen = strtoull(line + 15, NULL, 10);
	}
	return clen > len - head ? len : head + clen;
}

/*
 * One more call in the class `script' (stat/script_stat.c counts it for
 * the report); the first one's message kept.
 */
static void
script_error(struct script *s, const char *msg, uint64_t now)
{
	union bus_arg a = { .i = 0 };

	if (s->errors++ == 0)
		snprintf(s->first_err, sizeof(s->first_err), "%s", msg);
	bus_signal(s->bus, BUS_SCRIPT_ERROR, NULL, a, now);
}

/* Gives `call' the next request of the pending string. */
static void
script_take(struct script *s, struct call *call)
{
	size_t left = s->pend_len - s->pend_off;
	size_t n = script_req_len(s->pend + s->pend_off, left);
	char *b = xmalloc(n);

	memcpy(b, s->pend + s->pend_off, n);
	free(call->owned);
	call->owned = b;
	call->raw = b;
	call->raw_len = n;
	s->pend_off += n;
	if (s->pend_off == s->pend_len) {
		free(s->pend);
		s->pend = NULL;
	}
}

/* The call's request from request(); its error counts as `script'. */
static void
script_request(struct script *s, struct call *call, uint64_t now)
{
	lua_State *L = s->th;
	char err[512];
	const char *p;
	size_t len;

	if (script_call(s, L, "request", 0, 1, err, sizeof(err)) == 0) {
		if (lua_type(L, -1) == LUA_TSTRING &&
		    (p = lua_tolstring(L, -1, &len)) != NULL && len > 0) {
			s->pend = xmalloc(len);
			memcpy(s->pend, p, len);
			s->pend_len = len;
			s->pend_off = 0;
			lua_pop(L, 1);
			script_take(s, call);
			return;
		}
		script_bad_return(s, L, "request", "a request string", err,
		    sizeof(err));
		lua_pop(L, 1);
	}
	/* Sent as wrk.request() gives it, and counted. */
	script_error(s, err, now);
	call->raw = s->fixed;
	call->raw_len = s->fixed_len;
}

/* BUS_CALL_NEW */
static void
script_call_new(struct script *s, struct call *call, uint64_t now)
{
	if (s->pend != NULL)
		script_take(s, call);
	else if (s->has_request)
		script_request(s, call, now);
	else {
		call->raw = s->fixed;
		call->raw_len = s->fixed_len;
	}
}

/* BUS_CALL_RECV_HDR: a header line into the table of the reply. */
static void
script_hdr(struct script *s, const char *p, size_t len)
{
	lua_State *L = s->th;
	const char *colon, *v;

	if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) {
		/* A status line (an interim reply's too): a fresh table. */
		luaL_unref(L, LUA_REGISTRYINDEX, s->hdrs_ref);
		lua_newtable(L);
		s->hdrs_ref = luaL_ref(L, LUA_REGISTRYINDEX);
		return;
	}
	if (s->hdrs_ref == LUA_NOREF ||
	    (colon = memchr(p, ':', len)) == NULL)
		return;
	for (v = colon + 1; v < p + len && (*v == ' ' || *v == '\t'); v++)
		;
	lua_rawgeti(L, LUA_REGISTRYINDEX, s->hdrs_ref);
	lua_pushlstring(L, p, (size_t)(colon - p));
	lua_pushlstring(L, v, (size_t)(p + len - v));
	lua_settable(L, -3);
	lua_pop(L, 1);
}

/* BUS_CALL_RECV_STOP with response(): response(status, headers, body). */
static void
script_response(struct script *s, struct call *call, uint64_t now)
{
	lua_State *L = s->th;
	char err[512];

	lua_pushnumber(L, call->status);
	if (s->hdrs_ref != LUA_NOREF)
		lua_rawgeti(L, LUA_REGISTRYINDEX, s->hdrs_ref);
	else
		lua_newtable(L);
	lua_pushlstring(L, s->rbody != NULL ? s->rbody : "", s->rbody_len);
	if (script_call(s, L, "response", 3, 0, err, sizeof(err)) == -1)
		script_error(s, err, now);
	luaL_unref(L, LUA_REGISTRYINDEX, s->hdrs_ref);
	s->hdrs_ref = LUA_NOREF;
	s->rbody_len = 0;
}

/* BUS_CALL_RECV_STOP for done(): latency, the request rate, counts. */
static void
script_count(struct script *s, struct call *call, uint64_t now)
{
	uint64_t from = call->intended != 0 ? call->intended :
	    call->t_send_start, win;

	if (s->t0 == 0)
		s->t0 = now;
	if (now > from)
		hdr_record(s->lat, now - from);
	s->replies++;
	if (call->status > 399)
		s->e_status++;
	win = (now - s->t0) / SCRIPT_WIN_NS;
	while (s->win < win) {
		hdr_record(s->rps, s->win_n * (1000000000ULL / SCRIPT_WIN_NS));
		s->win_n = 0;
		s->win++;
	}
	s->win_n++;
}

/* A failure's cause into done()'s error counts. */
static void
script_failed(struct script *s, long cause)
{
	switch (cause) {
	case ECONNREFUSED:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EADDRNOTAVAIL:
		s->e_connect++;
		break;
	case ETIMEDOUT:
		s->e_timeout++;
		break;
	case EPIPE:
		s->e_write++;
		break;
	default:
		s->e_read++;
		break;
	}
}

static void
script_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct script *s = ctx;
	struct call *call = obj;

	switch (ev) {
	case BUS_CALL_NEW:
		script_call_new(s, call, now);
		break;
	case BUS_CALL_RECV_HDR:
		if (s->has_response)
			script_hdr(s, arg.buf.p, arg.buf.len);
		break;
	case BUS_CALL_RECV_DATA:
		if (arg.buf.len == 0)
			break;
		if (s->rbody_len + arg.buf.len > s->rbody_cap) {
			s->rbody_cap = (s->rbody_len + arg.buf.len) * 2;
			s->rbody = xrealloc(s->rbody, s->rbody_cap);
		}
		memcpy(s->rbody + s->rbody_len, arg.buf.p, arg.buf.len);
		s->rbody_len += arg.buf.len;
		break;
	case BUS_CALL_RECV_STOP:
		if (s->has_done)
			script_count(s, call, now);
		if (s->has_response)
			script_response(s, call, now);
		break;
	case BUS_CONN_BYTES_IN:
		s->bytes += (uint64_t)arg.i;
		break;
	case BUS_CONN_FAILED:
	case BUS_CALL_FAILED:
		script_failed(s, arg.i);
		break;
	case BUS_CONN_TIMEOUT:
		s->e_timeout++;
		break;
	default:
		break;
	}
}

/* core->call_delay: delay()'s milliseconds, in ns; 0 after an error. */
static uint64_t
script_delay(void *arg, uint64_t now)
{
	struct script *s = arg;
	lua_State *L = s->th;
	char err[512];
	lua_Number ms;

	if (script_call(s, L, "delay", 0, 1, err, sizeof(err)) == -1) {
		script_error(s, err, now);
		return 0;
	}
	if (lua_type(L, -1) != LUA_TNUMBER) {
		script_bad_return(s, L, "delay", "a number", err, sizeof(err));
		script_error(s, err, now);
		lua_pop(L, 1);
		return 0;
	}
	ms = lua_tonumber(L, -1);
	lua_pop(L, 1);
	/* NaN, negative: none; at most an hour. */
	if (!(ms > 0))
		return 0;
	return ms >= 3600e3 ? UINT64_C(3600000000000) :
	    (uint64_t)(ms * 1e6);
}

void
script_run_subscribe(struct script *s)
{
	static const enum bus_event done_ev[] = { BUS_CONN_BYTES_IN,
	    BUS_CONN_FAILED, BUS_CALL_FAILED, BUS_CONN_TIMEOUT };
	size_t i;

	bus_subscribe(s->bus, BUS_CALL_NEW, script_event, s);
	if (s->has_delay && s->core != NULL) {
		s->core->call_delay = script_delay;
		s->core->call_delay_arg = s;
	}
	if (s->has_response) {
		bus_subscribe(s->bus, BUS_CALL_RECV_HDR, script_event, s);
		bus_subscribe(s->bus, BUS_CALL_RECV_DATA, script_event, s);
	}
	if (s->has_response || s->has_done)
		bus_subscribe(s->bus, BUS_CALL_RECV_STOP, script_event, s);
	if (!s->has_done)
		return;
	s->lat = hdr_new_ns();
	s->rps = hdr_new_ns();
	for (i = 0; i < nitems(done_ev); i++)
		bus_subscribe(s->bus, done_ev[i], script_event, s);
}

void
script_run_free(struct script *s)
{
	if (s->th != NULL && s->hdrs_ref != LUA_NOREF)
		luaL_unref(s->th, LUA_REGISTRYINDEX, s->hdrs_ref);
	s->hdrs_ref = LUA_NOREF;
	free(s->rbody);
	s->rbody = NULL;
	hdr_free(s->lat);
	hdr_free(s->rps);
	s->lat = s->rps = NULL;
}
