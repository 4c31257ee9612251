/*
 * Unit tests for options.c: every option with good and bad values, getopt
 * abbreviations, defaults, combinations that are refused, the --add-header
 * escapes, the files read at parse time (--body-file, --add-header-file),
 * the start-up echo line and the --help/--version texts.  Output streams
 * are captured with open_memstream(3) so the one-line-per-error rule can
 * be checked; files are made in a private temporary directory.
 */
#include "config.h"

#include <sys/stat.h>

#include <check.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/rate.h"
#include "lib/util.h"
#include "opt/options.h"
#include "opt/options_int.h"
#include "unit.h"

#define MAXARGS	40

/* Result of one options_parse() run with its captured streams. */
struct run {
	struct options		 o;
	enum options_status	 st;
	char			*out;
	char			*err;
};

/*
 * Runs options_parse_env() on "httperf" + args (NULL-terminated) with
 * environment `env' (NULL: options_parse(), which has none).
 */
static void
run_parse_env(struct run *r, const char *argv0, const char *const *args,
    char *const *env)
{
	char *argv[MAXARGS + 2];
	FILE *fo, *fe;
	size_t olen, elen;
	int argc = 0;

	argv[argc++] = (char *)(argv0 != NULL ? argv0 : "httperf");
	for (; *args != NULL; args++) {
		ck_assert_int_lt(argc, MAXARGS);
		argv[argc++] = (char *)*args;
	}
	argv[argc] = NULL;
	fo = open_memstream(&r->out, &olen);
	fe = open_memstream(&r->err, &elen);
	ck_assert_ptr_nonnull(fo);
	ck_assert_ptr_nonnull(fe);
	if (env != NULL)
		r->st = options_parse_env(&r->o, argc, argv, env, fo, fe);
	else
		r->st = options_parse(&r->o, argc, argv, fo, fe);
	fclose(fo);
	fclose(fe);
}

static void
run_parse(struct run *r, const char *argv0, const char *const *args)
{
	run_parse_env(r, argv0, args, NULL);
}

static void
run_free(struct run *r)
{
	options_free(&r->o);
	free(r->out);
	free(r->err);
}

static size_t
count_lines(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if (*s == '\n')
			n++;
	return n;
}

/* Returns the echo line for a parsed option set (caller frees). */
static char *
echo_of(const struct options *o)
{
	char *buf;
	size_t len;
	FILE *f;

	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	options_echo(o, f);
	fclose(f);
	return buf;
}

/* ---- Defaults. ---- */

START_TEST(test_defaults)
{
	static const char *const args[] = { NULL };
	struct options i;
	struct run r;
	char *e;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.o.prog, "httperf");
	ck_assert_int_eq(r.o.verbose, 0);
	ck_assert_int_eq(r.o.quiet, 0);
	ck_assert_int_eq(r.o.debug, 0);
	ck_assert_str_eq(r.o.server, "localhost");
	ck_assert_ptr_null(r.o.server_name);
	ck_assert_uint_eq(r.o.port, 80);
	ck_assert_str_eq(r.o.uri, "/");
	ck_assert_ptr_null(r.o.method);
	ck_assert_int_eq(r.o.http_minor, 1);
	ck_assert_int_eq(r.o.no_host_hdr, 0);
	ck_assert_ptr_null(r.o.add_header);
	ck_assert_ptr_null(r.o.add_header_raw);
	ck_assert_uint_eq(r.o.n_add_header, 0);
	ck_assert_uint_eq(r.o.num_conns, 1);
	ck_assert_uint_eq(r.o.num_calls, 1);
	ck_assert_uint_eq(r.o.burst_len, 1);
	ck_assert_int_eq(r.o.rate_given, 0);
	ck_assert(rate_spec_rate(&r.o.rate) == 0.0);
	ck_assert_uint_eq(r.o.client_id, 0);
	ck_assert_uint_eq(r.o.num_clients, 1);
	ck_assert(r.o.runtime == 0.0);
	ck_assert(r.o.timeout == 0.0);
	ck_assert(r.o.think_timeout == 0.0);
	ck_assert_int_eq(r.o.hog, 0);
	ck_assert_int_eq(r.o.close_with_reset, 0);
	ck_assert_uint_eq(r.o.send_buffer, 0);
	ck_assert_uint_eq(r.o.recv_buffer, 0);
	ck_assert_ptr_null(r.o.body);
	ck_assert_ptr_null(r.o.body_raw);
	ck_assert_ptr_null(r.o.body_file);
	ck_assert_uint_eq(r.o.body_len, 0);
	ck_assert_ptr_null(r.o.add_header_file);
	ck_assert_uint_eq(r.o.wsess_n, 0);
	ck_assert_uint_eq(r.o.wsesslog_n, 0);
	ck_assert_ptr_null(r.o.wsesslog_file);
	ck_assert_uint_eq(r.o.max_connections, 0);
	ck_assert_uint_eq(r.o.max_piped, 0);
	ck_assert_int_eq(r.o.session_cookies, 0);
	ck_assert_uint_eq(r.o.failure_status, 0);
	ck_assert_int_eq(r.o.retry_on_failure, 0);
	ck_assert_uint_eq(r.o.max_retries, 3);
	ck_assert_ptr_null(r.o.wlog_file);
	ck_assert_uint_eq(r.o.wset_n, 0);
	ck_assert_int_eq(r.o.print_request, 0);
	ck_assert_int_eq(r.o.print_reply, 0);
	ck_assert_ptr_null(r.o.myaddr);
	ck_assert_uint_eq(r.o.n_myaddr, 0);
	ck_assert_int_eq(r.o.port_given, 0);
	ck_assert_int_eq(r.o.ssl, 0);
	ck_assert_ptr_null(r.o.ssl_ciphers);
	ck_assert_ptr_null(r.o.ssl_ciphersuites);
	ck_assert_int_eq(r.o.ssl_min_version, OPTIONS_TLS_ANY);
	ck_assert_int_eq(r.o.ssl_max_version, OPTIONS_TLS_ANY);
	ck_assert_ptr_null(r.o.ssl_protocol_raw);
	ck_assert_int_eq(r.o.ssl_no_reuse, 0);
	ck_assert_ptr_null(r.o.tls_server_name);
	ck_assert_int_eq(r.o.ssl_verify, 0);
	ck_assert_ptr_null(r.o.ssl_ca_file);
	ck_assert_ptr_null(r.o.ssl_ca_path);
	ck_assert_ptr_null(r.o.ssl_certificate);
	ck_assert_ptr_null(r.o.ssl_key);
	ck_assert_int_eq(options_session(&r.o), 0);
	e = echo_of(&r.o);
	ck_assert_str_eq(e, "httperf --client=0/1 --server=localhost "
	    "--port=80 --uri=/ "
	    "--num-conns=1 --num-calls=1\n");
	free(e);
	run_free(&r);

	/* options_init() alone gives the same defaults. */
	options_init(&i);
	e = echo_of(&i);
	ck_assert_str_eq(e, "httperf --client=0/1 --server=localhost "
	    "--port=80 --uri=/ "
	    "--num-conns=1 --num-calls=1\n");
	free(e);
	options_free(&i);
}
END_TEST

/* ---- Good values: one field checked per row. ---- */

enum field_kind { F_INT, F_UINT, F_ULONG, F_SIZE, F_U64, F_DBL, F_STR };

struct good_case {
	const char	*args[6];
	enum field_kind	 kind;
	size_t		 off;
	uint64_t	 u;
	double		 d;
	const char	*s;
};

#define OFF(f)	offsetof(struct options, f)

