/*
 * --log's records as CSV text (see calllog.h): pure formatting, tested
 * on its own (tests/unit/check_calllog.c).  No printf on the per-call
 * path: numbers are written digit by digit.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "stat/calllog.h"

const char calllog_columns[] =
    "intended_ns,start_ns,connect_ns,tls_ns,sent_ns,first_byte_ns,end_ns,"
    "client,conn,session,call,uri,status,bytes_sent,bytes_received,error,"
    "http_version\n";

/* The bytes of a record but its URI's and its error class's: 14 numbers
   of at most 21 characters, the status, 17 separators, LF. */
#define CALLLOG_FIXED	(14 * 21 + 8 + 17 + 1 + 8)

size_t
calllog_rec_max(const struct calllog_rec *r)
{
	size_t n = CALLLOG_FIXED + 2 + 2 * r->uri_len;

	if (r->err != NULL)
		n += strlen(r->err);
	if (r->version != NULL)
		n += strlen(r->version);
	return n;
}

/* Writes v in decimal at p; returns the end. */
static char *
calllog_u64(char *p, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

/* A time relative to t0, then a comma; nothing but the comma for 0. */
static char *
calllog_time(char *p, uint64_t t, uint64_t t0)
{
	if (t != 0) {
		if (t >= t0)
			p = calllog_u64(p, t - t0);
		else {
			*p++ = '-';
			p = calllog_u64(p, t0 - t);
		}
	}
	*p++ = ',';
	return p;
}

/* An id, then a comma; nothing but the comma for CALLLOG_NONE. */
static char *
calllog_id(char *p, uint64_t id)
{
	if (id != CALLLOG_NONE)
		p = calllog_u64(p, id);
	*p++ = ',';
	return p;
}

/* The URI as one CSV field (RFC 4180), then a comma. */
static char *
calllog_uri(char *p, const char *s, size_t len)
{
	size_t i;

	if (s == NULL) {
		*p++ = ',';
		return p;
	}
	for (i = 0; i < len; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' ||
		    s[i] == '\n')
			break;
	if (i == len) {
		/* Nothing to quote (the common case): one copy. */
		memcpy(p, s, len);
		p += len;
		*p++ = ',';
		return p;
	}
	*p++ = '"';
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = s[i];
	}
	*p++ = '"';
	*p++ = ',';
	return p;
}

/* A text field (no separator in it), then `end'. */
static char *
calllog_text(char *p, const char *s, char end)
{
	size_t n;

	if (s != NULL) {
		n = strlen(s);
		memcpy(p, s, n);
		p += n;
	}
	*p++ = end;
	return p;
}

size_t
calllog_fmt(char *buf, const struct calllog_rec *r, uint64_t t0)
{
	char *p = buf;
	size_t i;

	for (i = 0; i < CALLLOG_NT; i++)
		p = calllog_time(p, r->t[i], t0);
	p = calllog_u64(p, r->client);
	*p++ = ',';
	p = calllog_id(p, r->conn);
	p = calllog_id(p, r->sess);
	p = calllog_id(p, r->call);
	p = calllog_uri(p, r->uri, r->uri_len);
	if (r->status > 0)
		p = calllog_u64(p, (uint64_t)r->status);
	*p++ = ',';
	p = calllog_u64(p, r->bytes_sent);
	*p++ = ',';
	p = calllog_u64(p, r->bytes_recv);
	*p++ = ',';
	p = calllog_text(p, r->err, ',');
	p = calllog_text(p, r->version, '\n');
	return (size_t)(p - buf);
}

size_t
calllog_first_line(char *buf, size_t cap, uint64_t wall_ns)
{
	time_t sec = (time_t)(wall_ns / 1000000000u);
	struct tm tm;
	char date[32];
	int n;

	if (gmtime_r(&sec, &tm) == NULL ||
	    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(date, sizeof(date), "1970-01-01T00:00:00");
	n = snprintf(buf, cap, "# httperf call log v1 start=%s.%09uZ "
	    "start_ns=%llu\n", date, (unsigned)(wall_ns % 1000000000u),
	    (unsigned long long)wall_ns);
	return n < 0 ? 0 : (size_t)n >= cap ? cap - 1 : (size_t)n;
}
