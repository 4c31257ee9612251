/*
 * libFuzzer target for the --session-cookies jar (src/gen/cookie.c),
 * through its public API (gen/cookie.h) only.
 *
 * The input is a list of reply header lines separated by LF.  Each line
 * goes to cookie_jar_set() in a heap buffer of exactly its length (not
 * NUL-terminated) so that AddressSanitizer sees any read past it.  A line
 * that is exactly "!" clears the jar instead, and one that is exactly "?"
 * builds the Cookie header.  A model of the jar, written from the
 * contract in cookie.h, is kept alongside: every return value, count and
 * header must be what the model says, so the header holds exactly the
 * cookies that were set, nothing else, in first-set order, and its size is
 * bounded by what was set.  When the input's size is odd the header is
 * also built after every line.
 * Contract violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/cookie.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FZ_PREFIX	"Set-Cookie:"
#define FZ_PREFIX_LEN	(sizeof(FZ_PREFIX) - 1)

/* The model: "NAME=VALUE" strings, pointing into the input. */
struct fz_cookie {
	const char	*name;
	size_t		 nlen;
	const char	*value;
	size_t		 vlen;
};

struct fz_model {
	struct fz_cookie *c;
	size_t		 n;
	size_t		 cap;
};

static int
fz_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* The Cookie header's length for the model's cookies, per cookie.h. */
static size_t
fz_model_hdr_len(const struct fz_model *m, size_t n, size_t text)
{
	(void)m;
	return n == 0 ? 0 : strlen("Cookie: ") + text + (n - 1) * 2 + 2;
}

/* The bytes of "name=value" of every cookie of the model. */
static size_t
fz_model_text(const struct fz_model *m)
{
	size_t i, t = 0;

	for (i = 0; i < m->n; i++)
		t += m->c[i].nlen + 1 + m->c[i].vlen;
	return t;
}

/* What cookie_jar_set must do with the line, per cookie.h. */
static int
fz_model_set(struct fz_model *m, const char *line, size_t len)
{
	const char *p, *end, *semi, *eq, *ns, *ne, *vs, *ve;
	size_t i, text;

	if (len < FZ_PREFIX_LEN ||
	    strncasecmp(line, FZ_PREFIX, FZ_PREFIX_LEN) != 0)
		return 0;
	p = line + FZ_PREFIX_LEN;
	end = line + len;
	if ((semi = memchr(p, ';', (size_t)(end - p))) != NULL)
		end = semi;
	for (i = 0; i < (size_t)(end - p); i++)
		if (p[i] == '\0' || p[i] == '\r' || p[i] == '\n')
			return -1;
	if ((eq = memchr(p, '=', (size_t)(end - p))) == NULL)
		return -1;
	ns = p;
	ne = eq;
	while (ns < ne && fz_blank(*ns))
		ns++;
	while (ne > ns && fz_blank(ne[-1]))
		ne--;
	vs = eq + 1;
	ve = end;
	while (vs < ve && fz_blank(*vs))
		vs++;
	while (ve > vs && fz_blank(ve[-1]))
		ve--;
	if (ne == ns)
		return -1;
	text = fz_model_text(m);
	for (i = 0; i < m->n; i++) {
		if (m->c[i].nlen == (size_t)(ne - ns) &&
		    memcmp(m->c[i].name, ns, (size_t)(ne - ns)) == 0) {
			/* The limits: the jar stays as it is past them. */
			if (fz_model_hdr_len(m, m->n, text - m->c[i].vlen +
			    (size_t)(ve - vs)) > COOKIE_JAR_MAX_HEADER)
				return -2;
			m->c[i].value = vs;
			m->c[i].vlen = (size_t)(ve - vs);
			return 1;
		}
	}
	if (m->n >= COOKIE_JAR_MAX_COOKIES ||
	    fz_model_hdr_len(m, m->n + 1, text + (size_t)(ne - ns) + 1 +
	    (size_t)(ve - vs)) > COOKIE_JAR_MAX_HEADER)
		return -2;
	if (m->n == m->cap) {
		m->cap = m->cap == 0 ? 8 : m->cap * 2;
		if ((m->c = realloc(m->c, m->cap * sizeof(*m->c))) == NULL)
			abort();
	}
	m->c[m->n].name = ns;
	m->c[m->n].nlen = (size_t)(ne - ns);
	m->c[m->n].value = vs;
	m->c[m->n].vlen = (size_t)(ve - vs);
	m->n++;
	return 1;
}

/* Checks the jar's header against the model, byte by byte. */
static void
fz_check_header(struct cookie_jar *j, const struct fz_model *m,
    size_t set_bytes)
{
	const char *h, *p;
	size_t len, i, want;

	h = cookie_jar_header(j, &len);
	if (m->n == 0) {
		if (h != NULL || len != 0)
			abort();
		return;
	}
	if (h == NULL)
		abort();
	want = 8 + 2;
	for (i = 0; i < m->n; i++)
		want += m->c[i].nlen + 1 + m->c[i].vlen + (i > 0 ? 2 : 0);
	/* Bounded by what was set: never more than the lines fed in. */
	if (len != want || len > set_bytes + 10 + 2 * m->n)
		abort();
	if (memcmp(h, "Cookie: ", 8) != 0)
		abort();
	p = h + 8;
	for (i = 0; i < m->n; i++) {
		if (i > 0) {
			if (memcmp(p, "; ", 2) != 0)
				abort();
			p += 2;
		}
		if (memcmp(p, m->c[i].name, m->c[i].nlen) != 0)
			abort();
		p += m->c[i].nlen;
		if (*p++ != '=')
			abort();
		if (memcmp(p, m->c[i].value, m->c[i].vlen) != 0)
			abort();
		p += m->c[i].vlen;
	}
	if (memcmp(p, "\r\n", 2) != 0 || p + 2 != h + len)
		abort();
	/* Built on demand and cached: the same text until a change. */
	if (cookie_jar_header(j, &i) != h || i != len)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cookie_jar *j;
	struct fz_model m;
	const char *in = (const char *)data, *nl;
	char *line;
	size_t pos = 0, len, set_bytes = 0;
	int rv, want;

	memset(&m, 0, sizeof(m));
	j = cookie_jar_new();
	while (pos < size) {
		if ((nl = memchr(in + pos, '\n', size - pos)) != NULL)
			len = (size_t)(nl - (in + pos));
		else
			len = size - pos;
		if (len == 1 && in[pos] == '!') {
			cookie_jar_clear(j);
			m.n = 0;
			set_bytes = 0;
		} else if (len == 1 && in[pos] == '?') {
			fz_check_header(j, &m, set_bytes);
		} else {
			/* Exactly the line's bytes, so over-reads are caught. */
			if ((line = malloc(len != 0 ? len : 1)) == NULL)
				abort();
			memcpy(line, in + pos, len);
			rv = cookie_jar_set(j, line, len);
			free(line);
			/* The model keeps pointers into the input itself. */
			want = fz_model_set(&m, in + pos, len);
			if (rv != want)
				abort();
			if (rv == 1)
				set_bytes += len;
			if (cookie_jar_count(j) != m.n)
				abort();
			if (size % 2 == 1)
				fz_check_header(j, &m, set_bytes);
		}
		pos += len + 1;
	}
	fz_check_header(j, &m, set_bytes);
	cookie_jar_free(j);
	free(m.c);
	return 0;
}
