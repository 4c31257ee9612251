/*
 * --log (see calllog.h): a record per reply (BUS_CALL_RECV_STOP) and per
 * error the basic collector counts (BUS_CALL_FAILED, BUS_CONN_FAILED,
 * BUS_CONN_TIMEOUT), into a buffer written whole.
 *
 * A connection's failure is the record of the call it counts for: on
 * HTTP/1.1 the first on its queue, on HTTP/2 the last stream in flight
 * (the others had their BUS_CALL_FAILED, core/conn_h2.h); none when no
 * call was on it (refused before any call was queued).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/clock.h"
#include "core/conn.h"
#include "core/core.h"
#include "core/sess.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/calllog.h"
#include "stat/collector.h"

struct calllog {
	struct core	*core;
	struct calllog_config cfg;
	char		*path;		/* the file's name, as opened */
	int		 fd;		/* -1: none (a --merge state) */
	int		 gz;		/* one gzip member per buffer */
	z_stream	 zs;
	unsigned char	*zbuf;
	size_t		 zcap;
	char		*buf;
	size_t		 len;
	size_t		 cap;
	uint64_t	 nbuf;		/* records in buf */
	off_t		 off;		/* bytes of whole records written */
	int		 seekable;	/* off can be taken back to */
	uint64_t	 written;
	uint64_t	 dropped;
	int		 err;		/* the last write's errno, 0: none */
	int		 failed;	/* without --log-drop: no more writes */
	int		 stopped;	/* the run was told to end */
	int		 running;	/* between start and stop */
	uint64_t	 t0;		/* the run's start (monotonic) */
};

/* Writes n bytes; returns 0 or the errno value of the failure. */
static int
calllog_write_all(int fd, const void *p, size_t n)
{
	const char *s = p;
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, s, n)) == -1) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (w == 0)
			return EIO;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The buffer as one gzip member into zbuf; returns its size, 0: none. */
static size_t
calllog_deflate(struct calllog *l)
{
	if (deflateReset(&l->zs) != Z_OK)
		return 0;
	l->zs.next_in = (unsigned char *)l->buf;
	l->zs.avail_in = (uInt)l->len;
	l->zs.next_out = l->zbuf;
	l->zs.avail_out = (uInt)l->zcap;
	if (deflate(&l->zs, Z_FINISH) != Z_STREAM_END)
		return 0;
	return l->zcap - l->zs.avail_out;
}

/* After a failure without --log-drop: the run ends (once, while it runs). */
static void
calllog_halt(struct calllog *l, uint64_t now)
{
	if (!l->failed || l->stopped || !l->running || l->cfg.stop == NULL)
		return;
	l->stopped = 1;
	l->cfg.stop(l->cfg.stop_arg, now);
}

/*
 * Writes the buffer's records.  A failure takes back what went of them
 * (where the file allows it), counts them dropped, and, without
 * --log-drop, ends the writes and the run.
 */
static void
calllog_flush(struct calllog *l, uint64_t now)
{
	const void *p = l->buf;
	size_t n = l->len;
	int e;

	if (l->nbuf == 0)
		return;
	if (l->failed)
		e = l->err;
	else if (l->gz && (n = calllog_deflate(l)) == 0)
		e = ENOMEM;
	else {
		if (l->gz)
			p = l->zbuf;
		e = calllog_write_all(l->fd, p, n);
	}
	if (e == 0) {
		l->off += (off_t)n;
		l->written += l->nbuf;
	} else {
		if (!l->failed && l->seekable &&
		    ftruncate(l->fd, l->off) == 0)
			(void)lseek(l->fd, l->off, SEEK_SET);
		l->dropped += l->nbuf;
		l->err = e;
		if (!l->cfg.drop)
			l->failed = 1;
	}
	l->len = 0;
	l->nbuf = 0;
	calllog_halt(l, now);
}

/* Room for `need' more bytes: writes the buffer first if it is full. */
static char *
calllog_room(struct calllog *l, size_t need, uint64_t now)
{
	if (l->len + need > l->cap)
		calllog_flush(l, now);
	if (need > l->cap) {
		/* One record longer than the buffer (a huge URI). */
		l->cap = need;
		l->buf = xrealloc(l->buf, l->cap);
		if (l->gz) {
			l->zcap = deflateBound(&l->zs, (uLong)l->cap);
			l->zbuf = xrealloc(l->zbuf, l->zcap);
		}
	}
	return l->buf + l->len;
}

/* Adds a record. */
static void
calllog_add(struct calllog *l, const struct calllog_rec *r, uint64_t now)
{
	char *p;

	if (l->failed) {
		/* The end of the run's last loop turn. */
		l->dropped++;
		calllog_halt(l, now);
		return;
	}
	p = calllog_room(l, calllog_rec_max(r), now);
	l->len += calllog_fmt(p, r, l->t0);
	l->nbuf++;
	if (l->len >= l->cap)
		calllog_flush(l, now);
}

