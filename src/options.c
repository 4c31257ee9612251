/*
 * The command line of httperf 0.9.0, parsed and validated.
 *
 * One table names every option of this release; it drives getopt_long(3)
 * and the --help text, so the two cannot disagree.  Every value is checked
 * before anything runs, and each mistake is reported as exactly one line
 * naming the option, the problem and the offending value.  Nothing here
 * keeps state between calls: options_parse() can be run again and again
 * (the unit tests do).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "util.h"

/* Indexes into opt_table; getopt_long() returns OPT_VAL_BASE + index. */
enum opt_id {
	OPT_ADD_HEADER,
	OPT_BURST_LENGTH,
	OPT_CLIENT,
	OPT_CLOSE_WITH_RESET,
	OPT_DEBUG,
	OPT_HELP,
	OPT_HOG,
	OPT_HTTP_VERSION,
	OPT_METHOD,
	OPT_NO_HOST_HDR,
	OPT_NUM_CALLS,
	OPT_NUM_CONNS,
	OPT_PERIOD,
	OPT_PORT,
	OPT_RATE,
	OPT_RECV_BUFFER,
	OPT_RUNTIME,
	OPT_SEND_BUFFER,
	OPT_SERVER,
	OPT_SERVER_NAME,
	OPT_THINK_TIMEOUT,
	OPT_TIMEOUT,
	OPT_URI,
	OPT_VERBOSE,
	OPT_VERSION,
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
	int		 has_arg;	/* no_argument or required_argument */
	const char	*arg;		/* argument in --help, NULL if none */
};

/* In the order --help lists them. */
static const struct opt_desc opt_table[] = {
	[OPT_ADD_HEADER] = { "add-header", required_argument, "S" },
	[OPT_BURST_LENGTH] = { "burst-length", required_argument, "N" },
	[OPT_CLIENT] = { "client", required_argument, "I/N" },
	[OPT_CLOSE_WITH_RESET] = { "close-with-reset", no_argument, NULL },
	[OPT_DEBUG] = { "debug", required_argument, "N" },
	[OPT_HELP] = { "help", no_argument, NULL },
	[OPT_HOG] = { "hog", no_argument, NULL },
	[OPT_HTTP_VERSION] = { "http-version", required_argument, "S" },
	[OPT_METHOD] = { "method", required_argument, "S" },
	[OPT_NO_HOST_HDR] = { "no-host-hdr", no_argument, NULL },
	[OPT_NUM_CALLS] = { "num-calls", required_argument, "N" },
	[OPT_NUM_CONNS] = { "num-conns", required_argument, "N" },
	[OPT_PERIOD] = { "period", required_argument,
	    "[d|u|e]T1[,T2]|vT1,D1[,T2,D2...]" },
	[OPT_PORT] = { "port", required_argument, "N" },
	[OPT_RATE] = { "rate", required_argument, "X" },
	[OPT_RECV_BUFFER] = { "recv-buffer", required_argument, "N" },
	[OPT_RUNTIME] = { "runtime", required_argument, "X" },
	[OPT_SEND_BUFFER] = { "send-buffer", required_argument, "N" },
	[OPT_SERVER] = { "server", required_argument, "S" },
	[OPT_SERVER_NAME] = { "server-name", required_argument, "S" },
	[OPT_THINK_TIMEOUT] = { "think-timeout", required_argument, "X" },
	[OPT_TIMEOUT] = { "timeout", required_argument, "X" },
	[OPT_URI] = { "uri", required_argument, "S" },
	[OPT_VERBOSE] = { "verbose", no_argument, NULL },
	[OPT_VERSION] = { "version", no_argument, NULL },
};
_Static_assert(nitems(opt_table) == OPT_NOPTS, "opt_table incomplete");

/* What one parse works on: the options (for prog) and the error stream. */
struct opt_ctx {
	struct options	*o;
	FILE		*err;
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
}

