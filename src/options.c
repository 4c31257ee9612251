/*
 * The command line of httperf 0.9.0, parsed and validated.
 *
 * One table names every option of this release; it drives getopt_long(3)
 * and the --help text, so the two cannot disagree.  Every value is checked
 * before anything runs, and each mistake is reported as exactly one line
 * naming the option, the problem and the offending value.  Options that
 * cannot go together are refused once the whole line has been read.  The
 * two small files that belong to the request (--body-file and
 * --add-header-file) are read here too, so that a missing file stops the
 * run before it starts; the workload files (--wlog, --wsesslog) are left
 * to their generators, and the certificate, key and trust files to the
 * TLS module, which also judges the cipher lists.  Nothing here keeps
 * state between calls: options_parse() can be run again and again (the
 * unit tests do).
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "options.h"
#include "net/sock.h"
#include "util.h"

/* Indexes into opt_table; getopt_long() returns OPT_VAL_BASE + index. */
enum opt_id {
	OPT_ADD_HEADER,
	OPT_ADD_HEADER_FILE,
	OPT_BODY,
	OPT_BODY_FILE,
	OPT_BURST_LENGTH,
	OPT_CLIENT,
	OPT_CLOSE_WITH_RESET,
	OPT_DEBUG,
	OPT_FAILURE_STATUS,
	OPT_HELP,
	OPT_HOG,
	OPT_HTTP_VERSION,
	OPT_MAX_CONNECTIONS,
	OPT_MAX_PIPED_CALLS,
	OPT_MAX_RETRIES,
	OPT_METHOD,
	OPT_MYADDR,
	OPT_NO_HOST_HDR,
	OPT_NUM_CALLS,
	OPT_NUM_CONNS,
	OPT_PERIOD,
	OPT_PORT,
	OPT_PRINT_REPLY,
	OPT_PRINT_REQUEST,
	OPT_RATE,
	OPT_RECV_BUFFER,
	OPT_RETRY_ON_FAILURE,
	OPT_RUNTIME,
	OPT_SEND_BUFFER,
	OPT_SERVER,
	OPT_SERVER_NAME,
	OPT_SESSION_COOKIES,
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
	OPT_THINK_TIMEOUT,
	OPT_TIMEOUT,
	OPT_TLS_SERVER_NAME,
	OPT_URI,
	OPT_VERBOSE,
	OPT_VERSION,
	OPT_WLOG,
	OPT_WSESS,
	OPT_WSESSLOG,
	OPT_WSET,
	OPT_NOPTS
};

/* Above every character, so long-only values never clash with -d etc. */
#define OPT_VAL_BASE	256

/* Short options; the leading ':' makes getopt report a missing argument. */
#define OPT_SHORT	":d:hvV"

/* Socket buffer sizes are handed to setsockopt() as an int. */
#define OPT_BUF_MAX	2147483647ULL

struct opt_desc {
	const char	*name;		/* long name without the dashes */
	int		 has_arg;	/* {no,required,optional}_argument */
	const char	*arg;		/* argument in --help, NULL if none */
};

/* In the order --help lists them. */
static const struct opt_desc opt_table[] = {
	[OPT_ADD_HEADER] = { "add-header", required_argument, "S" },
	[OPT_ADD_HEADER_FILE] = { "add-header-file", required_argument, "F" },
	[OPT_BODY] = { "body", required_argument, "S" },
	[OPT_BODY_FILE] = { "body-file", required_argument, "F" },
	[OPT_BURST_LENGTH] = { "burst-length", required_argument, "N" },
	[OPT_CLIENT] = { "client", required_argument, "I/N" },
	[OPT_CLOSE_WITH_RESET] = { "close-with-reset", no_argument, NULL },
	[OPT_DEBUG] = { "debug", required_argument, "N" },
	[OPT_FAILURE_STATUS] = { "failure-status", required_argument, "N" },
	[OPT_HELP] = { "help", no_argument, NULL },
	[OPT_HOG] = { "hog", no_argument, NULL },
	[OPT_HTTP_VERSION] = { "http-version", required_argument, "S" },
	[OPT_MAX_CONNECTIONS] = { "max-connections", required_argument, "N" },
	[OPT_MAX_PIPED_CALLS] = { "max-piped-calls", required_argument, "N" },
	[OPT_MAX_RETRIES] = { "max-retries", required_argument, "N" },
	[OPT_METHOD] = { "method", required_argument, "S" },
	[OPT_MYADDR] = { "myaddr", required_argument, "S" },
	[OPT_NO_HOST_HDR] = { "no-host-hdr", no_argument, NULL },
	[OPT_NUM_CALLS] = { "num-calls", required_argument, "N" },
	[OPT_NUM_CONNS] = { "num-conns", required_argument, "N" },
	[OPT_PERIOD] = { "period", required_argument,
	    "[d|u|e]T1[,T2]|vT1,D1[,T2,D2...]" },
	[OPT_PORT] = { "port", required_argument, "N" },
	[OPT_PRINT_REPLY] = { "print-reply", optional_argument,
	    "header|body" },
	[OPT_PRINT_REQUEST] = { "print-request", optional_argument,
	    "header|body" },
	[OPT_RATE] = { "rate", required_argument, "X" },
	[OPT_RECV_BUFFER] = { "recv-buffer", required_argument, "N" },
	[OPT_RETRY_ON_FAILURE] = { "retry-on-failure", no_argument, NULL },
	[OPT_RUNTIME] = { "runtime", required_argument, "X" },
	[OPT_SEND_BUFFER] = { "send-buffer", required_argument, "N" },
	[OPT_SERVER] = { "server", required_argument, "S" },
	[OPT_SERVER_NAME] = { "server-name", required_argument, "S" },
	[OPT_SESSION_COOKIES] = { "session-cookies", no_argument, NULL },
	[OPT_SSL] = { "ssl", no_argument, NULL },
	[OPT_SSL_CA_FILE] = { "ssl-ca-file", required_argument, "F" },
	[OPT_SSL_CA_PATH] = { "ssl-ca-path", required_argument, "D" },
	[OPT_SSL_CERTIFICATE] = { "ssl-certificate", required_argument, "F" },
	[OPT_SSL_CIPHERS] = { "ssl-ciphers", required_argument, "L" },
	[OPT_SSL_CIPHERSUITES] = { "ssl-ciphersuites", required_argument,
	    "L" },
	[OPT_SSL_KEY] = { "ssl-key", required_argument, "F" },
	[OPT_SSL_NO_REUSE] = { "ssl-no-reuse", no_argument, NULL },
	[OPT_SSL_PROTOCOL] = { "ssl-protocol", required_argument, "S" },
	[OPT_SSL_VERIFY] = { "ssl-verify", optional_argument, "yes|no" },
	[OPT_THINK_TIMEOUT] = { "think-timeout", required_argument, "X" },
	[OPT_TIMEOUT] = { "timeout", required_argument, "X" },
	[OPT_TLS_SERVER_NAME] = { "tls-server-name", required_argument, "S" },
	[OPT_URI] = { "uri", required_argument, "S" },
	[OPT_VERBOSE] = { "verbose", no_argument, NULL },
	[OPT_VERSION] = { "version", no_argument, NULL },
	[OPT_WLOG] = { "wlog", required_argument, "y|n,F" },
	[OPT_WSESS] = { "wsess", required_argument, "N1,N2,X" },
	[OPT_WSESSLOG] = { "wsesslog", required_argument, "N,X,F" },
	[OPT_WSET] = { "wset", required_argument, "N,X" },
};
_Static_assert(nitems(opt_table) == OPT_NOPTS, "opt_table incomplete");

