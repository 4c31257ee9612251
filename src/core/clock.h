/*
 * Monotonic time for the whole program: nanoseconds from CLOCK_MONOTONIC.
 * The loop reads the clock once per turn and passes that value down as
 * `now'; nothing else should call clock_now() on the hot path.
 */
#ifndef HTTPERF_CORE_CLOCK_H
#define HTTPERF_CORE_CLOCK_H

#include <stdint.h>

#define CLOCK_NS_PER_SEC	UINT64_C(1000000000)
#define CLOCK_NS_PER_MSEC	UINT64_C(1000000)
#define CLOCK_NS_PER_USEC	UINT64_C(1000)

/* Returns the current CLOCK_MONOTONIC time in nanoseconds. */
uint64_t	clock_now(void);

/*
 * Returns the wall clock (CLOCK_REALTIME) in nanoseconds since the epoch,
 * 0 if it is unknown or before 1970: only for stamping results (--json,
 * --hlog), never for measuring.
 */
uint64_t	clock_wall_now(void);

/* Converts seconds (may be fractional, >= 0) to nanoseconds, saturating. */
uint64_t	clock_from_sec(double sec);

/* Converts nanoseconds to seconds. */
double		clock_to_sec(uint64_t ns);

#endif
