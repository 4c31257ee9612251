/*
 * --check on connection workloads (see checks.h): a URI source's place,
 * filling in each new call's reply spec.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/core.h"
#include "gen/checks.h"
#include "gen/svars.h"
#include "lib/util.h"

static void
checks_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	const struct svars *sv = ctx;
	struct call *call = obj;

	(void)ev;
	(void)arg;
	(void)now;
	if (call->rspec != NULL)
		return;
	call->rspec = &sv->global;
	call->keep_head = sv->global.keep_head;
	call->keep_body = sv->global.keep_body;
}

static int
checks_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct checks_config *cfg = env->cfg;
	struct svars *sv = xcalloc(1, sizeof(*sv));

	if (svars_global(sv, cfg->checks, cfg->n, err, errlen) == -1) {
		svars_free(sv);
		return -1;
	}
	env->core->cfg.reply_fn = svars_reply;
	env->core->cfg.reply_arg = sv;
	bus_subscribe(env->bus, BUS_CALL_NEW, checks_event, sv);
	*state = sv;
	return 0;
}

static void
checks_fini(void *state)
{
	svars_free(state);
}

const struct generator checks_generator = {
	.name = "checks",
	.init = checks_init,
	.fini = checks_fini,
};
