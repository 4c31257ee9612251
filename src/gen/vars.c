/*
 * One resolver and one value callback over --data's columns and a
 * session file's variables (see vars.h).
 */
#include "config.h"

#include "gen/data.h"
#include "gen/svars.h"
#include "gen/vars.h"

int
vars_resolve(void *arg, const char *name, size_t len)
{
	const struct vars *v = arg;
	int id = -1;

	if (v->data != NULL)
		id = data_resolve(v->data, name, len);
	if (id == -1 && v->sv != NULL &&
	    (id = svars_resolve(v->sv, name, len)) >= 0)
		id += VARS_SESSION;
	return id;
}

int
vars_value(void *arg, void *subject, uint64_t id, struct tmpl_buf *out)
{
	const struct vars *v = arg;

	if (id >= (uint64_t)VARS_SESSION)
		return v->sv == NULL ? -1 : svars_value(v->sv, subject,
		    id - (uint64_t)VARS_SESSION, out);
	return v->data == NULL ? -1 : data_value(v->data, subject, id, out);
}
