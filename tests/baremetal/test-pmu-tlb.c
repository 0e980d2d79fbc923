// SPDX-License-Identifier: GPL-2.0
/*
 * The TLB model behind events 0x01 (I-TLB misses) and 0x09 (D-TLB
 * misses).  The test turns the SRMMU on with an identity mapping (16 MiB
 * level-1 entries), then sweeps pages: the model's TLBs hold 4 KiB pages,
 * fully associative, LRU, 8 entries unless the qemu-args say otherwise.
 * Expected misses are worked out from the number of pages swept; an
 * address range (AF) on the sweep's loop gets every one of them.  Then
 * the LRU order after a hit on a page that is not the most recent, and a
 * long walk over pages in two MMU contexts against an LRU TLB worked out
 * by the test.
 *
 * qemu-args:
 * qemu-args: -cpu LEON3,dtlb-entries=16
 */
#include "baremetal.h"
#include "pmu.h"

#define EV_ITLB		0x01
#define EV_DTLB		0x09
#define ASI_MMUFLUSH	0x18
#define ASI_MMUREGS	0x19

static u32 ctxtab[256] __attribute__((aligned(1024)));
static u32 l1[256] __attribute__((aligned(1024)));
static u8 pages[40 * 4096] __attribute__((aligned(4096)));

static void sta_asi(u32 asi_19_or_18, u32 addr, u32 v)
{
	if (asi_19_or_18 == ASI_MMUREGS)
		asm volatile("sta %0, [%1] 0x19" : : "r"(v), "r"(addr) : "memory");
	else
		asm volatile("sta %0, [%1] 0x18" : : "r"(v), "r"(addr) : "memory");
}

static u32 lda_mmu(u32 addr)
{
	u32 v;

	asm volatile("lda [%1] 0x19, %0" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

/* A level-1 PTE mapping 16 MiB at @pa: ACC 3 (RWX), C as asked, ET 2. */
static u32 pte16m(u32 pa, int cacheable)
{
	return ((pa >> 12) << 8) | (cacheable ? 1u << 7 : 0) | (3u << 2) | 2;
}

static void mmu_on(void)
{
	int i;

	for (i = 0; i < 256; i++)
		l1[i] = 0;
	l1[0x40] = pte16m(0x40000000, 1);	/* RAM: this program */
	l1[0x80] = pte16m(0x80000000, 0);	/* the devices */
	ctxtab[0] = ((u32)l1 >> 4) | 1;		/* PDE */
	sta_asi(ASI_MMUREGS, 0x100, (u32)ctxtab >> 4);	/* context table */
	sta_asi(ASI_MMUREGS, 0x200, 0);			/* context 0 */
	sta_asi(ASI_MMUFLUSH, 0x400, 0);		/* flush all */
	sta_asi(ASI_MMUREGS, 0x000, lda_mmu(0x000) | 1);	/* enable */
}

/* rsweep2(): loops.S */


static u32 dmiss, imiss, dmiss_loop, dmiss_not_loop;

static void sweep_twice(u32 npages, u32 stride)
{
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_DTLB);
	sta_asi2(PMU_EVCTRL(1), CTRL_CLR | CTRL_EN | CTRL_SU | EV_ITLB);
	/* address ranges: rsweep's loop body, and the code before it */
	sta_asi2(PMU_RANGE_LO(3), (u32)rsweep_body);
	sta_asi2(PMU_RANGE_HI(3), (u32)rsweep_last);
	sta_asi2(PMU_EVCTRL(2), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | EV_DTLB);
	sta_asi2(PMU_RANGE_LO(4), (u32)rsweep);
	sta_asi2(PMU_RANGE_HI(4), (u32)rsweep_body - 4);
	sta_asi2(PMU_EVCTRL(3), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | EV_DTLB);
	sta_asi(ASI_MMUFLUSH, 0x400, 0);
	rsweep2(PMU_GCTRL, GCTRL_EN, pages, npages * 4096, stride);
	dmiss = lda_asi2(PMU_EVCNT(0));
	imiss = lda_asi2(PMU_EVCNT(1));
	dmiss_loop = lda_asi2(PMU_EVCNT(2));
	dmiss_not_loop = lda_asi2(PMU_EVCNT(3));
}

/*
 * A page in the TLB, accessed again at a line that is still in the
 * cache and the hit filter, is a hit that makes it the TLB's most
 * recent: the next miss evicts another page.  @n pages fill the TLB and
 * the first is accessed again; page n misses; the first page, at
 * another line, must still hit.  A model that took the filtered hit as
 * changing nothing would have evicted the first page instead.
 */
static u32 reorder_misses(int itlb, u32 n)
{
	u32 ev = itlb ? EV_ITLB : EV_DTLB;

	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | ev);
	if (itlb) {
		itlb_reorder(PMU_GCTRL, GCTRL_EN, n);
	} else {
		sta_asi(ASI_MMUFLUSH, 0x400, 0);
		dtlb_reorder(PMU_GCTRL, GCTRL_EN, pages, n);
	}
	return lda_asi2(PMU_EVCNT(0));
}

