/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records of a perf event's ring buffer, as a program that maps it
 * reads them: the guest tools (tools/pidlog/pid-records.h) and the
 * guest test programs (tests/pmu/leon3_pmu_user.h) include this file.
 */
#ifndef LEON3_PERF_RING_H
#define LEON3_PERF_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

/*
 * The records of a ring buffer mapped at @base (the metadata page, then
 * @pages pages of data), from data_tail to the data_head read by
 * leon3_ring_begin().
 */
struct leon3_ring {
	struct perf_event_mmap_page *meta;
	const char *data;
	size_t size;
	__u64 off, head;
};

static inline void leon3_ring_begin(struct leon3_ring *r, void *base,
				    size_t pages)
{
	size_t page = sysconf(_SC_PAGESIZE);

	r->meta = base;
	r->data = (const char *)base + page;
	r->size = pages * page;
	r->head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	r->off = r->meta->data_tail;
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

/* Give the kernel back the space of every record up to data_head. */
static inline void leon3_ring_end(struct leon3_ring *r)
{
	__atomic_store_n(&r->meta->data_tail, r->head, __ATOMIC_RELEASE);
}

#endif
