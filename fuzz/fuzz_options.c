/*
 * libFuzzer target for the command line parser (src/opt/options.c): the input
 * split at its NUL bytes gives up to 64 arguments after argv[0] =
 * "httperf"; options_parse() runs on them with both streams on /dev/null,
 * then options_echo() when the options are accepted, then options_free().
 * The accepted options are checked against the promises of options.h and
 * the strings they own are read byte by byte.  Contract violations abort().
 *
 * --body-file and --add-header-file read the files they name; that may
 * read any file but never writes one.  Inputs naming something under /dev,
 * /proc or /sys, or a file descriptor, are skipped: /dev/zero or a
 * terminal would make one run read forever.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/options.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Arguments after argv[0]. */
#define FZ_MAXARGS	64

/* Returns non-zero when `w' may name a device or a pseudo-file. */
static int
fz_special_path(const char *w)
{
	static const char *const bad[] = { "dev/", "proc/", "sys/", "fd/" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (strstr(w, bad[i]) != NULL)
			return 1;
	return 0;
}

/* Reads `len' bytes and the NUL after them; aborts if it is missing. */
static unsigned
fz_touch(unsigned sum, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		sum += (unsigned char)s[i];
	if (s[len] != '\0')
		abort();
	return sum;
}

/* Checks options that options_parse() accepted. */
static unsigned
fz_check(const struct options *o)
{
	unsigned sum = 0;
	size_t i;

	if (o->prog == NULL || o->server == NULL || o->uri == NULL)
		abort();
	if (o->http_minor != 0 && o->http_minor != 1)
		abort();
	if (o->num_clients == 0 || o->client_id >= o->num_clients)
		abort();
	if (o->port > 65535)
		abort();
	if (options_tls_version_name(o->ssl_min_version) == NULL ||
	    options_tls_version_name(o->ssl_max_version) == NULL)
		abort();
	if (o->wsess_n != 0 && o->wsesslog_n != 0)
		abort();
	if (o->wsesslog_n != 0 && o->wsesslog_file == NULL)
		abort();
	if ((o->n_add_header != 0) != (o->add_header_raw != NULL))
		abort();
	for (i = 0; i < o->n_add_header; i++)
		sum = fz_touch(sum, o->add_header_raw[i],
		    strlen(o->add_header_raw[i]));
	if (o->add_header != NULL)
		sum = fz_touch(sum, o->add_header, o->add_header_len);
	else if (o->add_header_len != 0)
		abort();
	if (o->body != NULL)
		for (i = 0; i < o->body_len; i++)
			sum += (unsigned char)o->body[i];
	else if (o->body_len != 0)
		abort();
	for (i = 0; i < o->n_myaddr; i++)
		sum = fz_touch(sum, o->myaddr[i], strlen(o->myaddr[i]));
	return sum;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct options o;
	char *words, *argv[FZ_MAXARGS + 2], *p, *end;
	volatile unsigned sink;
	int argc;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	if ((words = malloc(size + 1)) == NULL)
		abort();
	memcpy(words, data, size);
	words[size] = '\0';
	argv[0] = (char *)"httperf";
	argc = 1;
	end = words + size;
	for (p = words; p < end && argc <= FZ_MAXARGS; p += strlen(p) + 1) {
		if (fz_special_path(p))
			goto out;
		argv[argc++] = p;
	}
	argv[argc] = NULL;

	options_init(&o);
	if (options_parse(&o, argc, argv, devnull, devnull) == OPTIONS_RUN) {
		sink = fz_check(&o);
		(void)sink;
		options_echo(&o, devnull);
	}
	options_free(&o);
out:
	free(words);
	return 0;
}
