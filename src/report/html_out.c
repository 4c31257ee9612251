/*
 * The --html file (see html_out.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "lib/util.h"
#include "report/html.h"
#include "report/html_out.h"

/* "PROG: --html: PATH: what", the path made safe for one line. */
static void
html_err(const char *prog, const char *path, const char *what)
{
	fprintf(stderr, "%s: --html: ", prog);
	util_put_escaped(stderr, path, strlen(path));
	fprintf(stderr, ": %s\n", what);
}

FILE *
html_open(const char *prog, const char *path)
{
	FILE *f;

	if ((f = fopen(path, "w")) == NULL)
		html_err(prog, path, strerror(errno));
	return f;
}

int
html_output(const char *prog, FILE *f, const char *path, const char *doc,
    size_t len, const struct html_client *clients, size_t nclients)
{
	char err[256];
	struct jv *root;
	int rv = 0;

	if ((root = jv_parse(doc, len, err, sizeof(err))) == NULL) {
		/* The program wrote it: only memory can be short. */
		html_err(prog, path, err);
		fclose(f);
		return -1;
	}
	if (html_write(f, root, clients, nclients, err, sizeof(err)) == -1) {
		html_err(prog, path, err);
		rv = -1;
	}
	if (ferror(f) && rv == 0) {
		html_err(prog, path, "cannot write");
		rv = -1;
	}
	if (fclose(f) != 0 && rv == 0) {
		html_err(prog, path, strerror(errno));
		rv = -1;
	}
	jv_free(root);
	return rv;
}

int
html_output_doc(const char *prog, FILE *f, const char *path,
    html_doc_fn *make, void *arg, const struct html_client *clients,
    size_t nclients)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *mf;
	int rv = -1;

	if ((mf = open_memstream(&doc, &len)) != NULL) {
		rv = make(mf, arg);
		if (fclose(mf) != 0)
			rv = -1;
	}
	if (rv == 0)
		rv = html_output(prog, f, path, doc, len, clients, nclients);
	else {
		fprintf(stderr, "%s: --html: out of memory\n", prog);
		fclose(f);
	}
	free(doc);
	return rv;
}
