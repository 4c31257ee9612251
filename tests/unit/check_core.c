/*
 * Unit tests for the core context (src/core/core.c): the pools that
 * connections, calls and sessions come from keep at most as many free
 * objects as there are live ones (and at least CORE_POOL_MIN), so the
 * memory of a peak goes back as the load falls, and a steady load reuses
 * objects instead of allocating.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/core.h"
#include "core/loop.h"
#include "core/sess.h"
#include "lib/util.h"
#include "unit.h"

#define PEAK	10000

struct fix {
	struct loop	*loop;
	struct bus	*bus;
	struct core	 core;
};

static void
fix_init(struct fix *f)
{
	struct core_config cfg;

	memset(f, 0, sizeof(*f));
	memset(&cfg, 0, sizeof(cfg));
	unit_core_init(&f->core, &f->loop, &f->bus, &cfg);
}

static void
fix_fini(struct fix *f)
{
	unit_core_fini(&f->core);
}

/* The bound holds: free objects <= max(live, CORE_POOL_MIN). */
static void
pool_check(const struct core_pool *p, size_t live)
{
	ck_assert_uint_eq(p->nlive, live);
	ck_assert_msg(p->nfree <= (live > CORE_POOL_MIN ? live :
	    CORE_POOL_MIN), "%zu free for %zu live", p->nfree, live);
}

/* PEAK calls at once, then all gone, one by one. */
START_TEST(pool_calls)
{
	struct call **v = xcalloc(PEAK, sizeof(*v));
	struct fix f;
	size_t i;

	fix_init(&f);
	for (i = 0; i < PEAK; i++)
		v[i] = call_new(&f.core, 0);
	pool_check(&f.core.calls, PEAK);
	ck_assert_uint_eq(f.core.calls.nfree, 0);
	for (i = 0; i < PEAK; i++) {
		call_unref(v[i], 0);
		pool_check(&f.core.calls, PEAK - 1 - i);
	}
	ck_assert_uint_eq(f.core.calls.nfree, CORE_POOL_MIN);

	/* A steady load reuses what is kept. */
	for (i = 0; i < PEAK; i++) {
		v[0] = call_new(&f.core, 0);
		ck_assert_uint_eq(f.core.calls.nfree, CORE_POOL_MIN - 1);
		call_unref(v[0], 0);
	}
	ck_assert_uint_eq(f.core.calls.nfree, CORE_POOL_MIN);
	fix_fini(&f);
	free(v);
}
END_TEST

/* PEAK sessions, dropped from the last made. */
START_TEST(pool_sessions)
{
	struct sess **v = xcalloc(PEAK, sizeof(*v));
	struct fix f;
	size_t i;

	fix_init(&f);
	for (i = 0; i < PEAK; i++)
		v[i] = sess_new(&f.core, NULL, 0);
	ck_assert_uint_eq(v[PEAK - 1]->id, PEAK - 1);
	for (i = PEAK; i-- > 0;) {
		sess_unref(v[i], 0);
		pool_check(&f.core.sess, i);
	}
	ck_assert_uint_eq(f.core.sess.nfree, CORE_POOL_MIN);
	fix_fini(&f);
	free(v);
}
END_TEST

/* PEAK connections (never connected), closed: destroyed and given back. */
START_TEST(pool_conns)
{
	struct conn **v = xcalloc(PEAK, sizeof(*v));
	struct fix f;
	size_t i;

	fix_init(&f);
	for (i = 0; i < PEAK; i++)
		v[i] = conn_new(&f.core, 0);
	pool_check(&f.core.conns, PEAK);
	/* Half of them, then half of the rest again and again. */
	for (i = 0; i < PEAK; i += 2) {
		conn_close(v[i], 0);
		pool_check(&f.core.conns, PEAK - 1 - i / 2);
	}
	for (i = 1; i < PEAK; i += 2)
		conn_close(v[i], 0);
	pool_check(&f.core.conns, 0);
	ck_assert_ptr_null(f.core.live);
	ck_assert_uint_eq(f.core.conns.nfree, CORE_POOL_MIN);
	fix_fini(&f);
	free(v);
}
END_TEST

/*
 * --servers: connections and sessions each take the next server
 * round-robin, on counters of their own; a connection's template is its
 * server's; core_target_find() matches an origin.
 */
START_TEST(targets_round_robin)
{
	struct core_target t[3];
	struct http_req_tmpl req[3];
	struct core_config cfg;
	struct conn *c[7];
	struct sess *s[4];
	struct fix f;
	size_t i;

	memset(t, 0, sizeof(t));
	memset(req, 0, sizeof(req));
	for (i = 0; i < 3; i++) {
		t[i].req = &req[i];
		t[i].host = i == 1 ? "B.example" : "a.example";
		t[i].port = 80 + (unsigned)i;
	}
	memset(&f, 0, sizeof(f));
	memset(&cfg, 0, sizeof(cfg));
	cfg.targets = t;
	cfg.ntargets = 3;
	unit_core_init(&f.core, &f.loop, &f.bus, &cfg);
	for (i = 0; i < 7; i++) {
		c[i] = conn_new(&f.core, 0);
		ck_assert_ptr_eq(c[i]->target, &t[i % 3]);
		ck_assert_ptr_eq(conn_req(c[i]), &req[i % 3]);
	}
	for (i = 0; i < 4; i++) {
		s[i] = sess_new(&f.core, NULL, 0);
		ck_assert_ptr_eq(s[i]->target, &t[i % 3]);
	}
	/* A session's connection goes to the session's server. */
	conn_target(c[0], s[1]->target);
	ck_assert_ptr_eq(conn_req(c[0]), &req[1]);
	ck_assert_int_eq(core_target_find(&cfg, 0, "b.EXAMPLE", 81), 1);
	ck_assert_int_eq(core_target_find(&cfg, 0, "a.example", 82), 2);
	ck_assert_int_eq(core_target_find(&cfg, 0, "a.example", 81), -1);
	ck_assert_int_eq(core_target_find(&cfg, 1, "a.example", 80), -1);
	for (i = 0; i < 7; i++)
		conn_close(c[i], 0);
	for (i = 0; i < 4; i++)
		sess_unref(s[i], 0);
	fix_fini(&f);
}
END_TEST

/* Without --servers nothing changes: no target, the run's template. */
START_TEST(targets_none)
{
	struct http_req_tmpl req;
	struct core_config cfg;
	struct conn *c;
	struct sess *s;
	struct fix f;

	memset(&f, 0, sizeof(f));
	memset(&cfg, 0, sizeof(cfg));
	memset(&req, 0, sizeof(req));
	cfg.req = &req;
	unit_core_init(&f.core, &f.loop, &f.bus, &cfg);
	c = conn_new(&f.core, 0);
	s = sess_new(&f.core, NULL, 0);
	ck_assert_ptr_null(c->target);
	ck_assert_ptr_null(s->target);
	ck_assert_ptr_eq(conn_req(c), &req);
	ck_assert_int_eq(core_target_find(&cfg, 0, "localhost", 80), -1);
	conn_close(c, 0);
	sess_unref(s, 0);
	fix_fini(&f);
}
END_TEST

static Suite *
core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("pool");

	tcase_add_test(tc, pool_calls);
	tcase_add_test(tc, pool_sessions);
	tcase_add_test(tc, pool_conns);
	tcase_add_test(tc, targets_round_robin);
	tcase_add_test(tc, targets_none);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(core_suite());
}
