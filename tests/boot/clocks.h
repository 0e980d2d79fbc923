/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two clocks the clock tests of boot.t read: CLOCK_MONOTONIC (the
 * clocksource) and the task's own task-clock (sched_clock()).
 */
#ifndef CLOCKS_H
#define CLOCKS_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A task-clock counter of this task, read(2) gives its ns; -1 on error */
static inline int task_clock_open(void)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		perror("perf_event_open(task-clock)");
	return fd;
}

#endif
