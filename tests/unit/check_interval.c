/*
 * stat/interval.c: the per-interval bookkeeping with synthetic events on
 * a bus of its own and a timer wheel driven by hand.  The counts are
 * checked exactly, the --interval and --periodic-stats lines byte for
 * byte, and the hlog line by line: its header, its tags, its time stamps,
 * and histograms that decode back to the values recorded.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/timer.h"
#include "lib/hdr.h"
#include "lib/jsonw.h"
#include "stat/interval.h"
#include "unit.h"

#define SEC	UINT64_C(1000000000)
#define MS	UINT64_C(1000000)
#define T0	(UINT64_C(1000) * SEC)	/* the test's start */
/* 2023-11-14 22:13:20.123456789 UTC */
#define WALL	UINT64_C(1700000000123456789)

/* One collector on a bus and a wheel, its streams in memory. */
struct fx {
	struct interval	 iv;
	struct bus	*bus;
	struct timer_wheel *wheel;
	FILE		*out;		/* --periodic-stats */
	char		*outbuf;
	size_t		 outlen;
	FILE		*lines;		/* --interval */
	char		*linebuf;
	size_t		 linelen;
	char		 hlog[64];	/* the hlog file, or "" */
};

static void
fx_init_rec(struct fx *f, double rate, int hlog, int lines, int periodic,
    uint64_t period, int record)
{
	struct interval_config cfg;
	char err[256];
	int fd;

	memset(f, 0, sizeof(*f));
	f->bus = bus_new();
	f->wheel = timer_wheel_new(T0 - SEC);
	f->out = open_memstream(&f->outbuf, &f->outlen);
	ck_assert_ptr_nonnull(f->out);
	memset(&cfg, 0, sizeof(cfg));
	if (lines) {
		f->lines = open_memstream(&f->linebuf, &f->linelen);
		ck_assert_ptr_nonnull(f->lines);
		cfg.lines = f->lines;
	}
	if (hlog) {
		snprintf(f->hlog, sizeof(f->hlog),
		    "/tmp/check_interval.XXXXXX");
		fd = mkstemp(f->hlog);
		ck_assert_int_ge(fd, 0);
		close(fd);
		cfg.hlog = f->hlog;
	}
	cfg.periodic = periodic;
	cfg.target_rate = rate;
	cfg.period = period;
	cfg.record = record;
	ck_assert_int_eq(interval_init(&f->iv, f->bus, f->wheel, f->out,
	    &cfg, err, sizeof(err)), 0);
	interval_start(&f->iv, T0, WALL);
}

static void
fx_init(struct fx *f, double rate, int hlog, int lines, int periodic,
    uint64_t period)
{
	fx_init_rec(f, rate, hlog, lines, periodic, period, 0);
}

/* Stops the collector (at `end') and closes the memory streams. */
static void
fx_stop(struct fx *f, uint64_t end)
{
	char err[256];

	ck_assert_int_eq(interval_stop(&f->iv, end, err, sizeof(err)), 0);
	fclose(f->out);
	f->out = NULL;
	if (f->lines != NULL)
		fclose(f->lines);
	f->lines = NULL;
}

static void
fx_free(struct fx *f)
{
	interval_fini(&f->iv);
	timer_wheel_free(f->wheel);
	bus_free(f->bus);
	free(f->outbuf);
	free(f->linebuf);
	if (f->hlog[0] != '\0')
		unlink(f->hlog);
}

static void
sig(struct fx *f, enum bus_event ev, void *obj, long i, uint64_t now)
{
	union bus_arg arg;

	arg.i = i;
	bus_signal(f->bus, ev, obj, arg, now);
}

/* A reply with `status': sent at `sent', done `ms' later. */
static void
reply(struct fx *f, int status, uint64_t intended, uint64_t sent, uint64_t ns)
{
	struct call c;

	memset(&c, 0, sizeof(c));
	c.status = status;
	c.intended = intended;
	c.t_send_start = sent;
	c.t_recv_start = sent + ns / 2;
	c.t_recv_stop = sent + ns;
	c.replied = 1;
	sig(f, BUS_CALL_RECV_STOP, &c, 0, c.t_recv_stop);
}

/* A connection whose TCP connect took `ns'. */
static void
connected(struct fx *f, uint64_t at, uint64_t ns)
{
	struct conn c;

	memset(&c, 0, sizeof(c));
	c.t_connect_start = at;
	c.t_tcp_connected = at + ns;
	c.t_connected = at + ns;
	sig(f, BUS_CONN_CONNECTING, &c, 0, at);
	sig(f, BUS_CONN_CONNECTED, &c, 0, at + ns);
}

