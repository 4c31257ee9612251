/*
 * The --wlog URI source: the URIs of a log file, one per call, in order.
 * Entries are separated by NUL bytes (0.9.0's format) or, in a file
 * without any NUL byte, by newlines (LF or CR LF).
 */
#ifndef HTTPERF_GEN_URI_WLOG_H
#define HTTPERF_GEN_URI_WLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gen/generator.h"

struct core;

/* Called once, when --wlog n runs out of URIs: the run should stop. */
typedef void uri_wlog_done_cb(void *arg, uint64_t now);

/* One URI: points into the loaded file, NUL-terminated there. */
struct uri_wlog_entry {
	const char	*uri;
	size_t		 len;
};

struct uri_wlog {
	struct core	*core;
	char		*data;		/* the file, separators made NULs */
	size_t		 size;
	struct uri_wlog_entry *uris;
	size_t		 nuris;
	size_t		 next;		/* index of the next URI to give */
	size_t		 end;		/* n: one past this client's last */
	int		 wrap;		/* y: start again after the last */
	int		 finished;	/* n: the list ran out */
	int		 verbose;
	FILE		*out;
	const char	*prog;
	uri_wlog_done_cb *done;
	void		*done_arg;
};

/*
 * Loads `path' and subscribes to BUS_CALL_NEW, where every call gets the
 * next URI (call->uri points into the module's copy of the file, which
 * lives until uri_wlog_fini()).  After the last URI: with `wrap' the list
 * starts again; without it the call that would need one more gets
 * call->abandon set, and `done' is called once (at that first such call).
 * With `verbose' >= 1 "PROG: accessing URI `U'" goes to `out' per call.
 * `prog' and `out' must outlive the module.  Returns 0, or -1 with a
 * message (the file name first, no program name) in errbuf: unreadable,
 * empty or URI-less file, or an entry holding a space or a control
 * character ("F:N: invalid URI ('U')", N counting entries from 1, empty
 * ones included, so in a newline-separated file N is the line number; U
 * is the entry's start, every byte but printable ASCII escaped).
 */
int	uri_wlog_init(struct uri_wlog *w, struct core *core, const char *path,
	    int wrap, int verbose, FILE *out, const char *prog,
	    uri_wlog_done_cb *done, void *done_arg, char *errbuf,
	    size_t errlen);

/*
 * Makes the module client `id' of `n' (--client I/N): with `wrap' it
 * starts at entry floor(I * nuris / N) and goes round the whole list, so
 * N clients do not send the same URI at the same time; without it, it
 * gives only entries floor(I * nuris / N) to floor((I + 1) * nuris / N)
 * - 1, so N clients together replay the list once.  n <= 1: the whole
 * list from its start, as before.
 */
void	uri_wlog_client(struct uri_wlog *w, unsigned id, unsigned n);

/* The first entry of client `id' of `n' among `count': floor(count * id /
   n), exactly (--data shares its rows by the same rule). */
size_t	uri_wlog_share(size_t count, unsigned id, unsigned n);

/*
 * Frees the loaded file.  The handler stays subscribed: call it at exit,
 * after the last call was created.  Harmless twice.
 */
void	uri_wlog_fini(struct uri_wlog *w);

/* Its settings as a generator (gen_env.cfg). */
struct uri_wlog_config {
	const char	*path;		/* F */
	int		 wrap;		/* y */
	unsigned	 client_id;	/* --client I/N */
	unsigned	 num_clients;
};

/*
 * The URI source as a generator (gen/generator.h): uri_wlog_init() with
 * the env's stream, -v level, program name and done callback.
 */
extern const struct generator uri_wlog_generator;

#endif
