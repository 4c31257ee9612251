/*
 * The loopback fixture of the connection fuzz targets (see fuzz_net.h).
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/socket.h>

#include <net/if.h>
#include <netinet/in.h>

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/clock.h"
#include "core/core.h"
#include "core/loop.h"
#include "core/timer.h"
#include "fuzz_net.h"

#define FZ_MAX_STEPS	100000		/* loop turns per input */
#define FZ_GUARD_NS	(5 * CLOCK_NS_PER_SEC)	/* a turn that long: hung */

static void
fz_guard_fired(struct timer *t, uint64_t now)
{
	(void)t;
	(void)now;
	/* The loop waited this long: the connection did not read what was
	   written, or did not end after the close. */
	abort();
}

static void
fz_turn(struct loop *l, void *arg, uint64_t now)
{
	(void)arg;
	(void)now;
	loop_stop(l);
}

/*
 * Moves the process into a network namespace of its own, with only a
 * loopback interface, when it may (root): the thousands of connections
 * per second then leave their TIME_WAIT sockets there, not on the host.
 * Otherwise the target runs on the host's loopback.
 */
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

void
fz_net_init(struct fz_net *n, const char *prog, const char *extra)
{
	struct sockaddr_in sin;
	struct http_req_spec spec;
	char err[256];
	int one = 1;

	memset(n, 0, sizeof(*n));
	n->prog = prog;
	signal(SIGPIPE, SIG_IGN);
	fz_own_netns();
	if ((n->loop = loop_new(LOOP_BACKEND_AUTO, err, sizeof(err))) ==
	    NULL) {
		fprintf(stderr, "%s: %s\n", prog, err);
		abort();
	}
	loop_on_turn(n->loop, fz_turn, NULL);
	timer_init(&n->guard, fz_guard_fired);

	if ((n->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		abort();
	(void)setsockopt(n->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(n->lfd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(n->lfd, 16) == -1)
		abort();
	n->addrlen = sizeof(n->addr);
	if (getsockname(n->lfd, (struct sockaddr *)&n->addr, &n->addrlen) ==
	    -1)
		abort();

	memset(&spec, 0, sizeof(spec));
	spec.uri = "/";
	spec.minor = 1;
	spec.host = "127.0.0.1";
	spec.user_agent = prog;
	if (extra != NULL) {
		spec.extra = extra;
		spec.extra_len = strlen(extra);
	}
	http_req_tmpl_init(&n->tmpl, &spec);
}

struct bus *
fz_net_core(struct fz_net *n, struct core *core, struct core_config *cfg,
    const enum bus_event *evs, size_t nevs, bus_handler *fn, void *ctx)
{
	struct bus *bus;
	size_t i;

	bus = bus_new();
	for (i = 0; i < nevs; i++)
		bus_subscribe(bus, evs[i], fn, ctx);
	memcpy(&cfg->addr, &n->addr, sizeof(n->addr));
	cfg->addrlen = n->addrlen;
	cfg->prog = n->prog;
	cfg->req = &n->tmpl;
	core_init(core, n->loop, bus, cfg);
	return bus;
}

void
fz_net_core_free(struct fz_net *n, struct core *core, struct bus *bus)
{
	core_close_all(core, loop_clock(n->loop));
	core_fini(core);
	bus_free(bus);
}

void
fz_net_step(struct fz_net *n, unsigned *steps)
{
	if (++*steps > FZ_MAX_STEPS)
		abort();
	timer_add(loop_timers(n->loop), &n->guard, clock_now() + FZ_GUARD_NS);
	if (loop_run(n->loop) == -1)
		abort();
	timer_cancel(&n->guard);
}

int
fz_net_accept(struct fz_net *n)
{
	struct pollfd pfd;
	int fd;

	pfd.fd = n->lfd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) != 1)
		abort();
	if ((fd = accept(n->lfd, NULL, NULL)) == -1)
		abort();
	return fd;
}

uint64_t
fz_net_drain(int fd)
{
	char buf[65536];
	uint64_t total = 0;
	ssize_t r;

	while ((r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		total += (uint64_t)r;
	return total;
}

void
fz_net_reset(int fd)
{
	struct linger lg = { 1, 0 };

	(void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	(void)close(fd);
}
