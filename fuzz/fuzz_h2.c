/*
 * libFuzzer target for the HTTP/2 client glue (src/net/h2.c) through a
 * real connection (src/core/conn*.c), as httperf drives it: the input
 * becomes the server's frames.
 *
 * Once per process: an event loop and a loopback listener (in a network
 * namespace of its own when the process may make one).  Per input: a
 * bus and a core with --http2, one connection with 1 to 8 calls queued
 * (some with a body), --max-streams from the input.  The target accepts,
 * drains what the client writes, then writes an empty SETTINGS frame
 * (the server preface, so that inputs get past it) and the rest of the
 * input, in pieces, running the loop after each piece until the client
 * has read it, then shuts the socket down and runs the loop until the
 * connection is destroyed.
 *
 * Checked: no crash, leak or hang (a loop turn that waits more than a
 * few seconds aborts); the connection ends and is destroyed once; every
 * call is destroyed; each call is replied to or fails at most once, and
 * replies never outnumber the calls; no more bytes read than written.
 *
 * The first two bytes choose the plan:
 *   byte 0, bits 0-2: calls - 1
 *           bit 3: the calls carry a body
 *           bits 4-5: --max-streams 0 (the server's), 1, 2, 0
 *   byte 1: the piece size (0: the whole rest at once)
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/socket.h>

#include <net/if.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/clock.h"
#include "core/conn.h"
#include "core/loop.h"
#include "core/timer.h"
#include "net/http_req.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FZ_MAX_CALLS	8
#define FZ_MAX_STEPS	100000
#define FZ_GUARD_NS	(5 * CLOCK_NS_PER_SEC)

static struct loop *fz_loop;
static int fz_lfd = -1;
static struct sockaddr_storage fz_addr;
static socklen_t fz_addrlen;
static struct http_req_tmpl fz_tmpl;
static struct timer fz_guard;

struct fz_run {
	struct call	*calls[FZ_MAX_CALLS];
	unsigned	 ends[FZ_MAX_CALLS];	/* replies + failures */
	unsigned	 ncalls;
	unsigned	 replied;
	unsigned	 destroyed_calls;
	unsigned	 destroyed_conns;
	unsigned	 closed;
	uint64_t	 bytes_in;
	uint64_t	 bytes_out;
};

static void
fz_guard_fired(struct timer *t, uint64_t now)
{
	(void)t;
	(void)now;
	abort();
}

static void
fz_turn(struct loop *l, void *arg, uint64_t now)
{
	(void)arg;
	(void)now;
	loop_stop(l);
}

static void
fz_step(unsigned *steps)
{
	if (++*steps > FZ_MAX_STEPS)
		abort();
	timer_add(loop_timers(fz_loop), &fz_guard, clock_now() + FZ_GUARD_NS);
	if (loop_run(fz_loop) == -1)
		abort();
	timer_cancel(&fz_guard);
}

static void
fz_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct fz_run *r = ctx;
	unsigned i;

	(void)now;
	switch (ev) {
	case BUS_CALL_RECV_STOP:
	case BUS_CALL_FAILED:
		for (i = 0; i < r->ncalls; i++)
			if (r->calls[i] == obj && ++r->ends[i] > 1)
				abort();	/* ended twice */
		r->replied += ev == BUS_CALL_RECV_STOP;
		break;
	case BUS_CALL_DESTROYED:
		r->destroyed_calls++;
		break;
	case BUS_CONN_CLOSED:
		r->closed++;
		break;
	case BUS_CONN_DESTROYED:
		r->destroyed_conns++;
		break;
	case BUS_CONN_BYTES_IN:
		r->bytes_in += (uint64_t)arg.i;
		break;
	case BUS_CONN_BYTES_OUT:
		r->bytes_out += (uint64_t)arg.i;
		break;
	default:
		break;
	}
}

/* Reads whatever the client wrote; returns how many bytes. */
static uint64_t
fz_drain(int fd)
{
	char buf[65536];
	uint64_t got = 0;
	ssize_t n;

	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		got += (uint64_t)n;
	return got;
}

