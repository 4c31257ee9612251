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
 * beyond HTMLSCAN_MAX_OBJECTS are counted, not fetched.  Each complete
 * view is signalled (BUS_PAGE_VIEW, core/bus.h) with its figures.
 */
#ifndef HTTPERF_GEN_WSESSPAGE_H
#define HTTPERF_GEN_WSESSPAGE_H

#include <stdint.h>

#include "gen/generator.h"
#include "gen/session.h"

#define WSESSPAGE_MAX_HOPS	10	/* redirects followed in a view */
#define WSESSPAGE_MAX_CONNS	6	/* --max-connections default,
					   HTTP/1.x (HTTP/2: 1) */

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
	int		 http2;		/* --http2: one connection, the
					   objects as concurrent streams */
};

extern const struct generator wsesspage_generator;

#endif
