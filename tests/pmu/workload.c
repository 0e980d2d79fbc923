// SPDX-License-Identifier: GPL-2.0
/*
 * A workload of known size for the perf tool tests (tests/pmu/perf.t).
 *
 *   workload spin N      main -> outer -> work: N iterations of a
 *                        3-instruction loop in a function with a frame
 *   workload leaf N      main -> outer_leaf -> leaf_work: the same loop
 *                        in a leaf function, which has no frame of its
 *                        own (its return address stays in %o7)
 *   workload threads N   two threads, with N and 3N iterations; they
 *                        start once a line comes on stdin, so that perf
 *                        can attach to all three threads first
 *   workload team N M    two threads with work of different kinds,
 *                        started by a line on stdin as above: "spin"
 *                        runs work(N) through outer(); "stream" runs
 *                        stream(M): M loads, each a D-cache miss
 *                        (Documentation/driver.md's per-thread walkthrough);
 *                        with two CPUs or more, each on a CPU of its own
 *   workload pairs K N   K pairs of threads, one after the other, each
 *                        thread of a pair on a CPU of its own (with two
 *                        CPUs or more): both run work(N) through outer()
 *                        and exit together (tests/pmu/perf-threads.t)
 *   workload mix N M     main -> outer -> work(N), then stream(M): work
 *                        of known size in two functions, for address
 *                        filters (tests/pmu/addr-filter.t)
 *   workload ppid N      N getppid() system calls: kernel work of known
 *                        size in one kernel function, sys_getppid
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * work(n): 3n instructions in a register window of its own.  The CFI
 * directives are gcc's for a function with a window: perf record
 * --call-graph dwarf unwinds through it.
 */
long work(long n);
__asm__(".text\n"
	".align 4\n"
	".global work\n"
	".type work, #function\n"
	"work:\n"
	"	.cfi_startproc\n"
	"	save %sp, -96, %sp\n"
	"	.cfi_window_save\n"
	"	.cfi_register 15, 31\n"
	"	.cfi_def_cfa_register 30\n"
	"1:	subcc %i0, 1, %i0\n"
	"	bne 1b\n"
	"	 nop\n"
	"	ret\n"
	"	 restore %g0, 1, %o0\n"
	"	.cfi_endproc\n"
	".size work, . - work\n");

/* leaf_work(n): the same 3n instructions, in its caller's window */
long leaf_work(long n);
__asm__(".text\n"
	".align 4\n"
	".global leaf_work\n"
	".type leaf_work, #function\n"
	"leaf_work:\n"
	"	.cfi_startproc\n"
	"1:	subcc %o0, 1, %o0\n"
	"	bne 1b\n"
	"	 nop\n"
	"	retl\n"
	"	 mov 1, %o0\n"
	"	.cfi_endproc\n"
	".size leaf_work, . - leaf_work\n");

/*
 * stream(buf, m): m loads of one word from each STREAM_STRIDE bytes of
 * buf, wrapping around every STREAM_BYTES: 6 instructions an iteration.
 * With a stride no smaller than the D-cache line and a buffer larger
 * than the D-cache, every load misses (LRU).
 */
#define STREAM_STRIDE 16
#define STREAM_BYTES 65536
long stream(const long *buf, long m);
__asm__(".text\n"
	".align 4\n"
	".global stream\n"
	".type stream, #function\n"
	"stream:\n"
	"	save %sp, -96, %sp\n"
	"	set 0xfff0, %l2\n"		/* (STREAM_BYTES - 1) & -STREAM_STRIDE */
	"	mov 0, %l1\n"
	"1:	ld [%i0 + %l1], %l0\n"
	"	add %l1, 16, %l1\n"		/* STREAM_STRIDE */
	"	and %l1, %l2, %l1\n"
	"	subcc %i1, 1, %i1\n"
	"	bne 1b\n"
	"	 nop\n"
	"	ret\n"
	"	 restore %g0, 0, %o0\n"
	".size stream, . - stream\n");