static void
fz_run_one(const uint8_t *stream, size_t n, unsigned ncalls, int body,
    unsigned max_streams, size_t piece)
{
	static const enum bus_event evs[] = {
		BUS_CALL_RECV_STOP, BUS_CALL_FAILED, BUS_CALL_DESTROYED,
		BUS_CONN_CLOSED, BUS_CONN_DESTROYED, BUS_CONN_BYTES_IN,
		BUS_CONN_BYTES_OUT,
	};
	static const uint8_t settings[9] = { 0, 0, 0, 4, 0, 0, 0, 0, 0 };
	struct linger lg = { 1, 0 };
	struct core_config cfg;
	struct core core;
	struct fz_run r;
	struct bus *bus;
	struct conn *c;
	struct call *call;
	struct pollfd pfd;
	uint64_t now;
	size_t pos = 0, k;
	ssize_t w;
	unsigned i, steps = 0;
	int sfd;

	memset(&r, 0, sizeof(r));
	bus = bus_new();
	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		bus_subscribe(bus, evs[i], fz_event, &r);
	memset(&cfg, 0, sizeof(cfg));
	memcpy(&cfg.addr, &fz_addr, sizeof(fz_addr));
	cfg.addrlen = fz_addrlen;
	cfg.max_line = 4096;
	cfg.max_head = 16384;
	cfg.prog = "fuzz_h2";
	cfg.req = &fz_tmpl;
	cfg.http2 = 1;
	cfg.max_streams = max_streams;
	core_init(&core, fz_loop, bus, &cfg);

	now = clock_now();
	c = conn_new(&core, now);
	conn_connect(c, now);
	if (r.closed != 0)
		abort();
	r.ncalls = ncalls;
	for (i = 0; i < ncalls; i++) {
		call = call_new(&core, now);
		r.calls[i] = call;
		if (body) {
			call->method = "POST";
			call->method_len = 4;
			call->body = "0123456789";
			call->body_len = 10;
		}
		if (conn_send(c, call, now) == -1)
			abort();
		call_unref(call, now);
	}

	pfd.fd = fz_lfd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) != 1)
		abort();
	if ((sfd = accept(fz_lfd, NULL, NULL)) == -1)
		abort();
	while (r.destroyed_conns == 0 && r.bytes_out == 0)
		fz_step(&steps);
	(void)fz_drain(sfd);
	if (send(sfd, settings, sizeof(settings), MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(settings))
		abort();
	while (r.destroyed_conns == 0 && r.bytes_in < sizeof(settings))
		fz_step(&steps);

	while (pos < n && r.destroyed_conns == 0) {
		k = piece == 0 || piece > n - pos ? n - pos : piece;
		w = send(sfd, stream + pos, k, MSG_NOSIGNAL);
		if (w <= 0)
			break;		/* the client has gone */
		pos += (size_t)w;
		while (r.destroyed_conns == 0 &&
		    r.bytes_in < pos + sizeof(settings)) {
			fz_step(&steps);
			(void)fz_drain(sfd);
		}
		if (r.bytes_in > pos + sizeof(settings))
			abort();
	}
	(void)shutdown(sfd, SHUT_RDWR);
	while (r.destroyed_conns == 0) {
		fz_step(&steps);
		(void)fz_drain(sfd);
	}

	if (r.destroyed_conns != 1 || r.closed != 1)
		abort();
	if (r.destroyed_calls != ncalls || r.replied > ncalls)
		abort();
	if (core.live != NULL || core.conns.nlive != 0)
		abort();
	(void)setsockopt(sfd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	(void)close(sfd);
	core_close_all(&core, loop_clock(fz_loop));
	core_fini(&core);
	bus_free(bus);
}

/* A network namespace of its own, with loopback up, when allowed. */
static void
fz_own_netns(void)
{
	struct ifreq ifr;
	int fd;

	if (unshare(CLONE_NEWNET) == -1)
		return;
	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		abort();
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, "lo", sizeof(ifr.ifr_name) - 1);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == -1)
		abort();
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) == -1)
		abort();
	(void)close(fd);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct sockaddr_in sin;
	struct http_req_spec spec;
	char err[256];
	int one = 1;

	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	fz_own_netns();
	if ((fz_loop = loop_new(LOOP_BACKEND_AUTO, err, sizeof(err))) ==
	    NULL) {
		fprintf(stderr, "fuzz_h2: %s\n", err);
		abort();
	}
	loop_on_turn(fz_loop, fz_turn, NULL);
	timer_init(&fz_guard, fz_guard_fired);
	if ((fz_lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		abort();
	(void)setsockopt(fz_lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fz_lfd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(fz_lfd, 16) == -1)
		abort();
	fz_addrlen = sizeof(fz_addr);
	if (getsockname(fz_lfd, (struct sockaddr *)&fz_addr, &fz_addrlen) ==
	    -1)
		abort();
	memset(&spec, 0, sizeof(spec));
	spec.uri = "/";
	spec.minor = 1;
	spec.host = "127.0.0.1";
	spec.user_agent = "fuzz_h2";
	spec.extra = "X-A: b\r\n";
	spec.extra_len = 8;
	http_req_tmpl_init(&fz_tmpl, &spec);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned streams[] = { 0, 1, 2, 0 };

	if (size < 2)
		return 0;
	fz_run_one(data + 2, size - 2, (data[0] & 7) + 1, (data[0] >> 3) & 1,
	    streams[(data[0] >> 4) & 3], data[1]);
	return 0;
}