/*
 * What one parse works on: the options, the error stream, and what is
 * only needed until the command line has been checked as a whole.
 */
struct opt_ctx {
	struct options	*o;
	FILE		*err;
	/* Given explicitly, even at their default value. */
	int		 num_conns_given;
	int		 num_calls_given;
	int		 burst_len_given;
	int		 ssl_verify_given; /* even as --ssl-verify=no */
	int		 max_retries_given;
	/* The header lines of --add-header-file, already in wire form;
	   they go after every --add-header, so they wait here. */
	char		*hdr_file;
	size_t		 hdr_file_len;
};

/* Sets the defaults of httperf 0.9.0; pointers refer to static strings. */
void
options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->prog = "httperf";
	o->server = "localhost";
	o->port = 80;
	o->uri = "/";
	o->http_minor = 1;
	o->num_conns = 1;
	o->num_calls = 1;
	o->burst_len = 1;
	rate_spec_set_rate(&o->rate, 0.0);
	o->client_id = 0;
	o->num_clients = 1;
	o->send_buffer = 4096;
	o->recv_buffer = 16384;
	o->max_retries = OPTIONS_MAX_RETRIES;
}

/* Frees what the parse allocated and returns the struct to its defaults. */
void
options_free(struct options *o)
{
	free(o->add_header_raw);
	free(o->add_header);
	free(o->body);
	free(o->myaddr);
	options_init(o);
}

int
options_session(const struct options *o)
{
	return o->wsess_n > 0 || o->wsesslog_n > 0;
}

/*
 * Writes a user-supplied string so that it cannot break the one-line rule:
 * control characters come out as C escapes.
 */
static void
put_escaped(FILE *f, const char *s)
{
	unsigned char ch;

	for (; *s != '\0'; s++) {
		ch = (unsigned char)*s;
		if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\r')
			fputs("\\r", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			putc(ch, f);
	}
}

/*
 * Reports one mistake as "PROG: --opt: problem ('value')" and returns -1.
 * `opt' or `value' may be NULL to leave that part out.
 */
static int __attribute__((format(printf, 4, 5)))
opt_fail(const struct opt_ctx *c, const char *opt, const char *value,
    const char *fmt, ...)
{
	va_list ap;

	fprintf(c->err, "%s: ", c->o->prog);
	if (opt != NULL)
		fprintf(c->err, "%s: ", opt);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	if (value != NULL) {
		fputs(" ('", c->err);
		put_escaped(c->err, value);
		fputs("')", c->err);
	}
	putc('\n', c->err);
	return -1;
}

/*
 * Parses a whole decimal integer in [min, max].  strtoull() alone would
 * accept leading blanks, a sign (and negate!), and stop at junk, so those
 * cases are caught first.
 */
static int
opt_uint(const struct opt_ctx *c, const char *opt, const char *whole,
    const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*arg == '\0')
		return opt_fail(c, opt, whole, "empty number");
	if (*arg == '-' && isdigit((unsigned char)arg[1]))
		return opt_fail(c, opt, whole, "must not be negative");
	if (!isdigit((unsigned char)*arg))
		return opt_fail(c, opt, whole, "not a number");
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno == ERANGE)
		return opt_fail(c, opt, whole, "number too large");
	if (*end != '\0')
		return opt_fail(c, opt, whole,
		    "unexpected characters after the number");
	if (v < min || v > max) {
		if (max == UINT64_MAX)
			return opt_fail(c, opt, whole, "must be at least %llu",
			    (unsigned long long)min);
		return opt_fail(c, opt, whole, "must be between %llu and %llu",
		    (unsigned long long)min, (unsigned long long)max);
	}
	*out = v;
	return 0;
}

/*
 * Parses a finite, non-negative number of seconds (or a rate).  `arg' is
 * the number, `whole' the option argument it came from (for the message).
 */
static int
opt_double(const struct opt_ctx *c, const char *opt, const char *whole,
    const char *arg, double *out)
{
	double v;
	char *end;

	if (*arg == '\0')
		return opt_fail(c, opt, whole, "empty number");
	if (isspace((unsigned char)*arg))
		return opt_fail(c, opt, whole, "not a number");
	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || isnan(v))
		return opt_fail(c, opt, whole, "not a number");
	if (*end != '\0')
		return opt_fail(c, opt, whole,
		    "unexpected characters after the number");
	if (isinf(v))
		return opt_fail(c, opt, whole, "must be finite");
	if (v < 0)
		return opt_fail(c, opt, whole, "must not be negative");
	*out = v == 0 ? 0.0 : v;	/* no "-0" in the echo line */
	return 0;
}

/*
 * Parses a time in seconds: opt_double(), and at most OPTIONS_MAX_SEC so
 * that a deadline (now plus one or two such times, in nanoseconds) cannot
 * wrap around the 64-bit clock.
 */
static int
opt_seconds(const struct opt_ctx *c, const char *opt, const char *whole,
    const char *arg, double *out)
{
	if (opt_double(c, opt, whole, arg, out) == -1)
		return -1;
	if (*out > OPTIONS_MAX_SEC)
		return opt_fail(c, opt, whole, "must be at most %.0f seconds",
		    OPTIONS_MAX_SEC);
	return 0;
}

/*
 * Accepts a string that goes verbatim into the request line or the Host
 * header: a space, a tab, CR, LF or any other control character there
 * would change the meaning of the request.  (A NUL cannot reach us: argv
 * strings end at the first one.)
 */
static int
opt_word(const struct opt_ctx *c, const char *opt, const char *arg)
{
	const unsigned char *p;

	if (*arg == '\0')
		return opt_fail(c, opt, arg, "must not be empty");
	for (p = (const unsigned char *)arg; *p != '\0'; p++)
		if (*p <= ' ' || *p == 0x7f)
			return opt_fail(c, opt, arg,
			    "contains a space or control character");
	return 0;
}

/* Parses --client I/N: both parts decimal, N >= 1 and I < N. */
static int
opt_client(const struct opt_ctx *c, const char *arg)
{
	const char *opt = "--client";
	char *copy, *slash;
	uint64_t id, n;
	int rv = -1;

	if (*arg == '\0')
		return opt_fail(c, opt, arg, "must not be empty");
	copy = xstrdup(arg);
	if ((slash = strchr(copy, '/')) == NULL) {
		opt_fail(c, opt, arg, "expected I/N");
		goto out;
	}
	*slash = '\0';
	if (opt_uint(c, opt, arg, copy, 0, UINT_MAX, &id) == -1 ||
	    opt_uint(c, opt, arg, slash + 1, 0, UINT_MAX, &n) == -1)
		goto out;
	if (n == 0) {
		opt_fail(c, opt, arg, "number of clients must be at least 1");
		goto out;
	}
	if (id >= n) {
		opt_fail(c, opt, arg,
		    "client id must be less than the number of clients");
		goto out;
	}
	c->o->client_id = (unsigned)id;
	c->o->num_clients = (unsigned)n;
	rv = 0;
out:
	free(copy);
	return rv;
}

