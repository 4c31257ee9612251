/*
 * The C side of wrk's `wrk' table (script.h): wrk.lookup(), wrk.connect()
 * and wrk.time_us(); the thread object (thread.addr, thread:get(),
 * thread:set(), thread:stop()), the address objects of wrk.lookup(), and
 * the statistics objects done() receives.  wrk.format() is Lua, in
 * script.c.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/core.h"
#include "core/loop.h"
#include "lib/hdr.h"
#include "script/script_int.h"

#define SCRIPT_ADDR	"wrk.addr"
#define SCRIPT_THREAD	"wrk.thread"
#define SCRIPT_STATS	"wrk.stats"
#define SCRIPT_COPY_DEPTH 16	/* tables in tables thread:set() copies */

struct script_addr {
	struct sockaddr_storage ss;
	socklen_t	 len;
};

/* An address object, a copy of sa. */
void
script_push_addr(lua_State *L, const struct sockaddr *sa, socklen_t len)
{
	struct script_addr *a = lua_newuserdata(L, sizeof(*a));

	memset(a, 0, sizeof(*a));
	if (len > sizeof(a->ss))
		len = sizeof(a->ss);
	memcpy(&a->ss, sa, len);
	a->len = len;
	luaL_getmetatable(L, SCRIPT_ADDR);
	lua_setmetatable(L, -2);
}

/* tostring(addr): "ip:port", "[ip6]:port". */
static int
script_addr_tostring(lua_State *L)
{
	struct script_addr *a = luaL_checkudata(L, 1, SCRIPT_ADDR);
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getnameinfo((struct sockaddr *)&a->ss, a->len, host, sizeof(host),
	    serv, sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		lua_pushstring(L, "?");
		return 1;
	}
	if (a->ss.ss_family == AF_INET6)
		lua_pushfstring(L, "[%s]:%s", host, serv);
	else
		lua_pushfstring(L, "%s:%s", host, serv);
	return 1;
}

/* wrk.lookup(host, service): every address, or an error. */
static int
script_lookup(lua_State *L)
{
	const char *host = luaL_checkstring(L, 1);
	const char *serv = luaL_checkstring(L, 2);
	struct addrinfo hints, *res, *ai;
	int e, i = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((e = getaddrinfo(host, serv, &hints, &res)) != 0)
		return luaL_error(L, "wrk.lookup: %s:%s: %s", host, serv,
		    gai_strerror(e));
	lua_newtable(L);
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		script_push_addr(L, ai->ai_addr, ai->ai_addrlen);
		lua_rawseti(L, -2, ++i);
	}
	freeaddrinfo(res);
	return 1;
}

/* wrk.connect(addr): whether a connection to it can be opened. */
static int
script_connect(lua_State *L)
{
	struct script_addr *a = luaL_checkudata(L, 1, SCRIPT_ADDR);
	int fd, ok;

	if ((fd = socket(a->ss.ss_family, SOCK_STREAM, 0)) == -1) {
		lua_pushboolean(L, 0);
		return 1;
	}
	ok = connect(fd, (struct sockaddr *)&a->ss, a->len) == 0;
	close(fd);
	lua_pushboolean(L, ok);
	return 1;
}

/* wrk.time_us() (wrk2): the wall clock in microseconds. */
static int
script_time_us(lua_State *L)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	lua_pushnumber(L, (lua_Number)tv.tv_sec * 1e6 + tv.tv_usec);
	return 1;
}

/* Copies the value at `idx' of `from' onto `to''s stack. */
static int
script_copy(lua_State *from, int idx, lua_State *to, int depth)
{
	size_t len;
	const char *p;

	idx = idx < 0 ? lua_gettop(from) + idx + 1 : idx;
	if (from == to) {
		/* wrk.thread:get() or :set() in the load's own state. */
		lua_pushvalue(to, idx);
		return 0;
	}
	switch (lua_type(from, idx)) {
	case LUA_TNIL:
		lua_pushnil(to);
		return 0;
	case LUA_TBOOLEAN:
		lua_pushboolean(to, lua_toboolean(from, idx));
		return 0;
	case LUA_TNUMBER:
		lua_pushnumber(to, lua_tonumber(from, idx));
		return 0;
	case LUA_TSTRING:
		p = lua_tolstring(from, idx, &len);
		lua_pushlstring(to, p, len);
		return 0;
	case LUA_TTABLE:
		if (depth >= SCRIPT_COPY_DEPTH)
			return -1;
		lua_newtable(to);
		lua_pushnil(from);
		while (lua_next(from, idx) != 0) {
			if (script_copy(from, -2, to, depth + 1) == -1 ||
			    script_copy(from, -1, to, depth + 1) == -1) {
				lua_pop(from, 2);
				lua_pop(to, 1);
				return -1;
			}
			lua_rawset(to, -3);
			lua_pop(from, 1);
		}
		return 0;
	default:
		return -1;
	}
}

