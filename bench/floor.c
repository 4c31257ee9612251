/*
 * bench/floor.c -- the least CPU a client can spend per request on this
 * machine, as a yardstick for bench/run.sh.
 *
 * It keeps CONNS keep-alive connections to HOST:PORT busy with the same
 * GET until TOTAL replies have come back, and does nothing else: no
 * parsing (a reply is as many bytes as the first one, fetched before the
 * clock starts), no timing, no statistics, no error recovery.  Whatever it
 * costs per request is the kernel's TCP work plus the bare minimum of
 * system calls, so no real load generator can go below it; run.sh prints
 * it beside wrk, h2load and httperf so that their ratios can be read
 * against what is possible at all.
 *
 *   floor epoll HOST PORT URI CONNS TOTAL    read()/write() on readiness
 *   floor uring HOST PORT URI CONNS TOTAL    io_uring: a multishot recv
 *       with provided buffers per connection, sends as submissions, one
 *       io_uring_enter() a turn, DEFER_TASKRUN (built with -DFLOOR_URING
 *       and -luring)
 *
 * Prints "requests N" and exits 0, or a message and 1.  Not installed;
 * run.sh builds it with the system compiler.
 */
#define _GNU_SOURCE
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef FLOOR_URING
#include <liburing.h>
#endif

struct floor {
	char		 req[512];
	size_t		 reqlen;
	long		 replen;	/* bytes of one reply */
	long		 total, sent, done;
	long		*got;		/* per connection, of the current reply */
	int		*fds;
	int		 nconns;
};

static void
die(const char *what)
{
	fprintf(stderr, "floor: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int
dial(const char *host, int port)
{
	struct sockaddr_in sin;
	int fd, one = 1;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(port);
	if (inet_pton(AF_INET, host, &sin.sin_addr) != 1) {
		errno = EINVAL;
		die(host);
	}
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		die("socket");
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		die("connect");
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static void
send_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, p, n)) == -1)
			die("write");
		p += w;
		n -= (size_t)w;
	}
}

/* One request on a fresh connection: the length of a whole reply. */
static long
probe(struct floor *f, const char *host, int port)
{
	static char buf[1 << 20];
	const char *end, *cl;
	long have = 0, hlen, clen;
	ssize_t r;
	int fd;

	fd = dial(host, port);
	send_all(fd, f->req, f->reqlen);
	for (;;) {
		if (have == (long)sizeof(buf) - 1)
			break;
		if ((r = read(fd, buf + have, sizeof(buf) - 1 - have)) <= 0)
			break;
		have += r;
		buf[have] = '\0';
		if ((end = strstr(buf, "\r\n\r\n")) == NULL)
			continue;
		if ((cl = strcasestr(buf, "\r\ncontent-length:")) == NULL ||
		    cl > end)
			break;
		hlen = end + 4 - buf;
		clen = strtol(cl + 17, NULL, 10);
		if (have >= hlen + clen) {
			close(fd);
			return hlen + clen;
		}
	}
	fprintf(stderr, "floor: the first reply has no Content-Length or "
	    "is over 1 MiB\n");
	exit(1);
}

/* n bytes came in on connection i: count whole replies, send the next. */
static int
took(struct floor *f, int i, long n)
{
	int more = 0;

	f->got[i] += n;
	while (f->got[i] >= f->replen) {
		f->got[i] -= f->replen;
		f->done++;
		if (f->sent < f->total) {
			f->sent++;
			more = 1;
		}
	}
	return more;
}

static void
run_epoll(struct floor *f)
{
	struct epoll_event ev, evs[256];
	static char buf[1 << 16];
	int ep, i, k, n;
	ssize_t r;

	if ((ep = epoll_create1(0)) == -1)
		die("epoll_create1");
	for (i = 0; i < f->nconns; i++) {
		if (fcntl(f->fds[i], F_SETFL, O_NONBLOCK) == -1)
			die("fcntl");
		ev.events = EPOLLIN;
		ev.data.u32 = (unsigned)i;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, f->fds[i], &ev) == -1)
			die("epoll_ctl");
		if (f->sent < f->total) {
			f->sent++;
			send_all(f->fds[i], f->req, f->reqlen);
		}
	}
	while (f->done < f->total) {
		if ((n = epoll_wait(ep, evs, 256, -1)) == -1) {
			if (errno == EINTR)
				continue;
			die("epoll_wait");
		}
		for (k = 0; k < n; k++) {
			i = (int)evs[k].data.u32;
			r = read(f->fds[i], buf, sizeof(buf));
			if (r == -1 && errno == EAGAIN)
				continue;
			if (r <= 0)
				die("read (the server closed?)");
			if (took(f, i, r))
				send_all(f->fds[i], f->req, f->reqlen);
		}
	}
	close(ep);
}

#ifdef FLOOR_URING
#define FLOOR_NBUF	1024		/* provided buffers, a power of 2 */
#define FLOOR_BUFSZ	16384

static struct io_uring_sqe *
sqe_get(struct io_uring *ring)
{
	struct io_uring_sqe *sqe;

	if ((sqe = io_uring_get_sqe(ring)) == NULL) {
		(void)io_uring_submit(ring);
		if ((sqe = io_uring_get_sqe(ring)) == NULL) {
			errno = EBUSY;
			die("io_uring_get_sqe");
		}
	}
	return sqe;
}

