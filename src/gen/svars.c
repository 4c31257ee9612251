/*
 * Session variables and checks (see svars.h): the specs compiled at load,
 * the extraction and checking of a reply the core kept (call->rhead,
 * call->rbody), and the values kept per session.
 */
#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/call.h"
#include "core/sess.h"
#include "gen/session_int.h"
#include "gen/svars.h"
#include "lib/jsonpath.h"
#include "lib/util.h"

enum svars_kind {
	SV_X_HEADER,
	SV_X_JSON,
	SV_X_REGEX,
	SV_X_COOKIE,
	SV_C_STATUS,
	SV_C_BODY,
	SV_C_JSON,
	SV_C_HEADER,
};

struct svars_op {
	enum svars_kind	 kind;
	size_t		 var;		/* extract: the variable's id */
	char		*arg;		/* header or cookie name, TEXT */
	size_t		 arg_len;
	char		*want;		/* a check's VALUE */
	size_t		 want_len;
	char		 status[3];	/* check=status: digits or 'x' */
	struct jsonpath	 jp;
	regex_t		 re;
	int		 has_re;
};

static const char *const svars_xkinds[] = {
	[SV_X_HEADER] = "header", [SV_X_JSON] = "json",
	[SV_X_REGEX] = "regex", [SV_X_COOKIE] = "cookie",
};

/* Declares variable `name' (if new); returns its id. */
static size_t
svars_declare(struct svars *sv, const char *name, size_t len)
{
	int id = svars_resolve(sv, name, len);

	if (id >= 0)
		return (size_t)id;
	sv->names = xreallocarray(sv->names, sv->n + 1, sizeof(*sv->names));
	sv->names[sv->n] = xstrndup(name, len);
	return sv->n++;
}

int
svars_resolve(void *arg, const char *name, size_t len)
{
	const struct svars *sv = arg;
	size_t i;

	for (i = 0; i < sv->n; i++)
		if (strlen(sv->names[i]) == len &&
		    memcmp(sv->names[i], name, len) == 0)
			return (int)i;
	return -1;
}

/* Compiles "path" of a json op. */
static int
svars_json(struct svars_op *op, const char *s, size_t len, char *err,
    size_t errlen)
{
	char msg[128];
	size_t col;

	if (jsonpath_compile(&op->jp, s, len, msg, sizeof(msg), &col) == 0)
		return 0;
	snprintf(err, errlen, "path column %zu: %s", col, msg);
	return -1;
}

/* extract=NAME:KIND:ARG */
static int
svars_extract(struct svars *sv, struct svars_op *op, const char *s,
    char *err, size_t errlen)
{
	const char *c1 = strchr(s, ':'), *c2, *a;
	size_t i, k;
	int e;

	for (i = 0; s + i < (c1 != NULL ? c1 : s); i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (i > 0 && s[i] >= '0' && s[i] <= '9')))
			break;
	if (c1 == NULL || i == 0 || s + i != c1) {
		snprintf(err, errlen, "want NAME:KIND:ARG, NAME a letter or _ "
		    "then letters, digits or _");
		return -1;
	}
	if ((c2 = strchr(c1 + 1, ':')) == NULL)
		goto kind;
	for (k = 0; k < nitems(svars_xkinds); k++)
		if (strlen(svars_xkinds[k]) == (size_t)(c2 - c1 - 1) &&
		    memcmp(svars_xkinds[k], c1 + 1, (size_t)(c2 - c1 - 1)) == 0)
			break;
	if (k == nitems(svars_xkinds))
		goto kind;
	a = c2 + 1;
	if (*a == '\0') {
		snprintf(err, errlen, "empty %s", svars_xkinds[k]);
		return -1;
	}
	op->kind = (enum svars_kind)k;
	op->var = svars_declare(sv, s, i);
	switch (op->kind) {
	case SV_X_JSON:
		return svars_json(op, a, strlen(a), err, errlen);
	case SV_X_REGEX:
		if ((e = regcomp(&op->re, a, REG_EXTENDED)) != 0) {
			char msg[128];

			regerror(e, &op->re, msg, sizeof(msg));
			snprintf(err, errlen, "regex: %s", msg);
			return -1;
		}
		op->has_re = 1;
		return 0;
	default:
		op->arg = xstrdup(a);
		op->arg_len = strlen(a);
		return 0;
	}
