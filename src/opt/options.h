/*
 * Command line: the options of httperf 0.9.0 (and upstream's additions
 * that have landed), parsed and validated into struct options.  Every
 * value is checked here; the rest of the program trusts it.
 */
#ifndef HTTPERF_OPT_OPTIONS_H
#define HTTPERF_OPT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gen/rate.h"
#include "net/tls.h"
#include "stat/print.h"

struct slo;

struct options {
	const char	*prog;		/* basename of argv[0] */
	int		 verbose;	/* -v count */
	int		 debug;		/* -d N */

	/* Target and request. */
	/* The URL argument as given, or NULL; it sets server, port, uri
	   and ssl, and the two strings it gives are owned here. */
	const char	*url;
	char		*url_host;
	char		*url_target;
	const char	*server;	/* default "localhost" */
	const char	*server_name;	/* Host header value, NULL: server */
	const char	*servers_file;	/* --servers F, NULL: none */
	unsigned	 port;		/* default 80, 443 with --ssl */
	int		 port_given;	/* --port was given */
	const char	*uri;		/* default "/" */
	const char	*method;	/* NULL: GET */
	int		 http_minor;	/* HTTP/1.x: 0 or 1 (default 1) */
	int		 http2;		/* --http2 (or --http-version 2) */
	int		 http2_fallback; /* --http2-fallback */
	unsigned	 max_streams;	/* --max-streams; 0: the server's */
	int		 no_host_hdr;
	/* --unix-socket PATH: every connection goes there (the Host
	   header still comes from --server-name or --server); NULL: TCP. */
	const char	*unix_socket;
	/* --proxy [http://][USER:PASS@]HOST[:PORT] as given (checked);
	   --proxy-user USER:PASS; --proxy-env: take the proxy from
	   http_proxy / https_proxy / no_proxy (setup.c reads them). */
	const char	*proxy;
	const char	*proxy_user;
	int		 proxy_env;
	/* Every --add-header as given (for the echo line), in order.  Each
	   must hold whole header lines, CR LF only as the end of one; a
	   missing line end at the very end is added. */
	const char	**add_header_raw;
	size_t		 n_add_header;
	/* --check: every check as given (gen/svars.h), in order. */
	const char	**check;
	size_t		 n_check;
	/* All of them unescaped and concatenated (owned), or NULL. */
	char		*add_header;
	size_t		 add_header_len;

	/* Workload. */
	uint64_t	 num_conns;	/* default 1 */
	uint64_t	 num_calls;	/* default 1 */
	uint64_t	 burst_len;	/* default 1 */
	struct rate_spec rate;		/* default sequential */
	int		 rate_given;	/* --rate or --period was given */
	/* --call-rate R: requests per second over a pool of
	   --max-connections; `rate' is then their schedule, num_calls
	   their total (0: no limit) and num_conns 0.  0: off. */
	double		 call_rate;
	/* --concurrency N: the closed loop (gen/call_rate.h) over N
	   connections, num_calls its total (0: no limit), num_conns 0.
	   0: off. */
	unsigned	 concurrency;
	unsigned	 client_id;	/* --client I/N (auto: resolved) */
	unsigned	 num_clients;
	/* --start-at TIME: the wall-clock instant the test starts at, in
	   ns since the epoch; start_at_raw NULL: not given. */
	uint64_t	 start_at;
	const char	*start_at_raw;	/* as given, for the echo */
	/* --jobs N|auto: N worker processes (run_jobs.c), 0 or 1: none;
	   jobs_auto: auto, one per CPU, resolved by run_jobs.  --cpus
	   LIST: their CPUs as given (options_cpus_parse), or NULL. */
	unsigned	 jobs;
	int		 jobs_auto;
	const char	*cpus;
	/* A --jobs worker's: the whole run's options, which its --json
	   document names (so the workers' documents merge); NULL: these. */
	const struct options *whole;
	double		 runtime;	/* s, 0: none */
	double		 timeout;	/* s, 0: none */
	double		 think_timeout;	/* s */
	/* --max-lateness MS: an arrival later than this is late (1 ms
	   when not given), and the bottleneck warning makes the exit
	   status 3. */
	double		 max_lateness;	/* ms */
	int		 max_lateness_given;

