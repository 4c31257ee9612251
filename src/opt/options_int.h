/*
 * Inside the command line parser.  Every option is one row of opt_table
 * (options_table.c): its name, whether it takes an argument and how
 * --help shows it, what kind of value it takes and the field of struct
 * options that receives it, the bounds, its default, and how the start-up
 * echo line prints it.  The engine (options.c) walks the rows to drive
 * getopt_long(3), to parse and store each value, to set the defaults and
 * to print the echo line and --help; only the options whose value has a
 * shape of its own (--client I/N, --period, --wlog y|n,F, the request
 * body and headers) have a function in their row.  The rules between
 * options are a table of their own (options_check.c).
 *
 * Adding an option: one enum opt_id entry (in --help order), one row
 * (with its --help group and one-line description), and its place in
 * opt_echo_order[] if the echo line shows it.
 *
 * Only src/opt/ includes this header (opt_err.c: the messages).
 */
#ifndef HTTPERF_OPT_OPTIONS_INT_H
#define HTTPERF_OPT_OPTIONS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opt/options.h"

/* Indexes into opt_table, in the order --help lists them. */
enum opt_id {
	OPT_ADD_HEADER,
	OPT_ADD_HEADER_FILE,
	OPT_BODY,
	OPT_BODY_FILE,
	OPT_BURST_LENGTH,
	OPT_BUSY_POLL,
	OPT_CALL_RATE,
	OPT_CHECK,
	OPT_CLIENT,
	OPT_CLOSE_WITH_RESET,
	OPT_CONCURRENCY,
	OPT_CPUS,
	OPT_DATA,
	OPT_DATA_ORDER,
	OPT_DATA_WRAP,
	OPT_DEBUG,
	OPT_FAILURE_STATUS,
	OPT_HELP,
	OPT_HLOG,
	OPT_HOG,
	OPT_HTML,
	OPT_HTTP_VERSION,
	OPT_HTTP2,
	OPT_HTTP2_FALLBACK,
	OPT_INTERVAL,
	OPT_JOBS,
	OPT_JSON,
	OPT_LOG,
	OPT_LOG_DROP,
	OPT_MAX_CONNECTIONS,
	OPT_MAX_LATENESS,
	OPT_MAX_PIPED_CALLS,
	OPT_MAX_RETRIES,
	OPT_MAX_STREAMS,
	OPT_MERGE,
	OPT_METHOD,
	OPT_MYADDR,
	OPT_NO_HOST_HDR,
	OPT_NUM_CALLS,
	OPT_NUM_CONNS,
	OPT_PERIOD,
	OPT_PERIODIC_STATS,
	OPT_PORT,
	OPT_PRINT_REPLY,
	OPT_PRINT_REQUEST,
	OPT_PROXY,
	OPT_PROXY_ENV,
	OPT_PROXY_USER,
	OPT_QUIET,
	OPT_RATE,
	OPT_RECV_BUFFER,
	OPT_RETRY_ON_FAILURE,
	OPT_RUNTIME,
	OPT_SCRIPT,
	OPT_SCRIPT_ARG,
	OPT_SEED,
	OPT_SEND_BUFFER,
	OPT_SERVER,
	OPT_SERVER_NAME,
	OPT_SERVERS,
	OPT_SESSION_COOKIES,
	OPT_SLO,
	OPT_SLO_ABORT,
	OPT_SSL,
	OPT_SSL_CA_FILE,
	OPT_SSL_CA_PATH,
	OPT_SSL_CERTIFICATE,
	OPT_SSL_CIPHERS,
	OPT_SSL_CIPHERSUITES,
	OPT_SSL_KEY,
	OPT_SSL_NO_REUSE,
	OPT_SSL_PROTOCOL,
	OPT_SSL_VERIFY,
	OPT_START_AT,
	OPT_STEP_TIME,
	OPT_STEP_WARMUP,
	OPT_SWEEP,
	OPT_SWEEP_PRECISION,
	OPT_SWEEP_TSV,
	OPT_TEMPLATE,
	OPT_THINK_TIMEOUT,
	OPT_TIMEOUT,
	OPT_TLS_SERVER_NAME,
	OPT_UNIX_SOCKET,
	OPT_URI,
	OPT_USE_TIMER_CACHE,
	OPT_VERBOSE,
	OPT_VERSION,
	OPT_WLOG,
	OPT_WSESS,
	OPT_WSESSLOG,
	OPT_WSESSPAGE,
	OPT_WSET,
	OPT_NOPTS
};