kind:
	snprintf(err, errlen, "want KIND header, json, regex or cookie");
	return -1;
}

/* check=status:NNN (digits or x) */
static int
svars_status(struct svars_op *op, const char *a, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < 3 && a[i] != '\0'; i++)
		if (!((a[i] >= '0' && a[i] <= '9') || a[i] == 'x'))
			break;
	if (i != 3 || a[3] != '\0' ||
	    (a[0] != 'x' && (a[0] < '1' || a[0] > '5'))) {
		snprintf(err, errlen, "want status:NNN (100-599, x for any "
		    "digit)");
		return -1;
	}
	memcpy(op->status, a, 3);
	return 0;
}

/* check=KIND:ARG */
static int
svars_check(struct svars_op *op, const char *s, char *err, size_t errlen)
{
	const char *a, *sep;

	if (strncmp(s, "status:", 7) == 0) {
		op->kind = SV_C_STATUS;
		return svars_status(op, s + 7, err, errlen);
	}
	if (strncmp(s, "body:contains:", 14) == 0 && s[14] != '\0') {
		op->kind = SV_C_BODY;
		op->arg = xstrdup(s + 14);
		op->arg_len = strlen(s + 14);
		return 0;
	}
	if (strncmp(s, "json:", 5) == 0 &&
	    (sep = strchr(a = s + 5, '=')) != NULL) {
		op->kind = SV_C_JSON;
		op->want = xstrdup(sep + 1);
		op->want_len = strlen(sep + 1);
		return svars_json(op, a, (size_t)(sep - a), err, errlen);
	}
	if (strncmp(s, "header:", 7) == 0 &&
	    (sep = strchr(a = s + 7, ':')) != NULL && sep > a) {
		op->kind = SV_C_HEADER;
		op->arg = xstrndup(a, (size_t)(sep - a));
		op->arg_len = (size_t)(sep - a);
		op->want = xstrdup(sep + 1);
		op->want_len = strlen(sep + 1);
		return 0;
	}
	snprintf(err, errlen, "want status:NNN, body:contains:TEXT, "
	    "json:PATH=VALUE or header:NAME:VALUE");
	return -1;
}

/* Adds one op to `spec' from "x..." or "c...". */
static int
svars_add(struct svars *sv, struct svars_spec *spec, char k, const char *s,
    char *err, size_t errlen)
{
	struct svars_op *op;
	char msg[256];
	int rv;

	if (k == 'c' && spec->nchecks == SVARS_MAX_CHECKS) {
		snprintf(err, errlen, "more than %d checks", SVARS_MAX_CHECKS);
		return -1;
	}
	spec->ops = xreallocarray(spec->ops, spec->nops + 1,
	    sizeof(*spec->ops));
	op = &spec->ops[spec->nops++];
	memset(op, 0, sizeof(*op));
	rv = k == 'x' ? svars_extract(sv, op, s, msg, sizeof(msg)) :
	    svars_check(op, s, msg, sizeof(msg));
	if (rv == -1) {
		snprintf(err, errlen, "%s=%s: %s", k == 'x' ? "extract" :
		    "check", s, msg);
		return -1;
	}
	if (k == 'c') {
		spec->names = xreallocarray(spec->names, spec->nchecks + 1,
		    sizeof(*spec->names));
		spec->names[spec->nchecks++] = xstrdup(s);
	}
	if (op->kind == SV_X_JSON || op->kind == SV_X_REGEX ||
	    op->kind == SV_C_BODY || op->kind == SV_C_JSON)
		spec->keep_body = 1;
	if (op->kind == SV_X_HEADER || op->kind == SV_X_COOKIE ||
	    op->kind == SV_C_HEADER)
		spec->keep_head = 1;
	return 0;
}

int
svars_spec_compile(struct svars *sv, struct svars_spec *spec,
    const char *specs, size_t n, char *err, size_t errlen)
{
	size_t i;

	memset(spec, 0, sizeof(*spec));
	for (i = 0; i < n; i++) {
		if (svars_add(sv, spec, specs[0], specs + 1, err,
		    errlen) == -1)
			return -1;
		specs += strlen(specs) + 1;
	}
	for (i = 0; i < sv->global.nchecks; i++)
		if (svars_add(sv, spec, 'c', sv->global.names[i], err,
		    errlen) == -1)
			return -1;
	return 0;
}

