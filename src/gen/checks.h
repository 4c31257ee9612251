/*
 * --check on a connection workload (--num-conns, --call-rate,
 * --concurrency, --wsess): every call gets the run's checks as its reply
 * spec (gen/svars.h), so its body is kept for them.  --wsesslog applies
 * them itself, after each request's own.
 */
#ifndef HTTPERF_GEN_CHECKS_H
#define HTTPERF_GEN_CHECKS_H

#include <stddef.h>

#include "gen/generator.h"

/* Its settings (gen_env.cfg). */
struct checks_config {
	const char *const *checks;	/* check= specs */
	size_t		 n;
};

extern const struct generator checks_generator;

#endif
