/*
 * libFuzzer target for --servers FILE's parser (src/lib/servers.c),
 * through lib/servers.h only.
 *
 * The first byte gives --port (0 or 8080, bit 0) and --ssl (bit 1); the
 * rest is the file, in a heap buffer of exactly its length.  Checked
 * against the contract: a failure has a message naming the file and
 * leaves nothing allocated; a list has 1 to SERVERS_MAX servers, each a
 * non-empty host without blanks or control characters, a port from 1 to
 * 65535 (--port's when one was given and the line has none), lines in
 * increasing order, and servers_find() finds it (or an equal one before
 * it).  Contract violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/servers.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fz_check(const struct servers_list *l)
{
	const struct servers_target *t;
	size_t i, k;
	long at;

	if (l->n == 0 || l->n > SERVERS_MAX)
		abort();
	for (i = 0; i < l->n; i++) {
		t = &l->t[i];
		if (t->host == NULL || t->host[0] == '\0' || t->port == 0 ||
		    t->port > 65535 || (i > 0 && t->line <= l->t[i - 1].line))
			abort();
		for (k = 0; t->host[k] != '\0'; k++)
			if ((unsigned char)t->host[k] <= ' ' ||
			    t->host[k] == 0x7f)
				abort();
		if (t->uri != NULL && t->uri[0] != '/')
			abort();
		at = servers_find(l, t->host, t->port);
		if (at < 0 || (size_t)at > i)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct servers_list l;
	char err[256], *buf;
	unsigned port;
	int ssl;

	if (size < 1)
		return 0;
	port = data[0] & 1 ? 8080 : 0;
	ssl = (data[0] & 2) != 0;
	data++;
	size--;
	if ((buf = malloc(size > 0 ? size : 1)) == NULL)
		abort();
	memcpy(buf, data, size);
	err[0] = '\0';
	if (servers_parse(buf, size, "f", port, ssl, &l, err,
	    sizeof(err)) == -1) {
		if (strncmp(err, "f:", 2) != 0 || l.t != NULL || l.n != 0)
			abort();
	} else {
		fz_check(&l);
		servers_free(&l);
	}
	free(buf);
	return 0;
}
