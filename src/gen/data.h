/*
 * --data FILE: the rows of a data file (lib/datafile.h) handed out, one
 * to each session as it is created (--wsess, --wsesslog), or to each
 * connection for the other workloads, in the file's order or a seeded
 * random one (--data-order), over and over or once (--data-wrap); with
 * --client I/N each client takes its share of the rows as --wlog does.
 * The row is kept in the session's (the connection's) data_row.
 *
 * {{data.COL}} in a template: data_resolve() gives the column's index as
 * the id, data_value() appends the value of the call's row to the
 * call's buffer (tmpl_value_fn, the subject is the struct call).
 */
#ifndef HTTPERF_GEN_DATA_H
#define HTTPERF_GEN_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "gen/generator.h"
#include "lib/datafile.h"
#include "lib/tmpl.h"

/* Its settings as a generator (gen_env.cfg). */
struct data_config {
	const struct datafile *file;	/* loaded, outlives the run */
	const char	*path;		/* for messages */
	int		 random;	/* --data-order random */
	int		 wrap;		/* --data-wrap y */
	int		 sessions;	/* rows go to sessions, not
					   connections */
	uint64_t	 seed;		/* --seed */
	unsigned	 client_id;	/* --client I/N */
	unsigned	 num_clients;
};

/*
 * A source of rows (not a workload): with --data-wrap n it calls done
 * (the run drains its workload) as it hands out its last row.
 */
extern const struct generator data_generator;

/*
 * tmpl_resolve_fn for "data.COL": `arg' is the struct datafile (NULL: no
 * --data, every name is unknown).  Returns COL's index, or -1.
 */
int	data_resolve(void *arg, const char *name, size_t len);

/*
 * tmpl_value_fn: appends column `id' of the row of call `subject' (its
 * session's, else its connection's).  `arg' is the struct datafile.
 */
int	data_value(void *arg, void *subject, uint64_t id,
	    struct tmpl_buf *out);

#endif
