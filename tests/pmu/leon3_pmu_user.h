/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest test programs share: the leon3_pmu's perf type, a
 * loop of a known number of user instructions counted on an event,
 * (tools/include/perf-ring.h) a walk over the records of an event's ring
 * buffer, and a task's own read of its counter from the user window.
 */
#ifndef LEON3_PMU_USER_H
#define LEON3_PMU_USER_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
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

/*
 * A counting leon3_pmu event @config of the calling task (user mode only
 * with @user_only), enabled: its fd, or -1 with errno
 */
static inline int leon3_open_counting(unsigned long config, int user_only)
{
	struct perf_event_attr pe;

	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = leon3_pmu_type();
	pe.config = config;
	pe.exclude_kernel = user_only;
	return syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
}

/* The count of the event @fd, with read(); -1 if the read fails */
static inline long long leon3_read_count(int fd)
{
	long long c = -1;

	if (read(fd, &c, sizeof(c)) != sizeof(c))
		return -1;
	return c;
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
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	leon3_loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return leon3_read_count(fd);
}

/*
 * The PMU's user window (Documentation/driver.md): its address from
 * caps/user_window, or NULL (no window)
 */
static inline const volatile uint32_t *leon3_user_window(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/leon3_pmu/caps/user_window", "r");
	unsigned long a = 0;

	if (f) {
		if (fscanf(f, "%lx", &a) != 1)
			a = 0;
		fclose(f);
	}
	return (const volatile uint32_t *)a;
}

/*
 * An event's count read by the task itself, as perf's mmap page @pc
 * documents it (include/uapi/linux/perf_event.h): the page's lock,
 * index and offset, and word index - 1 of @window sign-extended from
 * pmc_width bits, again while the lock moved (counted in *@retries if
 * not NULL).  -1 where the task may not read the counter now.
 */
static inline long long leon3_user_read(volatile struct perf_event_mmap_page *pc,
					const volatile uint32_t *window, long *retries)
{
	uint32_t seq, idx;
	long long count;
	int64_t pmc;
	int tries = 0;

	do {
		if (tries++ && retries)
			(*retries)++;
		seq = pc->lock;
		__asm__ __volatile__("" : : : "memory");
		idx = pc->index;
		count = pc->offset;
		if (!pc->cap_user_rdpmc || !idx)
			return -1;
		pmc = window[idx - 1];
		pmc = (int64_t)((uint64_t)pmc << (64 - pc->pmc_width)) >>
		      (64 - pc->pmc_width);
		count += pmc;
		__asm__ __volatile__("" : : : "memory");
	} while (pc->lock != seq);
	return count;
}

#endif