int
svars_global(struct svars *sv, const char *const *checks, size_t n,
    char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (svars_add(sv, &sv->global, 'c', checks[i], err,
		    errlen) == -1)
			return -1;
	return 0;
}

void
svars_spec_free(struct svars_spec *spec)
{
	size_t i;

	for (i = 0; i < spec->nops; i++) {
		free(spec->ops[i].arg);
		free(spec->ops[i].want);
		jsonpath_free(&spec->ops[i].jp);
		if (spec->ops[i].has_re)
			regfree(&spec->ops[i].re);
	}
	for (i = 0; i < spec->nchecks; i++)
		free((char *)(uintptr_t)spec->names[i]);
	free(spec->ops);
	free(spec->names);
	memset(spec, 0, sizeof(*spec));
}

void
svars_clear(struct svars *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->names[i]);
	free(sv->names);
	svars_spec_free(&sv->global);
	memset(sv, 0, sizeof(*sv));
}

void
svars_free(struct svars *sv)
{
	if (sv == NULL)
		return;
	svars_clear(sv);
	free(sv);
}

void
svars_vals_free(struct svars_vals *vals)
{
	size_t i;

	if (vals == NULL)
		return;
	for (i = 0; i < vals->n; i++)
		free(vals->v[i].p);
	free(vals->v);
	free(vals->set);
	free(vals);
}

int
svars_value(void *arg, void *subject, uint64_t id, struct tmpl_buf *out)
{
	const struct call *call = subject;
	const struct svars_vals *vals;

	(void)arg;
	if (call->sess == NULL ||
	    (vals = session_of(call->sess)->vars) == NULL ||
	    id >= vals->n || !vals->set[id])
		return -1;
	tmpl_buf_add(out, vals->v[id].p, vals->v[id].len);
	return 0;
}

/*
 * Finds the `k'-th line (from `*pos') of the kept head whose header name
 * is `name' (any case): its value, trimmed of blanks, in *v and *vlen.
 * Returns 0, or -1 when there is no more.
 */
static int
svars_header(const struct tmpl_buf *h, size_t *pos, const char *name,
    size_t nlen, const char **v, size_t *vlen)
{
	const char *p, *e, *end;

	if (h->p == NULL)
		return -1;
	end = h->p + h->len;
	for (p = h->p + *pos; p < end; p = e + 2) {
		e = memmem(p, (size_t)(end - p), "\r\n", 2);
		if (e == NULL)
			return -1;
		*pos = (size_t)(e + 2 - h->p);
		if ((size_t)(e - p) <= nlen || p[nlen] != ':' ||
		    strncasecmp(p, name, nlen) != 0)
			continue;
		p += nlen + 1;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		*v = p;
		*vlen = (size_t)(e - p);
		return 0;
	}
	return -1;
}

/* The value of cookie `op->arg' among the Set-Cookie lines. */
static int
svars_cookie(const struct call *call, const struct svars_op *op,
    struct tmpl_buf *out)
{
	const char *v, *eq, *semi, *n, *ne;
	size_t pos = 0, vlen;

	while (svars_header(&call->rhead, &pos, "Set-Cookie", 10, &v,
	    &vlen) == 0) {
		semi = memchr(v, ';', vlen);
		if (semi != NULL)
			vlen = (size_t)(semi - v);
		if ((eq = memchr(v, '=', vlen)) == NULL)
			continue;
		for (n = v, ne = eq; ne > n && (ne[-1] == ' ' ||
		    ne[-1] == '\t'); ne--)
			;
		if ((size_t)(ne - n) != op->arg_len ||
		    memcmp(n, op->arg, op->arg_len) != 0)
			continue;
		for (v = eq + 1, vlen -= (size_t)(eq + 1 - n); vlen > 0 &&
		    (*v == ' ' || *v == '\t'); v++, vlen--)
			;
		while (vlen > 0 && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
			vlen--;
		tmpl_buf_add(out, v, vlen);
		return 0;
	}
	return -1;
}

/* POSIX ERE over the body (NUL-terminated by its buffer). */
static int
svars_regex(const struct call *call, const struct svars_op *op,
    struct tmpl_buf *out)
{
	const char *body = call->rbody.p != NULL ? call->rbody.p : "";
	regmatch_t m[2];
	int flags = 0, g = op->re.re_nsub > 0 ? 1 : 0;