/* Prints one byte readably: itself, or \xNN when it is not printable. */
static void
put_escape_char(FILE *f, unsigned char ch)
{
	if (ch < 0x20 || ch >= 0x7f)
		fprintf(f, "\\x%02x", ch);
	else
		putc(ch, f);
}

/*
 * The --add-header and --body expander behind options_unescape().  When
 * `c' is not NULL, each unknown escape is also reported on its error
 * stream under the name `opt'.
 */
static int
unescape(const struct opt_ctx *c, const char *opt, const char *in,
    char **out, size_t *outlen, unsigned *nwarn, char *errbuf,
    size_t errlen)
{
	const char *p;
	char *buf, *q;
	unsigned v;
	int n;

	buf = xmalloc(strlen(in) + 1);	/* no escape grows: "\n" is 2 */
	q = buf;
	for (p = in; *p != '\0'; p++) {
		if (*p != '\\') {
			*q++ = *p;
			continue;
		}
		p++;
		switch (*p) {
		case '\0':
			snprintf(errbuf, errlen, "ends with a lone backslash");
			free(buf);
			return -1;
		case 'n':
			*q++ = '\r';
			*q++ = '\n';
			break;
		case 'r':
			*q++ = '\r';
			break;
		case 'a':		/* sic: line feed, as in 0.9.0 */
			*q++ = '\n';
			break;
		case '\\':
			*q++ = '\\';
			break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7':
			v = 0;
			for (n = 0; n < 3 && p[n] >= '0' && p[n] <= '7'; n++)
				v = v * 8 + (unsigned)(p[n] - '0');
			if (v > 0377) {
				snprintf(errbuf, errlen, "octal escape "
				    "\\%.3s is above \\377", p);
				free(buf);
				return -1;
			}
			*q++ = (char)v;
			p += n - 1;
			break;
		default:
			*q++ = *p;
			(*nwarn)++;
			if (c != NULL) {
				fprintf(c->err, "%s: %s: unknown escape "
				    "'\\", c->o->prog, opt);
				put_escape_char(c->err, (unsigned char)*p);
				fputs("' kept\n", c->err);
			}
			break;
		}
	}
	*q = '\0';
	*out = buf;
	*outlen = (size_t)(q - buf);
	return 0;
}

int
options_unescape(const char *in, char **out, size_t *outlen, unsigned *nwarn,
    char *errbuf, size_t errlen)
{
	return unescape(NULL, NULL, in, out, outlen, nwarn, errbuf, errlen);
}

/* Appends one --add-header: raw text for the echo, expanded for the wire. */
static int
opt_add_header(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	char errbuf[128], *buf;
	size_t len;
	unsigned nwarn = 0;

	if (unescape(c, "--add-header", arg, &buf, &len, &nwarn, errbuf,
	    sizeof(errbuf)) == -1)
		return opt_fail(c, "--add-header", arg, "%s", errbuf);
	o->add_header_raw = xreallocarray(o->add_header_raw,
	    o->n_add_header + 1, sizeof(*o->add_header_raw));
	o->add_header_raw[o->n_add_header++] = arg;
	o->add_header = xrealloc(o->add_header, o->add_header_len + len + 1);
	memcpy(o->add_header + o->add_header_len, buf, len + 1);
	o->add_header_len += len;
	free(buf);
	return 0;
}

/*
 * Reports a problem with a file named on the command line as
 * "PROG: --opt: FILE: problem" (or "PROG: --opt: FILE: line N: problem
 * ('text')" when `line' is not 0), and returns -1.  The text quoted comes
 * from the file, so every byte that is not printable ASCII is escaped.
 */
static int __attribute__((format(printf, 6, 7)))
opt_fail_file(const struct opt_ctx *c, const char *opt, const char *path,
    size_t line, const char *text, const char *fmt, ...)
{
	va_list ap;

	fprintf(c->err, "%s: %s: ", c->o->prog, opt);
	put_escaped(c->err, path);
	if (line > 0)
		fprintf(c->err, ": line %zu", line);
	fputs(": ", c->err);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	if (text != NULL) {
		fputs(" ('", c->err);
		util_put_escaped(c->err, text, strlen(text));
		fputs("')", c->err);
	}
	putc('\n', c->err);
	return -1;
}

/*
 * Splits `s' in place at its first n - 1 commas into f[0..n-1]; the last
 * field keeps any further commas (a file name may have them).  Returns the
 * number of fields found.
 */
static size_t
split_fields(char *s, char **f, size_t n)
{
	size_t i = 0;

	f[i++] = s;
	while (i < n && (s = strchr(s, ',')) != NULL) {
		*s++ = '\0';
		f[i++] = s;
	}
	return i;
}

/* Parses --wsess N1,N2,X: sessions, calls per session, think time. */
static int
opt_wsess(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	char *copy, *f[3];
	uint64_t n, calls;
	double think;
	int rv = -1;

	copy = xstrdup(arg);
	if (split_fields(copy, f, 3) != 3)
		opt_fail(c, "--wsess", arg, "expected N1,N2,X");
	else if (opt_uint(c, "--wsess: N1", arg, f[0], 1, UINT64_MAX,
	    &n) == 0 &&
	    opt_uint(c, "--wsess: N2", arg, f[1], 1, UINT64_MAX,
	    &calls) == 0 &&
	    opt_seconds(c, "--wsess: X", arg, f[2], &think) == 0) {
		o->wsess_n = n;
		o->wsess_calls = calls;
		o->wsess_think = think;
		rv = 0;
	}
	free(copy);
	return rv;
}

/*
 * Parses --wsesslog N,X,F.  The file itself is the generator's business:
 * it reports its own open and syntax errors when it loads it.
 */
static int
opt_wsesslog(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	char *copy, *f[3];
	uint64_t n;
	double think;
	int rv = -1;

	copy = xstrdup(arg);
	if (split_fields(copy, f, 3) != 3)
		opt_fail(c, "--wsesslog", arg, "expected N,X,F");
	else if (opt_uint(c, "--wsesslog: N", arg, f[0], 1, UINT64_MAX,
	    &n) == 0 &&
	    opt_seconds(c, "--wsesslog: X", arg, f[1], &think) == 0) {
		if (*f[2] == '\0')
			opt_fail(c, "--wsesslog: F", arg, "must not be empty");
		else {
			o->wsesslog_n = n;
			o->wsesslog_think = think;
			o->wsesslog_file = arg + (f[2] - copy);
			rv = 0;
		}
	}
	free(copy);
	return rv;
}

/* Parses --wset N,X: N files, a miss rate X from 0 to 1. */
static int
opt_wset(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	char *copy, *f[2];
	uint64_t n;
	double x;
	int rv = -1;

	copy = xstrdup(arg);
	if (split_fields(copy, f, 2) != 2)
		opt_fail(c, "--wset", arg, "expected N,X");
	else if (opt_uint(c, "--wset: N", arg, f[0], 1, UINT64_MAX,
	    &n) == 0 &&
	    opt_double(c, "--wset: X", arg, f[1], &x) == 0) {
		if (x > 1)
			opt_fail(c, "--wset: X", arg,
			    "must be between 0 and 1");
		else {
			o->wset_n = n;
			o->wset_x = x;
			rv = 0;
		}
	}
	free(copy);
	return rv;
}

