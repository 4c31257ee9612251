/*
 * The option table: one row per option of this release (see
 * options_int.h for what a row holds), the order of the echo line, and
 * the parse and echo functions of the options whose values have a shape
 * of their own (--client I/N, --http-version, --print-*, --rate and
 * --period, --wlog y|n,F, --ssl-protocol, --ssl-verify).  The request's
 * rows (headers, body, --myaddr) have theirs in options_req.c.
 */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "opt/options_int.h"

/*
 * Parses --client I/N: both parts decimal, N >= 1 and I < N; or auto[/N]
 * (options_scale.c).
 */
static int
opt_client(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	static const struct opt_val part = { .kind = OPT_K_UINT,
	    .max = UINT_MAX };
	union opt_value id, n;
	char *copy, *slash;
	int rv = -1;

	if (*arg == '\0')
		return opt_fail(c, r, NULL, arg, "must not be empty");
	if (strncmp(arg, "auto", 4) == 0)
		return opt_client_auto(c, r, arg);
	copy = xstrdup(arg);
	if ((slash = strchr(copy, '/')) == NULL) {
		opt_fail(c, r, NULL, arg, "expected I/N or auto[/N]");
		goto out;
	}
	*slash = '\0';
	if (opt_parse_val(c, r, &part, arg, copy, &id) == -1 ||
	    opt_parse_val(c, r, &part, arg, slash + 1, &n) == -1)
		goto out;
	if (n.u == 0)
		opt_fail(c, r, NULL, arg,
		    "number of clients must be at least 1");
	else if (id.u >= n.u)
		opt_fail(c, r, NULL, arg,
		    "client id must be less than the number of clients");
	else {
		c->o->client_id = (unsigned)id.u;
		c->o->num_clients = (unsigned)n.u;
		rv = 0;
	}
out:
	free(copy);
	return rv;
}

static void
opt_echo_client(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	fprintf(out, " --%s=%u/%u", r->name, o->client_id, o->num_clients);
}

static void
opt_echo_cpus(const struct options *o, const struct opt_row *r, FILE *out)
{
	if (o->cpus != NULL)
		fprintf(out, " --%s=%s", r->name, o->cpus);
}

static int
opt_http_version(struct opt_ctx *c, const struct opt_row *r,
    const char *arg)
{
	if (strcmp(arg, "1.0") == 0)
		c->o->http_minor = 0;
	else if (strcmp(arg, "1.1") == 0)
		c->o->http_minor = 1;
	else if (strcmp(arg, "2") == 0 || strcmp(arg, "2.0") == 0) {
		/* HTTP/2 is --http2; its fallback is HTTP/1.1. */
		c->o->http_minor = 1;
		c->o->http2 = 1;
	} else
		return opt_fail(c, r, NULL, arg, "must be 1.0, 1.1 or 2");
	return 0;
}

static void
opt_echo_http_version(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	if (o->http_minor == 0)
		fprintf(out, " --%s=1.0", r->name);
}

/*
 * Parses the optional argument of --print-request and --print-reply into
 * the row's int.  0.9.0 took any value but h... and b... to mean both; a
 * typo is more likely than a wish for both, so it is refused here.
 */
static int
opt_print(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	int *out = OPT_FIELD(c->o, r->val.off);

	if (arg == NULL)
		*out = PRINT_HEADER | PRINT_BODY;
	else if (arg[0] == 'h' || arg[0] == 'H')
		*out = PRINT_HEADER;
	else if (arg[0] == 'b' || arg[0] == 'B')
		*out = PRINT_BODY;
	else
		return opt_fail(c, r, NULL, arg, "expected header or body");
	return 0;
}

/* Prints " --NAME", " --NAME=header" or " --NAME=body". */
static void
opt_echo_print(const struct options *o, const struct opt_row *r, FILE *out)
{
	int what = *(const int *)OPT_FIELD(o, r->val.off);

	if (what == PRINT_HEADER)
		fprintf(out, " --%s=header", r->name);
	else if (what == PRINT_BODY)
		fprintf(out, " --%s=body", r->name);
	else if (what != 0)
		fprintf(out, " --%s", r->name);
}

/* Parses --rate X: 0 (as fast as possible, in sequence) or a rate. */
static int
opt_rate(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	double d;

	if (opt_double(c, r, NULL, arg, arg, &d) == -1)
		return -1;
	if (d > 0 && d < 1 / OPTIONS_MAX_SEC)
		return opt_fail(c, r, NULL, arg, "must be 0 or at least %g "
		    "(one per %.0f seconds)", 1 / OPTIONS_MAX_SEC,
		    OPTIONS_MAX_SEC);
	rate_spec_set_rate(&c->o->rate, d);
	c->o->rate_given = 1;
	return 0;
}

/* Parses --call-rate R: requests per second, above 0. */
static int
opt_call_rate(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	double d;

	if (opt_double(c, r, NULL, arg, arg, &d) == -1)
		return -1;
	if (d < 1 / OPTIONS_MAX_SEC || d > OPTIONS_MAX_CALL_RATE)
		return opt_fail(c, r, NULL, arg, "must be between %g and %g "
		    "requests per second", 1 / OPTIONS_MAX_SEC,
		    OPTIONS_MAX_CALL_RATE);
	c->o->call_rate = d;
	return 0;
}

