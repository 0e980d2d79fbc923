// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's own workloads (tools/sweep/leon3-sweep), whose cache
 * behaviour follows from the geometry:
 *
 *   sweep-workload stream KIB PASSES
 *       PASSES times: a load of every word of a KIB KiB buffer, and a
 *       store of every fourth word (one per 16 bytes) to a second one
 *       that is never read.  Read misses: the buffer's lines once if it
 *       fits the D-cache, every pass if it does not (LRU, a sequential
 *       sweep); write misses: every store (write-through, no allocation).
 *   sweep-workload chase KIB STEPS
 *       STEPS loads that follow a random cycle through the lines of a
 *       KIB KiB buffer: the same, without the sequential order.
 *   sweep-workload code KIB PASSES
 *       PASSES times: KIB KiB (1-64) of straight code, line-aligned.
 *       I-cache misses: its lines once if it fits the I-cache, every
 *       pass if it does not (LRU or LRR, more of its lines in each set
 *       than the set has ways).
 *   sweep-workload compete KIB
 *       a competitor: forever, the stream of KIB KiB, a pass at a time.
 *
 * The buffers are page-aligned and touched once before the measured
 * loop starts, so their page faults do not land in it.
 *
 * Built with -DALIGN_SECOND (tests/pmu/shadow.t), the measured loop
 * starts at a whole second of CLOCK_MONOTONIC: under QEMU -icount at the
 * same phase of the guest's timer ticks in every boot, whatever the
 * kernel did before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE_MAX_BYTES 32	/* the largest D-cache line (16 or 32) */

static unsigned long *buffer(long kib)
{
	unsigned long *b;

	if (kib < 1 || kib > 65536 || posix_memalign((void **)&b, 4096, kib * 1024)) {
		fprintf(stderr, "sweep-workload: cannot have a %ld KiB buffer\n", kib);
		exit(2);
	}
	memset(b, 0, kib * 1024);
	return b;
}

/* one pass: every word of @a loaded, every fourth stored to @w */
static __attribute__((noinline)) unsigned long pass(const unsigned long *a,
						      unsigned long *w, long words)
{
	unsigned long s = 0;
	long i;

	for (i = 0; i < words; i++) {
		s += a[i];
		if (!(i & 3))
			w[i] = s;
	}
	return s;
}

static void align_second(void)
{
#ifdef ALIGN_SECOND
	struct timespec t;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += 1;
	t.tv_nsec = 0;
	err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	if (err) {
		fprintf(stderr, "sweep-workload: clock_nanosleep: %s\n", strerror(err));
		exit(2);
	}
#endif
}

/*
 * 64 KiB of nops and their return: code_kib(k) runs the last k KiB of it
 * (1 <= k <= 64), from a line-aligned instruction to the return.
 */
#define CODE_KIB 64
void code_64k(void);
asm(".text\n"
    ".balign 1024\n"
    ".global code_64k\n"
    "code_64k:\n"
    "	.rept 16382\n"
    "	nop\n"
    "	.endr\n"
    "	retl\n"
    "	 nop\n");

static void code_kib(long kib)
{
	void (*f)(void) = (void (*)(void))((char *)code_64k + (CODE_KIB - kib) * 1024);

	f();
}

static __attribute__((noinline)) unsigned long chase(unsigned long *a, long steps)
{
	unsigned long i = 0;

	while (steps--)
		i = a[i];
	return i;
}

int main(int argc, char **argv)
{
	long kib = argc > 2 ? atol(argv[2]) : 0, n = argc > 3 ? atol(argv[3]) : 0;
	unsigned long *a, *w, s = 0;
	long words, i;

	if (argc == 4 && !strcmp(argv[1], "stream") && n > 0) {
		a = buffer(kib);
		w = buffer(kib);
		words = kib * 1024 / sizeof(*a);
		align_second();
		while (n--)
			s += pass(a, w, words);
	} else if (argc == 4 && !strcmp(argv[1], "chase") && n > 0) {
		long lines, stride = LINE_MAX_BYTES / sizeof(*a);
		unsigned long *order;

		a = buffer(kib);
		lines = kib * 1024 / LINE_MAX_BYTES;
		/* a random cycle through the lines (Sattolo's shuffle) */
		order = malloc(lines * sizeof(*order));
		if (!order)
			return 2;
		for (i = 0; i < lines; i++)
			order[i] = i;
		srand(1);
		for (i = lines - 1; i > 0; i--) {
			long j = rand() % i, t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (i = 0; i < lines; i++)
			a[order[i] * stride] = order[(i + 1) % lines] * stride;
		free(order);
		align_second();
		s = chase(a, n);
	} else if (argc == 4 && !strcmp(argv[1], "code") && n > 0 && kib >= 1 &&
		   kib <= CODE_KIB) {
		align_second();
		while (n--)
			code_kib(kib);
	} else if (argc == 3 && !strcmp(argv[1], "compete")) {
		a = buffer(kib);
		w = buffer(kib);
		words = kib * 1024 / sizeof(*a);
		for (;;)
			s += pass(a, w, words);
	} else {
		fprintf(stderr, "usage: sweep-workload stream KIB PASSES | chase KIB STEPS | "
			"code KIB(1-64) PASSES | compete KIB\n");
		return 2;
	}
	printf("%lu\n", s);
	return 0;
}
