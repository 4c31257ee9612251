/*
 * What the core needs, built from the options before the test: the
 * server and --myaddr addresses, the request template, the TLS context,
 * and the core's configuration that points into them.  Part of the
 * program's top layer with main.c and run.c: it reads the options, prints why
 * something cannot be set up, and never runs during the test.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/conn.h"
#include "core/loop.h"
#include "gen/data.h"
#include "lib/datafile.h"
#include "lib/tmpl.h"
#include "lib/util.h"
#include "net/http_req.h"
#include "net/proxy.h"
#include "net/sock.h"
#include "net/tls.h"
#include "opt/options.h"
#include "setup.h"

#define MAX_LINE	(256u * 1024)	/* longest reply line */
#define MAX_HEAD	(1024u * 1024)	/* largest header (trailer) section */
#define SETUP_BUSY_POLL_US 50	/* --busy-poll: SO_BUSY_POLL, as tuned's
				   network-latency profile */

extern char **environ;

/*
 * Picks the event backend: HTTPERF_LOOP=epoll|poll|uring, default the
 * best.
 */
enum loop_backend_kind
setup_backend(const char *prog)
{
	const char *s = getenv("HTTPERF_LOOP");

	if (s == NULL || *s == '\0')
		return LOOP_BACKEND_AUTO;
	if (strcmp(s, "epoll") == 0)
		return LOOP_BACKEND_EPOLL;
	if (strcmp(s, "poll") == 0)
		return LOOP_BACKEND_POLL;
	if (strcmp(s, "uring") == 0 || strcmp(s, "io_uring") == 0)
		return LOOP_BACKEND_URING;
	fprintf(stderr, "%s: HTTPERF_LOOP: unknown backend '%s' "
	    "(epoll, poll or uring)\n", prog, s);
	exit(1);
}

/*
 * Converts an option's seconds (at most OPTIONS_MAX_SEC, so no deadline
 * wraps) to nanoseconds; a positive time stays positive, as 0 means none.
 */
uint64_t
setup_ns(double sec)
{
	uint64_t ns = clock_from_sec(sec);

	return sec > 0 && ns == 0 ? 1 : ns;
}

/*
 * Descriptors the workload can hold at once: every connection or session
 * it starts when they arrive at a rate (an upper bound: their number),
 * one at a time without one; each session with up to --max-connections
 * of its own, the --call-rate pool with its --max-connections.
 */
static uint64_t
setup_nofile_want(const struct options *o)
{
	uint64_t units;

	if (o->concurrency > 0)
		return sock_nofile_want(1, o->concurrency);
	if (o->call_rate > 0)
		return sock_nofile_want(1, o->max_connections > 0 ?
		    o->max_connections : 100);
	if (options_session(o)) {
		units = o->wsess_n > 0 ? o->wsess_n : o->wsesslog_n > 0 ?
		    o->wsesslog_n : o->wsesspage_n;
		return sock_nofile_want(o->rate_given ? units : 1,
		    o->max_connections > 0 ? o->max_connections : 4);
	}
	return sock_nofile_want(o->rate_given ? o->num_conns : 1, 1);
}

long
setup_nofile(const struct options *o)
{
	char note[256];
	long n;

	n = sock_raise_nofile(setup_nofile_want(o), note, sizeof(note));
	/* On stderr: the classic report on stdout stays as it was. */
	if (note[0] != '\0')
		fprintf(stderr, "%s: %s\n", o->prog, note);
	return n;
}