static const struct good_case good_cases[] = {
	{ { "--rate=10", "--max-lateness", "2.5", NULL }, F_DBL,
	    OFF(max_lateness), .d = 2.5 },
	{ { "--rate=10", "--max-lateness=0", NULL }, F_DBL,
	    OFF(max_lateness), .d = 0 },
	{ { "--rate=10", "--max-lateness=0", NULL }, F_INT,
	    OFF(max_lateness_given), .u = 1 },
	{ { "--period=e0.1", "--max-lateness=1e12", NULL }, F_DBL,
	    OFF(max_lateness), .d = 1e12 },
	{ { "--rate=10", NULL }, F_INT, OFF(max_lateness_given), .u = 0 },
	/* --call-rate is a schedule, whichever comes first. */
	{ { "--max-lateness=3", "--call-rate=10", "--num-calls=5", NULL },
	    F_DBL, OFF(max_lateness), .d = 3 },
	{ { "--call-rate=10", "--runtime=1", "--max-lateness=0.5", NULL },
	    F_INT, OFF(max_lateness_given), .u = 1 },
	{ { "--burst-length", "4", NULL }, F_U64, OFF(burst_len), .u = 4 },
	{ { "--burst-length=1000000000000000", NULL }, F_U64,
	    OFF(burst_len), .u = OPTIONS_MAX_COUNT },
	{ { "--client", "2/5", NULL }, F_UINT, OFF(client_id), .u = 2 },
	{ { "--client", "2/5", NULL }, F_UINT, OFF(num_clients), .u = 5 },
	{ { "--client=0/1", NULL }, F_UINT, OFF(num_clients), .u = 1 },
	{ { "--client=010/011", NULL }, F_UINT, OFF(client_id), .u = 10 },
	{ { "--close-with-reset", NULL }, F_INT, OFF(close_with_reset),
	    .u = 1 },
	{ { "-d", "3", NULL }, F_INT, OFF(debug), .u = 3 },
	{ { "-d3", NULL }, F_INT, OFF(debug), .u = 3 },
	{ { "--debug", "9", NULL }, F_INT, OFF(debug), .u = 9 },
	{ { "--debug=0", NULL }, F_INT, OFF(debug), .u = 0 },
	{ { "--hog", NULL }, F_INT, OFF(hog), .u = 1 },
	{ { "--hlog", "run.hlog", NULL }, F_STR, OFF(hlog_file),
	    .s = "run.hlog" },
	{ { "--interval", "0.5", NULL }, F_DBL, OFF(interval), .d = 0.5 },
	{ { "--interval=0.001", NULL }, F_DBL, OFF(interval), .d = 0.001 },
	{ { "--interval", "1e9", NULL }, F_DBL, OFF(interval), .d = 1e9 },
	{ { "--periodic-stats", NULL }, F_INT, OFF(periodic_stats), .u = 1 },
	{ { "-n", NULL }, F_INT, OFF(periodic_stats), .u = 1 },
	{ { "-vn", NULL }, F_INT, OFF(periodic_stats), .u = 1 },
	{ { "-nv", NULL }, F_INT, OFF(verbose), .u = 1 },
	{ { "--periodic", NULL }, F_INT, OFF(periodic_stats), .u = 1 },
	{ { "--quiet", NULL }, F_INT, OFF(quiet), .u = 1 },
	{ { "--qu", NULL }, F_INT, OFF(quiet), .u = 1 },
	{ { "--quiet", "--quiet", NULL }, F_INT, OFF(quiet), .u = 1 },
	{ { "--http-version", "1.0", NULL }, F_INT, OFF(http_minor), .u = 0 },
	{ { "--http-version=1.1", NULL }, F_INT, OFF(http_minor), .u = 1 },
	{ { "--method", "HEAD", NULL }, F_STR, OFF(method), .s = "HEAD" },
	{ { "--method=M-SEARCH", NULL }, F_STR, OFF(method),
	    .s = "M-SEARCH" },
	{ { "--no-host-hdr", NULL }, F_INT, OFF(no_host_hdr), .u = 1 },
	{ { "--num-calls", "10", NULL }, F_U64, OFF(num_calls), .u = 10 },
	{ { "--num-conns", "100000", NULL }, F_U64, OFF(num_conns),
	    .u = 100000 },
	{ { "--period", "0.5", NULL }, F_INT, OFF(rate_given), .u = 1 },
	{ { "--period", "0.5", NULL }, F_INT, OFF(rate.dist),
	    .u = RATE_DETERMINISTIC },
	{ { "--period", "0.5", NULL }, F_DBL, OFF(rate.mean_iat), .d = 0.5 },
	{ { "--period=d2", NULL }, F_DBL, OFF(rate.mean_iat), .d = 2 },
	{ { "--period=e0.25", NULL }, F_INT, OFF(rate.dist),
	    .u = RATE_EXPONENTIAL },
	{ { "--period=e0.25", NULL }, F_DBL, OFF(rate.mean_iat), .d = 0.25 },
	{ { "--period=u1,3", NULL }, F_INT, OFF(rate.dist),
	    .u = RATE_UNIFORM },
	{ { "--period=u1,3", NULL }, F_DBL, OFF(rate.min_iat), .d = 1 },
	{ { "--period=u1,3", NULL }, F_DBL, OFF(rate.max_iat), .d = 3 },
	{ { "--period=v1,2,0.5,4", NULL }, F_INT, OFF(rate.dist),
	    .u = RATE_VARIABLE },
	{ { "--period=v1,2,0.5,4", NULL }, F_SIZE, OFF(rate.nvar), .u = 2 },
	{ { "--port", "8080", NULL }, F_UINT, OFF(port), .u = 8080 },
	{ { "--port=1", NULL }, F_UINT, OFF(port), .u = 1 },
	{ { "--port=65535", NULL }, F_UINT, OFF(port), .u = 65535 },
	{ { "--rate", "10", NULL }, F_INT, OFF(rate_given), .u = 1 },
	{ { "--rate", "4", NULL }, F_DBL, OFF(rate.mean_iat), .d = 0.25 },
	{ { "--rate", "0", NULL }, F_DBL, OFF(rate.mean_iat), .d = 0 },
	{ { "--rate", "0", NULL }, F_INT, OFF(rate_given), .u = 1 },
	{ { "--recv-buffer", "65536", NULL }, F_ULONG, OFF(recv_buffer),
	    .u = 65536 },
	{ { "--recv-buffer=2147483647", NULL }, F_ULONG, OFF(recv_buffer),
	    .u = 2147483647 },
	{ { "--runtime", "2.5", NULL }, F_DBL, OFF(runtime), .d = 2.5 },
	{ { "--runtime=0", NULL }, F_DBL, OFF(runtime), .d = 0 },
	{ { "--send-buffer", "1", NULL }, F_ULONG, OFF(send_buffer), .u = 1 },
	{ { "--server", "127.0.0.1", NULL }, F_STR, OFF(server),
	    .s = "127.0.0.1" },
	{ { "--server=::1", NULL }, F_STR, OFF(server), .s = "::1" },
	{ { "--server-name", "example.org", NULL }, F_STR, OFF(server_name),
	    .s = "example.org" },
	{ { "--think-timeout", "1.5", NULL }, F_DBL, OFF(think_timeout),
	    .d = 1.5 },
	{ { "--timeout", "5", NULL }, F_DBL, OFF(timeout), .d = 5 },
	{ { "--timeout=.25", NULL }, F_DBL, OFF(timeout), .d = 0.25 },
	{ { "--uri", "/index.html?a=1&b=2", NULL }, F_STR, OFF(uri),
	    .s = "/index.html?a=1&b=2" },
	{ { "-v", NULL }, F_INT, OFF(verbose), .u = 1 },
	{ { "-v", "--verbose", "-vv", NULL }, F_INT, OFF(verbose), .u = 4 },
	/* Later occurrences win, as with getopt in general. */
	{ { "--port=1", "--port=2", NULL }, F_UINT, OFF(port), .u = 2 },
	{ { "--rate=2", "--period=e1", NULL }, F_INT, OFF(rate.dist),
	    .u = RATE_EXPONENTIAL },
	/* Options and their arguments may be permuted with nothing else. */
	{ { "--timeout", "-0", NULL }, F_DBL, OFF(timeout), .d = 0 },
	/* The longest times the nanosecond clock takes: accepted. */
	{ { "--timeout", "1e9", NULL }, F_DBL, OFF(timeout), .d = 1e9 },
	{ { "--think-timeout", "1000000000", NULL }, F_DBL,
	    OFF(think_timeout), .d = 1e9 },
	{ { "--runtime", "1e9", NULL }, F_DBL, OFF(runtime), .d = 1e9 },
	{ { "--period", "1e9", NULL }, F_DBL, OFF(rate.mean_iat), .d = 1e9 },
	{ { "--period", "v1e9,1e9", NULL }, F_DBL, OFF(rate.mean_iat),
	    .d = 1e9 },
	{ { "--rate", "1e-9", NULL }, F_INT, OFF(rate_given), .u = 1 },
	{ { "--wsess", "1,1,1e9", NULL }, F_DBL, OFF(wsess_think), .d = 1e9 },
	{ { "--wsesslog", "1,1e9,f", NULL }, F_DBL, OFF(wsesslog_think),
	    .d = 1e9 },
	/* Unambiguous abbreviations. */
	{ { "--num-con", "5", NULL }, F_U64, OFF(num_conns), .u = 5 },
	{ { "--num-cal=7", NULL }, F_U64, OFF(num_calls), .u = 7 },
	{ { "--ra", "8", NULL }, F_DBL, OFF(rate.mean_iat), .d = 0.125 },
	{ { "--server-n", "h", NULL }, F_STR, OFF(server_name), .s = "h" },
	{ { "--server", "s", NULL }, F_STR, OFF(server), .s = "s" },
	{ { "--burst", "2", NULL }, F_U64, OFF(burst_len), .u = 2 },
	{ { "--verb", NULL }, F_INT, OFF(verbose), .u = 1 },
	{ { "--ho", NULL }, F_INT, OFF(hog), .u = 1 },
	{ { "--th", "3", NULL }, F_DBL, OFF(think_timeout), .d = 3 },
	/* Sessions. */
	{ { "--wsess", "10,5,2", NULL }, F_U64, OFF(wsess_n), .u = 10 },
	{ { "--wsess", "10,5,2", NULL }, F_U64, OFF(wsess_calls), .u = 5 },
	{ { "--wsess", "10,5,2", NULL }, F_DBL, OFF(wsess_think), .d = 2 },
	{ { "--wsess=1,1,0", NULL }, F_DBL, OFF(wsess_think), .d = 0 },
	{ { "--wsess=010,1,.5", NULL }, F_U64, OFF(wsess_n), .u = 10 },
	{ { "--wsess=010,1,.5", NULL }, F_DBL, OFF(wsess_think), .d = 0.5 },
	{ { "--wsess=1000000000000000,2,1e-3", NULL }, F_U64,
	    OFF(wsess_n), .u = OPTIONS_MAX_COUNT },
	{ { "--wsess=1,1000000000000000,0", NULL }, F_U64,
	    OFF(wsess_calls), .u = OPTIONS_MAX_COUNT },
	{ { "--num-conns=1000000000000000", NULL }, F_U64,
	    OFF(num_conns), .u = OPTIONS_MAX_COUNT },
	{ { "--num-calls=1000000000000000", NULL }, F_U64,
	    OFF(num_calls), .u = OPTIONS_MAX_COUNT },
	{ { "--wsess=3,4,5", "--burst-length=2", NULL }, F_U64,
	    OFF(burst_len), .u = 2 },
	{ { "--wsesslog", "100,1.5,sess.txt", NULL }, F_U64, OFF(wsesslog_n),
	    .u = 100 },
	{ { "--wsesslog", "100,1.5,sess.txt", NULL }, F_DBL,
	    OFF(wsesslog_think), .d = 1.5 },
	{ { "--wsesslog", "100,1.5,sess.txt", NULL }, F_STR,
	    OFF(wsesslog_file), .s = "sess.txt" },
	{ { "--wsesslog=1,0,/tmp/a,b c", NULL }, F_STR, OFF(wsesslog_file),
	    .s = "/tmp/a,b c" },
	{ { "--wsess=1,1,1", "--max-connections", "8", NULL }, F_UINT,
	    OFF(max_connections), .u = 8 },
	{ { "--wsess=1,1,1", "--max-connections=1", NULL }, F_UINT,
	    OFF(max_connections), .u = 1 },
	{ { "--wsess=1,1,1", "--max-piped-calls", "64", NULL }, F_UINT,
	    OFF(max_piped), .u = 64 },
	{ { "--wsesslog=1,0,f", "--max-piped-calls=1", NULL }, F_UINT,
	    OFF(max_piped), .u = 1 },
	{ { "--wsess=1,1,1", "--session-cookies", NULL }, F_INT,
	    OFF(session_cookies), .u = 1 },
	/* The 0.9.0 manual's spelling is a unique abbreviation. */
	{ { "--wsess=1,1,1", "--session-cookie", NULL }, F_INT,
	    OFF(session_cookies), .u = 1 },
	{ { "--session-c", "--wsesslog=1,0,f", NULL }, F_INT,
	    OFF(session_cookies), .u = 1 },
	{ { "--wsess=1,1,1", "--failure-status", "504", NULL }, F_UINT,
	    OFF(failure_status), .u = 504 },
	{ { "--wsess=1,1,1", "--failure-status=100", NULL }, F_UINT,
	    OFF(failure_status), .u = 100 },
	{ { "--wsess=1,1,1", "--failure-status=599", NULL }, F_UINT,
	    OFF(failure_status), .u = 599 },
	{ { "--wsess=1,1,1", "--retry-on-failure", NULL }, F_INT,
	    OFF(retry_on_failure), .u = 1 },
	{ { "--wsess=1,1,1", "--retry", NULL }, F_INT,
	    OFF(retry_on_failure), .u = 1 },
	{ { "--wsess=1,1,1", "--retry", "--max-retries", "0", NULL },
	    F_UINT, OFF(max_retries), .u = 0 },
	{ { "--wsess=1,1,1", "--retry", "--max-retries=1000", NULL },
	    F_UINT, OFF(max_retries), .u = 1000 },
	{ { "--wsesslog=1,0,f", "--retry", "--max-r=7", NULL },
	    F_UINT, OFF(max_retries), .u = 7 },
	{ { "--wsess=1,1,1", "--retry", NULL }, F_UINT, OFF(max_retries),
	    .u = 3 },
	/* URI sources. */
	{ { "--wlog", "y,uris.log", NULL }, F_INT, OFF(wlog_wrap), .u = 1 },
	{ { "--wlog", "Y,uris.log", NULL }, F_INT, OFF(wlog_wrap), .u = 1 },
	{ { "--wlog", "n,uris.log", NULL }, F_INT, OFF(wlog_wrap), .u = 0 },
	{ { "--wlog=N,uris.log", NULL }, F_INT, OFF(wlog_wrap), .u = 0 },
	{ { "--wlog=y,uris.log", NULL }, F_STR, OFF(wlog_file),
	    .s = "uris.log" },
	{ { "--wlog=n,a,b", NULL }, F_STR, OFF(wlog_file), .s = "a,b" },
	{ { "--wlog=y,uris", "--wsess=2,2,0", NULL }, F_U64, OFF(wsess_n),
	    .u = 2 },
	{ { "--wset", "1024,0.25", NULL }, F_U64, OFF(wset_n), .u = 1024 },
	{ { "--wset", "1024,0.25", NULL }, F_DBL, OFF(wset_x), .d = 0.25 },
	{ { "--wset=1,0", NULL }, F_DBL, OFF(wset_x), .d = 0 },
	{ { "--wset=1,1", NULL }, F_DBL, OFF(wset_x), .d = 1 },
	{ { "--wset=15,1.0", "--wsess=1,3,0", NULL }, F_U64, OFF(wset_n),
	    .u = 15 },
	/* Tracing: the argument is optional, so it needs '='. */
	{ { "--print-reply", NULL }, F_INT, OFF(print_reply),
	    .u = OPTIONS_PRINT_HEADER | OPTIONS_PRINT_BODY },
	{ { "--print-reply=header", NULL }, F_INT, OFF(print_reply),
	    .u = OPTIONS_PRINT_HEADER },
	{ { "--print-reply=H", NULL }, F_INT, OFF(print_reply),
	    .u = OPTIONS_PRINT_HEADER },
	{ { "--print-reply=hdr", NULL }, F_INT, OFF(print_reply),
	    .u = OPTIONS_PRINT_HEADER },
	{ { "--print-reply=body", NULL }, F_INT, OFF(print_reply),
	    .u = OPTIONS_PRINT_BODY },
	{ { "--print-reply=Body", NULL }, F_INT, OFF(print_reply),
	    .u = OPTIONS_PRINT_BODY },
	{ { "--print-reply", NULL }, F_INT, OFF(print_request), .u = 0 },
	{ { "--print-request", NULL }, F_INT, OFF(print_request),
	    .u = OPTIONS_PRINT_HEADER | OPTIONS_PRINT_BODY },
	{ { "--print-request=header", NULL }, F_INT, OFF(print_request),
	    .u = OPTIONS_PRINT_HEADER },
	{ { "--print-request=b", NULL }, F_INT, OFF(print_request),
	    .u = OPTIONS_PRINT_BODY },
	{ { "--print-req", NULL }, F_INT, OFF(print_request),
	    .u = OPTIONS_PRINT_HEADER | OPTIONS_PRINT_BODY },
	{ { "--print-rep=h", NULL }, F_INT, OFF(print_reply),
	    .u = OPTIONS_PRINT_HEADER },
	{ { "--print-reply=body", "--print-reply", NULL }, F_INT,
	    OFF(print_reply), .u = OPTIONS_PRINT_HEADER | OPTIONS_PRINT_BODY },
	/* Bodies. */
	{ { "--body", "a=1&b=2", NULL }, F_STR, OFF(body), .s = "a=1&b=2" },
	{ { "--body", "a=1&b=2", NULL }, F_SIZE, OFF(body_len), .u = 7 },
	{ { "--body", "a=1&b=2", NULL }, F_STR, OFF(body_raw),
	    .s = "a=1&b=2" },
	{ { "--body", "x\\n\\101", NULL }, F_STR, OFF(body),
	    .s = "x\r\nA" },
	{ { "--body", "x\\n\\101", NULL }, F_STR, OFF(body_raw),
	    .s = "x\\n\\101" },
	{ { "--body=", NULL }, F_STR, OFF(body), .s = "" },
	{ { "--body=", NULL }, F_SIZE, OFF(body_len), .u = 0 },
	{ { "--body=1", "--body=22", NULL }, F_STR, OFF(body), .s = "22" },
	{ { "--body", "x", "--method", "PUT", NULL }, F_STR, OFF(method),
	    .s = "PUT" },
	/* Source addresses. */
	{ { "--myaddr", "10.0.0.1", NULL }, F_SIZE, OFF(n_myaddr), .u = 1 },
	{ { "--myaddr", "10.0.0.1", "--myaddr=::1", "--myaddr", "h", NULL },
	    F_SIZE, OFF(n_myaddr), .u = 3 },
	{ { "--myaddr=10.0.0.1-10.0.0.1", NULL }, F_SIZE, OFF(n_myaddr),
	    .u = 1 },
	{ { "--myaddr=10.0.0.1-10.0.1.0", NULL }, F_SIZE, OFF(n_myaddr),
	    .u = 1 },
	{ { "--myaddr=fe80::1%eth0", NULL }, F_SIZE, OFF(n_myaddr), .u = 1 },
	{ { "--myaddr=2001:db8::10", NULL }, F_SIZE, OFF(n_myaddr), .u = 1 },
	{ { "--myaddr=::ffff:192.0.2.1", NULL }, F_SIZE, OFF(n_myaddr),
	    .u = 1 },
	{ { "--myaddr=client-1.example.org", NULL }, F_SIZE, OFF(n_myaddr),
	    .u = 1 },
	{ { "--myaddr=localhost", NULL }, F_SIZE, OFF(n_myaddr), .u = 1 },
	{ { "--myaddr=eth0", NULL }, F_SIZE, OFF(n_myaddr), .u = 1 },
	{ { "--my=127.0.0.2", NULL }, F_SIZE, OFF(n_myaddr), .u = 1 },
	/* TLS: --ssl moves the default port, wherever --port stands. */
	{ { "--ssl", NULL }, F_INT, OFF(ssl), .u = 1 },
	{ { "--ssl", NULL }, F_UINT, OFF(port), .u = 443 },
	{ { "--ssl", NULL }, F_INT, OFF(port_given), .u = 0 },
	{ { "--ssl", "--port=8443", NULL }, F_UINT, OFF(port), .u = 8443 },
	{ { "--port=8443", "--ssl", NULL }, F_UINT, OFF(port), .u = 8443 },
	{ { "--port", "80", "--ssl", NULL }, F_UINT, OFF(port), .u = 80 },
	{ { "--port", "80", NULL }, F_INT, OFF(port_given), .u = 1 },
	{ { "--ssl", "--ssl", NULL }, F_INT, OFF(ssl), .u = 1 },
	/* --ssl-protocol: any case, both spellings, implies --ssl. */
	{ { "--ssl-protocol=auto", NULL }, F_INT, OFF(ssl), .u = 1 },
	{ { "--ssl-protocol=auto", NULL }, F_UINT, OFF(port), .u = 443 },
	{ { "--ssl-protocol=AUTO", NULL }, F_INT, OFF(ssl_min_version),
	    .u = OPTIONS_TLS_ANY },
	{ { "--ssl-protocol=Auto", NULL }, F_INT, OFF(ssl_max_version),
	    .u = OPTIONS_TLS_ANY },
	{ { "--ssl-protocol=auto", NULL }, F_STR, OFF(ssl_protocol_raw),
	    .s = "auto" },
	{ { "--ssl-protocol", "TLSv1.2", NULL }, F_INT, OFF(ssl_min_version),
	    .u = OPTIONS_TLS_1_2 },
	{ { "--ssl-protocol", "TLSv1.2", NULL }, F_INT, OFF(ssl_max_version),
	    .u = OPTIONS_TLS_1_2 },
	{ { "--ssl-protocol=tlsv1_2", NULL }, F_INT, OFF(ssl_min_version),
	    .u = OPTIONS_TLS_1_2 },
	{ { "--ssl-protocol=tlsv1_2", NULL }, F_STR, OFF(ssl_protocol_raw),
	    .s = "tlsv1_2" },
	{ { "--ssl-protocol=TLSv1.3", NULL }, F_INT, OFF(ssl_min_version),
	    .u = OPTIONS_TLS_1_3 },
	{ { "--ssl-protocol=TLSV1_3", NULL }, F_INT, OFF(ssl_max_version),
	    .u = OPTIONS_TLS_1_3 },
	{ { "--ssl-protocol=TLSv1", NULL }, F_INT, OFF(ssl_min_version),
	    .u = OPTIONS_TLS_1_0 },
	{ { "--ssl-protocol=tlsv1.0", NULL }, F_INT, OFF(ssl_max_version),
	    .u = OPTIONS_TLS_1_0 },
	{ { "--ssl-protocol=TLSv1_0", NULL }, F_INT, OFF(ssl_min_version),
	    .u = OPTIONS_TLS_1_0 },
	{ { "--ssl-protocol=TLSv1.1", NULL }, F_INT, OFF(ssl_min_version),
	    .u = OPTIONS_TLS_1_1 },
	{ { "--ssl-protocol=TLSv1_1", NULL }, F_INT, OFF(ssl_max_version),
	    .u = OPTIONS_TLS_1_1 },
	{ { "--ssl-protocol=TLSv1.3", "--ssl-protocol=auto", NULL }, F_INT,
	    OFF(ssl_min_version), .u = OPTIONS_TLS_ANY },
	{ { "--ssl-protocol=TLSv1.2", "--port=80", NULL }, F_UINT, OFF(port),
	    .u = 80 },
	{ { "--ssl-p=TLSv1.3", NULL }, F_INT, OFF(ssl_min_version),
	    .u = OPTIONS_TLS_1_3 },
	/* Cipher lists go to the library as they are. */
	{ { "--ssl", "--ssl-ciphers", "ECDHE-RSA-AES128-GCM-SHA256:!aNULL",
	    NULL }, F_STR, OFF(ssl_ciphers),
	    .s = "ECDHE-RSA-AES128-GCM-SHA256:!aNULL" },
	{ { "--ssl-ciphers=HIGH !aNULL", "--ssl", NULL }, F_STR,
	    OFF(ssl_ciphers), .s = "HIGH !aNULL" },
	{ { "--ssl", "--ssl-ciphersuites=TLS_AES_128_GCM_SHA256", NULL },
	    F_STR, OFF(ssl_ciphersuites), .s = "TLS_AES_128_GCM_SHA256" },
	{ { "--ssl-protocol=TLSv1.3", "--ssl-ciphersuites", "X:Y", NULL },
	    F_STR, OFF(ssl_ciphersuites), .s = "X:Y" },
	{ { "--ssl-ciphers", "A", "--ssl-ciphersuites", "B", "--ssl", NULL },
	    F_STR, OFF(ssl_ciphers), .s = "A" },
	/* Session reuse. */
	{ { "--ssl-no-reuse", "--ssl", NULL }, F_INT, OFF(ssl_no_reuse),
	    .u = 1 },
	{ { "--ssl-no", "--ssl", NULL }, F_INT, OFF(ssl_no_reuse), .u = 1 },
	/* The server name: with auto and before --ssl-protocol too. */
	{ { "--ssl", "--tls-server-name", "www.example.org", NULL }, F_STR,
	    OFF(tls_server_name), .s = "www.example.org" },
	{ { "--tls-server-name=a.example", "--ssl-protocol=auto", NULL },
	    F_STR, OFF(tls_server_name), .s = "a.example" },
	{ { "--tls=b.example", "--ssl-protocol=TLSv1.2", NULL }, F_STR,
	    OFF(tls_server_name), .s = "b.example" },
	/* Verification: off unless asked for. */
	{ { "--ssl", NULL }, F_INT, OFF(ssl_verify), .u = 0 },
	{ { "--ssl", "--ssl-verify", NULL }, F_INT, OFF(ssl_verify), .u = 1 },
	{ { "--ssl", "--ssl-verify=yes", NULL }, F_INT, OFF(ssl_verify),
	    .u = 1 },
	{ { "--ssl", "--ssl-verify=Y", NULL }, F_INT, OFF(ssl_verify),
	    .u = 1 },
	{ { "--ssl", "--ssl-verify=no", NULL }, F_INT, OFF(ssl_verify),
	    .u = 0 },
	{ { "--ssl", "--ssl-verify=NO", NULL }, F_INT, OFF(ssl_verify),
	    .u = 0 },
	{ { "--ssl", "--ssl-verify", "--ssl-verify=n", NULL }, F_INT,
	    OFF(ssl_verify), .u = 0 },
	{ { "--ssl-v", "--ssl", NULL }, F_INT, OFF(ssl_verify), .u = 1 },
	/* Files: only named here; trust anchors need no --ssl-verify. */
	{ { "--ssl", "--ssl-ca-file", "/etc/ssl/ca.pem", NULL }, F_STR,
	    OFF(ssl_ca_file), .s = "/etc/ssl/ca.pem" },
	{ { "--ssl", "--ssl-ca-path=/etc/ssl/certs", NULL }, F_STR,
	    OFF(ssl_ca_path), .s = "/etc/ssl/certs" },
	{ { "--ssl", "--ssl-certificate", "c.pem", NULL }, F_STR,
	    OFF(ssl_certificate), .s = "c.pem" },
	{ { "--ssl", "--ssl-cert=c.pem", NULL }, F_STR, OFF(ssl_certificate),
	    .s = "c.pem" },
	{ { "--ssl-key=k.pem", "--ssl-certificate=c.pem", "--ssl", NULL },
	    F_STR, OFF(ssl_key), .s = "k.pem" },
	{ { "--ssl", "--ssl-certificate=both.pem", NULL }, F_STR,
	    OFF(ssl_certificate), .s = "both.pem" },
	{ { "--ssl", "--ssl-ca-file=/nonexistent", NULL }, F_STR,
	    OFF(ssl_ca_file), .s = "/nonexistent" },
	/* --call-rate: the requests' schedule, their total, no --num-conns;
	   --period shapes it at the same mean rate. */
	{ { "--call-rate", "100", "--num-calls", "5", NULL }, F_DBL,
	    OFF(call_rate), .d = 100 },
	{ { "--call-rate", "100", "--num-calls", "5", NULL }, F_DBL,
	    OFF(rate.mean_iat), .d = 0.01 },
	{ { "--call-rate", "100", "--num-calls", "5", NULL }, F_U64,
	    OFF(num_calls), .u = 5 },
	{ { "--call-rate", "100", "--num-calls", "5", NULL }, F_U64,
	    OFF(num_conns), .u = 0 },
	{ { "--call-rate=1e-9", "--runtime=1", NULL }, F_DBL,
	    OFF(call_rate), .d = 1e-9 },
	{ { "--call-rate=1e7", "--runtime=1", NULL }, F_DBL,
	    OFF(rate.mean_iat), .d = 1e-7 },
	{ { "--call-rate=.5", "--runtime=1", NULL }, F_U64, OFF(num_calls),
	    .u = 0 },
	{ { "--period=e0.01", "--call-rate=100", "--num-calls=1", NULL },
	    F_INT, OFF(rate.dist), .u = RATE_EXPONENTIAL },
	{ { "--period=e0.01", "--call-rate=100", "--num-calls=1", NULL },
	    F_DBL, OFF(rate.mean_iat), .d = 0.01 },
	{ { "--call-rate=99.5", "--period=u0,0.02", "--num-calls=1", NULL },
	    F_DBL, OFF(rate.max_iat), .d = 0.02 },
	{ { "--call-rate=10", "--num-calls=1", "--max-connections=7", NULL },
	    F_UINT, OFF(max_connections), .u = 7 },
	{ { "--call-rate=10", "--num-calls=1", "--wlog=n,f", NULL },
	    F_STR, OFF(wlog_file), .s = "f" },
	/* A URL argument: --server, --port, --uri and --ssl from it. */
	{ { "http://example.com:8080/a/b?c=d#top", NULL }, F_STR, OFF(server),
	    .s = "example.com" },
	{ { "http://example.com:8080/a/b?c=d#top", NULL }, F_UINT, OFF(port),
	    .u = 8080 },
	{ { "http://example.com:8080/a/b?c=d#top", NULL }, F_STR, OFF(uri),
	    .s = "/a/b?c=d" },
	{ { "http://example.com:8080/a/b?c=d#top", NULL }, F_INT, OFF(ssl),
	    .u = 0 },
	{ { "https://h", NULL }, F_UINT, OFF(port), .u = 443 },
	{ { "https://h", NULL }, F_INT, OFF(ssl), .u = 1 },
	{ { "https://h", NULL }, F_STR, OFF(uri), .s = "/" },
	{ { "HTTP://h?q", NULL }, F_STR, OFF(uri), .s = "/?q" },
	{ { "HTTP://h?q", NULL }, F_UINT, OFF(port), .u = 80 },
	{ { "http://[::1]:8080", NULL }, F_STR, OFF(server), .s = "::1" },
	{ { "https://[::1]/x", NULL }, F_STR, OFF(server), .s = "::1" },
	{ { "--num-conns", "3", "http://h/", "--rate", "5", NULL }, F_U64,
	    OFF(num_conns), .u = 3 },
	/* What the URL does not give goes with it. */
	{ { "--server-name", "v", "http://h/", NULL }, F_STR,
	    OFF(server_name), .s = "v" },
	{ { "https://h/", "--ssl-verify", NULL }, F_INT, OFF(ssl_verify),
	    .u = 1 },
	{ { "https://h/", "--ssl-protocol", "TLSv1.3", NULL }, F_INT,
	    OFF(ssl_min_version), .u = OPTIONS_TLS_1_3 },
	/* A bare IPv6 address is a host, not HOST:PORT. */
	{ { "--server", "::1", NULL }, F_STR, OFF(server), .s = "::1" },
	{ { "--server", "[::1]", NULL }, F_STR, OFF(server), .s = "[::1]" },
	{ { "--server", "fe80::1:80", NULL }, F_STR, OFF(server),
	    .s = "fe80::1:80" },
	/* --add-header: the missing line end is added (0.9.0 sent none). */
	{ { "--add-header", "Content-Type: application/json", NULL }, F_STR,
	    OFF(add_header), .s = "Content-Type: application/json\r\n" },
	{ { "--add-header", "A: 1\\nB: 2", NULL }, F_STR, OFF(add_header),
	    .s = "A: 1\r\nB: 2\r\n" },
	{ { "--add-header", "A: 1\\r\\a", NULL }, F_STR, OFF(add_header),
	    .s = "A: 1\r\n" },
	{ { "--add-header", "A: 1", "--add-header", "B: 2\\n", NULL }, F_STR,
	    OFF(add_header), .s = "A: 1\r\nB: 2\r\n" },
	{ { "--add-header", "", NULL }, F_SIZE, OFF(add_header_len), .u = 0 },
	/* -n and -d keep their meanings. */
	{ { "-n", "--num-conns", "5", NULL }, F_INT, OFF(periodic_stats),
	    .u = 1 },
	{ { "-n", "http://h/", NULL }, F_INT, OFF(periodic_stats), .u = 1 },
};