/*
 * Parses --interval S: the length of an interval of --hlog and of the
 * progress lines, from 1 ms (the resolution of the log's time stamps).
 */
static int
opt_interval(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	double d;

	if (opt_double(c, r, NULL, arg, arg, &d) == -1)
		return -1;
	if (d < 0.001)
		return opt_fail(c, r, NULL, arg, "must be at least 0.001 "
		    "seconds");
	if (d > OPTIONS_MAX_SEC)
		return opt_fail(c, r, NULL, arg, "must be at most %.0f "
		    "seconds", OPTIONS_MAX_SEC);
	c->o->interval = d;
	return 0;
}

/*
 * Parses --max-lateness MS: milliseconds, 0 (any lateness counts) up to
 * the longest time any option takes.
 */
static int
opt_max_lateness(struct opt_ctx *c, const struct opt_row *r,
    const char *arg)
{
	double d;

	if (opt_double(c, r, NULL, arg, arg, &d) == -1)
		return -1;
	if (d > OPTIONS_MAX_SEC * 1e3)
		return opt_fail(c, r, NULL, arg, "must be at most %.0f ms",
		    OPTIONS_MAX_SEC * 1e3);
	c->o->max_lateness = d;
	c->o->max_lateness_given = 1;
	return 0;
}

static void
opt_echo_max_lateness(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	if (o->max_lateness_given)
		fprintf(out, " --%s=%g", r->name, o->max_lateness);
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

/* Parses --period with the rate module's parser, within the time limit. */
static int
opt_period(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	struct options *o = c->o;
	char errbuf[256];

	if (*arg == '\0')
		return opt_fail(c, r, NULL, arg, "must not be empty");
	errbuf[0] = '\0';
	if (rate_spec_parse_period(&o->rate, arg, errbuf,
	    sizeof(errbuf)) == -1)
		return opt_fail(c, r, NULL, arg, "%s",
		    errbuf[0] != '\0' ? errbuf : "invalid period");
	if (opt_period_max(&o->rate) > OPTIONS_MAX_SEC)
		return opt_fail(c, r, NULL, arg, "times must be at most %.0f "
		    "seconds", OPTIONS_MAX_SEC);
	o->rate_given = 1;
	return 0;
}

/* Prints --period for a schedule that is not deterministic. */
static void
opt_echo_period(const struct options *o, FILE *out)
{
	size_t i;

	switch (o->rate.dist) {
	case RATE_DETERMINISTIC:
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

/* Prints --rate or --period, whichever describes the rate (if any). */
static void
opt_echo_rate(const struct options *o, const struct opt_row *r, FILE *out)
{
	double rate = rate_spec_rate(&o->rate);

	/* With --call-rate, the schedule is the requests'. */
	if (rate <= 0 || o->call_rate > 0)
		return;
	if (o->rate.dist == RATE_DETERMINISTIC)
		fprintf(out, " --rate=%g", rate);
	else
		opt_echo_period(o, out);
}

/* Prints --call-rate, and --period if it shapes the requests' schedule. */
static void
opt_echo_call_rate(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	if (o->call_rate <= 0)
		return;
	fprintf(out, " --%s=%g", r->name, o->call_rate);
	opt_echo_period(o, out);
}

/* Parses --wlog y|n,F; 0.9.0 took any letter and did not look for F. */
static int
opt_wlog(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	if (strchr(arg, ',') == NULL)
		return opt_fail(c, r, NULL, arg, "expected y,F or n,F");
	if (arg[0] == '\0' || strchr("yYnN", arg[0]) == NULL ||
	    arg[1] != ',')
		return opt_fail(c, r, NULL, arg,
		    "expected y or n before the comma");
	if (arg[2] == '\0')
		return opt_fail(c, r, "F", arg, "must not be empty");
	c->o->wlog_wrap = arg[0] == 'y' || arg[0] == 'Y';
	c->o->wlog_file = arg + 2;
	return 0;
}

static void
opt_echo_wlog(const struct options *o, const struct opt_row *r, FILE *out)
{
	if (o->wlog_file != NULL)
		fprintf(out, " --%s=%c,%s", r->name, o->wlog_wrap ? 'y' : 'n',
		    o->wlog_file);
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

/*
 * Parses --ssl-protocol: one version, used as both the lowest and the
 * highest allowed, or auto for the library's range.  Like upstream it
 * turns TLS on.  Whether the library still allows TLS 1.0 and 1.1 is only
 * known when the TLS context is built; SSL 2 and 3 are refused here.
 */
static int
opt_ssl_protocol(struct opt_ctx *c, const struct opt_row *r,
    const char *arg)
{
	struct options *o = c->o;
	size_t i;

	for (i = 0; i < nitems(ssl_protocols); i++)
		if (strcasecmp(arg, ssl_protocols[i].name) == 0)
			break;
	if (i == nitems(ssl_protocols)) {
		if (strcasecmp(arg, "SSLv2") == 0 ||
		    strcasecmp(arg, "SSLv3") == 0)
			return opt_fail(c, r, NULL, arg,
			    "not supported (use TLSv1.0 or later)");
		return opt_fail(c, r, NULL, arg, "expected auto, TLSv1.0, "
		    "TLSv1.1, TLSv1.2 or TLSv1.3");
	}
	o->ssl = 1;
	o->ssl_min_version = ssl_protocols[i].version;
	o->ssl_max_version = ssl_protocols[i].version;
	o->ssl_protocol_raw = arg;
	return 0;
}

/*
 * The protocol only when one was chosen (upstream always wrote
 * --ssl-protocol=auto, even without TLS), under its canonical name.
 */
static void
opt_echo_ssl_protocol(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	if (o->ssl_protocol_raw != NULL &&
	    o->ssl_min_version != TLS_VERSION_ANY)
		fprintf(out, " --%s=%s", r->name,
		    options_tls_version_name(o->ssl_min_version));
}

/*
 * Parses the optional argument of --ssl-verify: none or a word starting
 * with y means yes, one starting with n means no.  Upstream took anything
 * else for no; here it is refused, as a typo is the likelier cause.
 */
static int
opt_ssl_verify(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	if (arg == NULL || arg[0] == 'y' || arg[0] == 'Y')
		c->o->ssl_verify = 1;
	else if (arg[0] == 'n' || arg[0] == 'N')
		c->o->ssl_verify = 0;
	else
		return opt_fail(c, r, NULL, arg, "expected yes or no");
	return 0;
}

/* The values of --wsess N1,N2,X, --wsesslog N,X,F and --wset N,X. */
static const struct opt_val wsess_fields[] = {
	{ "N1", OPT_K_UINT, OPT_DEST(wsess_n), .min = 1,
	    .max = OPTIONS_MAX_COUNT },
	{ "N2", OPT_K_UINT, OPT_DEST(wsess_calls), .min = 1,
	    .max = OPTIONS_MAX_COUNT },
	{ "X", OPT_K_SECONDS, OPT_DEST(wsess_think) },
};
static const struct opt_val wsesslog_fields[] = {
	{ "N", OPT_K_UINT, OPT_DEST(wsesslog_n), .min = 1,
	    .max = OPTIONS_MAX_COUNT },
	{ "X", OPT_K_SECONDS, OPT_DEST(wsesslog_think) },
	{ "F", OPT_K_PATH, OPT_DEST(wsesslog_file) },
};
static const struct opt_val wset_fields[] = {
	{ "N", OPT_K_UINT, OPT_DEST(wset_n), .min = 1,
	    .max = OPTIONS_MAX_COUNT },
	{ "X", OPT_K_RATIO, OPT_DEST(wset_x) },
};
/* --wsesspage N1,N2,X. */
static const struct opt_val wsesspage_fields[] = {
	{ "N1", OPT_K_UINT, OPT_DEST(wsesspage_n), .min = 1,
	    .max = OPTIONS_MAX_COUNT },
	{ "N2", OPT_K_UINT, OPT_DEST(wsesspage_views), .min = 1,
	    .max = OPTIONS_MAX_COUNT },
	{ "X", OPT_K_SECONDS, OPT_DEST(wsesspage_think) },
};
_Static_assert(nitems(wsesspage_fields) <= OPT_MAXFIELDS,
    "raise OPT_MAXFIELDS");
_Static_assert(nitems(wsess_fields) <= OPT_MAXFIELDS &&
    nitems(wsesslog_fields) <= OPT_MAXFIELDS &&
    nitems(wset_fields) <= OPT_MAXFIELDS, "raise OPT_MAXFIELDS");

/*
 * Row makers for the common shapes: a flag; a number ("N"); a time in
 * seconds ("X", echoed when not 0); a string of kind k; comma-separated
 * fields; an option with a parse function (FUNC: and an echo function;
 * FUNC_TO: and a field that echo rule e prints).  Each ends with the
 * row's --help group and one-line description.
 */
#define FLAG(n, f, e, g, h) { .name = n, .has_arg = no_argument,	\
	.val = { .kind = OPT_K_FLAG, OPT_DEST(f) }, .echo = e,		\
	.group = g, .help = h }
#define NUM(n, f, lo, hi, d, e, g, h) { .name = n,			\
	.has_arg = required_argument, .arg = "N",			\
	.val = { .kind = OPT_K_UINT, OPT_DEST(f), .min = lo,		\
	.max = hi }, .def = d, .echo = e, .group = g, .help = h }
#define SECS(n, f, g, h) { .name = n, .has_arg = required_argument,	\
	.arg = "X", .val = { .kind = OPT_K_SECONDS, OPT_DEST(f) },	\
	.echo = OPT_E_NONZERO, .group = g, .help = h }
#define STR(n, a, k, f, d, e, g, h) { .name = n,			\
	.has_arg = required_argument, .arg = a,				\
	.val = { .kind = k, OPT_DEST(f) }, .def_str = d, .echo = e,	\
	.group = g, .help = h }
