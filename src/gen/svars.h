/*
 * Session variables and checks (--wsesslog's extract= and check=, and
 * --check): what a request's reply must give.
 *
 *  extract=NAME:header:Header-Name	the first such header's value
 *  extract=NAME:json:path.to[0].field	a value of the JSON body
 *  extract=NAME:regex:PATTERN		POSIX ERE over the body: its first
 *					group, or the whole match
 *  extract=NAME:cookie:name		a Set-Cookie's value
 *  check=status:200 (or 2xx)		the status
 *  check=body:contains:TEXT		the body holds TEXT
 *  check=json:path=VALUE		a JSON value is VALUE (as text)
 *  check=header:Name:VALUE		a header's value is VALUE
 *
 * A variable holds what the latest reply of its request gave in that
 * session: a reply without it (or with a value holding CR, LF or NUL, or
 * a body over CALL_BODY_MAX bytes) leaves it without a value, and a later
 * request that uses it ({{NAME}}) is never sent (class no-value).  The
 * specs are compiled once at load; the values live in the session's
 * private state (struct svars_vals), freed with it.  The core hands a
 * call with a spec (call->rspec) to svars_reply() before
 * BUS_CALL_RECV_STOP; the template engine asks svars_value() for {{NAME}}.
 */
#ifndef HTTPERF_GEN_SVARS_H
#define HTTPERF_GEN_SVARS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/tmpl.h"

#define SVARS_MAX_CHECKS	64	/* checks of one request, --check's too */

struct call;
struct svars_op;

/* What a request's reply must give (call->rspec). */
struct svars_spec {
	struct svars_op	*ops;		/* extractions, then checks */
	size_t		 nops;
	size_t		 nchecks;
	const char	**names;	/* the checks' names (their text) */
	int		 keep_head;	/* an op reads the header fields */
	int		 keep_body;	/* an op reads the body */
};

/* The run's: the names extract= declared, by id. */
struct svars {
	char		**names;
	size_t		 n;
	struct svars_spec global;	/* --check's */
};

/* A session's values, by id (private state of a session). */
struct svars_vals {
	struct tmpl_buf	*v;
	uint8_t		*set;
	size_t		 n;
};

/*
 * Compiles `n' specs: each text a kind ('x': extract=, 'c': check=)
 * then the spec, NUL-terminated, one after the other (sesslog's
 * request.specs), into `spec', followed by the run's --check ones
 * (sv->global).  extract= declares its NAME.  Returns 0, or -1 with
 * "extract=SPEC: problem" in err.
 */
int	svars_spec_compile(struct svars *sv, struct svars_spec *spec,
	    const char *specs, size_t n, char *err, size_t errlen);

/* --check: the run's checks, each text a check= spec.  As above. */
int	svars_global(struct svars *sv, const char *const *checks, size_t n,
	    char *err, size_t errlen);

void	svars_spec_free(struct svars_spec *spec);
/* Frees what `sv' holds (zeroed after), or that and `sv' itself. */
void	svars_clear(struct svars *sv);
void	svars_free(struct svars *sv);

/* tmpl_resolve_fn: the id of a declared NAME, or -1. */
int	svars_resolve(void *arg, const char *name, size_t len);

/* tmpl_value_fn: the value of {{NAME}} in the call's (subject's)
   session; -1 when it has none. */
int	svars_value(void *arg, void *subject, uint64_t id,
	    struct tmpl_buf *out);

/* core_config.reply_fn: runs a call's extractions and checks (arg: the
   struct svars). */
void	svars_reply(void *arg, struct call *call, uint64_t now);

/* Frees a session's values; NULL is allowed. */
void	svars_vals_free(struct svars_vals *vals);

#endif
