// SPDX-License-Identifier: GPL-2.0
/*
 * The clock of CPU 1 runs while CPU 0 takes no interrupts
 * (kernel/patches/0010).  Run on CPU 1 while CPU 0 is held with its
 * interrupts off (boot.t loads lib/test_lockup.c there): it does equal
 * chunks of work and, after each, reads times() (jiffies, which only
 * CPU 0 advances: the tick is periodic), CLOCK_MONOTONIC and its own
 * task-clock (sched_clock()).  The longest run of chunks in which
 * times() stood still is the stall.  In it both clocks must advance at
 * least half as fast as they did, per chunk, outside it.  No more is
 * asked: both are the host's time, and a host that runs the chunks more
 * slowly while CPU 0 spins beside them (the two virtual CPUs share its
 * cores with whatever else it runs) stretches them, 2.3 times once.
 *
 * Usage: clock-stall SECONDS (how long to run, by CLOCK_MONOTONIC).
 * Prints a TAP line per check; exit status 0 when all hold.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <sys/times.h>

#include "clocks.h"

#define MAX_CHUNKS 200000
#define CHUNK_ITERS 20000

static clock_t jif[MAX_CHUNKS];
static uint64_t mono[MAX_CHUNKS], task[MAX_CHUNKS];

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int failed;

static void check(int cond, const char *what, double got)
{
	printf("%sok - %s (%.3f)\n", cond ? "" : "not ", what, got);
	failed |= !cond;
}

int main(int argc, char **argv)
{
	volatile unsigned long sink = 0;
	uint64_t end, *d, med, want_ns;
	struct tms tms;
	cpu_set_t cpus;
	size_t n = 0, i, j, a = 0, b = 0, nd = 0;
	int fd, back = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: clock-stall SECONDS\n");
		return 2;
	}
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("sched_setaffinity(CPU 1)");
		return 1;
	}
	fd = task_clock_open();
	if (fd < 0)
		return 1;

	end = mono_ns() + strtoull(argv[1], NULL, 0) * 1000000000ULL;
	while (n < MAX_CHUNKS) {
		for (i = 0; i < CHUNK_ITERS; i++)
			sink += i;
		jif[n] = times(&tms);
		mono[n] = mono_ns();
		if (read(fd, &task[n], sizeof(task[n])) != sizeof(task[n])) {
			perror("read(task-clock)");
			return 1;
		}
		if (n && mono[n] < mono[n - 1])
			back++;
		if (mono[n++] >= end)
			break;
	}

	/* The stall: the longest run of chunks [a, b] with one times(). */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && jif[j] == jif[i]; j++)
			;
		if (j - 1 - i > b - a) {
			a = i;
			b = j - 1;
		}
	}
	/* A chunk's time outside it: the median, robust to host noise */
	d = malloc(n * sizeof(*d));
	if (!d) {
		perror("malloc");
		return 1;
	}
	for (i = 1; i < n; i++)
		if ((i <= a || i > b) && mono[i] > mono[i - 1])
			d[nd++] = mono[i] - mono[i - 1];
	if (nd < 10) {
		printf("not ok - too few chunks outside the stall (%zu of %zu)\n", nd, n);
		return 1;
	}
	qsort(d, nd, sizeof(*d), cmp_u64);
	med = d[nd / 2];
	want_ns = (b - a) * med;
	printf("# %zu chunks of %llu ns; times() stood still for chunks %zu-%zu: %llu ms of work\n",
	       n, (unsigned long long)med, a, b, (unsigned long long)(want_ns / 1000000));
	printf("# in it: CLOCK_MONOTONIC %+lld ns, task-clock %+lld ns\n",
	       (long long)(mono[b] - mono[a]), (long long)(task[b] - task[a]));

	check(want_ns >= 300000000, "CPU 0 stood still (jiffies) for 300 ms of CPU 1's work or more",
	      want_ns / 1e9);
	check(!back, "CLOCK_MONOTONIC never went back on CPU 1", back);
	check(mono[b] - mono[a] >= want_ns / 2,
	      "CLOCK_MONOTONIC ran on CPU 1 meanwhile, at least 0.5x the time of its work",
	      (double)(int64_t)(mono[b] - mono[a]) / want_ns);
	check(task[b] - task[a] >= want_ns / 2,
	      "task-clock (sched_clock) ran on CPU 1 meanwhile, at least 0.5x the time of its work",
	      (double)(int64_t)(task[b] - task[a]) / want_ns);
	return failed;
}
