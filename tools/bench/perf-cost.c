// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of tools/bench/perf-overhead.
 *
 *   perf-cost spin N         N iterations of a 3-instruction loop, then
 *                            "elapsed NS": the nanoseconds main() ran
 *   perf-cost irq N PERIOD   what one PMU overflow interrupt costs: the
 *                            kernel instructions and cycles of N loop
 *                            iterations with a user-only sampling event
 *                            of PERIOD instructions, minus those without
 *                            it, per sample (best of 3)
 *   perf-cost sample N PERIOD
 *                            N iterations under a user-only sampling
 *                            event of PERIOD cycles (the cycle counter,
 *                            so that the six others stay free to count
 *                            the interrupts' functions), then
 *                            "samples S"
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void spin(long n)
{
	long r;

	__asm__ __volatile__("mov %1, %0\n"
			     "1: subcc %0, 1, %0\n"
			     "bne 1b\n"
			     " nop\n" : "=&r" (r) : "r" (n) : "cc");
}

static int open_ev(uint64_t config, int kernel, uint64_t period)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_HARDWARE,
		.config = config,
		.exclude_user = kernel,
		.exclude_kernel = !kernel,
		.sample_period = period,
		.wakeup_events = 1 << 30,
	};

	return syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
}

static uint64_t rd(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* Kernel instructions and cycles of spin(n), with a sampler if @period */
static void measure(long n, uint64_t period, uint64_t *ins, uint64_t *cyc,
		    uint64_t *samples)
{
	int fi = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 1, 0);
	int fc = open_ev(PERF_COUNT_HW_CPU_CYCLES, 1, 0);
	int fs = -1;
	void *ring = MAP_FAILED;
	size_t len = 17 * sysconf(_SC_PAGESIZE);

	if (period) {
		fs = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, period);
		ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fs, 0);
	}
	if (fi < 0 || fc < 0 || (period && (fs < 0 || ring == MAP_FAILED))) {
		perror("perf-cost: perf_event_open");
		exit(1);
	}
	spin(n);
	*ins = rd(fi);
	*cyc = rd(fc);
	*samples = period ? rd(fs) / period : 0;
	if (ring != MAP_FAILED)
		munmap(ring, len);
	if (fs >= 0)
		close(fs);
	close(fi);
	close(fc);
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		spin(atol(argv[2]));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("elapsed %lld\n", (t1.tv_sec - t0.tv_sec) * 1000000000LL +
		       t1.tv_nsec - t0.tv_nsec);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "irq")) {
		long n = atol(argv[2]);
		uint64_t period = strtoull(argv[3], NULL, 0);
		double best_i = 1e18, best_c = 1e18;
		uint64_t i0, c0, i1, c1, s0, s1;
		int k;

		for (k = 0; k < 3; k++) {
			measure(n, 0, &i0, &c0, &s0);
			measure(n, period, &i1, &c1, &s1);
			if (!s1)
				continue;
			if ((double)(i1 - i0) / s1 < best_i)
				best_i = (double)(i1 - i0) / s1;
			if ((double)(c1 - c0) / s1 < best_c)
				best_c = (double)(c1 - c0) / s1;
		}
		printf("samples %llu per-interrupt kernel instructions %.0f cycles %.0f\n",
		       (unsigned long long)s1, best_i, best_c);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "sample")) {
		uint64_t period = strtoull(argv[3], NULL, 0);
		int fs = open_ev(PERF_COUNT_HW_CPU_CYCLES, 0, period);
		size_t len = 17 * sysconf(_SC_PAGESIZE);
		void *ring;

		ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fs, 0);
		if (fs < 0 || ring == MAP_FAILED) {
			perror("perf-cost: perf_event_open");
			return 1;
		}
		spin(atol(argv[2]));
		printf("samples %llu\n", (unsigned long long)(rd(fs) / period));
		return 0;
	}
	fprintf(stderr, "usage: perf-cost spin N | irq N PERIOD | sample N PERIOD\n");
	return 2;
}
