/*
 * --script F and --script-arg S: wrk's Lua scripts (src/script/).  The
 * file itself is read and judged at start-up by the script module; here
 * only what the command line alone says: the arguments in order, and a
 * build without LuaJIT refusing --script in one line.
 */
#include "config.h"

#include <stdio.h>

#include "lib/util.h"
#include "opt/options_int.h"

/* --script-arg S: one more argument of init(args), in order. */
int
opt_script_arg(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	struct options *o = c->o;

	(void)r;
	o->script_args = xreallocarray(o->script_args, o->n_script_args + 1,
	    sizeof(*o->script_args));
	o->script_args[o->n_script_args++] = arg;
	return 0;
}

/* Every --script-arg as given, each quoted. */
void
opt_echo_script_arg(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	size_t i;

	for (i = 0; i < o->n_script_args; i++)
		fprintf(out, " --%s='%s'", r->name, o->script_args[i]);
}

/*
 * --script: refused by a build without LuaJIT, and with --http2 (a
 * script's requests are HTTP/1.1 bytes) and a forward proxy without TLS
 * (its requests are origin-form, a proxy wants absolute URIs; through a
 * CONNECT tunnel they go as they are).  Its conflicts with --servers and
 * --wsesspage are rows of options_check.c's table.
 */
int
opt_check_script(const struct opt_ctx *c)
{
	const struct options *o = c->o;

	if (!c->given[OPT_SCRIPT])
		return 0;
#ifndef HAVE_LUAJIT
	(void)o;
	return opt_fail(c, &opt_table[OPT_SCRIPT], NULL, NULL,
	    "this httperf was built without Lua scripts (LuaJIT)");
#else
	if (o->http2)
		return opt_fail(c, &opt_table[OPT_SCRIPT], NULL, NULL,
		    "cannot be used with --http2 (a script's requests are "
		    "HTTP/1.1)");
	if ((c->given[OPT_PROXY] || c->given[OPT_PROXY_ENV]) && !o->ssl)
		return opt_fail(c, &opt_table[OPT_SCRIPT], NULL, NULL,
		    "through a proxy requires --ssl (a script's requests are "
		    "origin-form; a CONNECT tunnel carries them as they are)");
	return 0;
#endif
}