/* The highest value equivalent to v, in ms: what a percentile says. */
static double
heq_ms(uint64_t v)
{
	struct hdr *h = hdr_new_ns();
	double ms = (double)hdr_highest_equivalent(h, v) / 1e6;

	hdr_free(h);
	return ms;
}

/* One decoded hlog line. */
struct hline {
	char		 tag[32];
	char		 start[32];
	char		 length[32];
	char		 max[32];
	struct hdr	*h;
};

/*
 * Reads the hlog: checks its five header lines, then decodes every
 * interval line into l[] (at most n).  Returns the number of lines.
 */
static size_t
read_hlog(const char *path, struct hline *l, size_t n)
{
	static const char *const head[] = {
		"#[Logged with " PACKAGE_NAME " " PACKAGE_VERSION "]",
		"#[Histogram log format version 1.3]",
		"#[StartTime: 1700000000.123 (seconds since epoch), "
		    "Tue Nov 14 22:13:20 UTC 2023]",
		"#[BaseTime: 1700000000.123 (seconds since epoch)]",
		"\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
		    "\"Interval_Compressed_Histogram\"",
	};
	char *line = NULL, *p, *fld[5];
	size_t cap = 0, k = 0, i, nl = 0;
	ssize_t len;
	FILE *fp = fopen(path, "r");

	ck_assert_ptr_nonnull(fp);
	while ((len = getline(&line, &cap, fp)) != -1) {
		ck_assert_int_gt(len, 0);
		ck_assert_int_eq(line[len - 1], '\n');
		line[len - 1] = '\0';
		if (nl < 5) {
			ck_assert_str_eq(line, head[nl]);
			nl++;
			continue;
		}
		ck_assert_uint_lt(k, n);
		ck_assert_msg(strncmp(line, "Tag=", 4) == 0, "%s", line);
		p = line + 4;
		for (i = 0; i < 5; i++) {
			fld[i] = p;
			if (i < 4) {
				p = strchr(p, ',');
				ck_assert_ptr_nonnull(p);
				*p++ = '\0';
			}
		}
		snprintf(l[k].tag, sizeof(l[k].tag), "%s", fld[0]);
		snprintf(l[k].start, sizeof(l[k].start), "%s", fld[1]);
		snprintf(l[k].length, sizeof(l[k].length), "%s", fld[2]);
		snprintf(l[k].max, sizeof(l[k].max), "%s", fld[3]);
		ck_assert_int_eq(hdr_decode(fld[4], strlen(fld[4]), &l[k].h),
		    0);
		k++;
	}
	ck_assert_uint_eq(nl, 5);
	free(line);
	fclose(fp);
	return k;
}

static void
free_hlog(struct hline *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		hdr_free(l[i].h);
}

/* The count of h in the bucket of v. */
static uint64_t
count_at(const struct hdr *h, uint64_t v)
{
	struct hdr_iter it;

	hdr_iter_init(&it, h);
	while (hdr_iter_next(&it))
		if (it.lo <= v && v <= it.hi)
			return it.count;
	return 0;
}

/*
 * A scheduled run: two intervals (1 s, then 0.5 s to the stop), every
 * event kind in each, the counts exact in the lines, and the hlog
 * decoding back to the values recorded.
 */
