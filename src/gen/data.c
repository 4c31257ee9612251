/*
 * The --data row source (see data.h).
 *
 * The rows a client goes over are [lo, hi): the whole file with
 * --data-wrap y (starting at its share's first row, as --wlog y does), its
 * share without.  --data-order random goes over them in a new random
 * order on each pass (Fisher-Yates, from a stream seeded by --seed and the
 * client id, so a run is reproducible), each row once per pass.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/core.h"
#include "core/sess.h"
#include "gen/data.h"
#include "gen/uri_wlog.h"
#include "lib/util.h"

/* Keeps the rows' stream apart from the templates' ({{rand}}). */
#define DATA_SEED_SALT	UINT64_C(0x6461746121726f77)

struct data {
	const struct datafile *file;
	size_t		 lo;
	size_t		 hi;
	size_t		 next;		/* in [lo, hi]: the next one */
	int		 random;
	int		 wrap;
	int		 finished;	/* --data-wrap n: all handed out */
	uint32_t	*perm;		/* random: the pass's order of
					   [lo, hi), as offsets */
	struct tmpl_rng	 rng;
	gen_done_cb	*done;
	void		*done_arg;
};

/* A new random order for the pass. */
static void
data_shuffle(struct data *d)
{
	size_t i, j, n = d->hi - d->lo;
	uint32_t t;

	for (i = n; i > 1; i--) {
		j = (size_t)tmpl_rng_below(&d->rng, i);
		t = d->perm[i - 1];
		d->perm[i - 1] = d->perm[j];
		d->perm[j] = t;
	}
}

/*
 * The next row, or SIZE_MAX when --data-wrap n has handed out all (the
 * workload drains as the last goes).
 */
static size_t
data_take(struct data *d, uint64_t now)
{
	size_t row;

	if (d->finished)
		return SIZE_MAX;
	if (d->next == d->hi) {
		d->next = d->lo;
		if (d->random)
			data_shuffle(d);
	}
	row = d->random ? d->lo + d->perm[d->next - d->lo] : d->next;
	d->next++;
	if (!d->wrap && d->next == d->hi) {
		d->finished = 1;
		d->done(d->done_arg, now);
	}
	return row;
}

/* BUS_SESS_NEW or BUS_CONN_NEW: the unit takes its row. */
static void
data_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct data *d = ctx;

	(void)arg;
	if (ev == BUS_SESS_NEW)
		((struct sess *)obj)->data_row = data_take(d, now);
	else
		((struct conn *)obj)->data_row = data_take(d, now);
}

int
data_resolve(void *arg, const char *name, size_t len)
{
	long c;

	if (arg == NULL || len < 5 || memcmp(name, "data.", 5) != 0)
		return -1;
	c = datafile_col(arg, name + 5, len - 5);
	return c < 0 || c > INT32_MAX ? -1 : (int)c;
}

int
data_value(void *arg, void *subject, uint64_t id, struct tmpl_buf *out)
{
	const struct datafile *f = arg;
	const struct call *call = subject;
	const char *v;
	size_t row, len;

	if (call->sess != NULL)
		row = call->sess->data_row;
	else if (call->conn != NULL)
		row = call->conn->data_row;
	else
		return -1;
	if (row >= f->nrows || id >= f->ncols)
		return -1;
	v = datafile_value(f, row, (size_t)id, &len);
	tmpl_buf_add(out, v, len);
	return 0;
}

/* The generator interface (gen/generator.h). */

static int
data_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct data_config *cfg = env->cfg;
	size_t n = cfg->file->nrows, i;
	unsigned id = cfg->client_id, nc = cfg->num_clients;
	struct data *d;

	d = xcalloc(1, sizeof(*d));
	d->file = cfg->file;
	d->random = cfg->random;
	d->wrap = cfg->wrap;
	d->done = env->done;
	d->done_arg = env->done_arg;
	d->hi = n;
	if (nc > 1 && id < nc) {
		d->next = uri_wlog_share(n, id, nc);
		if (!d->wrap) {
			d->lo = d->next;
			d->hi = uri_wlog_share(n, id + 1, nc);
		}
	}
	if (d->lo == d->hi) {
		snprintf(err, errlen, "%s: client %u of %u has no row of the "
		    "%zu (--data-wrap n shares them)", cfg->path, id, nc, n);
		free(d);
		return -1;
	}
	if (d->random) {
		tmpl_rng_seed(&d->rng, cfg->seed ^ DATA_SEED_SALT, id);
		d->perm = xcalloc(d->hi - d->lo, sizeof(*d->perm));
		for (i = 0; i < d->hi - d->lo; i++)
			d->perm[i] = (uint32_t)i;
		/* The first pass is a shuffle too. */
		d->next = d->hi;
	}
	bus_subscribe(env->bus, cfg->sessions ? BUS_SESS_NEW : BUS_CONN_NEW,
	    data_event, d);
	*state = d;
	return 0;
}

static void
data_fini(void *state)
{
	struct data *d = state;

	free(d->perm);
	free(d);
}

const struct generator data_generator = {
	.name = "data",
	.init = data_init,
	.fini = data_fini,
};
