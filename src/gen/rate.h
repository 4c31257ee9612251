/*
 * Arrival schedules (--rate, --period) and the generator that paces
 * connection or session creation on an absolute schedule.
 *
 * Interarrival times come from erand48() seeded from --client's id exactly
 * as httperf 0.9.0 seeds it, so the same options give the same sequence.
 */
#ifndef HTTPERF_GEN_RATE_H
#define HTTPERF_GEN_RATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/timer.h"

struct loop;

enum rate_dist {
	RATE_DETERMINISTIC,	/* d: every interval is mean_iat */
	RATE_UNIFORM,		/* u: uniform on [min_iat, max_iat) */
	RATE_EXPONENTIAL,	/* e: exponential with mean mean_iat */
	RATE_VARIABLE,		/* v: piecewise deterministic rates */
};

#define RATE_MAX_VAR	1024	/* pairs accepted by --period v */

/* An arrival specification; mean_iat == 0 means "one after another". */
struct rate_spec {
	enum rate_dist	dist;
	double		mean_iat;	/* seconds; v: the cycle's, each
					   rate weighted by its duration */
	double		min_iat;	/* u only */
	double		max_iat;	/* u only */
	size_t		nvar;		/* v only: number of pairs */
	double		var_iat[RATE_MAX_VAR];
	double		var_dur[RATE_MAX_VAR];
};

/* Sets `s' to a deterministic rate of `rate' per second (<= 0: sequential). */
void	rate_spec_set_rate(struct rate_spec *s, double rate);

/*
 * Parses a --period argument ("[d|u|e|v]T1[,T2...]", letter optional and
 * case-insensitive, ".5" accepted).  Returns 0, or -1 with a message in
 * errbuf (without the option name).
 */
int	rate_spec_parse_period(struct rate_spec *s, const char *arg,
	    char *errbuf, size_t errlen);

/* Returns 1/mean_iat, or 0 when sequential. */
double	rate_spec_rate(const struct rate_spec *s);

/*
 * Changes `s' to a mean rate of `rate' per second and keeps its kind
 * (--sweep): every interval of u and v (and v's intervals, not its
 * durations) is scaled by the same factor, so the shape stays and the
 * mean becomes 1/rate.  A sequential spec, or rate <= 0, is set as
 * rate_spec_set_rate() does.
 */
void	rate_spec_scale(struct rate_spec *s, double rate);

/* Random and variable-rate state of one schedule. */
struct rate_state {
	unsigned short	xsubi[3];
	size_t		var_cur;
	double		var_elapsed;
};

/* Seeds the state for --client id `client_id' as 0.9.0 does. */
void	rate_state_init(struct rate_state *st, unsigned client_id);

/* Returns the next interarrival time in seconds. */
double	rate_next_iat(struct rate_state *st, const struct rate_spec *s);

/*
 * Called for each arrival.  Returns 0 to go on, or -1 when the workload
 * wants no more arrivals (the generator then stops).
 */
typedef int rate_tick_cb(void *arg, uint64_t now);

/* A running arrival generator. */
struct rate_gen {
	const struct rate_spec *spec;
	struct rate_state state;
	struct loop	*loop;
	rate_tick_cb	*tick;
	void		*arg;
	uint64_t	 next;		/* absolute time of the next arrival */
	uint64_t	 due;		/* the arrival being ticked was meant
					   for then (its place on the
					   schedule; the start for the first) */
	uint64_t	 budget;	/* most ticks a timer firing makes;
					   0: no limit (rate_gen_limit) */
	int		 running;
	struct timer	 timer;
};

/*
 * The first arrival's delay for client `client_id' of `num_clients'
 * (--client I/N), in ns: I/(N*rate) seconds with a fixed interval (--rate,
 * --period d), so that N clients started together make one even stream
 * rather than N arrivals at once every interval.  0 for every other
 * schedule: uniform and exponential intervals are drawn from a seed of
 * each client's own, so their arrivals do not coincide, and a variable
 * schedule's rates change at times an offset would blur.
 */
uint64_t rate_spec_offset(const struct rate_spec *s, unsigned client_id,
	    unsigned num_clients);

/*
 * Starts generating: the first arrival happens now (tick is called before
 * this returns), or, when rate_spec_offset() shifts this client, from the
 * timer at now plus the offset; later ones on the absolute schedule next
 * += iat, so late timer firings catch up and never drift.  With a
 * sequential spec only the first tick happens here; the workload calls
 * rate_gen_next() each time an arrival finishes.
 */
void	rate_gen_start(struct rate_gen *g, struct loop *l,
	    const struct rate_spec *spec, unsigned client_id,
	    unsigned num_clients, rate_tick_cb *tick, void *arg,
	    uint64_t now);

/*
 * The most arrivals one loop turn takes in, for the generators that bound
 * it (rate_gen_limit): however far behind the schedule is (a rate the
 * client cannot make, connections that fail at creation for want of file
 * descriptors), the loop turns every few ms, so --runtime and the signals
 * end the run on time; the arrivals still due at the end are counted as
 * never sent all at once.
 */
#define RATE_TURN_MAX	1024

/*
 * Bounds the work of one loop turn: a timer firing makes at most `n'
 * ticks (0: no limit, the default), and when more are due it fires again
 * in the next turn, at once, so that the loop looks at its fds, its other
 * timers (--runtime) and the signals in between however far behind the
 * schedule is.  The arrivals still due when the run ends are then
 * counted by rate_gen_due().  Call it after rate_gen_start().
 */
void	rate_gen_limit(struct rate_gen *g, uint64_t n);

/* Sequential mode: runs the next tick now (no-op if stopped or paced). */
void	rate_gen_next(struct rate_gen *g, uint64_t now);

/*
 * The run ends at `end' with the schedule still running: returns how many
 * arrivals were due by then (next <= end) and never ticked, at most
 * `max', and moves the schedule past them.  Bounded work: after
 * RATE_DUE_DRAWS drawn intervals the rest are counted at the mean rate.
 * 0 when stopped or sequential.
 */
#define RATE_DUE_DRAWS	(UINT64_C(1) << 20)
uint64_t rate_gen_due(struct rate_gen *g, uint64_t end, uint64_t max);

/*
 * The spec the generator paces on was changed (rate_spec_scale): the
 * schedule restarts from `now', the next arrival one new interval later
 * (none is made at `now' itself, so no step sees a double arrival).  The
 * random state goes on.  No-op when stopped or sequential.
 */
void	rate_gen_retarget(struct rate_gen *g, uint64_t now);

/*
 * A generator's set_rate (gen/generator.h): copies the spec it paces on
 * into `own' (once), scales it to `rate' and retargets from `now'.
 * Returns the spec now paced on, for the workload to keep.  Nothing
 * changes before the start, when sequential, or with rate <= 0.
 */
const struct rate_spec *rate_gen_rescale(struct rate_gen *g,
	    struct rate_spec *own, double rate, uint64_t now);

/* Stops the generator; no further ticks. */
void	rate_gen_stop(struct rate_gen *g);

#endif
