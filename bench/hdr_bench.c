/*
 * Micro-benchmark of the histogram's recording cost (`make bench-hdr'):
 * records N pseudo-random latencies spread log-uniformly over 1 us .. 10 s
 * (so the counts touched are spread as a real run's are, not one hot
 * line) and prints the nanoseconds per value, best of a few rounds.  The
 * values are generated into an array first so their cost is not counted.
 *
 * usage: hdr_bench [N]   (default 10,000,000)
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lib/hdr.h"

#define ROUNDS	5

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* xorshift64*: fixed seed, so every run records the same values. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

int
main(int argc, char **argv)
{
	struct hdr *h;
	uint64_t *v, seed = 42, t0, t1, best = UINT64_MAX, sink = 0;
	size_t n = 10000000, i;
	double e;

	if (argc > 1 && (n = strtoul(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: hdr_bench [N]\n");
		return 2;
	}
	if ((v = malloc(n * sizeof(*v))) == NULL) {
		fprintf(stderr, "hdr_bench: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		/* 10^3 .. 10^10 ns, log-uniform. */
		e = 3 + 7 * (double)(rnd(&seed) >> 11) / 9007199254740992.0;
		v[i] = (uint64_t)pow(10, e);
	}
	h = hdr_new_ns();
	for (int r = 0; r < ROUNDS; r++) {
		hdr_reset(h);
		t0 = now_ns();
		for (i = 0; i < n; i++)
			hdr_record(h, v[i]);
		t1 = now_ns();
		if (t1 - t0 < best)
			best = t1 - t0;
		sink += hdr_count(h);
	}
	printf("hdr_record: %.2f ns per value (%zu values, best of %d; "
	    "p50 %llu ns, p99 %llu ns, %llu recorded)\n",
	    (double)best / (double)n, n, ROUNDS,
	    (unsigned long long)hdr_value_at_percentile(h, 50),
	    (unsigned long long)hdr_value_at_percentile(h, 99),
	    (unsigned long long)sink);
	hdr_free(h);
	free(v);
	return 0;
}