int
setup_proxy(struct setup *s, const struct options *o, char *const *env,
    char *err, size_t errlen)
{
	const char *url = o->proxy, *var = o->ssl ? "https_proxy" :
	    "http_proxy";
	struct proxy_url u;
	char e[128];
	size_t len;

	if (url == NULL && o->proxy_env) {
		url = proxy_env(env, var);
		if (url != NULL && proxy_no_proxy(proxy_env(env, "no_proxy"),
		    o->server))
			url = NULL;
	}
	if (url == NULL)
		return 0;
	if (proxy_url_parse(url, &u, e, sizeof(e)) == -1) {
		snprintf(err, errlen, "%s: %s", o->proxy != NULL ? "--proxy" :
		    var, e);
		return -1;
	}
	s->proxy_host = u.host;
	s->proxy_port = u.port;
	s->proxy = http_req_host(u.host, u.port, 0);
	if (o->proxy_user != NULL) {
		s->proxy_userpass = xstrdup(o->proxy_user);
		free(u.userpass);
	} else
		s->proxy_userpass = u.userpass;
	if (s->proxy_userpass != NULL)
		s->proxy_auth = proxy_basic(s->proxy_userpass);
	if (o->ssl) {
		/* CONNECT host:port always names the port. */
		char *authority = http_req_host(o->server, o->port, 0);

		s->tunnel = proxy_connect_req(authority, s->proxy_auth,
		    "httperf/" PACKAGE_VERSION, &s->tunnel_len);
		free(authority);
	} else {
		char *host = http_req_host(o->server, o->port, 80);

		len = strlen(host) + 8;
		s->prefix = xmalloc(len);
		snprintf(s->prefix, len, "http://%s", host);
		free(host);
	}
	return 0;
}

/*
 * --servers: reads the file (checked with the options already) and
 * resolves each server, naming it "HOST:PORT" for the report.  The
 * first one's address stands as the run's (cfg->addr).
 */
static int
setup_servers(struct setup *s, const struct options *o,
    struct core_config *cfg, char *err, size_t errlen)
{
	const struct servers_target *t;
	struct core_target *ct;
	size_t i;

	if (servers_load(o->servers_file, o->port_given ? o->port : 0, o->ssl,
	    &s->servers, err, errlen) == -1) {
		fprintf(stderr, "%s: --servers: ", o->prog);
		util_put_escaped(stderr, err, strlen(err));
		putc('\n', stderr);
		return -1;
	}
	s->targets = xcalloc(s->servers.n, sizeof(*s->targets));
	for (i = 0; i < s->servers.n; i++) {
		t = &s->servers.t[i];
		ct = &s->targets[i];
		ct->name = http_req_host(t->host, t->port, 0);
		ct->host = t->host;
		ct->port = t->port;
		if (sock_resolve(t->host, t->port, &ct->addr, &ct->addrlen,
		    err, errlen) == -1) {
			fprintf(stderr, "%s: --servers: %s:%zu: %s\n", o->prog,
			    o->servers_file, t->line, err);
			return -1;
		}
	}
	cfg->addr = s->targets[0].addr;
	cfg->addrlen = s->targets[0].addrlen;
	cfg->targets = s->targets;
	cfg->ntargets = s->servers.n;
	return 0;
}

/* --myaddr: the source addresses must be of each server's family. */
static int
setup_src_family(const struct options *o, const struct setup *s,
    const struct sockaddr_storage *addr)
{
	size_t i;

	for (i = 0; i < s->nsrc; i++) {
		if (s->src[i].ss_family != addr->ss_family) {
			fprintf(stderr, "%s: --myaddr: the source addresses "
			    "must be of the server's address family (%s)\n",
			    o->prog, addr->ss_family == AF_INET6 ?
			    "IPv6" : "IPv4");
			return -1;
		}
	}
	return 0;
}

/*
 * Resolves --server (or --servers) and --myaddr into the core's
 * configuration, or takes --unix-socket's address, or the proxy's.
 */
int
setup_addresses(struct setup *s, const struct options *o,
    struct core_config *cfg, char *err, size_t errlen)
{
	size_t i;

