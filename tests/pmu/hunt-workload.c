// SPDX-License-Identifier: GPL-2.0
/*
 * A workload whose rare slow runs have known causes, for the rare-event
 * hunt (tools/leon3-hunt, tests/pmu/hunt.t):
 *
 *   hunt-workload hash N [OPTS]
 *                             inserts N keys in a hash table; every 7th
 *                             run (a count kept in /tmp/hunt-workload.runs)
 *                             starts the table small, so that it grows
 *                             (grow() rehashes every key) several times;
 *                             OPTS, a list: "crash", the 5th run of 7
 *                             aborts; "warn", the 3rd of 7 writes a
 *                             warning to the kernel log
 *   hunt-workload compete K B a competitor: forever, waits for a run to
 *                             count itself; when the run's number is 3
 *                             modulo K, spins of its own until that run
 *                             ends (B ms at most)
 *
 * The competitor keys on the run count and the run's process rather
 * than a timer, so that the runs it lands in do not depend on how fast
 * the host runs the guest.  How much of them it takes is the
 * scheduler's doing, in the guest's time: a LEON3's under leon3-hunt,
 * so not the host's either.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

struct table {
	unsigned long *slot;
	unsigned long size, used;
};

static unsigned long hash(unsigned long k)
{
	return k * 2654435761UL;
}

static void put(struct table *t, unsigned long k)
{
	unsigned long i = hash(k) & (t->size - 1);

	while (t->slot[i])
		i = (i + 1) & (t->size - 1);
	t->slot[i] = k;
	t->used++;
}

/* Twice the slots, every key rehashed: the rare slow part */
__attribute__((noinline)) void grow(struct table *t)
{
	unsigned long *old = t->slot, n = t->size, i;

	t->size *= 2;
	t->used = 0;
	t->slot = calloc(t->size, sizeof(*t->slot));
	if (!t->slot)
		exit(1);
	for (i = 0; i < n; i++)
		if (old[i])
			put(t, old[i]);
	free(old);
}

__attribute__((noinline)) void insert(struct table *t, unsigned long k)
{
	if (2 * (t->used + 1) > t->size)
		grow(t);
	put(t, k);
}

#define RUNS_FILE "/tmp/hunt-workload.runs"

/*
 * The number of runs so far, counted in a file across runs, and the
 * process of the last (in *@pid if not NULL)
 */
static long runs_so_far(pid_t *pid)
{
	FILE *f = fopen(RUNS_FILE, "r");
	long n = 0;
	int p = 0;

	if (f) {
		if (fscanf(f, "%ld %d", &n, &p) < 1)
			n = 0;
		fclose(f);
	}
	if (pid)
		*pid = p;
	return n;
}

/* This run's number; the file is replaced whole, for the competitor */
static long run_number(void)
{
	long n = runs_so_far(NULL) + 1;
	FILE *f = fopen(RUNS_FILE ".new", "w");

	if (f) {
		fprintf(f, "%ld %d\n", n, (int)getpid());
		fclose(f);
		rename(RUNS_FILE ".new", RUNS_FILE);
	}
	return n;
}

/* A line as the kernel's own warnings begin, for the hunt to find */
static void warn_kernel_log(long run)
{
	FILE *f = fopen("/dev/kmsg", "w");

	if (!f)
		return;
	fprintf(f, "WARNING: hunt-workload: run %ld warns on purpose\n", run);
	fclose(f);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "hash")) {
		long n = atol(argv[2]), k, run = run_number();
		struct table t = { .used = 0 };

		const char *opts = argc == 4 ? argv[3] : "";

		if (strstr(opts, "crash") && run % 7 == 5)
			abort();
		if (strstr(opts, "warn") && run % 7 == 3)
			warn_kernel_log(run);
		/* big enough from the start (a power of 2), but every 7th run */
		for (t.size = 16; run % 7 && t.size < 4 * (unsigned long)n;)
			t.size *= 2;
		t.slot = calloc(t.size, sizeof(*t.slot));
		if (!t.slot)
			return 1;
		for (k = 1; k <= n; k++)
			insert(&t, k);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "compete")) {
		long every = atol(argv[2]), burst = atol(argv[3]);
		volatile unsigned long spin = 0;
		char ev[sizeof(struct inotify_event) + NAME_MAX + 1];
		int fd = inotify_init();

		/* asleep until a run renames its count into place */
		if (every < 1 || fd < 0 || inotify_add_watch(fd, "/tmp", IN_MOVED_TO) < 0)
			return 2;
		while (read(fd, ev, sizeof(ev)) > 0) {
			double end;
			pid_t run;

			if (runs_so_far(&run) % every != 3 % every || run <= 0)
				continue;
			for (end = now_ms() + burst; now_ms() < end && !kill(run, 0);)
				spin++;
		}
		return 1;
	}
	fprintf(stderr, "usage: hunt-workload hash N [crash] | compete EVERY_K BURST_MS\n");
	return 2;
}
