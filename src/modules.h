/*
 * The modules of a run: the two tables, collectors and generators
 * (stat/collector.h, gen/generator.h).  A row names the module's
 * instance, says when a run has it and builds its settings from the
 * options.  run.c walks the tables for a run, main.c hands the collectors
 * to --merge (report/merge.h), so a run and a merge can never disagree
 * on the collectors or their order; nothing else knows one module from
 * another besides its row.  Adding a module: its row here, and its
 * settings in union mod_cfg.
 */
#ifndef HTTPERF_MODULES_H
#define HTTPERF_MODULES_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/call_rate.h"
#include "gen/checks.h"
#include "gen/conn_gen.h"
#include "gen/data.h"
#include "gen/generator.h"
#include "gen/uri_wlog.h"
#include "gen/uri_wset.h"
#include "gen/wsess.h"
#include "gen/wsesslog.h"
#include "gen/wsesspage.h"
#include "stat/basic.h"
#include "stat/check_stat.h"
#include "stat/calllog.h"
#include "stat/page_stat.h"
#include "stat/collector.h"
#include "stat/conc_stat.h"
#include "stat/interval.h"
#include "stat/print.h"
#include "stat/progress.h"
#include "stat/proxy_stat.h"
#include "stat/sched_stat.h"
#include "stat/script_stat.h"
#include "stat/server_stat.h"
#include "stat/sess_stat.h"

struct options;
struct setup;

/* The settings of one module, built from the options (read at init). */
union mod_cfg {
	struct basic_config	 basic;
	struct sess_stat_config	 sess;
	struct print_config	 print;
	struct uri_wlog_config	 wlog;
	struct uri_wset_config	 wset;
	struct data_config	 data;
	struct wsess_config	 wsess;
	struct wsesslog_config	 wsesslog;
	struct wsesspage_config wsesspage;
	struct checks_config	 checks;
	struct check_stat_config check_stat;
	struct script_stat_config script_stat;
	struct conn_gen_config	 conns;
	struct interval_config	 interval;
	struct call_rate_config	 crate;
	struct sched_stat_config sched;
	struct progress_config	 progress;
	struct proxy_stat_config proxy;
	struct conc_stat_config	 conc;
	struct calllog_config	 log;
	struct server_stat_config servers;
};

/* What the settings are built from: the options and the run's set-up. */
struct mod_ctx {
	const struct options	*o;
	const struct setup	*setup;		/* the proxy, the tunnel */
	/* Set-Cookie fields the session workload ignored (its jars were
	   full), for the session collector's report: the run's counter. */
	uint64_t		*cookies_ignored;
	/* Set to 1 when the run draws the progress line (a second signal
	   then erases it): the run's flag. */
	volatile sig_atomic_t	*progress_on;
	/* --slo-abort: the run's stop (stat/interval.h), and its arg. */
	interval_abort_fn	*slo_abort;
	void			*slo_abort_arg;
	/* A --jobs worker: the --interval lines' records go here instead
	   (run.h's run_sig.live), or NULL. */
	interval_flush_fn	*live;
	void			*live_arg;
	/* --log: ends the run (a write failed; the workload stops, as when
	   it is done), and its arg. */
	void			(*stop)(void *arg, uint64_t now);
	void			*stop_arg;
};

/* Says whether the options give the run this module. */
typedef int mod_want_fn(const struct options *);

/* Fills the module's settings in (the union is zeroed). */
typedef void mod_cfg_fn(const struct mod_ctx *, union mod_cfg *);

/*
 * The collectors, in the order they subscribe to the bus (so their
 * handlers run in this order) and print: each report in this order, then
 * each extra.  want NULL: every run; cfg NULL: no settings.
 */
struct mod_stat {
	const struct collector *col;
	mod_want_fn	*want;
	mod_cfg_fn	*cfg;
};

/*
 * The generators, subscribed after the collectors in this order: the URI
 * sources (at most one per run), then the workloads (exactly one).
 */
struct mod_gen {
	const struct generator *gen;
	mod_want_fn	*want;
	mod_cfg_fn	*cfg;
	const char	*opt;		/* names it in init's messages */
	int		 workload;	/* else a URI source */
	int		 escape;	/* init's message may quote a file */
};

/* The number of collectors, mod_stats[]'s rows. */
#define MOD_NSTATS	15

extern const struct mod_stat mod_stats[MOD_NSTATS];
extern const size_t mod_nstats;
extern const struct mod_gen mod_gens[];
extern const size_t mod_ngens;

/* Fills cols with the collectors of mod_stats[], in its order (a run's
   --json document and --merge walk them). */
void	mod_cols(const struct collector *cols[MOD_NSTATS]);

/* The run has a schedule: arrivals can be late (sched_stat). */
int	mod_want_sched(const struct options *o);

#endif
