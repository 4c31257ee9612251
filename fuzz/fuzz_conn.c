/*
 * libFuzzer target for the real receive path of a connection
 * (src/core/conn.c: conn_read, conn_consume, conn_keep, conn_parse,
 * conn_eof), driven only through the public API as httperf drives it.
 *
 * Once per process: an event loop and a loopback listener (in a network
 * namespace of the process's own when it may make one).  Per input: a
 * bus and a core whose server is that listener, one connection
 * (conn_new, conn_connect) with 1 to 8 calls queued on it (call_new,
 * conn_send, as src/gen/conn_gen.c does), some of them HEAD.  The target
 * accepts the connection, reads the requests, then writes the rest of
 * the input as the server's reply stream, in pieces, running the loop
 * after each piece until the connection has read it, so that every piece
 * arrives in a read of its own and lines are cut across reads wherever
 * the pieces say.  Then it half-closes, shuts down or resets the socket
 * and runs the loop until the connection is destroyed.
 *
 * Checked: no crash, leak or hang (a loop turn that waits more than a
 * few seconds aborts); the connection ends and is destroyed once; every
 * call is destroyed; replies come for calls in order, at most one each,
 * never more than the calls; no more bytes read than written; and the
 * outcome (each reply's status and sizes, how the connection ended) does
 * not depend on how the stream was cut: a cut run is compared with a run
 * that writes the stream in one piece.  Contract violations abort().
 *
 * The first three bytes choose the plan:
 *   byte 0, bits 0-2: calls - 1
 *           bits 3-4: the end: half-close, shutdown, reset, half-close
 *           bits 5-6: max_line: 16 MiB (httperf's), 64, 1 KiB, 16 MiB
 *   byte 1: which calls are HEAD (bit i: call i)
 *   byte 2, bits 0-1: pieces: whole, one byte, fixed size, varying sizes
 *           bits 2-7: the piece size, or the seed of the varying sizes
 */
#include "config.h"

#include <sys/socket.h>

#include <poll.h>
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

/* The process-wide fixture: the loop and the listener. */
static struct fz_net fz_net;

/* What one run saw. */
struct fz_run {
	struct call	*calls[FZ_MAX_CALLS];
	unsigned	 ncalls;
	unsigned	 replied;	/* RECV_STOP events */
	unsigned	 destroyed_calls;
	unsigned	 destroyed_conns;
	unsigned	 closed;	/* CONN_CLOSED events */
	unsigned	 failed;	/* CONN_FAILED events */
	long		 fail_cause;
	int		 connected;
	uint64_t	 bytes_in;	/* CONN_BYTES_IN events */
	uint64_t	 bytes_out;	/* CONN_BYTES_OUT events */
	uint64_t	 digest;	/* replies, in order, and the end */
};