	if (o->unix_socket != NULL) {
		/* Missing at start is a mistake, not a measurement. */
		if (sock_unix_addr(o->unix_socket, &cfg->addr, &cfg->addrlen,
		    err, errlen) == -1 ||
		    sock_unix_probe(o->unix_socket, err, errlen) == -1) {
			fprintf(stderr, "%s: --unix-socket: %s\n", o->prog,
			    err);
			return -1;
		}
		return 0;
	}
	if (setup_proxy(s, o, environ, err, errlen) == -1) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return -1;
	}
	if (s->proxy != NULL) {
		/* The proxy resolves the server: only its name is ours. */
		if (sock_resolve(s->proxy_host, s->proxy_port, &cfg->addr,
		    &cfg->addrlen, err, errlen) == -1) {
			fprintf(stderr, "%s: %s: %s\n", o->prog,
			    o->proxy != NULL ? "--proxy" : "--proxy-env", err);
			return -1;
		}
	} else if (o->servers_file != NULL) {
		if (setup_servers(s, o, cfg, err, errlen) == -1)
			return -1;
	} else if (sock_resolve(o->server, o->port, &cfg->addr, &cfg->addrlen,
	    err, errlen) == -1) {
		fprintf(stderr, "%s: --server: %s\n", o->prog, err);
		return -1;
	}
	for (i = 0; i < o->n_myaddr; i++) {
		if (sock_expand_src(o->myaddr[i], &s->src, &s->nsrc, err,
		    errlen) == -1) {
			fprintf(stderr, "%s: --myaddr: %s\n", o->prog, err);
			return -1;
		}
	}
	if (setup_src_family(o, s, &cfg->addr) == -1)
		return -1;
	for (i = 0; i < cfg->ntargets; i++)
		if (setup_src_family(o, s, &cfg->targets[i].addr) == -1)
			return -1;
	cfg->src = s->src;
	cfg->nsrc = s->nsrc;
	return 0;
}

/*
 * Compiles one --template field into *t; returns it if it has a
 * placeholder, else NULL (the field stays in the plain request).  The
 * options were checked (options_tmpl.c): nothing fails here.  `df' is
 * --data's file, or NULL.
 */
static const struct tmpl *
setup_tmpl(struct tmpl *t, const char *s, size_t len, struct datafile *df)
{
	char err[256];
	size_t col;

	if (s == NULL || tmpl_compile(t, s, len, data_resolve, df, err,
	    sizeof(err), &col) == -1 || !t->vars)
		return NULL;
	return t;
}

/* --template: the fields with placeholders and their random stream. */
static void
setup_templates(struct setup *s, const struct options *o)
{
	struct core_tmpl *ct = &s->ctmpl;
	struct datafile *df = s->data_on ? &s->data : NULL;

	if (!o->template)
		return;
	ct->uri = setup_tmpl(&s->t_uri, o->uri, strlen(o->uri), df);
	ct->hdrs = setup_tmpl(&s->t_hdrs, o->add_header, o->add_header_len,
	    df);
	ct->body = setup_tmpl(&s->t_body, o->body, o->body_len, df);
	if (df != NULL) {
		ct->value = data_value;
		ct->value_arg = df;
	}
	/* A session file's requests may have placeholders of their own. */
	s->templated = ct->uri != NULL || ct->hdrs != NULL ||
	    ct->body != NULL || o->wsesslog_n > 0;
	tmpl_rng_seed(&ct->rng, o->seed, o->client_id);
	ct->client = o->client_id;
	ct->epoch_off = (int64_t)clock_wall_now() - (int64_t)clock_now();
}

/*
 * --servers: each server's request template, the run's with its own Host
 * (and a URL's path as its default URI).
 */
static void
setup_target_requests(struct setup *s, const struct options *o,
    const struct http_req_spec *run)
{
	const struct servers_target *t;
	struct http_req_spec spec;
	size_t i, n = s->servers.n;

	if (n == 0)
		return;
	s->target_req = xcalloc(n, sizeof(*s->target_req));
	s->target_host = xcalloc(n, sizeof(*s->target_host));
	for (i = 0; i < n; i++) {
		t = &s->servers.t[i];
		spec = *run;
		if (!o->no_host_hdr) {
			s->target_host[i] = http_req_host(t->host, t->port,
			    t->https || o->ssl ? 443 : 80);
			spec.host = s->target_host[i];
		}
		if (t->uri != NULL)
			spec.uri = t->uri;
		http_req_tmpl_init(&s->target_req[i], &spec);
		s->targets[i].req = &s->target_req[i];
	}
}

