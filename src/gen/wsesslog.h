/*
 * The --wsesslog N,X,F workload: N sessions whose requests, bursts and
 * think times come from the session file F (parsed by sesslog.h), its
 * sessions taken round-robin.  The sessions run on the session engine
 * (session.h).
 */
#ifndef HTTPERF_GEN_WSESSLOG_H
#define HTTPERF_GEN_WSESSLOG_H

#include "gen/generator.h"
#include "gen/session.h"

struct datafile;

/* Its settings (gen_env.cfg). */
struct wsesslog_config {
	struct session_config sess;	/* sess.nsess = N */
	double		 think;		/* X: default think (s) */
	const char	*path;		/* F */
	int		 template;	/* --template: URIs and bodies are
					   templates (lib/tmpl.h) */
	/* --data's file, whose columns {{data.COL}} names; NULL: none. */
	struct datafile	*data;
	const char *const *checks;	/* --check (gen/svars.h) */
	size_t		 nchecks;
};

/*
 * The generator.  Its init loads the session file; a failure's message
 * names the file (and line), and may quote it (escaped, see sesslog.h).
 * done is called once every session has completed or failed.
 */
extern const struct generator wsesslog_generator;

#endif