#define FIELDS(n, a, fl, g, h) { .name = n,				\
	.has_arg = required_argument, .arg = a,				\
	.val = { .kind = OPT_K_FIELDS }, .fields = fl,			\
	.nfields = nitems(fl), .echo = OPT_E_NONZERO, .group = g,	\
	.help = h }
#define FUNC(n, a, fn, efn, g, h) { .name = n,				\
	.has_arg = required_argument, .arg = a,				\
	.val = { .kind = OPT_K_FUNC }, .parse = fn,			\
	.echo = OPT_E_FUNC, .echo_fn = efn, .group = g, .help = h }
#define FUNC_TO(n, a, f, fn, e, g, h) { .name = n,			\
	.has_arg = required_argument, .arg = a,				\
	.val = { .kind = OPT_K_FUNC, OPT_DEST(f) }, .parse = fn,	\
	.echo = e, .group = g, .help = h }

/* Short names for the groups, to keep the rows on few lines. */
#define TARGET		OPT_G_TARGET
#define WORKLOAD	OPT_G_WORKLOAD
#define TIMING		OPT_G_TIMING
#define TLS		OPT_G_TLS
#define OUTPUT		OPT_G_OUTPUT
#define SCALING		OPT_G_SCALING

const char *const opt_group_title[OPT_G_NGROUPS] = {
	[OPT_G_TARGET] = "Target and request:",
	[OPT_G_WORKLOAD] = "Workload:",
	[OPT_G_TIMING] = "Timing:",
	[OPT_G_TLS] = "TLS:",
	[OPT_G_OUTPUT] = "Output:",
	[OPT_G_SCALING] = "Scaling (client ports, addresses, buffers; "
	    "several clients):",
};

