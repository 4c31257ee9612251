/*
 * httperf: options -> run -> report -> exit status.
 *
 * The only process-wide state lives here: the SIGINT flag.  Everything
 * else is built on the stack of main() and passed down explicitly.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/time.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/clock.h"
#include "core/conn.h"
#include "core/loop.h"
#include "gen/conn_gen.h"
#include "gen/uri_wlog.h"
#include "gen/uri_wset.h"
#include "gen/wsess.h"
#include "gen/wsesslog.h"
#include "net/http_req.h"
#include "net/sock.h"
#include "net/tls.h"
#include "options.h"
#include "stat/basic.h"
#include "stat/print.h"
#include "stat/sess_stat.h"
#include "stat/tls_stat.h"
#include "util.h"

#define PERF_SAMPLE_SEC	5	/* reply-rate sampling interval */
#define MAX_LINE	(256u * 1024)	/* longest reply line */
#define MAX_HEAD	(1024u * 1024)	/* largest header (trailer) section */

/* Set by the SIGINT (SIGTERM, SIGHUP) handler, read once per loop turn. */
static volatile sig_atomic_t interrupted;

enum run_workload {
	RUN_CONNS,		/* --num-conns, --num-calls */
	RUN_WSESS,		/* --wsess */
	RUN_WSESSLOG,		/* --wsesslog */
};

/* Everything a run needs, so callbacks can reach it. */
struct run {
	const struct options *o;
	enum run_workload workload;
	int		 have_workload;
	struct loop	*loop;
	struct bus	*bus;
	struct core	 core;
	int		 have_core;
	struct http_req_tmpl tmpl;
	char		*host;
	struct sockaddr_storage *src;
	size_t		 nsrc;
	struct basic	 basic;
	struct sess_stat sstat;
	int		 have_sstat;
	struct tls_ctx	*tls;
	struct tls_stat	 tstat;
	int		 have_tstat;
	struct print	 print;
	int		 have_print;
	struct uri_wlog	 wlog;
	int		 have_wlog;
	struct uri_wset	 wset;
	int		 have_wset;
	struct conn_gen	 gen;
	struct wsess	 wsess;
	struct wsesslog	 wsesslog;
	struct timer	 sample_timer;
	uint64_t	 sample_next;
	uint64_t	 sample_last;
	struct timer	 runtime_timer;
};

static void
on_sigint(int sig)
{
	if (interrupted)
		_exit(1);
	interrupted = 1;
}

/* Checks for SIGINT, SIGTERM or SIGHUP once per loop turn. */
static void
run_turn(struct loop *l, void *arg, uint64_t now)
{
	if (interrupted)
		loop_stop(l);
}

/* Stops the workload from creating anything more. */
static void
run_stop_workload(struct run *r)
{
	switch (r->workload) {
	case RUN_CONNS:
		conn_gen_stop(&r->gen);
		break;
	case RUN_WSESS:
		wsess_stop(&r->wsess);
		break;
	case RUN_WSESSLOG:
		wsesslog_stop(&r->wsesslog);
		break;
	}
}

/*
 * The workload is complete: create nothing more, and end the run at the
 * end of this loop turn.
 */
static void
run_done(void *arg, uint64_t now)
{
	struct run *r = arg;

	run_stop_workload(r);
	loop_stop(r->loop);
}

/*
 * Pushes out what is left of the report.  A full disk or a reader that
 * went away (SIGPIPE is ignored, so writes fail with EPIPE) would lose it
 * silently: say so, so that main() exits 1.  Returns 0 or -1.
 */
static int
run_flush_report(const struct options *o)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	e = errno != 0 ? errno : EIO;
	fprintf(stderr, "%s: cannot write the report to the standard "
	    "output: %s\n", o->prog, strerror(e));
	return -1;
}

/*
 * --wlog n ran out of URIs.  Connections: create no more, but let those
 * under way finish, so the replies in flight count, and end the run with
 * the last of them.  --wsess: no new session; the live ones run on (their
 * later calls get no URI and are abandoned) and the run ends after them.
 */
static void
run_wlog_done(void *arg, uint64_t now)
{
	struct run *r = arg;

	if (r->workload == RUN_CONNS)
		conn_gen_drain(&r->gen, now);
	else if (r->workload == RUN_WSESS)
		wsess_drain(&r->wsess, now);
	else
		run_done(r, now);
}