START_TEST(test_scheduled)
{
	struct hline l[16];
	struct fx f;
	char want[512];
	size_t n;

	fx_init(&f, 100.0, 1, 1, 0, 0);
	/* Interval 1: 3 arrivals 1, 2 and 3 ms late; replies 200, 302,
	   404, 503 of 10, 20, 30, 40 ms, the first intended 5 ms before
	   it was sent; 2 connects; a refused connection and a timeout. */
	sig(&f, BUS_ARRIVAL, NULL, (long)(T0 + 100 * MS), T0 + 101 * MS);
	sig(&f, BUS_ARRIVAL, NULL, (long)(T0 + 200 * MS), T0 + 202 * MS);
	sig(&f, BUS_ARRIVAL, NULL, (long)(T0 + 300 * MS), T0 + 303 * MS);
	connected(&f, T0 + 101 * MS, 1 * MS);
	connected(&f, T0 + 202 * MS, 2 * MS);
	reply(&f, 200, T0 + 100 * MS, T0 + 105 * MS, 10 * MS);
	reply(&f, 302, 0, T0 + 205 * MS, 20 * MS);
	reply(&f, 404, 0, T0 + 305 * MS, 30 * MS);
	reply(&f, 503, 0, T0 + 405 * MS, 40 * MS);
	sig(&f, BUS_CONN_FAILED, NULL, ECONNREFUSED, T0 + 500 * MS);
	sig(&f, BUS_CONN_TIMEOUT, NULL, 0, T0 + 600 * MS);
	sig(&f, BUS_ARRIVAL_MISSED, NULL, 2, T0 + 700 * MS);
	ck_assert_uint_eq(f.iv.c.arrivals, 3);
	ck_assert_uint_eq(f.iv.c.missed, 2);
	ck_assert_uint_eq(f.iv.c.conns, 2);
	ck_assert_uint_eq(f.iv.c.replies[2], 1);
	ck_assert_uint_eq(f.iv.c.replies[3], 1);
	ck_assert_uint_eq(f.iv.c.replies[4], 1);
	ck_assert_uint_eq(f.iv.c.replies[5], 1);
	ck_assert_uint_eq(f.iv.c.errors[BASIC_ERR_CONNREFUSED], 1);
	ck_assert_uint_eq(f.iv.c.errors[BASIC_ERR_CLIENT_TIMO], 1);
	ck_assert_uint_eq(f.iv.c.s200, 1);
	ck_assert_uint_eq(f.iv.c.s302, 1);

	/* Nothing before the boundary; the boundary ends interval 1. */
	timer_wheel_run(f.wheel, T0 + SEC - 1);
	ck_assert_uint_eq(f.iv.n, 0);
	timer_wheel_run(f.wheel, T0 + SEC);
	ck_assert_uint_eq(f.iv.n, 1);
	ck_assert_uint_eq(f.iv.c.arrivals, 0);
	ck_assert_uint_eq(f.iv.c.replies[2], 0);

	/* Interval 2 (to the stop at 1.5 s): one arrival on time, one
	   reply of 7 ms sent 2 ms after its intended time. */
	sig(&f, BUS_ARRIVAL, NULL, (long)(T0 + 1100 * MS), T0 + 1100 * MS);
	connected(&f, T0 + 1100 * MS, 3 * MS);
	reply(&f, 200, T0 + 1100 * MS, T0 + 1102 * MS, 7 * MS);
	fx_stop(&f, T0 + 1500 * MS);
	ck_assert_uint_eq(f.iv.n, 2);

	snprintf(want, sizeof(want),
	    "[1.000 s] arrivals 3.0/s (target 100.0), replies 4, errors 2, "
	    "reply [ms] p50 %.3f p99 %.3f max %.3f, lateness [ms] p99 %.3f "
	    "max %.3f, corrected [ms] p99 %.3f\n"
	    "[1.500 s] arrivals 2.0/s (target 100.0), replies 1, errors 0, "
	    "reply [ms] p50 %.3f p99 %.3f max %.3f, lateness [ms] p99 %.3f "
	    "max %.3f, corrected [ms] p99 %.3f, length 0.500 s\n",
	    heq_ms(20 * MS), heq_ms(40 * MS), heq_ms(40 * MS),
	    heq_ms(3 * MS), heq_ms(3 * MS), heq_ms(40 * MS),
	    heq_ms(7 * MS), heq_ms(7 * MS), heq_ms(7 * MS), 0.0, 0.0,
	    heq_ms(9 * MS));
	ck_assert_str_eq(f.linebuf, want);
	/* --periodic-stats was off. */
	ck_assert_str_eq(f.outbuf, "");

	n = read_hlog(f.hlog, l, 16);
	ck_assert_uint_eq(n, 8);
	ck_assert_str_eq(l[0].tag, "reply");
	ck_assert_str_eq(l[1].tag, "reply-corrected");
	ck_assert_str_eq(l[2].tag, "connect");
	ck_assert_str_eq(l[3].tag, "lateness");
	ck_assert_str_eq(l[4].tag, "reply");
	ck_assert_str_eq(l[7].tag, "lateness");
	ck_assert_str_eq(l[0].start, "0.000");
	ck_assert_str_eq(l[0].length, "1.000");
	ck_assert_str_eq(l[3].start, "0.000");
	ck_assert_str_eq(l[4].start, "1.000");
	ck_assert_str_eq(l[4].length, "0.500");
	snprintf(want, sizeof(want), "%.3f", heq_ms(40 * MS));
	ck_assert_str_eq(l[0].max, want);

	/* Interval 1: reply 10, 20, 30, 40 ms; corrected 15 (intended 5
	   ms before the send), 20, 30, 40; connect 1, 2; lateness 1, 2,
	   3 ms. */
	ck_assert_uint_eq(hdr_count(l[0].h), 4);
	ck_assert_uint_eq(count_at(l[0].h, 10 * MS), 1);
	ck_assert_uint_eq(count_at(l[0].h, 40 * MS), 1);
	ck_assert_uint_eq(count_at(l[0].h, 15 * MS), 0);
	ck_assert_uint_eq(hdr_count(l[1].h), 4);
	ck_assert_uint_eq(count_at(l[1].h, 15 * MS), 1);
	ck_assert_uint_eq(count_at(l[1].h, 10 * MS), 0);
	ck_assert_uint_eq(count_at(l[1].h, 20 * MS), 1);
	ck_assert_uint_eq(hdr_count(l[2].h), 2);
	ck_assert_uint_eq(count_at(l[2].h, 1 * MS), 1);
	ck_assert_uint_eq(count_at(l[2].h, 2 * MS), 1);
	ck_assert_uint_eq(hdr_count(l[3].h), 3);
	ck_assert_uint_eq(count_at(l[3].h, 1 * MS), 1);
	ck_assert_uint_eq(count_at(l[3].h, 3 * MS), 1);
	/* Interval 2: reply 7 ms, corrected 9 ms, connect 3 ms, one
	   arrival on time (0). */
	ck_assert_uint_eq(hdr_count(l[4].h), 1);
	ck_assert_uint_eq(count_at(l[4].h, 7 * MS), 1);
	ck_assert_uint_eq(hdr_count(l[5].h), 1);
	ck_assert_uint_eq(count_at(l[5].h, 9 * MS), 1);
	ck_assert_uint_eq(hdr_count(l[6].h), 1);
	ck_assert_uint_eq(count_at(l[6].h, 3 * MS), 1);
	ck_assert_uint_eq(hdr_count(l[7].h), 1);
	ck_assert_uint_eq(count_at(l[7].h, 0), 1);
	ck_assert_str_eq(l[7].max, "0.000");
	free_hlog(l, n);
	fx_free(&f);
}
END_TEST