/*
 * A long walk over pages, in two MMU contexts, against an LRU TLB worked
 * out here.  Each step loads its word from the list (the list's page),
 * may switch the context, then loads from its page: pages a multiple of
 * 32 apart (which share a slot of QEMU's page map, LEON3TLB.map), lines
 * that the hit filter holds or not.
 */
#define WALK		1024
static u32 walk[WALK] __attribute__((aligned(4096)));

/* Access @tag in an LRU list, most recent first: 1 on a miss. */
static u32 lru_access(u32 *lru, u32 entries, u32 *used, u32 tag)
{
	u32 i, miss;

	for (i = 0; i < *used && lru[i] != tag; i++)
		;
	miss = i == *used;
	if (miss) {
		if (*used < entries)
			(*used)++;
		i = *used - 1;	/* an empty entry, or the least recently used */
	}
	for (; i > 0; i--)
		lru[i] = lru[i - 1];
	lru[0] = tag;
	return miss;
}

static u32 walk_misses(u32 entries)
{
	static u32 lru[64];
	u32 used = 0, misses = 0, ctx = 0, x = 12345, i;

	for (i = 0; i < WALK; i++) {
		u32 r, page, line;

		x = x * 1103515245u + 12345u;
		r = x >> 8;
		/* mostly a working set around the TLB's size, some far pages */
		page = (r & 7) ? r % (entries + 3) : 32 + r % 8;
		line = (r >> 12) & 3;
		if (((r >> 16) & 31) == 0)
			ctx ^= 1;
		walk[i] = ctx << 24 | page << 12 | line << 6;
	}
	for (ctx = 0, i = 0; i < WALK; i++) {
		u32 w = walk[i];

		misses += lru_access(lru, entries, &used, ctx << 20 | (u32)&walk[i] >> 12);
		ctx = w >> 24;
		misses += lru_access(lru, entries, &used,
				     ctx << 20 | ((u32)pages + (w & 0xffffff)) >> 12);
	}
	return misses;
}

int main(void)
{
	u32 ctrl = lda_mmu(0x000);
	u32 itlb = 1u << ((ctrl >> 21) & 7), dtlb = 1u << ((ctrl >> 18) & 7);
	u32 expect;

	diag("MMU control 0x%08x: I-TLB %u, D-TLB %u entries", ctrl, itlb, dtlb);
	ok(ctrl & (1u << 14), "MMU control register: separate I- and D-TLBs (ST)");
	sta_asi2(ASI2_CCTRL, 0xf);
	mmu_on();
	ok(lda_mmu(0x000) & 1, "the MMU is on, the program still runs");
	sta_asi(ASI_MMUREGS, 0x000, lda_mmu(0x000) & ~(0x3fu << 18));
	is_u32((lda_mmu(0x000) >> 18) & 0x3f, (ctrl >> 18) & 0x3f, "the TLB sizes are read-only");

	sweep_twice(dtlb, 4096);
	is_u32(dmiss, 0, "%u pages swept twice: the second sweep hits the D-TLB", dtlb);
	sweep_twice(dtlb + 1, 4096);
	is_u32(dmiss, dtlb + 1, "%u pages (one more than the TLB): LRU misses every page again",
	       dtlb + 1);
	sweep_twice(2 * dtlb, 1024);
	is_u32(dmiss, 2 * dtlb, "4 accesses per page over %u pages: one miss per page", 2 * dtlb);
	is_u32(imiss, 0, "the sweep's code stays in one page: no I-TLB miss the second time");
	is_u32(dmiss_loop, 2 * dtlb, "AF: every D-TLB miss, at the loop's load");
	is_u32(dmiss_not_loop, 0, "AF: none in the code before the loop");

	is_u32(reorder_misses(0, dtlb), dtlb + 1,
	       "D-TLB: a hit on a filtered line reorders the TLB (%u pages, page 0 again, one more)",
	       dtlb);
	is_u32(reorder_misses(1, itlb), itlb + 1,
	       "I-TLB: a fetch from a filtered line reorders the TLB (%u pages, page 0 again, one more)",
	       itlb);

	ctxtab[1] = ctxtab[0];			/* context 1: the same mapping */
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_DTLB);
	expect = walk_misses(dtlb);
	dtlb_walk(PMU_GCTRL, GCTRL_EN, pages, walk, WALK);
	is_u32(lda_asi2(PMU_EVCNT(0)), expect,
	       "D-TLB: a walk of %u steps over %u pages in 2 contexts misses as an LRU TLB",
	       WALK, dtlb + 12);

	sta_asi2(PMU_EVCTRL(0), 0);
	sta_asi2(PMU_EVCTRL(1), 0);
	sta_asi2(PMU_EVCTRL(2), 0);
	sta_asi2(PMU_EVCTRL(3), 0);
	sta_asi(ASI_MMUREGS, 0x000, lda_mmu(0x000) & ~1u);	/* MMU off */
	return 0;
}