START_TEST(test_good)
{
	const struct good_case *g = &good_cases[_i];
	const char *p;
	struct run r;

	run_parse(&r, NULL, g->args);
	ck_assert_msg(r.st == OPTIONS_RUN, "row %d (%s): status %d, err %s",
	    _i, g->args[0], r.st, r.err);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.out, "");
	p = (const char *)&r.o + g->off;
	switch (g->kind) {
	case F_INT:
		ck_assert_int_eq(*(const int *)(const void *)p, (int)g->u);
		break;
	case F_UINT:
		ck_assert_uint_eq(*(const unsigned *)(const void *)p, g->u);
		break;
	case F_ULONG:
		ck_assert_uint_eq(*(const unsigned long *)(const void *)p,
		    g->u);
		break;
	case F_SIZE:
		ck_assert_uint_eq(*(const size_t *)(const void *)p, g->u);
		break;
	case F_U64:
		ck_assert_msg(*(const uint64_t *)(const void *)p == g->u,
		    "row %d: %ju", _i,
		    (uintmax_t)*(const uint64_t *)(const void *)p);
		break;
	case F_DBL:
		ck_assert_double_eq_tol(*(const double *)(const void *)p, g->d,
		    1e-12);
		break;
	case F_STR:
		ck_assert_str_eq(*(const char *const *)(const void *)p, g->s);
		break;
	}
	run_free(&r);
}
END_TEST

/* ---- Bad values: status ERR and exactly one line naming the option. ---- */

struct bad_case {
	const char	*args[6];
	const char	*needle;	/* must appear in the error line */
};