/* --runtime expired. */
static void
run_runtime_fired(struct timer *t, uint64_t now)
{
	struct run *r = containerof(t, struct run, runtime_timer);

	loop_stop(r->loop);
}

/* The reply-rate sample, on an absolute 5 s schedule. */
static void
run_sample_fired(struct timer *t, uint64_t now)
{
	struct run *r = containerof(t, struct run, sample_timer);
	union bus_arg arg;

	arg.d = now > r->sample_last ?
	    1.0 / clock_to_sec(now - r->sample_last) : 0.0;
	r->sample_last = now;
	bus_signal(r->bus, BUS_PERF_SAMPLE, NULL, arg, now);
	r->sample_next += PERF_SAMPLE_SEC * CLOCK_NS_PER_SEC;
	timer_add(loop_timers(r->loop), &r->sample_timer, r->sample_next);
}

/* Picks the event backend: HTTPERF_LOOP=epoll|poll, default the best. */
static enum loop_backend_kind
backend_from_env(const char *prog)
{
	const char *s = getenv("HTTPERF_LOOP");

	if (s == NULL || *s == '\0')
		return LOOP_BACKEND_AUTO;
	if (strcmp(s, "epoll") == 0)
		return LOOP_BACKEND_EPOLL;
	if (strcmp(s, "poll") == 0)
		return LOOP_BACKEND_POLL;
	fprintf(stderr, "%s: HTTPERF_LOOP: unknown backend '%s' "
	    "(epoll or poll)\n", prog, s);
	exit(1);
}

/*
 * Converts an option's seconds (at most OPTIONS_MAX_SEC, so no deadline
 * wraps) to nanoseconds; a positive time stays positive, as 0 means none.
 */
static uint64_t
run_ns(double sec)
{
	uint64_t ns = clock_from_sec(sec);

	return sec > 0 && ns == 0 ? 1 : ns;
}