static long stream_buf[STREAM_BYTES / sizeof(long)];

/* A caller of its own, so that call chains read work, outer, main */
__attribute__((noinline)) long outer(long n)
{
	return work(n) + 1;
}

/* leaf_work's caller, which a frame-pointer call chain cannot see */
__attribute__((noinline)) long outer_leaf(long n)
{
	return leaf_work(n) + 1;
}

/*
 * N from its decimal digits, with no branch on their values (atol has
 * some): two N of as many digits cost the same instructions.
 */
static long number(const char *s)
{
	long n = 0;

	for (; *s; s++)
		n = 10 * n + (*s - '0');
	return n;
}

static pthread_barrier_t start;

static void *thread_work(void *arg)
{
	pthread_barrier_wait(&start);
	outer((long)arg);
	return NULL;
}

static void *spin_thread(void *arg)
{
	pthread_setname_np(pthread_self(), "spin");
	pthread_barrier_wait(&start);
	outer((long)arg);
	return NULL;
}

static void *stream_thread(void *arg)
{
	pthread_setname_np(pthread_self(), "stream");
	pthread_barrier_wait(&start);
	stream(stream_buf, (long)arg);
	return NULL;
}

static pthread_barrier_t pair;

/* Both threads of a pair start together, and exit together. */
static void *pair_thread(void *arg)
{
	pthread_barrier_wait(&pair);
	outer((long)arg);
	pthread_barrier_wait(&pair);
	return NULL;
}

/*
 * Start a team thread on @cpu when there are two CPUs or more.  Sibling
 * threads that take turns on one CPU also trade their inherited perf
 * events (the kernel swaps the threads' equivalent contexts instead of
 * reprogramming the counters), so a sampling period begun in one thread
 * can end in the other: each thread on a CPU of its own keeps the split
 * of samples between them exact.
 */
static void team_thread(pthread_t *t, int cpu, void *(*fn)(void *), long arg)
{
	pthread_attr_t attr;
	cpu_set_t set;

	pthread_attr_init(&attr);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	if (pthread_create(t, &attr, fn, (void *)arg)) {
		perror("pthread_create");
		exit(1);
	}
	pthread_attr_destroy(&attr);
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? number(argv[2]) : 0;
	pthread_t a, b;
	char line[16];

	if (argc == 4 && !strcmp(argv[1], "team")) {
		pthread_barrier_init(&start, NULL, 3);
		team_thread(&a, 0, spin_thread, n);
		team_thread(&b, 1, stream_thread, number(argv[3]));
		if (!fgets(line, sizeof(line), stdin))
			return 1;
		pthread_barrier_wait(&start);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		return 0;
	}

	if (argc == 3 && !strcmp(argv[1], "spin"))
		return outer(n) != 2;
	if (argc == 3 && !strcmp(argv[1], "leaf"))
		return outer_leaf(n) != 2;
	if (argc == 4 && !strcmp(argv[1], "mix"))
		return outer(n) != 2 || stream(stream_buf, number(argv[3])) != 0;
	if (argc == 3 && !strcmp(argv[1], "ppid")) {
		for (; n > 0; n--)
			syscall(SYS_getppid);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "pairs")) {
		long k, m = number(argv[3]);

		pthread_barrier_init(&pair, NULL, 2);
		for (k = 0; k < n; k++) {
			team_thread(&a, 0, pair_thread, m);
			team_thread(&b, 1, pair_thread, m);
			pthread_join(a, NULL);
			pthread_join(b, NULL);
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "threads")) {
		pthread_barrier_init(&start, NULL, 3);
		pthread_create(&a, NULL, thread_work, (void *)n);
		pthread_create(&b, NULL, thread_work, (void *)(3 * n));
		if (!fgets(line, sizeof(line), stdin))
			return 1;
		pthread_barrier_wait(&start);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		return 0;
	}
	fprintf(stderr, "usage: workload spin N | leaf N | threads N | team N M | pairs K N | mix N M | ppid N\n");
	return 2;
}