/* The connection's times, for the call that waited for it. */
static void
calllog_conn_times(const struct calllog *l, struct calllog_rec *r,
    const struct conn *c)
{
	r->conn = c->id;
	r->t[CALLLOG_T_START] = c->t_connect_start;
	r->t[CALLLOG_T_CONNECT] = c->t_tcp_connected;
	if (l->core->cfg.tls != NULL)
		r->t[CALLLOG_T_TLS] = c->t_connected;
}

/* The HTTP version of the call's reply, or of its request. */
static const char *
calllog_version(const struct calllog *l, const struct call *call,
    const struct conn *c)
{
	if (c != NULL && c->h2 != NULL)
		return "2";
	if (call != NULL && call->replied && c != NULL)
		return c->resp.minor == 0 ? "1.0" : "1.1";
	return l->cfg.http_minor == 0 ? "1.0" : "1.1";
}

/* The record of `call' (or NULL) on `c' (or NULL) ending at `now'. */
static void
calllog_record(struct calllog *l, const struct call *call,
    const struct conn *c, const char *err, uint64_t now)
{
	const struct http_req_tmpl *req = l->core->cfg.req;
	struct calllog_rec r;

	memset(&r, 0, sizeof(r));
	r.client = l->cfg.client;
	r.conn = r.sess = r.call = CALLLOG_NONE;
	r.err = err;
	r.version = calllog_version(l, call, c);
	r.t[CALLLOG_T_END] = now;
	if (c != NULL && (call == NULL || call->conn_first ||
	    call->t_send_start == 0))
		calllog_conn_times(l, &r, c);
	else if (c != NULL)
		r.conn = c->id;
	if (call != NULL) {
		r.call = call->id;
		if (call->sess != NULL)
			r.sess = call->sess->id;
		r.uri = call->uri != NULL ? call->uri : req->uri;
		r.uri_len = call->uri != NULL ? call->uri_len : req->uri_len;
		r.t[CALLLOG_T_INTENDED] = call->intended;
		if (r.t[CALLLOG_T_START] == 0)
			r.t[CALLLOG_T_START] = call->t_send_start;
		r.t[CALLLOG_T_SENT] = call->t_send_stop;
		r.t[CALLLOG_T_FIRST] = call->t_recv_start;
		if (call->replied) {
			r.status = call->status;
			r.t[CALLLOG_T_END] = call->t_recv_stop;
			r.bytes_recv = call->reply_bytes;
		}
		r.bytes_sent = call->t_send_stop != 0 && !call->cut ?
		    call->req_len : call->req_sent;
	}
	if (r.t[CALLLOG_T_START] == 0)
		r.t[CALLLOG_T_START] = r.t[CALLLOG_T_END];
	calllog_add(l, &r, now);
}

/* The call a failure of connection `c' counts for, or NULL. */
static const struct call *
calllog_conn_call(const struct conn *c)
{
	const struct call *call, *last = NULL;

	if (c->h2 == NULL)
		return c->head;
	for (call = c->head; call != NULL && call != c->unsent;
	    call = call->next)
		last = call;
	return last;
}

static void
calllog_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct calllog *l = ctx;
	const struct call *call;
	const struct conn *c;

	switch (ev) {
	case BUS_CALL_RECV_STOP:
		/* A reply that failed a check (check=, --check) is a
		   reply, with its class. */
		call = obj;
		calllog_record(l, call, call->conn, call->check_fail != 0 ?
		    "check" : NULL, now);
		break;
	case BUS_CALL_FAILED:
		/* A call never sent for want of a value has a class of its
		   own here, though the classic lines count it as other. */
		call = obj;
		calllog_record(l, call, call->conn, arg.i == CALL_ENOVALUE ?
		    "no-value" : basic_err_name[basic_err_class((int)arg.i)],
		    now);
		break;
	case BUS_CONN_FAILED:
		c = obj;
		calllog_record(l, calllog_conn_call(c), c,
		    basic_err_name[basic_err_class((int)arg.i)], now);
		break;
	case BUS_CONN_TIMEOUT:
		c = obj;
		calllog_record(l, calllog_conn_call(c), c,
		    basic_err_name[BASIC_ERR_CLIENT_TIMO], now);
		break;
	default:
		break;
	}
}

/*
 * The file's name: FILE, or a --jobs worker's FILE.I, its ".gz" kept
 * last (log.csv.gz: log.csv.1.gz).
 */
static char *
calllog_name(const struct calllog_config *cfg, int *gz)
{
	size_t len = strlen(cfg->path);
	char *s;

	*gz = len > 3 && strcmp(cfg->path + len - 3, ".gz") == 0;
	if (cfg->worker == 0)
		return xstrdup(cfg->path);
	s = xmalloc(len + 16);
	if (*gz)
		snprintf(s, len + 16, "%.*s.%u.gz", (int)(len - 3), cfg->path,
		    cfg->worker - 1);
	else
		snprintf(s, len + 16, "%s.%u", cfg->path, cfg->worker - 1);
	return s;
}

