/*
 * stat/calllog_fmt.c: --log's records as CSV.  Exact lines: times from
 * the start, empty fields for what a record lacks, the URI quoted as RFC
 * 4180 says (commas, quotes, CR, LF), nothing written past
 * calllog_rec_max() (the buffers end at a guard page).
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "stat/calllog.h"
#include "unit.h"

#define T0	UINT64_C(1000000000)

/* Formats `r' into a buffer ending at a guard page; returns the line. */
static char *
fmt(struct unit_guard *g, const struct calllog_rec *r, char *out,
    size_t outlen)
{
	size_t max = calllog_rec_max(r), n;
	char *end = unit_guard_map(g, max), *buf = end - max;

	n = calllog_fmt(buf, r, T0);
	ck_assert_uint_le(n, max);
	ck_assert_uint_lt(n, outlen);
	memcpy(out, buf, n);
	out[n] = '\0';
	unit_guard_unmap(g);
	return out;
}

/* A reply's record, every field there. */
static void
rec_full(struct calllog_rec *r, const char *uri)
{
	memset(r, 0, sizeof(*r));
	r->t[CALLLOG_T_INTENDED] = T0 + 5;
	r->t[CALLLOG_T_START] = T0 + 10;
	r->t[CALLLOG_T_CONNECT] = T0 + 20;
	r->t[CALLLOG_T_TLS] = T0 + 30;
	r->t[CALLLOG_T_SENT] = T0 + 40;
	r->t[CALLLOG_T_FIRST] = T0 + 1000000050;
	r->t[CALLLOG_T_END] = T0 + 1000000060;
	r->client = 3;
	r->conn = 7;
	r->sess = 0;
	r->call = 12;
	r->uri = uri;
	r->uri_len = strlen(uri);
	r->status = 200;
	r->bytes_sent = 78;
	r->bytes_recv = 1234;
	r->version = "1.1";
}

START_TEST(test_full)
{
	struct unit_guard g;
	struct calllog_rec r;
	char out[1024];

	rec_full(&r, "/index.html");
	ck_assert_str_eq(fmt(&g, &r, out, sizeof(out)),
	    "5,10,20,30,40,1000000050,1000000060,3,7,0,12,/index.html,200,"
	    "78,1234,,1.1\n");
	/* The header names as many columns. */
	ck_assert_str_eq(calllog_columns, "intended_ns,start_ns,connect_ns,"
	    "tls_ns,sent_ns,first_byte_ns,end_ns,client,conn,session,call,"
	    "uri,status,bytes_sent,bytes_received,error,http_version\n");
}
END_TEST

START_TEST(test_quoting)
{
	struct unit_guard g;
	struct calllog_rec r;
	char out[1024];

	rec_full(&r, "/a,b");
	ck_assert_str_eq(fmt(&g, &r, out, sizeof(out)),
	    "5,10,20,30,40,1000000050,1000000060,3,7,0,12,\"/a,b\",200,"
	    "78,1234,,1.1\n");
	rec_full(&r, "/say\"hi\"");
	ck_assert_str_eq(fmt(&g, &r, out, sizeof(out)),
	    "5,10,20,30,40,1000000050,1000000060,3,7,0,12,"
	    "\"/say\"\"hi\"\"\",200,78,1234,,1.1\n");
	rec_full(&r, "/x\r\ny");
	ck_assert_str_eq(fmt(&g, &r, out, sizeof(out)),
	    "5,10,20,30,40,1000000050,1000000060,3,7,0,12,\"/x\r\ny\",200,"
	    "78,1234,,1.1\n");
	rec_full(&r, "\"");
	ck_assert_str_eq(fmt(&g, &r, out, sizeof(out)),
	    "5,10,20,30,40,1000000050,1000000060,3,7,0,12,\"\"\"\",200,"
	    "78,1234,,1.1\n");
	/* An empty URI is an empty field, not a quoted one. */
	rec_full(&r, "");
	ck_assert_str_eq(fmt(&g, &r, out, sizeof(out)),
	    "5,10,20,30,40,1000000050,1000000060,3,7,0,12,,200,"
	    "78,1234,,1.1\n");
}
END_TEST

