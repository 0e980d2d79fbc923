// SPDX-License-Identifier: GPL-2.0
/*
 * The trace unit's buffer for the bare-metal tests: TRACE_NPAGES
 * identity-mapped pages through a page table (define TRACE_NPAGES before
 * including), and its records in their logical order.
 */
#ifndef TRACE_H
#define TRACE_H

#include "baremetal.h"
#include "pmu.h"

#define PAGE		4096
#define RECSZ		16
#define ROOM		(TRACE_NPAGES * PAGE)
#define NEVER		0x80000000u	/* a watermark the head does not reach */

static u32 buf[TRACE_NPAGES][PAGE / 4] __attribute__((aligned(PAGE)));
static u32 table[TRACE_NPAGES];

/* Words: type, CPU and field A; field B; field C; the clock's low word */
struct rec {
	u32 w0, b, c, time;
};

/* Record @i of the buffer in its logical order (through the table) */
static inline const struct rec *rec(u32 i)
{
	u32 off = (i * RECSZ) % ROOM;

	return (const struct rec *)(table[off / PAGE] + off % PAGE);
}

/* @n records written, and nothing after them */
static inline void want_end(u32 n)
{
	is_u32(rec(n)->w0, 0, "record %u: nothing more", n);
	is_u32(lda_asi2(PMU_TRHEAD), n * RECSZ, "TRHEAD: %u records written", n);
}

/*
 * The unit off, its status and loss cleared; an empty buffer of @pages
 * of the pages, the head at @head, the limit at @limit, the watermark at
 * @wmark; the unit's interrupt enabled.
 */
static inline void trace_setup(u32 pages, u32 head, u32 limit, u32 wmark)
{
	u32 i;

	sta_asi2(PMU_TRCTRL, TRACE_CLR);
	sta_asi2(PMU_TRLOST, 0);
	memset(buf, 0, sizeof(buf));
	for (i = 0; i < TRACE_NPAGES; i++)
		table[i] = (u32)buf[i];
	sta_asi2(PMU_TRTABLE, (u32)table);
	sta_asi2(PMU_TRPAGES, pages);
	sta_asi2(PMU_TRHEAD, head);
	sta_asi2(PMU_TRLIMIT, limit);
	sta_asi2(PMU_TRWMARK, wmark);
	sta_asi2(PMU_OVF, OVF_TRACE);
}

#endif