static double
tv_sec(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

/* Resolves --server and --myaddr into the core's configuration. */
static int
run_addresses(struct run *r, struct core_config *cfg, char *err,
    size_t errlen)
{
	const struct options *o = r->o;
	size_t i;

	if (sock_resolve(o->server, o->port, &cfg->addr, &cfg->addrlen, err,
	    errlen) == -1) {
		fprintf(stderr, "%s: --server: %s\n", o->prog, err);
		return -1;
	}
	for (i = 0; i < o->n_myaddr; i++) {
		if (sock_expand_src(o->myaddr[i], &r->src, &r->nsrc, err,
		    errlen) == -1) {
			fprintf(stderr, "%s: --myaddr: %s\n", o->prog, err);
			return -1;
		}
	}
	for (i = 0; i < r->nsrc; i++) {
		if (r->src[i].ss_family != cfg->addr.ss_family) {
			fprintf(stderr, "%s: --myaddr: the source addresses "
			    "must be of the server's address family (%s)\n",
			    o->prog, cfg->addr.ss_family == AF_INET6 ?
			    "IPv6" : "IPv4");
			return -1;
		}
	}
	cfg->src = r->src;
	cfg->nsrc = r->nsrc;
	return 0;
}

/* Builds the request template shared by every call. */
static void
run_request(struct run *r)
{
	const struct options *o = r->o;
	struct http_req_spec spec;

	memset(&spec, 0, sizeof(spec));
	spec.method = o->method;
	spec.uri = o->uri;
	spec.minor = o->http_minor;
	if (!o->no_host_hdr) {
		r->host = http_req_host_for(o->server, o->server_name,
		    o->port, o->ssl ? 443 : 80);
		spec.host = r->host;
	}
	spec.extra = o->add_header;
	spec.extra_len = o->add_header_len;
	spec.user_agent = "httperf/" PACKAGE_VERSION;
	spec.body = o->body;
	spec.body_len = o->body_len;
	http_req_tmpl_init(&r->tmpl, &spec);
}

/*
 * Returns the host part of a Host-style name: without brackets around an
 * IPv6 literal and without ":port".  The caller frees it.
 */
static char *
run_host_only(const char *name)
{
	const char *end, *colon;
	size_t len;
	char *s;

	if (name[0] == '[') {
		end = strchr(name, ']');
		len = end != NULL ? (size_t)(end - name - 1) : strlen(name + 1);
		s = xmalloc(len + 1);
		memcpy(s, name + 1, len);
		s[len] = '\0';
		return s;
	}
	colon = strchr(name, ':');
	/* One colon is a port; more make an IPv6 literal. */
	if (colon != NULL && strchr(colon + 1, ':') == NULL) {
		len = (size_t)(colon - name);
		s = xmalloc(len + 1);
		memcpy(s, name, len);
		s[len] = '\0';
		return s;
	}
	return xstrdup(name);
}

#define SNI_MAX		255	/* RFC 6066: a DNS host name */
#define SNI_LABEL_MAX	63	/* RFC 1035 */

/*
 * Checks that `name' can be sent as SNI: at most 255 bytes, no label over
 * 63.  Each connection would fail otherwise (the library refuses a longer
 * name; a server may drop a bad one).  Returns 0, or -1 after saying so,
 * naming the option the name came from.
 */
static int
run_check_sni(const struct options *o, const char *name)
{
	const char *opt = o->tls_server_name != NULL ? "--tls-server-name" :
	    o->server_name != NULL ? "--server-name" : "--server";
	const char *hint = o->tls_server_name != NULL ? "" :
	    " (--tls-server-name sets another)";
	size_t len = strlen(name), label;

	if (len > SNI_MAX) {
		fprintf(stderr, "%s: %s: a %zu-byte name is too long for TLS "
		    "SNI (at most %d)%s\n", o->prog, opt, len, SNI_MAX, hint);
		return -1;
	}
	for (; *name != '\0'; name += label + (name[label] == '.')) {
		label = strcspn(name, ".");
		if (label > SNI_LABEL_MAX) {
			fprintf(stderr, "%s: %s: a %zu-byte label is too "
			    "long for TLS SNI (at most %d)%s\n", o->prog, opt,
			    label, SNI_LABEL_MAX, hint);
			return -1;
		}
	}
	return 0;
}

/*
 * --ssl: builds the TLS context.  SNI goes to --tls-server-name, else the
 * --server-name or --server host, unless that is an IP literal; with
 * --ssl-verify the certificate must match that name (or the literal).
 * Returns 0, or -1 after printing why.
 */
static int
run_tls(struct run *r, char *err, size_t errlen)
{
	const struct options *o = r->o;
	struct tls_config tc;
	struct sockaddr_storage ss;
	char *name;
	int literal;

	if (!o->ssl)
		return 0;
	name = run_host_only(o->tls_server_name ? o->tls_server_name :
	    o->server_name ? o->server_name : o->server);
	literal = sock_parse_addr(name, &ss) == 0;
	if (!literal && run_check_sni(o, name) == -1) {
		free(name);
		return -1;
	}
	memset(&tc, 0, sizeof(tc));
	tc.min_version = (enum tls_version)o->ssl_min_version;
	tc.max_version = (enum tls_version)o->ssl_max_version;
	tc.ciphers = o->ssl_ciphers;
	tc.ciphersuites = o->ssl_ciphersuites;
	tc.verify = o->ssl_verify;
	tc.ca_file = o->ssl_ca_file;
	tc.ca_path = o->ssl_ca_path;
	tc.cert_file = o->ssl_certificate;
	tc.key_file = o->ssl_key;
	tc.sni = literal ? NULL : name;
	tc.verify_name = name;
	r->tls = tls_ctx_new(&tc, err, errlen);
	free(name);
	if (r->tls == NULL) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return -1;
	}
	return 0;
}

/*
 * Creates the collectors, the URI sources and the workload, in the order
 * their handlers must run.  Returns 0, or -1 after printing why.
 */
