// SPDX-License-Identifier: GPL-2.0
/*
 * ishadow-work P [align]: runs 12 KiB of straight code (3072 nops and
 * their return, line-aligned) P times, for tests/pmu/ishadow.t.  What an
 * I-cache misses of it follows from its geometry: every line of every
 * pass in a cache it does not fit (LRU or LRR, fewer ways than the
 * lines a set gets), only the cold ones where it fits.  With "align",
 * the passes start at a whole second of CLOCK_MONOTONIC: under QEMU
 * -icount at the same phase of the guest's timer ticks in every boot,
 * whatever the kernel did before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void code_12k(void);

asm(".text\n"
    ".balign 64\n"
    ".global code_12k\n"
    "code_12k:\n"
    "	.rept 3070\n"
    "	nop\n"
    "	.endr\n"
    "	retl\n"
    "	 nop\n");

int main(int argc, char **argv)
{
	long p, n = argc > 1 ? strtol(argv[1], NULL, 0) : 0;

	if (n <= 0 || (argc > 2 && strcmp(argv[2], "align"))) {
		fprintf(stderr, "usage: ishadow-work PASSES [align]\n");
		return 2;
	}
	if (argc > 2) {
		struct timespec t;
		int err;

		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_sec += 1;
		t.tv_nsec = 0;
		err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		if (err) {
			fprintf(stderr, "ishadow-work: clock_nanosleep: %s\n", strerror(err));
			return 2;
		}
	}
	for (p = 0; p < n; p++)
		code_12k();
	return 0;
}
