/*
 * libFuzzer target for the --wlog URI list (src/gen/uri_wlog.c), through
 * its public API (gen/uri_wlog.h) only: the input is the whole file,
 * loaded with uri_wlog_init() from an in-memory file (memfd), and then
 * handed out, one URI per call, by the module's BUS_CALL_NEW handler.
 *
 * A model of the split, written from the contract in uri_wlog.h, says
 * what must come out: entries separated by NULs, or by LF (a CR before it
 * dropped) in a file without any NUL; empty entries skipped; a file that
 * is empty, has no URI, or has an entry holding a space or a control
 * character refused, the latter with "F:N: invalid URI", N counting
 * entries from 1.  Every URI a call gets must be the model's next one,
 * NUL-terminated where its length says; after the last the list wraps
 * (odd-sized inputs) or calls are abandoned and `done' runs exactly once.
 * Half of the inputs also print each URI (verbose), which must be the
 * documented line.  Contract violations abort().
 */
#include "config.h"

#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/core.h"
#include "gen/uri_wlog.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FZ_ERRLEN	512

static int fz_fd = -1;
static char fz_path[64];

/* One URI of the model: a span of the input. */
struct fz_uri {
	size_t	off;
	size_t	len;
};

static void
fz_done(void *arg, uint64_t now)
{
	(void)now;
	(*(unsigned *)arg)++;
}

/*
 * Splits the input as uri_wlog.h says.  Returns the number of URIs (0:
 * refused), with *bad_entry set to the first invalid entry's number, or 0.
 */
static size_t
fz_model(const uint8_t *d, size_t size, struct fz_uri *uris,
    size_t *bad_entry)
{
	uint8_t sep = memchr(d, '\0', size) != NULL ? '\0' : '\n';
	size_t pos = 0, end, len, i, n = 0, entry = 0;

	*bad_entry = 0;
	while (pos < size) {
		entry++;
		for (end = pos; end < size && d[end] != sep; end++)
			continue;
		len = end - pos;
		if (sep == '\n' && len > 0 && d[pos + len - 1] == '\r')
			len--;
		for (i = 0; i < len; i++) {
			if (d[pos + i] <= ' ' || d[pos + i] == 0x7f) {
				*bad_entry = entry;
				return 0;
			}
		}
		if (len > 0) {
			uris[n].off = pos;
			uris[n].len = len;
			n++;
		}
		pos = end + 1;
	}
	return n;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if ((fz_fd = memfd_create("fuzz_wlog", MFD_CLOEXEC)) == -1)
		abort();
	snprintf(fz_path, sizeof(fz_path), "/proc/self/fd/%d", fz_fd);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uri_wlog w;
	struct core core;
	struct core_config ccfg;
	struct call *call;
	struct fz_uri *uris;
	char *errbuf, *vbuf = NULL, want[FZ_ERRLEN];
	size_t nuris, bad, i, ncalls, vlen = 0, k;
	FILE *vout;
	unsigned done = 0;
	int wrap = size % 2 == 1, verbose = size / 2 % 2 == 1, rv;

	if (ftruncate(fz_fd, 0) == -1 ||
	    (size > 0 && pwrite(fz_fd, data, size, 0) != (ssize_t)size))
		abort();
	if ((uris = malloc((size / 2 + 1) * sizeof(*uris))) == NULL ||
	    (errbuf = malloc(FZ_ERRLEN)) == NULL)
		abort();
	nuris = fz_model(data, size, uris, &bad);
	if ((vout = open_memstream(&vbuf, &vlen)) == NULL)
		abort();

	/* The module needs only the core's bus and pools: for its handler
	   and calls.  No loop: nothing here waits. */
	memset(&ccfg, 0, sizeof(ccfg));
	core_init(&core, NULL, bus_new(), &ccfg);
	memset(errbuf, 'x', FZ_ERRLEN);
	rv = uri_wlog_init(&w, &core, fz_path, wrap, verbose, vout, "fz",
	    fz_done, &done, errbuf, FZ_ERRLEN);
	if (nuris == 0) {
		/* Refused, with the file name first. */
		if (rv != -1 || memchr(errbuf, '\0', FZ_ERRLEN) == NULL ||
		    strncmp(errbuf, fz_path, strlen(fz_path)) != 0)
			abort();
		if (bad != 0) {
			/* The entry is quoted, every byte of it printable. */
			snprintf(want, sizeof(want), "%s:%zu: invalid URI ('",
			    fz_path, bad);
			if (strncmp(errbuf, want, strlen(want)) != 0)
				abort();
			for (k = 0; errbuf[k] != '\0'; k++)
				if ((unsigned char)errbuf[k] < 0x20 ||
				    (unsigned char)errbuf[k] >= 0x7f)
					abort();
		}
		goto out;
	}
	if (rv != 0 || w.nuris != nuris)
		abort();

	/* Every call gets the next URI, in order. */
	ncalls = wrap ? 2 * nuris + 1 : nuris + 2;
	for (i = 0; i < ncalls; i++) {
		call = call_new(&core, 0);
		if (i >= nuris && !wrap) {
			if (!call->abandon || call->uri != NULL || done != 1)
				abort();
		} else {
			k = i % nuris;
			if (call->abandon || done != 0 ||
			    call->uri_len != uris[k].len ||
			    memcmp(call->uri, data + uris[k].off,
			    uris[k].len) != 0 || call->uri[call->uri_len] != '\0')
				abort();
			if (call->uri < w.data || call->uri + call->uri_len >=
			    w.data + w.size + 1)
				abort();
		}
		call_unref(call, 0);
	}
	if (fflush(vout) != 0)
		abort();
	if (verbose) {
		/* One "fz: accessing URI `U'" line per URI handed out. */
		size_t at = 0, m = wrap ? ncalls : nuris;

		for (i = 0; i < m; i++) {
			k = i % nuris;
			if (at + 19 + uris[k].len + 2 > vlen ||
			    memcmp(vbuf + at, "fz: accessing URI `", 19) != 0 ||
			    memcmp(vbuf + at + 19, data + uris[k].off,
			    uris[k].len) != 0 ||
			    memcmp(vbuf + at + 19 + uris[k].len, "'\n", 2) != 0)
				abort();
			at += 19 + uris[k].len + 2;
		}
		if (at != vlen)
			abort();
	} else if (vlen != 0)
		abort();
out:
	uri_wlog_fini(&w);
	uri_wlog_fini(&w);	/* harmless twice */
	core_fini(&core);
	bus_free(core.bus);
	fclose(vout);
	free(vbuf);
	free(errbuf);
	free(uris);
	return 0;
}