/* Parses --wlog y|n,F; 0.9.0 took any letter and did not look for F. */
static int
opt_wlog(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;

	if (strchr(arg, ',') == NULL)
		return opt_fail(c, "--wlog", arg, "expected y,F or n,F");
	if (arg[0] == '\0' || strchr("yYnN", arg[0]) == NULL ||
	    arg[1] != ',')
		return opt_fail(c, "--wlog", arg,
		    "expected y or n before the comma");
	if (arg[2] == '\0')
		return opt_fail(c, "--wlog: F", arg, "must not be empty");
	o->wlog_wrap = arg[0] == 'y' || arg[0] == 'Y';
	o->wlog_file = arg + 2;
	return 0;
}

/*
 * Parses the optional argument of --print-request and --print-reply.
 * 0.9.0 took any value but h... and b... to mean both; a typo is more
 * likely than a wish for both, so it is refused here.
 */
static int
opt_print(const struct opt_ctx *c, const char *opt, const char *arg,
    int *out)
{
	if (arg == NULL)
		*out = PRINT_HEADER | PRINT_BODY;
	else if (arg[0] == 'h' || arg[0] == 'H')
		*out = PRINT_HEADER;
	else if (arg[0] == 'b' || arg[0] == 'B')
		*out = PRINT_BODY;
	else
		return opt_fail(c, opt, arg, "expected header or body");
	return 0;
}

/* Parses --body S: the same escapes as --add-header. */
static int
opt_body(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	char errbuf[128], *buf;
	size_t len;
	unsigned nwarn = 0;

	if (unescape(c, "--body", arg, &buf, &len, &nwarn, errbuf,
	    sizeof(errbuf)) == -1)
		return opt_fail(c, "--body", arg, "%s", errbuf);
	free(o->body);
	o->body = buf;
	o->body_len = len;
	o->body_raw = arg;
	return 0;
}

/* Parses --body-file F: the body is F's bytes, read now and kept. */
static int
opt_body_file(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	char *buf;
	size_t len;
	int e;

	if (*arg == '\0')
		return opt_fail(c, "--body-file", arg, "must not be empty");
	if ((e = util_read_file(arg, &buf, &len)) != 0)
		return opt_fail_file(c, "--body-file", arg, 0, NULL, "%s",
		    util_read_strerror(e));
	free(o->body);
	o->body = buf;
	o->body_len = len;
	o->body_file = arg;
	return 0;
}

/*
 * Turns the text of an --add-header-file into header lines on the wire:
 * LF ends a line and a CR just before it (or at the very end) goes, empty
 * lines are skipped, and every other line must be "Name: value" with a
 * token for a name and no control character but tab; each comes out with
 * CR LF.  Upstream sent the raw bytes, so a file saved with bare LFs gave
 * a broken request.
 */
static int
opt_header_lines(const struct opt_ctx *c, const char *path, const char *in,
    size_t inlen, char **out, size_t *outlen)
{
	const char *p, *end = in + inlen, *eol, *next, *colon, *q, *why;
	char *buf, *w, *line;
	size_t lineno = 0;

	/* Output never exceeds twice the input plus CR LF and a NUL. */
	buf = xmalloc(2 * inlen + 3);
	w = buf;
	for (p = in; p < end; p = next) {
		lineno++;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) != NULL)
			next = eol + 1;
		else
			eol = next = end;
		if (eol > p && eol[-1] == '\r')
			eol--;
		if (eol == p)
			continue;
		why = NULL;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (colon == NULL || colon == p)
			why = "not a header line, expected Name: value";
		for (q = p; why == NULL && q < colon; q++)
			if (!util_is_tchar((unsigned char)*q))
				why = "not a header line, expected Name: "
				    "value";
		for (q = colon; why == NULL && q < eol; q++)
			if (((unsigned char)*q < 0x20 && *q != '\t') ||
			    *q == 0x7f)
				why = "control character in the value";
		if (why != NULL) {
			line = xmalloc((size_t)(eol - p) + 1);
			memcpy(line, p, (size_t)(eol - p));
			line[eol - p] = '\0';
			opt_fail_file(c, "--add-header-file", path, lineno,
			    line, "%s", why);
			free(line);
			free(buf);
			return -1;
		}
		memcpy(w, p, (size_t)(eol - p));
		w += eol - p;
		*w++ = '\r';
		*w++ = '\n';
	}
	*w = '\0';
	*out = buf;
	*outlen = (size_t)(w - buf);
	return 0;
}

/* Parses --add-header-file F: read and checked now, appended at the end. */
static int
opt_add_header_file(struct opt_ctx *c, const char *arg)
{
	char *raw, *lines;
	size_t rawlen, len;
	int e;

	if (*arg == '\0')
		return opt_fail(c, "--add-header-file", arg,
		    "must not be empty");
	if ((e = util_read_file(arg, &raw, &rawlen)) != 0)
		return opt_fail_file(c, "--add-header-file", arg, 0, NULL,
		    "%s", util_read_strerror(e));
	e = opt_header_lines(c, arg, raw, rawlen, &lines, &len);
	free(raw);
	if (e == -1)
		return -1;
	free(c->hdr_file);
	c->hdr_file = lines;
	c->hdr_file_len = len;
	c->o->add_header_file = arg;
	return 0;
}

/*
 * Checks the syntax of one --myaddr with the parser that later expands
 * it (net/sock.c): an IPv4 address, an IPv4 range A.B.C.D-E.F.G.H with
 * A.B.C.D <= E.F.G.H, an IPv6 address (with an optional %scope), or
 * something that can be a host name.  Whether the name resolves is
 * main's question.
 */
static int
opt_myaddr(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	struct sock_src src;
	char errbuf[128];

	if (sock_parse_src(arg, &src, errbuf, sizeof(errbuf)) == -1)
		return opt_fail(c, "--myaddr", arg, "%s", errbuf);
	o->myaddr = xreallocarray(o->myaddr, o->n_myaddr + 1,
	    sizeof(*o->myaddr));
	o->myaddr[o->n_myaddr++] = arg;
	return 0;
}

/*
 * Accepts text handed to a library as it is (a cipher list): it must not
 * be empty, and a control character can only be a mistake that would
 * also break the one-line echo.  Spaces are fine: OpenSSL takes them as
 * separators.
 */
static int
opt_text(const struct opt_ctx *c, const char *opt, const char *arg,
    const char **out)
{
	const unsigned char *p;

	if (*arg == '\0')
		return opt_fail(c, opt, arg, "must not be empty");
	for (p = (const unsigned char *)arg; *p != '\0'; p++)
		if (*p < ' ' || *p == 0x7f)
			return opt_fail(c, opt, arg,
			    "contains a control character");
	*out = arg;
	return 0;
}

/* A file or directory name for the TLS module, which opens it later. */
static int
opt_path(const struct opt_ctx *c, const char *opt, const char *arg,
    const char **out)
{
	if (*arg == '\0')
		return opt_fail(c, opt, arg, "must not be empty");
	*out = arg;
	return 0;
}

/* The names --ssl-protocol takes, case aside, and the version of each. */
static const struct {
	const char	*name;
	int		 version;
} ssl_protocols[] = {
	{ "auto", TLS_VERSION_ANY },
	{ "TLSv1", TLS_VERSION_1_0 },
	{ "TLSv1.0", TLS_VERSION_1_0 },
	{ "TLSv1_0", TLS_VERSION_1_0 },
	{ "TLSv1.1", TLS_VERSION_1_1 },
	{ "TLSv1_1", TLS_VERSION_1_1 },
	{ "TLSv1.2", TLS_VERSION_1_2 },
	{ "TLSv1_2", TLS_VERSION_1_2 },
	{ "TLSv1.3", TLS_VERSION_1_3 },
	{ "TLSv1_3", TLS_VERSION_1_3 },
};

