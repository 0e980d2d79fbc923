/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest test programs share: the leon3_pmu's perf type, a
 * loop of a known number of user instructions counted on an event, and
 * (tools/include/perf-ring.h) a walk over the records of an event's ring
 * buffer.
 */
#ifndef LEON3_PMU_USER_H
#define LEON3_PMU_USER_H

#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* leon3_ring_*: the records of an event's ring buffer */
#include "../../tools/include/perf-ring.h"

/* The perf type of the PMU @name from sysfs, or -1 (none) */
static inline int leon3_pmu_type_of(const char *name)
{
	char path[128];
	FILE *f;
	int type = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &type) != 1)
			type = -1;
		fclose(f);
	}
	return type;
}

/* The leon3_pmu's perf type, or -1 (module not loaded) */
static inline int leon3_pmu_type(void)
{
	return leon3_pmu_type_of("leon3_pmu");
}

/* n iterations of subcc, bne, nop after a mov: 3n + 1 instructions */
static inline void leon3_loop(long n)
{
	long r;

	__asm__ __volatile__("mov %1, %0\n"
			     "1: subcc %0, 1, %0\n"
			     "bne 1b\n"
			     " nop\n" : "=&r" (r) : "r" (n) : "cc");
}

/* Count one loop of @n iterations on @fd (reset, enable, disable, read) */
static inline long long leon3_count_loop(int fd, long n)
{
	long long c = -1;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	leon3_loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &c, sizeof(c)) != sizeof(c))
		return -1;
	return c;
}

#endif
