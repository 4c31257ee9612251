/*
 * --jobs N: one test over N worker processes.  The parent sets the run
 * up once (run_check: what a worker would refuse is said once, before
 * any load), prints the options line, picks the instant every worker
 * starts at (as --start-at), and forks.  Worker I is the whole run as
 * --client I/N with its share of the workload (options_split), pinned
 * to its CPU, killed with its parent (PR_SET_PDEATHSIG), its report
 * thrown away and its --json document written up a pipe.  The parent
 * reads the pipes, reaps the workers, and merges the documents with the
 * --merge code (report/merge.h) into one report, one --json, one
 * --html.  SIGINT or SIGTERM to the parent is passed on to every worker
 * (each in a process group of its own, so a terminal's ^C reaches the
 * parent only): they stop and send what they did.  A worker that dies,
 * or exits with another status than 0, 3 or 4, is named on stderr; the
 * report covers the others, says how many did not finish, and the exit
 * status is 1.
 */
#include "config.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "lib/jsonr.h"
#include "lib/util.h"
#include "modules.h"
#include "opt/options.h"
#include "report/html.h"
#include "report/html_out.h"
#include "report/merge.h"
#include "report/slo_doc.h"
#include "report/sweep_search.h"
#include "run.h"
#include "run_jobs.h"
#include "run_jobs_live.h"
#include "run_sweep.h"
#include "setup.h"
#include "stat/script_stat.h"

/* The workers start this long after the parent forks the first one. */
#define JOBS_START_NS	(300 * CLOCK_NS_PER_MSEC)

/* One worker. */
struct job {
	pid_t		 pid;
	int		 fd;		/* the pipe's read end; -1: at EOF */
	int		 lfd;		/* --interval: the records' pipe,
					   or -1 */
	char		*buf;		/* its document, as read */
	size_t		 len;
	size_t		 cap;
	int		 status;	/* waitpid()'s */
	struct jv	*doc;		/* parsed; NULL: none */
	char		 label[32];	/* "worker I" */
};

struct jobs {
	struct options	*o;
	const struct run_sig *sig;
	unsigned	 n;
	unsigned	*cpus;		/* the CPUs, in order */
	size_t		 ncpus;
	struct job	*job;
	pid_t		 parent;
	char		 start_raw[32];	/* the instant, for the echo */
	FILE		*out;		/* the report */
	sigset_t	 old;		/* the mask before the fork */
	struct jobs_live *live;		/* the summed lines, hlog, progress */
};

/*
 * The CPUs: --cpus (each must be in the affinity mask), or the mask's
 * in order.  Returns 0, or -1 after one line.
 */
static int
jobs_cpus(struct jobs *js)
{
	const char *why;
	cpu_set_t mask;
	size_t i;

	CPU_ZERO(&mask);
	if (sched_getaffinity(0, sizeof(mask), &mask) == -1) {
		fprintf(stderr, "%s: --jobs: sched_getaffinity: %s\n",
		    js->o->prog, strerror(errno));
		return -1;
	}
	if (js->o->cpus == NULL) {
		js->cpus = xcalloc(CPU_SETSIZE, sizeof(*js->cpus));
		for (i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &mask))
				js->cpus[js->ncpus++] = (unsigned)i;
		return 0;
	}
	if (options_cpus_parse(js->o->cpus, &js->cpus, &js->ncpus,
	    &why) == -1)
		return -1;	/* checked by the option already */
	for (i = 0; i < js->ncpus; i++)
		if (js->cpus[i] >= CPU_SETSIZE ||
		    !CPU_ISSET(js->cpus[i], &mask)) {
			fprintf(stderr, "%s: --cpus: CPU %u is not one this "
			    "process may run on\n", js->o->prog, js->cpus[i]);
			return -1;
		}
	return 0;
}

/*
 * Worker i, after the fork: never returns.  The options are a copy of
 * the whole run's with worker i's share.
 */
