// SPDX-License-Identifier: GPL-2.0
/*
 * The cache model behind the PMU's cache events.  The geometry is read
 * from the ASI 0x02 configuration registers, so the same program checks
 * every geometry its qemu-args lines ask for; expected misses are worked
 * out here from the geometry and the access pattern:
 *  - reads sweeping an array that fits: one miss per line, then none;
 *  - an array twice the cache, swept twice: LRU misses every line again;
 *  - a stride of one line: every access a new line;
 *  - replacement in a full set: LRU's and LRR's victims;
 *  - stores: write-through, no write-allocate (a store miss leaves the
 *    line out, the next load misses), a store hit is a hit;
 *  - bypass-ASI loads are bus reads, not cache accesses;
 *  - code of a known number of lines: one I-cache miss per line, then
 *    none; every line again after other code took its sets, or after a
 *    flush (QEMU translates a block whose lines the cache holds without
 *    their lookups, and must translate it again once they leave); one
 *    I-cache access per instruction;
 *  - a disabled D-cache sees no accesses;
 *  - a D-cache miss holds the pipeline for the burst of its whole line,
 *    3 + pmu-mem-latency + (words - 1) * pmu-mem-burst; an I-cache miss
 *    streams, so only a burst slower than a cycle a word adds, for each
 *    word of the line after the missed one;
 *  - a counter that overflows on a miss inside a translated block
 *    interrupts, also under -icount.
 *
 * qemu-args:
 * qemu-args: -cpu LEON3,dcache-ways=4,dcache-way-kib=1,dcache-line=32,icache-ways=2,icache-way-kib=2,icache-line=16
 * qemu-args: -cpu LEON3,dcache-ways=1,dcache-way-kib=8,dcache-repl=lrr
 * qemu-args: -cpu LEON3,dcache-ways=4,dcache-way-kib=1,dcache-repl=lrr
 * qemu-args: -icount shift=5,sleep=off
 * qemu-args: -cpu LEON3,pmu-mem-latency=2,pmu-mem-burst=3,dcache-line=32
 */
#include "baremetal.h"
#include "pmu.h"

#define EV_IMISS	0x00
#define EV_IHOLD	0x02
#define EV_DRMISS	0x08
#define EV_IACCESS	0x80
#define EV_DREAD	0x81
#define EV_DWRITE	0x82
#define EV_DWMISS	0x83
#define EV_BUSREAD	0x88
#define EV_BUSWRITE	0x89
#define EV_INSN		0x11

#define CCTRL_ICS_ON	3u
#define CCTRL_DCS_ON	(3u << 2)

static u8 array[64 * 1024] __attribute__((aligned(64)));

static u32 dsize, dline, dways, iline;
static u32 latency, burst;		/* MEMTIME: the properties */

/* Cycles of a D-cache miss: a burst of the whole line */
static u32 dmiss_cycles(void)
{
	return 3 + latency + (dline / 4 - 1) * burst;
}

/* Cycles of an I-cache miss at word @offset of its line: it streams */
static u32 imiss_cycles(u32 offset)
{
	return 3 + latency + (burst > 1 ? (iline / 4 - 1 - offset) * (burst - 1) : 0);
}

static void flush_dcache(void)
{
	sta_asi2(ASI2_CCTRL, lda_asi2(ASI2_CCTRL) | (1u << 22));	/* FD */
}

static void flush_icache(void)
{
	sta_asi2(ASI2_CCTRL, lda_asi2(ASI2_CCTRL) | (1u << 21));	/* FI */
}

/* The sweeps: loops.S */

#define NEV	6
static const u32 events[NEV] = {
	EV_DRMISS, EV_DREAD, EV_BUSREAD, EV_IMISS, EV_DWMISS, EV_IHOLD
};
static u32 cnt[NEV], cycles;
enum { DRMISS, DREAD, BUSREAD, IMISS, DWMISS, IHOLD };

/* One sweep from @base with the counters counting events[] from zero. */
static void measure_at(void (*sweep)(u32, u32, void *, u32, u32), u8 *base, u32 bytes,
		       u32 stride)
{
	int i;

	sta_asi2(PMU_GCTRL, 0);
	for (i = 0; i < NEV; i++)
		sta_asi2(PMU_EVCTRL(i), CTRL_CLR | CTRL_EN | CTRL_SU | events[i]);
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
	sweep(PMU_GCTRL, GCTRL_EN, base, bytes, stride);
	for (i = 0; i < NEV; i++)
		cnt[i] = lda_asi2(PMU_EVCNT(i));
	cycles = lda_asi2(PMU_CYCCNT);
}

