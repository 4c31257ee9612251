/*
 * The command line of httperf 0.9.0, parsed and validated: the engine
 * that walks the option table (options_table.c, rows described in
 * options_int.h).
 *
 * The table drives getopt_long(3) (which also takes any unambiguous
 * abbreviation), the defaults, the parsing and storing of each value by
 * its kind, the start-up echo line and the --help text, so none of them
 * can disagree with another.  Every value is checked before anything
 * runs, and each mistake is reported as exactly one line naming the
 * option, the problem and the offending value.  Options that cannot go
 * together are refused once the whole line has been read
 * (options_check.c).  The two small files that belong to the request
 * (--body-file and --add-header-file) are read at parse time
 * (options_req.c), so that a missing file stops the run before it starts;
 * the workload files (--wlog, --wsesslog) are left to their generators,
 * and the certificate, key and trust files to the TLS module, which also
 * judges the cipher lists.  Nothing here keeps state between calls:
 * options_parse() can be run again and again (the unit tests do).  The
 * words of every mistake are in opt_err.c.
 */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "opt/options_int.h"

/* Above every character, so long-only values never clash with -d etc. */
#define OPT_VAL_BASE	256

/* Short options; the leading ':' makes getopt report a missing argument. */
#define OPT_SHORT	":d:hnvV"

/* Sets every field to its default: the rows', then the composite ones. */
void
options_init(struct options *o)
{
	union opt_value x;
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < nitems(opt_table); i++) {
		if (opt_table[i].def != 0) {
			x.u = opt_table[i].def;
			opt_store(o, &opt_table[i].val, &x);
		}
		if (opt_table[i].def_str != NULL) {
			x.s = opt_table[i].def_str;
			opt_store(o, &opt_table[i].val, &x);
		}
	}
	o->prog = "httperf";
	rate_spec_set_rate(&o->rate, 0.0);
	o->client_id = 0;
	o->num_clients = 1;
}

/* Frees what the parse allocated and returns the struct to its defaults. */
void
options_free(struct options *o)
{
	free(o->add_header_raw);
	free(o->script_args);
	free(o->check);
	free(o->add_header);
	free(o->body);
	free(o->myaddr);
	free(o->slo);
	free(o->url_host);
	free(o->url_target);
	options_init(o);
}

int
options_session(const struct options *o)
{
	return o->wsess_n > 0 || o->wsesslog_n > 0 || o->wsesspage_n > 0;
}

const char *
options_tls_version_name(int version)
{
	return tls_version_name(version);
}

/* Maps a short option (or OPT_VAL_BASE + id) to its row's index. */
static int
opt_id_of(int val)
{
	switch (val) {
	case 'd':
		return OPT_DEBUG;
	case 'h':
		return OPT_HELP;
	case 'n':
		return OPT_PERIODIC_STATS;
	case 'v':
		return OPT_VERBOSE;
	case 'V':
		return OPT_VERSION;
	}
	if (val >= OPT_VAL_BASE && val < OPT_VAL_BASE + OPT_NOPTS)
		return val - OPT_VAL_BASE;
	return -1;
}

/* Maps what getopt_long() put in optopt back to an option's name. */
static const char *
opt_name_of(int val, char *buf, size_t len)
{
	int id = opt_id_of(val);

	if (id >= 0)
		snprintf(buf, len, "--%s", opt_table[id].name);
	else
		snprintf(buf, len, "-%c", isprint(val) ? val : '?');
	return buf;
}