/* What a value is; each kind has one parser and one error wording. */
enum opt_kind {
	OPT_K_NONE,	/* --help, --version: the parse loop acts on them */
	OPT_K_FLAG,	/* no argument: the int becomes 1 */
	OPT_K_COUNT,	/* no argument: the int grows by 1 (--verbose) */
	OPT_K_UINT,	/* whole decimal number from min to max */
	OPT_K_SECONDS,	/* number of seconds, 0 to OPTIONS_MAX_SEC */
	OPT_K_RATIO,	/* number from 0 to 1 */
	OPT_K_WORD,	/* goes into the request as it is: no space or
			   control character */
	OPT_K_TOKEN,	/* an HTTP token (a method) */
	OPT_K_TEXT,	/* text for a library (cipher lists): no control
			   character, spaces allowed */
	OPT_K_PATH,	/* a file name: not empty; opened later */
	OPT_K_FIELDS,	/* comma-separated values, each one of the kinds
			   above (--wsess N1,N2,X); all stored or none */
	OPT_K_FUNC,	/* the row's own parse function */
};

/* The C type of the field a value goes to (found by OPT_DEST). */
enum opt_type {
	OPT_T_NONE,
	OPT_T_INT,
	OPT_T_UINT,
	OPT_T_ULONG,
	OPT_T_ULLONG,
	OPT_T_DOUBLE,
	OPT_T_STR,
};

/* The destination field `f' of struct options: offset and C type. */
#define OPT_DEST(f)							\
	.off = offsetof(struct options, f),				\
	.type = _Generic(((struct options *)0)->f,			\
	    int: OPT_T_INT,						\
	    unsigned: OPT_T_UINT,					\
	    unsigned long: OPT_T_ULONG,					\
	    unsigned long long: OPT_T_ULLONG,				\
	    double: OPT_T_DOUBLE,					\
	    const char *: OPT_T_STR)

/* How the echo line prints a row (options_echo()). */
enum opt_echo {
	OPT_E_NONE,	/* not at all (or by another row's function) */
	OPT_E_SET,	/* " --name" when the int is not 0 */
	OPT_E_NONZERO,	/* " --name=V" when V is not 0 or NULL; for
			   OPT_K_FIELDS when the first field is not 0 */
	OPT_E_ALWAYS,	/* " --name=V" */
	OPT_E_CHANGED,	/* " --name=V" when V is not the row's default */
	OPT_E_CONNS,	/* " --name=V" unless the workload is sessions
			   or V is 0 (--call-rate: not used, no limit) */
	OPT_E_QUOTED,	/* " --name='V'" when V is not NULL */
	OPT_E_FUNC,	/* the row's echo function */
};

/*
 * The headings --help lists the options under, in their order; a row
 * goes where a user would look for it.
 */
enum opt_group {
	OPT_G_NONE,	/* no group: not allowed (the unit test checks) */
	OPT_G_TARGET,	/* what to ask of which server */
	OPT_G_WORKLOAD,	/* how many requests, at what rate, in what shape */
	OPT_G_TIMING,	/* time limits and the start time */
	OPT_G_TLS,
	OPT_G_OUTPUT,	/* what is printed or written, and where */
	OPT_G_SCALING,	/* the client's ports, addresses and buffers, and
			   a fleet of clients */
	OPT_G_NGROUPS
};

/* The heading of each group in --help. */
extern const char *const opt_group_title[OPT_G_NGROUPS];

/* --help's description column; a description fits in 79 columns. */
#define OPT_HELP_COL	28
#define OPT_HELP_WIDTH	79

/* The most values an OPT_K_FIELDS row has (--wsess N1,N2,X). */
#define OPT_MAXFIELDS	3

/* One value: its kind, where it goes, its bounds (OPT_K_UINT). */
struct opt_val {
	const char	*name;	/* a field's name in messages ("N1") */
	enum opt_kind	 kind;
	size_t		 off;	/* into struct options */
	enum opt_type	 type;
	uint64_t	 min, max;
};

struct opt_ctx;
struct opt_row;

