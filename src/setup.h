/*
 * What the core needs, built from the options (see setup.c).
 */
#ifndef HTTPERF_SETUP_H
#define HTTPERF_SETUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/loop.h"
#include "net/http_req.h"

struct core_config;
struct options;
struct tls_ctx;

/* What the core's configuration points into; zero it first. */
struct setup {
	struct http_req_tmpl tmpl;	/* the request of every call */
	char		*host;		/* its Host field */
	struct sockaddr_storage *src;	/* --myaddr, expanded */
	size_t		 nsrc;
	struct tls_ctx	*tls;		/* --ssl */
};

/*
 * Resolves --server and --myaddr into cfg.  Returns 0, or -1 after
 * printing why.
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

#endif
