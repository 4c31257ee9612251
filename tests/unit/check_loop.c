/*
 * Unit tests for the event loop (src/core/loop*.c).  Every test runs once
 * per backend: readiness of pipes and socket pairs, mask changes, callbacks
 * that delete or re-register other fds, thousands of fds, timers, stopping,
 * signals during the sleep, and the absence of busy polling.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/socket.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/loop.h"
#include "core/timer.h"
#include "lib/util.h"
#include "unit.h"

/* Each test runs once per backend compiled in. */
static const enum loop_backend_kind backends[] = {
#ifdef HAVE_EPOLL_CREATE1
	LOOP_BACKEND_EPOLL,
#endif
	LOOP_BACKEND_POLL,
};

static const char *const backend_names[] = {
#ifdef HAVE_EPOLL_CREATE1
	"epoll",
#endif
	"poll",
};

/* The epoll instances each backend opens. */
static const int backend_epolls[] = {
#ifdef HAVE_EPOLL_CREATE1
	1,
#endif
	0,
};

_Static_assert(nitems(backends) == nitems(backend_names) &&
    nitems(backends) == nitems(backend_epolls), "backend tables differ");

#define NBACKENDS	((int)nitems(backends))

/* The one mutable global a signal handler is allowed. */
static volatile sig_atomic_t got_signal;

/*
 * Returns the number of epoll instances the process has open: which
 * backend a loop really uses shows in the descriptors it opened.
 */
static int
epoll_fds(void)
{
	char path[300], link[64];
	struct dirent *e;
	ssize_t n;
	DIR *d;
	int count = 0;

	d = opendir("/proc/self/fd");
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (strcmp(link, "anon_inode:[eventpoll]") == 0)
			count++;
	}
	closedir(d);
	return count;
}

static struct loop *
loop_open(int i)
{
	char err[256] = "";
	struct loop *l;
	int before = epoll_fds();

	l = loop_new(backends[i], err, sizeof(err));
	ck_assert_msg(l != NULL, "loop_new(%s): %s", backend_names[i], err);
	ck_assert_int_eq(epoll_fds() - before, backend_epolls[i]);
	return l;
}

static void
xpipe(int p[2])
{
	ck_assert_int_eq(pipe(p), 0);
}

static void
xsocketpair(int s[2])
{
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0);
}

static void
xwrite(int fd)
{
	ck_assert_int_eq(write(fd, "x", 1), 1);
}

static void
xclose(int fd)
{
	ck_assert_int_eq(close(fd), 0);
}

/* State of one registered fd in a test. */
struct peer {
	int		 fd;
	int		 calls;
	int		 events;	/* of the first call */
	int		 all;		/* or of every call */
	uint64_t	 turn;		/* of the first call */
	int		 stop_at;	/* loop_stop() at this many calls */
	struct peer	*other;
	loop_fd_cb	*other_cb;	/* re-register `other' with this */
	int		 reopen;	/* close `other' and reuse its number */
	int		 phase;
	int		 wfd;		/* write end for tests that need one */
};

static void
peer_note(struct loop *l, struct peer *p, int events)
{
	if (p->calls++ == 0) {
		p->events = events;
		p->turn = loop_turns(l);
	}
	p->all |= events;
}

/* Reads one byte if there is one, then forgets the fd. */
static void
cb_once(struct loop *l, int fd, int events, void *arg, uint64_t now)
{
	struct peer *p = arg;
	char c;

	peer_note(l, p, events);
	if (events & LOOP_READ)
		ck_assert_int_ge(read(fd, &c, 1), 0);
	loop_del(l, fd);
}

/* Counts calls and stops the loop at `stop_at'. */
static void
cb_count(struct loop *l, int fd, int events, void *arg, uint64_t now)
{
	struct peer *p = arg;

	peer_note(l, p, events);
	if (p->calls == p->stop_at)
		loop_stop(l);
}