/* Builds the request template shared by every call. */
static void
setup_request(struct setup *s, const struct options *o)
{
	struct http_req_spec spec;

	memset(&spec, 0, sizeof(spec));
	spec.method = o->method;
	spec.uri = o->uri;
	/* Plain HTTP through a proxy: absolute-form, credentials on every
	   request (with --ssl they go on the CONNECT only). */
	spec.target_prefix = s->prefix;
	if (s->prefix != NULL)
		spec.proxy_auth = s->proxy_auth;
	spec.minor = o->http_minor;
	if (!o->no_host_hdr) {
		s->host = http_req_host_for(o->server, o->server_name,
		    o->port, o->ssl ? 443 : 80);
		spec.host = s->host;
	}
	/* A field with placeholders is expanded per call instead. */
	setup_templates(s, o);
	if (s->ctmpl.hdrs == NULL) {
		spec.extra = o->add_header;
		spec.extra_len = o->add_header_len;
	}
	spec.user_agent = "httperf/" PACKAGE_VERSION;
	if (s->ctmpl.body == NULL) {
		spec.body = o->body;
		spec.body_len = o->body_len;
	}
	http_req_tmpl_init(&s->tmpl, &spec);
	setup_target_requests(s, o, &spec);
}

/*
 * Returns the host part of a Host-style name: without brackets around an
 * IPv6 literal and without ":port".  The caller frees it.
 */