static void measure(void (*sweep)(u32, u32, void *, u32, u32), u32 bytes, u32 stride)
{
	measure_at(sweep, array, bytes, stride);
}

static u32 bus_fills(void)
{
	return cnt[DRMISS] * (dline / 4) + cnt[IMISS] * (iline / 4);
}

static void test_dcache_reads(void)
{
	u32 half = dsize / 2;

	flush_dcache();
	measure(rsweep, half, 4);
	is_u32(cnt[DRMISS], half / dline,
	       "D-cache: sweep of %u bytes (half the cache), stride 4: one miss per %u-byte line",
	       half, dline);
	is_u32(cnt[DREAD], half / 4, "D-cache: %u read accesses", half / 4);
	is_u32(cnt[BUSREAD], bus_fills(),
	       "bus reads: a line fill per D-cache miss (%u words) and I-cache miss (%u words)",
	       dline / 4, iline / 4);
	/*
	 * rsweep: mov, then per load ldub, add, cmp, bl (+1 after cmp), nop:
	 * 1 + 6k cycles, a line's burst per D-cache miss, and the I-cache
	 * misses' hold (where in their lines they missed is the code's).
	 */
	is_u32(cycles, 1 + 6 * (half / 4) + dmiss_cycles() * cnt[DRMISS] + cnt[IHOLD],
	       "cycles: the loop's, plus %u per D-cache miss (%u), plus the I-cache hold",
	       dmiss_cycles(), cnt[DRMISS]);
	if (burst <= 1)
		is_u32(cnt[IHOLD], imiss_cycles(0) * cnt[IMISS],
		       "I-cache hold: %u per miss (%u), wherever in the line it missed",
		       imiss_cycles(0), cnt[IMISS]);

	measure(rsweep2, half, 4);
	is_u32(cnt[DRMISS], 0, "D-cache: the same sweep twice in a row: no misses the second time");

	flush_dcache();
	measure(rsweep, half, dline);
	is_u32(cnt[DRMISS], half / dline, "D-cache: stride of one line: every access misses");
}

static void test_dcache_thrash(void)
{
	u32 big = 2 * dsize;

	flush_dcache();
	measure(rsweep2, big, 4);
	is_u32(cnt[DRMISS], big / dline,
	       "D-cache: array twice the cache (%u bytes) swept twice: every line misses again", big);
}

static void test_dcache_writes(void)
{
	u32 bytes = 64 * dline, rmiss;

	flush_dcache();
	measure(wsweep, bytes, dline);
	is_u32(cnt[DWMISS], 64, "store misses: 64 stores to uncached lines");
	/* back to back: the report's own loads could take a line out */
	measure(rsweep, bytes, dline);
	rmiss = cnt[DRMISS];
	measure(wsweep, bytes, dline);
	is_u32(rmiss, 64, "no write-allocate: loads of the stored lines miss");
	is_u32(cnt[DWMISS], 0, "stores to cached lines hit");
}

/*
 * Replacement in one set: lines a way apart, L0 .. Lw for w ways.  With
 * the set full of L0 .. Lw-1 and L0 just used again, Lw takes the place
 * of L0 under LRR (the first line placed is the first replaced) and of
 * L1 under LRU.  All back to back: the report's own loads could take a
 * line of the set.
 */
static void test_replacement(u32 repl)
{
	u32 way = dsize / dways, fill, touch, lw, l0, rest;

	if (dways < 2)
		return;
	flush_dcache();
	measure_at(rsweep, array, dways * way, way);
	fill = cnt[DRMISS];
	measure_at(rsweep, array, 1, way);
	touch = cnt[DRMISS];
	measure_at(rsweep, array + dways * way, 1, way);
	lw = cnt[DRMISS];
	measure_at(rsweep, array, 1, way);
	l0 = cnt[DRMISS];
	measure_at(rsweep, array + 2 * way, (dways - 2) * way, way);
	rest = cnt[DRMISS];
	is_u32(fill, dways, "replacement: %u lines a way apart fill their set", dways);
	is_u32(touch, 0, "... the first again: a hit");
	is_u32(lw, 1, "... one more line of the set: a miss");
	is_u32(l0, repl == 2, "... then the first line: %s", repl == 2 ?
	       "a miss (LRR replaced it, the first placed)" : "a hit (LRU replaced the second)");
	is_u32(rest, 0, "... the third to the last line: hits");
}