/* Opens the file and the compressor.  Returns 0, or -1 with err. */
static int
calllog_open(struct calllog *l, char *err, size_t errlen)
{
	struct stat st;

	if (strcmp(l->path, "-") == 0)
		l->fd = STDOUT_FILENO;
	else if ((l->fd = open(l->path, O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0666)) == -1) {
		snprintf(err, errlen, "--log: %s: %s", l->path,
		    strerror(errno));
		return -1;
	}
	l->seekable = fstat(l->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    lseek(l->fd, 0, SEEK_CUR) != (off_t)-1;
	if (l->seekable)
		l->off = lseek(l->fd, 0, SEEK_CUR);
	if (!l->gz)
		return 0;
	/* windowBits 15 + 16: a gzip header and trailer.  Level 1: about
	   4:1 on these records, at a fraction of level 6's CPU time (which
	   cost 19% CPU per request in bench/log.sh, level 1 under 5%). */
	if (deflateInit2(&l->zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16,
	    8, Z_DEFAULT_STRATEGY) != Z_OK) {
		snprintf(err, errlen, "--log: %s: zlib: cannot set up the "
		    "compression", l->path);
		l->gz = 0;
		return -1;
	}
	l->zcap = deflateBound(&l->zs, (uLong)l->cap);
	l->zbuf = xmalloc(l->zcap);
	return 0;
}

/* Frees what init made. */
static void
calllog_free(struct calllog *l)
{
	if (l->fd >= 0 && l->fd != STDOUT_FILENO)
		close(l->fd);
	if (l->gz)
		deflateEnd(&l->zs);
	free(l->zbuf);
	free(l->buf);
	free(l->path);
	free(l);
}

/* The collector interface (stat/collector.h). */

static int
calllog_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	static const enum bus_event evs[] = {
		BUS_CALL_RECV_STOP, BUS_CALL_FAILED, BUS_CONN_FAILED,
		BUS_CONN_TIMEOUT,
	};
	struct calllog *l = xcalloc(1, sizeof(*l));
	size_t i;

	l->fd = -1;
	*state = l;
	if (env->core == NULL)
		return 0;	/* --merge: nothing to write */
	l->core = env->core;
	l->cfg = *(const struct calllog_config *)env->cfg;
	l->path = calllog_name(&l->cfg, &l->gz);
	l->cap = CALLLOG_BUF;
	l->buf = xmalloc(l->cap);
	if (calllog_open(l, err, errlen) == -1) {
		calllog_free(l);
		*state = NULL;
		return -1;
	}
	for (i = 0; i < nitems(evs); i++)
		bus_subscribe(env->bus, evs[i], calllog_event, l);
	return 0;
}

/* The first two lines, before any record. */
static void
calllog_start(void *state, uint64_t now)
{
	struct calllog *l = state;
	char line[160];
	size_t n;

	l->t0 = now;
	n = calllog_first_line(line, sizeof(line), clock_wall_now());
	memcpy(l->buf, line, n);
	memcpy(l->buf + n, calllog_columns, strlen(calllog_columns));
	l->len = n + strlen(calllog_columns);
	/* Written as a record: whole or not at all.  A file without them
	   is no log: the run ends at its first record, --log-drop or not. */
	l->nbuf = 1;
	calllog_flush(l, now);
	if (l->written == 1)
		l->written = 0;
	else if (l->dropped == 1) {
		l->dropped = 0;
		l->failed = 1;
	}
	l->running = 1;
}

/* The rest of the records; fails if any could not be written. */
static int
calllog_stop(void *state, uint64_t now, char *err, size_t errlen)
{
	struct calllog *l = state;

	l->running = 0;		/* the run is over: nothing to end */
	calllog_flush(l, now);
	if (l->fd >= 0 && l->fd != STDOUT_FILENO) {
		if (close(l->fd) == -1 && l->err == 0) {
			l->err = errno;
			if (!l->cfg.drop)
				l->failed = 1;
		}
	}
	l->fd = -1;
	if (!l->failed)
		return 0;
	snprintf(err, errlen, "--log: %s: %s (%llu records written, %llu "
	    "not)", l->path, strerror(l->err),
	    (unsigned long long)l->written, (unsigned long long)l->dropped);
	return -1;
}

static void
calllog_extra(void *state, FILE *out, const struct collector_run *run)
{
	struct calllog *l = state;

	if (l->core == NULL)
		return;
	fprintf(out, "Log: %s: %llu records written, %llu dropped", l->path,
	    (unsigned long long)l->written, (unsigned long long)l->dropped);
	if (l->dropped > 0 && l->err != 0)
		fprintf(out, " (%s)", strerror(l->err));
	fputc('\n', out);
}

static void
calllog_fini(void *state)
{
	calllog_free(state);
}

const struct collector calllog_collector = {
	.name = "calllog",
	.init = calllog_init,
	.start = calllog_start,
	.stop = calllog_stop,
	.extra = calllog_extra,
	.fini = calllog_fini,
};