static void
jobs_worker(struct jobs *js, unsigned i, int wfd, int lfd)
{
	struct options wo = *js->o;
	struct run_sig ws = *js->sig;
	cpu_set_t set;
	char path[32];
	int null, status;

#ifdef PR_SET_PDEATHSIG
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0UL, 0UL, 0UL);
#endif
	/* The parent may have gone before the line above. */
	if (getppid() != js->parent)
		_exit(1);
	(void)setpgid(0, 0);
	js->sig->install();
	sigprocmask(SIG_SETMASK, &js->old, NULL);
	CPU_ZERO(&set);
	CPU_SET(js->cpus[i % js->ncpus], &set);
	if (sched_setaffinity(0, sizeof(set), &set) == -1) {
		fprintf(stderr, "%s: --jobs: worker %u: CPU %u: %s\n",
		    wo.prog, i, js->cpus[i % js->ncpus], strerror(errno));
		_exit(1);
	}
	if ((null = open("/dev/null", O_WRONLY)) == -1 ||
	    dup2(null, STDOUT_FILENO) == -1)
		_exit(1);
	close(null);
	options_split(&wo, i, js->n);
	wo.jobs = 0;
	wo.jobs_auto = 0;
	wo.cpus = NULL;
	snprintf(path, sizeof(path), "/dev/fd/%d", wfd);
	wo.json_file = path;
	wo.html_file = NULL;
	wo.hlog_file = NULL;
	wo.log_worker = i + 1;		/* --log F: its F.I */
	wo.quiet = 1;
	wo.script_jobs = 2;		/* --script: done() is the parent's */
	/* Its document names the whole run's options, as the others'. */
	wo.whole = js->o;
	wo.start_at_raw = js->start_raw;
	/* Its --interval lines are the parent's to print, summed. */
	if (lfd != -1) {
		ws.live = jobs_live_send;
		ws.live_arg = &lfd;
	}
	status = run_main(&wo, &ws);
	fflush(NULL);
	_exit(status);
}

/*
 * A worker's pipes: p for its document, l for its interval records
 * (with --interval; else -1s), their read ends closed on exec.
 * Returns 0, or -1 after one line.
 */
static int
jobs_pipes(const struct jobs *js, int p[2], int l[2])
{
	l[0] = l[1] = -1;
	if (pipe(p) == -1)
		goto fail;
	if (js->live != NULL && pipe(l) == -1) {
		close(p[0]);
		close(p[1]);
		goto fail;
	}
	(void)fcntl(p[0], F_SETFD, FD_CLOEXEC);
	if (l[0] != -1)
		(void)fcntl(l[0], F_SETFD, FD_CLOEXEC);
	return 0;
fail:
	fprintf(stderr, "%s: --jobs: pipe: %s\n", js->o->prog,
	    strerror(errno));
	return -1;
}

/* Closes the ends of a pair that are open. */
static void
jobs_close2(int p[2])
{
	if (p[0] != -1)
		close(p[0]);
	if (p[1] != -1)
		close(p[1]);
}

/*
 * Forks the workers, each with its pipes, the signals held until the
 * worker has its handler.  Returns how many were started.
 */
static unsigned
jobs_fork(struct jobs *js)
{
	sigset_t block;
	unsigned i, k;
	int p[2], l[2];

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &js->old);
	js->parent = getpid();
	for (i = 0; i < js->n; i++) {
		if (jobs_pipes(js, p, l) == -1)
			break;
		fflush(NULL);
		if ((js->job[i].pid = fork()) == -1) {
			fprintf(stderr, "%s: --jobs: fork: %s\n",
			    js->o->prog, strerror(errno));
			jobs_close2(p);
			jobs_close2(l);
			break;
		}
		if (js->job[i].pid == 0) {
			for (k = 0; k < i; k++) {
				close(js->job[k].fd);
				if (js->job[k].lfd != -1)
					close(js->job[k].lfd);
			}
			close(p[0]);
			if (l[0] != -1)
				close(l[0]);
			jobs_worker(js, i, p[1], l[1]);
		}
		close(p[1]);
		if (l[1] != -1)
			close(l[1]);
		js->job[i].fd = p[0];
		js->job[i].lfd = l[0];
	}
	return i;
}

/* Reads what worker j has sent; at EOF closes its pipe. */
static void
jobs_read(struct job *j)
{
	ssize_t got;

	if (j->cap - j->len < 65536) {
		j->cap = j->cap * 2 + 65536;
		j->buf = xrealloc(j->buf, j->cap);
	}
	got = read(j->fd, j->buf + j->len, j->cap - j->len);
	if (got > 0)
		j->len += (size_t)got;
	else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
		close(j->fd);
		j->fd = -1;
	}
}

/*
 * The pipes to poll: worker i's document at 2i, its records at 2i + 1
 * (-1: at their end).  Returns how many are open.
 */
static unsigned
jobs_poll_set(const struct jobs *js, struct pollfd *pf, unsigned started)
{
	unsigned i, open = 0;

	for (i = 0; i < 2 * started; i++) {
		pf[i].fd = i % 2 == 0 ? js->job[i / 2].fd : js->job[i / 2].lfd;
		pf[i].events = POLLIN;
		pf[i].revents = 0;
		open += pf[i].fd != -1;
	}
	return open;
}