static void test_bypass(void)
{
	u32 n = 100;

	flush_dcache();
	measure(bsweep, 4 * n, 4);
	is_u32(cnt[DREAD], 0, "bypass-ASI loads are not D-cache accesses");
	is_u32(cnt[BUSREAD], n + bus_fills(), "... but one bus read each (%u), besides line fills", n);

	sta_asi2(ASI2_CCTRL, lda_asi2(ASI2_CCTRL) & ~(3u << 2));
	measure(rsweep, 1024, 4);
	sta_asi2(ASI2_CCTRL, lda_asi2(ASI2_CCTRL) | CCTRL_DCS_ON);
	is_u32(cnt[DREAD], 0, "D-cache disabled: no D-cache accesses");
	is_u32(cnt[BUSREAD], 256 + cnt[IMISS] * (iline / 4), "... every load a bus read");
}

/*
 * u32 codeblock(ctrl_addr, ctrl, cnt_addr): line-aligned; the enabling
 * store, 7 nops, 256 nops (a whole number of lines), then the reading
 * load: 263 instructions.  The lines: the store's (fetched before),
 * 256 * 4 / line of the block, and the load's.
 */
asm(".text\n"
    ".align 64\n"
    ".global codeblock\n"
    "codeblock:\n"
    "	sta	%o1, [%o0] 2\n"
    "	.rept 7\n"
    "	nop\n"
    "	.endr\n"
    "	.rept 256\n"
    "	nop\n"
    "	.endr\n"
    "	lda	[%o2] 2, %o0\n"
    "	retl\n"
    "	 nop\n");

u32 codeblock(u32 ctrl_addr, u32 ctrl, u32 cnt_addr);

/*
 * The same with nopblock() (loops.S: 1024 / line lines) and no PMU
 * write between the runs (a write makes QEMU forget which lines it
 * translated without their lookups): a counter on nopblock's range
 * alone, and the block run twice after each event.
 */
static void test_icache_unwritten(void)
{
	static const char *const after[3] = {
		"a cold block", "a flush (FI)", "16 KiB of other code took its sets",
	};
	u32 lines = 1024 / iline, n[7], i;

	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_RANGE_LO(1), (u32)nopblock);	/* range 1: EVCTRL(0) */
	sta_asi2(PMU_RANGE_HI(1), (u32)nopblock + 1020);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | EV_IMISS);
	flush_icache();
	sta_asi2(PMU_GCTRL, GCTRL_EN);
	n[0] = lda_asi2(PMU_EVCNT(0));
	for (i = 0; i < 3; i++) {
		if (i == 1)
			flush_icache();
		if (i == 2)
			icsweep();
		nopblock();
		n[2 * i + 1] = lda_asi2(PMU_EVCNT(0));
		nopblock();
		n[2 * i + 2] = lda_asi2(PMU_EVCNT(0));
	}
	sta_asi2(PMU_GCTRL, 0);
	for (i = 0; i < 3; i++) {
		is_u32(n[2 * i + 1] - n[2 * i], lines,
		       "I-cache, no PMU write between: after %s, every line of the block misses",
		       after[i]);
		is_u32(n[2 * i + 2] - n[2 * i + 1], 0, "... and then none");
	}
}

static void test_icache(void)
{
	u32 miss, again, cold;

	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(5), CTRL_EN | CTRL_SU | EV_DREAD);
	sta_asi2(PMU_GCTRL, GCTRL_EN);		/* the model runs from here */
	/* align: 64 >= any line, so the store's line holds the 7 nops */
	flush_icache();
	miss = codeblock(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_IMISS, PMU_EVCNT(0));
	again = codeblock(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_IMISS, PMU_EVCNT(0));
	/* 16-byte lines: the store's line holds 3 of the 7 nops, one more line */
	cold = 1024 / iline + 1 + (iline == 16);
	is_u32(miss, cold,
	       "I-cache: a cold block of %u lines of %u bytes (+ the load's line)", 1024 / iline, iline);
	is_u32(again, 0, "I-cache: the same block again: no misses (the cache holds it)");
	icsweep();
	is_u32(codeblock(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_IMISS, PMU_EVCNT(0)),
	       cold, "I-cache: the block after 16 KiB of other code took its sets: every line misses");
	flush_icache();
	is_u32(codeblock(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_IMISS, PMU_EVCNT(0)),
	       cold, "I-cache: the block after a flush (FI): every line misses");
	is_u32(codeblock(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_IMISS, PMU_EVCNT(0)),
	       0, "I-cache: ... and then none");
	is_u32(codeblock(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_IACCESS, PMU_EVCNT(0)),
	       263, "I-cache accesses: one per instruction");
	/* every line the block misses, it misses at its first word */
	flush_icache();
	is_u32(codeblock(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_IHOLD, PMU_EVCNT(0)),
	       cold * imiss_cycles(0),
	       "I-cache hold of the cold block: %u lines, %u cycles each (latency %u; %u words after the missed one, a burst of %u cycles a word)",
	       cold, imiss_cycles(0), latency, iline / 4 - 1, burst);
	sta_asi2(PMU_GCTRL, 0);
}