/* Optimal string alignment distance, row by row (three rows kept). */
size_t
opt_distance(const char *a, size_t alen, const char *b, size_t blen,
    int prefix, size_t cap)
{
	size_t d[3][OPT_NAME_MAX + 1];
	size_t *c, *p, *pp, best, i, j, v;

	if (alen > OPT_NAME_MAX || blen > OPT_NAME_MAX)
		return cap;
	for (j = 0; j <= blen; j++)
		d[0][j] = j;
	for (i = 1; i <= alen; i++) {
		c = d[i % 3];
		p = d[(i - 1) % 3];
		pp = d[(i + 1) % 3];	/* row i - 2 */
		c[0] = i;
		for (j = 1; j <= blen; j++) {
			v = p[j - 1] + (a[i - 1] != b[j - 1]);
			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
	}
	c = d[alen % 3];
	best = c[blen];
	for (j = 0; prefix && j < blen; j++)
		if (c[j] < best)
			best = c[j];
	return best < cap ? best : cap;
}

/*
 * Appends " (did you mean --x?)" to the message about the unknown long
 * option `name' (len bytes): the options nearest to it by edit distance
 * to their name or to a prefix of it (a mistyped abbreviation); when
 * some are that near by their whole name, only those.  Only when the
 * distance is at most 2 and at most a third of the length, so that a
 * word far from every option gets no guess, and when at most three
 * options are equally near.
 */
static void
opt_did_you_mean(const struct opt_ctx *c, const char *name, size_t len)
{
	unsigned char pick[OPT_NOPTS];
	size_t pd[OPT_NOPTS], fd[OPT_NOPTS];
	size_t best = SIZE_MAX, i, n, k;
	int whole = 0;

	for (i = 0; i < OPT_NOPTS; i++) {
		pd[i] = opt_distance(name, len, opt_table[i].name,
		    strlen(opt_table[i].name), 1, 3);
		fd[i] = opt_distance(name, len, opt_table[i].name,
		    strlen(opt_table[i].name), 0, 3);
		if (pd[i] < best)
			best = pd[i];
	}
	if (best > 2 || best * 3 > len)
		return;
	for (i = 0; i < OPT_NOPTS; i++)
		whole |= pd[i] == best && fd[i] == best;
	for (i = n = 0; i < OPT_NOPTS; i++) {
		pick[i] = pd[i] == best && (!whole || fd[i] == best);
		n += pick[i];
	}
	if (n > 3)
		return;
	fputs(" (did you mean ", c->err);
	for (i = k = 0; i < OPT_NOPTS; i++) {
		if (!pick[i])
			continue;
		if (k > 0)
			fputs(k + 1 < n ? ", " : " or ", c->err);
		fprintf(c->err, "--%s", opt_table[i].name);
		k++;
	}
	fputs("?)", c->err);
}

/*
 * Explains a long option getopt_long() rejected without telling us which:
 * it is either unknown or an abbreviation of more than one option.  An
 * unknown one gets a hint at the nearest options.
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
		opt_put_escape_char(c->err, (unsigned char)name[i]);
	if (nmatch > 1)
		fprintf(c->err, ": ambiguous abbreviation (%s)\n", names);
	else {
		fputs(": unknown option", c->err);
		opt_did_you_mean(c, name, len);
		putc('\n', c->err);
	}
	return -1;
}

/*
 * The short options of wrk, ab and hey that httperf does not have, each
 * with the option that does (most nearly) the same: a user coming from
 * one of them gets a pointer rather than only "unknown option".
 */
static const struct {
	int		 ch;
	const char	*hint;
} opt_foreign[] = {
	{ 'c', "for N connections use --num-conns N (and --rate X)" },
	{ 'D', "for a request body from a file use --body-file F" },
	{ 'H', "for a request header use --add-header 'Name: value'" },
	{ 'k', "for keep-alive use --num-calls N (calls per connection)" },
	{ 'm', "for the request method use --method S" },
	{ 'p', "for a request body from a file use --body-file F" },
	{ 'q', "for a rate use --rate X (connections/s) or --call-rate X "
	    "(requests/s)" },
	{ 'R', "for a rate use --rate X (connections/s) or --call-rate X "
	    "(requests/s)" },
	{ 's', "for a wrk Lua script use --script F (see SCRIPTING in "
	    "httperf(1))" },
	{ 't', "for a time limit use --runtime X (httperf runs one thread)" },
	{ 'T', "for a content type use --add-header 'Content-Type: S'" },
	{ 'z', "for a duration use --runtime X" },
};

/* The hint of opt_foreign for short option `ch', or NULL. */
static const char *
opt_foreign_hint(int ch)
{
	size_t i;

	for (i = 0; i < nitems(opt_foreign); i++)
		if (opt_foreign[i].ch == ch)
			return opt_foreign[i].hint;
	return NULL;
}

/* Returns non-zero if `s' is one or more decimal digits and nothing else. */
static int
opt_all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* Returns non-zero if `s' is a duration as wrk writes one: "30s", "1.5m". */
static int
opt_duration_like(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (n == 0)
		return 0;
	s += n;
	if (*s == '.' && (n = strspn(s + 1, "0123456789")) > 0)
		s += 1 + n;
	return strcmp(s, "s") == 0 || strcmp(s, "m") == 0 ||
	    strcmp(s, "h") == 0 || strcmp(s, "ms") == 0 ||
	    strcmp(s, "us") == 0;
}

/*
 * httperf's -d is --debug N (0 to 9) and -n is --periodic-stats, which
 * takes no value; wrk's -d 30s is a duration and ab's or hey's -n 1000
 * a number of requests.  Just after getopt_long() returned `ch' for one
 * of them, refuses a use that only makes sense as the other tool's (-d
 * with a unit, -n with a number after it), with a hint.  Returns -1
 * after the message, else 0.
 */