/* thread:get(name): a global of the thread's state. */
static int
script_thread_get(lua_State *L)
{
	struct script *s = *(struct script **)luaL_checkudata(L, 1,
	    SCRIPT_THREAD);
	const char *name = luaL_checkstring(L, 2);

	lua_getglobal(s->th, name);
	if (script_copy(s->th, -1, L, 0) == -1) {
		lua_pop(s->th, 1);
		return luaL_error(L, "thread:get(\"%s\"): only nil, booleans, "
		    "numbers, strings and tables of them", name);
	}
	lua_pop(s->th, 1);
	return 1;
}

/* thread:set(name, value): sets a global of the thread's state. */
static int
script_thread_set(lua_State *L)
{
	struct script *s = *(struct script **)luaL_checkudata(L, 1,
	    SCRIPT_THREAD);
	const char *name = luaL_checkstring(L, 2);

	lua_settop(L, 3);
	if (script_copy(L, 3, s->th, 0) == -1)
		return luaL_error(L, "thread:set(\"%s\"): only nil, booleans, "
		    "numbers, strings and tables of them", name);
	lua_setglobal(s->th, name);
	return 0;
}

/* thread:stop(): ends the run cleanly (nothing before it starts). */
static int
script_thread_stop(lua_State *L)
{
	struct script *s = *(struct script **)luaL_checkudata(L, 1,
	    SCRIPT_THREAD);

	if (s->core != NULL && s->cf.stop != NULL)
		s->cf.stop(s->cf.stop_arg, loop_clock(s->core->loop));
	return 0;
}

static int
script_thread_index(lua_State *L)
{
	struct script *s = *(struct script **)luaL_checkudata(L, 1,
	    SCRIPT_THREAD);
	const char *k = luaL_checkstring(L, 2);

	if (strcmp(k, "addr") == 0) {
		if (s->addr_len == 0)
			lua_pushnil(L);
		else
			script_push_addr(L, (struct sockaddr *)&s->addr,
			    s->addr_len);
	} else if (strcmp(k, "get") == 0)
		lua_pushcfunction(L, script_thread_get);
	else if (strcmp(k, "set") == 0)
		lua_pushcfunction(L, script_thread_set);
	else if (strcmp(k, "stop") == 0)
		lua_pushcfunction(L, script_thread_stop);
	else
		lua_pushnil(L);
	return 1;
}

/* thread.addr = addr (one of wrk.lookup()'s); nothing else is set. */
static int
script_thread_newindex(lua_State *L)
{
	struct script *s = *(struct script **)luaL_checkudata(L, 1,
	    SCRIPT_THREAD);
	const char *k = luaL_checkstring(L, 2);
	struct script_addr *a;

	if (strcmp(k, "addr") != 0)
		return luaL_error(L, "thread.%s: only thread.addr can be set",
		    k);
	a = luaL_checkudata(L, 3, SCRIPT_ADDR);
	memcpy(&s->addr, &a->ss, sizeof(s->addr));
	s->addr_len = a->len;
	s->addr_set = 1;
	return 0;
}

void
script_push_thread(struct script *s, lua_State *L)
{
	struct script **p = lua_newuserdata(L, sizeof(*p));

	*p = s;
	luaL_getmetatable(L, SCRIPT_THREAD);
	lua_setmetatable(L, -2);
}

/* The statistics objects: a histogram of done(). */
void
script_push_stats(lua_State *L, struct hdr *h)
{
	struct hdr **p = lua_newuserdata(L, sizeof(*p));

	*p = h;
	luaL_getmetatable(L, SCRIPT_STATS);
	lua_setmetatable(L, -2);
}

/* The i-th distinct value (1 up) and its count; 0 values past the end. */
static int
script_stats_nth(const struct hdr *h, lua_Number i, uint64_t *v,
    uint64_t *n)
{
	struct hdr_iter it;
	lua_Number k = 0;

	hdr_iter_init(&it, h);
	while (hdr_iter_next(&it))
		if (++k == i) {
			*v = it.hi;
			*n = it.count;
			return 1;
		}
	return 0;
}