/*
 * No schedule: connections per second, no lateness and no corrected
 * time (neither in the line nor in the hlog).  A corrected time would
 * equal the reply time anyway: intended is 0.
 */
START_TEST(test_unscheduled)
{
	struct hline l[8];
	struct fx f;
	char want[512];
	size_t n;

	fx_init(&f, 0.0, 1, 1, 0, 0);
	connected(&f, T0 + 10 * MS, 1 * MS);
	connected(&f, T0 + 20 * MS, 1 * MS);
	connected(&f, T0 + 30 * MS, 1 * MS);
	reply(&f, 200, 0, T0 + 11 * MS, 5 * MS);
	timer_wheel_run(f.wheel, T0 + SEC);
	fx_stop(&f, T0 + 1250 * MS);
	snprintf(want, sizeof(want),
	    "[1.000 s] connections 3.0/s, replies 1, errors 0, reply [ms] "
	    "p50 %.3f p99 %.3f max %.3f\n"
	    "[1.250 s] connections 0.0/s, replies 0, errors 0, reply [ms] "
	    "p50 0.000 p99 0.000 max 0.000, length 0.250 s\n",
	    heq_ms(5 * MS), heq_ms(5 * MS), heq_ms(5 * MS));
	ck_assert_str_eq(f.linebuf, want);
	n = read_hlog(f.hlog, l, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(l[0].tag, "reply");
	ck_assert_str_eq(l[1].tag, "connect");
	ck_assert_str_eq(l[2].tag, "reply");
	ck_assert_str_eq(l[3].tag, "connect");
	ck_assert_uint_eq(hdr_count(l[1].h), 3);
	ck_assert_uint_eq(hdr_count(l[2].h), 0);
	ck_assert_str_eq(l[2].start, "1.000");
	ck_assert_str_eq(l[2].length, "0.250");
	ck_assert_str_eq(l[2].max, "0.000");
	free_hlog(l, n);
	fx_free(&f);
}
END_TEST

/*
 * The schedule is absolute: a timer run late ends one longer interval at
 * the last boundary passed, the next boundary stays on the grid, and no
 * value is lost or counted twice.
 */
START_TEST(test_late_timer)
{
	struct hline l[8];
	struct fx f;
	size_t n;

	fx_init(&f, 0.0, 1, 0, 0, 500 * MS);
	reply(&f, 200, 0, T0 + 100 * MS, 1 * MS);
	/* Held up until 1.7 s: boundaries 0.5, 1.0 and 1.5 passed. */
	reply(&f, 200, 0, T0 + 1600 * MS, 1 * MS);
	timer_wheel_run(f.wheel, T0 + 1700 * MS);
	ck_assert_uint_eq(f.iv.n, 1);
	ck_assert_uint_eq(f.iv.mark, T0 + 1500 * MS);
	ck_assert_uint_eq(timer_expire(&f.iv.timer), T0 + 2000 * MS);
	reply(&f, 200, 0, T0 + 1800 * MS, 1 * MS);
	timer_wheel_run(f.wheel, T0 + 2000 * MS);
	ck_assert_uint_eq(f.iv.n, 2);
	/* Stopping exactly on a boundary adds no empty interval. */
	fx_stop(&f, T0 + 2000 * MS);
	ck_assert_uint_eq(f.iv.n, 2);
	n = read_hlog(f.hlog, l, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(l[0].start, "0.000");
	ck_assert_str_eq(l[0].length, "1.500");
	ck_assert_uint_eq(hdr_count(l[0].h), 2);
	ck_assert_str_eq(l[2].start, "1.500");
	ck_assert_str_eq(l[2].length, "0.500");
	ck_assert_uint_eq(hdr_count(l[2].h), 1);
	free_hlog(l, n);
	fx_free(&f);
}
END_TEST

/*
 * --periodic-stats: upstream's line every second on the report stream,
 * with the 200 and 302 replies of that second, and none for the part
 * second before the stop (upstream printed none either).
 */
START_TEST(test_periodic)
{
	struct fx f;

	fx_init(&f, 0.0, 0, 0, 1, 0);
	reply(&f, 200, 0, T0 + 10 * MS, 1 * MS);
	reply(&f, 200, 0, T0 + 20 * MS, 1 * MS);
	reply(&f, 302, 0, T0 + 30 * MS, 1 * MS);
	reply(&f, 301, 0, T0 + 40 * MS, 1 * MS);
	reply(&f, 204, 0, T0 + 50 * MS, 1 * MS);
	timer_wheel_run(f.wheel, T0 + SEC + 1234);
	reply(&f, 302, 0, T0 + 1500 * MS, 1 * MS);
	timer_wheel_run(f.wheel, T0 + 2 * SEC);
	timer_wheel_run(f.wheel, T0 + 3 * SEC);
	reply(&f, 200, 0, T0 + 3100 * MS, 1 * MS);
	fx_stop(&f, T0 + 3500 * MS);
	ck_assert_str_eq(f.outbuf,
	    "[1.000001 s] 200=2, 302=1\n"
	    "[2.000000 s] 200=0, 302=1\n"
	    "[3.000000 s] 200=0, 302=0\n");
	/* Neither --interval nor --hlog: no interval timer. */
	ck_assert_uint_eq(f.iv.n, 0);
	fx_free(&f);
}
END_TEST

/* Events before the start and after the stop are not counted. */
START_TEST(test_outside)
{
	struct interval_config cfg;
	struct interval iv;
	struct bus *bus = bus_new();
	struct timer_wheel *w = timer_wheel_new(0);
	char err[256];
	union bus_arg arg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.periodic = 1;
	ck_assert_int_eq(interval_init(&iv, bus, w, stdout, &cfg, err,
	    sizeof(err)), 0);
	arg.i = 0;
	bus_signal(bus, BUS_CONN_TIMEOUT, NULL, arg, 5);
	ck_assert_uint_eq(iv.c.errors[BASIC_ERR_CLIENT_TIMO], 0);
	interval_start(&iv, 10, WALL);
	bus_signal(bus, BUS_CONN_TIMEOUT, NULL, arg, 15);
	ck_assert_uint_eq(iv.c.errors[BASIC_ERR_CLIENT_TIMO], 1);
	ck_assert_int_eq(interval_stop(&iv, 20, err, sizeof(err)), 0);
	bus_signal(bus, BUS_CONN_TIMEOUT, NULL, arg, 25);
	ck_assert_uint_eq(iv.c.errors[BASIC_ERR_CLIENT_TIMO], 1);
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	interval_fini(&iv);
	timer_wheel_free(w);
	bus_free(bus);
}
END_TEST

/* An hlog that cannot be created: init fails with one message. */
START_TEST(test_hlog_unwritable)
{
	struct interval_config cfg;
	struct interval iv;
	struct bus *bus = bus_new();
	struct timer_wheel *w = timer_wheel_new(0);
	char err[256];

	memset(&cfg, 0, sizeof(cfg));
	cfg.hlog = "/nonexistent-dir/x\001.hlog";
	ck_assert_int_eq(interval_init(&iv, bus, w, stdout, &cfg, err,
	    sizeof(err)), -1);
	ck_assert_str_eq(err, "--hlog: /nonexistent-dir/x\\x01.hlog: "
	    "No such file or directory");
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	ck_assert_int_eq(bus_wanted(bus, BUS_CALL_RECV_STOP), 0);
	timer_wheel_free(w);
	bus_free(bus);
}
END_TEST

/* An hlog on a full disk: stop says so (the run then exits 1). */
START_TEST(test_hlog_full)
{
	struct interval_config cfg;
	struct interval iv;
	struct bus *bus = bus_new();
	struct timer_wheel *w = timer_wheel_new(0);
	char err[256];

	if (access("/dev/full", W_OK) != 0)
		return;
	memset(&cfg, 0, sizeof(cfg));
	cfg.hlog = "/dev/full";
	ck_assert_int_eq(interval_init(&iv, bus, w, stdout, &cfg, err,
	    sizeof(err)), 0);
	interval_start(&iv, 10, WALL);
	timer_wheel_run(w, 10 + SEC);
	err[0] = '\0';
	ck_assert_int_eq(interval_stop(&iv, 10 + SEC + 5, err, sizeof(err)),
	    -1);
	ck_assert_str_eq(err, "--hlog: /dev/full: No space left on device");
	interval_fini(&iv);
	timer_wheel_free(w);
	bus_free(bus);
}
END_TEST

/* The line writer alone: stamps in s and the max in ms, 3 decimals. */
START_TEST(test_hlog_line)
{
	struct hdr *h = hdr_new_ns(), *d;
	char *buf, *p, want[128];
	size_t len;
	FILE *f;

	hdr_record(h, 1500);
	hdr_record(h, 2 * SEC);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(interval_hlog_line(f, "reply", 61234567890ULL,
	    999999999, h), 0);
	fclose(f);
	p = strchr(buf, '\n');
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_eq(p + 1, buf + len);
	*p = '\0';
	/* 61.234567890 s rounds to 61.235; 0.999999999 s to 1.000; the
	   max is 2 s within the precision, in ms. */
	snprintf(want, sizeof(want), "Tag=reply,61.235,1.000,%.3f,HISTF",
	    (double)hdr_max(h) / 1e6);
	ck_assert_msg(strncmp(want, "Tag=reply,61.235,1.000,2000.", 28) ==
	    0, "%s", want);
	ck_assert_msg(strncmp(buf, want, strlen(want)) == 0, "%s", buf);
	p = strrchr(buf, ',');
	ck_assert_int_eq(hdr_decode(p + 1, strlen(p + 1), &d), 0);
	ck_assert_uint_eq(hdr_count(d), 2);
	ck_assert_uint_eq(count_at(d, 1500), 1);
	ck_assert_uint_eq(count_at(d, 2 * SEC), 1);
	ck_assert_uint_eq(hdr_max(d), hdr_max(h));
	hdr_free(d);
	hdr_free(h);
	free(buf);
}
END_TEST

/* The count of histogram encoding `enc' (which must decode). */
static uint64_t
enc_count(const char *enc)
{
	struct hdr *d;
	uint64_t n;

	ck_assert_ptr_nonnull(enc);
	ck_assert_int_eq(hdr_decode(enc, strlen(enc), &d), 0);
	n = hdr_count(d);
	hdr_free(d);
	return n;
}

/*
 * cfg.record alone (no hlog, no lines): the intervals still end on
 * their schedule and each one is kept, with its counts, its percentiles
 * and its histograms' encodings; the JSON holds them all.
 */
START_TEST(test_record)
{
	const struct interval_rec *r;
	struct jsonw w;
	struct fx f;
	char *buf = NULL;
	size_t len = 0;
	FILE *jf;

	fx_init_rec(&f, 50.0, 0, 0, 0, 0, 1);
	sig(&f, BUS_ARRIVAL, NULL, (long)(T0 + 100 * MS), T0 + 103 * MS);
	reply(&f, 200, T0 + 100 * MS, T0 + 103 * MS, 10 * MS);
	reply(&f, 503, 0, T0 + 200 * MS, 30 * MS);
	sig(&f, BUS_CONN_FAILED, NULL, ECONNRESET, T0 + 300 * MS);
	timer_wheel_run(f.wheel, T0 + SEC);
	ck_assert_uint_eq(f.iv.recs.n, 1);
	sig(&f, BUS_ARRIVAL_MISSED, NULL, 4, T0 + 1200 * MS);
	reply(&f, 200, 0, T0 + 1300 * MS, 1 * MS);
	fx_stop(&f, T0 + 1250 * MS + 1);
	ck_assert_uint_eq(f.iv.recs.n, 2);

	r = &f.iv.recs.v[0];
	ck_assert_uint_eq(r->start, 0);
	ck_assert_uint_eq(r->length, SEC);
	ck_assert_uint_eq(r->c.arrivals, 1);
	ck_assert_uint_eq(r->c.replies[2], 1);
	ck_assert_uint_eq(r->c.replies[5], 1);
	ck_assert_uint_eq(r->c.errors[BASIC_ERR_CONNRESET], 1);
	ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].count, 2);
	/* 10 and 30 ms; the corrected time of the first is 13 ms. */
	ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].p50 / MS, 10);
	ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].max / MS, 30);
	ck_assert_uint_eq(r->h[INTERVAL_R_CORRECTED].max / MS, 30);
	ck_assert_uint_eq(r->h[INTERVAL_R_CORRECTED].p50 / MS, 13);
	ck_assert_uint_eq(r->h[INTERVAL_R_LATENESS].count, 1);
	ck_assert_uint_eq(r->h[INTERVAL_R_LATENESS].max / MS, 3);
	ck_assert_uint_eq(enc_count(r->h[INTERVAL_R_REPLY].hdr), 2);
	ck_assert_uint_eq(enc_count(r->h[INTERVAL_R_LATENESS].hdr), 1);
	r = &f.iv.recs.v[1];
	ck_assert_uint_eq(r->start, SEC);
	ck_assert_uint_eq(r->length, 250 * MS + 1);
	ck_assert_uint_eq(r->c.missed, 4);
	ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].count, 1);
	ck_assert_uint_eq(r->h[INTERVAL_R_LATENESS].count, 0);

	jf = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(jf);
	jsonw_init(&w, jf);
	interval_json_recs(&w, 50.0, &f.iv.recs);
	ck_assert_int_eq(jsonw_finish(&w), 0);
	fclose(jf);
	ck_assert_ptr_nonnull(strstr(buf, "\"period_ns\": 1000000000"));
	ck_assert_ptr_nonnull(strstr(buf, "\"length_ns\": 250000001"));
	ck_assert_ptr_nonnull(strstr(buf, "\"5xx\": 1"));
	ck_assert_ptr_nonnull(strstr(buf, "\"connreset\": 1"));
	ck_assert_ptr_nonnull(strstr(buf, "\"reply_corrected\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"missed\": 4"));
	free(buf);
	fx_free(&f);
}
END_TEST

