/*
 * What the files of --merge share inside report/: reading one file, and
 * the merge of --sweep results.
 */
#ifndef HTTPERF_REPORT_MERGE_INT_H
#define HTTPERF_REPORT_MERGE_INT_H

#include <stdint.h>
#include <stdio.h>

struct jsonw;
struct jv;
struct merge;
struct options;

/*
 * The options that set a client's load, not its test: their values may
 * differ between the files (merge_head.c says how far), and the merged
 * document lists each file's (merged.files[].load).
 */
extern const char *const merge_load_options[];

/* Reading one file: where messages go, and the first fault only. */
struct mrd {
	struct merge	*m;
	const struct jv	*root;
	const char	*path;
	const char	*prog;
	FILE		*err;
	int		 failed;
	int		 first;		/* the first file */
	uint64_t	 start_ns;	/* its start.epoch_ns, once read */
	uint64_t	 duration_ns;
};

/*
 * Reports a fault of member `field' (a full path; NULL: the document),
 * as "PROG: --merge: PATH: FIELD: what", unless one was reported.
 */
void	merge_fail(struct mrd *r, const char *field, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* The member at `path' (dotted) of the document. */
const struct jv *merge_get(struct mrd *r, const char *path);

/*
 * Checks the head (format, schema version, window, clients, host), the
 * sweep (merge_sweep_head) and the options against the first file's, which start the merge (merge.c:
 * merge_add() sets r->first); fills r->start_ns and r->duration_ns.
 */
void	merge_head(struct mrd *r);

/*
 * --sweep results (merge_sweep.c).  merge_sweep_head: the file's
 * "sweep" against the first file's (both or neither; the same plan of
 * planned steps); the first file's is kept in the merge.
 */
void	merge_sweep_head(struct mrd *r);

/* The merged document's "sweep" member, once merge_sweep_steps ran. */
void	merge_sweep_json(struct jsonw *w, const struct merge *m);

void	merge_sweep_free(struct merge *m);

#endif