/* Parses and stores the argument of an OPT_K_FUNC row. */
typedef int	opt_parse_fn(struct opt_ctx *c, const struct opt_row *r,
		    const char *arg);
/* Prints an OPT_E_FUNC row into the echo line. */
typedef void	opt_echo_fn(const struct options *o, const struct opt_row *r,
		    FILE *out);

struct opt_row {
	const char	*name;		/* long name without the dashes */
	int		 has_arg;	/* {no,required,optional}_argument */
	const char	*arg;		/* argument in --help, NULL if none;
					   for OPT_K_FIELDS also the form
					   in "expected N1,N2,X" */
	struct opt_val	 val;		/* the value (not OPT_K_FIELDS) */
	const struct opt_val *fields;	/* OPT_K_FIELDS: its values */
	size_t		 nfields;
	opt_parse_fn	*parse;		/* OPT_K_FUNC */
	uint64_t	 def;		/* default of a number, 0: none */
	const char	*def_str;	/* default of a string, or NULL */
	enum opt_echo	 echo;
	opt_echo_fn	*echo_fn;	/* OPT_E_FUNC */
	enum opt_group	 group;		/* its heading in --help */
	const char	*help;		/* its line in --help: lower case,
					   no full stop, at most
					   OPT_HELP_WIDTH - OPT_HELP_COL */
};

extern const struct opt_row opt_table[OPT_NOPTS];

/* The rows the echo line shows, in 0.9.0's order. */
extern const enum opt_id opt_echo_order[];
extern const size_t opt_echo_norder;

/*
 * What one parse works on: the options, the error stream, and what is
 * only needed until the command line has been checked as a whole.
 */
struct opt_ctx {
	struct options	*o;
	FILE		*err;
	char *const	*env;		/* the environment, or NULL */
	/* Options given (and accepted), even at their default value. */
	unsigned char	 given[OPT_NOPTS];
	/* The header lines of --add-header-file, already in wire form;
	   they go after every --add-header, so they wait here. */
	char		*hdr_file;
	size_t		 hdr_file_len;
};

/* Returns the field of `o' at offset `off'. */
#define OPT_FIELD(o, off)	((void *)((char *)(o) + (off)))

/*
 * Reports one mistake as "PROG: --name[: field]: problem ('value')" and
 * returns -1.  `r' (then `field') or `value' may be NULL to leave that
 * part out.
 */
int	opt_fail(const struct opt_ctx *c, const struct opt_row *r,
	    const char *field, const char *value, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));

/*
 * Reports a problem with file `path' of option `r' as "PROG: --name:
 * FILE: problem", or with line `line' (not 0) of it as "...: FILE: line
 * N: problem ('text')"; returns -1.
 */
int	opt_fail_file(const struct opt_ctx *c, const struct opt_row *r,
	    const char *path, size_t line, const char *text,
	    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* opt_fail() for a name as the user wrote it ("-x", "--name"). */
int	opt_fail_as(const struct opt_ctx *c, const char *name,
	    const char *value, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));

/* Writes one byte as itself, or as \xNN when it is not printable ASCII. */
void	opt_put_escape_char(FILE *f, unsigned char ch);

/* A value parsed, before it is stored. */
union opt_value {
	uint64_t	 u;
	double		 d;
	const char	*s;
};

/*
 * Parses `text' (the whole argument `whole', or a field of it) as value
 * `v' of row `r' into *out without storing it.  Messages name the row,
 * the field (v->name) and quote `whole'.
 */
int	opt_parse_val(const struct opt_ctx *c, const struct opt_row *r,
	    const struct opt_val *v, const char *whole, const char *text,
	    union opt_value *out);

/* A finite, non-negative number (a rate, seconds), as opt_parse_val. */
int	opt_double(const struct opt_ctx *c, const struct opt_row *r,
	    const char *field, const char *whole, const char *arg,
	    double *out);

/* Stores a value into its field, converted to the field's type. */
void	opt_store(struct options *o, const struct opt_val *v,
	    const union opt_value *x);

/* Returns an integer field's value (0 for a field of another type). */
uint64_t opt_load_uint(const struct options *o, const struct opt_val *v);

/* Parses and stores option `r' with argument `arg' (NULL if none). */
int	opt_apply(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);

