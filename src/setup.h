/*
 * What the core needs, built from the options (see setup.c).
 */
#ifndef HTTPERF_SETUP_H
#define HTTPERF_SETUP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "core/core.h"
#include "core/loop.h"
#include "lib/datafile.h"
#include "lib/servers.h"
#include "lib/tmpl.h"
#include "net/http_req.h"

struct core_config;
struct options;
struct script;
struct tls_ctx;

/* What the core's configuration points into; zero it first. */
struct setup {
	struct http_req_tmpl tmpl;	/* the request of every call */
	char		*host;		/* its Host field */
	struct sockaddr_storage *src;	/* --myaddr, expanded */
	size_t		 nsrc;
	struct tls_ctx	*tls;		/* --ssl */
	/* The proxy (--proxy, or --proxy-env's variable), if any. */
	char		*proxy;		/* "host:port" as the report says it */
	char		*proxy_host;	/* to resolve */
	unsigned	 proxy_port;
	char		*proxy_userpass; /* --proxy-user, or the URL's */
	char		*proxy_auth;	/* its Proxy-Authorization value */
	char		*prefix;	/* absolute-form: "http://host:port" */
	char		*tunnel;	/* --ssl: the CONNECT request */
	size_t		 tunnel_len;
	/* --template: the compiled fields and what the core expands. */
	struct tmpl	 t_uri;
	struct tmpl	 t_hdrs;
	struct tmpl	 t_body;
	struct core_tmpl ctmpl;
	int		 templated;	/* a field has a placeholder */
	/* --data: the file's rows, read once (gen/data.h hands them out). */
	struct datafile	 data;
	int		 data_on;
	/* --servers: the file's targets and what the core gets of each
	   (its own request template, Host, TLS context and name). */
	struct servers_list servers;
	struct core_target *targets;
	struct http_req_tmpl *target_req;
	char		**target_host;
	struct script	*script;	/* --script, or NULL */
};

/*
 * Resolves --server and --myaddr into cfg; with --unix-socket, the
 * socket's address instead (the path must be a socket now); with a proxy
 * (--proxy, or --proxy-env and its variables), the proxy's address.
 * Returns 0, or -1 after printing why.
 */
int	setup_addresses(struct setup *s, const struct options *o,
	    struct core_config *cfg, char *err, size_t errlen);

/*
 * Builds the request template and the TLS context (--ssl), and fills in
 * the rest of cfg.  Returns 0, or -1 after printing why.
 */
int	setup_core(struct setup *s, const struct options *o,
	    struct core_config *cfg, char *err, size_t errlen);

/*
 * Raises the open files limit to what the workload can hold at once
 * (beyond the hard limit when privileged), saying so on stderr when it
 * changed something or falls short.  Returns the soft limit in force.
 */
long	setup_nofile(const struct options *o);

/*
 * Picks the proxy of a run into s: --proxy, or with --proxy-env
 * https_proxy (with --ssl) or http_proxy from `env' (NULL-terminated
 * "NAME=value" strings) unless no_proxy excludes --server.  Returns 0
 * (s->proxy NULL: no proxy), or -1 with the problem in err.
 */
int	setup_proxy(struct setup *s, const struct options *o,
	    char *const *env, char *err, size_t errlen);

/* Frees what setup_addresses() and setup_core() made.  Harmless twice. */
void	setup_free(struct setup *s);

/* The event backend: HTTPERF_LOOP=epoll|poll, default the best; exits
   on any other value. */
enum loop_backend_kind setup_backend(const char *prog);

/*
 * Converts an option's seconds (at most OPTIONS_MAX_SEC, so no deadline
 * wraps) to nanoseconds; a positive time stays positive, as 0 means none.
 */
uint64_t setup_ns(double sec);

/*
 * --script (setup_script.c): the script loaded into s->script (none
 * without --script), its setup() and init() run, its hooks on `bus';
 * thread:stop() calls stop(stop_arg, now).  -1 after printing one line.
 * setup_script_done(): after the report, the `script' error class and
 * done(); rv, or -1 after printing why.  setup_free() frees the script.
 */
struct bus;
int		 setup_script(struct setup *s, const struct options *o,
		    struct core *core, struct bus *bus,
		    void (*stop)(void *, uint64_t), void *stop_arg);
int		 setup_script_done(struct setup *s, const struct options *o,
		    FILE *out, uint64_t duration, int rv);
void		 setup_script_free(struct script *s);
/* The script's counts for done() (script_stat_config's fill; arg is the
   struct setup). */
struct script_stat_counts;
void		 setup_script_fill(const void *arg,
		    struct script_stat_counts *c);
/*
 * --jobs' parent: done() once, over the workers' counts added up (the
 * merged script collector's state); the script loaded for it alone.
 * rv, or -1 after printing why.
 */
int		 setup_script_merged(const struct options *o,
		    const void *state, uint64_t duration, FILE *out, int rv);

#endif