	memset(m, 0, sizeof(m));
#ifdef REG_STARTEND
	/* Bytes after a NUL in the body are matched too. */
	m[0].rm_so = 0;
	m[0].rm_eo = (regoff_t)call->rbody.len;
	flags = REG_STARTEND;
#endif
	if (regexec(&op->re, body, 2, m, flags) != 0 || m[g].rm_so < 0)
		return -1;
	tmpl_buf_add(out, body + m[g].rm_so, (size_t)(m[g].rm_eo -
	    m[g].rm_so));
	return 0;
}

/* Runs extraction `op' into `out' (empty); returns 0 or -1. */
static int
svars_get(const struct call *call, const struct svars_op *op,
    struct tmpl_buf *out)
{
	const char *v;
	size_t pos = 0, vlen;

	switch (op->kind) {
	case SV_X_HEADER:
	case SV_C_HEADER:
		if (svars_header(&call->rhead, &pos, op->arg, op->arg_len, &v,
		    &vlen) == -1)
			return -1;
		tmpl_buf_add(out, v, vlen);
		return 0;
	case SV_X_COOKIE:
		return svars_cookie(call, op, out);
	case SV_X_JSON:
	case SV_C_JSON:
		if (call->body_over)
			return -1;
		return jsonpath_get(&op->jp, call->rbody.p != NULL ?
		    call->rbody.p : "", call->rbody.len, out);
	case SV_X_REGEX:
		if (call->body_over)
			return -1;
		return svars_regex(call, op, out);
	default:
		return -1;
	}
}

/* Does check `op' pass? */
static int
svars_pass(const struct call *call, const struct svars_op *op,
    struct tmpl_buf *tmp)
{
	unsigned s = call->status < 0 ? 0 : (unsigned)call->status % 1000;
	char st[3] = { (char)('0' + s / 100), (char)('0' + s / 10 % 10),
	    (char)('0' + s % 10) };
	int i;

	switch (op->kind) {
	case SV_C_STATUS:
		for (i = 0; i < 3; i++)
			if (op->status[i] != 'x' && op->status[i] != st[i])
				return 0;
		return 1;
	case SV_C_BODY:
		return !call->body_over && call->rbody.len >= op->arg_len &&
		    memmem(call->rbody.p, call->rbody.len, op->arg,
		    op->arg_len) != NULL;
	default:
		tmp->len = 0;
		return svars_get(call, op, tmp) == 0 &&
		    tmp->len == op->want_len &&
		    memcmp(tmp->p, op->want, op->want_len) == 0;
	}
}

/* The session's value table, made on first use. */
static struct svars_vals *
svars_vals_of(const struct svars *sv, struct call *call)
{
	struct session *ss = session_of(call->sess);
	struct svars_vals *vals = ss->vars;

	if (vals == NULL) {
		vals = ss->vars = xcalloc(1, sizeof(*vals));
		vals->n = sv->n;
		vals->v = xcalloc(sv->n, sizeof(*vals->v));
		vals->set = xcalloc(sv->n, 1);
	}
	return vals;
}

void
svars_reply(void *arg, struct call *call, uint64_t now)
{
	const struct svars *sv = arg;
	const struct svars_spec *spec = call->rspec;
	const struct svars_op *op;
	struct svars_vals *vals;
	struct tmpl_buf tmp;
	size_t i, c = 0;
	struct tmpl_buf *v;

	(void)now;
	memset(&tmp, 0, sizeof(tmp));
	call->check_names = spec->names;
	call->check_done = call->check_fail = 0;
	for (i = 0; i < spec->nops; i++) {
		op = &spec->ops[i];
		if (op->kind >= SV_C_STATUS) {
			call->check_done |= (uint64_t)1 << c;
			if (!svars_pass(call, op, &tmp))
				call->check_fail |= (uint64_t)1 << c;
			c++;
			continue;
		}
		if (call->sess == NULL || call->sess->owner == NULL)
			continue;
		vals = svars_vals_of(sv, call);
		v = &vals->v[op->var];
		v->len = 0;
		vals->set[op->var] = svars_get(call, op, v) == 0 &&
		    (v->len == 0 || (memchr(v->p, '\r', v->len) == NULL &&
		    memchr(v->p, '\n', v->len) == NULL &&
		    memchr(v->p, '\0', v->len) == NULL));
	}
	free(tmp.p);
}