/* A connection refused before any call: only its times and id. */
START_TEST(test_empty_fields)
{
	struct unit_guard g;
	struct calllog_rec r;
	char out[1024];

	memset(&r, 0, sizeof(r));
	r.conn = 4;
	r.sess = r.call = CALLLOG_NONE;
	r.t[CALLLOG_T_START] = T0 + 100;
	r.t[CALLLOG_T_END] = T0 + 250;
	r.err = "connrefused";
	r.version = "1.1";
	ck_assert_str_eq(fmt(&g, &r, out, sizeof(out)),
	    ",100,,,,,250,0,4,,,,,0,0,connrefused,1.1\n");
	/* A time at the start itself is 0, not empty; one before it is
	   negative (never from a run, but never wrong either). */
	r.conn = CALLLOG_NONE;
	r.t[CALLLOG_T_START] = T0;
	r.t[CALLLOG_T_INTENDED] = T0 - 7;
	r.err = NULL;
	r.version = NULL;
	ck_assert_str_eq(fmt(&g, &r, out, sizeof(out)),
	    "-7,0,,,,,250,0,,,,,,0,0,,\n");
}
END_TEST

/* The largest record fits its bound: quotes all along, the largest
   numbers. */
START_TEST(test_bound)
{
	struct unit_guard g, ug;
	struct calllog_rec r;
	size_t i, n, max;
	char uri[4096], *u, *end, *buf;

	for (i = 0; i < sizeof(uri); i++)
		uri[i] = '"';
	memset(&r, 0, sizeof(r));
	for (i = 0; i < CALLLOG_NT; i++)
		r.t[i] = 1;		/* before T0: negative */
	r.t[CALLLOG_T_END] = UINT64_MAX;
	r.client = r.conn = r.sess = r.call = UINT64_MAX - 1;
	/* The URI ends at a guard page too: never read past uri_len. */
	u = unit_guard_copy(&ug, uri, sizeof(uri));
	r.uri = u;
	r.uri_len = sizeof(uri);
	r.status = 599;
	r.bytes_sent = r.bytes_recv = UINT64_MAX;
	r.err = "addrunavail";
	r.version = "1.1";
	max = calllog_rec_max(&r);
	end = unit_guard_map(&g, max);
	buf = end - max;
	n = calllog_fmt(buf, &r, T0);
	ck_assert_uint_le(n, max);
	ck_assert_uint_eq(n, 6 * 11 + 21 + 4 * 21 + 2 * 4096 + 3 + 4 +
	    2 * 21 + 12 + 4);
	ck_assert_int_eq(buf[n - 1], '\n');
	unit_guard_unmap(&g);
	unit_guard_unmap(&ug);
}
END_TEST

START_TEST(test_first_line)
{
	char buf[160];
	size_t n;

	n = calllog_first_line(buf, sizeof(buf),
	    UINT64_C(1795755600123456789));
	ck_assert_uint_eq(n, strlen(buf));
	ck_assert_str_eq(buf, "# httperf call log v1 "
	    "start=2026-11-27T05:00:00.123456789Z "
	    "start_ns=1795755600123456789\n");
	n = calllog_first_line(buf, sizeof(buf), 5);
	ck_assert_str_eq(buf, "# httperf call log v1 "
	    "start=1970-01-01T00:00:00.000000005Z start_ns=5\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("calllog");
	TCase *tc = tcase_create("calllog");

	tcase_add_test(tc, test_full);
	tcase_add_test(tc, test_quoting);
	tcase_add_test(tc, test_empty_fields);
	tcase_add_test(tc, test_bound);
	tcase_add_test(tc, test_first_line);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