const char *
options_tls_version_name(int version)
{
	return tls_version_name(version);
}

/*
 * Parses --ssl-protocol: one version, used as both the lowest and the
 * highest allowed, or auto for the library's range.  Like upstream it
 * turns TLS on.  Whether the library still allows TLS 1.0 and 1.1 is only
 * known when the TLS context is built; SSL 2 and 3 are refused here.
 */
static int
opt_ssl_protocol(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	size_t i;

	for (i = 0; i < nitems(ssl_protocols); i++)
		if (strcasecmp(arg, ssl_protocols[i].name) == 0)
			break;
	if (i == nitems(ssl_protocols)) {
		if (strcasecmp(arg, "SSLv2") == 0 ||
		    strcasecmp(arg, "SSLv3") == 0)
			return opt_fail(c, "--ssl-protocol", arg,
			    "not supported (use TLSv1.0 or later)");
		return opt_fail(c, "--ssl-protocol", arg, "expected auto, "
		    "TLSv1.0, TLSv1.1, TLSv1.2 or TLSv1.3");
	}
	o->ssl = 1;
	o->ssl_min_version = ssl_protocols[i].version;
	o->ssl_max_version = ssl_protocols[i].version;
	o->ssl_protocol_raw = arg;
	return 0;
}

/*
 * Parses the optional argument of --ssl-verify: none or a word starting
 * with y means yes, one starting with n means no.  Upstream took anything
 * else for no; here it is refused, as a typo is the likelier cause.
 */
static int
opt_ssl_verify(struct opt_ctx *c, const char *arg)
{
	if (arg == NULL || arg[0] == 'y' || arg[0] == 'Y')
		c->o->ssl_verify = 1;
	else if (arg[0] == 'n' || arg[0] == 'N')
		c->o->ssl_verify = 0;
	else
		return opt_fail(c, "--ssl-verify", arg, "expected yes or no");
	c->ssl_verify_given = 1;
	return 0;
}

/* Returns the longest time, in seconds, a --period spec holds. */
static double
opt_period_max(const struct rate_spec *s)
{
	double m = s->mean_iat;
	size_t i;

	if (s->max_iat > m)
		m = s->max_iat;
	for (i = 0; i < s->nvar; i++) {
		if (s->var_iat[i] > m)
			m = s->var_iat[i];
		if (s->var_dur[i] > m)
			m = s->var_dur[i];
	}
	return m;
}

/* Applies one option; `arg' is its argument or NULL. */
static int
opt_apply(struct opt_ctx *c, enum opt_id id, const char *arg)
{
	struct options *o = c->o;
	char errbuf[256];
	const char *p;
	uint64_t v;
	double d;

	switch (id) {
	case OPT_ADD_HEADER:
		return opt_add_header(c, arg);
	case OPT_ADD_HEADER_FILE:
		return opt_add_header_file(c, arg);
	case OPT_BODY:
		return opt_body(c, arg);
	case OPT_BODY_FILE:
		return opt_body_file(c, arg);
	case OPT_BURST_LENGTH:
		c->burst_len_given = 1;
		return opt_uint(c, "--burst-length", arg, arg, 1, UINT64_MAX,
		    &o->burst_len);
	case OPT_CLIENT:
		return opt_client(c, arg);
	case OPT_CLOSE_WITH_RESET:
		o->close_with_reset = 1;
		return 0;
	case OPT_DEBUG:
		if (opt_uint(c, "--debug", arg, arg, 0, 9, &v) == -1)
			return -1;
		o->debug = (int)v;
		return 0;
	case OPT_FAILURE_STATUS:
		if (opt_uint(c, "--failure-status", arg, arg, 100, 599,
		    &v) == -1)
			return -1;
		o->failure_status = (unsigned)v;
		return 0;
	case OPT_HOG:
		o->hog = 1;
		return 0;
	case OPT_HTTP_VERSION:
		if (strcmp(arg, "1.0") == 0)
			o->http_minor = 0;
		else if (strcmp(arg, "1.1") == 0)
			o->http_minor = 1;
		else
			return opt_fail(c, "--http-version", arg,
			    "must be 1.0 or 1.1");
		return 0;
	case OPT_MAX_CONNECTIONS:
		if (opt_uint(c, "--max-connections", arg, arg, 1, UINT_MAX,
		    &v) == -1)
			return -1;
		o->max_connections = (unsigned)v;
		return 0;
	case OPT_MAX_PIPED_CALLS:
		if (opt_uint(c, "--max-piped-calls", arg, arg, 1, UINT_MAX,
		    &v) == -1)
			return -1;
		o->max_piped = (unsigned)v;
		return 0;
	case OPT_MAX_RETRIES:
		if (opt_uint(c, "--max-retries", arg, arg, 0,
		    OPTIONS_MAX_RETRIES_MAX, &v) == -1)
			return -1;
		o->max_retries = (unsigned)v;
		c->max_retries_given = 1;
		return 0;
	case OPT_METHOD:
		if (*arg == '\0')
			return opt_fail(c, "--method", arg,
			    "must not be empty");
		for (p = arg; *p != '\0'; p++)
			if (!util_is_tchar((unsigned char)*p))
				return opt_fail(c, "--method", arg,
				    "not an HTTP token (letters, digits and "
				    "!#$%%&'*+-.^_`|~ only)");
		o->method = arg;
		return 0;
	case OPT_MYADDR:
		return opt_myaddr(c, arg);
	case OPT_NO_HOST_HDR:
		o->no_host_hdr = 1;
		return 0;
	case OPT_NUM_CALLS:
		c->num_calls_given = 1;
		return opt_uint(c, "--num-calls", arg, arg, 1, UINT64_MAX,
		    &o->num_calls);
	case OPT_NUM_CONNS:
		c->num_conns_given = 1;
		return opt_uint(c, "--num-conns", arg, arg, 1, UINT64_MAX,
		    &o->num_conns);
	case OPT_PERIOD:
		if (*arg == '\0')
			return opt_fail(c, "--period", arg,
			    "must not be empty");
		errbuf[0] = '\0';
		if (rate_spec_parse_period(&o->rate, arg, errbuf,
		    sizeof(errbuf)) == -1)
			return opt_fail(c, "--period", arg, "%s",
			    errbuf[0] != '\0' ? errbuf : "invalid period");
		if (opt_period_max(&o->rate) > OPTIONS_MAX_SEC)
			return opt_fail(c, "--period", arg, "times must be at "
			    "most %.0f seconds", OPTIONS_MAX_SEC);
		o->rate_given = 1;
		return 0;
	case OPT_PORT:
		if (opt_uint(c, "--port", arg, arg, 1, 65535, &v) == -1)
			return -1;
		o->port = (unsigned)v;
		o->port_given = 1;
		return 0;
	case OPT_PRINT_REPLY:
		return opt_print(c, "--print-reply", arg, &o->print_reply);
	case OPT_PRINT_REQUEST:
		return opt_print(c, "--print-request", arg,
		    &o->print_request);
	case OPT_RATE:
		if (opt_double(c, "--rate", arg, arg, &d) == -1)
			return -1;
		if (d > 0 && d < 1 / OPTIONS_MAX_SEC)
			return opt_fail(c, "--rate", arg, "must be 0 or at "
			    "least %g (one per %.0f seconds)",
			    1 / OPTIONS_MAX_SEC, OPTIONS_MAX_SEC);
		rate_spec_set_rate(&o->rate, d);
		o->rate_given = 1;
		return 0;
	case OPT_RECV_BUFFER:
		if (opt_uint(c, "--recv-buffer", arg, arg, 1, OPT_BUF_MAX,
		    &v) == -1)
			return -1;
		o->recv_buffer = (unsigned long)v;
		return 0;
	case OPT_RETRY_ON_FAILURE:
		o->retry_on_failure = 1;
		return 0;
	case OPT_RUNTIME:
		return opt_seconds(c, "--runtime", arg, arg, &o->runtime);
	case OPT_SEND_BUFFER:
		if (opt_uint(c, "--send-buffer", arg, arg, 1, OPT_BUF_MAX,
		    &v) == -1)
			return -1;
		o->send_buffer = (unsigned long)v;
		return 0;
	case OPT_SERVER:
		if (opt_word(c, "--server", arg) == -1)
			return -1;
		o->server = arg;
		return 0;
	case OPT_SERVER_NAME:
		if (opt_word(c, "--server-name", arg) == -1)
			return -1;
		o->server_name = arg;
		return 0;
	case OPT_SESSION_COOKIES:
		o->session_cookies = 1;
		return 0;
	case OPT_SSL:
		o->ssl = 1;
		return 0;
	case OPT_SSL_CA_FILE:
		return opt_path(c, "--ssl-ca-file", arg, &o->ssl_ca_file);
	case OPT_SSL_CA_PATH:
		return opt_path(c, "--ssl-ca-path", arg, &o->ssl_ca_path);
	case OPT_SSL_CERTIFICATE:
		return opt_path(c, "--ssl-certificate", arg,
		    &o->ssl_certificate);
	case OPT_SSL_CIPHERS:
		return opt_text(c, "--ssl-ciphers", arg, &o->ssl_ciphers);
	case OPT_SSL_CIPHERSUITES:
		return opt_text(c, "--ssl-ciphersuites", arg,
		    &o->ssl_ciphersuites);
	case OPT_SSL_KEY:
		return opt_path(c, "--ssl-key", arg, &o->ssl_key);
	case OPT_SSL_NO_REUSE:
		o->ssl_no_reuse = 1;
		return 0;
	case OPT_SSL_PROTOCOL:
		return opt_ssl_protocol(c, arg);
	case OPT_SSL_VERIFY:
		return opt_ssl_verify(c, arg);
	case OPT_THINK_TIMEOUT:
		return opt_seconds(c, "--think-timeout", arg, arg,
		    &o->think_timeout);
	case OPT_TIMEOUT:
		return opt_seconds(c, "--timeout", arg, arg, &o->timeout);
	case OPT_TLS_SERVER_NAME:
		if (opt_word(c, "--tls-server-name", arg) == -1)
			return -1;
		o->tls_server_name = arg;
		return 0;
	case OPT_URI:
		if (opt_word(c, "--uri", arg) == -1)
			return -1;
		o->uri = arg;
		return 0;
	case OPT_VERBOSE:
		o->verbose++;
		return 0;
	case OPT_WLOG:
		return opt_wlog(c, arg);
	case OPT_WSESS:
		return opt_wsess(c, arg);
	case OPT_WSESSLOG:
		return opt_wsesslog(c, arg);
	case OPT_WSET:
		return opt_wset(c, arg);
	case OPT_HELP:
	case OPT_VERSION:
	case OPT_NOPTS:
		break;
	}
	return 0;
}