	/* Request body (--body S with --add-header's escapes, or
	   --body-file F read whole); NULL when none.  An empty body is
	   not NULL: it is sent with Content-Length: 0. */
	const char	*body_raw;	/* --body as given, for the echo */
	const char	*body_file;
	char		*body;		/* owned */
	size_t		 body_len;
	const char	*add_header_file; /* its header lines are appended to
					   add_header (after --add-header),
					   each ended by CR LF */

	/* Sessions: --wsess N1,N2,X and --wsesslog N,X,F (exclusive). */
	uint64_t	 wsess_n;	/* 0: not given */
	uint64_t	 wsess_calls;
	double		 wsess_think;	/* s */
	uint64_t	 wsesslog_n;	/* 0: not given */
	double		 wsesslog_think; /* s, default think time */
	const char	*wsesslog_file;
	/* --wsesspage N1,N2,X: sessions of page views (exclusive too). */
	uint64_t	 wsesspage_n;	/* 0: not given */
	uint64_t	 wsesspage_views;
	double		 wsesspage_think; /* s */
	unsigned	 max_connections; /* per session, or the --call-rate
					   pool; 0: the default (4, 100) */
	unsigned	 max_piped;	/* per connection; 0: default */
	int		 session_cookies;
	unsigned	 failure_status; /* 0: none */
	int		 retry_on_failure;
	unsigned	 max_retries;	/* --max-retries, default 3 */

	/* URI sources: --wlog y|n,F and --wset N,X (exclusive). */
	const char	*wlog_file;
	int		 wlog_wrap;	/* y: start again at the end */
	uint64_t	 wset_n;	/* 0: not given */
	double		 wset_x;

	/* Results while the test runs (stat/interval.h). */
	const char	*hlog_file;	/* --hlog F, or NULL */
	double		 interval;	/* --interval S, 0: not given (1 s) */
	int		 periodic_stats; /* --periodic-stats (-n) */
	int		 quiet;		/* --quiet: no progress line */

	/* Tracing: PRINT_* bits of stat/print.h, 0 when off. */
	int		 print_request;
	int		 print_reply;

	/* --myaddr: source address specs as given, in order (the
	   array is owned, the strings point into argv).  Only their
	   syntax is checked here; main resolves them. */
	const char	**myaddr;
	size_t		 n_myaddr;

	/* --slo: the objectives, in the order given (owned). */
	struct slo	*slo;
	size_t		 n_slo;
	int		 slo_abort;	/* --slo-abort */

	/* --sweep: the spec as given (FROM:TO:STEP or FROM:TO*FACTOR,
	   parsed by report/sweep_search.c's sweep_spec_parse at start-up),
	   NULL when not given; the steps' length and warm-up in s; the
	   search's precision in percent (0: the default, 2); the
	   autobench table's file (NULL: none). */
	const char	*sweep;
	double		 step_time;
	double		 step_warmup;
	double		 sweep_precision;
	const char	*sweep_tsv;

	/* --use-timer-cache (0.9.1's): accepted, changes nothing. */
	int		 use_timer_cache;

	/* Sockets. */
	int		 hog;
	int		 close_with_reset;
	/* SO_SNDBUF / SO_RCVBUF; 0 (the default): not set, so the kernel
	   sizes the buffers and tunes them as the connection goes. */
	unsigned long	 send_buffer;
	unsigned long	 recv_buffer;
	int		 busy_poll;	/* --busy-poll: the loop never sleeps */

	/* --template: --uri, the header lines and the body are templates
	   (lib/tmpl.h), expanded per request; --seed N seeds their random
	   values (with the --client id). */
	int		 template;
	unsigned long long seed;
	/* --data F: each session (connection) takes a row of F for
	   {{data.COL}}; --data-order random, --data-wrap n. */
	const char	*data_file;	/* NULL: none */
	int		 data_random;
	int		 data_no_wrap;