/* Reads what the pipes poll said are ready have. */
static void
jobs_poll_read(struct jobs *js, const struct pollfd *pf, unsigned started)
{
	struct job *j;
	unsigned i;

	for (i = 0; i < 2 * started; i++) {
		if (pf[i].fd == -1 || pf[i].revents == 0)
			continue;
		j = &js->job[i / 2];
		if (i % 2 == 0)
			jobs_read(j);
		else if (jobs_live_read(js->live, i / 2, j->lfd,
		    clock_now()) == -1) {
			close(j->lfd);
			j->lfd = -1;
		}
	}
}

/*
 * Reads every pipe to its end, passing a SIGINT or SIGTERM the parent
 * gets on to the workers (once), then reaps them all.
 */
static void
jobs_collect(struct jobs *js, unsigned started)
{
	struct pollfd *pf = xcalloc(2 * (size_t)started, sizeof(*pf));
	struct timespec ts;
	unsigned i;
	uint64_t wait;
	int passed = 0;

	for (;;) {
		if (*js->sig->interrupted && !passed) {
			for (i = 0; i < started; i++)
				(void)kill(js->job[i].pid, SIGINT);
			passed = 1;
		}
		if (jobs_poll_set(js, pf, started) == 0)
			break;
		wait = js->live != NULL ?
		    jobs_live_print(js->live, clock_now(), 0) : UINT64_MAX;
		ts.tv_sec = (time_t)(wait / CLOCK_NS_PER_SEC);
		ts.tv_nsec = (long)(wait % CLOCK_NS_PER_SEC);
		/* The signals come in only while asleep here. */
		if (ppoll(pf, 2 * (nfds_t)started, wait == UINT64_MAX ? NULL :
		    &ts, &js->old) == -1) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: --jobs: poll: %s\n", js->o->prog,
			    strerror(errno));
			break;
		}
		jobs_poll_read(js, pf, started);
	}
	free(pf);
	if (js->live != NULL)
		(void)jobs_live_print(js->live, clock_now(), 1);
	/* A pipe left open (poll failed) would hold its worker up. */
	for (i = 0; i < started; i++) {
		if (js->job[i].fd != -1)
			close(js->job[i].fd);
		if (js->job[i].lfd != -1)
			close(js->job[i].lfd);
		js->job[i].fd = js->job[i].lfd = -1;
	}
	for (i = 0; i < started; i++)
		while (waitpid(js->job[i].pid, &js->job[i].status, 0) == -1 &&
		    errno == EINTR)
			;
	sigprocmask(SIG_SETMASK, &js->old, NULL);
}

/*
 * Whether worker j finished (exit status 0, 3 or 4) with a document;
 * if not, one line saying what became of it.
 */
static int
jobs_finished(const struct jobs *js, unsigned i)
{
	struct job *j = &js->job[i];
	char err[256];
	int st = j->status;

	if (WIFSIGNALED(st)) {
		fprintf(stderr, "%s: --jobs: worker %u (pid %ld) was killed "
		    "by signal %d (%s)\n", js->o->prog, i, (long)j->pid,
		    WTERMSIG(st), strsignal(WTERMSIG(st)));
		return 0;
	}
	if (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 &&
	    WEXITSTATUS(st) != 3 && WEXITSTATUS(st) != 4)) {
		fprintf(stderr, "%s: --jobs: worker %u (pid %ld) exited with "
		    "status %d\n", js->o->prog, i, (long)j->pid,
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return 0;
	}
	if ((j->doc = jv_parse(j->buf, j->len, err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s: --jobs: worker %u (pid %ld) sent no "
		    "valid result: %s\n", js->o->prog, i, (long)j->pid, err);
		return 0;
	}
	return 1;
}

/* What the merged document needs. */
struct jobs_doc {
	struct merge		*m;
	const struct jv	**docs;
	char			**labels;
	size_t			 n;
};

/* The merged document (html_doc_fn). */
static int
jobs_doc(FILE *mf, void *arg)
{
	struct jobs_doc *d = arg;

	return merge_json(d->m, mf, d->docs, d->labels, d->n);
}

/* The --html page: the merged document and each worker's. */
static int
jobs_html(struct jobs *js, struct jobs_doc *d)
{
	struct html_client *cl = xcalloc(d->n, sizeof(*cl));
	FILE *f;
	size_t i;
	int rv = -1;

	for (i = 0; i < d->n; i++) {
		cl[i].doc = d->docs[i];
		cl[i].label = d->labels[i];
	}
	if ((f = html_open(js->o->prog, js->o->html_file)) != NULL)
		rv = html_output_doc(js->o->prog, f, js->o->html_file,
		    jobs_doc, d, cl, d->n);
	free(cl);
	return rv;
}

/* The --json document.  Returns 0, or -1 after a message. */
static int
jobs_json(struct jobs *js, struct jobs_doc *d)
{
	const char *path = js->o->json_file;
	int to_stdout = strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "w");

	if (f == NULL) {
		fprintf(stderr, "%s: --json: %s: %s\n", js->o->prog, path,
		    strerror(errno));
		return -1;
	}
	if (jobs_doc(f, d) == -1 || (!to_stdout && fclose(f) != 0) ||
	    (to_stdout && fflush(f) != 0)) {
		fprintf(stderr, "%s: --json: cannot write %s\n", js->o->prog,
		    to_stdout ? "to the standard output" : path);
		return -1;
	}
	return 0;
}

