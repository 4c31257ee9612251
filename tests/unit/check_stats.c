/*
 * Unit tests for the statistics modules: the basic report (series math,
 * error classes, golden report text) and the percentile lines after it
 * (check_hdr.c tests the histogram itself).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/core.h"
#include "core/sess.h"
#include "lib/hdr.h"
#include "lib/util.h"
#include "stat/basic.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "unit.h"

START_TEST(series_math)
{
	struct basic_series s;

	memset(&s, 0, sizeof(s));
	basic_series_add(&s, 5.0);
	/* The first sample sets min, not the zeroed field. */
	ck_assert_double_eq(s.min, 5.0);
	ck_assert_double_eq(s.max, 5.0);
	basic_series_add(&s, 3.0);
	basic_series_add(&s, 10.0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_double_eq(s.min, 3.0);
	ck_assert_double_eq(s.max, 10.0);
	ck_assert_double_eq(s.sum, 18.0);
	ck_assert_double_eq(s.sum2, 134.0);

	memset(&s, 0, sizeof(s));
	basic_series_add(&s, -2.0);
	ck_assert_double_eq(s.max, -2.0);
	ck_assert_double_eq(s.min, -2.0);
}
END_TEST

static const struct {
	int		err;
	enum basic_err	class;
} err_table[] = {
	{ EMFILE, BASIC_ERR_FD_UNAVAIL },
	{ ENFILE, BASIC_ERR_FTAB_FULL },
	{ ECONNREFUSED, BASIC_ERR_CONNREFUSED },
	{ ETIMEDOUT, BASIC_ERR_SOCKET_TIMO },
	{ ECONNRESET, BASIC_ERR_CONNRESET },
	{ EPIPE, BASIC_ERR_CONNRESET },
	{ EADDRNOTAVAIL, BASIC_ERR_ADDRUNAVAIL },
	{ EINVAL, BASIC_ERR_OTHER },
	{ ENETUNREACH, BASIC_ERR_OTHER },
	{ EHOSTUNREACH, BASIC_ERR_OTHER },
	{ 0, BASIC_ERR_OTHER },
	{ -1, BASIC_ERR_OTHER },
};

START_TEST(err_class)
{
	ck_assert_int_eq(basic_err_class(err_table[_i].err),
	    err_table[_i].class);
}
END_TEST

START_TEST(total_replies)
{
	struct basic_totals t;

	memset(&t, 0, sizeof(t));
	t.replies[0] = 100;	/* status < 100 is not a reply */
	t.replies[1] = 1;
	t.replies[2] = 20;
	t.replies[5] = 300;
	ck_assert_uint_eq(basic_total_replies(&t), 321);
}
END_TEST

/* Runs the report into a string.  The caller frees it. */
static char *
report(const struct basic_totals *t, int verbose)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	basic_report_print(f, t, verbose);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/* Fills a hand-made totals struct whose report is worked out below. */
static void
golden_totals(struct basic_totals *t, struct hdr *h)
{
	memset(t, 0, sizeof(*t));
	t->duration = 2500000000ULL;			/* 2.5 s */
	t->conns_issued = 10;
	t->max_concurrent = 3;
	/* Lifetimes 1.5, 2.5, 3.5, 4.5 ms. */
	t->lifetime_n = 4;
	t->lifetime_min = 1500000;
	t->lifetime_max = 4500000;
	t->lifetime_sum = 12000000;
	t->lifetime_sum2 = 41e-6;
	hdr_record(h, 1500000);
	hdr_record(h, 2500000);
	hdr_record(h, 3500000);
	hdr_record(h, 4500000);
	t->lifetime_hist = h;
	t->connects_n = 8;
	t->connect_sum = 2400000;			/* 0.3 ms each */
	t->reqs_sent = 21;
	t->req_bytes = 21 * 70 + 10;			/* 70.476 */
	basic_series_add(&t->reply_rate, 8.0);
	basic_series_add(&t->reply_rate, 10.0);
	t->responses_n = 21;
	t->response_sum = 31500000;			/* 1.5 ms each */
	t->transfer_sum = 14000000;			/* 0.7 ms each */
	t->replies[2] = 18;
	t->replies[3] = 1;
	t->replies[4] = 1;
	t->hdr_bytes = 20 * 146 + 6;			/* 146.3 */
	t->content_bytes = 20 * 12;
	t->footer_bytes = 0;
	t->net_bytes = 1024000;
	t->cpu_user = 1.2;
	t->cpu_sys = 0.8;
	t->errors[BASIC_ERR_CLIENT_TIMO] = 1;
	t->errors[BASIC_ERR_SOCKET_TIMO] = 2;
	t->errors[BASIC_ERR_CONNREFUSED] = 3;
	t->errors[BASIC_ERR_CONNRESET] = 4;
	t->errors[BASIC_ERR_FD_UNAVAIL] = 5;
	t->errors[BASIC_ERR_ADDRUNAVAIL] = 6;
	t->errors[BASIC_ERR_FTAB_FULL] = 7;
	t->errors[BASIC_ERR_OTHER] = 8;
}