/*
 * A last interval that is a sliver (0.4 ms of a 1 s period): empty, it
 * prints no --interval line (no all-zero line at the end); kept, it is
 * joined to the interval before, which then reaches the test's end.  A
 * sliver with something in it prints its line, with its length.
 */
START_TEST(test_sliver)
{
	const struct interval_rec *r;
	struct fx f;
	char want[512];

	fx_init_rec(&f, 0.0, 0, 1, 0, 0, 1);
	connected(&f, T0 + 10 * MS, 1 * MS);
	reply(&f, 200, 0, T0 + 11 * MS, 5 * MS);
	timer_wheel_run(f.wheel, T0 + SEC);
	fx_stop(&f, T0 + SEC + 400000);
	snprintf(want, sizeof(want),
	    "[1.000 s] connections 1.0/s, replies 1, errors 0, reply [ms] "
	    "p50 %.3f p99 %.3f max %.3f\n",
	    heq_ms(5 * MS), heq_ms(5 * MS), heq_ms(5 * MS));
	ck_assert_str_eq(f.linebuf, want);
	ck_assert_uint_eq(f.iv.recs.n, 1);
	r = &f.iv.recs.v[0];
	ck_assert_uint_eq(r->start, 0);
	ck_assert_uint_eq(r->length, SEC + 400000);
	ck_assert_uint_eq(r->c.conns, 1);
	ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].count, 1);
	ck_assert_uint_eq(enc_count(r->h[INTERVAL_R_REPLY].hdr), 1);
	fx_free(&f);

	/* A reply in the sliver: its line, its real length. */
	fx_init_rec(&f, 0.0, 0, 1, 0, 0, 1);
	reply(&f, 200, 0, T0 + 11 * MS, 5 * MS);
	timer_wheel_run(f.wheel, T0 + SEC);
	reply(&f, 200, 0, T0 + SEC, 100000);
	fx_stop(&f, T0 + SEC + 400000);
	ck_assert_ptr_nonnull(strstr(f.linebuf, "\n[1.000 s] connections "
	    "0.0/s, replies 1, errors 0, reply [ms] p50 0.100 p99 0.100 max "
	    "0.100, length 0.000 s\n"));
	ck_assert_uint_eq(f.iv.recs.n, 1);
	ck_assert_uint_eq(f.iv.recs.v[0].h[INTERVAL_R_REPLY].count, 2);
	ck_assert_uint_eq(enc_count(f.iv.recs.v[0].h[INTERVAL_R_REPLY].hdr),
	    2);
	fx_free(&f);
}
END_TEST