static const struct bad_case bad_cases[] = {
	/* Missing argument. */
	{ { "--rate", NULL }, "--rate: missing argument" },
	{ { "--num-conns", NULL }, "--num-conns: missing argument" },
	{ { "--add-header", NULL }, "--add-header: missing argument" },
	{ { "-d", NULL }, "--debug: missing argument" },
	/* Empty. */
	{ { "--num-conns", "", NULL }, "--num-conns: " },
	{ { "--num-calls=", NULL }, "--num-calls: " },
	{ { "--burst-length", "", NULL }, "--burst-length: " },
	{ { "--port", "", NULL }, "--port: " },
	{ { "--rate", "", NULL }, "--rate: " },
	{ { "--period", "", NULL }, "--period: " },
	{ { "--timeout", "", NULL }, "--timeout: " },
	{ { "--client", "", NULL }, "--client: " },
	{ { "--uri", "", NULL }, "--uri: must not be empty" },
	{ { "--server", "", NULL }, "--server: must not be empty" },
	{ { "--server-name", "", NULL }, "--server-name: must not be empty" },
	{ { "--method", "", NULL }, "--method: must not be empty" },
	{ { "--http-version", "", NULL }, "--http-version: " },
	{ { "-d", "", NULL }, "--debug: " },
	/* Not a number. */
	{ { "--num-conns", "many", NULL }, "--num-conns: not a number" },
	{ { "--num-conns", " 5", NULL }, "--num-conns: not a number" },
	{ { "--num-conns", "+5", NULL }, "--num-conns: not a number" },
	{ { "--port", "http", NULL }, "--port: not a number" },
	{ { "--send-buffer", "big", NULL }, "--send-buffer: not a number" },
	{ { "--recv-buffer", "x1", NULL }, "--recv-buffer: not a number" },
	{ { "--rate", "fast", NULL }, "--rate: not a number" },
	{ { "--rate", "nan", NULL }, "--rate: not a number" },
	{ { "--timeout", "soon", NULL }, "--timeout: not a number" },
	{ { "--think-timeout", " 1", NULL }, "--think-timeout: not a number" },
	{ { "--runtime", "-", NULL }, "--runtime: not a number" },
	{ { "-d", "x", NULL }, "--debug: not a number" },
	{ { "--client", "a/2", NULL }, "--client: not a number" },
	{ { "--client", "1/b", NULL }, "--client: not a number" },
	{ { "--client", "/2", NULL }, "--client: " },
	{ { "--client", "1/", NULL }, "--client: " },
	/* Trailing junk. */
	{ { "--num-calls", "5x", NULL }, "--num-calls: unexpected characters" },
	{ { "--num-conns", "0x10", NULL }, "--num-conns: unexpected" },
	{ { "--port", "80 ", NULL }, "--port: unexpected characters" },
	{ { "--rate", "1.5/s", NULL }, "--rate: unexpected characters" },
	{ { "--runtime", "3m", NULL }, "--runtime: unexpected characters" },
	{ { "--client", "1/2/3", NULL }, "--client: unexpected characters" },
	{ { "-d", "1.5", NULL }, "--debug: unexpected characters" },
	/* Negative. */
	{ { "--num-conns", "-1", NULL }, "--num-conns: must not be negative" },
	{ { "--burst-length", "-2", NULL }, "--burst-length: must not be" },
	{ { "--port", "-80", NULL }, "--port: must not be negative" },
	{ { "--timeout", "-1", NULL }, "--timeout: must not be negative" },
	{ { "--think-timeout", "-0.1", NULL }, "--think-timeout: must not" },
	{ { "--runtime", "-5", NULL }, "--runtime: must not be negative" },
	{ { "--rate", "-5", NULL }, "--rate: must not be negative" },
	{ { "--client", "-1/2", NULL }, "--client: must not be negative" },
	{ { "-d", "-1", NULL }, "--debug: must not be negative" },
	/* Overflow. */
	{ { "--num-conns", "18446744073709551616", NULL },
	    "--num-conns: number too large" },
	{ { "--num-calls", "99999999999999999999999", NULL },
	    "--num-calls: number too large" },
	{ { "--port", "99999999999999999999999", NULL }, "--port: " },
	{ { "--client", "0/4294967296", NULL }, "--client: must be between" },
	{ { "--rate", "1e400", NULL }, "--rate: must be finite" },
	{ { "--timeout", "inf", NULL }, "--timeout: must be finite" },
	/* Times the nanosecond clock cannot hold (it would wrap). */
	{ { "--timeout", "1.8e10", NULL },
	    "--timeout: must be at most 1000000000 seconds ('1.8e10')" },
	{ { "--timeout", "1000000000.5", NULL },
	    "--timeout: must be at most 1000000000 seconds" },
	{ { "--think-timeout", "2e10", NULL },
	    "--think-timeout: must be at most 1000000000 seconds" },
	{ { "--runtime", "1e300", NULL },
	    "--runtime: must be at most 1000000000 seconds" },
	{ { "--wsess", "1,1,2e10", NULL },
	    "--wsess: X: must be at most 1000000000 seconds" },
	{ { "--wsesslog", "1,2e10,f", NULL },
	    "--wsesslog: X: must be at most 1000000000 seconds" },
	{ { "--period", "2e10", NULL },
	    "--period: times must be at most 1000000000 seconds" },
	{ { "--period", "e1e10", NULL },
	    "--period: times must be at most 1000000000 seconds" },
	{ { "--period", "u1,2e10", NULL },
	    "--period: times must be at most 1000000000 seconds" },
	{ { "--period", "v1,1,2e10,1", NULL },
	    "--period: times must be at most 1000000000 seconds" },
	{ { "--period", "v1,2e10", NULL },
	    "--period: times must be at most 1000000000 seconds" },
	{ { "--rate", "1e-10", NULL },
	    "--rate: must be 0 or at least 1e-09" },
	/* Zero where at least one is needed. */
	{ { "--num-conns", "0", NULL }, "--num-conns: must be between 1 and" },
	{ { "--num-calls", "0", NULL }, "--num-calls: must be between 1 and" },
	{ { "--burst-length", "0", NULL }, "--burst-length: must be between 1" },
	/* Out of range. */
	/* Every count has its maximum, 10^15 (OPTIONS_MAX_COUNT). */
#define OVER_MAX "must be between 1 and 1000000000000000"
	{ { "--num-conns", "1000000000000001", NULL },
	    "--num-conns: " OVER_MAX },
	{ { "--num-calls", "18446744073709551615", NULL },
	    "--num-calls: " OVER_MAX },
	{ { "--burst-length", "1000000000000001", NULL },
	    "--burst-length: " OVER_MAX },
	{ { "--wsess", "1000000000000001,1,0", NULL },
	    "--wsess: N1: " OVER_MAX },
	{ { "--wsess", "1,18446744073709551615,0", NULL },
	    "--wsess: N2: " OVER_MAX },
	{ { "--wsesslog", "1000000000000001,0,f", NULL },
	    "--wsesslog: N: " OVER_MAX },
	{ { "--wset", "1000000000000001,0", NULL },
	    "--wset: N: " OVER_MAX },
#undef OVER_MAX
	{ { "--max-streams", "2147483648", "--http2", NULL },
	    "--max-streams: must be between 1 and 2147483647" },
	{ { "--max-streams", "0", "--http2", NULL },
	    "--max-streams: must be between 1 and 2147483647" },
	{ { "--port", "0", NULL }, "--port: must be between 1 and 65535" },
	{ { "--port", "65536", NULL }, "--port: must be between 1 and 65535" },
	{ { "--client", "2/2", NULL }, "--client: client id must be less" },
	{ { "--client", "0/0", NULL }, "--client: number of clients" },
	{ { "--client", "1", NULL }, "--client: expected I/N" },
	{ { "--http-version", "1.2", NULL }, "--http-version: must be 1.0" },
	{ { "--http-version", "3", NULL }, "--http-version: must be 1.0" },
	{ { "--http-version", "1.10", NULL }, "--http-version: must be" },
	{ { "--send-buffer", "0", NULL }, "--send-buffer: must be between" },
	{ { "--recv-buffer", "2147483648", NULL }, "--recv-buffer: must be" },
	{ { "-d", "10", NULL }, "--debug: must be between 0 and 9" },
	/* Strings that would corrupt the request. */
	{ { "--uri", "/a b", NULL }, "--uri: contains a space" },
	{ { "--uri", "/a\r\nX: y", NULL }, "--uri: contains" },
	{ { "--uri", "/a\tb", NULL }, "--uri: contains" },
	{ { "--server", "a b", NULL }, "--server: contains" },
	{ { "--server", "host\n", NULL }, "--server: contains" },
	{ { "--server-name", "h\r", NULL }, "--server-name: contains" },
	{ { "--method", "GE T", NULL }, "--method: not an HTTP token" },
	{ { "--method", "GET\r\n", NULL }, "--method: not an HTTP token" },
	{ { "--method", "G/ET", NULL }, "--method: not an HTTP token" },
	{ { "--method", "G\tT", NULL }, "--method: not an HTTP token" },
	/* --add-header escapes. */
	{ { "--add-header", "X: 1\\", NULL }, "--add-header: " },
	{ { "--add-header", "\\400", NULL }, "--add-header: " },
	/* --period (the message text is rate.c's). */
	{ { "--period", "q1", NULL }, "--period: " },
	{ { "--period", "u1", NULL }, "--period: " },
	{ { "--period", "-1", NULL }, "--period: " },
	/* Unknown options, including those of later releases. */
	{ { "--bogus", NULL }, "--bogus: unknown option" },
	{ { "--bogus=1", NULL }, "--bogus: unknown option" },
	{ { "-x", NULL }, "-x: unknown option" },
	{ { "-vq", NULL }, "-q: unknown option" },
	{ { "--sslv3", NULL }, "--sslv3: unknown option" },
	{ { "--bogus-page=1,2,3", NULL }, "--bogus-page: unknown option" },
	/* --hlog, --interval, --periodic-stats. */
	{ { "--hlog", NULL }, "--hlog: missing argument" },
	{ { "--hlog", "", NULL }, "--hlog: must not be empty" },
	{ { "--interval", NULL }, "--interval: missing argument" },
	{ { "--interval", "", NULL }, "--interval: " },
	{ { "--interval", "x", NULL }, "--interval: not a number" },
	{ { "--interval", "-1", NULL }, "--interval: must not be negative" },
	{ { "--interval", "0", NULL },
	    "--interval: must be at least 0.001 seconds ('0')" },
	{ { "--interval", "0.0009", NULL },
	    "--interval: must be at least 0.001 seconds" },
	{ { "--interval", "1e10", NULL },
	    "--interval: must be at most 1000000000 seconds" },
	{ { "--periodic-stats=1", NULL },
	    "--periodic-stats: takes no argument" },
	{ { "-n1", NULL }, "-n: is --periodic-stats here and takes no "
	    "number" },
	{ { "-n1x", NULL }, "-1: unknown option" },
	{ { "--quiet=1", NULL }, "--quiet: takes no argument" },
	{ { "-q", NULL }, "-q: unknown option" },
	{ { "--session-cookiess", NULL }, "unknown option" },
	/* --wsess N1,N2,X. */
	{ { "--wsess", NULL }, "--wsess: missing argument" },
	{ { "--wsess", "", NULL }, "--wsess: expected N1,N2,X ('')" },
	{ { "--wsess", "10", NULL }, "--wsess: expected N1,N2,X" },
	{ { "--wsess", "10,5", NULL }, "--wsess: expected N1,N2,X" },
	{ { "--wsess", ",5,1", NULL }, "--wsess: N1: empty number" },
	{ { "--wsess", "10,,1", NULL }, "--wsess: N2: empty number" },
	{ { "--wsess", "10,5,", NULL }, "--wsess: X: empty number" },
	{ { "--wsess", "0,5,1", NULL }, "--wsess: N1: must be between 1 and" },
	{ { "--wsess", "10,0,1", NULL }, "--wsess: N2: must be between 1 and" },
	{ { "--wsess", "-1,5,1", NULL }, "--wsess: N1: must not be negative" },
	{ { "--wsess", "1,-5,1", NULL }, "--wsess: N2: must not be negative" },
	{ { "--wsess", "1,5,-1", NULL }, "--wsess: X: must not be negative" },
	{ { "--wsess", "1,5,inf", NULL }, "--wsess: X: must be finite" },
	{ { "--wsess", "1,5,nan", NULL }, "--wsess: X: not a number" },
	{ { "--wsess", "x,5,1", NULL }, "--wsess: N1: not a number" },
	{ { "--wsess", "1x,5,1", NULL }, "--wsess: N1: unexpected" },
	{ { "--wsess", "0x10,5,1", NULL }, "--wsess: N1: unexpected" },
	{ { "--wsess", "1,5.5,1", NULL }, "--wsess: N2: unexpected" },
	{ { "--wsess", "1,5,1s", NULL }, "--wsess: X: unexpected" },
	{ { "--wsess", "1,5,1,2", NULL }, "--wsess: X: unexpected" },
	{ { "--wsess", "1 ,5,1", NULL }, "--wsess: N1: unexpected" },
	{ { "--wsess", "99999999999999999999,5,1", NULL },
	    "--wsess: N1: number too large" },
	/* --wsesslog N,X,F. */
	{ { "--wsesslog", "", NULL }, "--wsesslog: expected N,X,F" },
	{ { "--wsesslog", "10,1", NULL }, "--wsesslog: expected N,X,F" },
	{ { "--wsesslog", "10,1,", NULL }, "--wsesslog: F: must not be empty" },
	{ { "--wsesslog", "0,1,f", NULL }, "--wsesslog: N: must be between 1" },
	{ { "--wsesslog", "-3,1,f", NULL }, "--wsesslog: N: must not be" },
	{ { "--wsesslog", "3,-1,f", NULL }, "--wsesslog: X: must not be" },
	{ { "--wsesslog", "n,1,f", NULL }, "--wsesslog: N: not a number" },
	{ { "--wsesslog", "3,x,f", NULL }, "--wsesslog: X: not a number" },
	{ { "--wsesslog", "3,,f", NULL }, "--wsesslog: X: empty number" },
	/* --max-connections, --max-piped-calls, --failure-status. */
	{ { "--wsess=1,1,1", "--max-connections", "0", NULL },
	    "--max-connections: must be between 1 and" },
	{ { "--wsess=1,1,1", "--max-connections", "-4", NULL },
	    "--max-connections: must not be negative" },
	{ { "--wsess=1,1,1", "--max-connections", "4294967296", NULL },
	    "--max-connections: must be between 1 and 4294967295" },
	{ { "--wsess=1,1,1", "--max-connections", "four", NULL },
	    "--max-connections: not a number" },
	{ { "--wsess=1,1,1", "--max-piped-calls", "0", NULL },
	    "--max-piped-calls: must be between 1 and" },
	{ { "--wsess=1,1,1", "--max-piped-calls", "", NULL },
	    "--max-piped-calls: empty number" },
	{ { "--wsess=1,1,1", "--max-piped-calls", "2x", NULL },
	    "--max-piped-calls: unexpected" },
	{ { "--wsess=1,1,1", "--failure-status", "99", NULL },
	    "--failure-status: must be between 100 and 599" },
	{ { "--wsess=1,1,1", "--failure-status", "600", NULL },
	    "--failure-status: must be between 100 and 599" },
	{ { "--wsess=1,1,1", "--failure-status", "0", NULL },
	    "--failure-status: must be between 100 and 599" },
	{ { "--wsess=1,1,1", "--failure-status", "5xx", NULL },
	    "--failure-status: unexpected" },
	{ { "--wsess=1,1,1", "--failure-status", NULL },
	    "--failure-status: missing argument" },
	{ { "--wsess=1,1,1", "--retry-on-failure=1", NULL },
	    "--retry-on-failure: takes no argument" },
	{ { "--wsess=1,1,1", "--retry", "--max-retries", "1001", NULL },
	    "--max-retries: must be between 0 and 1000" },
	{ { "--wsess=1,1,1", "--retry", "--max-retries", "-1", NULL },
	    "--max-retries: must not be negative" },
	{ { "--wsess=1,1,1", "--retry", "--max-retries", "three", NULL },
	    "--max-retries: not a number" },
	{ { "--wsess=1,1,1", "--retry", "--max-retries=", NULL },
	    "--max-retries: empty number" },
	{ { "--wsess=1,1,1", "--retry", "--max-retries", NULL },
	    "--max-retries: missing argument" },
	{ { "--wsess=1,1,1", "--max-", "3", NULL },
	    "--max-: ambiguous" },
	{ { "--wsess=1,1,1", "--session-cookies=yes", NULL },
	    "--session-cookies: takes no argument" },
	/* --wlog y|n,F. */
	{ { "--wlog", "x,F", NULL }, "--wlog: expected y or n before" },
	{ { "--wlog", "y", NULL }, "--wlog: expected y,F or n,F ('y')" },
	{ { "--wlog", "", NULL }, "--wlog: expected y,F or n,F" },
	{ { "--wlog", "yes,F", NULL }, "--wlog: expected y or n before" },
	{ { "--wlog", ",F", NULL }, "--wlog: expected y or n before" },
	{ { "--wlog", "y,", NULL }, "--wlog: F: must not be empty" },
	{ { "--wlog", "uris.log", NULL }, "--wlog: expected y,F or n,F" },
	/* --wset N,X. */
	{ { "--wset", "", NULL }, "--wset: expected N,X" },
	{ { "--wset", "10", NULL }, "--wset: expected N,X" },
	{ { "--wset", "0,0.5", NULL }, "--wset: N: must be between 1 and" },
	{ { "--wset", "-1,0.5", NULL }, "--wset: N: must not be negative" },
	{ { "--wset", "10,1.5", NULL }, "--wset: X: must be between 0 and 1" },
	{ { "--wset", "10,-0.5", NULL }, "--wset: X: must not be negative" },
	{ { "--wset", "10,x", NULL }, "--wset: X: not a number" },
	{ { "--wset", "10,", NULL }, "--wset: X: empty number" },
	{ { "--wset", "10,0.5,1", NULL }, "--wset: X: unexpected" },
	{ { "--wset", "1e3,0.5", NULL }, "--wset: N: unexpected" },
	/* --print-request, --print-reply. */
	{ { "--print-reply=", NULL },
	    "--print-reply: expected header or body ('')" },
	{ { "--print-reply=all", NULL },
	    "--print-reply: expected header or body ('all')" },
	{ { "--print-reply=yes", NULL }, "--print-reply: expected header" },
	{ { "--print-request=", NULL }, "--print-request: expected header" },
	{ { "--print-request=1", NULL }, "--print-request: expected header" },
	/* 0.9.0 took the word after a space as "print everything". */
	{ { "--print-reply", "header", NULL },
	    "unexpected argument ('header')" },
	{ { "--print-request", "body", NULL },
	    "unexpected argument ('body')" },
	{ { "--print-re", NULL }, "--print-re: ambiguous" },
	{ { "--print", NULL }, "--print: ambiguous" },
	/* TLS. */
	{ { "--ssl=1", NULL }, "--ssl: takes no argument ('1')" },
	{ { "--ssl", "--ssl-no-reuse=yes", NULL },
	    "--ssl-no-reuse: takes no argument" },
	{ { "--ssl", "--ssl-ciphers", NULL }, "--ssl-ciphers: missing" },
	{ { "--ssl", "--ssl-ciphers", "", NULL },
	    "--ssl-ciphers: must not be empty ('')" },
	{ { "--ssl", "--ssl-ciphers", "HIGH\n", NULL },
	    "--ssl-ciphers: contains a control character ('HIGH\\n')" },
	{ { "--ssl", "--ssl-ciphersuites=", NULL },
	    "--ssl-ciphersuites: must not be empty" },
	{ { "--ssl", "--ssl-ciphersuites=A\tB", NULL },
	    "--ssl-ciphersuites: contains a control character" },
	{ { "--ssl", "--ssl-ca-file=", NULL },
	    "--ssl-ca-file: must not be empty" },
	{ { "--ssl", "--ssl-ca-path=", NULL },
	    "--ssl-ca-path: must not be empty" },
	{ { "--ssl", "--ssl-certificate=", NULL },
	    "--ssl-certificate: must not be empty" },
	{ { "--ssl", "--ssl-certificate=c", "--ssl-key=", NULL },
	    "--ssl-key: must not be empty" },
	{ { "--ssl", "--ssl-key", NULL }, "--ssl-key: missing argument" },
	{ { "--ssl", "--tls-server-name=", NULL },
	    "--tls-server-name: must not be empty" },
	{ { "--ssl", "--tls-server-name", "a b", NULL },
	    "--tls-server-name: contains a space or control character" },
	{ { "--ssl", "--tls-server-name", "h\r", NULL },
	    "--tls-server-name: contains" },
	{ { "--ssl-protocol=SSLv3", NULL },
	    "--ssl-protocol: not supported (use TLSv1.0 or later) ('SSLv3')" },
	{ { "--ssl-protocol=sslv2", NULL }, "--ssl-protocol: not supported" },
	{ { "--ssl-protocol=TLSv1.4", NULL }, "--ssl-protocol: expected auto, "
	    "TLSv1.0, TLSv1.1, TLSv1.2 or TLSv1.3 ('TLSv1.4')" },
	{ { "--ssl-protocol=", NULL }, "--ssl-protocol: expected auto" },
	{ { "--ssl-protocol=TLS1.2", NULL }, "--ssl-protocol: expected" },
	{ { "--ssl-protocol=TLSv1.2 ", NULL }, "--ssl-protocol: expected" },
	{ { "--ssl-protocol=TLSv1.", NULL }, "--ssl-protocol: expected" },
	{ { "--ssl-protocol", NULL }, "--ssl-protocol: missing argument" },
	{ { "--ssl", "--ssl-verify=maybe", NULL },
	    "--ssl-verify: expected yes or no ('maybe')" },
	{ { "--ssl", "--ssl-verify=", NULL },
	    "--ssl-verify: expected yes or no ('')" },
	{ { "--ssl", "--ssl-verify=1", NULL }, "--ssl-verify: expected yes" },
	/* The value is optional, so it must be attached. */
	{ { "--ssl", "--ssl-verify", "yes", NULL },
	    "unexpected argument ('yes')" },
	/* TLS options need TLS. */
	{ { "--ssl-ciphers=HIGH", NULL }, "--ssl-ciphers: requires --ssl" },
	{ { "--ssl-ciphersuites=X", NULL },
	    "--ssl-ciphersuites: requires --ssl" },
	{ { "--tls-server-name=h", NULL },
	    "--tls-server-name: requires --ssl" },
	{ { "--ssl-no-reuse", NULL }, "--ssl-no-reuse: requires --ssl" },
	{ { "--ssl-certificate=c", NULL },
	    "--ssl-certificate: requires --ssl" },
	{ { "--ssl-key=k", NULL }, "--ssl-key: requires --ssl" },
	{ { "--ssl-ca-file=f", NULL }, "--ssl-ca-file: requires --ssl" },
	{ { "--ssl-ca-path=d", NULL }, "--ssl-ca-path: requires --ssl" },
	{ { "--ssl-verify", NULL }, "--ssl-verify: requires --ssl" },
	{ { "--ssl-verify=no", NULL }, "--ssl-verify: requires --ssl" },
	{ { "--ssl", "--ssl-key=k", NULL },
	    "--ssl-key: requires --ssl-certificate" },
	{ { "--ssl-key=k", "--ssl-protocol=TLSv1.3", NULL },
	    "--ssl-key: requires --ssl-certificate" },
	/* Abbreviations that name several TLS options. */
	{ { "--ss", NULL }, "--ss: ambiguous" },
	{ { "--ssl-c=x", NULL }, "--ssl-c: ambiguous" },
	{ { "--ssl-ca=x", NULL },
	    "--ssl-ca: ambiguous abbreviation (--ssl-ca-file, --ssl-ca-path)" },
	{ { "--ssl-cipher=x", NULL },
	    "--ssl-cipher: ambiguous abbreviation "
	    "(--ssl-ciphers, --ssl-ciphersuites)" },
	{ { "--t", "1", NULL }, "--t: ambiguous" },
	/* --body and its escapes. */
	{ { "--body", NULL }, "--body: missing argument" },
	{ { "--body", "x\\", NULL }, "--body: ends with a lone backslash" },
	{ { "--body", "\\777", NULL }, "--body: octal escape" },
	/* --body-file, --add-header-file (see also test_files). */
	{ { "--body-file", "", NULL }, "--body-file: must not be empty" },
	{ { "--body-file", "/nonexistent/body", NULL },
	    "--body-file: /nonexistent/body: No such file or directory" },
	{ { "--body-file", "/", NULL }, "--body-file: /: Is a directory" },
	{ { "--add-header-file", "", NULL },
	    "--add-header-file: must not be empty" },
	{ { "--add-header-file", "/nonexistent/h", NULL },
	    "--add-header-file: /nonexistent/h: No such file" },
	/* --myaddr. */
	{ { "--myaddr", "", NULL }, "--myaddr: must not be empty" },
	{ { "--myaddr", "10.0.0.1 ", NULL }, "--myaddr: contains a space" },
	{ { "--myaddr", "a b", NULL }, "--myaddr: contains a space" },
	{ { "--myaddr", "h\tx", NULL }, "--myaddr: contains a space" },
	{ { "--myaddr", "10.0.0.9-10.0.0.1", NULL },
	    "--myaddr: range start is above its end" },
	{ { "--myaddr", "10.0.0.1-10.0.0", NULL },
	    "--myaddr: range end is not an IPv4 address" },
	{ { "--myaddr", "10.0.0.1-", NULL },
	    "--myaddr: range end is not an IPv4 address" },
	{ { "--myaddr", "10.0.0.1-::1", NULL },
	    "--myaddr: range end is not an IPv4 address" },
	{ { "--myaddr", "10.0.0.1-h", NULL },
	    "--myaddr: range end is not an IPv4 address" },
	{ { "--myaddr", "10.0.0.256", NULL },
	    "--myaddr: not an IPv4 address" },
	{ { "--myaddr", "10.0.0", NULL }, "--myaddr: not an IPv4 address" },
	{ { "--myaddr", "1.2.3.4.5", NULL }, "--myaddr: not an IPv4 address" },
	{ { "--myaddr", "::1::2", NULL }, "--myaddr: not an IPv6 address" },
	{ { "--myaddr", "::1-::2", NULL }, "--myaddr: not an IPv6 address" },
	{ { "--myaddr", "fe80::1%", NULL }, "--myaddr: not an IPv6 address" },
	{ { "--myaddr", "-10.0.0.1", NULL }, "--myaddr: not an address" },
	{ { "--myaddr", "host/24", NULL }, "--myaddr: not an address" },
	{ { "--myaddr", "[::1]", NULL }, "--myaddr: not an IPv6 address" },
	/* Combinations that are refused. */
	{ { "--wsess=1,1,1", "--wsesslog=1,0,f", NULL },
	    "--wsess: cannot be used with --wsesslog" },
	{ { "--wsesslog=1,0,f", "--wsess=1,1,1", NULL },
	    "--wsess: cannot be used with --wsesslog" },
	{ { "--wlog=y,u", "--wset=10,0.5", NULL },
	    "--wlog: cannot be used with --wset" },
	{ { "--wsesslog=1,0,f", "--wlog=y,u", NULL },
	    "--wlog: cannot be used with --wsesslog" },
	{ { "--wset=10,0.5", "--wsesslog=1,0,f", NULL },
	    "--wset: cannot be used with --wsesslog" },
	{ { "--wsess=1,1,1", "--num-conns=5", NULL },
	    "--num-conns: does not apply to a session workload (--wsess" },
	{ { "--num-conns=1", "--wsess=1,1,1", NULL },
	    "--num-conns: does not apply to a session workload" },
	{ { "--wsess=1,1,1", "--num-calls=1", NULL },
	    "--num-calls: does not apply to a session workload (--wsess" },
	{ { "--wsesslog=1,0,f", "--num-conns=5", NULL },
	    "--num-conns: does not apply to a session workload (--wsesslog" },
	{ { "--wsesslog=1,0,f", "--num-calls=2", NULL },
	    "--num-calls: does not apply to a session workload (--wsesslog" },
	{ { "--wsesslog=1,0,f", "--burst-length=1", NULL },
	    "--burst-length: does not apply to --wsesslog" },
	{ { "--session-cookies", NULL }, "--session-cookies: requires a "
	    "session workload (--wsess or --wsesslog)" },
	{ { "--session-cookie", NULL }, "--session-cookies: requires a "
	    "session workload" },
	{ { "--max-connections=4", NULL }, "--max-connections: requires a "
	    "session workload (--wsess or --wsesslog) or --call-rate" },
	{ { "--max-connections=4", "--num-conns=2", NULL },
	    "--max-connections: requires a session workload" },
	/* --call-rate. */
	{ { "--call-rate", "0", "--num-calls=1", NULL },
	    "--call-rate: must be between 1e-09 and 1e+07 requests per "
	    "second ('0')" },
	{ { "--call-rate", "2e7", "--num-calls=1", NULL },
	    "--call-rate: must be between" },
	{ { "--call-rate", "-1", NULL }, "--call-rate: " },
	{ { "--call-rate", "x", NULL }, "--call-rate: " },
	{ { "--call-rate", "inf", NULL }, "--call-rate: " },
	{ { "--call-rate", NULL }, "--call-rate: missing argument" },
	{ { "--call-rate=10", NULL }, "--call-rate: requires --num-calls "
	    "(the total of requests) or --runtime" },
	{ { "--call-rate=10", "--rate=10", "--num-calls=1", NULL },
	    "--call-rate: cannot be used with --rate" },
	{ { "--rate=10", "--call-rate=10", "--num-calls=1", NULL },
	    "--call-rate: cannot be used with --rate" },
	{ { "--call-rate=10", "--wsess=1,1,0", NULL },
	    "--call-rate: cannot be used with --wsess" },
	{ { "--call-rate=10", "--wsesslog=1,0,f", NULL },
	    "--call-rate: cannot be used with --wsesslog" },
	{ { "--call-rate=10", "--num-conns=2", "--num-calls=1", NULL },
	    "--num-conns: does not apply to --call-rate (--max-connections "
	    "is its pool, --num-calls the total)" },
	{ { "--call-rate=10", "--burst-length=2", "--num-calls=1", NULL },
	    "--burst-length: does not apply to --call-rate" },
	{ { "--call-rate=10", "--period=e1", "--num-calls=1", NULL },
	    "--period: mean rate 1/s differs from --call-rate 10" },
	{ { "--call-rate=10", "--period=d0", "--num-calls=1", NULL },
	    "--period: must give --call-rate's requests intervals above 0" },
	{ { "--call-rate=10", "--num-calls=1", "--max-piped-calls=2", NULL },
	    "--max-piped-calls: requires a session workload" },
	{ { "--max-piped-calls=4", NULL }, "--max-piped-calls: requires a "
	    "session workload (--wsess or --wsesslog)" },
	{ { "--failure-status=504", NULL }, "--failure-status: requires a "
	    "session workload (--wsess or --wsesslog)" },
	{ { "--retry-on-failure", "--num-conns=3", NULL },
	    "--retry-on-failure: requires a session workload" },
	{ { "--wsess=1,1,1", "--max-retries=3", NULL },
	    "--max-retries: requires --retry-on-failure" },
	{ { "--max-lateness=5", NULL }, "--max-lateness: requires a "
	    "schedule (--rate or --period above 0, or --call-rate)" },
	{ { "--rate=0", "--max-lateness=5", NULL }, "--max-lateness: "
	    "requires a schedule" },
	{ { "--rate=10", "--max-lateness=-1", NULL },
	    "--max-lateness: must not be negative" },
	{ { "--rate=10", "--max-lateness=x", NULL },
	    "--max-lateness: not a number" },
	{ { "--rate=10", "--max-lateness=2e12", NULL },
	    "--max-lateness: must be at most 1000000000000 ms" },
	{ { "--max-retries=3", "--retry-on-failure", NULL },
	    "--retry-on-failure: requires a session workload" },
	{ { "--body=x", "--body-file=/dev/null", NULL },
	    "--body: cannot be used with --body-file" },
	{ { "--body-file=/dev/null", "--body=", NULL },
	    "--body: cannot be used with --body-file" },
	/* Ambiguous abbreviations. */
	{ { "--serv", "x", NULL }, "--serv: ambiguous" },
	{ { "--ver", NULL }, "--ver: ambiguous" },
	{ { "--n", "1", NULL }, "--n: ambiguous" },
	{ { "--num-c=1", NULL }, "--num-c: ambiguous" },
	{ { "--h", NULL }, "--h: ambiguous" },
	/* Exact names still win over longer ones they start. */
	{ { "--add-he=X: 1", NULL }, "--add-he: ambiguous" },
	{ { "--body-f", NULL }, "--body-file: missing argument" },
	{ { "--max", "1", NULL }, "--max: ambiguous" },
	{ { "--ws=1,1,1", NULL }, "--ws: ambiguous" },
	/* Flags given an argument. */
	{ { "--hog=1", NULL }, "--hog: takes no argument" },
	{ { "--verbose=2", NULL }, "--verbose: takes no argument" },
	/* Stray arguments. */
	{ { "foo", NULL }, "unexpected argument ('foo')" },
	{ { "--uri", "/", "extra", NULL }, "unexpected argument ('extra')" },
	{ { "--num-conns", "1", "2", NULL }, "unexpected argument ('2')" },
	{ { "--", "x", NULL }, "unexpected argument ('x')" },
	/* The first mistake wins; nothing after it is looked at. */
	{ { "--port", "0", "--bogus", NULL }, "--port: " },
	{ { "--bogus", "-V", NULL }, "--bogus: unknown option" },
	/* A URL argument and what it cannot go with. */
	{ { "--port", "81", "http://h/", NULL },
	    "--port: cannot be used with a URL argument" },
	{ { "http://h/", "--server", "x", NULL },
	    "--server: cannot be used with a URL argument" },
	{ { "--uri", "/x", "http://h/", NULL },
	    "--uri: cannot be used with a URL argument" },
	{ { "--ssl", "https://h/", NULL },
	    "--ssl: cannot be used with a URL argument" },
	{ { "--ssl", "http://h/", NULL },
	    "--ssl: cannot be used with a URL argument" },
	{ { "--ssl-protocol", "TLSv1.2", "http://h/", NULL },
	    "--ssl-protocol: turns TLS on: use an https:// URL" },
	{ { "--ssl-verify", "http://h/", NULL }, "--ssl-verify: requires" },
	{ { "http://h/", "http://i/", NULL },
	    "unexpected argument (one URL at most) ('http://i/')" },
	{ { "http://h/", "x", NULL }, "unexpected argument" },
	{ { "h/x", NULL }, "unexpected argument ('h/x')" },
	{ { "http://u:p@h/", NULL }, "URL: user information" },
	{ { "ftp://h/", NULL }, "URL: only http:// and https://" },
	{ { "http://h:0/", NULL }, "URL: bad port" },
	{ { "http:///x", NULL }, "URL: no host" },
	{ { "http://h/a b", NULL }, "URL: contains a space" },
	/* --server with a port or a URL: what to write instead. */
	{ { "--server", "host:8080", NULL },
	    "--server: takes a host without a port: use --server host "
	    "--port 8080 ('host:8080')" },
	{ { "--server", "[::1]:8080", NULL },
	    "use --server ::1 --port 8080" },
	{ { "--server", "http://h:81/x", NULL },
	    "--server: takes a host, not a URL: give the URL as an argument" },
	/* wrk, ab and hey options: a hint at httperf's. */
	{ { "-c", "100", NULL },
	    "-c: unknown option; for N connections use --num-conns N" },
	{ { "-c100", NULL }, "use --num-conns N" },
	{ { "-t", "4", NULL }, "-t: unknown option; for a time limit use "
	    "--runtime X" },
	{ { "-H", "Accept: */*", NULL },
	    "-H: unknown option; for a request header use --add-header" },
	{ { "-R", "100", NULL }, "-R: unknown option; for a rate use --rate X" },
	{ { "-n", "1000", NULL }, "-n: is --periodic-stats here and takes no "
	    "number; for N requests use --num-conns N (and --num-calls) "
	    "('1000')" },
	{ { "-n1000", NULL }, "-n: is --periodic-stats here" },
	{ { "-d", "30s", NULL }, "-d: is --debug N (0 to 9) here; for a "
	    "test duration use --runtime X ('30s')" },
	{ { "-d", "1.5m", NULL }, "for a test duration use --runtime X" },
	/* --add-header: a bare CR or LF, an empty line. */
	{ { "--add-header", "A: 1\\rB: 2\\n", NULL },
	    "--add-header: a bare CR" },
	{ { "--add-header", "A: 1\\aB: 2\\n", NULL },
	    "--add-header: a bare LF" },
	{ { "--add-header", "A: 1\\012", NULL }, "--add-header: a bare LF" },
	{ { "--add-header", "A: 1\\r", NULL }, "--add-header: a bare CR" },
	{ { "--add-header", "\\n", NULL },
	    "--add-header: an empty line would end the header" },
	{ { "--add-header", "A: 1\\n\\nB: 2", NULL },
	    "--add-header: an empty line" },
};