static const char golden_body[] =
    "\n"
    "Total: connections 10 requests 21 replies 20 test-duration 2.500 s\n"
    "\n"
    "Connection rate: 4.0 conn/s (250.0 ms/conn, "
    "<=3 concurrent connections)\n"
    "Connection time [ms]: min 1.5 avg 3.0 max 4.5 median 2.5 stddev 1.3\n"
    "Connection time [ms]: connect 0.3\n"
    "Connection length [replies/conn]: 5.000\n"
    "\n"
    "Request rate: 8.4 req/s (119.0 ms/req)\n"
    "Request size [B]: 70.5\n"
    "\n"
    "Reply rate [replies/s]: min 8.0 avg 9.0 max 10.0 stddev 1.4 "
    "(2 samples)\n"
    "Reply time [ms]: response 1.5 transfer 0.7\n"
    "Reply size [B]: header 146.3 content 12.0 footer 0.0 (total 158.3)\n"
    "Reply status: 1xx=0 2xx=18 3xx=1 4xx=1 5xx=0\n"
    "\n"
    "CPU time [s]: user 1.20 system 0.80 "
    "(user 48.0% system 32.0% total 80.0%)\n"
    "Net I/O: 400.0 KB/s (3.3*10^6 bps)\n"
    "\n"
    "Errors: total 36 client-timo 1 socket-timo 2 connrefused 3 "
    "connreset 4\n"
    "Errors: fd-unavail 5 addrunavail 6 ftab-full 7 other 8\n";

START_TEST(report_golden)
{
	struct basic_totals t;
	struct hdr *h = hdr_new_ns();
	char *s;

	golden_totals(&t, h);
	s = report(&t, 1);
	ck_assert_str_eq(s, golden_body);
	free(s);
	/* -v -v without bins prints no histogram. */
	s = report(&t, 2);
	ck_assert_str_eq(s, golden_body);
	free(s);
	hdr_free(h);
}
END_TEST

START_TEST(report_lifetime_bins)
{
	static const uint32_t bins[] = { 3, 1, 0, 0, 2, 0, 1, 0 };
	static const char head[] =
	    "\n"
	    "Connection lifetime histogram (time in ms):\n"
	    "             0.5 3\n"
	    "             1.5 1\n"
	    "             :\n"
	    "             4.5 2\n"
	    "             :\n"
	    "             6.5 1\n";
	struct basic_totals t;
	struct hdr *h = hdr_new_ns();
	char *s, *want;
	size_t len;

	golden_totals(&t, h);
	t.lifetime_bins = bins;
	t.lifetime_nbins = nitems(bins);
	len = strlen(head) + strlen(golden_body) + 1;
	want = xmalloc(len);
	snprintf(want, len, "%s%s", head, golden_body);
	s = report(&t, 2);
	ck_assert_str_eq(s, want);
	free(s);
	/* Plain -v shows no histogram even when bins were kept. */
	s = report(&t, 1);
	ck_assert_str_eq(s, golden_body);
	free(s);
	free(want);
	hdr_free(h);
}
END_TEST

START_TEST(report_lifetime_bins_gap_first)
{
	static const uint32_t bins[] = { 0, 0, 7 };
	struct basic_totals t;
	char *s;

	memset(&t, 0, sizeof(t));
	t.lifetime_bins = bins;
	t.lifetime_nbins = nitems(bins);
	s = report(&t, 2);
	ck_assert_msg(strncmp(s, "\nConnection lifetime histogram "
	    "(time in ms):\n             :\n             2.5 7\n\nTotal:",
	    strlen("\nConnection lifetime histogram (time in ms):\n"
	    "             :\n             2.5 7\n\nTotal:")) == 0, "%s", s);
	free(s);
}
END_TEST