/*
 * After the merged report: the line about the workers, the objectives
 * measured on the merged document, the --json and --html files.
 * Returns the exit status.
 */
static int
jobs_after(struct jobs *js, struct jobs_doc *d, unsigned late)
{
	const struct options *o = js->o;
	struct merge *m = d->m;
	int failed = 0, status;

	fprintf(js->out, "Jobs: %u workers, %zu finished", js->n, d->n);
	if (d->n < js->n)
		fprintf(js->out, ", %zu did not", js->n - d->n);
	fputc('\n', js->out);
	/* A sweep: its objectives judge each merged step, as --merge's. */
	if (m->sweep != NULL)
		failed = merge_sweep_print(m, js->out);
	else if (o->n_slo > 0) {
		m->slo_measured = xcalloc(o->n_slo, sizeof(*m->slo_measured));
		failed = slo_doc_report(o->prog, js->out, jobs_doc, d, o->slo,
		    o->n_slo, m->slo_measured);
		m->slo = o->slo;
		m->nslo = o->n_slo;
	}
	if (fflush(js->out) != 0 || ferror(js->out)) {
		fprintf(stderr, "%s: cannot write the report\n", o->prog);
		return 1;
	}
	if (d->n < js->n || failed == -1)
		status = 1;
	else if (m->sweep != NULL)
		status = failed;	/* the sweep's: 0, 3 or 4 */
	else
		status = late > 0 && o->max_lateness_given ? 3 :
		    failed > 0 ? 4 : 0;
	if (o->json_file != NULL && jobs_json(js, d) == -1)
		status = 1;
	if (o->html_file != NULL && jobs_html(js, d) == -1)
		status = 1;
	return status;
}

/*
 * Merges the documents of the workers that finished and prints the
 * report.  Returns the exit status.
 */
static int
jobs_report(struct jobs *js, unsigned started)
{
	const struct collector *cols[MOD_NSTATS];
	struct jobs_doc d;
	struct merge m;
	unsigned i, late = 0;
	int status = 1;

	mod_cols(cols);
	merge_init(&m, cols, MOD_NSTATS);
	memset(&d, 0, sizeof(d));
	d.m = &m;
	d.docs = xcalloc(js->n, sizeof(*d.docs));
	d.labels = xcalloc(js->n, sizeof(*d.labels));
	for (i = 0; i < started; i++) {
		if (!jobs_finished(js, i))
			continue;
		late += WEXITSTATUS(js->job[i].status) == 3;
		d.docs[d.n] = js->job[i].doc;
		d.labels[d.n] = js->job[i].label;
		if (merge_add(&m, js->job[i].doc, js->job[i].label,
		    js->o->prog, stderr) == -1)
			goto out;
		d.n++;
	}
	if (d.n == 0) {
		fprintf(stderr, "%s: --jobs: no worker finished\n",
		    js->o->prog);
		goto out;
	}
	merge_finish(&m);
	/* A sweep's steps, merged step by step as --merge does. */
	if (merge_sweep_steps(&m, js->o, d.docs, d.labels, d.n) == -1)
		goto out;
	merge_print(&m, js->out);
	status = jobs_after(js, &d, late);
	/* --script: done() once, on the workers' counts added up. */
	if (setup_script_merged(js->o, merge_state(&m,
	    &script_stat_collector), m.run.duration, js->out, 0) == -1)
		status = 1;
out:
	merge_free(&m);
	free(d.docs);
	free(d.labels);
	return status;
}

/*
 * How many workers: --jobs N, or auto: one per CPU; never more than the
 * workload has units to split.  Says when workers share a CPU.
 */
static void
jobs_count(struct jobs *js)
{
	unsigned max = options_split_max(js->o);

	js->n = js->o->jobs_auto ? (unsigned)js->ncpus : js->o->jobs;
	if (js->n > max)
		js->n = max;
	if (js->n > js->ncpus)
		fprintf(stderr, "%s: --jobs: %u workers on %zu CPUs: some "
		    "share one\n", js->o->prog, js->n, js->ncpus);
	js->o->jobs = js->n;
}