START_TEST(test_bad)
{
	const struct bad_case *b = &bad_cases[_i];
	struct run r;

	run_parse(&r, NULL, b->args);
	ck_assert_msg(r.st == OPTIONS_EXIT_ERR, "row %d (%s): status %d",
	    _i, b->args[0], r.st);
	ck_assert_str_eq(r.out, "");
	ck_assert_msg(count_lines(r.err) == 1 &&
	    r.err[strlen(r.err) - 1] == '\n',
	    "row %d (%s): not exactly one line: \"%s\"", _i, b->args[0],
	    r.err);
	ck_assert_msg(strncmp(r.err, "httperf: ", 9) == 0,
	    "row %d: no program name: %s", _i, r.err);
	ck_assert_msg(strstr(r.err, b->needle) != NULL,
	    "row %d: \"%s\" not in \"%s\"", _i, b->needle, r.err);
	run_free(&r);
}
END_TEST

/* The ambiguity message lists the candidates. */
START_TEST(test_ambiguous_lists)
{
	static const char *const args[] = { "--serv", "x", NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_ptr_nonnull(strstr(r.err, "--server,"));
	ck_assert_ptr_nonnull(strstr(r.err, "--server-name"));
	run_free(&r);
}
END_TEST

/* ---- Did you mean: the nearest options to an unknown one. ---- */

static const struct {
	const char	*arg;
	const char	*err;	/* the whole message */
} near_cases[] = {
	/* A whole name with a typo: missing, extra, wrong, swapped. */
	{ "--numconns", "httperf: --numconns: unknown option "
	    "(did you mean --num-conns?)\n" },
	{ "--num-connz=5", "httperf: --num-connz: unknown option "
	    "(did you mean --num-conns?)\n" },
	{ "--timout", "httperf: --timout: unknown option "
	    "(did you mean --timeout?)\n" },
	{ "--versoin", "httperf: --versoin: unknown option "
	    "(did you mean --version?)\n" },
	{ "--ssl-cafile=ca.pem", "httperf: --ssl-cafile: unknown option "
	    "(did you mean --ssl-ca-file?)\n" },
	{ "--Num-Conns", "httperf: --Num-Conns: unknown option "
	    "(did you mean --num-conns?)\n" },
	/* A mistyped abbreviation: near a prefix. */
	{ "--nm-con", "httperf: --nm-con: unknown option "
	    "(did you mean --num-conns?)\n" },
	{ "--prnt-re", "httperf: --prnt-re: unknown option "
	    "(did you mean --print-reply or --print-request?)\n" },
	/* A whole name wins over a prefix just as near. */
	{ "--rte", "httperf: --rte: unknown option (did you mean --rate?)\n" },
	/* Too far, or too short to guess: no hint. */
	{ "--bogus", "httperf: --bogus: unknown option\n" },
	{ "--x", "httperf: --x: unknown option\n" },
	{ "--sslv3", "httperf: --sslv3: unknown option\n" },
	{ "--bogus-page=1,2,3", "httperf: --bogus-page: unknown option\n" },
	{ "--ssl-cipherz-list", "httperf: --ssl-cipherz-list: unknown "
	    "option\n" },
	/* Ambiguous abbreviations list their options, as before. */
	{ "--num-c=1", "httperf: --num-c: ambiguous abbreviation "
	    "(--num-calls, --num-conns)\n" },
	/* The name is escaped, the hint still given. */
	{ "--timeou\001", "httperf: --timeou\\x01: unknown option "
	    "(did you mean --timeout?)\n" },
};

START_TEST(test_did_you_mean)
{
	const char *args[] = { near_cases[_i].arg, NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, near_cases[_i].err);
	run_free(&r);
}
END_TEST

/* The distance: edits, swaps, the prefix mode and the cap. */
START_TEST(test_distance)
{
#define D(a, b, p, cap)	opt_distance(a, strlen(a), b, strlen(b), p, cap)
	ck_assert_uint_eq(D("rate", "rate", 0, 9), 0);
	ck_assert_uint_eq(D("rat", "rate", 0, 9), 1);
	ck_assert_uint_eq(D("rtae", "rate", 0, 9), 1);
	ck_assert_uint_eq(D("rxte", "rate", 0, 9), 1);
	ck_assert_uint_eq(D("", "rate", 0, 9), 4);
	ck_assert_uint_eq(D("rate", "", 0, 9), 4);
	ck_assert_uint_eq(D("kitten", "sitting", 0, 9), 3);
	ck_assert_uint_eq(D("kitten", "sitting", 0, 2), 2);
	ck_assert_uint_eq(D("nm-con", "num-conns", 0, 9), 3);
	ck_assert_uint_eq(D("nm-con", "num-conns", 1, 9), 1);
	ck_assert_uint_eq(D("num", "num-conns", 1, 9), 0);
	/* Longer than any name: never near. */
	ck_assert_uint_eq(D("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a", 0, 7),
	    7);
#undef D
}
END_TEST

/* ---- --add-header: all occurrences kept, in order. ---- */

START_TEST(test_add_header_all)
{
	static const char *const args[] = { "--add-header", "A: 1\\n",
	    "--add-header=B: \\101\\n", NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_str_eq(r.err, "");
	ck_assert_uint_eq(r.o.n_add_header, 2);
	ck_assert_str_eq(r.o.add_header_raw[0], "A: 1\\n");
	ck_assert_str_eq(r.o.add_header_raw[1], "B: \\101\\n");
	ck_assert_uint_eq(r.o.add_header_len, 12);
	ck_assert_str_eq(r.o.add_header, "A: 1\r\nB: A\r\n");
	run_free(&r);
}
END_TEST

/* An unknown escape warns once per occurrence but the run goes on. */
START_TEST(test_add_header_warn)
{
	static const char *const args[] = { "--add-header", "X: \\q\\t\\n",
	    NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_str_eq(r.err,
	    "httperf: --add-header: unknown escape '\\q' kept\n"
	    "httperf: --add-header: unknown escape '\\t' kept\n");
	ck_assert_str_eq(r.o.add_header, "X: qt\r\n");
	run_free(&r);
}
END_TEST

/* ---- options_unescape(). ---- */

struct unescape_case {
	const char	*in;
	const char	*out;		/* NULL: an error is expected */
	size_t		 outlen;
	unsigned	 nwarn;
};

static const struct unescape_case unescape_cases[] = {
	{ "", "", 0, 0 },
	{ "plain text", "plain text", 10, 0 },
	{ "A: 1\\n", "A: 1\r\n", 6, 0 },
	{ "\\r", "\r", 1, 0 },
	{ "\\a", "\n", 1, 0 },
	{ "\\\\", "\\", 1, 0 },
	{ "\\\\n", "\\n", 2, 0 },
	{ "\\101\\102", "AB", 2, 0 },
	{ "\\0", "\0", 1, 0 },
	{ "a\\0b", "a\0b", 3, 0 },
	{ "\\7", "\a", 1, 0 },
	{ "\\12", "\n", 1, 0 },
	{ "\\1012", "A2", 2, 0 },
	{ "\\377", "\377", 1, 0 },
	{ "\\0377", "\0377", 2, 0 },
	{ "\\8", "8", 1, 1 },
	{ "\\q\\t", "qt", 2, 2 },
	{ "X-A: 1\\nX-B: \\101\\102\\n", "X-A: 1\r\nX-B: AB\r\n", 17, 0 },
	{ "\\400", NULL, 0, 0 },
	{ "\\777", NULL, 0, 0 },
	{ "abc\\", NULL, 0, 0 },
	{ "\\", NULL, 0, 0 },
	{ "\\n\\", NULL, 0, 0 },
};

START_TEST(test_unescape)
{
	const struct unescape_case *u = &unescape_cases[_i];
	char errbuf[128] = "", *out = NULL;
	size_t len = 12345;
	unsigned nwarn = 0;
	int rv;

	rv = options_unescape(u->in, &out, &len, &nwarn, errbuf,
	    sizeof(errbuf));
	if (u->out == NULL) {
		ck_assert_msg(rv == -1, "row %d: expected an error", _i);
		ck_assert_msg(errbuf[0] != '\0', "row %d: no message", _i);
		ck_assert_ptr_null(out);
		return;
	}
	ck_assert_msg(rv == 0, "row %d: %s", _i, errbuf);
	ck_assert_uint_eq(len, u->outlen);
	ck_assert_msg(memcmp(out, u->out, len) == 0, "row %d: bytes", _i);
	ck_assert_int_eq(out[len], '\0');
	ck_assert_uint_eq(nwarn, u->nwarn);
	free(out);
}
END_TEST

/* ---- Start-up echo line. ---- */

struct echo_case {
	const char	*argv0;
	const char	*args[32];
	const char	*want;
};

static const struct echo_case echo_cases[] = {
	{ NULL, { "--max-lateness", "2.5", "--rate", "50", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--rate=50 --num-conns=1 "
	    "--num-calls=1 --max-lateness=2.5\n" },
	{ NULL, { NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--num-conns=1 "
	    "--num-calls=1\n" },
	{ "/usr/local/bin/httperf", { "--server", "127.0.0.1", "--port",
	    "18080", "--num-conns", "300", "--rate", "50", "--timeout", "2",
	    "-v", NULL },
	    "httperf --verbose --timeout=2 --client=0/1 --server=127.0.0.1 "
	    "--port=18080 --uri=/ --rate=50 "
	    "--num-conns=300 --num-calls=1\n" },
	{ NULL, { "--period", "0.5", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--rate=2 --num-conns=1 "
	    "--num-calls=1\n" },
	{ NULL, { "--client", "1/2", "--period", "u0.01,0.03", NULL },
	    "httperf --client=1/2 --server=localhost --port=80 --uri=/ "
	    "--period=u0.01,0.03 "
	    "--num-conns=1 --num-calls=1\n" },
	{ NULL, { "--period", "e2", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--period=e2 "
	    "--num-conns=1 --num-calls=1\n" },
	{ NULL, { "--period=v0.1,0.2,0.05,0.2", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--period=v0.1,0.2,0.05,0.2 "
	    "--num-conns=1 --num-calls=1\n" },
	{ NULL, { "--rate", "0", "--http-version", "1.1", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--num-conns=1 "
	    "--num-calls=1\n" },
	{ "./httperf", { "-vv", "--hog", "--close-with-reset",
	    "--think-timeout", "1.5", "--timeout", "3", "--runtime", "60",
	    "--client", "3/4", "--server", "www", "--server-name", "example",
	    "--port", "8080", "--uri", "/x", "--http-version", "1.0",
	    "--send-buffer", "8192", "--recv-buffer", "32768", NULL },
	    "httperf --verbose --hog --close-with-reset --think-timeout=1.5 "
	    "--timeout=3 --runtime=60 --client=3/4 --server=www "
	    "--server-name=example --port=8080 --uri=/x --http-version=1.0 "
	    "--send-buffer=8192 --recv-buffer=32768 --num-conns=1 "
	    "--num-calls=1\n" },
	{ NULL, { "--add-header", "A: 1\\n", "--add-header", "B: 2\\n",
	    "--method", "POST", "--num-conns", "10", "--num-calls", "5",
	    "--burst-length", "2", "--no-host-hdr", "-d", "2", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--add-header='A: 1\\n' "
	    "--add-header='B: 2\\n' --method=POST --num-conns=10 "
	    "--num-calls=5 --burst-length=2\n" },
	{ "httperf", { "--num-conns", "1000000000000000", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--num-conns=1000000000000000 --num-calls=1\n" },
	/* The 0.9.0 manual's session example. */
	{ NULL, { "--hog", "--server=www", "--wsess=10,5,2", "--rate", "1",
	    "--timeout", "5", NULL },
	    "httperf --hog --timeout=5 --client=0/1 --server=www --port=80 "
	    "--uri=/ --rate=1 "
	    "--wsess=10,5,2.000\n" },
	/* Every session option, in the places 0.9.0 printed them. */
	{ NULL, { "--wsess", "100,50,0.5", "--burst-length", "5",
	    "--max-connections", "2", "--max-piped-calls", "8",
	    "--session-cookies", "--failure-status", "504",
	    "--retry-on-failure", "--http-version", "1.0", "--period", "e2",
	    "--add-header", "X: 1\\n", "--method", "POST", "-v", NULL },
	    "httperf --verbose --client=0/1 --server=localhost --port=80 "
	    "--uri=/ --failure-status=504 --http-version=1.0 "
	    "--max-connections=2 --max-piped-calls=8 --period=e2 "
	    "--retry-on-failure "
	    "--session-cookies --add-header='X: 1\\n' --method=POST "
	    "--wsess=100,50,0.500 --burst-length=5\n" },
	/* --max-retries follows --retry-on-failure when not 3. */
	{ NULL, { "--wsess=2,1,0", "--retry-on-failure", "--max-retries=0",
	    NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--retry-on-failure --max-retries=0 "
	    "--wsess=2,1,0.000\n" },
	{ NULL, { "--wsess=2,1,0", "--retry-on-failure", "--max-retries=3",
	    NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--retry-on-failure "
	    "--wsess=2,1,0.000\n" },
	/* --call-rate where --rate goes, --period after it when it shapes
	   it; no --num-conns, and no --num-calls without a total. */
	{ NULL, { "--call-rate", "1000", "--num-calls", "10",
	    "--max-connections", "4", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--max-connections=4 --call-rate=1000 "
	    "--num-calls=10\n" },
	{ NULL, { "--call-rate", "1000", "--num-calls", "10", "--period",
	    "e0.001", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--call-rate=1000 --period=e0.001 "
	    "--num-calls=10\n" },
	{ NULL, { "--call-rate", "50", "--runtime", "5", NULL },
	    "httperf --runtime=5 --client=0/1 --server=localhost --port=80 "
	    "--uri=/ --call-rate=50\n" },
	/* The log's line as 0.9.0 printed it (burst length and wset do not
	   apply to it). */
	{ NULL, { "--server=127.0.0.1", "--port=18080", "--rate=5",
	    "--wsesslog=3,0.1,sess.txt", NULL },
	    "httperf --client=0/1 --server=127.0.0.1 --port=18080 --uri=/ "
	    "--rate=5 "
	    "--wsesslog=3,0.100,sess.txt\n" },
	{ NULL, { "--wsesslog=1000000000000000,0,a,b.txt",
	    "--session-cookies", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--session-cookies "
	    "--wsesslog=1000000000000000,0.000,a,b.txt\n" },
	/* --periodic-stats after the workload, as upstream; --hlog and
	   --interval after everything. */
	{ NULL, { "--interval", "0.25", "-n", "--hlog", "a.hlog", "--wset",
	    "3,0.5", "--body", "x", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--num-conns=1 "
	    "--num-calls=1 --wset=3,0.500 --periodic-stats --body='x' "
	    "--hlog=a.hlog --interval=0.25\n" },
	/* --quiet: echoed as --verbose is, after everything. */
	{ NULL, { "--quiet", "-v", "--max-lateness", "2.5", "--rate", "50",
	    NULL },
	    "httperf --verbose --client=0/1 --server=localhost --port=80 "
	    "--uri=/ --rate=50 "
	    "--num-conns=1 --num-calls=1 --max-lateness=2.5 --quiet\n" },
	/* --wset comes after --burst-length, with or without sessions. */
	{ NULL, { "--uri", "/wset1024", "--wset", "1024,0.25",
	    "--num-conns", "20", "--burst-length", "3", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 "
	    "--uri=/wset1024 "
	    "--num-conns=20 --num-calls=1 --burst-length=3 "
	    "--wset=1024,0.250\n" },
	{ NULL, { "--wset=15,1", "--wsess=4,3,0", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--wsess=4,3,0.000 "
	    "--wset=15,1.000\n" },
	/* Print flags: reply before request, right after --verbose. */
	{ NULL, { "--print-reply", "--print-request", "-v", "--hog", NULL },
	    "httperf --verbose --print-reply --print-request --hog "
	    "--client=0/1 --server=localhost --port=80 --uri=/ "
	    "--num-conns=1 "
	    "--num-calls=1\n" },
	{ NULL, { "--print-request=header", "--print-reply=body", NULL },
	    "httperf --print-reply=body --print-request=header --client=0/1 "
	    "--server=localhost --port=80 --uri=/ "
	    "--num-conns=1 --num-calls=1\n" },
	{ NULL, { "--print-reply=h", NULL },
	    "httperf --print-reply=header --client=0/1 --server=localhost "
	    "--port=80 --uri=/ "
	    "--num-conns=1 --num-calls=1\n" },
	{ NULL, { "--print-request=B", NULL },
	    "httperf --print-request=body --client=0/1 --server=localhost "
	    "--port=80 --uri=/ "
	    "--num-conns=1 --num-calls=1\n" },
	/* What 0.9.0 never echoed goes last, in a fixed order. */
	{ NULL, { "--myaddr", "10.0.0.1-10.0.0.4", "--body", "a=1\\n",
	    "--wlog", "n,uris.log", "--myaddr", "::1", "--num-calls", "2",
	    NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--num-conns=1 "
	    "--num-calls=2 --wlog=n,uris.log --body='a=1\\n' "
	    "--myaddr=10.0.0.1-10.0.0.4 --myaddr=::1\n" },
	{ NULL, { "--wlog=Y,/var/log/u", "--body-file=/dev/null",
	    "--wsess=2,2,1", NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--wsess=2,2,1.000 "
	    "--wlog=y,/var/log/u --body-file=/dev/null\n" },
	{ NULL, { "--add-header-file=/dev/null", "--add-header=A: b\\n",
	    NULL },
	    "httperf --client=0/1 --server=localhost --port=80 --uri=/ "
	    "--add-header='A: b\\n' "
	    "--add-header-file='/dev/null' --num-conns=1 --num-calls=1\n" },
	/* TLS: the default port follows, the pieces go before the headers. */
	{ NULL, { "--ssl", NULL },
	    "httperf --client=0/1 --server=localhost --port=443 --uri=/ "
	    "--ssl --num-conns=1 "
	    "--num-calls=1\n" },
	{ NULL, { "--port=8443", "--ssl", "--ssl-verify=no", NULL },
	    "httperf --client=0/1 --server=localhost --port=8443 --uri=/ "
	    "--ssl --num-conns=1 "
	    "--num-calls=1\n" },
	/* auto is not printed: it is what --ssl alone gives. */
	{ NULL, { "--ssl-protocol=AUTO", NULL },
	    "httperf --client=0/1 --server=localhost --port=443 --uri=/ "
	    "--ssl --num-conns=1 "
	    "--num-calls=1\n" },
	/* A chosen protocol appears under its canonical name. */
	{ NULL, { "--server=192.0.2.7", "--ssl-protocol=tlsv1", NULL },
	    "httperf --client=0/1 --server=192.0.2.7 --port=443 --uri=/ "
	    "--ssl "
	    "--ssl-protocol=TLSv1.0 --num-conns=1 --num-calls=1\n" },
	{ NULL, { "--ssl-protocol=TLSv1.3", "--ssl-protocol=tlsv1_2", NULL },
	    "httperf --client=0/1 --server=localhost --port=443 --uri=/ "
	    "--ssl "
	    "--ssl-protocol=TLSv1.2 --num-conns=1 --num-calls=1\n" },
	/* Every TLS option, in reverse: the echo has its own order. */
	{ NULL, { "--wsess=2,2,1", "--session-cookies", "--method=POST",
	    "--add-header=X: 1\\n", "--ssl-protocol=tlsv1_3",
	    "--ssl-verify", "--ssl-ca-path=/etc/ssl/certs",
	    "--ssl-ca-file=ca.pem", "--ssl-key=k.pem",
	    "--ssl-certificate=c.pem", "--ssl-no-reuse",
	    "--tls-server-name=www.example",
	    "--ssl-ciphersuites=TLS_AES_256_GCM_SHA384",
	    "--ssl-ciphers=HIGH:!aNULL", "--port=8443", NULL },
	    "httperf --client=0/1 --server=localhost --port=8443 --uri=/ "
	    "--session-cookies --ssl "
	    "--ssl-ciphers=HIGH:!aNULL "
	    "--ssl-ciphersuites=TLS_AES_256_GCM_SHA384 "
	    "--tls-server-name=www.example --ssl-no-reuse "
	    "--ssl-certificate=c.pem --ssl-key=k.pem --ssl-ca-file=ca.pem "
	    "--ssl-ca-path=/etc/ssl/certs --ssl-verify "
	    "--ssl-protocol=TLSv1.3 --add-header='X: 1\\n' --method=POST "
	    "--wsess=2,2,1.000\n" },
	/* A URL prints as the options it stands for. */
	{ NULL, { "https://example.com:8443/a?b#c", NULL },
	    "httperf --client=0/1 --server=example.com --port=8443 "
	    "--uri=/a?b --ssl --num-conns=1 --num-calls=1\n" },
	{ NULL, { "http://[::1]/", "--num-conns", "2", NULL },
	    "httperf --client=0/1 --server=::1 --port=80 --uri=/ "
	    "--num-conns=2 --num-calls=1\n" },
};

START_TEST(test_echo)
{
	const struct echo_case *c = &echo_cases[_i];
	struct run r;
	char *e;

	run_parse(&r, c->argv0, c->args);
	ck_assert_msg(r.st == OPTIONS_RUN, "row %d: %s", _i, r.err);
	e = echo_of(&r.o);
	ck_assert_str_eq(e, c->want);
	free(e);
	run_free(&r);
}
END_TEST

/*
 * The TLS part of the echo runs again as it is: parsing the words of the
 * line gives the same options, hence the same line.
 */
START_TEST(test_echo_rerun)
{
	static const char *const args[] = { "--ssl-protocol=TLSv1_2",
	    "--server=www", "--ssl-certificate=c.pem", "--ssl-verify=yes",
	    "--ssl-ca-file=ca.pem", "--tls-server-name=t.example",
	    "--ssl-ciphers=HIGH:!aNULL", "--ssl-ciphersuites=A:B",
	    "--ssl-key=k.pem", "--ssl-no-reuse", "--ssl-ca-path=/c", NULL };
	const char *words[MAXARGS + 1];
	char *e1, *e2, *p;
	size_t n = 0;
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_msg(r.st == OPTIONS_RUN, "%s", r.err);
	e1 = echo_of(&r.o);
	run_free(&r);
	ck_assert_ptr_nonnull(strstr(e1, " --ssl-certificate=c.pem "));
	e1[strlen(e1) - 1] = '\0';
	/* Skip the program name; the rest are single words. */
	for (p = strtok(e1, " "), p = strtok(NULL, " "); p != NULL;
	    p = strtok(NULL, " ")) {
		ck_assert_uint_lt(n, MAXARGS);
		words[n++] = p;
	}
	words[n] = NULL;
	run_parse(&r, NULL, words);
	ck_assert_msg(r.st == OPTIONS_RUN, "%s", r.err);
	ck_assert_int_eq(r.o.ssl_min_version, OPTIONS_TLS_1_2);
	ck_assert_int_eq(r.o.ssl_verify, 1);
	e2 = echo_of(&r.o);
	run_free(&r);
	run_parse(&r, NULL, args);
	free(e1);
	e1 = echo_of(&r.o);
	ck_assert_str_eq(e2, e1);
	run_free(&r);
	free(e1);
	free(e2);
}
END_TEST

START_TEST(test_tls_version_name)
{
	ck_assert_str_eq(options_tls_version_name(OPTIONS_TLS_ANY), "auto");
	ck_assert_str_eq(options_tls_version_name(OPTIONS_TLS_1_0),
	    "TLSv1.0");
	ck_assert_str_eq(options_tls_version_name(OPTIONS_TLS_1_1),
	    "TLSv1.1");
	ck_assert_str_eq(options_tls_version_name(OPTIONS_TLS_1_2),
	    "TLSv1.2");
	ck_assert_str_eq(options_tls_version_name(OPTIONS_TLS_1_3),
	    "TLSv1.3");
	ck_assert_ptr_null(options_tls_version_name(-1));
	ck_assert_ptr_null(options_tls_version_name(OPTIONS_TLS_1_3 + 1));
}
END_TEST

/* ---- --help and --version. ---- */

static const char *const all_long[] = {
	"add-header", "add-header-file", "body", "body-file", "burst-length",
	"call-rate", "client", "close-with-reset", "debug", "failure-status", "help",
	"hlog", "hog", "http-version", "interval", "max-connections", "max-lateness",
	"max-piped-calls",
	"max-retries",
	"method", "myaddr", "no-host-hdr", "num-calls", "num-conns",
	"period", "periodic-stats", "port", "print-reply", "print-request",
	"quiet", "rate",
	"recv-buffer", "retry-on-failure", "runtime", "send-buffer",
	"server", "server-name", "session-cookies", "ssl", "ssl-ca-file",
	"ssl-ca-path", "ssl-certificate", "ssl-ciphers", "ssl-ciphersuites",
	"ssl-key", "ssl-no-reuse", "ssl-protocol", "ssl-verify",
	"think-timeout", "timeout", "tls-server-name", "uri", "verbose",
	"version", "wlog", "wsess", "wsesslog", "wset",
};

static const char *const help_forms[] = { "-h", "--help", "--he", "-vh" };

START_TEST(test_help)
{
	const char *args[] = { help_forms[_i], NULL };
	const char *p, *nl;
	char want[64];
	struct run r;
	size_t i;

	run_parse(&r, "/bin/httperf", args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_OK);
	ck_assert_str_eq(r.err, "");
	ck_assert_msg(strncmp(r.out, "Usage: httperf [-hdnvV] ", 24) == 0,
	    "%s", r.out);
	for (i = 0; i < nitems(all_long); i++) {
		snprintf(want, sizeof(want), "[--%s", all_long[i]);
		ck_assert_msg(strstr(r.out, want) != NULL, "%s missing",
		    all_long[i]);
	}
	/*
	 * The synopsis, up to the first empty line: continuation lines are
	 * tab-indented and fit in 80 columns.  Then every line (tabs
	 * counted as 8 columns) fits in 79.
	 */
	for (p = r.out; *p != '\n'; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		if (p != r.out)
			ck_assert_int_eq(*p, '\t');
		ck_assert_int_le(nl - p + (p != r.out ? 7 : 0), 79);
	}
	for (; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		ck_assert_ptr_null(memchr(p, '\t', (size_t)(nl - p)));
		ck_assert_msg(nl - p <= 79, "too wide: %.*s", (int)(nl - p),
		    p);
	}
	run_free(&r);
}
END_TEST

/*
 * After the synopsis, every option of the table has exactly one row,
 * "      --name..." or "  -c, --name...", under the heading of its
 * group; the headings come in order, each once.
 */
START_TEST(test_help_groups)
{
	char *out, *p, *nl, *row, want[64];
	const char *body;
	size_t i, g, len, n;
	FILE *f;

	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	options_usage("httperf", f);
	fclose(f);
	body = strstr(out, "\n\n");
	ck_assert_ptr_nonnull(body);
	for (i = 0; i < OPT_NOPTS; i++) {
		n = 0;
		row = NULL;
		snprintf(want, sizeof(want), "--%s", opt_table[i].name);
		for (p = strchr(body, '\n') + 1; *p != '\0'; p = nl + 1) {
			nl = strchr(p, '\n');
			if (strncmp(p, "  ", 2) != 0 || p[6] != '-')
				continue;
			if (strncmp(p + 6, want, strlen(want)) == 0 &&
			    strchr(" [\n", p[6 + strlen(want)]) != NULL) {
				n++;
				row = p;
			}
		}
		ck_assert_msg(n == 1, "%s: %zu rows in --help", want, n);
		/* Under its own heading: the last heading before it. */
		for (g = OPT_G_NGROUPS - 1; g > 0; g--) {
			char *h = strstr(body, opt_group_title[g]);

			ck_assert_ptr_nonnull(h);
			if (h < row)
				break;
		}
		ck_assert_msg(g == opt_table[i].group,
		    "%s under group %zu, not %d", want, g,
		    (int)opt_table[i].group);
	}
	for (g = 2; g < OPT_G_NGROUPS; g++)
		ck_assert(strstr(body, opt_group_title[g - 1]) <
		    strstr(body, opt_group_title[g]));
	/* The short options are shown with their long ones. */
	ck_assert_ptr_nonnull(strstr(body, "\n  -d, --debug N "));
	ck_assert_ptr_nonnull(strstr(body, "\n  -h, --help "));
	ck_assert_ptr_nonnull(strstr(body, "\n  -n, --periodic-stats "));
	ck_assert_ptr_nonnull(strstr(body, "\n  -v, --verbose "));
	ck_assert_ptr_nonnull(strstr(body, "\n  -V, --version "));
	/* A long synopsis puts the description on a line of its own. */
	ck_assert_ptr_nonnull(strstr(body, "\n      --print-reply[=header|"
	    "body]\n                            print every reply"));
	ck_assert_ptr_nonnull(strstr(body, "\n      --num-conns N         "
	    "connections in all (default 1)\n"));
	free(out);
}
END_TEST

/* How each kind of argument is shown, and what is not in this release. */
START_TEST(test_help_forms)
{
	static const char *const want[] = {
	    "[--print-reply[=header|body]]", "[--print-request[=header|body]]",
	    "[--wsess N1,N2,X]", "[--wsesslog N,X,F]", "[--wsesspage N1,N2,X]", "[--wlog y|n,F]",
	    "[--wset N,X]", "[--session-cookies]", "[--retry-on-failure]",
	    "[--body-file F]", "[--add-header-file F]", "[--myaddr S]",
	    "[--ssl]", "[--ssl-ciphers L]", "[--ssl-ciphersuites L]",
	    "[--ssl-protocol S]", "[--ssl-verify[=yes|no]]",
	    "[--ssl-ca-path D]", "[--tls-server-name S]",
	    "[--ssl-certificate F]", "[--ssl-no-reuse]", "[--hlog F]",
	    "[--interval S]", "[--periodic-stats]", "[--servers F]",
	    "[--use-timer-cache]" };
	static const char *const later[] = {
	    "--ssl-cert " };
	char *out;
	size_t i, len;
	FILE *f;

	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	options_usage("httperf", f);
	fclose(f);
	for (i = 0; i < nitems(want); i++)
		ck_assert_msg(strstr(out, want[i]) != NULL, "%s", want[i]);
	for (i = 0; i < nitems(later); i++)
		ck_assert_msg(strstr(out, later[i]) == NULL, "%s", later[i]);
	free(out);
}
END_TEST

START_TEST(test_version)
{
	static const char *const args[] = { "-V", "--bogus", NULL };
	static const char *const args2[] = { "--vers", NULL };
	struct run r;

	run_parse(&r, "/opt/bin/httperf", args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_OK);
	ck_assert_str_eq(r.err, "");
	ck_assert_msg(strncmp(r.out, "httperf: httperf-" PACKAGE_VERSION " (",
	    17 + strlen(PACKAGE_VERSION) + 2) == 0, "%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "event backends:"));
	ck_assert_ptr_nonnull(strstr(r.out, " poll"));
#ifdef HAVE_EPOLL_CREATE1
	ck_assert_ptr_nonnull(strstr(r.out, "epoll"));
#endif
#ifdef HAVE_LIBURING
	ck_assert_ptr_nonnull(strstr(r.out, " poll io_uring)\n"));
#else
	ck_assert_ptr_nonnull(strstr(r.out, " poll)\n"));
#endif
	ck_assert_uint_eq(count_lines(r.out), 1);
	run_free(&r);

	run_parse(&r, NULL, args2);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_OK);
	ck_assert_ptr_nonnull(strstr(r.out, "httperf-"));
	run_free(&r);
}
END_TEST

/* ---- Re-entrancy and program name. ---- */

START_TEST(test_reentrant)
{
	static const char *const bad[] = { "-v", "--port", "0", NULL };
	static const char *const good[] = { "--num-conns", "7", "x", NULL };
	static const char *const good2[] = { "--num-conns", "7", NULL };
	struct run r;
	int k;

	for (k = 0; k < 3; k++) {
		run_parse(&r, NULL, bad);
		ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
		run_free(&r);
		run_parse(&r, NULL, good);
		ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
		run_free(&r);
		run_parse(&r, NULL, good2);
		ck_assert_int_eq(r.st, OPTIONS_RUN);
		ck_assert_uint_eq(r.o.num_conns, 7);
		ck_assert_int_eq(r.o.verbose, 0);
		run_free(&r);
	}
}
END_TEST

START_TEST(test_prog_name)
{
	static const char *const args[] = { "--bogus", NULL };
	struct run r;

	run_parse(&r, "/some/where/hp", args);
	ck_assert_str_eq(r.err, "hp: --bogus: unknown option\n");
	run_free(&r);
}
END_TEST

/* Control characters in a bad value are escaped: still one line. */
START_TEST(test_error_escapes_value)
{
	static const char *const args[] = { "--port", "8\n0", NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_str_eq(r.err, "httperf: --port: unexpected characters "
	    "after the number ('8\\n0')\n");
	run_free(&r);
}
END_TEST

/* ---- Files read at parse time. ---- */

/* A private directory per test (Check forks, so each test has its own). */
static char	 tmp_dir[64];
static char	 tmp_paths[16][96];
static size_t	 tmp_n;

static void
files_setup(void)
{
	snprintf(tmp_dir, sizeof(tmp_dir), "%s", "/tmp/check_options.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp_dir));
	tmp_n = 0;
}

static void
files_teardown(void)
{
	size_t i;

	for (i = 0; i < tmp_n; i++)
		(void)unlink(tmp_paths[i]);
	(void)rmdir(tmp_dir);
}

/* Creates `name' in the test directory with `len' bytes; returns its path. */
static const char *
tmp_file(const char *name, const void *data, size_t len)
{
	char *path;
	FILE *f;

	ck_assert_uint_lt(tmp_n, nitems(tmp_paths));
	path = tmp_paths[tmp_n++];
	snprintf(path, sizeof(tmp_paths[0]), "%s/%s", tmp_dir, name);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* A large binary body, NULs included, arrives byte for byte. */
START_TEST(test_body_file)
{
	const char *args[] = { "--body-file", NULL, "--method=PUT", NULL };
	unsigned char *data;
	size_t i, n = 100003;
	struct run r;
	char *e, want[160];

	data = malloc(n);
	ck_assert_ptr_nonnull(data);
	for (i = 0; i < n; i++)
		data[i] = (unsigned char)(i * 7);
	args[1] = tmp_file("body.bin", data, n);
	run_parse(&r, NULL, args);
	ck_assert_msg(r.st == OPTIONS_RUN, "%s", r.err);
	ck_assert_str_eq(r.err, "");
	ck_assert_uint_eq(r.o.body_len, n);
	ck_assert(memcmp(r.o.body, data, n) == 0);
	ck_assert_str_eq(r.o.body_file, args[1]);
	ck_assert_ptr_null(r.o.body_raw);
	e = echo_of(&r.o);
	snprintf(want, sizeof(want), " --method=PUT --num-conns=1 "
	    "--num-calls=1 --body-file=%s\n", args[1]);
	ck_assert_msg(strstr(e, want) != NULL, "%s", e);
	free(e);
	run_free(&r);
	free(data);
}
END_TEST

/* An empty file is an empty body (Content-Length: 0), not no body. */
START_TEST(test_body_file_empty)
{
	const char *args[] = { "--body-file", NULL, NULL };
	struct run r;

	args[1] = tmp_file("empty", "", 0);
	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_ptr_nonnull(r.o.body);
	ck_assert_uint_eq(r.o.body_len, 0);
	run_free(&r);
}
END_TEST

/* The file's name and the system's reason, on one line. */
START_TEST(test_body_file_errors)
{
	static const char *const missing[] = { "--body-file",
	    "/nonexistent/b", NULL };
	const char *args[] = { "--body-file", NULL, NULL };
	char want[256];
	struct run r;

	run_parse(&r, NULL, missing);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_str_eq(r.err, "httperf: --body-file: /nonexistent/b: "
	    "No such file or directory\n");
	run_free(&r);

	if (geteuid() == 0)	/* root reads everything */
		return;
	args[1] = tmp_file("secret", "x", 1);
	ck_assert_int_eq(chmod(args[1], 0), 0);
	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	snprintf(want, sizeof(want), "httperf: --body-file: %s: %s\n",
	    args[1], strerror(EACCES));
	ck_assert_str_eq(r.err, want);
	run_free(&r);
}
END_TEST

/* --body: an unknown escape warns under its own name. */
START_TEST(test_body_warn)
{
	static const char *const args[] = { "--body", "a\\qb\\n", NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_str_eq(r.err, "httperf: --body: unknown escape '\\q' "
	    "kept\n");
	ck_assert_uint_eq(r.o.body_len, 5);
	ck_assert_str_eq(r.o.body, "aqb\r\n");
	ck_assert_str_eq(r.o.body_raw, "a\\qb\\n");
	run_free(&r);
}
END_TEST

/*
 * --add-header-file: LF or CR LF endings, blank lines skipped, no final
 * line end needed, always after every --add-header whatever the order.
 */
START_TEST(test_header_file)
{
	static const char text[] = "A: 1\nB: 2\r\n\n\r\nC:\t3";
	const char *args[] = { "--add-header-file", NULL, "--add-header",
	    "X: 0\\n", NULL };
	struct run r;

	args[1] = tmp_file("hdrs", text, sizeof(text) - 1);
	run_parse(&r, NULL, args);
	ck_assert_msg(r.st == OPTIONS_RUN, "%s", r.err);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.o.add_header, "X: 0\r\nA: 1\r\nB: 2\r\nC:\t3\r\n");
	ck_assert_uint_eq(r.o.add_header_len, strlen(r.o.add_header));
	ck_assert_str_eq(r.o.add_header_file, args[1]);
	ck_assert_uint_eq(r.o.n_add_header, 1);
	run_free(&r);
}
END_TEST

/* The last --add-header-file counts; an empty one adds nothing. */
START_TEST(test_header_file_last_and_empty)
{
	const char *args[] = { "--add-header-file", NULL,
	    "--add-header-file", NULL, NULL };
	struct run r;

	args[1] = tmp_file("first", "A: 1\n", 5);
	args[3] = tmp_file("blank", "\n\r\n\n", 4);
	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_ptr_null(r.o.add_header);
	ck_assert_uint_eq(r.o.add_header_len, 0);
	ck_assert_str_eq(r.o.add_header_file, args[3]);
	run_free(&r);

	args[3] = tmp_file("second", "B: 2\n", 5);
	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_str_eq(r.o.add_header, "B: 2\r\n");
	run_free(&r);
}
END_TEST

struct hdr_bad_case {
	const char	*text;
	const char	*want;		/* the error after "PATH: " */
};

static const struct hdr_bad_case hdr_bad_cases[] = {
	{ "A: 1\nbogus\n", "line 2: not a header line, expected Name: value "
	    "('bogus')\n" },
	{ ": x\n", "line 1: not a header line, expected Name: value "
	    "(': x')\n" },
	{ "A B: x\r\n", "line 1: not a header line, expected Name: value "
	    "('A B: x')\n" },
	{ " A: folded\n", "line 1: not a header line, expected Name: value "
	    "(' A: folded')\n" },
	{ "\n\nA: 1\001\n", "line 3: control character in the value "
	    "('A: 1\\x01')\n" },
	{ "A: x\rB: y\n", "line 1: control character in the value "
	    "('A: x\\rB: y')\n" },
	{ "A: x\n\nno colon", "line 3: not a header line, expected Name: "
	    "value ('no colon')\n" },
};

START_TEST(test_header_file_bad)
{
	const struct hdr_bad_case *h = &hdr_bad_cases[_i];
	const char *args[] = { "--add-header-file", NULL, NULL };
	char want[256];
	struct run r;

	args[1] = tmp_file("bad", h->text, strlen(h->text));
	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	snprintf(want, sizeof(want), "httperf: --add-header-file: %s: %s",
	    args[1], h->want);
	ck_assert_str_eq(r.err, want);
	run_free(&r);
}
END_TEST

/* ---- Sessions, addresses. ---- */

START_TEST(test_session_helper)
{
	static const char *const wsess[] = { "--wsess=1,1,1", NULL };
	static const char *const wsesslog[] = { "--wsesslog=1,1,f", NULL };
	static const char *const conns[] = { "--num-conns=9", "--wset=2,0",
	    NULL };
	struct run r;

	run_parse(&r, NULL, wsess);
	ck_assert(options_session(&r.o));
	run_free(&r);
	run_parse(&r, NULL, wsesslog);
	ck_assert(options_session(&r.o));
	run_free(&r);
	run_parse(&r, NULL, conns);
	ck_assert(!options_session(&r.o));
	run_free(&r);
}
END_TEST

/* Every --myaddr is kept as typed, in order. */
START_TEST(test_myaddr_all)
{
	static const char *const args[] = { "--myaddr", "192.0.2.1-192.0.2.9",
	    "--myaddr=2001:db8::1", "--myaddr", "client.example", NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_uint_eq(r.o.n_myaddr, 3);
	ck_assert_str_eq(r.o.myaddr[0], "192.0.2.1-192.0.2.9");
	ck_assert_str_eq(r.o.myaddr[1], "2001:db8::1");
	ck_assert_str_eq(r.o.myaddr[2], "client.example");
	run_free(&r);
}
END_TEST

/* The first TLS option without --ssl is named, and only it. */
START_TEST(test_tls_conflict_once)
{
	static const char *const args[] = { "--ssl-key=k", "--ssl-verify",
	    "--ssl-ciphers=x", NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "httperf: --ssl-ciphers: requires --ssl\n");
	run_free(&r);
}
END_TEST

/* A refused combination is reported whatever the order, once. */
START_TEST(test_conflict_once)
{
	static const char *const args[] = { "--session-cookies",
	    "--failure-status=500", "--body=x", "--body-file=/dev/null",
	    NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_str_eq(r.err, "httperf: --session-cookies: requires a "
	    "session workload (--wsess or --wsesslog)\n");
	run_free(&r);
}
END_TEST

/* ---- The option table itself. ---- */

/* The largest value a field of C type `t' holds (0: not an integer). */
static uint64_t
type_max(enum opt_type t)
{
	switch (t) {
	case OPT_T_INT:
		return INT_MAX;
	case OPT_T_UINT:
		return UINT_MAX;
	case OPT_T_ULONG:
		return ULONG_MAX;
	case OPT_T_ULLONG:
		return ULLONG_MAX;
	default:
		return 0;
	}
}

/* Checks that a value's kind, field type and bounds agree. */
static void
check_val(const char *name, const struct opt_val *v)
{
	switch (v->kind) {
	case OPT_K_FLAG:
	case OPT_K_COUNT:
		ck_assert_msg(v->type == OPT_T_INT, "--%s: not an int", name);
		break;
	case OPT_K_UINT:
		ck_assert_msg(type_max(v->type) > 0 &&
		    v->max <= type_max(v->type) && v->min <= v->max,
		    "--%s: bounds do not fit the field", name);
		break;
	case OPT_K_SECONDS:
	case OPT_K_RATIO:
		ck_assert_msg(v->type == OPT_T_DOUBLE, "--%s: not a double",
		    name);
		break;
	case OPT_K_WORD:
	case OPT_K_TOKEN:
	case OPT_K_TEXT:
	case OPT_K_PATH:
		ck_assert_msg(v->type == OPT_T_STR, "--%s: not a string",
		    name);
		break;
	default:
		ck_abort_msg("--%s: kind %d inside a value", name,
		    (int)v->kind);
	}
}

/*
 * Every row is consistent: names in --help order, an argument shown for
 * every option that takes one, fields that fit their values, defaults
 * within bounds, a function where the row says so, and the echo line
 * showing each echoed row exactly once.
 */
START_TEST(test_table)
{
	const struct opt_row *r;
	size_t i, j, n;

	for (i = 0; i < OPT_NOPTS; i++) {
		r = &opt_table[i];
		ck_assert_ptr_nonnull(r->name);
		if (i > 0)
			ck_assert_int_lt(strcmp(opt_table[i - 1].name,
			    r->name), 0);
		ck_assert_msg((r->has_arg == no_argument) == (r->arg == NULL),
		    "--%s: argument and synopsis disagree", r->name);
		switch (r->val.kind) {
		case OPT_K_NONE:
			ck_assert(i == OPT_HELP || i == OPT_VERSION);
			break;
		case OPT_K_FUNC:
			ck_assert_ptr_nonnull(r->parse);
			break;
		case OPT_K_FIELDS:
			ck_assert_uint_gt(r->nfields, 1);
			ck_assert_uint_le(r->nfields, OPT_MAXFIELDS);
			for (j = 0; j < r->nfields; j++) {
				ck_assert_ptr_nonnull(r->fields[j].name);
				check_val(r->name, &r->fields[j]);
			}
			break;
		default:
			check_val(r->name, &r->val);
			break;
		}
		if (r->def != 0)
			ck_assert_msg(r->def <= type_max(r->val.type) &&
			    (r->val.kind != OPT_K_UINT ||
			    (r->def >= r->val.min && r->def <= r->val.max)),
			    "--%s: default out of bounds", r->name);
		if (r->def_str != NULL)
			ck_assert_int_eq(r->val.type, OPT_T_STR);
		ck_assert_msg((r->echo == OPT_E_FUNC) == (r->echo_fn != NULL),
		    "--%s: echo rule and function disagree", r->name);
		/* A --help group and a one-line description. */
		ck_assert_msg(r->group > OPT_G_NONE &&
		    r->group < OPT_G_NGROUPS, "--%s: no --help group",
		    r->name);
		ck_assert_msg(r->help != NULL && r->help[0] != '\0',
		    "--%s: no --help description", r->name);
		ck_assert_msg(strlen(r->help) <= OPT_HELP_WIDTH - OPT_HELP_COL,
		    "--%s: --help description too long", r->name);
		ck_assert_msg(strchr(r->help, '\n') == NULL &&
		    r->help[strlen(r->help) - 1] != '.',
		    "--%s: --help description not one phrase", r->name);
		for (j = n = 0; j < opt_echo_norder; j++)
			n += opt_echo_order[j] == (enum opt_id)i;
		ck_assert_msg(n == (r->echo != OPT_E_NONE ? 1u : 0u),
		    "--%s: in the echo order %zu times", r->name, n);
	}
}
END_TEST

/* ---- --client auto[/N]: the launcher's environment. ---- */

struct auto_case {
	const char	*env[8];	/* NULL-terminated */
	const char	*arg;		/* --client's argument */
	unsigned	 id, n;		/* when err is NULL */
	const char	*err;		/* the exact error line */
};

static const struct auto_case auto_cases[] = {
	/* Every variable, alone. */
	{ { "JOB_COMPLETION_INDEX=3", NULL }, "auto/8", 3, 8, NULL },
	{ { "JOB_COMPLETION_INDEX=0", NULL }, "auto/1", 0, 1, NULL },
	{ { "PSSH_NODENUM=2", "PSSH_NUMNODES=5", NULL }, "auto", 2, 5,
	    NULL },
	{ { "SLURM_PROCID=0", "SLURM_NTASKS=16", NULL }, "auto", 0, 16,
	    NULL },
	{ { "OMPI_COMM_WORLD_RANK=6", "OMPI_COMM_WORLD_SIZE=7", NULL },
	    "auto", 6, 7, NULL },
	/* PARALLEL_SEQ counts from 1. */
	{ { "PARALLEL_SEQ=1", NULL }, "auto/4", 0, 4, NULL },
	{ { "PARALLEL_SEQ=4", NULL }, "auto/4", 3, 4, NULL },
	/* A count in the environment and /N agree. */
	{ { "SLURM_PROCID=1", "SLURM_NTASKS=4", NULL }, "auto/4", 1, 4,
	    NULL },
	/* /N stands in for a count the launcher did not export. */
	{ { "PSSH_NODENUM=1", NULL }, "auto/3", 1, 3, NULL },
	/* Precedence: the first variable set of the list wins. */
	{ { "PARALLEL_SEQ=2", "OMPI_COMM_WORLD_RANK=3",
	    "OMPI_COMM_WORLD_SIZE=9", "SLURM_PROCID=4", "SLURM_NTASKS=9",
	    "PSSH_NODENUM=5", "PSSH_NUMNODES=9", "JOB_COMPLETION_INDEX=6" },
	    "auto/9", 6, 9, NULL },
	{ { "PARALLEL_SEQ=2", "OMPI_COMM_WORLD_RANK=3",
	    "OMPI_COMM_WORLD_SIZE=9", "SLURM_PROCID=4", "SLURM_NTASKS=9",
	    "PSSH_NODENUM=5", "PSSH_NUMNODES=9", NULL }, "auto", 5, 9, NULL },
	{ { "PARALLEL_SEQ=2", "OMPI_COMM_WORLD_RANK=3",
	    "OMPI_COMM_WORLD_SIZE=9", "SLURM_PROCID=4", "SLURM_NTASKS=9",
	    NULL }, "auto", 4, 9, NULL },
	{ { "PARALLEL_SEQ=2", "OMPI_COMM_WORLD_RANK=3",
	    "OMPI_COMM_WORLD_SIZE=9", NULL }, "auto", 3, 9, NULL },
	/* An empty variable is not set; names are matched whole. */
	{ { "JOB_COMPLETION_INDEX=", "SLURM_PROCIDX=7", "PARALLEL_SEQ=2",
	    NULL }, "auto/2", 1, 2, NULL },
	/* Errors. */
	{ { "HOME=/root", NULL }, "auto", 0, 0, "httperf: --client: none of "
	    "JOB_COMPLETION_INDEX, PSSH_NODENUM, SLURM_PROCID, "
	    "OMPI_COMM_WORLD_RANK or PARALLEL_SEQ is set ('auto')\n" },
	{ { NULL }, "auto/4", 0, 0, "httperf: --client: none of "
	    "JOB_COMPLETION_INDEX, PSSH_NODENUM, SLURM_PROCID, "
	    "OMPI_COMM_WORLD_RANK or PARALLEL_SEQ is set ('auto/4')\n" },
	{ { "SLURM_PROCID=x", "SLURM_NTASKS=4", NULL }, "auto", 0, 0,
	    "httperf: --client: SLURM_PROCID: not a number ('x')\n" },
	{ { "SLURM_PROCID=1", "SLURM_NTASKS=4a", NULL }, "auto", 0, 0,
	    "httperf: --client: SLURM_NTASKS: unexpected characters after "
	    "the number ('4a')\n" },
	{ { "OMPI_COMM_WORLD_RANK=-1", "OMPI_COMM_WORLD_SIZE=2", NULL },
	    "auto", 0, 0, "httperf: --client: OMPI_COMM_WORLD_RANK: must not "
	    "be negative ('-1')\n" },
	{ { "PSSH_NODENUM=0", "PSSH_NUMNODES=0", NULL }, "auto", 0, 0,
	    "httperf: --client: PSSH_NUMNODES: must be between 1 and "
	    "4294967295 ('0')\n" },
	{ { "PARALLEL_SEQ=0", NULL }, "auto/2", 0, 0, "httperf: --client: "
	    "PARALLEL_SEQ: must be between 1 and 4294967295 ('0')\n" },
	{ { "JOB_COMPLETION_INDEX=4294967296", NULL }, "auto/2", 0, 0,
	    "httperf: --client: JOB_COMPLETION_INDEX: must be between 0 and "
	    "4294967295 ('4294967296')\n" },
	/* I >= N. */
	{ { "SLURM_PROCID=4", "SLURM_NTASKS=4", NULL }, "auto", 0, 0,
	    "httperf: --client: SLURM_PROCID=4 makes client id 4, not less "
	    "than the number of clients 4 ('auto')\n" },
	{ { "PARALLEL_SEQ=5", NULL }, "auto/4", 0, 0, "httperf: --client: "
	    "PARALLEL_SEQ=5 makes client id 4, not less than the number of "
	    "clients 4 ('auto/4')\n" },
	{ { "JOB_COMPLETION_INDEX=2", NULL }, "auto/2", 0, 0,
	    "httperf: --client: JOB_COMPLETION_INDEX=2 makes client id 2, not "
	    "less than the number of clients 2 ('auto/2')\n" },
	/* N missing where it must be given. */
	{ { "JOB_COMPLETION_INDEX=0", NULL }, "auto", 0, 0,
	    "httperf: --client: JOB_COMPLETION_INDEX gives no number of "
	    "clients: use auto/N ('auto')\n" },
	{ { "PARALLEL_SEQ=1", NULL }, "auto", 0, 0, "httperf: --client: "
	    "PARALLEL_SEQ gives no number of clients: use auto/N ('auto')\n" },
	{ { "PSSH_NODENUM=0", NULL }, "auto", 0, 0, "httperf: --client: "
	    "PSSH_NODENUM is set but PSSH_NUMNODES is not: use auto/N "
	    "('auto')\n" },
	/* /N and the environment's count disagree. */
	{ { "SLURM_PROCID=1", "SLURM_NTASKS=4", NULL }, "auto/3", 0, 0,
	    "httperf: --client: SLURM_NTASKS=4 disagrees with the number of "
	    "clients given ('auto/3')\n" },
	/* A bad /N, before the environment is looked at. */
	{ { "SLURM_PROCID=1", "SLURM_NTASKS=4", NULL }, "auto/0", 0, 0,
	    "httperf: --client: must be between 1 and 4294967295 "
	    "('auto/0')\n" },
	{ { "SLURM_PROCID=1", "SLURM_NTASKS=4", NULL }, "auto/", 0, 0,
	    "httperf: --client: empty number ('auto/')\n" },
	{ { "SLURM_PROCID=1", "SLURM_NTASKS=4", NULL }, "automatic", 0, 0,
	    "httperf: --client: expected I/N or auto[/N] ('automatic')\n" },
};

START_TEST(test_client_auto)
{
	const struct auto_case *a = &auto_cases[_i];
	const char *args[] = { "--client", a->arg, NULL };
	struct run r;

	run_parse_env(&r, NULL, args, (char *const *)a->env);
	if (a->err == NULL) {
		ck_assert_msg(r.st == OPTIONS_RUN, "row %d: %s", _i, r.err);
		ck_assert_str_eq(r.err, "");
		ck_assert_uint_eq(r.o.client_id, a->id);
		ck_assert_uint_eq(r.o.num_clients, a->n);
	} else {
		ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
		ck_assert_str_eq(r.out, "");
		ck_assert_str_eq(r.err, a->err);
	}
	run_free(&r);
}
END_TEST

/* Without an environment (options_parse()) auto finds nothing. */
START_TEST(test_client_auto_no_env)
{
	static const char *const args[] = { "--client", "auto/2", NULL };
	struct run r;

	run_parse(&r, NULL, args);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_ptr_nonnull(strstr(r.err, "none of JOB_COMPLETION_INDEX"));
	run_free(&r);
}
END_TEST

/* The echo line and the JSON show the resolved I/N, as if typed. */
START_TEST(test_client_auto_echo)
{
	static const char *const env[] = { "SLURM_PROCID=2",
	    "SLURM_NTASKS=3", NULL };
	static const char *const args[] = { "--client", "auto", NULL };
	static const char *const typed[] = { "--client", "2/3", NULL };
	struct run r, t;
	char *e, *et;

	run_parse_env(&r, NULL, args, (char *const *)env);
	run_parse(&t, NULL, typed);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_int_eq(t.st, OPTIONS_RUN);
	e = echo_of(&r.o);
	et = echo_of(&t.o);
	ck_assert_str_eq(e, et);
	ck_assert_ptr_nonnull(strstr(e, " --client=2/3 "));
	free(e);
	free(et);
	run_free(&r);
	run_free(&t);
}
END_TEST

/* ---- --start-at TIME: epoch seconds or RFC 3339. ---- */

struct time_case {
	const char	*s;
	uint64_t	 ns;		/* when why is NULL */
	const char	*why;		/* the message's problem */
};

#define NS(sec, frac)	((uint64_t)(sec) * UINT64_C(1000000000) + (frac))

static const struct time_case time_cases[] = {
	{ "0", 0, NULL },
	{ "1764000000", NS(1764000000, 0), NULL },
	{ "1764000000.25", NS(1764000000, 250000000), NULL },
	{ "1764000000.000000001", NS(1764000000, 1), NULL },
	/* Digits past the nanosecond are dropped. */
	{ "1764000000.1234567899", NS(1764000000, 123456789), NULL },
	{ "1970-01-01T00:00:00Z", 0, NULL },
	{ "2026-11-24T03:00:00Z", NS(1795489200, 0), NULL },
	{ "2026-11-24t03:00:00z", NS(1795489200, 0), NULL },
	{ "2026-11-24 03:00:00Z", NS(1795489200, 0), NULL },
	{ "2026-11-24T04:00:00+01:00", NS(1795489200, 0), NULL },
	{ "2026-11-23T21:30:00-05:30", NS(1795489200, 0), NULL },
	{ "2026-11-24T03:00:00.5Z", NS(1795489200, 500000000), NULL },
	{ "2026-11-24T03:00:00.123456789+00:00", NS(1795489200, 123456789),
	    NULL },
	/* Leap days: 2024 and 2000 have one, 2100 and 2025 do not. */
	{ "2024-02-29T00:00:00Z", NS(1709164800, 0), NULL },
	{ "2024-03-01T00:00:00Z", NS(1709251200, 0), NULL },
	{ "2000-02-29T12:00:00Z", NS(951825600, 0), NULL },
	{ "2025-02-29T00:00:00Z", 0, "day out of range for the month" },
	{ "2100-02-29T00:00:00Z", 0, "day out of range for the month" },
	{ "2024-12-31T23:59:59Z", NS(1735689599, 0), NULL },
	{ "2262-04-11T23:47:15Z", NS(9223372035, 0), NULL },
	/* Out of range. */
	{ "1969-12-31T23:59:59Z", 0, "before 1970" },
	{ "1970-01-01T00:30:00+01:00", 0, "before 1970" },
	{ "2262-04-11T23:47:16Z", 0, "too far in the future (after 2262)" },
	{ "9999-12-31T23:59:59Z", 0, "too far in the future (after 2262)" },
	{ "9223372036", 0, "too far in the future (after 2262)" },
	{ "99999999999999999999999", 0,
	    "too far in the future (after 2262)" },
	{ "2026-13-01T00:00:00Z", 0, "month out of range" },
	{ "2026-00-01T00:00:00Z", 0, "month out of range" },
	{ "2026-04-31T00:00:00Z", 0, "day out of range for the month" },
	{ "2026-04-00T00:00:00Z", 0, "day out of range for the month" },
	{ "2026-04-01T24:00:00Z", 0, "hour out of range" },
	{ "2026-04-01T00:60:00Z", 0, "minute out of range" },
	{ "2026-06-30T23:59:60Z", 0, "second out of range (no leap seconds)" },
	{ "2026-04-01T00:00:00+24:00", 0, "time zone offset out of range" },
	{ "2026-04-01T00:00:00+01:60", 0, "time zone offset out of range" },
	/* Bad forms. */
	{ "2026-11-24T03:00:00", 0, "missing time zone (Z or +HH:MM)" },
	{ "2026-11-24", 0, "expected an RFC 3339 date-time "
	    "(YYYY-MM-DDTHH:MM:SS[.F]Z or +HH:MM)" },
	{ "2026-11-24T03:00Z", 0, "expected an RFC 3339 date-time "
	    "(YYYY-MM-DDTHH:MM:SS[.F]Z or +HH:MM)" },
	{ "2026-1-24T03:00:00Z", 0, "expected an RFC 3339 date-time "
	    "(YYYY-MM-DDTHH:MM:SS[.F]Z or +HH:MM)" },
	{ "2026-11-24T03:00:00.Z", 0, "expected an RFC 3339 date-time "
	    "(YYYY-MM-DDTHH:MM:SS[.F]Z or +HH:MM)" },
	{ "2026-11-24T03:00:00+0100", 0, "expected an RFC 3339 date-time "
	    "(YYYY-MM-DDTHH:MM:SS[.F]Z or +HH:MM)" },
	{ "2026-11-24T03:00:00Zx", 0, "expected an RFC 3339 date-time "
	    "(YYYY-MM-DDTHH:MM:SS[.F]Z or +HH:MM)" },
	{ "2026-11-24X03:00:00Z", 0, "expected an RFC 3339 date-time "
	    "(YYYY-MM-DDTHH:MM:SS[.F]Z or +HH:MM)" },
	{ "now", 0, "expected seconds since the epoch or an RFC 3339 "
	    "date-time" },
	{ "", 0, "expected seconds since the epoch or an RFC 3339 "
	    "date-time" },
	{ "-5", 0, "expected seconds since the epoch or an RFC 3339 "
	    "date-time" },
	{ " 1764000000", 0, "expected seconds since the epoch or an RFC 3339 "
	    "date-time" },
	{ "1764000000.", 0, "expected seconds since the epoch or an RFC 3339 "
	    "date-time" },
	{ ".5", 0, "expected seconds since the epoch or an RFC 3339 "
	    "date-time" },
	{ "1e9", 0, "expected seconds since the epoch or an RFC 3339 "
	    "date-time" },
	{ "1764000000s", 0, "expected seconds since the epoch or an RFC 3339 "
	    "date-time" },
};

START_TEST(test_parse_time)
{
	const struct time_case *t = &time_cases[_i];
	const char *why = NULL;
	uint64_t ns = 42;
	int rv;

	rv = opt_parse_time(t->s, &ns, &why);
	if (t->why == NULL) {
		ck_assert_msg(rv == 0, "row %d (%s): %s", _i, t->s, why);
		ck_assert_msg(ns == t->ns, "row %d (%s): %ju", _i, t->s,
		    (uintmax_t)ns);
	} else {
		ck_assert_msg(rv == -1, "row %d (%s): accepted", _i, t->s);
		ck_assert_str_eq(why, t->why);
	}
}
END_TEST

/* The option: stored, echoed as given, one exact line when refused. */
START_TEST(test_start_at)
{
	static const char *const good[] = { "--start-at",
	    "2026-11-24T04:00:00.25+01:00", NULL };
	static const char *const bad[] = { "--start-at", "2026-02-29T00:00:00Z",
	    NULL };
	static const char *const merge[] = { "--merge", "--start-at", "0",
	    "f.json", NULL };
	struct run r;
	char *e;

	run_parse(&r, NULL, good);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_uint_eq(r.o.start_at, NS(1795489200, 250000000));
	ck_assert_str_eq(r.o.start_at_raw, "2026-11-24T04:00:00.25+01:00");
	e = echo_of(&r.o);
	ck_assert_msg(strstr(e, " --start-at=2026-11-24T04:00:00.25+01:00\n") !=
	    NULL, "%s", e);
	free(e);
	run_free(&r);

	run_parse(&r, NULL, bad);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_str_eq(r.err, "httperf: --start-at: day out of range for "
	    "the month ('2026-02-29T00:00:00Z')\n");
	run_free(&r);

	run_parse(&r, NULL, merge);
	ck_assert_int_eq(r.st, OPTIONS_EXIT_ERR);
	ck_assert_str_eq(r.err, "httperf: --start-at: cannot be used with "
	    "--merge\n");
	run_free(&r);

	/* Not given: no instant, nothing in the echo line. */
	run_parse(&r, NULL, merge + 4);
	ck_assert_int_eq(r.st, OPTIONS_RUN);
	ck_assert_ptr_null(r.o.start_at_raw);
	e = echo_of(&r.o);
	ck_assert_ptr_null(strstr(e, "start-at"));
	free(e);
	run_free(&r);
}
END_TEST

/*
 * --jobs: the shares of every workload's counts add up to the whole
 * (the remainder spread, never dropped), the rates to the whole rate,
 * and a fixed interval's arrivals of the workers interleave 1/rate
 * apart.
 */
static const struct split_case {
	const char	*args[8];
	unsigned	 max;		/* options_split_max */
} split_cases[] = {
	{ { "--num-conns", "101", "--rate", "1000", NULL }, 101 },
	{ { "--wsess", "11,3,0", "--rate", "10", NULL }, 11 },
	{ { "--wsesslog", "7,0,/dev/null", NULL }, 7 },
	{ { "--call-rate", "500", "--num-calls", "101",
	    "--max-connections", "4", NULL }, 4 },
	{ { "--concurrency", "3", "--num-calls", "50", NULL }, 3 },
	{ { "--num-conns", "2", NULL }, 2 },
};

/* The workload's count the split divides. */
static uint64_t
split_count(const struct options *o)
{
	if (o->wsess_n > 0 || o->wsesslog_n > 0)
		return o->wsess_n + o->wsesslog_n;
	return o->num_conns + o->concurrency;
}

START_TEST(test_split)
{
	const struct split_case *c = &split_cases[_i];
	struct run r;
	struct options w;
	unsigned n, i;
	uint64_t count, calls, pool, off;
	double rate, sum;

	run_parse(&r, NULL, c->args);
	ck_assert_msg(r.st == OPTIONS_RUN, "row %d: %s", _i, r.err);
	ck_assert_uint_eq(options_split_max(&r.o), c->max);
	rate = rate_spec_rate(&r.o.rate);
	for (n = 2; n <= 3 && n <= c->max; n++) {
		count = calls = pool = 0;
		sum = 0;
		for (i = 0; i < n; i++) {
			w = r.o;
			options_split(&w, i, n);
			ck_assert_uint_eq(w.client_id, i);
			ck_assert_uint_eq(w.num_clients, n);
			ck_assert_uint_gt(split_count(&w) +
			    (w.call_rate > 0 ? w.max_connections : 0), 0);
			count += split_count(&w);
			if (w.call_rate > 0 || w.concurrency > 0)
				calls += w.num_calls;
			if (w.call_rate > 0)
				pool += w.max_connections;
			sum += rate_spec_rate(&w.rate);
			/* Worker i's first arrival: i / rate after the start. */
			off = rate_spec_offset(&w.rate, i, n);
			if (rate > 0)
				ck_assert_uint_eq(off, (uint64_t)(1e9 * i /
				    rate + 0.5));
		}
		ck_assert_uint_eq(count, split_count(&r.o));
		if (r.o.call_rate > 0 || r.o.concurrency > 0)
			ck_assert_uint_eq(calls, r.o.num_calls);
		if (r.o.call_rate > 0)
			ck_assert_uint_eq(pool, r.o.max_connections);
		ck_assert_double_eq_tol(sum, rate, 1e-9 * (rate + 1));
	}
	run_free(&r);
}
END_TEST

/* The shares: 101 over 3 is 34 34 33. */
START_TEST(test_share)
{
	ck_assert_uint_eq(options_share(101, 0, 3), 34);
	ck_assert_uint_eq(options_share(101, 1, 3), 34);
	ck_assert_uint_eq(options_share(101, 2, 3), 33);
	ck_assert_uint_eq(options_share(2, 2, 3), 0);
	ck_assert_uint_eq(options_share(UINT64_MAX, 0, 1), UINT64_MAX);
}
END_TEST

/* --cpus LIST. */
START_TEST(test_cpus)
{
	static const char *const bad[] = { "", "x", "1-", "3-1", "1,,2",
	    "1024", "0-1024", "1 ", ",1", NULL };
	const char *why;
	unsigned *cpus;
	size_t n, i;

	ck_assert_int_eq(options_cpus_parse("2-4,0,7", &cpus, &n, &why), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(cpus[0], 2);
	ck_assert_uint_eq(cpus[2], 4);
	ck_assert_uint_eq(cpus[3], 0);
	ck_assert_uint_eq(cpus[4], 7);
	free(cpus);
	for (i = 0; bad[i] != NULL; i++) {
		ck_assert_msg(options_cpus_parse(bad[i], &cpus, &n,
		    &why) == -1, "%s", bad[i]);
		ck_assert_ptr_null(cpus);
	}
}
END_TEST

static Suite *
options_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("options");
	tc = tcase_create("parse");
	tcase_add_test(tc, test_defaults);
	tcase_add_loop_test(tc, test_good, 0, (int)nitems(good_cases));
	tcase_add_loop_test(tc, test_bad, 0, (int)nitems(bad_cases));
	tcase_add_test(tc, test_ambiguous_lists);
	tcase_add_loop_test(tc, test_did_you_mean, 0, (int)nitems(near_cases));
	tcase_add_test(tc, test_distance);
	tcase_add_test(tc, test_add_header_all);
	tcase_add_test(tc, test_add_header_warn);
	tcase_add_test(tc, test_reentrant);
	tcase_add_test(tc, test_prog_name);
	tcase_add_test(tc, test_error_escapes_value);
	tcase_add_test(tc, test_body_warn);
	tcase_add_test(tc, test_session_helper);
	tcase_add_test(tc, test_myaddr_all);
	tcase_add_test(tc, test_conflict_once);
	tcase_add_test(tc, test_tls_conflict_once);
	tcase_add_test(tc, test_tls_version_name);
	tcase_add_test(tc, test_table);
	suite_add_tcase(s, tc);

	tc = tcase_create("scale");
	tcase_add_loop_test(tc, test_client_auto, 0, (int)nitems(auto_cases));
	tcase_add_test(tc, test_client_auto_no_env);
	tcase_add_test(tc, test_client_auto_echo);
	tcase_add_loop_test(tc, test_parse_time, 0, (int)nitems(time_cases));
	tcase_add_test(tc, test_start_at);
	tcase_add_loop_test(tc, test_split, 0, (int)nitems(split_cases));
	tcase_add_test(tc, test_share);
	tcase_add_test(tc, test_cpus);
	suite_add_tcase(s, tc);

	tc = tcase_create("files");
	tcase_add_checked_fixture(tc, files_setup, files_teardown);
	tcase_add_test(tc, test_body_file);
	tcase_add_test(tc, test_body_file_empty);
	tcase_add_test(tc, test_body_file_errors);
	tcase_add_test(tc, test_header_file);
	tcase_add_test(tc, test_header_file_last_and_empty);
	tcase_add_loop_test(tc, test_header_file_bad, 0,
	    (int)nitems(hdr_bad_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("unescape");
	tcase_add_loop_test(tc, test_unescape, 0,
	    (int)nitems(unescape_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("output");
	tcase_add_loop_test(tc, test_echo, 0, (int)nitems(echo_cases));
	tcase_add_test(tc, test_echo_rerun);
	tcase_add_loop_test(tc, test_help, 0, (int)nitems(help_forms));
	tcase_add_test(tc, test_help_forms);
	tcase_add_test(tc, test_help_groups);
	tcase_add_test(tc, test_version);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(options_suite());
}
