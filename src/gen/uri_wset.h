/*
 * The --wset URI source: a walk over a working set of N files that misses
 * (moves on to the next file) at a target rate X, exactly as httperf 0.9.0
 * walks it.
 */
#ifndef HTTPERF_GEN_URI_WSET_H
#define HTTPERF_GEN_URI_WSET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gen/generator.h"

struct core;

struct uri_wset {
	struct core	*core;
	uint64_t	 nfiles;	/* N */
	double		 miss_rate;	/* X */
	uint64_t	 stride;	/* --client's N */
	uint64_t	 file_num;	/* the current file */
	double		 miss_prob;
	char		*prefix;	/* --uri less one trailing '/' */
	size_t		 prefix_len;
	unsigned	 ndigits;	/* directory levels */
	int		 verbose;
	FILE		*out;
	const char	*prog;
};

/*
 * Prepares the walk of `nfiles' files (at least 1) with miss rate
 * `miss_rate' for client `client_id' of `num_clients' (--client I/N, at
 * least 1) and subscribes to BUS_CALL_NEW.  Each call gets the URI `prefix'
 * (one trailing '/' removed) + "/d" per decimal digit of the file number,
 * as many digits as nfiles - 1 has, + ".html"; the URI is allocated as
 * call->owned (freed with the call), so no other BUS_CALL_NEW handler may
 * use call->owned.  With `verbose' >= 1 "PROG: accessing URI `U'" goes to
 * `out' per call; `prog' and `out' must outlive the module.
 */
void	uri_wset_init(struct uri_wset *w, struct core *core, uint64_t nfiles,
	    double miss_rate, unsigned client_id, unsigned num_clients,
	    const char *prefix, int verbose, FILE *out, const char *prog);

/* Frees the module's memory.  Harmless twice. */
void	uri_wset_fini(struct uri_wset *w);

/*
 * Formats the URI of file `file_num' into buf (at least
 * uri_wset_uri_len(w) + 1 bytes, NUL-terminated).  Returns the length.
 */
size_t	uri_wset_format(const struct uri_wset *w, uint64_t file_num,
	    char *buf);

/* Returns the length of every URI of the walk. */
size_t	uri_wset_uri_len(const struct uri_wset *w);

/* Its settings as a generator (gen_env.cfg). */
struct uri_wset_config {
	uint64_t	 nfiles;	/* N */
	double		 miss_rate;	/* X */
	unsigned	 client_id;	/* --client I/N */
	unsigned	 num_clients;
	const char	*prefix;	/* --uri */
};

/*
 * The URI source as a generator (gen/generator.h): uri_wset_init() with
 * the env's stream, -v level and program name.
 */
extern const struct generator uri_wset_generator;

#endif