/* Socket buffer sizes are handed to setsockopt() as an int. */
#define BUF_MAX		2147483647ULL

const struct opt_row opt_table[OPT_NOPTS] = {
	[OPT_ADD_HEADER] = FUNC("add-header", "S", opt_add_header,
	    opt_echo_add_header, TARGET,
	    "append S (with its \\n) to every request's headers"),
	[OPT_ADD_HEADER_FILE] = FUNC_TO("add-header-file", "F",
	    add_header_file, opt_add_header_file, OPT_E_QUOTED, TARGET,
	    "append the header lines of file F to every request"),
	[OPT_BODY] = FUNC_TO("body", "S", body_raw, opt_body, OPT_E_QUOTED,
	    TARGET, "send S as the body of every request"),
	[OPT_BODY_FILE] = FUNC_TO("body-file", "F", body_file, opt_body_file,
	    OPT_E_NONZERO, TARGET, "send file F as the body of every request"),
	[OPT_BURST_LENGTH] = NUM("burst-length", burst_len, 1,
	    OPTIONS_MAX_COUNT, 1,
	    OPT_E_CHANGED, WORKLOAD,
	    "send the calls in bursts of N pipelined requests"),
	[OPT_BUSY_POLL] = FLAG("busy-poll", busy_poll, OPT_E_SET, SCALING,
	    "never sleep: react sooner, at the cost of a CPU"),
	[OPT_CALL_RATE] = FUNC("call-rate", "X", opt_call_rate,
	    opt_echo_call_rate, WORKLOAD,
	    "send X requests per second over a connection pool"),
	[OPT_CLIENT] = FUNC("client", "I/N|auto[/N]", opt_client,
	    opt_echo_client, SCALING,
	    "be client I of N (auto: ask the launcher)"),
	[OPT_CLOSE_WITH_RESET] = FLAG("close-with-reset", close_with_reset,
	    OPT_E_SET, SCALING, "close with a TCP reset (no TIME_WAIT here)"),
	[OPT_CONCURRENCY] = NUM("concurrency", concurrency, 1,
	    OPTIONS_MAX_CONCURRENCY, 0, OPT_E_NONZERO, WORKLOAD,
	    "closed loop over N connections, call after call"),
	[OPT_CPUS] = FUNC("cpus", "LIST", opt_cpus, opt_echo_cpus, SCALING,
	    "pin --jobs' workers to CPUs LIST (e.g. 0-3,6)"),
	[OPT_DATA] = STR("data", "F", OPT_K_PATH, data_file, NULL,
	    OPT_E_NONZERO, WORKLOAD,
	    "rows of CSV or JSON Lines F for {{data.COL}}"),
	[OPT_DATA_ORDER] = FUNC("data-order", "seq|random", opt_data_order,
	    opt_echo_data_order, WORKLOAD,
	    "take --data's rows in order or at random"),
	[OPT_DATA_WRAP] = FUNC("data-wrap", "y|n", opt_data_wrap,
	    opt_echo_data_wrap, WORKLOAD,
	    "after --data's last row: start again or stop"),
	[OPT_DEBUG] = NUM("debug", debug, 0, 9, 0, OPT_E_NONE, OUTPUT,
	    "print debugging lines, more as N grows (0-9)"),
	[OPT_FAILURE_STATUS] = NUM("failure-status", failure_status, 100,
	    599, 0, OPT_E_NONZERO, WORKLOAD,
	    "count status N as a failure of its session"),
	[OPT_HELP] = { .name = "help", .has_arg = no_argument,
	    .group = OUTPUT, .help = "print this help and exit" },
	[OPT_HLOG] = STR("hlog", "F", OPT_K_PATH, hlog_file, NULL,
	    OPT_E_NONZERO, OUTPUT,
	    "write an HdrHistogram interval log to file F"),
	[OPT_HOG] = FLAG("hog", hog, OPT_E_SET, SCALING,
	    "use local ports 1024-65535, not the kernel's range"),
	[OPT_HTML] = STR("html", "F", OPT_K_PATH, html_file, NULL,
	    OPT_E_NONE, OUTPUT,
	    "write an HTML report with plots to file F"),
	[OPT_HTTP_VERSION] = { .name = "http-version",
	    .has_arg = required_argument, .arg = "S",
	    .val = { .kind = OPT_K_FUNC, OPT_DEST(http_minor) },
	    .parse = opt_http_version, .def = 1, .echo = OPT_E_FUNC,
	    .echo_fn = opt_echo_http_version, .group = TARGET,
	    .help = "speak HTTP 1.0, 1.1 (the default) or 2" },
	[OPT_HTTP2] = FLAG("http2", http2, OPT_E_SET, TARGET,
	    "speak HTTP/2 (h2 by ALPN with --ssl, else h2c)"),
	[OPT_HTTP2_FALLBACK] = FLAG("http2-fallback", http2_fallback,
	    OPT_E_SET, TARGET,
	    "with --ssl: HTTP/1.1 if ALPN does not pick h2"),
	[OPT_INTERVAL] = FUNC_TO("interval", "S", interval, opt_interval,
	    OPT_E_NONZERO, OUTPUT, "print a progress line every S seconds"),
	[OPT_JOBS] = FUNC("jobs", "N|auto", opt_jobs, opt_echo_jobs, SCALING,
	    "run N worker processes, one per CPU (auto: all)"),
	[OPT_JSON] = STR("json", "F", OPT_K_PATH, json_file, NULL,
	    OPT_E_NONE, OUTPUT,
	    "write the result as JSON to file F (- for stdout)"),
	[OPT_LOG] = STR("log", "F", OPT_K_PATH, log_file, NULL,
	    OPT_E_NONZERO, OUTPUT,
	    "write a CSV record of every call to F (.gz, - too)"),
	[OPT_LOG_DROP] = FLAG("log-drop", log_drop, OPT_E_SET, OUTPUT,
	    "drop and count --log records the disk refuses"),
	[OPT_MAX_CONNECTIONS] = NUM("max-connections", max_connections, 1,
	    UINT_MAX, 0, OPT_E_NONZERO, WORKLOAD,
	    "connections per session, or in the --call-rate pool"),
	[OPT_MAX_LATENESS] = FUNC("max-lateness", "MS", opt_max_lateness,
	    opt_echo_max_lateness, TIMING,
	    "lateness threshold; exit 3 if the client lags"),
	[OPT_MAX_PIPED_CALLS] = NUM("max-piped-calls", max_piped, 1,
	    UINT_MAX, 0, OPT_E_NONZERO, WORKLOAD,
	    "unanswered calls per connection of a session"),
	[OPT_MAX_RETRIES] = NUM("max-retries", max_retries, 0,
	    OPTIONS_MAX_RETRIES_MAX, OPTIONS_MAX_RETRIES, OPT_E_CHANGED,
	    WORKLOAD, "retries per session with --retry-on-failure"),
	[OPT_MAX_STREAMS] = NUM("max-streams", max_streams, 1, INT32_MAX, 0,
	    OPT_E_NONZERO, WORKLOAD,
	    "HTTP/2: concurrent streams per connection"),
	[OPT_MERGE] = FLAG("merge", merge, OPT_E_NONE, SCALING,
	    "combine the --json files named as arguments"),
	[OPT_METHOD] = STR("method", "S", OPT_K_TOKEN, method, NULL,
	    OPT_E_NONZERO, TARGET, "request method S (default GET)"),
	[OPT_MYADDR] = FUNC("myaddr", "S", opt_myaddr, opt_echo_myaddr,
	    SCALING, "send from local address S (may be repeated)"),
	[OPT_NO_HOST_HDR] = FLAG("no-host-hdr", no_host_hdr, OPT_E_NONE,
	    TARGET, "leave out the Host header"),
	[OPT_NUM_CALLS] = NUM("num-calls", num_calls, 1, OPTIONS_MAX_COUNT, 1,
	    OPT_E_CONNS, WORKLOAD, "calls on every connection (default 1)"),
	[OPT_NUM_CONNS] = NUM("num-conns", num_conns, 1, OPTIONS_MAX_COUNT, 1,
	    OPT_E_CONNS, WORKLOAD, "connections in all (default 1)"),
	/* --rate's echo prints the rate, whichever of the two gave it. */
	[OPT_PERIOD] = { .name = "period", .has_arg = required_argument,
	    .arg = "[d|u|e]T1[,T2]|vT1,D1[,T2,D2...]",
	    .val = { .kind = OPT_K_FUNC }, .parse = opt_period,
	    .group = WORKLOAD,
	    .help = "time between starts: fixed, uniform, exp, varying" },
	[OPT_PERIODIC_STATS] = FLAG("periodic-stats", periodic_stats,
	    OPT_E_SET, OUTPUT,
	    "print the reply counts by status every second"),
	[OPT_PORT] = NUM("port", port, 1, 65535, 80, OPT_E_ALWAYS, TARGET,
	    "server port (default 80, or 443 with --ssl)"),
	[OPT_PRINT_REPLY] = { .name = "print-reply",
	    .has_arg = optional_argument, .arg = "header|body",
	    .val = { .kind = OPT_K_FUNC, OPT_DEST(print_reply) },
	    .parse = opt_print, .echo = OPT_E_FUNC,
	    .echo_fn = opt_echo_print, .group = OUTPUT,
	    .help = "print every reply (or its header or body)" },
	[OPT_PRINT_REQUEST] = { .name = "print-request",
	    .has_arg = optional_argument, .arg = "header|body",
	    .val = { .kind = OPT_K_FUNC, OPT_DEST(print_request) },
	    .parse = opt_print, .echo = OPT_E_FUNC,
	    .echo_fn = opt_echo_print, .group = OUTPUT,
	    .help = "print every request (or its header or body)" },
	[OPT_PROXY] = FUNC("proxy", "HOST:PORT", opt_proxy, opt_echo_proxy,
	    TARGET,
	    "send every request through HTTP proxy HOST:PORT"),
	[OPT_PROXY_ENV] = FLAG("proxy-env", proxy_env, OPT_E_SET, TARGET,
	    "use the proxy of http_proxy or https_proxy"),
	[OPT_PROXY_USER] = FUNC("proxy-user", "USER:PASS", opt_proxy_user,
	    opt_echo_proxy_user, TARGET,
	    "authenticate to the proxy (Basic) as USER:PASS"),
	[OPT_QUIET] = FLAG("quiet", quiet, OPT_E_SET, OUTPUT,
	    "no live progress line on the terminal"),
	[OPT_RATE] = FUNC("rate", "X", opt_rate, opt_echo_rate, WORKLOAD,
	    "start X connections (or sessions) per second"),
	[OPT_RECV_BUFFER] = NUM("recv-buffer", recv_buffer, 1, BUF_MAX,
	    0, OPT_E_NONZERO, SCALING,
	    "socket receive buffer size (default: the kernel's)"),
	[OPT_RETRY_ON_FAILURE] = FLAG("retry-on-failure", retry_on_failure,
	    OPT_E_SET, WORKLOAD, "retry a session's failed calls"),
	[OPT_RUNTIME] = SECS("runtime", runtime, TIMING,
	    "end the test after X seconds"),
	[OPT_SCRIPT] = STR("script", "F", OPT_K_PATH, script, NULL,
	    OPT_E_QUOTED, WORKLOAD, "run wrk's Lua script F (hooks per call)"),
	[OPT_SCRIPT_ARG] = FUNC("script-arg", "S", opt_script_arg,
	    opt_echo_script_arg, WORKLOAD,
	    "pass S to the script's init(args) (repeatable)"),
	[OPT_SEED] = NUM("seed", seed, 0, UINT64_MAX, 0, OPT_E_NONZERO,
	    WORKLOAD, "seed N of --template's random values (default 0)"),
	[OPT_SEND_BUFFER] = NUM("send-buffer", send_buffer, 1, BUF_MAX,
	    0, OPT_E_NONZERO, SCALING,
	    "socket send buffer size (default: the kernel's)"),
	[OPT_SERVER] = { .name = "server", .has_arg = required_argument,
	    .arg = "S", .val = { .kind = OPT_K_FUNC, OPT_DEST(server) },
	    .parse = opt_server, .def_str = "localhost",
	    .echo = OPT_E_ALWAYS, .group = TARGET,
	    .help = "server name or address (default localhost)" },
	[OPT_SERVER_NAME] = STR("server-name", "S", OPT_K_WORD, server_name,
	    NULL, OPT_E_NONZERO, TARGET, "send S as the Host header"),
	[OPT_SESSION_COOKIES] = FLAG("session-cookies", session_cookies,
	    OPT_E_SET, WORKLOAD, "sessions send back the cookies they got"),
	[OPT_CHECK] = FUNC("check", "SPEC", opt_checks, opt_echo_checks,
	    WORKLOAD, "check every reply, e.g. status:200 (see the manual)"),
	[OPT_SLO] = FUNC("slo", "EXPR", opt_slo, opt_echo_slo, OUTPUT,
	    "objective such as p99<5ms; exit 4 if one fails"),
	[OPT_SLO_ABORT] = FLAG("slo-abort", slo_abort, OPT_E_SET, OUTPUT,
	    "stop once an objective can no longer pass"),
	[OPT_SSL] = FLAG("ssl", ssl, OPT_E_SET, TLS,
	    "speak TLS (default port 443)"),
	[OPT_SSL_CA_FILE] = STR("ssl-ca-file", "F", OPT_K_PATH, ssl_ca_file,
	    NULL, OPT_E_NONZERO, TLS,
	    "trust the CA certificates of PEM file F"),
	[OPT_SSL_CA_PATH] = STR("ssl-ca-path", "D", OPT_K_PATH, ssl_ca_path,
	    NULL, OPT_E_NONZERO, TLS,
	    "trust the CA certificates of directory D"),
	[OPT_SSL_CERTIFICATE] = STR("ssl-certificate", "F", OPT_K_PATH,
	    ssl_certificate, NULL, OPT_E_NONZERO, TLS,
	    "present the client certificate of PEM file F"),
	[OPT_SSL_CIPHERS] = STR("ssl-ciphers", "L", OPT_K_TEXT, ssl_ciphers,
	    NULL, OPT_E_NONZERO, TLS, "cipher list L for TLS 1.2 and below"),
	[OPT_SSL_CIPHERSUITES] = STR("ssl-ciphersuites", "L", OPT_K_TEXT,
	    ssl_ciphersuites, NULL, OPT_E_NONZERO, TLS,
	    "cipher suites L for TLS 1.3"),
	[OPT_SSL_KEY] = STR("ssl-key", "F", OPT_K_PATH, ssl_key, NULL,
	    OPT_E_NONZERO, TLS, "the client certificate's key (PEM file F)"),
	[OPT_SSL_NO_REUSE] = FLAG("ssl-no-reuse", ssl_no_reuse, OPT_E_SET,
	    TLS, "full handshake on every connection"),
	[OPT_SSL_PROTOCOL] = FUNC("ssl-protocol", "S", opt_ssl_protocol,
	    opt_echo_ssl_protocol, TLS,
	    "only TLS version S (auto, TLSv1.2, TLSv1.3...)"),
	[OPT_SSL_VERIFY] = { .name = "ssl-verify",
	    .has_arg = optional_argument, .arg = "yes|no",
	    .val = { .kind = OPT_K_FUNC, OPT_DEST(ssl_verify) },
	    .parse = opt_ssl_verify, .echo = OPT_E_SET, .group = TLS,
	    .help = "check the server's certificate" },
	[OPT_START_AT] = FUNC_TO("start-at", "TIME", start_at_raw,
	    opt_start_at, OPT_E_NONZERO, TIMING,
	    "start at TIME (epoch seconds or RFC 3339)"),
	[OPT_STEP_TIME] = SECS("step-time", step_time, TIMING,
	    "length of each --sweep step in seconds"),
	[OPT_STEP_WARMUP] = SECS("step-warmup", step_warmup, TIMING,
	    "seconds of each step left out of its figures"),
	[OPT_SWEEP] = STR("sweep", "FROM:TO:STEP|FROM:TO*F", OPT_K_WORD, sweep,
	    NULL, OPT_E_NONZERO, WORKLOAD,
	    "run the rate through levels, or search with --slo"),
	[OPT_SWEEP_PRECISION] = SECS("sweep-precision", sweep_precision,
	    OUTPUT, "the capacity search's precision in % (default 2)"),
	[OPT_SWEEP_TSV] = STR("sweep-tsv", "F", OPT_K_PATH, sweep_tsv, NULL,
	    OPT_E_NONZERO, OUTPUT, "write the steps as autobench's table F"),
	[OPT_TEMPLATE] = FLAG("template", template, OPT_E_SET, TARGET,
	    "expand {{...}} in --uri, headers, body per call"),
	[OPT_THINK_TIMEOUT] = SECS("think-timeout", think_timeout, TIMING,
	    "X more seconds for the first byte of a reply"),
	[OPT_TIMEOUT] = SECS("timeout", timeout, TIMING,
	    "fail a connection idle for X seconds"),
	[OPT_SERVERS] = STR("servers", "F", OPT_K_PATH, servers_file, NULL,
	    OPT_E_NONZERO, TARGET,
	    "spread connections over the servers in file F"),
	[OPT_TLS_SERVER_NAME] = STR("tls-server-name", "S", OPT_K_WORD,
	    tls_server_name, NULL, OPT_E_NONZERO, TLS,
	    "TLS server name (SNI) S"),
	[OPT_UNIX_SOCKET] = FUNC_TO("unix-socket", "PATH", unix_socket,
	    opt_unix_socket, OPT_E_NONZERO, TARGET,
	    "connect to Unix socket PATH, not to --server"),
	[OPT_URI] = { .name = "uri", .has_arg = required_argument,
	    .arg = "S", .val = { .kind = OPT_K_FUNC, OPT_DEST(uri) },
	    .parse = opt_uri, .def_str = "/", .echo = OPT_E_ALWAYS,
	    .group = TARGET, .help = "request URI S (default /)" },
	[OPT_USE_TIMER_CACHE] = FLAG("use-timer-cache", use_timer_cache,
	    OPT_E_NONE, TIMING, "accepted as 0.9.1's; changes nothing here"),
	[OPT_VERBOSE] = { .name = "verbose", .has_arg = no_argument,
	    .val = { .kind = OPT_K_COUNT, OPT_DEST(verbose) },
	    .echo = OPT_E_SET, .group = OUTPUT,
	    .help = "print more (may be repeated)" },
	[OPT_VERSION] = { .name = "version", .has_arg = no_argument,
	    .group = OUTPUT, .help = "print the version and exit" },
	[OPT_WLOG] = FUNC("wlog", "y|n,F", opt_wlog, opt_echo_wlog, WORKLOAD,
	    "take the URIs from file F (y: over and over)"),
	[OPT_WSESS] = FIELDS("wsess", "N1,N2,X", wsess_fields, WORKLOAD,
	    "N1 sessions of N2 calls, X seconds think time"),
	[OPT_WSESSLOG] = FIELDS("wsesslog", "N,X,F", wsesslog_fields,
	    WORKLOAD, "N sessions from file F, X seconds think time"),
	[OPT_WSESSPAGE] = FIELDS("wsesspage", "N1,N2,X", wsesspage_fields,
	    WORKLOAD, "N1 sessions of N2 page views, X seconds think time"),
	[OPT_WSET] = FIELDS("wset", "N,X", wset_fields, WORKLOAD,
	    "URIs from a working set of N files, miss rate X"),
};