static void
queue_recv(struct io_uring *ring, struct floor *f, int i)
{
	struct io_uring_sqe *sqe = sqe_get(ring);

	io_uring_prep_recv_multishot(sqe, f->fds[i], NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = 0;
	io_uring_sqe_set_data64(sqe, (uint64_t)i << 1);
}

static void
queue_send(struct io_uring *ring, struct floor *f, int i)
{
	struct io_uring_sqe *sqe = sqe_get(ring);

	io_uring_prep_send(sqe, f->fds[i], f->req, f->reqlen, 0);
	io_uring_sqe_set_data64(sqe, (uint64_t)i << 1 | 1);
}

static void
run_uring(struct floor *f)
{
	struct io_uring_params p;
	struct io_uring_buf_reg reg;
	struct io_uring_buf_ring *br;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	unsigned head, seen, added;
	char *mem;
	int e, i, bid;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	if ((e = io_uring_queue_init_params(4096, &ring, &p)) < 0) {
		errno = -e;
		die("io_uring_queue_init_params");
	}
	br = mmap(NULL, FLOOR_NBUF * sizeof(struct io_uring_buf),
	    PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	if (br == MAP_FAILED)
		die("mmap");
	io_uring_buf_ring_init(br);
	memset(&reg, 0, sizeof(reg));
	reg.ring_addr = (unsigned long)br;
	reg.ring_entries = FLOOR_NBUF;
	if ((e = io_uring_register_buf_ring(&ring, &reg, 0)) < 0) {
		errno = -e;
		die("io_uring_register_buf_ring");
	}
	if ((mem = malloc((size_t)FLOOR_NBUF * FLOOR_BUFSZ)) == NULL)
		die("malloc");
	for (i = 0; i < FLOOR_NBUF; i++)
		io_uring_buf_ring_add(br, mem + (size_t)i * FLOOR_BUFSZ,
		    FLOOR_BUFSZ, (unsigned short)i,
		    io_uring_buf_ring_mask(FLOOR_NBUF), i);
	io_uring_buf_ring_advance(br, FLOOR_NBUF);
	for (i = 0; i < f->nconns; i++) {
		queue_recv(&ring, f, i);
		if (f->sent < f->total) {
			f->sent++;
			queue_send(&ring, f, i);
		}
	}
	while (f->done < f->total) {
		if ((e = io_uring_submit_and_wait(&ring, 1)) < 0 &&
		    e != -EINTR) {
			errno = -e;
			die("io_uring_enter");
		}
		seen = added = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			seen++;
			i = (int)(io_uring_cqe_get_data64(cqe) >> 1);
			if (io_uring_cqe_get_data64(cqe) & 1) {
				/* A send: short sends do not happen with
				   a request this small on a fresh buffer. */
				if (cqe->res != (int)f->reqlen) {
					errno = cqe->res < 0 ? -cqe->res : EIO;
					die("send");
				}
				continue;
			}
			if (cqe->res == -ENOBUFS) {
				queue_recv(&ring, f, i);
				continue;
			}
			if (cqe->res <= 0) {
				errno = cqe->res < 0 ? -cqe->res : ECONNRESET;
				die("recv (the server closed?)");
			}
			bid = (int)(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
			io_uring_buf_ring_add(br,
			    mem + (size_t)bid * FLOOR_BUFSZ, FLOOR_BUFSZ,
			    (unsigned short)bid,
			    io_uring_buf_ring_mask(FLOOR_NBUF), (int)added++);
			if (!(cqe->flags & IORING_CQE_F_MORE))
				queue_recv(&ring, f, i);
			if (took(f, i, cqe->res))
				queue_send(&ring, f, i);
		}
		io_uring_cq_advance(&ring, seen);
		io_uring_buf_ring_advance(br, (int)added);
	}
	io_uring_queue_exit(&ring);
	free(mem);
}
#endif

int
main(int argc, char **argv)
{
	struct floor f;
	int i, port;

	if (argc != 7) {
		fprintf(stderr, "usage: floor epoll|uring HOST PORT URI CONNS "
		    "TOTAL\n");
		return 1;
	}
	memset(&f, 0, sizeof(f));
	port = atoi(argv[3]);
	f.nconns = atoi(argv[5]);
	f.total = atol(argv[6]);
	if (port <= 0 || f.nconns <= 0 || f.total <= 0) {
		fprintf(stderr, "floor: bad PORT, CONNS or TOTAL\n");
		return 1;
	}
	i = snprintf(f.req, sizeof(f.req), "GET %s HTTP/1.1\r\nHost: %s\r\n"
	    "User-Agent: floor\r\n\r\n", argv[4], argv[2]);
	if (i < 0 || (size_t)i >= sizeof(f.req)) {
		fprintf(stderr, "floor: URI too long\n");
		return 1;
	}
	f.reqlen = (size_t)i;
	f.replen = probe(&f, argv[2], port);
	f.got = calloc((size_t)f.nconns, sizeof(*f.got));
	f.fds = calloc((size_t)f.nconns, sizeof(*f.fds));
	if (f.got == NULL || f.fds == NULL)
		die("calloc");
	for (i = 0; i < f.nconns; i++)
		f.fds[i] = dial(argv[2], port);
	if (strcmp(argv[1], "epoll") == 0)
		run_epoll(&f);
#ifdef FLOOR_URING
	else if (strcmp(argv[1], "uring") == 0)
		run_uring(&f);
#endif
	else {
		fprintf(stderr, "floor: no mode %s here\n", argv[1]);
		return 1;
	}
	printf("requests %ld\n", f.done);
	return 0;
}