/* The number of distinct values recorded. */
static lua_Number
script_stats_count(const struct hdr *h)
{
	struct hdr_iter it;
	lua_Number k = 0;

	hdr_iter_init(&it, h);
	while (hdr_iter_next(&it))
		k++;
	return k;
}

/* #stats: the number of distinct values recorded (wrk's). */
static int
script_stats_len(lua_State *L)
{
	struct hdr *h = *(struct hdr **)luaL_checkudata(L, 1, SCRIPT_STATS);

	lua_pushnumber(L, script_stats_count(h));
	return 1;
}

/* stats(i): the i-th distinct value and its count. */
static int
script_stats_call(lua_State *L)
{
	struct hdr *h = *(struct hdr **)luaL_checkudata(L, 1, SCRIPT_STATS);
	uint64_t v, n;

	if (!script_stats_nth(h, luaL_checknumber(L, 2), &v, &n))
		return 0;
	lua_pushnumber(L, (lua_Number)v);
	lua_pushnumber(L, (lua_Number)n);
	return 2;
}

/* stats:percentile(p) */
static int
script_stats_percentile(lua_State *L)
{
	struct hdr *h = *(struct hdr **)luaL_checkudata(L, 1, SCRIPT_STATS);

	lua_pushnumber(L, (lua_Number)hdr_value_at_percentile(h,
	    luaL_checknumber(L, 2)));
	return 1;
}

/*
 * .min .max .mean .stdev, :percentile, and wrk2's [i]: the value at
 * percentile 100 i / #stats, so that i from 1 to #stats walks the whole
 * distribution up to the maximum (nil outside).
 */
static int
script_stats_index(lua_State *L)
{
	struct hdr *h = *(struct hdr **)luaL_checkudata(L, 1, SCRIPT_STATS);
	lua_Number i, n;
	const char *k;

	if (lua_type(L, 2) == LUA_TNUMBER) {
		i = lua_tonumber(L, 2);
		n = script_stats_count(h);
		if (!(i >= 1 && i <= n))
			return 0;
		lua_pushnumber(L, (lua_Number)hdr_value_at_percentile(h,
		    100 * i / n));
		return 1;
	}
	k = luaL_checkstring(L, 2);
	if (strcmp(k, "min") == 0)
		lua_pushnumber(L, (lua_Number)hdr_min(h));
	else if (strcmp(k, "max") == 0)
		lua_pushnumber(L, (lua_Number)hdr_max(h));
	else if (strcmp(k, "mean") == 0)
		lua_pushnumber(L, hdr_mean(h));
	else if (strcmp(k, "stdev") == 0)
		lua_pushnumber(L, hdr_stddev(h));
	else if (strcmp(k, "percentile") == 0)
		lua_pushcfunction(L, script_stats_percentile);
	else
		lua_pushnil(L);
	return 1;
}

/* One metatable: its name and its metamethods. */
static void
script_meta(lua_State *L, const char *name, const luaL_Reg *m)
{
	luaL_newmetatable(L, name);
	luaL_register(L, NULL, m);
	lua_pop(L, 1);
}

/* The metatables, and wrk.lookup, wrk.connect, wrk.time_us in `wrk'. */
void
script_lib_open(struct script *s, lua_State *L)
{
	static const luaL_Reg addr[] = {
		{ "__tostring", script_addr_tostring }, { NULL, NULL } };
	static const luaL_Reg thread[] = {
		{ "__index", script_thread_index },
		{ "__newindex", script_thread_newindex }, { NULL, NULL } };
	static const luaL_Reg stats[] = {
		{ "__index", script_stats_index },
		{ "__len", script_stats_len },
		{ "__call", script_stats_call }, { NULL, NULL } };

	(void)s;
	script_meta(L, SCRIPT_ADDR, addr);
	script_meta(L, SCRIPT_THREAD, thread);
	script_meta(L, SCRIPT_STATS, stats);
	lua_getglobal(L, "wrk");
	lua_pushcfunction(L, script_lookup);
	lua_setfield(L, -2, "lookup");
	lua_pushcfunction(L, script_connect);
	lua_setfield(L, -2, "connect");
	lua_pushcfunction(L, script_time_us);
	lua_setfield(L, -2, "time_us");
	lua_pop(L, 1);
}