/*
 * The TLS options only tune TLS, so without --ssl (or --ssl-protocol,
 * which turns it on) each of them is a mistake; so is a key without the
 * certificate it belongs to.  The trust anchors and the server name are
 * fine without --ssl-verify: the name is sent as SNI in any case, and the
 * anchors are simply not consulted.
 */
static int
opt_check_tls(const struct opt_ctx *c)
{
	static const char needs_ssl[] = "requires --ssl";
	const struct options *o = c->o;
	const struct {
		int		 set;
		const char	*name;
	} deps[] = {
		{ o->ssl_ciphers != NULL, "--ssl-ciphers" },
		{ o->ssl_ciphersuites != NULL, "--ssl-ciphersuites" },
		{ o->tls_server_name != NULL, "--tls-server-name" },
		{ o->ssl_no_reuse, "--ssl-no-reuse" },
		{ o->ssl_certificate != NULL, "--ssl-certificate" },
		{ o->ssl_key != NULL, "--ssl-key" },
		{ o->ssl_ca_file != NULL, "--ssl-ca-file" },
		{ o->ssl_ca_path != NULL, "--ssl-ca-path" },
		{ c->ssl_verify_given, "--ssl-verify" },
	};
	size_t i;

	if (!o->ssl)
		for (i = 0; i < nitems(deps); i++)
			if (deps[i].set)
				return opt_fail(c, deps[i].name, NULL, "%s",
				    needs_ssl);
	if (o->ssl_key != NULL && o->ssl_certificate == NULL)
		return opt_fail(c, "--ssl-key", NULL,
		    "requires --ssl-certificate");
	return 0;
}

/*
 * Refuses combinations that make no sense, once the whole command line is
 * known (so the order of the options does not matter).  httperf 0.9.0
 * silently ignored most of these, leaving the user to wonder why the test
 * did not do what was asked.
 */
static int
opt_check_together(const struct opt_ctx *c)
{
	static const char needs_sess[] =
	    "requires a session workload (--wsess or --wsesslog)";
	const struct options *o = c->o;
	const char *sess;

	if (o->wsess_n > 0 && o->wsesslog_n > 0)
		return opt_fail(c, "--wsess", NULL,
		    "cannot be used with --wsesslog");
	if (o->wsesslog_n > 0 && o->wlog_file != NULL)
		return opt_fail(c, "--wlog", NULL, "cannot be used with "
		    "--wsesslog (its URIs come from its file)");
	if (o->wsesslog_n > 0 && o->wset_n > 0)
		return opt_fail(c, "--wset", NULL, "cannot be used with "
		    "--wsesslog (its URIs come from its file)");
	if (o->wlog_file != NULL && o->wset_n > 0)
		return opt_fail(c, "--wlog", NULL,
		    "cannot be used with --wset");
	sess = o->wsesslog_n > 0 ? "--wsesslog" : "--wsess";
	if (options_session(o) && c->num_conns_given)
		return opt_fail(c, "--num-conns", NULL, "does not apply to a "
		    "session workload (%s sets the number of sessions)",
		    sess);
	if (options_session(o) && c->num_calls_given)
		return opt_fail(c, "--num-calls", NULL, "does not apply to a "
		    "session workload (%s sets the calls of a session)",
		    sess);
	if (o->wsesslog_n > 0 && c->burst_len_given)
		return opt_fail(c, "--burst-length", NULL, "does not apply "
		    "to --wsesslog (bursts come from its file)");
	if (!options_session(o)) {
		if (o->session_cookies)
			return opt_fail(c, "--session-cookies", NULL, "%s",
			    needs_sess);
		if (o->max_connections > 0)
			return opt_fail(c, "--max-connections", NULL, "%s",
			    needs_sess);
		if (o->max_piped > 0)
			return opt_fail(c, "--max-piped-calls", NULL, "%s",
			    needs_sess);
		if (o->failure_status > 0)
			return opt_fail(c, "--failure-status", NULL, "%s",
			    needs_sess);
		if (o->retry_on_failure)
			return opt_fail(c, "--retry-on-failure", NULL, "%s",
			    needs_sess);
	}
	if (c->max_retries_given && !o->retry_on_failure)
		return opt_fail(c, "--max-retries", NULL,
		    "requires --retry-on-failure");
	if (o->body_raw != NULL && o->body_file != NULL)
		return opt_fail(c, "--body", NULL,
		    "cannot be used with --body-file");
	return opt_check_tls(c);
}

