/*
 * The script module's insides (script.h), shared by script.c (the states,
 * start-up, done()), script_lib.c (the `wrk' table's C functions, the
 * thread, address and statistics objects) and script_run.c (the hooks on
 * the bus during the run).
 */
#ifndef HTTPERF_SCRIPT_SCRIPT_INT_H
#define HTTPERF_SCRIPT_SCRIPT_INT_H

#include <sys/socket.h>

#include <lua.h>

#include "script/script.h"

struct call;
struct hdr;

struct script {
	struct script_conf cf;
	char		*url;		/* cf.url, a copy */
	char		*file;		/* cf.file, a copy */
	lua_State	*main;		/* setup() and done() */
	lua_State	*th;		/* the load: init(), request(), ... */
	int		 has_request, has_response, has_done, has_delay;
	/* wrk.request()'s string (wrk.format() after init()): what every
	   call sends as it is without request(), or when request() fails. */
	char		*fixed;
	size_t		 fixed_len;
	/* Requests of a pipelined request() string not yet sent. */
	char		*pend;
	size_t		 pend_len, pend_off;
	struct sockaddr_storage addr;	/* thread.addr */
	socklen_t	 addr_len;
	int		 addr_set;	/* set by the script: the target */
	struct core	*core;
	struct bus	*bus;
	uint64_t	 errors;	/* the class `script' */
	char		 first_err[512]; /* the first one's message */
	/* response(): the reply being read. */
	struct call	*rcall;
	int		 hdrs_ref;	/* its headers table (registry) */
	char		*rbody;
	size_t		 rbody_len, rbody_cap;
	/* done(): latency (us; from the schedule when there is one) and
	   the request rate every 100 ms. */
	struct hdr	*lat;
	struct hdr	*rps;
	uint64_t	 t0, win, win_n;
	uint64_t	 replies, bytes;
	uint64_t	 e_connect, e_read, e_write, e_status, e_timeout;
};

/* script_lib.c: the C side of the `wrk' table and the objects. */
void	script_lib_open(struct script *s, lua_State *L);
void	script_push_thread(struct script *s, lua_State *L);
void	script_push_addr(lua_State *L, const struct sockaddr *sa,
	    socklen_t len);
void	script_push_stats(lua_State *L, struct hdr *h);

/*
 * Calls the global function `hook' with nargs arguments on the stack and
 * nres results.  Returns 0, or -1 with one line in err naming the script,
 * the line and the hook (the error popped).
 */
int	script_call(struct script *s, lua_State *L, const char *hook,
	    int nargs, int nres, char *err, size_t errlen);
/* The message of a value of the wrong type returned by `hook'. */
void	script_bad_return(struct script *s, lua_State *L, const char *hook,
	    const char *want, char *err, size_t errlen);

/* script_run.c: the bus handlers. */
void	script_run_subscribe(struct script *s);
void	script_run_free(struct script *s);

/*
 * Splits the first request off buf[0..len): its length (head and
 * Content-Length body), or len when it cannot tell.
 */
size_t	script_req_len(const char *buf, size_t len);

#endif