static int
opt_foreign_use(const struct opt_ctx *c, int ch, int argc, char **argv)
{
	const char *elem, *num = NULL;

	if (ch == 'd' && optarg != NULL && opt_duration_like(optarg))
		return opt_fail_as(c, "-d", optarg, "is --debug N (0 to 9) "
		    "here; for a test duration use --runtime X");
	if (ch != 'n')
		return 0;
	/* "-n 1000", or "-n1000" (getopt is still inside that word). */
	elem = argv[optind - 1];
	if (strcmp(elem, "-n") == 0 && optind < argc &&
	    opt_all_digits(argv[optind]))
		num = argv[optind];
	else if (optind < argc && strncmp(argv[optind], "-n", 2) == 0 &&
	    opt_all_digits(argv[optind] + 2))
		num = argv[optind] + 2;
	if (num == NULL)
		return 0;
	return opt_fail_as(c, "-n", num, "is --periodic-stats here and "
	    "takes no number; for N requests use --num-conns N (and "
	    "--num-calls)");
}

/* Reports what getopt_long() refused (ch is ':' or '?'); returns -1. */
static int
opt_getopt_error(const struct opt_ctx *c, int ch, char **argv)
{
	char namebuf[64];
	const char *eq;

	if (ch == ':')
		return opt_fail_as(c, opt_name_of(optopt, namebuf,
		    sizeof(namebuf)), NULL, "missing argument");
	if (optopt >= OPT_VAL_BASE) {
		eq = strchr(argv[optind - 1], '=');
		return opt_fail_as(c, opt_name_of(optopt, namebuf,
		    sizeof(namebuf)), eq != NULL ? eq + 1 : NULL,
		    "takes no argument");
	}
	if (optopt != 0 && opt_foreign_hint(optopt) != NULL)
		return opt_fail_as(c, opt_name_of(optopt, namebuf,
		    sizeof(namebuf)), NULL, "unknown option; %s",
		    opt_foreign_hint(optopt));
	if (optopt != 0)
		return opt_fail_as(c, opt_name_of(optopt, namebuf,
		    sizeof(namebuf)), NULL, "unknown option");
	return opt_fail_unknown(c, argv[optind - 1]);
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
	fputs(" poll", out);
#ifdef HAVE_LIBURING
	fputs(" io_uring", out);
#endif
	fputs(")\n", out);
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
 * The options a URL argument gives: it may not go with any of them
 * (which would win is anybody's guess).
 */
static const struct {
	enum opt_id	 id;
	const char	*why;
} opt_url_gives[] = {
	{ OPT_SERVER, "the URL names the server" },
	{ OPT_PORT, "the URL gives the port (or its scheme's)" },
	{ OPT_URI, "the URL gives the URI" },
	{ OPT_SSL, "the URL's scheme says it (https:// for TLS)" },
};

/*
 * Takes the arguments after the options: none, or one URL, which sets
 * --server, --port, --uri and --ssl as if they had been given (so the
 * Host header and the echo line follow).  0.9.0 ignored arguments; any
 * other is refused.  Returns 0, or -1 after one message.
 */
static int
opt_url(struct opt_ctx *c, int argc, char **argv)
{
	struct options *o = c->o;
	struct util_url u;
	char errbuf[128];
	size_t i;

	if (argc == 0)
		return 0;
	if (!util_url_like(argv[0]))
		return opt_fail(c, NULL, NULL, argv[0], "unexpected argument");
	if (argc > 1)
		return opt_fail(c, NULL, NULL, argv[1], "unexpected argument "
		    "(one URL at most)");
	if (util_url_parse(argv[0], &u, errbuf, sizeof(errbuf)) == -1)
		return opt_fail(c, NULL, NULL, argv[0], "URL: %s", errbuf);
	for (i = 0; i < nitems(opt_url_gives); i++)
		if (c->given[opt_url_gives[i].id]) {
			util_url_free(&u);
			return opt_fail(c, &opt_table[opt_url_gives[i].id],
			    NULL, argv[0], "cannot be used with a URL "
			    "argument: %s", opt_url_gives[i].why);
		}
	if (!u.https && c->given[OPT_SSL_PROTOCOL]) {
		util_url_free(&u);
		return opt_fail(c, &opt_table[OPT_SSL_PROTOCOL], NULL,
		    argv[0], "turns TLS on: use an https:// URL");
	}
	o->url = argv[0];
	o->url_host = u.host;
	o->url_target = u.target;
	o->server = u.host;
	o->uri = u.target;
	o->port = u.port;
	if (u.https)
		o->ssl = 1;
	c->given[OPT_SERVER] = c->given[OPT_PORT] = c->given[OPT_URI] = 1;
	c->given[OPT_SSL] = u.https;
	return 0;
}

/*
 * Starts from the defaults, then applies argv in order and stops at the
 * first mistake, at -h or at -V.  String fields point into argv.
 */
enum options_status
options_parse(struct options *o, int argc, char **argv, FILE *out,
    FILE *err)
{
	return options_parse_env(o, argc, argv, NULL, out, err);
}

enum options_status
options_parse_env(struct options *o, int argc, char **argv,
    char *const *env, FILE *out, FILE *err)
{
	struct option longopts[OPT_NOPTS + 1];
	struct opt_ctx c = { .o = o, .err = err, .env = env };
	enum options_status st = OPTIONS_EXIT_ERR;
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
		if ((id = opt_id_of(ch)) < 0) {
			opt_getopt_error(&c, ch, argv);
			goto out;
		}
		if (id == OPT_HELP || id == OPT_VERSION) {
			if (id == OPT_HELP)
				options_usage(o->prog, out);
			else
				opt_version(o, out);
			st = OPTIONS_EXIT_OK;
			goto out;
		}
		if ((ch == 'd' || ch == 'n') &&
		    opt_foreign_use(&c, ch, argc, argv) == -1)
			goto out;
		if (opt_apply(&c, &opt_table[id], optarg) == -1)
			goto out;
		c.given[id] = 1;
	}
	if (c.given[OPT_MERGE]) {
		/* httperf --merge FILE...: the files are the arguments. */
		o->merge_files = argv + optind;
		o->n_merge_files = (size_t)(argc - optind);
		if (optind >= argc) {
			opt_fail(&c, &opt_table[OPT_MERGE], NULL, NULL,
			    "expected one or more result files");
			goto out;
		}
	} else if (opt_url(&c, argc - optind, argv + optind) == -1)
		goto out;
	if (opt_check(&c) == -1)
		goto out;
	/* After the loop, so that --port wins wherever it stands. */
	o->port_given = c.given[OPT_PORT];
	if (o->ssl && !o->port_given)
		o->port = 443;
	opt_append_header_file(&c);
	if (opt_check_tmpl(&c) == -1 || opt_check_servers(&c) == -1)
		goto out;
	if (c.given[OPT_USE_TIMER_CACHE])
		fprintf(err, "%s: --use-timer-cache: this httperf reads the "
		    "clock at every event, so the option changes nothing\n",
		    o->prog);
	st = OPTIONS_RUN;
out:
	free(c.hdr_file);
	return st;
}

/*
 * Prints value `v' of `o' as the echo line shows it: numbers in full,
 * times with %g, or as 0.9.0 with three decimals inside a list of fields
 * (--wsess=N1,N2,X).
 */
static void
opt_echo_val(const struct options *o, const struct opt_val *v, int field,
    FILE *out)
{
	const void *p = OPT_FIELD(o, v->off);

	switch (v->type) {
	case OPT_T_DOUBLE:
		if (field)
			fprintf(out, "%.3f", *(const double *)p);
		else
			fprintf(out, "%g", *(const double *)p);
		break;
	case OPT_T_STR:
		fputs(*(const char *const *)p, out);
		break;
	default:
		fprintf(out, "%llu",
		    (unsigned long long)opt_load_uint(o, v));
		break;
	}
}

/* Returns non-zero if value `v' of `o' is 0 or NULL. */
static int
opt_is_unset(const struct options *o, const struct opt_val *v)
{
	const void *p = OPT_FIELD(o, v->off);

	if (v->type == OPT_T_DOUBLE)
		return *(const double *)p == 0;
	if (v->type == OPT_T_STR)
		return *(const char *const *)p == NULL;
	return opt_load_uint(o, v) == 0;
}

/* Prints one row into the echo line, as its echo rule says. */
static void
opt_echo_row(const struct options *o, const struct opt_row *r, FILE *out)
{
	const struct opt_val *v = r->nfields > 0 ? &r->fields[0] : &r->val;
	size_t i;

	/* --servers stands for --server, as upstream echoes it. */
	if (r == &opt_table[OPT_SERVER] && o->servers_file != NULL)
		return;
	switch (r->echo) {
	case OPT_E_NONE:
		return;
	case OPT_E_FUNC:
		r->echo_fn(o, r, out);
		return;
	case OPT_E_SET:
		if (!opt_is_unset(o, v))
			fprintf(out, " --%s", r->name);
		return;
	case OPT_E_QUOTED:
		if (!opt_is_unset(o, v))
			fprintf(out, " --%s='%s'", r->name,
			    *(const char *const *)OPT_FIELD(o, v->off));
		return;
	case OPT_E_NONZERO:
		if (opt_is_unset(o, v))
			return;
		break;
	case OPT_E_CHANGED:
		if (opt_load_uint(o, v) == r->def)
			return;
		break;
	case OPT_E_CONNS:
		if (options_session(o) || opt_is_unset(o, v))
			return;
		break;
	case OPT_E_ALWAYS:
		break;
	}
	fprintf(out, " --%s=", r->name);
	if (r->nfields == 0)
		opt_echo_val(o, v, 0, out);
	for (i = 0; i < r->nfields; i++) {
		if (i > 0)
			putc(',', out);
		opt_echo_val(o, &r->fields[i], 1, out);
	}
}

/* The start-up echo line of the original, in opt_echo_order. */
void
options_echo(const struct options *o, FILE *out)
{
	size_t i;

	fputs(o->prog, out);
	for (i = 0; i < opt_echo_norder; i++)
		opt_echo_row(o, &opt_table[opt_echo_order[i]], out);
	putc('\n', out);
}

/*
 * The synopsis of 0.9.0: every option of opt_table, wrapped at 79
 * columns, then the URL argument.  Scripts grep it, so it stays first and
 * unchanged in form.
 */
static void
opt_synopsis(const char *prog, FILE *out)
{
	char item[96];
	size_t i, col, len;

	col = (size_t)fprintf(out, "Usage: %s [-hdnvV]", prog);
	for (i = 0; i <= nitems(opt_table); i++) {
		if (i == nitems(opt_table))
			snprintf(item, sizeof(item), "[URL]");
		else if (opt_table[i].has_arg == optional_argument)
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

/* Returns the short option of row `id', or 0 if it has none. */
static int
opt_short_of(size_t id)
{
	const char *p;

	for (p = OPT_SHORT; *p != '\0'; p++)
		if (*p != ':' && opt_id_of(*p) == (int)id)
			return *p;
	return 0;
}

/*
 * One option of --help: "  -d, --debug N" or "      --name ARG", then
 * its description at OPT_HELP_COL, or on a line of its own at that
 * column when the option's part reaches it.
 */
static void
opt_help_row(const struct opt_row *r, int sh, FILE *out)
{
	int col;

	if (sh != 0)
		col = fprintf(out, "  -%c, --%s", sh, r->name);
	else
		col = fprintf(out, "      --%s", r->name);
	if (r->has_arg == optional_argument)
		col += fprintf(out, "[=%s]", r->arg);
	else if (r->arg != NULL)
		col += fprintf(out, " %s", r->arg);
	if (col + 2 > OPT_HELP_COL) {
		putc('\n', out);
		col = 0;
	}
	fprintf(out, "%*s%s\n", OPT_HELP_COL - col, "", r->help);
}

/*
 * The --help text: the synopsis, then every option with its description
 * under the heading of its group, in table order within the group.
 */
void
options_usage(const char *prog, FILE *out)
{
	size_t g, i;

	opt_synopsis(prog, out);
	for (g = 1; g < OPT_G_NGROUPS; g++) {
		fprintf(out, "\n%s\n", opt_group_title[g]);
		for (i = 0; i < nitems(opt_table); i++)
			if (opt_table[i].group == (enum opt_group)g)
				opt_help_row(&opt_table[i], opt_short_of(i),
				    out);
	}
	fputs("\nA URL argument (http[s]://HOST[:PORT][/PATH]) stands for "
	    "--server, --port,\n--uri and --ssl.  The long options may be "
	    "abbreviated.\n"
	    "Details: httperf(1) (man httperf).\n", out);
}