/* Puts the --add-header-file lines after everything --add-header gave. */
static void
opt_append_header_file(struct opt_ctx *c)
{
	struct options *o = c->o;

	if (c->hdr_file_len == 0)
		return;
	o->add_header = xrealloc(o->add_header,
	    o->add_header_len + c->hdr_file_len + 1);
	memcpy(o->add_header + o->add_header_len, c->hdr_file,
	    c->hdr_file_len + 1);
	o->add_header_len += c->hdr_file_len;
}

/* Maps what getopt_long() put in optopt back to a long option name. */
static const char *
opt_name_of(int val, char *buf, size_t len)
{
	switch (val) {
	case 'd':
		val = OPT_VAL_BASE + OPT_DEBUG;
		break;
	case 'h':
		val = OPT_VAL_BASE + OPT_HELP;
		break;
	case 'v':
		val = OPT_VAL_BASE + OPT_VERBOSE;
		break;
	case 'V':
		val = OPT_VAL_BASE + OPT_VERSION;
		break;
	}
	if (val >= OPT_VAL_BASE && val < OPT_VAL_BASE + OPT_NOPTS)
		snprintf(buf, len, "--%s", opt_table[val - OPT_VAL_BASE].name);
	else
		snprintf(buf, len, "-%c", isprint(val) ? val : '?');
	return buf;
}

/*
 * Explains a long option getopt_long() rejected without telling us which:
 * it is either unknown or an abbreviation of more than one option.
 */
static int
opt_fail_unknown(const struct opt_ctx *c, const char *elem)
{
	char names[512];
	const char *name;
	size_t i, len, nmatch = 0, used = 0;

	name = elem + 2;
	len = strcspn(name, "=");
	names[0] = '\0';
	for (i = 0; len > 0 && i < nitems(opt_table); i++) {
		if (strncmp(opt_table[i].name, name, len) != 0)
			continue;
		nmatch++;
		used += (size_t)snprintf(names + used, sizeof(names) - used,
		    "%s--%s", nmatch > 1 ? ", " : "", opt_table[i].name);
		if (used >= sizeof(names))
			used = sizeof(names) - 1;
	}
	fprintf(c->err, "%s: --", c->o->prog);
	for (i = 0; i < len; i++)
		put_escape_char(c->err, (unsigned char)name[i]);
	if (nmatch > 1)
		fprintf(c->err, ": ambiguous abbreviation (%s)\n", names);
	else
		fputs(": unknown option\n", c->err);
	return -1;
}

/* Prints the -V line: version and the event backends built in. */
static void
opt_version(const struct options *o, FILE *out)
{
	fprintf(out, "%s: httperf-%s (event backends:", o->prog,
	    PACKAGE_VERSION);
#ifdef HAVE_EPOLL_CREATE1
	fputs(" epoll", out);
#endif
	fputs(" poll)\n", out);
}

/* Returns the last path component of argv[0], or "httperf". */
static const char *
prog_name(int argc, char **argv)
{
	const char *p;

	if (argc < 1 || argv[0] == NULL || argv[0][0] == '\0')
		return "httperf";
	if ((p = strrchr(argv[0], '/')) == NULL)
		return argv[0];
	return p[1] != '\0' ? p + 1 : "httperf";
}

/*
 * Starts from the defaults, then applies argv in order and stops at the
 * first mistake, at -h or at -V.  String fields point into argv.
 */
