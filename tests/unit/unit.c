/*
 * The Check runners' shared helpers (unit.h): the runner, guard pages and
 * the core fixture.
 */
#include "config.h"

#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/core.h"
#include "core/loop.h"
#include "net/http_req.h"
#include "unit.h"

int
unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

char *
unit_guard_map(struct unit_guard *g, size_t cap)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	g->size = (cap + page - 1) / page * page;
	if (g->size == 0)
		g->size = page;
	g->map = mmap(NULL, g->size + page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(g->map != MAP_FAILED);
	ck_assert_int_eq(mprotect(g->map + g->size, page, PROT_NONE), 0);
	return g->map + g->size;
}

char *
unit_guard_copy(struct unit_guard *g, const void *data, size_t len)
{
	char *end = unit_guard_map(g, len);

	memcpy(end - len, data, len);
	return end - len;
}

void
unit_guard_unmap(struct unit_guard *g)
{
	munmap(g->map, g->size + (size_t)sysconf(_SC_PAGESIZE));
	g->map = NULL;
}

void
unit_core_init(struct core *core, struct loop **loop, struct bus **bus,
    const struct core_config *cfg)
{
	char err[256];

	*loop = loop_new(LOOP_BACKEND_POLL, err, sizeof(err));
	ck_assert_msg(*loop != NULL, "loop_new: %s", err);
	*bus = bus_new();
	core_init(core, *loop, *bus, cfg);
}

void
unit_core_fini(struct core *core)
{
	struct loop *loop = core->loop;
	struct bus *bus = core->bus;

	core_fini(core);
	bus_free(bus);
	loop_free(loop);
}

void
unit_req_tmpl(struct http_req_tmpl *t, const char *body)
{
	struct http_req_spec spec;

	memset(&spec, 0, sizeof(spec));
	spec.uri = "/";
	spec.minor = 1;
	spec.host = "localhost";
	spec.user_agent = "httperf/test";
	spec.body = body;
	spec.body_len = body != NULL ? strlen(body) : 0;
	http_req_tmpl_init(t, &spec);
}