/*
 * The start-up line of 0.9.0, piece by piece in its order, limited to the
 * options of this release.  The TLS pieces follow upstream's order with
 * --ssl-ciphersuites added; the client certificate is printed under the
 * name the option has (upstream wrote --ssl-cert, which it did not
 * accept).  --periodic-stats follows the workload, as upstream's does.
 * The options 0.9.0 never echoed (--wlog, --body, --body-file, --myaddr)
 * and then the new ones come last, so that the line starts exactly as it
 * used to.
 * Of the workload, --wsesslog excludes the rest (options_check.c).
 * --servers (upstream 0.9.1's place, after --server-name) replaces
 * --server.
 */
const enum opt_id opt_echo_order[] = {
	OPT_VERBOSE, OPT_PRINT_REPLY, OPT_PRINT_REQUEST, OPT_HOG,
	OPT_CLOSE_WITH_RESET, OPT_THINK_TIMEOUT, OPT_TIMEOUT, OPT_RUNTIME,
	OPT_CLIENT, OPT_SERVER, OPT_SERVER_NAME, OPT_SERVERS, OPT_PORT,
	OPT_URI,
	OPT_FAILURE_STATUS, OPT_HTTP_VERSION, OPT_MAX_CONNECTIONS,
	OPT_MAX_PIPED_CALLS, OPT_RATE, OPT_CALL_RATE, OPT_SEND_BUFFER,
	OPT_RETRY_ON_FAILURE, OPT_MAX_RETRIES, OPT_RECV_BUFFER,
	OPT_SESSION_COOKIES,
	OPT_SSL, OPT_SSL_CIPHERS, OPT_SSL_CIPHERSUITES, OPT_TLS_SERVER_NAME,
	OPT_SSL_NO_REUSE, OPT_SSL_CERTIFICATE, OPT_SSL_KEY, OPT_SSL_CA_FILE,
	OPT_SSL_CA_PATH, OPT_SSL_VERIFY, OPT_SSL_PROTOCOL,
	OPT_ADD_HEADER, OPT_ADD_HEADER_FILE, OPT_METHOD,
	OPT_WSESSLOG, OPT_WSESS, OPT_NUM_CONNS, OPT_NUM_CALLS,
	OPT_BURST_LENGTH, OPT_WSET, OPT_PERIODIC_STATS,
	OPT_WLOG, OPT_BODY, OPT_BODY_FILE, OPT_MYADDR,
	OPT_HLOG, OPT_INTERVAL,
	OPT_MAX_LATENESS, OPT_START_AT, OPT_QUIET,
	OPT_HTTP2, OPT_HTTP2_FALLBACK, OPT_MAX_STREAMS,
	OPT_UNIX_SOCKET, OPT_PROXY, OPT_PROXY_ENV, OPT_PROXY_USER,
	OPT_SLO, OPT_SLO_ABORT,
	OPT_CONCURRENCY,
	OPT_SWEEP, OPT_STEP_TIME, OPT_STEP_WARMUP, OPT_SWEEP_PRECISION,
	OPT_SWEEP_TSV, OPT_BUSY_POLL, OPT_JOBS, OPT_CPUS,
	OPT_TEMPLATE, OPT_SEED,
	OPT_DATA, OPT_DATA_ORDER, OPT_DATA_WRAP,
	OPT_CHECK,
	OPT_LOG, OPT_LOG_DROP,
	OPT_WSESSPAGE,
	OPT_SCRIPT, OPT_SCRIPT_ARG,
};
const size_t opt_echo_norder = nitems(opt_echo_order);