static volatile u32 irq_calls, irq_ovf, irq_cnt;

void irq_handler(unsigned int level)
{
	if (level != EIRQ) {
		ok(0, "unexpected interrupt %u", level);
		return;
	}
	irq_calls++;
	(void)mmio_read32(IRQMP_EXTACK(0));
	irq_ovf = lda_asi2(PMU_OVF);
	irq_cnt = lda_asi2(PMU_EVCNT(0));
}

/*
 * A counter one event before its wrap, with its interrupt enabled,
 * overflows on the first miss after the caches are flushed: for the
 * D-cache a load between nops, for the I-cache the first line of the
 * block after the store that enables the PMU.  The model sees both in a
 * helper inside a translated block, so that the interrupt is raised
 * there: under -icount (a qemu-args line) QEMU aborted on that ("Raised
 * interrupt while not in I/O function") until the model raised it when
 * the block ended, where the CPU takes it in any case.
 */
static void overflow_in_block(u32 event, const char *what)
{
	u32 line = lda_asi2(PMU_IRQLINE), v, i;

	irq_calls = 0;
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCNT(0), 0xffffffffu);
	sta_asi2(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | CTRL_IRQEN | event);
	mmio_write32(IRQMP_MASK(0), (1u << line) | (1u << EIRQ));
	flush_dcache();
	flush_icache();
	sta_asi2(PMU_GCTRL, GCTRL_EN);
	set_pil(0);
	asm volatile("nop\n\tnop\n\tld [%1], %0\n\tnop\n\tnop\n"
		     : "=r" (v) : "r" (array + 4096) : "memory");
	for (i = 0; i < 1000 && !irq_calls; i++)
		;
	set_pil(15);
	mmio_write32(IRQMP_MASK(0), 0);
	sta_asi2(PMU_GCTRL, GCTRL_IRQCLR);
	sta_asi2(PMU_EVCTRL(0), 0);

	is_u32(irq_calls, 1, "%s miss inside a block: one overflow interrupt", what);
	is_u32(irq_ovf, OVF_IRQ | OVF_EV(0), "%s miss inside a block: OVF shows counter 0 and the IRQ", what);
	is_u32(irq_cnt, 0, "%s miss inside a block: the counter stopped at the wrap", what);
}

int main(void)
{
	u32 dcfg = lda_asi2(ASI2_DCFG);

	dways = CFG_SETS(dcfg) + 1;
	dline = 4u << CFG_LSIZE(dcfg);
	dsize = dways * (1024u << CFG_SSIZE(dcfg));
	iline = 4u << CFG_LSIZE(lda_asi2(ASI2_ICFG));
	latency = MEMTIME_LAT(lda_asi2(PMU_MEMTIME));
	burst = MEMTIME_BURST(lda_asi2(PMU_MEMTIME));
	diag("D-cache %u ways x %u KiB, %u-byte lines; I-cache config 0x%08x; memory latency %u, burst %u",
	     dways, dsize / dways / 1024, dline, lda_asi2(ASI2_ICFG), latency, burst);
	sta_asi2(ASI2_CCTRL, CCTRL_ICS_ON | CCTRL_DCS_ON);

	test_dcache_reads();
	test_dcache_thrash();
	test_dcache_writes();
	test_replacement(CFG_REPL(dcfg));
	test_bypass();
	test_icache();
	test_icache_unwritten();
	overflow_in_block(EV_DRMISS, "D-cache");
	overflow_in_block(EV_IMISS, "I-cache");
	return 0;
}