/* The request's rows (options_req.c). */
int	opt_add_header(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
int	opt_add_header_file(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
int	opt_body(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
int	opt_body_file(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
int	opt_myaddr(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
void	opt_echo_add_header(const struct options *o, const struct opt_row *r,
	    FILE *out);
/* --script-arg and the rules of --script (options_script.c). */
int	opt_script_arg(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
void	opt_echo_script_arg(const struct options *o, const struct opt_row *r,
	    FILE *out);
int	opt_check_script(const struct opt_ctx *c);
int	opt_proxy(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
void	opt_echo_proxy(const struct options *o, const struct opt_row *r,
	    FILE *out);
int	opt_proxy_user(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
void	opt_echo_proxy_user(const struct options *o, const struct opt_row *r,
	    FILE *out);
int	opt_unix_socket(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
int	opt_server(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
void	opt_echo_myaddr(const struct options *o, const struct opt_row *r,
	    FILE *out);

/* --check (options_checks.c). */
int	opt_checks(struct opt_ctx *c, const struct opt_row *r, const char *arg);
void	opt_echo_checks(const struct options *o, const struct opt_row *r,
	    FILE *out);

/* --slo (options_slo.c). */
int	opt_slo(struct opt_ctx *c, const struct opt_row *r, const char *arg);
void	opt_echo_slo(const struct options *o, const struct opt_row *r,
	    FILE *out);
void	opt_json_slo(const struct options *o, struct jsonw *w);

/* --client auto[/N], --jobs, --cpus and --start-at (options_scale.c). */
int	opt_client_auto(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
int	opt_jobs(struct opt_ctx *c, const struct opt_row *r, const char *arg);
void	opt_echo_jobs(const struct options *o, const struct opt_row *r,
	    FILE *out);
int	opt_cpus(struct opt_ctx *c, const struct opt_row *r, const char *arg);
int	opt_start_at(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
/* The value of `name' in `env', or NULL when unset or empty. */
const char *opt_env(char *const *env, const char *name);
/*
 * Parses an instant, seconds since the epoch ("1764000000.25") or an RFC
 * 3339 date-time ("2026-11-24T03:00:00Z", "...+01:00", fractions
 * allowed), into ns since the epoch.  Returns 0, or -1 with *why set.
 */
int	opt_parse_time(const char *s, uint64_t *ns, const char **why);

/*
 * Checks the options that cannot go together, or need another, once the
 * whole command line is known, then completes --call-rate's settings
 * (options_check.c).  Returns 0 or -1 after one message.
 */
int	opt_check(const struct opt_ctx *c);

/*
 * --uri S: a word (no space or control character), but with blanks
 * allowed between "{{" and "}}" for --template (options_tmpl.c).
 */
int	opt_uri(struct opt_ctx *c, const struct opt_row *r, const char *arg);

/*
 * After the whole command line (and --add-header-file) is in: with
 * --template, compiles --uri, the header lines and the body, saying
 * which option and column is wrong; without it, refuses the blanks
 * opt_uri() let pass.  Returns 0 or -1 (options_tmpl.c).
 */
int	opt_check_tmpl(const struct opt_ctx *c);

/*
 * --servers: reads and parses the file once, so that a bad line stops
 * the run before anything starts ("--servers: FILE:LINE: ...").  Returns
 * 0 or -1 (options_req.c).
 */
int	opt_check_servers(const struct opt_ctx *c);

/* --data-order seq|random and --data-wrap y|n (options_tmpl.c). */
int	opt_data_order(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
void	opt_echo_data_order(const struct options *o, const struct opt_row *r,
	    FILE *out);
int	opt_data_wrap(struct opt_ctx *c, const struct opt_row *r,
	    const char *arg);
void	opt_echo_data_wrap(const struct options *o, const struct opt_row *r,
	    FILE *out);

/*
 * Returns the edit distance (Damerau: a swap of two neighbours counts
 * one) between a[0..alen) and b[0..blen), or, with `prefix', between
 * `a' and the closest prefix of `b'.  Counts stop at `cap': the result
 * is min(distance, cap).  Used by the did-you-mean hint.
 */
#define OPT_NAME_MAX	32	/* longer names are never near */
size_t	opt_distance(const char *a, size_t alen, const char *b, size_t blen,
	    int prefix, size_t cap);

/* Puts the --add-header-file lines after everything --add-header gave. */
void	opt_append_header_file(struct opt_ctx *c);

#endif
