// SPDX-License-Identifier: GPL-2.0
/*
 * The clocks run on through tick interrupts taken late
 * (kernel/patches/0011).  boot.t stops and continues QEMU from the host
 * while this runs, as a busy host does to a virtual CPU: the timer's
 * ticks then come more than a period late.  This does equal chunks of
 * work and, after each, reads CLOCK_MONOTONIC and its own task-clock
 * (sched_clock()).  Clocks counted from the ticks stepped back after
 * such a tick, and sched_clock() then stood still for up to a period
 * (4 ms), dozens of chunks: a short thread's task-clock read 0, and
 * perf stat printed "<not counted>".  A chunk takes tens of
 * microseconds, so each must advance both clocks.
 *
 * Usage: clock-late STOPS SECONDS: run until a second after the STOPS-th
 * gap of more than 50 ms (the host's stops), or for SECONDS by
 * CLOCK_MONOTONIC, whichever comes first: however slow the host is to
 * stop QEMU, the run lasts until it has.
 * Prints a TAP line per check; exit status 0 when all hold.
 */
#include <stdlib.h>

#include "clocks.h"

#define CHUNK_ITERS 10000

static int failed;

static void check(int cond, const char *what)
{
	printf("%sok - %s\n", cond ? "" : "not ", what);
	failed |= !cond;
}

int main(int argc, char **argv)
{
	volatile unsigned long sink = 0;
	uint64_t end, mono, last_mono, task, last_task;
	unsigned long n = 0, back = 0, mono_still = 0, task_still = 0;
	unsigned long run = 0, longest = 0, gaps = 0, stops;
	char what[160];
	int fd, i, settle = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: clock-late STOPS SECONDS\n");
		return 2;
	}
	stops = strtoul(argv[1], NULL, 0);
	fd = task_clock_open();
	if (fd < 0)
		return 1;

	last_mono = mono_ns();
	if (read(fd, &last_task, sizeof(last_task)) != sizeof(last_task)) {
		perror("read(task-clock)");
		return 1;
	}
	end = last_mono + strtoull(argv[2], NULL, 0) * 1000000000ULL;
	do {
		for (i = 0; i < CHUNK_ITERS; i++)
			sink += i;
		mono = mono_ns();
		if (read(fd, &task, sizeof(task)) != sizeof(task)) {
			perror("read(task-clock)");
			return 1;
		}
		n++;
		back += mono < last_mono;
		mono_still += mono == last_mono;
		/* more than 50 ms between two chunks: the host stopped us */
		gaps += mono - last_mono > 50000000 && mono > last_mono;
		if (task <= last_task) {
			task_still++;
			if (++run > longest)
				longest = run;
		} else {
			run = 0;
		}
		last_mono = mono;
		last_task = task;
		/* a second more, for the ticks after the last stop */
		if (gaps == stops && !settle) {
			settle = 1;
			if (mono + 1000000000ULL < end)
				end = mono + 1000000000ULL;
		}
	} while (mono < end);

	printf("# %lu chunks, %lu gaps of more than 50 ms (the host's stops)\n", n, gaps);
	snprintf(what, sizeof(what), "the host's %lu stops seen (gaps of more than 50 ms) within %s s",
		 stops, argv[2]);
	check(gaps >= stops, what);
	snprintf(what, sizeof(what), "CLOCK_MONOTONIC never went back (%lu times)", back);
	check(!back, what);
	snprintf(what, sizeof(what),
		 "CLOCK_MONOTONIC advanced over each chunk of work (stood still %lu of %lu)",
		 mono_still, n);
	check(!mono_still, what);
	snprintf(what, sizeof(what),
		 "task-clock (sched_clock()) advanced over each chunk of work (stood still %lu of %lu, %lu in a row)",
		 task_still, n, longest);
	check(!task_still, what);
	return failed;
}
