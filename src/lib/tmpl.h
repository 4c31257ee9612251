/*
 * Templates: text with {{...}} placeholders (--template), compiled once at
 * start into pieces (literal bytes, variables with their arguments
 * parsed), then expanded per call by appending to a growable buffer
 * without parsing anything again.  "{{{{" is a literal "{{".
 *
 * Variables: seq, conn, session, client (numbers the caller gives),
 * rand A B (uniform integer in [A, B]), randstr N (N characters of
 * [a-z0-9]), uuid (version 4), time and time_ms (the epoch in seconds and
 * milliseconds).  Any other name (data.COL, a session variable) is looked
 * up by a resolver the caller may give at compile time, and its value is
 * asked of a callback at expansion.  Random values come from a generator
 * of the caller's (struct tmpl_rng), seeded from a seed and a client id.
 */
#ifndef HTTPERF_LIB_TMPL_H
#define HTTPERF_LIB_TMPL_H

#include <stddef.h>
#include <stdint.h>

#define TMPL_RANDSTR_MAX	((uint64_t)1 << 20)	/* 1 MiB */

/* A growable buffer; zero it first, free p when done. */
struct tmpl_buf {
	char		*p;
	size_t		 len;
	size_t		 cap;
};

/* Appends n bytes (keeping a NUL after them). */
void	tmpl_buf_add(struct tmpl_buf *b, const void *p, size_t n);

/* xoshiro256**, seeded through splitmix64. */
struct tmpl_rng {
	uint64_t	 s[4];
};

/* Seeds a stream of its own for each (seed, client) pair. */
void	tmpl_rng_seed(struct tmpl_rng *r, uint64_t seed, unsigned client);
uint64_t tmpl_rng_next(struct tmpl_rng *r);
/* A uniform integer in [0, n), n > 0, without modulo bias. */
uint64_t tmpl_rng_below(struct tmpl_rng *r, uint64_t n);

enum tmpl_kind {
	TMPL_LIT,	/* bytes [off, off + len) of the text */
	TMPL_SEQ,
	TMPL_CONN,
	TMPL_SESSION,
	TMPL_CLIENT,
	TMPL_RAND,	/* a, b: the bounds (int64_t) */
	TMPL_RANDSTR,	/* a: the length */
	TMPL_UUID,
	TMPL_TIME,
	TMPL_TIME_MS,
	TMPL_HOOK	/* a: the resolver's id */
};

struct tmpl_piece {
	enum tmpl_kind	 kind;
	size_t		 off;
	size_t		 len;
	uint64_t	 a;
	uint64_t	 b;
};

struct tmpl {
	char		*text;		/* the literal bytes, unescaped */
	size_t		 text_len;
	struct tmpl_piece *pieces;
	size_t		 n;
	int		 vars;		/* it has a placeholder */
};

/*
 * Resolves a name that is no built-in variable ("data.email", "token"):
 * returns an id (>= 0) that the value callback gets back, or -1 when the
 * name is unknown.
 */
typedef int	(*tmpl_resolve_fn)(void *arg, const char *name, size_t len);

/*
 * Appends the value of id `id' to `out' for `subject' (the caller's: the
 * call being expanded); returns 0, or -1 when it has no value now
 * (tmpl_expand() then fails).
 */
typedef int	(*tmpl_value_fn)(void *arg, void *subject, uint64_t id,
		    struct tmpl_buf *out);

/* What an expansion draws from. */
struct tmpl_ctx {
	uint64_t	 seq;
	uint64_t	 conn;
	uint64_t	 session;
	uint64_t	 client;
	uint64_t	 epoch_ns;	/* now, in ns since the epoch */
	struct tmpl_rng	*rng;
	tmpl_value_fn	 value;		/* for TMPL_HOOK pieces */
	void		*value_arg;
	void		*subject;	/* passed on to value */
};

/*
 * Compiles `len' bytes of `s'.  `resolve' (may be NULL) names the
 * variables beyond the built-in ones.  Returns 0 with *t filled (free it
 * with tmpl_free()), or -1 with the problem in err and its 1-based
 * column (byte offset) in *col.
 */
int	tmpl_compile(struct tmpl *t, const char *s, size_t len,
	    tmpl_resolve_fn resolve, void *arg, char *err, size_t errlen,
	    size_t *col);

/* Appends the expansion to `out'.  Returns 0, or -1 (a hook's value). */
int	tmpl_expand(const struct tmpl *t, const struct tmpl_ctx *ctx,
	    struct tmpl_buf *out);

/* Frees what tmpl_compile() allocated.  Harmless twice. */
void	tmpl_free(struct tmpl *t);

#endif
