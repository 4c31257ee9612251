/*
 * httperf: options -> a run (run.h), its workers (run_jobs.h) or a merge
 * (report/merge.h) -> the exit status.
 *
 * The only process-wide state lives here: the signal flags, which the
 * handler sets and the run reads through run_sig.  Everything else is
 * built on the stack and passed down explicitly.
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "modules.h"
#include "opt/options.h"
#include "report/merge.h"
#include "run.h"
#include "run_jobs.h"

extern char **environ;

/* Set by the SIGINT (SIGTERM, SIGHUP) handler, read once per loop turn. */
static volatile sig_atomic_t interrupted;

/* The run draws the progress line: a second signal erases it. */
static volatile sig_atomic_t progress_on;

static void
on_sigint(int sig)
{
	/* The progress line's erase, without stdio (the collector's
	   stop never comes). */
	if (interrupted) {
		if (progress_on)
			(void)!write(STDERR_FILENO, "\r\033[K", 4);
		_exit(1);
	}
	interrupted = 1;
}

/* SIGPIPE ignored (a failed write is counted); SIGINT ends the test. */
static void
install_signals(void)
{
	struct sigaction sa;

	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int
main(int argc, char **argv)
{
	static const struct run_sig sig = {
		&interrupted, &progress_on, install_signals, NULL, NULL
	};
	struct options o;
	int status;

	options_init(&o);
	/* --client auto reads the launcher's variables. */
	switch (options_parse_env(&o, argc, argv, environ, stdout, stderr)) {
	case OPTIONS_RUN:
		break;
	case OPTIONS_EXIT_OK:
		options_free(&o);
		return 0;
	default:
		options_free(&o);
		return 1;
	}
	if (o.merge) {
		const struct collector *cols[MOD_NSTATS];

		mod_cols(cols);
		status = merge_main(&o, cols, MOD_NSTATS);
	} else if (o.jobs > 1 || o.jobs_auto)
		status = run_jobs(&o, &sig);
	else
		status = run_main(&o, &sig);
	options_free(&o);
	return status;
}
