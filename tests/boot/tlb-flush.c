// SPDX-License-Identifier: GPL-2.0
/*
 * A TLB flush reaches the other CPUs (qemu-patches/0010): LEON SMP Linux
 * flushes only its own TLB when it changes a mapping and relies on the
 * flush reaching every CPU.  A reader thread on CPU 1 spins in user mode
 * on a page, so its TLB holds the page's translation; CPU 0 maps another
 * page of a file, with other contents, at the same address.  The reader
 * must then see the new contents, not the old page's (which the file
 * keeps, so that it cannot come back as the new one).  Each round prints
 * one "ok"/"not ok" line; exit status 0 only if all pass.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define ROUNDS 20
#define STOP 0xffffffffu

static volatile unsigned int *page;	/* the page whose mapping changes */
static volatile unsigned int step, seen;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(2);
	}
}

/*
 * CPU 1: at each odd step, read the page (through this CPU's TLB) and
 * answer with the next step; spin in user mode in between.
 */
static void *reader(void *arg)
{
	unsigned int s;

	pin(1);
	for (;;) {
		while (!((s = step) & 1))
			;
		if (s == STOP)
			return NULL;
		seen = page[0];
		__sync_synchronize();
		step = s + 1;
	}
}

static unsigned int ask_reader(unsigned int s)
{
	step = s;
	while (step != s + 1)
		;
	return seen;
}

/* Map page N of the file: anywhere, or (fixed) where the page was */
static void map_page(int fd, long size, int n, int fixed)
{
	void *want = fixed ? (void *)page : NULL;
	void *p = mmap(want, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | (fixed ? MAP_FIXED : 0), fd, n * size);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	page = p;
}

int main(void)
{
	const char *path = "/tmp/tlb-flush.pages";
	long size = sysconf(_SC_PAGESIZE);
	unsigned int got, want;
	int fd, round, failures = 0;
	pthread_t t;

	pin(0);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (ROUNDS + 1) * size)) {
		perror(path);
		return 2;
	}
	unlink(path);
	for (round = 0; round <= ROUNDS; round++) {
		want = 1000 + round;
		if (pwrite(fd, &want, sizeof(want), round * size) != sizeof(want)) {
			perror("pwrite");
			return 2;
		}
	}
	map_page(fd, size, 0, 0);
	if (pthread_create(&t, NULL, reader, NULL)) {
		perror("pthread_create");
		return 2;
	}
	for (round = 1; round <= ROUNDS; round++) {
		/* the reader loads the translation of the current page */
		ask_reader(4 * round - 3);
		map_page(fd, size, round, 1);
		want = 1000 + round;
		got = ask_reader(4 * round - 1);
		printf("%s - tlb: round %d: CPU 1 reads %u after CPU 0 remapped the page (want %u)\n",
		       got == want ? "ok" : "not ok", round, got, want);
		failures += got != want;
	}
	step = STOP;
	pthread_join(t, NULL);
	return failures ? 1 : 0;
}
