/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest test programs share: the leon3_pmu's perf type, a
 * loop of a known number of user instructions counted on an event, and
 * a walk over the records of an event's ring buffer.
 */
#ifndef LEON3_PMU_USER_H
#define LEON3_PMU_USER_H

#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

/*
 * The records of a ring buffer mapped at @base (the metadata page, then
 * @pages pages of data), from data_tail to the data_head read by
 * leon3_ring_begin().
 */
struct leon3_ring {
	const char *data;
	size_t size;
	__u64 off, head;
};

static inline void leon3_ring_begin(struct leon3_ring *r, void *base,
				    size_t pages)
{
	struct perf_event_mmap_page *meta = base;
	size_t page = sysconf(_SC_PAGESIZE);

	r->data = (const char *)base + page;
	r->size = pages * page;
	r->head = meta->data_head;
	r->off = meta->data_tail;
	__sync_synchronize();	/* data_head before the data it covers */
}

/* Copy @n bytes at @off of the data to @dst: a record may wrap around */
static inline void leon3_ring_copy(const struct leon3_ring *r, void *dst,
				   __u64 off, size_t n)
{
	size_t at = off % r->size, first = n < r->size - at ? n : r->size - at;

	memcpy(dst, r->data + at, first);
	memcpy((char *)dst + first, r->data, n - first);
}

/*
 * The next record, copied to @rec (up to @max bytes of it, @max at least
 * a header's): its header, or NULL after the last record (or at one that
 * would reach past data_head, which a sound buffer never has).
 */
static inline struct perf_event_header *
leon3_ring_next(struct leon3_ring *r, void *rec, size_t max)
{
	struct perf_event_header *h = rec;

	if (r->off + sizeof(*h) > r->head)
		return NULL;
	leon3_ring_copy(r, h, r->off, sizeof(*h));
	if (h->size < sizeof(*h) || r->off + h->size > r->head)
		return NULL;
	leon3_ring_copy(r, h + 1, r->off + sizeof(*h),
			(h->size < max ? h->size : max) - sizeof(*h));
	r->off += h->size;
	return h;
}

#endif
