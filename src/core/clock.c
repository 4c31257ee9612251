/*
 * The program's only source of time: CLOCK_MONOTONIC in nanoseconds, and
 * the conversions to and from the seconds that options and reports use.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "core/clock.h"
#include "lib/util.h"

/*
 * CLOCK_MONOTONIC with a valid pointer cannot fail on any system we build
 * for; if it somehow does, every measurement would be garbage, so stop.
 */
uint64_t
clock_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		abort();
	return (uint64_t)ts.tv_sec * CLOCK_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t
clock_wall_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1 || ts.tv_sec < 0)
		return 0;
	return (uint64_t)ts.tv_sec * CLOCK_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Rounds to the nearest nanosecond; negative and NaN give 0. */
uint64_t
clock_from_sec(double sec)
{
	if (!(sec > 0.0))
		return 0;
	/* At or above 2^64 saturates. */
	return util_dtou64(sec * (double)CLOCK_NS_PER_SEC + 0.5);
}

double
clock_to_sec(uint64_t ns)
{
	return (double)ns / (double)CLOCK_NS_PER_SEC;
}
