/*
 * The core context (see core.h): its life cycle, debug lines and pools.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/call.h"
#include "core/conn.h"
#include "core/core.h"
#include "core/sess.h"
#include "lib/util.h"
#include "net/transport.h"

#define CORE_RBUF_SIZE	(64 * 1024)

static void
core_pool_init(struct core_pool *p, size_t size)
{
	memset(p, 0, sizeof(*p));
	p->size = size;
}

void *
core_pool_get(struct core_pool *p)
{
	void *obj;

	p->nlive++;
	if ((obj = p->free) == NULL)
		return xmalloc(p->size);
	memcpy(&p->free, obj, sizeof(p->free));
	p->nfree--;
	return obj;
}

/*
 * Keeps nfree <= max(nlive, CORE_POOL_MIN): every put that would break it
 * frees the object and, while live objects keep going, one more from the
 * list, so the list shrinks with the load at O(1) a put.
 */
void
core_pool_put(struct core_pool *p, void *obj)
{
	void *next;

	p->nlive--;
	if (p->nfree >= CORE_POOL_MIN && p->nfree >= p->nlive) {
		free(obj);
		if (p->nfree > p->nlive) {
			obj = p->free;
			memcpy(&next, obj, sizeof(next));
			p->free = next;
			p->nfree--;
			free(obj);
		}
		return;
	}
	memcpy(obj, &p->free, sizeof(p->free));
	p->free = obj;
	p->nfree++;
}

/* Frees every free object of the pool. */
static void
core_pool_fini(struct core_pool *p)
{
	void *obj, *next;

	for (obj = p->free; obj != NULL; obj = next) {
		memcpy(&next, obj, sizeof(next));
		free(obj);
	}
	p->free = NULL;
	p->nfree = 0;
}

void
core_init(struct core *core, struct loop *loop, struct bus *bus,
    const struct core_config *cfg)
{
	memset(core, 0, sizeof(*core));
	core->loop = loop;
	core->bus = bus;
	core->cfg = *cfg;
	core->tmpl_head = cfg->req != NULL && cfg->req->method_len == 4 &&
	    memcmp(cfg->req->method, "HEAD", 4) == 0;
	if (cfg->tls != NULL) {
		core->xops = &transport_tls;
		core->xctx = cfg->tls;
	} else
		core->xops = &transport_plain;
	core->rbuf_size = CORE_RBUF_SIZE;
	core->rbuf = xmalloc(core->rbuf_size);
	core_pool_init(&core->conns, sizeof(struct conn));
	core_pool_init(&core->calls, sizeof(struct call));
	core_pool_init(&core->sess, sizeof(struct sess));
	core->hog = xcalloc(cfg->nsrc > 0 ? cfg->nsrc : 1, sizeof(*core->hog));
	if (cfg->ntargets > 0)
		core->target_slots = xcalloc(cfg->ntargets,
		    sizeof(*core->target_slots));
}

long
core_target_find(const struct core_config *cfg, int https, const char *host,
    unsigned port)
{
	const struct core_target *t;
	size_t i;

	for (i = 0; i < cfg->ntargets; i++) {
		t = &cfg->targets[i];
		if (t->port == port && (t->tls != NULL) == (https != 0) &&
		    strcasecmp(t->host, host) == 0)
			return (long)i;
	}
	return -1;
}

void
core_fini(struct core *core)
{
	size_t i;

	core_pool_fini(&core->conns);
	core_pool_fini(&core->calls);
	core_pool_fini(&core->sess);
	free(core->rbuf);
	core->rbuf = NULL;
	free(core->hog);
	core->hog = NULL;
	tls_slot_clear(&core->tls_slot);
	for (i = 0; core->target_slots != NULL && i < core->cfg.ntargets; i++)
		tls_slot_clear(&core->target_slots[i]);
	free(core->target_slots);
	core->target_slots = NULL;
}

void
core_close_all(struct core *core, uint64_t now)
{
	struct conn *c, *next;

	for (c = core->live; c != NULL; c = next) {
		next = c->live_next;
		conn_close(c, now);
	}
}

void
core_debug(const struct core *core, int level, const char *fmt, ...)
{
	va_list ap;

	if (core->cfg.debug < level)
		return;
	fprintf(stderr, "%s: ", core->cfg.prog ? core->cfg.prog : "httperf");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
