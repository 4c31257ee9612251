/*
 * What every Check runner in tests/unit/ shares (tests/unit/unit.c, the
 * convenience library tests/unit/libunit.la linked into each): running
 * the suite, memory that ends at an inaccessible page, and a core built
 * as main() builds one.
 */
#ifndef HTTPERF_TESTS_UNIT_H
#define HTTPERF_TESTS_UNIT_H

#include <stddef.h>

#include <check.h>

struct bus;
struct core;
struct core_config;
struct http_req_tmpl;
struct loop;

/*
 * Runs every test of `s' (and frees it); returns main()'s exit status:
 * EXIT_SUCCESS when none failed.  Check's own environment applies
 * (CK_FORK, CK_RUN_SUITE, CK_RUN_CASE, CK_DEFAULT_TIMEOUT,
 * CK_TIMEOUT_MULTIPLIER, CK_XML_LOG_FILE_NAME...).
 */
int	unit_run(Suite *s);

/*
 * Memory followed by a PROT_NONE page: input placed right before it
 * makes a read past its end fault instead of passing unnoticed.
 */
struct unit_guard {
	char	*map;		/* `size' bytes, then the guard page */
	size_t	 size;		/* whole pages, at least one */
};

/* Maps at least `cap' bytes; returns their end, where the guard begins. */
char	*unit_guard_map(struct unit_guard *g, size_t cap);

/* Maps a copy of `len' bytes of `data' ending at the guard; returns it. */
char	*unit_guard_copy(struct unit_guard *g, const void *data, size_t len);

void	 unit_guard_unmap(struct unit_guard *g);

/*
 * A core as main() builds one, for the runners that drive connections,
 * calls and sessions by hand: a loop (the poll backend) in *loop, a bus
 * in *bus (also core->loop and core->bus) and the core over them with
 * `cfg'.  unit_core_fini frees the three.
 */
void	unit_core_init(struct core *core, struct loop **loop,
	    struct bus **bus, const struct core_config *cfg);
void	unit_core_fini(struct core *core);

/*
 * The runners' request template: "GET / HTTP/1.1", Host localhost,
 * User-Agent httperf/test, and `body' (NULL: none) on every request.
 */
void	unit_req_tmpl(struct http_req_tmpl *t, const char *body);

#endif
