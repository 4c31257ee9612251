/*
 * The --wsesspage N1,N2,X workload: N1 sessions of N2 page views each,
 * X seconds of think time between views.  A view fetches its page (the
 * first: the origin's --uri; later ones: a same-origin <a href> of the
 * page before, chosen by the session's generator from --seed and
 * --client), follows redirects (301, 302, 303, 307, 308 with Location,
 * at most WSESSPAGE_MAX_HOPS on the same origin), and when the reply is
 * HTML (Content-Type text/html) scans its body (lib/htmlscan.h) and
 * fetches each same-origin object it embeds once, as the burst of the
 * view on the session engine (session.h: --max-connections connections,
 * pipelined as --max-piped-calls says).  Objects of other origins and
 * beyond HTMLSCAN_MAX_OBJECTS are counted, not fetched.
 */
#ifndef HTTPERF_GEN_WSESSPAGE_H
#define HTTPERF_GEN_WSESSPAGE_H

#include <stdint.h>

#include "gen/generator.h"
#include "gen/session.h"

#define WSESSPAGE_MAX_HOPS	10	/* redirects followed in a view */
#define WSESSPAGE_MAX_CONNS	6	/* --max-connections default */

/* What the views of a run added up to, for the report. */
struct wsesspage_totals {
	uint64_t	 views;		/* complete page views */
	uint64_t	 objects;	/* fetched, the pages not counted */
	uint64_t	 bytes;		/* of every reply of the views */
	uint64_t	 cross;		/* objects of other origins, skipped */
	uint64_t	 over;		/* beyond HTMLSCAN_MAX_OBJECTS */
	uint64_t	 redirects;	/* followed */
};

/* Its settings (gen_env.cfg). */
struct wsesspage_config {
	struct session_config sess;	/* sess.nsess = N1 */
	uint64_t	 nviews;	/* N2 */
	double		 think;		/* X, seconds */
	int		 https;		/* the origin: --ssl */
	const char	*host;		/* --server */
	unsigned	 port;		/* --port */
	const char	*uri;		/* --uri: the first page */
	uint64_t	 seed;		/* --seed */
	/* Where the views are counted (outlives the generator), or NULL. */
	struct wsesspage_totals *totals;
	/* Each complete view's time (ns), or NULL. */
	void		(*view_fn)(void *arg, uint64_t ns);
	void		*view_arg;
};

extern const struct generator wsesspage_generator;

#endif