	/* --script F: wrk's Lua scripts (src/script/); each --script-arg
	   as given, in order (init()'s args[1..]). */
	const char	*script;
	const char	**script_args;
	size_t		 n_script_args;
	/* --jobs (run_jobs.c): 1 in the parent (the script loaded for
	   done() only), 2 in a worker (no done(): the parent's). */
	int		 script_jobs;

	/*
	 * TLS.  Only the syntax is checked here; the TLS module opens the
	 * files and lets the library judge the cipher lists at start-up.
	 * The versions are values of enum tls_version (net/tls.h).
	 */
	int		 ssl;		/* --ssl (or --ssl-protocol) */
	const char	*ssl_ciphers;	/* TLS 1.2 and below, or NULL */
	const char	*ssl_ciphersuites; /* TLS 1.3, or NULL */
	int		 ssl_min_version; /* 0: the library's bound */
	int		 ssl_max_version;
	const char	*ssl_protocol_raw; /* --ssl-protocol as given */
	int		 ssl_no_reuse;	/* full handshake every time */
	const char	*tls_server_name; /* SNI and verification name */
	int		 ssl_verify;	/* check the server's certificate */
	const char	*ssl_ca_file;
	const char	*ssl_ca_path;
	const char	*ssl_certificate; /* client certificate (PEM) */
	const char	*ssl_key;	/* its key (PEM); NULL: in the cert */

	/* Results as data: --json FILE ("-": the standard output, the
	   report then goes to the standard error); --merge FILE... (the
	   result files are the arguments, pointing into argv). */
	const char	*json_file;
	const char	*html_file;	/* --html */
	int		 merge;
	char *const	*merge_files;
	size_t		 n_merge_files;

	/* --log F: a CSV record of every call (stat/calllog.h); "-": the
	   standard output (the report then goes to the standard error).
	   --log-drop: records the file refuses are dropped and counted
	   instead of ending the run.  log_worker: a --jobs worker I
	   writes F.I (I + 1 here; 0: not a worker). */
	const char	*log_file;
	int		 log_drop;
	unsigned	 log_worker;
};

/*
 * The longest time in seconds any option takes (about 31.7 years): the
 * clock counts nanoseconds in 64 bits from boot, and a deadline is now
 * plus one or two such times, which must not wrap around.
 */
#define OPTIONS_MAX_SEC	1e9

/*
 * The highest --call-rate: arrivals due at one timer firing only queue
 * (8 bytes each), so up to this rate a client that cannot keep up falls
 * behind without the timer's catch-up loop running away.
 */
#define OPTIONS_MAX_CALL_RATE	1e7

/* The highest --concurrency: connections open at once. */
#define OPTIONS_MAX_CONCURRENCY	1000000

/*
 * The largest count --num-conns, --num-calls, --burst-length, --wsess,
 * --wsesslog and --wset take (10^15): sums and products of the counts
 * of a run stay far from 2^64, and a double holds each exactly.
 */
#define OPTIONS_MAX_COUNT	UINT64_C(1000000000000000)

/* --max-lateness: the threshold when it is not given, in ms. */
#define OPTIONS_LATENESS_MS	1.0

/* --max-retries: the default and the largest value. */
#define OPTIONS_MAX_RETRIES	3
#define OPTIONS_MAX_RETRIES_MAX	1000

/*
 * The TLS versions and print flags under the options' names: the values
 * are defined once, in net/tls.h and stat/print.h.
 */
#define OPTIONS_TLS_ANY		TLS_VERSION_ANY
#define OPTIONS_TLS_1_0		TLS_VERSION_1_0
#define OPTIONS_TLS_1_1		TLS_VERSION_1_1
#define OPTIONS_TLS_1_2		TLS_VERSION_1_2
#define OPTIONS_TLS_1_3		TLS_VERSION_1_3

#define OPTIONS_PRINT_HEADER	PRINT_HEADER
#define OPTIONS_PRINT_BODY	PRINT_BODY

enum options_status {
	OPTIONS_RUN,		/* options are valid: run the test */
	OPTIONS_EXIT_OK,	/* --help or --version was printed */
	OPTIONS_EXIT_ERR,	/* misuse; one line went to err */
};