static int
run_modules(struct run *r, char *err, size_t errlen)
{
	const struct options *o = r->o;
	struct session_config scfg;

	basic_init(&r->basic, &r->core, o->verbose, stdout);
	if (o->ssl) {
		tls_stat_init(&r->tstat, &r->core);
		r->have_tstat = 1;
	}
	if (options_session(o)) {
		sess_stat_init(&r->sstat, &r->core, o->verbose, stdout);
		r->have_sstat = 1;
	}
	if (o->print_request || o->print_reply) {
		print_init(&r->print, &r->core, o->print_request,
		    o->print_reply, stdout);
		r->have_print = 1;
	}
	if (o->wlog_file != NULL) {
		if (uri_wlog_init(&r->wlog, &r->core, o->wlog_file,
		    o->wlog_wrap, o->verbose, stdout, o->prog, run_wlog_done,
		    r, err, errlen) == -1) {
			fprintf(stderr, "%s: --wlog: %s\n", o->prog, err);
			return -1;
		}
		r->have_wlog = 1;
	}
	if (o->wset_n > 0) {
		uri_wset_init(&r->wset, &r->core, o->wset_n, o->wset_x,
		    o->client_id, o->num_clients, o->uri, o->verbose, stdout,
		    o->prog);
		r->have_wset = 1;
	}

	memset(&scfg, 0, sizeof(scfg));
	scfg.rate = &o->rate;
	scfg.client_id = o->client_id;
	scfg.max_conns = o->max_connections;
	scfg.max_piped = o->max_piped;
	scfg.http_minor = o->http_minor;
	scfg.cookies = o->session_cookies;
	scfg.failure_status = o->failure_status;
	scfg.retry = o->retry_on_failure;
	scfg.max_retries = o->max_retries;
	scfg.cookies_ignored = &r->sstat.t.cookies_ignored;
	r->sstat.t.cookies = o->session_cookies;
	if (o->wsess_n > 0) {
		struct wsess_config wc;

		memset(&wc, 0, sizeof(wc));
		wc.sess = scfg;
		wc.sess.nsess = o->wsess_n;
		wc.ncalls = o->wsess_calls;
		wc.burst_len = o->burst_len;
		wc.think = o->wsess_think;
		r->workload = RUN_WSESS;
		wsess_init(&r->wsess, &r->core, &wc, run_done, r);
	} else if (o->wsesslog_n > 0) {
		struct wsesslog_config lc;

		memset(&lc, 0, sizeof(lc));
		lc.sess = scfg;
		lc.sess.nsess = o->wsesslog_n;
		lc.think = o->wsesslog_think;
		lc.path = o->wsesslog_file;
		r->workload = RUN_WSESSLOG;
		if (wsesslog_init(&r->wsesslog, &r->core, &lc, run_done, r,
		    err, errlen) == -1) {
			/* A parse error may quote the file: keep it on one
			   line and free of terminal controls. */
			fprintf(stderr, "%s: --wsesslog: ", o->prog);
			util_put_escaped(stderr, err, strlen(err));
			putc('\n', stderr);
			return -1;
		}
	} else {
		r->workload = RUN_CONNS;
		conn_gen_init(&r->gen, &r->core, o->num_conns, o->num_calls,
		    o->burst_len, &o->rate, o->client_id, run_done, r);
	}
	r->have_workload = 1;
	return 0;
}

/* Starts the workload: the first arrival happens now. */
static void
run_start_workload(struct run *r, uint64_t now)
{
	switch (r->workload) {
	case RUN_CONNS:
		conn_gen_start(&r->gen, now);
		break;
	case RUN_WSESS:
		wsess_start(&r->wsess, now);
		break;
	case RUN_WSESSLOG:
		wsesslog_start(&r->wsesslog, now);
		break;
	}
}

/*
 * Frees whatever the run set up.  Connections still open (--runtime,
 * SIGINT) are closed quietly first: with an empty bus nobody counts them.
 */