enum options_status
options_parse(struct options *o, int argc, char **argv, FILE *out,
    FILE *err)
{
	struct option longopts[OPT_NOPTS + 1];
	struct opt_ctx c = { .o = o, .err = err };
	enum options_status st = OPTIONS_EXIT_ERR;
	char namebuf[64];
	const char *eq;
	size_t i;
	int ch, id;

	options_init(o);
	o->prog = prog_name(argc, argv);
	for (i = 0; i < OPT_NOPTS; i++) {
		longopts[i].name = opt_table[i].name;
		longopts[i].has_arg = opt_table[i].has_arg;
		longopts[i].flag = NULL;
		longopts[i].val = OPT_VAL_BASE + (int)i;
	}
	memset(&longopts[OPT_NOPTS], 0, sizeof(longopts[OPT_NOPTS]));

	/* glibc: optind 0 also resets getopt's hidden state between runs. */
	opterr = 0;
	optind = 0;
	while ((ch = getopt_long(argc, argv, OPT_SHORT, longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			id = OPT_DEBUG;
			break;
		case 'h':
			id = OPT_HELP;
			break;
		case 'v':
			id = OPT_VERBOSE;
			break;
		case 'V':
			id = OPT_VERSION;
			break;
		case ':':
			opt_fail(&c, opt_name_of(optopt, namebuf,
			    sizeof(namebuf)), NULL, "missing argument");
			goto out;
		case '?':
			if (optopt >= OPT_VAL_BASE) {
				eq = strchr(argv[optind - 1], '=');
				opt_fail(&c, opt_name_of(optopt, namebuf,
				    sizeof(namebuf)), eq != NULL ? eq + 1 :
				    NULL, "takes no argument");
			} else if (optopt != 0)
				opt_fail(&c, opt_name_of(optopt, namebuf,
				    sizeof(namebuf)), NULL, "unknown option");
			else
				opt_fail_unknown(&c, argv[optind - 1]);
			goto out;
		default:
			id = ch - OPT_VAL_BASE;
			break;
		}
		if (id == OPT_HELP) {
			options_usage(o->prog, out);
			st = OPTIONS_EXIT_OK;
			goto out;
		}
		if (id == OPT_VERSION) {
			opt_version(o, out);
			st = OPTIONS_EXIT_OK;
			goto out;
		}
		if (opt_apply(&c, (enum opt_id)id, optarg) == -1)
			goto out;
	}
	if (optind < argc) {
		opt_fail(&c, NULL, argv[optind], "unexpected argument");
		goto out;
	}
	if (opt_check_together(&c) == -1)
		goto out;
	/* After the loop, so that --port wins wherever it stands. */
	if (o->ssl && !o->port_given)
		o->port = 443;
	opt_append_header_file(&c);
	st = OPTIONS_RUN;
out:
	free(c.hdr_file);
	return st;
}

/* Prints " --NAME", " --NAME=header" or " --NAME=body" for a print flag. */
static void
echo_print(FILE *out, const char *name, int what)
{
	if (what == PRINT_HEADER)
		fprintf(out, " --%s=header", name);
	else if (what == PRINT_BODY)
		fprintf(out, " --%s=body", name);
	else if (what != 0)
		fprintf(out, " --%s", name);
}

/*
 * The TLS pieces, in upstream's order with --ssl-ciphersuites added.
 * Unlike upstream, the client certificate is printed under the name the
 * option has (upstream wrote --ssl-cert, which it did not accept), and
 * the protocol only when one was chosen (upstream always wrote
 * --ssl-protocol=auto, even without TLS).
 */
static void
echo_tls(const struct options *o, FILE *out)
{
	if (o->ssl)
		fputs(" --ssl", out);
	if (o->ssl_ciphers != NULL)
		fprintf(out, " --ssl-ciphers=%s", o->ssl_ciphers);
	if (o->ssl_ciphersuites != NULL)
		fprintf(out, " --ssl-ciphersuites=%s", o->ssl_ciphersuites);
	if (o->tls_server_name != NULL)
		fprintf(out, " --tls-server-name=%s", o->tls_server_name);
	if (o->ssl_no_reuse)
		fputs(" --ssl-no-reuse", out);
	if (o->ssl_certificate != NULL)
		fprintf(out, " --ssl-certificate=%s", o->ssl_certificate);
	if (o->ssl_key != NULL)
		fprintf(out, " --ssl-key=%s", o->ssl_key);
	if (o->ssl_ca_file != NULL)
		fprintf(out, " --ssl-ca-file=%s", o->ssl_ca_file);
	if (o->ssl_ca_path != NULL)
		fprintf(out, " --ssl-ca-path=%s", o->ssl_ca_path);
	if (o->ssl_verify)
		fputs(" --ssl-verify", out);
	if (o->ssl_protocol_raw != NULL &&
	    o->ssl_min_version != TLS_VERSION_ANY)
		fprintf(out, " --ssl-protocol=%s",
		    options_tls_version_name(o->ssl_min_version));
}

/*
 * The start-up line of 0.9.0, piece by piece in its order, limited to the
 * options of this release and with --server-name spelt so it can be rerun.
 * The options 0.9.0 never echoed (--wlog, --body, --body-file, --myaddr)
 * come last, so that the line starts exactly as it used to.
 */
void
options_echo(const struct options *o, FILE *out)
{
	size_t i;
	double rate;

	fputs(o->prog, out);
	if (o->verbose > 0)
		fputs(" --verbose", out);
	echo_print(out, "print-reply", o->print_reply);
	echo_print(out, "print-request", o->print_request);
	if (o->hog)
		fputs(" --hog", out);
	if (o->close_with_reset)
		fputs(" --close-with-reset", out);
	if (o->think_timeout > 0)
		fprintf(out, " --think-timeout=%g", o->think_timeout);
	if (o->timeout > 0)
		fprintf(out, " --timeout=%g", o->timeout);
	if (o->runtime > 0)
		fprintf(out, " --runtime=%g", o->runtime);
	fprintf(out, " --client=%u/%u", o->client_id, o->num_clients);
	fprintf(out, " --server=%s", o->server);
	if (o->server_name != NULL)
		fprintf(out, " --server-name=%s", o->server_name);
	fprintf(out, " --port=%u", o->port);
	fprintf(out, " --uri=%s", o->uri);
	if (o->failure_status > 0)
		fprintf(out, " --failure-status=%u", o->failure_status);
	if (o->http_minor == 0)
		fputs(" --http-version=1.0", out);
	if (o->max_connections > 0)
		fprintf(out, " --max-connections=%u", o->max_connections);
	if (o->max_piped > 0)
		fprintf(out, " --max-piped-calls=%u", o->max_piped);
	rate = rate_spec_rate(&o->rate);
	if (rate > 0) {
		switch (o->rate.dist) {
		case RATE_DETERMINISTIC:
			fprintf(out, " --rate=%g", rate);
			break;
		case RATE_UNIFORM:
			fprintf(out, " --period=u%g,%g", o->rate.min_iat,
			    o->rate.max_iat);
			break;
		case RATE_EXPONENTIAL:
			fprintf(out, " --period=e%g", o->rate.mean_iat);
			break;
		case RATE_VARIABLE:
			fputs(" --period=v", out);
			for (i = 0; i < o->rate.nvar; i++)
				fprintf(out, "%s%g,%g", i > 0 ? "," : "",
				    o->rate.var_iat[i], o->rate.var_dur[i]);
			break;
		}
	}
	fprintf(out, " --send-buffer=%lu", o->send_buffer);
	if (o->retry_on_failure)
		fputs(" --retry-on-failure", out);
	if (o->max_retries != OPTIONS_MAX_RETRIES)
		fprintf(out, " --max-retries=%u", o->max_retries);
	fprintf(out, " --recv-buffer=%lu", o->recv_buffer);
	if (o->session_cookies)
		fputs(" --session-cookies", out);
	echo_tls(o, out);
	for (i = 0; i < o->n_add_header; i++)
		fprintf(out, " --add-header='%s'", o->add_header_raw[i]);
	if (o->add_header_file != NULL)
		fprintf(out, " --add-header-file='%s'", o->add_header_file);
	if (o->method != NULL)
		fprintf(out, " --method=%s", o->method);
	if (o->wsesslog_n > 0)
		fprintf(out, " --wsesslog=%llu,%.3f,%s",
		    (unsigned long long)o->wsesslog_n, o->wsesslog_think,
		    o->wsesslog_file);
	else {
		if (o->wsess_n > 0)
			fprintf(out, " --wsess=%llu,%llu,%.3f",
			    (unsigned long long)o->wsess_n,
			    (unsigned long long)o->wsess_calls,
			    o->wsess_think);
		else
			fprintf(out, " --num-conns=%llu --num-calls=%llu",
			    (unsigned long long)o->num_conns,
			    (unsigned long long)o->num_calls);
		if (o->burst_len != 1)
			fprintf(out, " --burst-length=%llu",
			    (unsigned long long)o->burst_len);
		if (o->wset_n > 0)
			fprintf(out, " --wset=%llu,%.3f",
			    (unsigned long long)o->wset_n, o->wset_x);
	}
	if (o->wlog_file != NULL)
		fprintf(out, " --wlog=%c,%s", o->wlog_wrap ? 'y' : 'n',
		    o->wlog_file);
	if (o->body_raw != NULL)
		fprintf(out, " --body='%s'", o->body_raw);
	else if (o->body_file != NULL)
		fprintf(out, " --body-file=%s", o->body_file);
	for (i = 0; i < o->n_myaddr; i++)
		fprintf(out, " --myaddr=%s", o->myaddr[i]);
	putc('\n', out);
}

/* Lists every option of opt_table, wrapped at 79 columns like 0.9.0. */
void
options_usage(const char *prog, FILE *out)
{
	char item[96];
	size_t i, col, len;

	col = (size_t)fprintf(out, "Usage: %s [-hdvV]", prog);
	for (i = 0; i < nitems(opt_table); i++) {
		if (opt_table[i].has_arg == optional_argument)
			snprintf(item, sizeof(item), "[--%s[=%s]]",
			    opt_table[i].name, opt_table[i].arg);
		else if (opt_table[i].arg != NULL)
			snprintf(item, sizeof(item), "[--%s %s]",
			    opt_table[i].name, opt_table[i].arg);
		else
			snprintf(item, sizeof(item), "[--%s]",
			    opt_table[i].name);
		len = strlen(item);
		/* Continuation lines start with a tab, 8 columns wide. */
		if (col + 1 + len > 79) {
			fputs("\n\t", out);
			col = 8;
		} else {
			putc(' ', out);
			col++;
		}
		fputs(item, out);
		col += len;
	}
	putc('\n', out);
}