/*
 * 1,100 intervals of 1 ms, a reply in each: at most INTERVAL_MAX_RECS
 * are kept, neighbours joined 4 by 4 (1,100 / 2 is still over 512),
 * and nothing is lost: every reply, every histogram value, the
 * intervals still tiling the test.  The document says so.
 */
START_TEST(test_bound)
{
	const struct interval_rec *r;
	uint64_t i, replies = 0, hist = 0, arrivals = 0;
	struct jsonw w;
	struct fx f;
	char *buf = NULL;
	size_t len = 0;
	FILE *jf;

	fx_init_rec(&f, 1000.0, 0, 0, 0, MS, 1);
	for (i = 0; i < 1100; i++) {
		sig(&f, BUS_ARRIVAL, NULL, (long)(T0 + i * MS + 100),
		    T0 + i * MS + 200);
		reply(&f, 200, T0 + i * MS + 100, T0 + i * MS + 200,
		    100000 + i);
		timer_wheel_run(f.wheel, T0 + (i + 1) * MS);
	}
	fx_stop(&f, T0 + 1100 * MS);
	ck_assert_uint_eq(f.iv.n, 1100);
	ck_assert_uint_eq(f.iv.recs.join, 4);
	ck_assert_uint_eq(f.iv.recs.n, 1100 / 4);
	ck_assert_uint_le(f.iv.recs.cap, INTERVAL_MAX_RECS);
	for (i = 0; i < f.iv.recs.n; i++) {
		r = &f.iv.recs.v[i];
		ck_assert_uint_eq(r->start, i * 4 * MS);
		ck_assert_uint_eq(r->length, 4 * MS);
		replies += r->c.replies[2];
		arrivals += r->c.arrivals;
		hist += enc_count(r->h[INTERVAL_R_CORRECTED].hdr);
		ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].count,
		    r->c.replies[2]);
	}
	ck_assert_uint_eq(replies, 1100);
	ck_assert_uint_eq(arrivals, 1100);
	ck_assert_uint_eq(hist, 1100);
	/* The largest reply time of the last interval kept: 101,099 ns. */
	r = &f.iv.recs.v[f.iv.recs.n - 1];
	ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].max,
	    (uint64_t)(heq_ms(101099) * 1e6 + 0.5));
	ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].count, 4);

	jf = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(jf);
	jsonw_init(&w, jf);
	interval_json_recs(&w, 1000.0, &f.iv.recs);
	ck_assert_int_eq(jsonw_finish(&w), 0);
	fclose(jf);
	ck_assert_ptr_nonnull(strstr(buf, "\"period_ns\": 1000000,"));
	ck_assert_ptr_nonnull(strstr(buf, "\"max_intervals\": 512,"));
	ck_assert_ptr_nonnull(strstr(buf, "\"joined\": 4,"));
	free(buf);
	fx_free(&f);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("interval");
	TCase *tc = tcase_create("interval");

	tcase_add_test(tc, test_scheduled);
	tcase_add_test(tc, test_unscheduled);
	tcase_add_test(tc, test_late_timer);
	tcase_add_test(tc, test_periodic);
	tcase_add_test(tc, test_outside);
	tcase_add_test(tc, test_hlog_unwritable);
	tcase_add_test(tc, test_hlog_full);
	tcase_add_test(tc, test_hlog_line);
	tcase_add_test(tc, test_record);
	tcase_add_test(tc, test_sliver);
	tcase_add_test(tc, test_bound);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