static void
run_teardown(struct run *r, uint64_t now)
{
	if (r->have_core) {
		bus_free(r->bus);
		r->bus = bus_new();
		r->core.bus = r->bus;
		core_close_all(&r->core, now);
	}
	if (r->have_workload && r->workload == RUN_WSESS)
		wsess_fini(&r->wsess);
	else if (r->have_workload && r->workload == RUN_WSESSLOG)
		wsesslog_fini(&r->wsesslog);
	if (r->have_sstat)
		sess_stat_fini(&r->sstat);
	if (r->have_tstat)
		tls_stat_fini(&r->tstat);
	if (r->have_print)
		print_fini(&r->print);
	if (r->have_wlog)
		uri_wlog_fini(&r->wlog);
	if (r->have_wset)
		uri_wset_fini(&r->wset);
	if (r->have_core) {
		core_fini(&r->core);
		basic_fini(&r->basic);
	}
	bus_free(r->bus);
	loop_free(r->loop);
	tls_ctx_free(r->tls);
	http_req_tmpl_free(&r->tmpl);
	free(r->host);
	free(r->src);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct run r;
	struct core_config cfg;
	struct sigaction sa;
	struct rusage ru0, ru1;
	char err[256];
	uint64_t start, stop, first;
	long nofile;
	int status = 1;

	options_init(&o);
	switch (options_parse(&o, argc, argv, stdout, stderr)) {
	case OPTIONS_RUN:
		break;
	case OPTIONS_EXIT_OK:
		options_free(&o);
		return 0;
	default:
		options_free(&o);
		return 1;
	}

	memset(&r, 0, sizeof(r));
	memset(&cfg, 0, sizeof(cfg));
	r.o = &o;
	if (run_addresses(&r, &cfg, err, sizeof(err)) == -1)
		goto out;

	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	run_request(&r);
	if (run_tls(&r, err, sizeof(err)) == -1)
		goto out;
	if ((r.loop = loop_new(backend_from_env(o.prog), err,
	    sizeof(err))) == NULL) {
		fprintf(stderr, "%s: %s\n", o.prog, err);
		goto out;
	}
	r.bus = bus_new();
	cfg.sock.send_buffer = (int)o.send_buffer;
	cfg.sock.recv_buffer = (int)o.recv_buffer;
	cfg.sock.close_with_reset = o.close_with_reset;
	cfg.hog = o.hog;
	cfg.timeout = run_ns(o.timeout);
	cfg.think_timeout = run_ns(o.think_timeout);
	cfg.max_line = MAX_LINE;
	cfg.max_head = MAX_HEAD;
	cfg.debug = o.debug;
	cfg.prog = o.prog;
	cfg.req = &r.tmpl;
	cfg.tls = r.tls;
	cfg.tls_reuse = !o.ssl_no_reuse;
	core_init(&r.core, r.loop, r.bus, &cfg);
	r.have_core = 1;
	if (run_modules(&r, err, sizeof(err)) == -1)
		goto out;
	loop_on_turn(r.loop, run_turn, &r);

	/* Everything is checked: the report starts. */
	options_echo(&o, stdout);
	nofile = sock_raise_nofile();
	if (o.verbose > 0)
		printf("%s: maximum number of open descriptors = %ld\n",
		    o.prog, nofile);
	/* No test whose report cannot be written. */
	if (run_flush_report(&o) == -1)
		goto out;

	start = clock_now();
	/* The first sample is offset by --client, as in 0.9.0. */
	first = (uint64_t)(o.client_id + 1) * PERF_SAMPLE_SEC *
	    CLOCK_NS_PER_SEC / o.num_clients;
	r.sample_last = start;
	r.sample_next = start + first;
	timer_init(&r.sample_timer, run_sample_fired);
	timer_add(loop_timers(r.loop), &r.sample_timer, r.sample_next);
	timer_init(&r.runtime_timer, run_runtime_fired);
	if (o.runtime > 0)
		timer_add(loop_timers(r.loop), &r.runtime_timer,
		    start + run_ns(o.runtime));

	getrusage(RUSAGE_SELF, &ru0);
	run_start_workload(&r, start);
	if (loop_run(r.loop) == -1)
		fprintf(stderr, "%s: event loop failed: %s\n", o.prog,
		    strerror(errno));
	stop = clock_now();
	getrusage(RUSAGE_SELF, &ru1);
	run_stop_workload(&r);
	timer_cancel(&r.sample_timer);
	timer_cancel(&r.runtime_timer);

	basic_print(&r.basic, stdout, stop - start,
	    tv_sec(&ru1.ru_utime) - tv_sec(&ru0.ru_utime),
	    tv_sec(&ru1.ru_stime) - tv_sec(&ru0.ru_stime));
	if (r.have_sstat)
		sess_stat_print(&r.sstat, stdout, stop - start);
	basic_print_extra(&r.basic, stdout);
	if (r.have_tstat)
		tls_stat_print(&r.tstat, stdout);
	if (run_flush_report(&o) == 0)
		status = 0;
out:
	run_teardown(&r, clock_now());
	options_free(&o);
	return status;
}