/*
 * --sweep: a fixed plan whose every level is split over the workers (a
 * rate divided, a --concurrency shared out); a level that would leave a
 * worker without connections, and --sweep-tsv (the workers' rows are not
 * merged), are refused.  Returns 0, or -1 after one line.
 */
static int
jobs_sweep_check(const struct jobs *js)
{
	const struct options *o = js->o;
	struct sweep_spec spec;
	double level;
	size_t i, n;

	if (o->sweep == NULL)
		return 0;
	if (o->sweep_tsv != NULL) {
		fprintf(stderr, "%s: --sweep-tsv cannot be used with --jobs "
		    "above 1 yet (the workers' rows are not merged)\n",
		    o->prog);
		return -1;
	}
	if (o->concurrency == 0 || run_sweep_check(o, &spec) == -1)
		return 0;	/* a rate divides; a bad spec: said */
	n = sweep_spec_count(&spec);
	for (i = 0; i < n; i++)
		if ((level = sweep_spec_level(&spec, i)) < js->n) {
			fprintf(stderr, "%s: --sweep: %s: concurrency level %g "
			    "cannot be split over %u workers (--jobs): each "
			    "level must be at least %u\n", o->prog, o->sweep,
			    level, js->n, js->n);
			return -1;
		}
	return 0;
}

/* The instant every worker starts at: --start-at's, or shortly. */
static void
jobs_start_at(struct jobs *js)
{
	struct options *o = js->o;

	if (o->start_at_raw == NULL)
		o->start_at = clock_wall_now() + JOBS_START_NS;
	snprintf(js->start_raw, sizeof(js->start_raw), "%llu.%09llu",
	    (unsigned long long)(o->start_at / CLOCK_NS_PER_SEC),
	    (unsigned long long)(o->start_at % CLOCK_NS_PER_SEC));
}

/* --hlog: the parent's file, created now.  Returns 0, or -1 after a line. */
static int
jobs_hlog(struct jobs *js)
{
	char err[512];

	if (js->o->hlog_file == NULL || jobs_live_hlog(js->live,
	    js->o->hlog_file, js->o->start_at, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", js->o->prog, err);
	return -1;
}

/* --hlog: the file closed.  Returns 0, or -1 after a line. */
static int
jobs_hlog_end(struct jobs *js)
{
	char err[512];

	if (js->live == NULL || jobs_live_end(js->live, err,
	    sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", js->o->prog, err);
	return -1;
}

int
run_jobs(struct options *o, const struct run_sig *sig)
{
	struct jobs js;
	unsigned i, started;
	int status = 1, rv;

	memset(&js, 0, sizeof(js));
	js.o = o;
	js.sig = sig;
	if (jobs_cpus(&js) == -1)
		goto out;
	jobs_count(&js);
	if (js.n < 2) {
		status = run_main(o, sig);
		goto out;
	}
	/* What a worker would refuse at its start, said once (--log:
	   worker 0's file, which it makes again). */
	o->log_worker = 1;
	o->script_jobs = 1;		/* --script: loaded for done() only */
	rv = run_check(o, sig);
	o->log_worker = 0;
	if (rv == -1 || jobs_sweep_check(&js) == -1)
		goto out;
	js.out = o->json_file != NULL && strcmp(o->json_file, "-") == 0 ?
	    stderr : stdout;
	options_echo(o, js.out);
	if (fflush(js.out) != 0)
		goto out;
	js.job = xcalloc(js.n, sizeof(*js.job));
	jobs_start_at(&js);
	if (jobs_live_wanted(o))
		js.live = jobs_live_new(o, js.n, stderr, sig->progress_on);
	if (jobs_hlog(&js) == -1)
		goto free;
	for (i = 0; i < js.n; i++) {
		js.job[i].fd = js.job[i].lfd = -1;
		snprintf(js.job[i].label, sizeof(js.job[i].label),
		    "worker %u", i);
	}
	started = jobs_fork(&js);
	for (i = started; js.live != NULL && i < js.n; i++)
		jobs_live_gone(js.live, i);
	jobs_collect(&js, started);
	status = jobs_report(&js, started);
	if (started < js.n || jobs_hlog_end(&js) == -1)
		status = 1;
free:
	for (i = 0; i < js.n; i++) {
		free(js.job[i].buf);
		jv_free(js.job[i].doc);
	}
	free(js.job);
	jobs_live_free(js.live);
out:
	free(js.cpus);
	return status;
}
