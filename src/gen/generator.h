/*
 * The generator interface.  A generator makes the load: a workload
 * (conn_gen, wsess, wsesslog) creates connections or sessions on the
 * arrival schedule and issues their calls; a URI source (uri_wlog,
 * uri_wset) gives each call its URI as it is created (BUS_CALL_NEW).
 * Both kinds have the same shape; a run has one workload and at most one
 * URI source.  A generator talks to the rest of the program only through
 * the core and the bus: it never prints statistics, and never includes
 * stat/.
 *
 * Each module exports one `const struct generator' (conn_gen_generator,
 * ...) and declares its settings (struct conn_gen_config, ...) in its
 * header; modules.c lists the instances in its table and fills the
 * settings from the options; run.c walks the table: init in table
 * order (which is the order the handlers run on the bus), start, and at
 * the end stop and fini.  A module keeps all its state behind the pointer its init
 * allocates: no globals.
 */
#ifndef HTTPERF_GEN_GENERATOR_H
#define HTTPERF_GEN_GENERATOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bus;
struct core;

/*
 * Called by a workload once it is complete (every connection or session
 * it made is done: the run ends), or by a URI source that ran out (the
 * run drains its workload).
 */
typedef void gen_done_cb(void *arg, uint64_t now);

/* What a generator's init gets. */
struct gen_env {
	struct core	*core;		/* makes connections, calls, sessions */
	struct bus	*bus;		/* core->bus: the events */
	const void	*cfg;		/* the module's settings (its header's
					   struct), read during init only;
					   NULL for a module without any */
	FILE		*out;		/* where -v lines go */
	int		 verbose;	/* -v level */
	const char	*prog;		/* prefix of -v lines */
	gen_done_cb	*done;		/* see above */
	void		*done_arg;
};

struct generator {
	const char	*name;
	/*
	 * Allocates the state into *state and subscribes it to the bus.
	 * Returns 0, or -1 with a message in err (no program or option
	 * name: run.c adds them) and nothing left to free.
	 */
	int	(*init)(void **state, const struct gen_env *env, char *err,
		    size_t errlen);
	/* The run starts: the first arrival happens now.  NULL: nothing
	   to start (a URI source works on calls others create). */
	void	(*start)(void *state, uint64_t now);
	/* Create nothing more, let what is under way finish, then call
	   done (at once if nothing is under way).  NULL: not a workload. */
	void	(*drain)(void *state, uint64_t now);
	/* The run ends at `end' (the --runtime deadline, told at the
	   start; a signal, told after the loop): make no arrival meant
	   for after it, and at stop count those due by then and never
	   made (BUS_ARRIVAL_MISSED).  The earliest end told counts.
	   NULL: nothing to do. */
	void	(*end)(void *state, uint64_t end);
	/* --sweep: the paced schedule's mean rate becomes `rate' (> 0)
	   per second, its kind kept, restarting from `now' (rate.h's
	   rate_gen_retarget).  A sequential schedule stays as it is.
	   NULL: no rate to change (a URI source). */
	void	(*set_rate)(void *state, double rate, uint64_t now);
	/* The run is over: no more arrivals, no timers, events ignored.
	   Called more than once is harmless.  NULL: nothing to stop. */
	void	(*stop)(void *state);
	/* Frees the state, after stop and after the core closed the
	   connections still open (quietly), before the core goes. */
	void	(*fini)(void *state);
};

#endif