static const char zero_report[] =
    "\n"
    "Total: connections 0 requests 0 replies 0 test-duration 0.000 s\n"
    "\n"
    "Connection rate: 0.0 conn/s (0.0 ms/conn, "
    "<=0 concurrent connections)\n"
    "Connection time [ms]: min 0.0 avg 0.0 max 0.0 median 0.0 stddev 0.0\n"
    "Connection time [ms]: connect 0.0\n"
    "Connection length [replies/conn]: 0.000\n"
    "\n"
    "Request rate: 0.0 req/s (0.0 ms/req)\n"
    "Request size [B]: 0.0\n"
    "\n"
    "Reply rate [replies/s]: min 0.0 avg 0.0 max 0.0 stddev 0.0 "
    "(0 samples)\n"
    "Reply time [ms]: response 0.0 transfer 0.0\n"
    "Reply size [B]: header 0.0 content 0.0 footer 0.0 (total 0.0)\n"
    "Reply status: 1xx=0 2xx=0 3xx=0 4xx=0 5xx=0\n"
    "\n"
    "CPU time [s]: user 0.00 system 0.00 "
    "(user 0.0% system 0.0% total 0.0%)\n"
    "Net I/O: 0.0 KB/s (0.0*10^6 bps)\n"
    "\n"
    "Errors: total 0 client-timo 0 socket-timo 0 connrefused 0 "
    "connreset 0\n"
    "Errors: fd-unavail 0 addrunavail 0 ftab-full 0 other 0\n";

START_TEST(report_zero)
{
	struct basic_totals t;
	struct hdr *h = hdr_new_ns();
	char *s;

	memset(&t, 0, sizeof(t));
	s = report(&t, 2);
	ck_assert_str_eq(s, zero_report);
	free(s);
	/* An empty histogram gives median 0 too. */
	t.lifetime_hist = h;
	s = report(&t, 1);
	ck_assert_str_eq(s, zero_report);
	free(s);
	hdr_free(h);
}
END_TEST

/* Counts but no duration: every rate is 0, nothing is inf or nan. */
START_TEST(report_zero_duration)
{
	struct basic_totals t;
	struct hdr *h = hdr_new_ns();
	char *s;

	golden_totals(&t, h);
	t.duration = 0;
	s = report(&t, 1);
	ck_assert_ptr_null(strstr(s, "inf"));
	ck_assert_ptr_null(strstr(s, "nan"));
	ck_assert_ptr_null(strstr(s, "-0.0"));
	ck_assert_ptr_nonnull(strstr(s, "test-duration 0.000 s\n"));
	ck_assert_ptr_nonnull(strstr(s, "Connection rate: 0.0 conn/s "
	    "(0.0 ms/conn, <=3 concurrent connections)\n"));
	ck_assert_ptr_nonnull(strstr(s, "Request rate: 0.0 req/s "
	    "(0.0 ms/req)\n"));
	ck_assert_ptr_nonnull(strstr(s, "(user 0.0% system 0.0% "
	    "total 0.0%)\n"));
	ck_assert_ptr_nonnull(strstr(s, "Net I/O: 0.0 KB/s "
	    "(0.0*10^6 bps)\n"));
	/* Per-item figures do not depend on the duration. */
	ck_assert_ptr_nonnull(strstr(s, "Request size [B]: 70.5\n"));
	free(s);
	hdr_free(h);
}
END_TEST

/* One lifetime: stddev is 0 and the median is clamped to the value. */
START_TEST(report_single_lifetime)
{
	struct basic_totals t;
	struct hdr *h = hdr_new_ns();
	char *s;

	memset(&t, 0, sizeof(t));
	t.duration = 1000000000ULL;
	t.conns_issued = 1;
	t.lifetime_n = 1;
	t.lifetime_min = t.lifetime_max = t.lifetime_sum = 2300000;
	t.lifetime_sum2 = 2.3e-3 * 2.3e-3;
	hdr_record(h, 2300000);
	t.lifetime_hist = h;
	t.replies[2] = 1;
	basic_series_add(&t.reply_rate, 4.0);
	s = report(&t, 1);
	ck_assert_ptr_nonnull(strstr(s, "Connection time [ms]: min 2.3 "
	    "avg 2.3 max 2.3 median 2.3 stddev 0.0\n"));
	ck_assert_ptr_nonnull(strstr(s, "Reply rate [replies/s]: min 4.0 "
	    "avg 4.0 max 4.0 stddev 0.0 (1 samples)\n"));
	ck_assert_ptr_nonnull(strstr(s,
	    "Connection length [replies/conn]: 1.000\n"));
	free(s);
	hdr_free(h);
}
END_TEST