static char *
setup_host_only(const char *name)
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
 * naming where the name came from (`opt') with `hint'.
 */
static int
setup_check_sni(const struct options *o, const char *name, const char *opt,
    const char *hint)
{
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
 * Builds a TLS context for the server named `host' (Host-style: brackets
 * and a port are left out): SNI unless it is an IP literal, and with
 * --ssl-verify the name the certificate must match.  Returns it, or NULL
 * after printing why (`opt' and `hint' say where the name came from).
 */
static struct tls_ctx *
setup_tls_ctx(const struct options *o, const char *host, const char *opt,
    const char *hint, char *err, size_t errlen)
{
	struct tls_config tc;
	struct sockaddr_storage ss;
	struct tls_ctx *ctx;
	char *name;
	int literal;

	name = setup_host_only(host);
	literal = sock_parse_addr(name, &ss) == 0;
	if (!literal && setup_check_sni(o, name, opt, hint) == -1) {
		free(name);
		return NULL;
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
	if (o->http2) {
		/* h2, and http/1.1 offered only if we would speak it. */
		tc.alpn = (const unsigned char *)"\x02h2\x08http/1.1";
		tc.alpn_len = o->http2_fallback ? 12 : 3;
	}
	ctx = tls_ctx_new(&tc, err, errlen);
	free(name);
	if (ctx == NULL)
		fprintf(stderr, "%s: %s\n", o->prog, err);
	return ctx;
}

/*
 * --servers: a TLS context for each server reached with TLS (all with
 * --ssl, else those of an https URL), each with its own name.
 */
static int
setup_target_tls(struct setup *s, const struct options *o, char *err,
    size_t errlen)
{
	size_t i;

	for (i = 0; i < s->servers.n; i++) {
		if (!o->ssl && !s->servers.t[i].https)
			continue;
		s->targets[i].tls = setup_tls_ctx(o, s->targets[i].name,
		    "--servers", "", err, errlen);
		if (s->targets[i].tls == NULL)
			return -1;
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
setup_tls(struct setup *s, const struct options *o, char *err,
    size_t errlen)
{
	const char *opt = o->tls_server_name != NULL ? "--tls-server-name" :
	    o->server_name != NULL ? "--server-name" : "--server";
	const char *hint = o->tls_server_name != NULL ? "" :
	    " (--tls-server-name sets another)";

	if (setup_target_tls(s, o, err, errlen) == -1)
		return -1;
	if (!o->ssl)
		return 0;
	s->tls = setup_tls_ctx(o, o->tls_server_name ? o->tls_server_name :
	    o->server_name ? o->server_name : o->server, opt, hint, err,
	    errlen);
	return s->tls != NULL ? 0 : -1;
}

/* --data: reads the file's rows.  Returns 0, or -1 after one line. */
static int
setup_data(struct setup *s, const struct options *o, char *err,
    size_t errlen)
{
	if (o->data_file == NULL)
		return 0;
	if (datafile_load(&s->data, o->data_file, 0, err, errlen) == -1) {
		fprintf(stderr, "%s: --data: ", o->prog);
		util_put_escaped(stderr, err, strlen(err));
		putc('\n', stderr);
		return -1;
	}
	s->data_on = 1;
	return 0;
}

int
setup_core(struct setup *s, const struct options *o,
    struct core_config *cfg, char *err, size_t errlen)
{
	if (setup_data(s, o, err, errlen) == -1)
		return -1;
	setup_request(s, o);
	if (setup_tls(s, o, err, errlen) == -1)
		return -1;

	cfg->sock.send_buffer = (int)o->send_buffer;
	cfg->sock.recv_buffer = (int)o->recv_buffer;
	cfg->sock.close_with_reset = o->close_with_reset;
	/* --busy-poll: the sockets too, if the kernel lets them; the loop
	   never sleeps either way (run.c). */
	if (o->busy_poll && sock_busy_poll_check(SETUP_BUSY_POLL_US) == -1)
		fprintf(stderr, "%s: warning: --busy-poll: the kernel refuses "
		    "SO_BUSY_POLL (%s); only the event loop busy-polls\n",
		    o->prog, strerror(errno));
	else if (o->busy_poll)
		cfg->sock.busy_poll = SETUP_BUSY_POLL_US;
	cfg->hog = o->hog;
	cfg->timeout = setup_ns(o->timeout);
	cfg->think_timeout = setup_ns(o->think_timeout);
	cfg->max_line = MAX_LINE;
	cfg->max_head = MAX_HEAD;
	cfg->debug = o->debug;
	cfg->prog = o->prog;
	cfg->req = &s->tmpl;
	cfg->tmpl = s->templated ? &s->ctmpl : NULL;
	cfg->tls = s->tls;
	cfg->tls_reuse = !o->ssl_no_reuse;
	cfg->http2 = o->http2;
	cfg->http2_fallback = o->http2_fallback;
	cfg->max_streams = o->max_streams;
	cfg->tunnel_req = s->tunnel;
	cfg->tunnel_len = s->tunnel_len;
	return 0;
}

static void
setup_free_targets(struct setup *s)
{
	size_t i;

	for (i = 0; s->targets != NULL && i < s->servers.n; i++) {
		tls_ctx_free(s->targets[i].tls);
		free(s->targets[i].name);
		if (s->target_req != NULL)
			http_req_tmpl_free(&s->target_req[i]);
		if (s->target_host != NULL)
			free(s->target_host[i]);
	}
	free(s->targets);
	free(s->target_req);
	free(s->target_host);
	s->targets = NULL;
	s->target_req = NULL;
	s->target_host = NULL;
	servers_free(&s->servers);
}

void
setup_free(struct setup *s)
{
	tls_ctx_free(s->tls);
	http_req_tmpl_free(&s->tmpl);
	tmpl_free(&s->t_uri);
	tmpl_free(&s->t_hdrs);
	tmpl_free(&s->t_body);
	datafile_free(&s->data);
	s->data_on = 0;
	setup_script_free(s->script);
	s->script = NULL;
	memset(&s->ctmpl, 0, sizeof(s->ctmpl));
	s->templated = 0;
	free(s->host);
	free(s->src);
	free(s->proxy);
	free(s->proxy_host);
	free(s->proxy_userpass);
	free(s->proxy_auth);
	free(s->prefix);
	free(s->tunnel);
	setup_free_targets(s);
	s->proxy = s->proxy_host = s->proxy_userpass = s->proxy_auth = NULL;
	s->prefix = s->tunnel = NULL;
	s->tls = NULL;
	s->host = NULL;
	s->src = NULL;
	s->nsrc = 0;
}
