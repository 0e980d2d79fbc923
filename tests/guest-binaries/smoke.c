// SPDX-License-Identifier: GPL-2.0
/*
 * Toolchain smoke test: built once for the host and once for the guest,
 * the two outputs must be identical.  It covers what a broken LEON3
 * toolchain gets wrong first: libgcc's 64-bit division, the FPU ABI
 * (doubles in registers and in varargs), and atomics (CASA) + pthreads.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4
#define NADDS 100000

static unsigned int counter;

static void *adder(void *arg)
{
	for (int i = 0; i < NADDS; i++)
		__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
	return arg;
}

/* Opaque to the optimiser, so the arithmetic happens at run time. */
static volatile uint64_t u64_a = 0xfedcba9876543210ULL, u64_b = 1000003;
static volatile int64_t s64_a = -0x123456789abcdefLL, s64_b = 977;
static volatile double d_a = 2.0, d_b = 3.0;

int main(void)
{
	pthread_t t[NTHREADS];
	unsigned int expect = 0;
	double h = 0.0;

	printf("u64: %" PRIu64 " %" PRIu64 "\n", u64_a / u64_b, u64_a % u64_b);
	printf("s64: %" PRId64 " %" PRId64 "\n", s64_a / s64_b, s64_a % s64_b);
	printf("shift: %" PRIx64 "\n", (u64_a << 13) ^ (u64_a >> 7));

	/* + - * / and sqrt are exactly rounded: same bits on any IEEE FPU. */
	for (int i = 1; i <= 1000; i++)
		h += 1.0 / i;
	printf("fp: %.17g %.17g %.17g\n", sqrt(d_a), d_a / d_b, h);
	printf("fp->int: %lld %d\n", (long long)(d_b * 1e15), (int)(-d_a * 1.75));

	for (int i = 0; i < NTHREADS; i++) {
		if (pthread_create(&t[i], NULL, adder, NULL)) {
			perror("pthread_create");
			return 1;
		}
		expect += NADDS;
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("threads: %u of %u\n", counter, expect);
	return counter == expect ? 0 : 1;
}