/* Runs basic_print_pct() into a string.  The caller frees it. */
static char *
pct_line(const char *label, const struct hdr *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	basic_print_pct(f, label, h);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/*
 * The line from known values.  HdrHistogram's rule: the rank is
 * ceil(p/100 * n) and the answer the highest value equivalent to that
 * value's bucket.  1..100 us: 50 us is in [32768, 65536) ns, 32 ns
 * buckets, so 49984..50015; 90 us and 99 us in 64 ns buckets: 90047 and
 * 99007; p99.9, p99.99 and max are the 100th value, 100031 ns.
 */
START_TEST(pct_line_golden)
{
	struct hdr *h = hdr_new_ns();
	char *s;
	uint64_t i;

	s = pct_line("Empty", NULL);
	ck_assert_str_eq(s, "Empty percentiles [ms]: p50 0.000 p90 0.000 "
	    "p99 0.000 p99.9 0.000 p99.99 0.000 max 0.000\n");
	free(s);
	s = pct_line("Empty", h);
	ck_assert_str_eq(s, "Empty percentiles [ms]: p50 0.000 p90 0.000 "
	    "p99 0.000 p99.9 0.000 p99.99 0.000 max 0.000\n");
	free(s);
	for (i = 1; i <= 100; i++)
		hdr_record(h, i * 1000);
	ck_assert_uint_eq(hdr_value_at_percentile(h, 50.0), 50015);
	s = pct_line("First byte", h);
	ck_assert_str_eq(s, "First byte percentiles [ms]: p50 0.050 "
	    "p90 0.090 p99 0.099 p99.9 0.100 p99.99 0.100 max 0.100\n");
	free(s);
	/* 1.5, 2.5, 3.5, 4.5 ms: ranks 2 and 4; 2048 and 4096 ns buckets. */
	hdr_reset(h);
	hdr_record(h, 1500000);
	hdr_record(h, 2500000);
	hdr_record(h, 3500000);
	hdr_record(h, 4500000);
	s = pct_line("Reply time", h);
	ck_assert_str_eq(s, "Reply time percentiles [ms]: p50 2.501 "
	    "p90 4.502 p99 4.502 p99.9 4.502 p99.99 4.502 max 4.502\n");
	free(s);
	hdr_free(h);
}
END_TEST

/*
 * The collector's lines from the events of one TLS connection with one
 * call in one session: every phase from its own timestamps, in order.
 */
START_TEST(pct_lines_collect)
{
	static const struct basic_config cfg = { .tls = 1, .sessions = 1 };
	struct core core;
	struct basic b;
	struct conn c;
	struct call call;
	struct sess sess;
	union bus_arg arg;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(&core, 0, sizeof(core));
	memset(&c, 0, sizeof(c));
	memset(&call, 0, sizeof(call));
	memset(&sess, 0, sizeof(sess));
	arg.i = 0;
	core.bus = bus_new();
	basic_init(&b, &core, 0, stdout, &cfg);
	sess.t_start = 1000000;			/* ms from here */
	c.t_connect_start = 2000000;
	c.t_tcp_connected = 3000000;		/* connect 1 */
	c.t_connected = 5000000;		/* TLS 2 */
	call.t_send_start = 6000000;
	call.t_send_stop = 6500000;
	call.t_recv_start = 9000000;		/* first byte 3 */
	call.t_recv_stop = 13000000;		/* transfer 4, reply 7 */
	call.status = 200;
	c.nreplies = 1;
	bus_signal(core.bus, BUS_CONN_CONNECTED, &c, arg, 5000000);
	bus_signal(core.bus, BUS_CALL_RECV_START, &call, arg, 9000000);
	bus_signal(core.bus, BUS_CALL_RECV_STOP, &call, arg, 13000000);
	bus_signal(core.bus, BUS_CONN_DESTROYED, &c, arg, 22000000);
	bus_signal(core.bus, BUS_SESS_DESTROYED, &sess, arg, 32000000);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	basic_print_extra(&b, f);
	ck_assert_int_eq(fclose(f), 0);
	/* Within 0.1%: each value's bucket's highest equivalent. */
	ck_assert_str_eq(buf, "\n"
	    "Connection time percentiles [ms]: p50 20.005 p90 20.005 "
	    "p99 20.005 p99.9 20.005 p99.99 20.005 max 20.005\n"
	    "Connect time percentiles [ms]: p50 1.000 p90 1.000 "
	    "p99 1.000 p99.9 1.000 p99.99 1.000 max 1.000\n"
	    "TLS handshake percentiles [ms]: p50 2.001 p90 2.001 "
	    "p99 2.001 p99.9 2.001 p99.99 2.001 max 2.001\n"
	    "First byte percentiles [ms]: p50 3.000 p90 3.000 "
	    "p99 3.000 p99.9 3.000 p99.99 3.000 max 3.000\n"
	    "Transfer time percentiles [ms]: p50 4.002 p90 4.002 "
	    "p99 4.002 p99.9 4.002 p99.99 4.002 max 4.002\n"
	    "Reply time percentiles [ms]: p50 7.000 p90 7.000 "
	    "p99 7.000 p99.9 7.000 p99.99 7.000 max 7.000\n"
	    "Session lifetime percentiles [ms]: p50 31.015 p90 31.015 "
	    "p99 31.015 p99.9 31.015 p99.99 31.015 max 31.015\n");
	free(buf);
	basic_fini(&b);
	bus_free(core.bus);
}
END_TEST

/*
 * The collector from its events: connects signalled in the loop turns
 * `turns' (0-terminated list, so turn numbers start at 1) and bytes read
 * and written; returns its report for 1 s of test.  The caller frees it.
 */
static char *
collect(const long *turns, long in, long out)
{
	struct core core;
	struct basic b;
	union bus_arg arg;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(&core, 0, sizeof(core));
	core.bus = bus_new();
	basic_init(&b, &core, 0, stdout, NULL);
	for (; *turns != 0; turns++) {
		arg.i = *turns;
		bus_signal(core.bus, BUS_CONN_CONNECTING, NULL, arg, 0);
	}
	arg.i = in;
	bus_signal(core.bus, BUS_CONN_BYTES_IN, NULL, arg, 0);
	arg.i = out;
	bus_signal(core.bus, BUS_CONN_BYTES_OUT, NULL, arg, 0);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	basic_print(&b, f, 1000000000, 0, 0);
	ck_assert_int_eq(fclose(f), 0);
	basic_fini(&b);
	bus_free(core.bus);
	return buf;
}

/* The longest run of connects in one loop turn, wherever it is. */
START_TEST(collect_burst)
{
	static const long mid[] = { 3, 5, 5, 5, 5, 6, 9, 9, 0 };
	static const long last[] = { 1, 2, 2, 3, 3, 3, 0 };
	static const long one[] = { 7, 0 };
	static const long none[] = { 0 };
	char *s;

	s = collect(mid, 0, 0);
	ck_assert_str_eq(strtok(s, "\n"), "Maximum connect burst length: 4");
	free(s);
	s = collect(last, 0, 0);
	ck_assert_str_eq(strtok(s, "\n"), "Maximum connect burst length: 3");
	free(s);
	s = collect(one, 0, 0);
	ck_assert_str_eq(strtok(s, "\n"), "Maximum connect burst length: 1");
	free(s);
	s = collect(none, 0, 0);
	ck_assert_str_eq(strtok(s, "\n"), "Maximum connect burst length: 0");
	free(s);
}
END_TEST

/* Net I/O counts every byte read and written, from the events. */
START_TEST(collect_bytes)
{
	static const long none[] = { 0 };
	char *s;

	s = collect(none, 1000000, 24000);
	ck_assert_ptr_nonnull(strstr(s,
	    "\nNet I/O: 1000.0 KB/s (8.2*10^6 bps)\n"));
	ck_assert_ptr_nonnull(strstr(s, "\nTotal: connections 0 "));
	free(s);
}
END_TEST

/*
 * --periodic-stats: upstream's final line of the 200 and 302 replies of
 * the whole run, after the Reply status line and its blank line; the
 * report is otherwise the same, and without the option it has no such
 * line.
 */
START_TEST(collect_periodic)
{
	static const int status[] = { 200, 200, 302, 301, 204, 404, 200 };
	static const struct basic_config on = { .periodic = 1 };
	static const char want[] =
	    "Reply status: 1xx=0 2xx=4 3xx=2 4xx=1 5xx=0\n"
	    "\n"
	    "Periodic stats: 200=3 302=1\n"
	    "\n"
	    "CPU time [s]: ";
	struct core core;
	struct basic b;
	struct call call;
	union bus_arg arg;
	char *buf = NULL, *p;
	size_t len = 0, i;
	int pass;
	FILE *f;

	for (pass = 0; pass < 2; pass++) {
		memset(&core, 0, sizeof(core));
		core.bus = bus_new();
		basic_init(&b, &core, 0, stdout, pass == 0 ? &on : NULL);
		arg.i = 0;
		for (i = 0; i < nitems(status); i++) {
			memset(&call, 0, sizeof(call));
			call.status = status[i];
			call.replied = 1;
			bus_signal(core.bus, BUS_CALL_RECV_STOP, &call, arg, 0);
		}
		f = open_memstream(&buf, &len);
		ck_assert_ptr_nonnull(f);
		basic_print(&b, f, 1000000000, 0, 0);
		ck_assert_int_eq(fclose(f), 0);
		p = strstr(buf, "Reply status: ");
		ck_assert_ptr_nonnull(p);
		if (pass == 0)
			ck_assert_int_eq(strncmp(p, want, strlen(want)), 0);
		else
			ck_assert_ptr_null(strstr(buf, "Periodic"));
		free(buf);
		buf = NULL;
		basic_fini(&b);
		bus_free(core.bus);
	}
}
END_TEST


/* `n' replies, then the reply-rate sample at `now' (a 5 s window). */
static void
sample_after(struct core *core, int n, uint64_t now)
{
	struct call call;
	union bus_arg arg;

	arg.i = 0;
	while (n-- > 0) {
		memset(&call, 0, sizeof(call));
		call.status = 200;
		call.replied = 1;
		bus_signal(core->bus, BUS_CALL_RECV_STOP, &call, arg, now);
	}
	arg.d = 0.2;
	bus_signal(core->bus, BUS_PERF_SAMPLE, NULL, arg, now);
}

/*
 * A --sweep step's collector starts mid-run: the reply-rate sample whose
 * window began before its start counts not (it had only part of one);
 * the next, whole, does.  The whole run's first sample, whose window
 * starts with the run, counts.
 */
START_TEST(collect_sample_window)
{
	struct core core;
	struct basic b;

	memset(&core, 0, sizeof(core));
	core.bus = bus_new();
	basic_init(&b, &core, 0, stdout, NULL);
	basic_collector.start(&b, UINT64_C(7000000000));
	sample_after(&core, 3, UINT64_C(10000000000));
	sample_after(&core, 10, UINT64_C(15000000000));
	ck_assert_uint_eq(b.t.reply_rate.n, 1);
	ck_assert_double_eq_tol(b.t.reply_rate.min, 2.0, 1e-9);
	ck_assert_double_eq_tol(b.t.reply_rate.max, 2.0, 1e-9);
	basic_fini(&b);
	bus_free(core.bus);
	core.bus = bus_new();
	basic_init(&b, &core, 0, stdout, NULL);
	basic_collector.start(&b, UINT64_C(1000000000));
	sample_after(&core, 5, UINT64_C(6000000000));
	ck_assert_uint_eq(b.t.reply_rate.n, 1);
	ck_assert_double_eq_tol(b.t.reply_rate.max, 1.0, 1e-9);
	basic_fini(&b);
	bus_free(core.bus);
	ck_assert_int_eq(basic_sample_whole(UINT64_C(5000000000),
	    UINT64_C(10000000000), 0.2), 1);
	ck_assert_int_eq(basic_sample_whole(UINT64_C(5002000000),
	    UINT64_C(10000000000), 0.2), 0);
	ck_assert_int_eq(basic_sample_whole(UINT64_C(5000000000),
	    UINT64_C(10000000000), 0), 1);
}
END_TEST

static Suite *
stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc;

	tc = tcase_create("basic");
	tcase_add_test(tc, series_math);
	tcase_add_loop_test(tc, err_class, 0, (int)nitems(err_table));
	tcase_add_test(tc, total_replies);
	tcase_add_test(tc, report_golden);
	tcase_add_test(tc, pct_line_golden);
	tcase_add_test(tc, pct_lines_collect);
	tcase_add_test(tc, report_lifetime_bins);
	tcase_add_test(tc, report_lifetime_bins_gap_first);
	tcase_add_test(tc, report_zero);
	tcase_add_test(tc, report_zero_duration);
	tcase_add_test(tc, report_single_lifetime);
	tcase_add_test(tc, collect_burst);
	tcase_add_test(tc, collect_bytes);
	tcase_add_test(tc, collect_periodic);
	tcase_add_test(tc, collect_sample_window);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(stats_suite());
}