static uint64_t
fz_hash_u64(uint64_t h, uint64_t v)
{
	unsigned i;

	for (i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int
fz_call_index(const struct fz_run *r, const struct call *call)
{
	unsigned i;

	for (i = 0; i < r->ncalls; i++)
		if (r->calls[i] == call)
			return (int)i;
	return -1;
}

static void
fz_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct fz_run *r = ctx;
	struct call *call;
	int i;

	(void)now;
	switch (ev) {
	case BUS_CONN_CONNECTED:
		r->connected++;
		break;
	case BUS_CONN_FAILED:
		r->failed++;
		r->fail_cause = arg.i;
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
	case BUS_CALL_RECV_STOP:
		call = obj;
		/* Replies come in order, one per call, only for our calls. */
		if ((i = fz_call_index(r, call)) == -1 ||
		    (unsigned)i != r->replied || !call->replied)
			abort();
		if (call->status < 100 || call->status > 599)
			abort();
		if (call->reply_bytes < call->hdr_bytes + call->body_bytes +
		    call->footer_bytes)
			abort();
		if (call->head_method && call->body_bytes != 0)
			abort();
		r->replied++;
		r->digest = fz_hash_u64(r->digest, (uint64_t)call->status);
		r->digest = fz_hash_u64(r->digest, call->hdr_bytes);
		r->digest = fz_hash_u64(r->digest, call->body_bytes);
		r->digest = fz_hash_u64(r->digest, call->footer_bytes);
		r->digest = fz_hash_u64(r->digest, call->reply_bytes);
		break;
	case BUS_CALL_DESTROYED:
		call = obj;
		if ((i = fz_call_index(r, call)) == -1)
			abort();
		r->calls[i] = NULL;	/* the memory is recycled */
		r->destroyed_calls++;
		break;
	default:
		break;
	}
}

/* Returns the size of the next piece (at least 1); as fuzz_http_resp. */
static size_t
fz_piece(unsigned split, unsigned param, uint32_t *rng, size_t left)
{
	size_t k;

	switch (split) {
	case 0:
		k = left;
		break;
	case 1:
		k = 1;
		break;
	case 2:
		k = (size_t)param + 1;
		break;
	default:
		*rng ^= *rng << 13;
		*rng ^= *rng >> 17;
		*rng ^= *rng << 5;
		k = (*rng & 0x300) == 0 ? (*rng & 0x3ff) + 1 :
		    (*rng & 0x1f) + 1;
		break;
	}
	return k < left ? k : left;
}

/* One run of the stream through a real connection; fills `r'. */
static void
fz_run(const uint8_t *stream, size_t n, unsigned ncalls, unsigned head_mask,
    unsigned end, size_t max_line, unsigned split, unsigned param,
    struct fz_run *r)
{
	static const enum bus_event evs[] = {
		BUS_CONN_CONNECTED, BUS_CONN_FAILED, BUS_CONN_CLOSED,
		BUS_CONN_DESTROYED, BUS_CONN_BYTES_IN, BUS_CONN_BYTES_OUT,
		BUS_CALL_RECV_STOP, BUS_CALL_DESTROYED,
	};
	struct core_config cfg;
	struct core core;
	struct bus *bus;
	struct conn *c;
	struct call *call;
	struct pollfd pfd;
	uint64_t now, got, sent_out;
	uint32_t rng = 0x9e3779b9u ^ param;
	size_t pos = 0, k;
	ssize_t w;
	unsigned i, steps = 0;
	int sfd;

	memset(r, 0, sizeof(*r));
	r->digest = 0xcbf29ce484222325ULL;
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_line = max_line;
	bus = fz_net_core(&fz_net, &core, &cfg, evs,
	    sizeof(evs) / sizeof(evs[0]), fz_event, r);

	now = clock_now();
	c = conn_new(&core, now);
	conn_connect(c, now);
	if (r->closed != 0)
		abort();	/* a loopback connect does not fail */
	r->ncalls = ncalls;
	for (i = 0; i < ncalls; i++) {
		call = call_new(&core, now);
		r->calls[i] = call;
		if (head_mask & 1u << i) {
			call->method = "HEAD";
			call->method_len = 4;
		}
		if (conn_send(c, call, now) == -1)
			abort();
		call_unref(call, now);
	}

	/* Accept, and run until every request is written and read. */
	sfd = fz_net_accept(&fz_net);
	got = 0;
	while (r->destroyed_conns == 0 && (c->state != CONN_CONNECTED ||
	    c->unsent != NULL))
		fz_net_step(&fz_net, &steps);
	if (r->destroyed_conns != 0 || r->connected != 1)
		abort();
	sent_out = r->bytes_out;
	while (got < sent_out) {
		got += fz_net_drain(sfd);
		if (got < sent_out) {
			pfd.fd = sfd;
			pfd.events = POLLIN;
			if (poll(&pfd, 1, 5000) != 1)
				abort();
		}
	}

	/* The reply stream, piece by piece, each read on its own. */
	while (pos < n && r->destroyed_conns == 0) {
		k = fz_piece(split, param, &rng, n - pos);
		w = send(sfd, stream + pos, k, MSG_NOSIGNAL);
		if (w <= 0)
			break;		/* the client has gone */
		pos += (size_t)w;
		while (r->destroyed_conns == 0 && r->bytes_in < pos)
			fz_net_step(&fz_net, &steps);
		if (r->bytes_in > pos)
			abort();
	}

	/* The end of the stream, then run until the connection is gone. */
	switch (end) {
	case 1:
		(void)shutdown(sfd, SHUT_RDWR);
		break;
	case 2:
		/* A reset: nothing unread here, nothing in flight. */
		fz_net_reset(sfd);
		sfd = -1;
		break;
	default:
		(void)shutdown(sfd, SHUT_WR);
		break;
	}
	while (r->destroyed_conns == 0)
		fz_net_step(&fz_net, &steps);

	/* The connection ended once, and took every call with it. */
	if (r->destroyed_conns != 1 || r->closed != 1 || r->failed > 1)
		abort();
	if (r->destroyed_calls != ncalls || r->replied > ncalls)
		abort();
	if (core.live != NULL || core.conns.nlive != 0)
		abort();
	if (r->bytes_in > pos)
		abort();
	r->digest = fz_hash_u64(r->digest, r->failed ? (uint64_t)r->fail_cause :
	    0);
	r->digest = fz_hash_u64(r->digest, r->replied);

	if (sfd != -1)
		fz_net_reset(sfd);
	fz_net_core_free(&fz_net, &core, bus);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_net_init(&fz_net, "fuzz_conn", NULL);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t max_lines[] = {
		16u * 1024 * 1024, 64, 1024, 16u * 1024 * 1024
	};
	struct fz_run cut, whole;
	unsigned ncalls, head_mask, end, split, param;
	size_t max_line;

	if (size < 3)
		return 0;
	ncalls = (data[0] & 7) + 1;
	end = data[0] >> 3 & 3;
	if (end == 3)
		end = 0;
	max_line = max_lines[data[0] >> 5 & 3];
	head_mask = data[1];
	split = data[2] & 3;
	param = data[2] >> 2;
	fz_run(data + 3, size - 3, ncalls, head_mask, end, max_line, split,
	    param, &cut);
	if (split == 0)
		return 0;
	/* How the bytes arrive must not change the outcome. */
	fz_run(data + 3, size - 3, ncalls, head_mask, end, max_line, 0, 0,
	    &whole);
	if (cut.replied != whole.replied || cut.digest != whole.digest ||
	    cut.failed != whole.failed)
		abort();
	return 0;
}