/* Sets every field to its default. */
void	options_init(struct options *o);

/*
 * Parses argv.  Usage/version text goes to `out'; errors and warnings go
 * to `err', one line each, prefixed by the program name.
 */
enum options_status options_parse(struct options *o, int argc, char **argv,
	    FILE *out, FILE *err);

/*
 * options_parse() with an environment (NULL-terminated "NAME=value"
 * strings, as environ; NULL: none) for --client auto to read the
 * launcher's variables from.  options_parse() has none.
 */
enum options_status options_parse_env(struct options *o, int argc,
	    char **argv, char *const *env, FILE *out, FILE *err);

/* Frees what options_parse() allocated.  The struct may then be reused. */
void	options_free(struct options *o);

/*
 * Returns non-zero when the workload is made of sessions (--wsess or
 * --wsesslog) rather than of connections.
 */
int	options_session(const struct options *o);

/*
 * Returns the canonical name of a protocol version ("TLSv1.2"), "auto"
 * for TLS_VERSION_ANY, or NULL for a value that is none of them (the
 * names of net/tls.c: tls_version_name()).
 */
const char *options_tls_version_name(int version);

/*
 * --jobs: the options of worker `i' of `n' (n > 1) made from the whole
 * run's *o: client i/n, the rates divided by n (a fixed interval's
 * arrivals then interleave: --client shifts worker i by i/n of its
 * interval), and the counts (--num-conns, the sessions, the --num-calls
 * of --call-rate and --concurrency, the --call-rate pool, --concurrency)
 * split with the remainder spread over the first workers, so that the
 * shares add up to the whole (options_scale.c).
 */
void	options_split(struct options *o, unsigned i, unsigned n);

/*
 * The most workers the workload of o can be split over, so that none
 * gets nothing (the smallest of its counts; UINT_MAX: no limit).  A
 * sweep's counts are not split, its levels are (options_split_level):
 * only a --call-rate pool limits it.
 */
unsigned options_split_max(const struct options *o);

/*
 * --jobs with --sweep: worker i's share of the sweep's `level' split over
 * n as options_split splits the parameter it moves: a rate divided by n,
 * a --concurrency split with the remainder over the first workers (0
 * for some when the level is below n: run_jobs.c refuses that).
 */
double	options_split_level(const struct options *o, double level,
	    unsigned i, unsigned n);

/* Worker i's share of `total' split over n: total / n, one more for the
   first total % n. */
uint64_t options_share(uint64_t total, unsigned i, unsigned n);

/*
 * Parses --cpus LIST ("0-3,6": CPU numbers and ranges, each below
 * OPTIONS_MAX_CPU) into *cpus (allocated, in the order given) and *n.
 * Returns 0, or -1 with *why.
 */
#define OPTIONS_MAX_CPU	1024
int	options_cpus_parse(const char *s, unsigned **cpus, size_t *n,
	    const char **why);

/* Prints the start-up echo line of the original (ends with a newline). */
void	options_echo(const struct options *o, FILE *out);

struct jsonw;

/*
 * Writes every option with its effective value as one JSON object, keyed
 * by the option's long name (options_json.c; the schema lists them).
 */
void	options_json(const struct options *o, struct jsonw *w);

/*
 * The options that do not define the workload, so --merge lets them
 * differ between the files it combines (NULL-terminated names).
 */
extern const char *const options_merge_may_differ[];

/* Prints the usage text (the --help output). */
void	options_usage(const char *prog, FILE *out);

/*
 * Expands the escapes of --add-header and --body (\n -> CR LF, \r,
 * \a -> LF, \\, \NNN octal, up to three digits) into a newly allocated
 * buffer *out of *outlen bytes (NUL-terminated as well).  An unknown
 * escape keeps the character and bumps *nwarn.  Returns 0, or -1 with a
 * message in errbuf.
 */
int	options_unescape(const char *in, char **out, size_t *outlen,
	    unsigned *nwarn, char *errbuf, size_t errlen);

#endif