/* Frees the --add-header copies and returns the struct to its defaults. */
void
options_free(struct options *o)
{
	free(o->add_header_raw);
	free(o->add_header);
	options_init(o);
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

/* Parses a finite, non-negative number of seconds (or a rate). */
static int
opt_double(const struct opt_ctx *c, const char *opt, const char *arg,
    double *out)
{
	double v;
	char *end;

	if (*arg == '\0')
		return opt_fail(c, opt, arg, "empty number");
	if (isspace((unsigned char)*arg))
		return opt_fail(c, opt, arg, "not a number");
	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || isnan(v))
		return opt_fail(c, opt, arg, "not a number");
	if (*end != '\0')
		return opt_fail(c, opt, arg,
		    "unexpected characters after the number");
	if (isinf(v))
		return opt_fail(c, opt, arg, "must be finite");
	if (v < 0)
		return opt_fail(c, opt, arg, "must not be negative");
	*out = v == 0 ? 0.0 : v;	/* no "-0" in the echo line */
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

/* RFC 9110 section 5.6.2: the characters of a token such as a method. */
static int
is_tchar(unsigned char ch)
{
	return isalnum(ch) || (ch != '\0' && strchr("!#$%&'*+-.^_`|~",
	    ch) != NULL);
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
 * The --add-header expander behind options_unescape().  When `c' is not
 * NULL, each unknown escape is also reported on its error stream.
 */
static int
unescape(const struct opt_ctx *c, const char *in, char **out, size_t *outlen,
    unsigned *nwarn, char *errbuf, size_t errlen)
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
				fprintf(c->err, "%s: --add-header: unknown "
				    "escape '\\", c->o->prog);
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
	return unescape(NULL, in, out, outlen, nwarn, errbuf, errlen);
}

/* Appends one --add-header: raw text for the echo, expanded for the wire. */
static int
opt_add_header(const struct opt_ctx *c, const char *arg)
{
	struct options *o = c->o;
	char errbuf[128], *buf;
	size_t len;
	unsigned nwarn = 0;

	if (unescape(c, arg, &buf, &len, &nwarn, errbuf, sizeof(errbuf)) == -1)
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

/* Applies one option; `arg' is its argument or NULL. */
static int
opt_apply(const struct opt_ctx *c, enum opt_id id, const char *arg)
{
	struct options *o = c->o;
	char errbuf[256];
	const char *p;
	uint64_t v;
	double d;

	switch (id) {
	case OPT_ADD_HEADER:
		return opt_add_header(c, arg);
	case OPT_BURST_LENGTH:
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
	case OPT_METHOD:
		if (*arg == '\0')
			return opt_fail(c, "--method", arg,
			    "must not be empty");
		for (p = arg; *p != '\0'; p++)
			if (!is_tchar((unsigned char)*p))
				return opt_fail(c, "--method", arg,
				    "not an HTTP token (letters, digits and "
				    "!#$%%&'*+-.^_`|~ only)");
		o->method = arg;
		return 0;
	case OPT_NO_HOST_HDR:
		o->no_host_hdr = 1;
		return 0;
	case OPT_NUM_CALLS:
		return opt_uint(c, "--num-calls", arg, arg, 1, UINT64_MAX,
		    &o->num_calls);
	case OPT_NUM_CONNS:
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
		o->rate_given = 1;
		return 0;
	case OPT_PORT:
		if (opt_uint(c, "--port", arg, arg, 1, 65535, &v) == -1)
			return -1;
		o->port = (unsigned)v;
		return 0;
	case OPT_RATE:
		if (opt_double(c, "--rate", arg, &d) == -1)
			return -1;
		rate_spec_set_rate(&o->rate, d);
		o->rate_given = 1;
		return 0;
	case OPT_RECV_BUFFER:
		if (opt_uint(c, "--recv-buffer", arg, arg, 1, OPT_BUF_MAX,
		    &v) == -1)
			return -1;
		o->recv_buffer = (unsigned long)v;
		return 0;
	case OPT_RUNTIME:
		return opt_double(c, "--runtime", arg, &o->runtime);
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
	case OPT_THINK_TIMEOUT:
		return opt_double(c, "--think-timeout", arg,
		    &o->think_timeout);
	case OPT_TIMEOUT:
		return opt_double(c, "--timeout", arg, &o->timeout);
	case OPT_URI:
		if (opt_word(c, "--uri", arg) == -1)
			return -1;
		o->uri = arg;
		return 0;
	case OPT_VERBOSE:
		o->verbose++;
		return 0;
	case OPT_HELP:
	case OPT_VERSION:
	case OPT_NOPTS:
		break;
	}
	return 0;
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
			return OPTIONS_EXIT_ERR;
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
			return OPTIONS_EXIT_ERR;
		default:
			id = ch - OPT_VAL_BASE;
			break;
		}
		if (id == OPT_HELP) {
			options_usage(o->prog, out);
			return OPTIONS_EXIT_OK;
		}
		if (id == OPT_VERSION) {
			opt_version(o, out);
			return OPTIONS_EXIT_OK;
		}
		if (opt_apply(&c, (enum opt_id)id, optarg) == -1)
			return OPTIONS_EXIT_ERR;
	}
	if (optind < argc) {
		opt_fail(&c, NULL, argv[optind], "unexpected argument");
		return OPTIONS_EXIT_ERR;
	}
	return OPTIONS_RUN;
}

/*
 * The start-up line of 0.9.0, piece by piece in its order, limited to the
 * options of this release and with --server-name spelt so it can be rerun.
 */
void
options_echo(const struct options *o, FILE *out)
{
	size_t i;
	double rate;

	fputs(o->prog, out);
	if (o->verbose > 0)
		fputs(" --verbose", out);
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
	if (o->http_minor == 0)
		fputs(" --http-version=1.0", out);
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
	fprintf(out, " --recv-buffer=%lu", o->recv_buffer);
	for (i = 0; i < o->n_add_header; i++)
		fprintf(out, " --add-header='%s'", o->add_header_raw[i]);
	if (o->method != NULL)
		fprintf(out, " --method=%s", o->method);
	fprintf(out, " --num-conns=%llu --num-calls=%llu",
	    (unsigned long long)o->num_conns,
	    (unsigned long long)o->num_calls);
	if (o->burst_len != 1)
		fprintf(out, " --burst-length=%llu",
		    (unsigned long long)o->burst_len);
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
		if (opt_table[i].arg != NULL)
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
