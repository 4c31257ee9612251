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

#include <sys/socket.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/clock.h"
#include "core/conn.h"
#include "fuzz_net.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FZ_MAX_CALLS	8

static struct fz_net fz_net;

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
	struct core_config cfg;
	struct core core;
	struct fz_run r;
	struct bus *bus;
	struct conn *c;
	struct call *call;
	uint64_t now;
	size_t pos = 0, k;
	ssize_t w;
	unsigned i, steps = 0;
	int sfd;

	memset(&r, 0, sizeof(r));
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_line = 4096;
	cfg.max_head = 16384;
	cfg.http2 = 1;
	cfg.max_streams = max_streams;
	bus = fz_net_core(&fz_net, &core, &cfg, evs,
	    sizeof(evs) / sizeof(evs[0]), fz_event, &r);

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

	sfd = fz_net_accept(&fz_net);
	while (r.destroyed_conns == 0 && r.bytes_out == 0)
		fz_net_step(&fz_net, &steps);
	(void)fz_net_drain(sfd);
	if (send(sfd, settings, sizeof(settings), MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(settings))
		abort();
	while (r.destroyed_conns == 0 && r.bytes_in < sizeof(settings))
		fz_net_step(&fz_net, &steps);

	while (pos < n && r.destroyed_conns == 0) {
		k = piece == 0 || piece > n - pos ? n - pos : piece;
		w = send(sfd, stream + pos, k, MSG_NOSIGNAL);
		if (w <= 0)
			break;		/* the client has gone */
		pos += (size_t)w;
		while (r.destroyed_conns == 0 &&
		    r.bytes_in < pos + sizeof(settings)) {
			fz_net_step(&fz_net, &steps);
			(void)fz_net_drain(sfd);
		}
		if (r.bytes_in > pos + sizeof(settings))
			abort();
	}
	(void)shutdown(sfd, SHUT_RDWR);
	while (r.destroyed_conns == 0) {
		fz_net_step(&fz_net, &steps);
		(void)fz_net_drain(sfd);
	}

	if (r.destroyed_conns != 1 || r.closed != 1)
		abort();
	if (r.destroyed_calls != ncalls || r.replied > ncalls)
		abort();
	if (core.live != NULL || core.conns.nlive != 0)
		abort();
	fz_net_reset(sfd);
	fz_net_core_free(&fz_net, &core, bus);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_net_init(&fz_net, "fuzz_h2", "X-A: b\r\n");
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