START_TEST(test_new)
{
	char err[128];
	struct loop *l;
	int n;

	l = loop_open(_i);
	ck_assert_ptr_nonnull(loop_timers(l));
	ck_assert_uint_eq(loop_turns(l), 0);
	ck_assert_uint_le(loop_clock(l), clock_now());
	/* Nothing to wait for: returns at once. */
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_uint_eq(loop_turns(l), 0);
	loop_free(l);
	loop_free(NULL);

	/* The best backend: epoll when compiled in. */
	n = epoll_fds();
	l = loop_new(LOOP_BACKEND_AUTO, err, sizeof(err));
	ck_assert_ptr_nonnull(l);
#ifdef HAVE_EPOLL_CREATE1
	ck_assert_int_eq(epoll_fds() - n, 1);
#else
	ck_assert_int_eq(epoll_fds() - n, 0);
	err[0] = '\0';
	ck_assert_ptr_null(loop_new(LOOP_BACKEND_EPOLL, err, sizeof(err)));
	ck_assert_str_ne(err, "");
#endif
	loop_free(l);
}
END_TEST

START_TEST(test_bad_args)
{
	struct loop *l = loop_open(_i);
	struct peer p = { 0 };
	int s[2];

	xsocketpair(s);
	errno = 0;
	ck_assert_int_eq(loop_set(l, -1, LOOP_READ, cb_once, &p), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_int_eq(loop_set(l, s[0], 0x40, cb_once, &p), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(loop_set(l, s[0], LOOP_READ, NULL, &p), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(loop_mask(l, s[0], LOOP_READ), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_int_eq(loop_mask(l, 1 << 20, LOOP_READ), -1);
	loop_del(l, s[0]);
	loop_del(l, -1);
	loop_del(l, 1 << 20);
	ck_assert_int_eq(loop_run(l), 0);
	xclose(s[0]);
	xclose(s[1]);
	loop_free(l);
}
END_TEST

/* Readable and writable ends of a pipe and a socket pair. */
static const struct {
	int	socket;		/* socketpair, else pipe */
	int	mask;
	int	data;		/* write a byte first */
	int	want;		/* events of the single call */
} ready_cases[] = {
	{ 0, LOOP_READ, 1, LOOP_READ },
	{ 0, LOOP_WRITE, 0, LOOP_WRITE },
	{ 1, LOOP_READ, 1, LOOP_READ },
	{ 1, LOOP_WRITE, 0, LOOP_WRITE },
	{ 1, LOOP_READ | LOOP_WRITE, 1, LOOP_READ | LOOP_WRITE },
	{ 1, LOOP_READ | LOOP_WRITE, 0, LOOP_WRITE },
};

START_TEST(test_ready)
{
	struct loop *l = loop_open(_i % NBACKENDS);
	int c = _i / NBACKENDS, fds[2], fd, peer;
	struct peer p = { 0 };

	if (ready_cases[c].socket)
		xsocketpair(fds);
	else
		xpipe(fds);
	/* A pipe is read at [0] and written at [1]. */
	fd = ready_cases[c].mask == LOOP_WRITE ? fds[1] : fds[0];
	peer = fd == fds[0] ? fds[1] : fds[0];
	if (ready_cases[c].data)
		xwrite(peer);
	ck_assert_int_eq(loop_set(l, fd, ready_cases[c].mask, cb_once, &p), 0);
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(p.calls, 1);
	ck_assert_int_eq(p.events, ready_cases[c].want);
	ck_assert_uint_eq(loop_turns(l), 1);
	xclose(fds[0]);
	xclose(fds[1]);
	loop_free(l);
}
END_TEST

/* Hang-up on a pipe whose writer has gone is reported as LOOP_ERROR. */
START_TEST(test_hangup)
{
	struct loop *l = loop_open(_i);
	struct peer p = { 0 };
	int fds[2];

	xpipe(fds);
	xclose(fds[1]);
	ck_assert_int_eq(loop_set(l, fds[0], LOOP_READ, cb_once, &p), 0);
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(p.calls, 1);
	ck_assert(p.events & LOOP_ERROR);
	xclose(fds[0]);
	loop_free(l);
}
END_TEST

/*
 * Write interest first; the callback swaps it for read interest and
 * makes the fd readable; then the read callback drops all interest,
 * which leaves nothing to wait for.
 */
static void
cb_mask(struct loop *l, int fd, int events, void *arg, uint64_t now)
{
	struct peer *p = arg;
	char c;

	peer_note(l, p, events);
	switch (p->phase++) {
	case 0:
		ck_assert_int_eq(events, LOOP_WRITE);
		ck_assert_int_eq(loop_mask(l, fd, LOOP_READ), 0);
		/* The same mask again is a no-op. */
		ck_assert_int_eq(loop_mask(l, fd, LOOP_READ), 0);
		xwrite(p->wfd);
		break;
	case 1:
		ck_assert_int_eq(events, LOOP_READ);
		ck_assert_int_eq(read(fd, &c, 1), 1);
		ck_assert_int_eq(loop_mask(l, fd, 0), 0);
		break;
	default:
		ck_abort_msg("called with no interest");
	}
}

START_TEST(test_mask_change)
{
	struct loop *l = loop_open(_i);
	struct peer p = { 0 };
	int s[2];

	xsocketpair(s);
	p.wfd = s[1];
	ck_assert_int_eq(loop_set(l, s[0], LOOP_WRITE, cb_mask, &p), 0);
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(p.calls, 2);
	ck_assert_uint_eq(loop_turns(l), 2);
	/* Still registered with no interest; interest can come back. */
	ck_assert_int_eq(loop_mask(l, s[0], LOOP_WRITE), 0);
	ck_assert_int_eq(loop_set(l, s[0], LOOP_WRITE, cb_count, &p), 0);
	p.stop_at = p.calls + 1;
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(p.calls, 3);
	loop_del(l, s[0]);
	xclose(s[0]);
	xclose(s[1]);
	loop_free(l);
}
END_TEST

/*
 * Setting the mask an fd already has must not reach the kernel: after the
 * fd is closed behind the loop's back, epoll_ctl() would fail with EBADF.
 */
START_TEST(test_same_mask_no_syscall)
{
	struct loop *l = loop_open(_i);
	struct peer p = { 0 };
	int fds[2];

	xpipe(fds);
	ck_assert_int_eq(loop_set(l, fds[0], LOOP_READ, cb_once, &p), 0);
	xclose(fds[0]);
	ck_assert_int_eq(loop_set(l, fds[0], LOOP_READ, cb_once, &p), 0);
	ck_assert_int_eq(loop_mask(l, fds[0], LOOP_READ), 0);
	loop_del(l, fds[0]);
	xclose(fds[1]);
	loop_free(l);
}
END_TEST

/* Deletes the other fd (and itself): the other's event must be dropped. */
static void
cb_del_other(struct loop *l, int fd, int events, void *arg, uint64_t now)
{
	struct peer *p = arg;

	peer_note(l, p, events);
	loop_del(l, p->other->fd);
	loop_del(l, fd);
}

START_TEST(test_del_other)
{
	struct loop *l = loop_open(_i);
	struct peer a = { 0 }, b = { 0 };
	int pa[2], pb[2];

	xpipe(pa);
	xpipe(pb);
	xwrite(pa[1]);
	xwrite(pb[1]);
	a.fd = pa[0];
	b.fd = pb[0];
	a.other = &b;
	b.other = &a;
	ck_assert_int_eq(loop_set(l, a.fd, LOOP_READ, cb_del_other, &a), 0);
	ck_assert_int_eq(loop_set(l, b.fd, LOOP_READ, cb_del_other, &b), 0);
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(a.calls + b.calls, 1);
	ck_assert_uint_eq(loop_turns(l), 1);
	xclose(pa[0]);
	xclose(pa[1]);
	xclose(pb[0]);
	xclose(pb[1]);
	loop_free(l);
}
END_TEST

/* The new owner of a re-registered fd: reads, then leaves. */
static void
cb_new_owner(struct loop *l, int fd, int events, void *arg, uint64_t now)
{
	cb_once(l, fd, events, arg, now);
}

/*
 * Deletes the other fd and registers it again for a new owner, either
 * as it is or after closing it and opening a readable pipe that takes the
 * freed number.  The event read for the old owner must not reach the new
 * one in this turn; the new one hears of its fd in the next turn.
 */
static void
cb_reregister(struct loop *l, int fd, int events, void *arg, uint64_t now)
{
	struct peer *p = arg, *o = p->other;
	int np[2];

	peer_note(l, p, events);
	loop_del(l, o->fd);
	if (p->reopen) {
		xclose(o->fd);
		xclose(o->wfd);
		xpipe(np);
		xwrite(np[1]);
		o->fd = np[0];
		o->wfd = np[1];
	}
	ck_assert_int_eq(loop_set(l, o->fd, LOOP_READ, cb_new_owner, o), 0);
	loop_del(l, fd);
}

START_TEST(test_reregister)
{
	struct loop *l = loop_open(_i % NBACKENDS);
	struct peer a = { 0 }, b = { 0 }, *first, *second;
	int pa[2], pb[2];

	xpipe(pa);
	xpipe(pb);
	xwrite(pa[1]);
	xwrite(pb[1]);
	a.fd = pa[0];
	a.wfd = pa[1];
	b.fd = pb[0];
	b.wfd = pb[1];
	a.other = &b;
	b.other = &a;
	a.reopen = b.reopen = _i / NBACKENDS;
	ck_assert_int_eq(loop_set(l, a.fd, LOOP_READ, cb_reregister, &a), 0);
	ck_assert_int_eq(loop_set(l, b.fd, LOOP_READ, cb_reregister, &b), 0);
	ck_assert_int_eq(loop_run(l), 0);
	/* Whichever ran first took the other over. */
	first = a.turn == 1 ? &a : &b;
	second = first->other;
	ck_assert_uint_eq(first->turn, 1);
	ck_assert_int_eq(first->calls, 1);
	ck_assert_int_eq(second->calls, 1);
	ck_assert_uint_eq(second->turn, 2);
	ck_assert_uint_eq(loop_turns(l), 2);
	xclose(a.fd);
	xclose(a.wfd);
	xclose(b.fd);
	xclose(b.wfd);
	loop_free(l);
}
END_TEST

/* Three thousand fds at once, numbers well past FD_SETSIZE. */
#define MANY_PIPES	1500

static void
cb_many_write(struct loop *l, int fd, int events, void *arg, uint64_t now)
{
	struct peer *p = arg;

	peer_note(l, p, events);
	ck_assert_int_eq(events, LOOP_WRITE);
	xwrite(fd);
	loop_del(l, fd);
}

START_TEST(test_many_fds)
{
	struct loop *l = loop_open(_i);
	struct rlimit rl;
	struct peer *rd, *wr;
	int i, p[2], maxfd = -1;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_cur < 2 * MANY_PIPES + 64) {
		rl.rlim_cur = rl.rlim_max;
		ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	}
	ck_assert_msg(rl.rlim_cur >= 2 * MANY_PIPES + 64,
	    "RLIMIT_NOFILE hard limit too low: %llu",
	    (unsigned long long)rl.rlim_max);
	rd = xcalloc(MANY_PIPES, sizeof(*rd));
	wr = xcalloc(MANY_PIPES, sizeof(*wr));
	for (i = 0; i < MANY_PIPES; i++) {
		xpipe(p);
		rd[i].fd = p[0];
		wr[i].fd = p[1];
		if (p[1] > maxfd)
			maxfd = p[1];
		ck_assert_int_eq(loop_set(l, p[0], LOOP_READ, cb_once, &rd[i]),
		    0);
		ck_assert_int_eq(loop_set(l, p[1], LOOP_WRITE, cb_many_write,
		    &wr[i]), 0);
	}
	ck_assert_int_gt(maxfd, 2 * MANY_PIPES);
	ck_assert_int_eq(loop_run(l), 0);
	for (i = 0; i < MANY_PIPES; i++) {
		ck_assert_int_eq(wr[i].calls, 1);
		ck_assert_int_eq(rd[i].calls, 1);
		ck_assert_int_eq(rd[i].events, LOOP_READ);
		ck_assert_uint_gt(rd[i].turn, wr[i].turn);
		xclose(rd[i].fd);
		xclose(wr[i].fd);
	}
	/* All writers in one turn, all readers in the next. */
	ck_assert_uint_eq(loop_turns(l), 2);
	free(rd);
	free(wr);
	loop_free(l);
}
END_TEST

/* A timer owned by a test, with what it saw when it fired. */
struct ltimer {
	struct timer	 t;
	struct loop	*l;
	uint64_t	 deadline;
	uint64_t	 fired_now;
	uint64_t	 turn;
	int		 fires;
	int		*seq;		/* shared firing counter */
	int		 order;
};

static void
ltimer_fire(struct timer *t, uint64_t now)
{
	struct ltimer *lt = containerof(t, struct ltimer, t);

	lt->fires++;
	lt->fired_now = now;
	lt->turn = loop_turns(lt->l);
	lt->order = ++*lt->seq;
}

static void
ltimer_arm(struct ltimer *lt, struct loop *l, int *seq, uint64_t deadline)
{
	*lt = (struct ltimer){ .l = l, .seq = seq, .deadline = deadline };
	timer_init(&lt->t, ltimer_fire);
	timer_add(loop_timers(l), &lt->t, deadline);
}

/* Timers fire through loop_run(), in order, and then the loop returns. */
START_TEST(test_timers)
{
	struct loop *l = loop_open(_i);
	struct ltimer v[4];
	uint64_t now = clock_now();
	int seq = 0;
	size_t i;

	/* Armed latest first, so order comes from the wheel. */
	for (i = nitems(v); i-- > 0;)
		ltimer_arm(&v[i], l, &seq, now + (i + 1) * CLOCK_NS_PER_MSEC);
	ck_assert_int_eq(loop_run(l), 0);
	for (i = 0; i < nitems(v); i++) {
		ck_assert_int_eq(v[i].fires, 1);
		ck_assert_int_eq(v[i].order, (int)i + 1);
		ck_assert_uint_ge(v[i].fired_now, v[i].deadline);
	}
	ck_assert_uint_eq(timer_wheel_count(loop_timers(l)), 0);
	loop_free(l);
}
END_TEST

/* loop_stop() from an fd callback ends the run; a new run goes on. */
START_TEST(test_stop)
{
	struct loop *l = loop_open(_i);
	struct peer p = { 0 };
	int s[2];

	xsocketpair(s);
	p.stop_at = 5;
	ck_assert_int_eq(loop_set(l, s[0], LOOP_WRITE, cb_count, &p), 0);
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(p.calls, 5);
	ck_assert_uint_eq(loop_turns(l), 5);
	p.stop_at = 8;
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(p.calls, 8);
	ck_assert_uint_eq(loop_turns(l), 8);
	loop_del(l, s[0]);
	xclose(s[0]);
	xclose(s[1]);
	loop_free(l);
}
END_TEST

static void
on_signal(int sig)
{
	got_signal = 1;
}

static void
turn_stop_on_signal(struct loop *l, void *arg, uint64_t now)
{
	if (got_signal)
		loop_stop(l);
}

/*
 * A signal caught during the sleep ends the turn, so the on-turn hook
 * sees the handler's flag.  The loop would otherwise sleep for ever (an
 * fd that never becomes ready) or for a minute (a far timer).  The POSIX
 * timer repeats, so a signal that lands before the sleep starts is
 * followed by one that lands during it; the outcome is deterministic.
 */
START_TEST(test_eintr)
{
	struct loop *l = loop_open(_i % NBACKENDS);
	int far_timer = _i / NBACKENDS;
	struct sigaction sa, old;
	struct sigevent sev;
	struct itimerspec its;
	struct ltimer far;
	timer_t tid;
	int fds[2], seq = 0;

	got_signal = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART */
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, &old), 0);

	xpipe(fds);
	ck_assert_int_eq(loop_set(l, fds[0], LOOP_READ, cb_once,
	    &(struct peer){ 0 }), 0);
	if (far_timer)
		ltimer_arm(&far, l, &seq, clock_now() + 60 * CLOCK_NS_PER_SEC);
	loop_on_turn(l, turn_stop_on_signal, NULL);

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	ck_assert_int_eq(timer_create(CLOCK_MONOTONIC, &sev, &tid), 0);
	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = 20 * 1000 * 1000;
	its.it_interval.tv_nsec = 20 * 1000 * 1000;
	ck_assert_int_eq(timer_settime(tid, 0, &its, NULL), 0);

	ck_assert_int_eq(loop_run(l), 0);

	ck_assert_int_eq(timer_delete(tid), 0);
	ck_assert_int_eq(sigaction(SIGUSR1, &old, NULL), 0);
	ck_assert_int_eq(got_signal, 1);
	ck_assert_uint_ge(loop_turns(l), 1);
	ck_assert_uint_le(loop_turns(l), 3);
	if (far_timer) {
		ck_assert_int_eq(far.fires, 0);
		timer_cancel(&far.t);
	}
	loop_del(l, fds[0]);
	xclose(fds[0]);
	xclose(fds[1]);
	loop_free(l);
}
END_TEST

static void
turn_count(struct loop *l, void *arg, uint64_t now)
{
	(*(uint64_t *)arg)++;
}

/*
 * With one timer 50 ms ahead and nothing else, the loop must sleep until
 * it: only a few turns, and the timer not early.  No wall-clock bounds.
 */
START_TEST(test_no_busy_poll)
{
	struct loop *l = loop_open(_i);
	struct ltimer lt;
	uint64_t hooks = 0;
	int seq = 0;

	loop_on_turn(l, turn_count, &hooks);
	ltimer_arm(&lt, l, &seq, clock_now() + 50 * CLOCK_NS_PER_MSEC);
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(lt.fires, 1);
	ck_assert_uint_ge(lt.fired_now, lt.deadline);
	ck_assert_uint_ge(lt.turn, 1);
	ck_assert_uint_le(lt.turn, 3);
	ck_assert_uint_eq(loop_turns(l), lt.turn);
	ck_assert_uint_eq(hooks, loop_turns(l));
	loop_free(l);
}
END_TEST

static Suite *
loop_suite(void)
{
	Suite *s = suite_create("loop");
	TCase *tc = tcase_create("backends");
	int n = NBACKENDS;

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_new, 0, n);
	tcase_add_loop_test(tc, test_bad_args, 0, n);
	tcase_add_loop_test(tc, test_ready, 0, n * (int)nitems(ready_cases));
	tcase_add_loop_test(tc, test_hangup, 0, n);
	tcase_add_loop_test(tc, test_mask_change, 0, n);
	tcase_add_loop_test(tc, test_same_mask_no_syscall, 0, n);
	tcase_add_loop_test(tc, test_del_other, 0, n);
	tcase_add_loop_test(tc, test_reregister, 0, n * 2);
	tcase_add_loop_test(tc, test_many_fds, 0, n);
	tcase_add_loop_test(tc, test_timers, 0, n);
	tcase_add_loop_test(tc, test_stop, 0, n);
	tcase_add_loop_test(tc, test_eintr, 0, n * 2);
	tcase_add_loop_test(tc, test_no_busy_poll, 0, n);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(loop_suite());
}
