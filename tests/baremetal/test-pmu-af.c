// SPDX-License-Identifier: GPL-2.0
/*
 * Address ranges (AF, extension registers): a counter with AF counts
 * the events of the instructions whose PC lies in its [RANGE_LO,
 * RANGE_HI], every event: instructions and their cycles, I-cache misses
 * at the fetching instruction, D-cache accesses and misses, bus
 * transfers and hold cycles at the access, traps at the trapping
 * instruction.  The expected counts come from the code (loops whose
 * bodies are the ranges, code around them that is not) and the cache
 * geometry, read from the configuration registers.
 *
 * qemu-args:
 * qemu-args: -cpu LEON3,dcache-ways=4,dcache-way-kib=1,dcache-line=32,icache-ways=2,icache-way-kib=2,icache-line=16
 */
#include "baremetal.h"
#include "pmu.h"

#define PMU_FEATURES	0x100
#define FEAT_AF		(1u << 3)
#define CCTRL_ICS_ON	3u
#define CCTRL_DCS_ON	(3u << 2)

#define EV_IMISS	0x00
#define EV_IHOLD	0x02
#define EV_DRMISS	0x08
#define EV_DHOLD	0x0a
#define EV_INSN		0x11
#define EV_BRANCH	0x22
#define EV_IACCESS	0x80
#define EV_DREAD	0x81
#define EV_DWRITE	0x82
#define EV_DWMISS	0x83
#define EV_WOVF		0x84
#define EV_WUNF		0x85
#define EV_TRAPS	0x86
#define EV_BUSREAD	0x88
#define EV_BUSWRITE	0x89

/*
 * With the default memory timing (pmu-mem-latency 4, pmu-mem-burst 1)
 * and the MMU off, an I-cache miss holds the pipeline 3 + 4 cycles (the
 * rest of its line streams in, a word a cycle) and a D-cache miss 3 + 4
 * and one cycle for each further word of its line's burst.
 */
#define IMISS_CYCLES	7
#define DMISS_CYCLES	(7 + dline / 4 - 1)

/*
 * u32 ranged(gctrl, en, n): GCTRL = en; mov; n x (subcc, bne, nop); 4
 * more instructions after the loop (mov, add, add, add); GCTRL = 0.
 * af_body..af_last: the loop body, 3 instructions.
 *
 * dsweep(gctrl, en, base, bytes, stride): as loops.S's rsweep: GCTRL =
 * en; mov; ldub from base + i, i += stride, while i < bytes; GCTRL = 0.
 * ds_body..ds_last: the loop body, 5 instructions.  wsweep2: the same
 * with st (ws_body..ws_last).
 *
 * traps(gctrl, en, n): GCTRL = en; rec(n); GCTRL = 0, where rec(n)
 * nests n register windows: save, subcc, be, nop, call rec, nop at
 * every level but the last, ret, restore.  With more levels than
 * windows, rec's saves overflow and its restores underflow.
 */
asm(".text\n"
    ".align 64\n"
    ".global ranged, af_body, af_last\n"
    "ranged:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	%o2, %o4\n"
    "af_body:\n"
    "	subcc	%o4, 1, %o4\n"
    "	bne	af_body\n"
    "af_last:\n"
    "	 nop\n"
    "	mov	1, %o5\n"
    "	add	%o5, 1, %o5\n"
    "	add	%o5, 1, %o5\n"
    "	add	%o5, 1, %o5\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    ".align 64\n"
    ".global dsweep, ds_body, ds_last\n"
    "dsweep:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	0, %g1\n"
    "ds_body:\n"
    "	ldub	[%o2 + %g1], %o5\n"
    "	add	%g1, %o4, %g1\n"
    "	cmp	%g1, %o3\n"
    "	bl	ds_body\n"
    "ds_last:\n"
    "	 nop\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    ".align 64\n"
    ".global wsweep2, ws_body, ws_last\n"
    "wsweep2:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	0, %g1\n"
    "ws_body:\n"
    "	st	%g1, [%o2 + %g1]\n"
    "	add	%g1, %o4, %g1\n"
    "	cmp	%g1, %o3\n"
    "	bl	ws_body\n"
    "ws_last:\n"
    "	 nop\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    ".global traps, rec, rec_last\n"
    "traps:\n"
    "	save	%sp, -96, %sp\n"
    "	sta	%i1, [%i0] 2\n"
    "	call	rec\n"
    "	 mov	%i2, %o0\n"
    "	sta	%g0, [%i0] 2\n"
    "	ret\n"
    "	 restore\n"
    "rec:\n"
    "	save	%sp, -96, %sp\n"
    "	subcc	%i0, 1, %o0\n"
    "	be	1f\n"
    "	 nop\n"
    "	call	rec\n"
    "	 nop\n"
    "1:	ret\n"
    "rec_last:\n"
    "	 restore\n");

u32 ranged(u32 gctrl, u32 en, u32 n);
void dsweep(u32 gctrl, u32 en, void *base, u32 bytes, u32 stride);
void wsweep2(u32 gctrl, u32 en, void *base, u32 bytes, u32 stride);
void traps(u32 gctrl, u32 en, u32 n);
extern char af_body[], af_last[], ds_body[], ds_last[], ws_body[], ws_last[];
extern char rec[], rec_last[];

static u8 array[64 * 1024] __attribute__((aligned(64)));
static u32 dsize, dline, iline;

static void flush_caches(void)
{
	sta_asi2(ASI2_CCTRL, lda_asi2(ASI2_CCTRL) | 3u << 21);	/* FI, FD */
}

/*
 * I-cache misses a cold cache takes in [body, last] when the code from
 * @fn up to @body runs first: the lines of the range, but the line the
 * code before it fetched already.
 */
static u32 range_imisses(const char *fn, const char *body, const char *last)
{
	u32 first = (u32)body / iline, end = (u32)last / iline;

	if (body > fn && ((u32)body - 4) / iline == first)
		first++;
	return end >= first ? end - first + 1 : 0;
}

/* Counter c (0: cycles, 1 + i: EVCTRL[i]) counts @ev in [lo, hi] (or everywhere). */
static void count_in(int c, u32 ev, const char *lo, const char *hi)
{
	u32 af = lo ? CTRL_AF : 0;

	if (lo) {
		sta_asi2(PMU_RANGE_LO(c), (u32)lo);
		sta_asi2(PMU_RANGE_HI(c), (u32)hi);
	}
	if (c)
		sta_asi2(PMU_EVCTRL(c - 1), CTRL_CLR | CTRL_EN | CTRL_SU | af | ev);
	else
		sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU | af);
}

static u32 counter(int c)
{
	return lda_asi2(c ? PMU_EVCNT(c - 1) : PMU_CYCCNT);
}

static void all_off(void)
{
	int i;

	for (i = 0; i < PMU_NEV; i++)
		sta_asi2(PMU_EVCTRL(i), 0);
	sta_asi2(PMU_CYCCTRL, 0);
}

/* Instructions and their static events: the loop body of ranged() */
static void test_instructions(void)
{
	u32 n = 500, imiss;

	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_RANGE_LO(1), (u32)af_body);
	sta_asi2(PMU_RANGE_HI(1), (u32)af_last);
	is_u32(lda_asi2(PMU_RANGE_LO(1)), (u32)af_body, "RANGE_LO reads back");
	is_u32(lda_asi2(PMU_RANGE_HI(1)), (u32)af_last, "RANGE_HI reads back");

	count_in(1, EV_INSN, af_body, af_last);
	count_in(2, EV_INSN, af_last + 4, af_last + 12);	/* after the loop */
	count_in(3, EV_INSN, 0, 0);
	count_in(4, EV_BRANCH, af_body, af_last);
	count_in(5, EV_IACCESS, af_body, af_last);
	count_in(6, EV_IMISS, af_body, af_last);
	count_in(0, 0, af_body, af_last);
	flush_caches();
	ranged(PMU_GCTRL, GCTRL_EN, n);
	imiss = range_imisses((const char *)ranged, af_body, af_last);

	is_u32(counter(1), 3 * n, "AF: only the loop body's instructions (3 x %u)", n);
	is_u32(counter(2), 3, "AF: the 3 instructions in a range after the loop");
	is_u32(counter(3), 1 + 3 * n + 4, "without AF: every instruction");
	is_u32(counter(4), n, "AF: the loop's branches");
	is_u32(counter(5), 3 * n, "AF: an I-cache access per instruction in the range");
	is_u32(counter(6), imiss,
	       "AF: the I-cache misses of the body's own lines (%u-byte lines)", iline);
	/* subcc 1, bne 1 + 1 (after subcc), nop 1; and the misses' stalls */
	is_u32(counter(0), 4 * n + IMISS_CYCLES * imiss,
	       "AF on the cycle counter: the body's cycles, and its I-cache misses' stalls");
	all_off();
}

/*
 * Loads: every access of a line-stride sweep of half the D-cache misses,
 * and the range gets them all, their bus reads and their hold cycles.
 */
static void test_loads(void)
{
	u32 half = dsize / 2, k = half / dline;
	u32 imiss = range_imisses((const char *)dsweep, ds_body, ds_last);

	sta_asi2(PMU_GCTRL, 0);
	count_in(1, EV_DRMISS, ds_body, ds_last);
	count_in(2, EV_DREAD, ds_body, ds_last);
	count_in(3, EV_BUSREAD, ds_body, ds_last);
	count_in(4, EV_DHOLD, ds_body, ds_last);
	count_in(5, EV_IHOLD, ds_body, ds_last);
	count_in(6, EV_DRMISS, af_body, af_last);	/* code that loads nothing */
	count_in(0, 0, ds_body, ds_last);
	flush_caches();
	dsweep(PMU_GCTRL, GCTRL_EN, array, half, dline);

	is_u32(counter(1), k, "AF: the loop's %u loads, a D-cache miss each (%u-byte lines)",
	       k, dline);
	is_u32(counter(2), k, "AF: %u D-cache read accesses", k);
	is_u32(counter(3), k * (dline / 4) + imiss * (iline / 4),
	       "AF: bus reads, a line fill per D-cache miss and per I-cache miss (%u)", imiss);
	is_u32(counter(4), DMISS_CYCLES * k, "AF: the D-cache misses' hold cycles (%u-byte lines)",
	       dline);
	is_u32(counter(5), IMISS_CYCLES * imiss, "AF: the I-cache misses' hold cycles");
	is_u32(counter(6), 0, "AF on code that does not run: no misses");
	/* ldub 1, add 1, cmp 1, bl 1 + 1 (after cmp), nop 1 */
	is_u32(counter(0), 6 * k + DMISS_CYCLES * k + IMISS_CYCLES * imiss,
	       "AF on the cycle counter: the loop's cycles and its misses' stalls");
	all_off();
}

/* Stores: write-through, no write-allocate: each a bus write and a miss */
static void test_stores(void)
{
	u32 k = 64;

	sta_asi2(PMU_GCTRL, 0);
	count_in(1, EV_DWRITE, ws_body, ws_last);
	count_in(2, EV_DWMISS, ws_body, ws_last);
	count_in(3, EV_BUSWRITE, ws_body, ws_last);
	count_in(4, EV_DRMISS, ws_body, ws_last);
	count_in(5, EV_DWRITE, ds_body, ds_last);	/* the load loop's range */
	flush_caches();
	wsweep2(PMU_GCTRL, GCTRL_EN, array, k * dline, dline);

	is_u32(counter(1), k, "AF: %u D-cache write accesses", k);
	is_u32(counter(2), k, "AF: %u write misses (no write-allocate)", k);
	is_u32(counter(3), k, "AF: a bus write per store");
	is_u32(counter(4), 0, "AF: no read misses in a loop of stores");
	is_u32(counter(5), 0, "AF: no stores counted in another function's range");
	all_off();
}

/*
 * Traps at the trapping instruction: rec's saves and restores take
 * every window trap of the run, and the handlers' instructions are not
 * rec's.
 */
static void test_traps(void)
{
	u32 n = 20, ovf, unf;

	sta_asi2(PMU_GCTRL, 0);
	count_in(1, EV_WOVF, rec, rec_last);
	count_in(2, EV_WOVF, 0, 0);
	count_in(3, EV_WUNF, rec, rec_last);
	count_in(4, EV_WUNF, 0, 0);
	count_in(5, EV_TRAPS, rec, rec_last);
	count_in(6, EV_INSN, rec, rec_last);
	traps(PMU_GCTRL, GCTRL_EN, n);
	ovf = counter(2);
	unf = counter(4);

	ok(ovf > 0 && unf > 0, "%u nested windows: %u overflow and %u underflow traps", n, ovf, unf);
	is_u32(counter(1), ovf, "AF: every window overflow, at rec's save");
	is_u32(counter(3), unf, "AF: every window underflow, at rec's restore");
	is_u32(counter(5), ovf + unf, "AF: traps: the overflows and underflows");
	/* 8 instructions a level, 6 at the last; a trapping save runs again */
	is_u32(counter(6), 8 * (n - 1) + 6,
	       "AF: rec's own instructions exactly, none of the trap handlers'");
	all_off();
}

/*
 * Ranges that change and come back, as perf's multiplexing makes them:
 * QEMU keeps the blocks cut for each set of ranges a processor has had
 * (32 of them) and flushes them all when a new set finds no room.  Each
 * run must count with the ranges it runs under, whichever blocks serve.
 * @loop: the counter (1 or 2) whose range is the loop body; the other
 * one's is the 3 instructions after the loop.  Counter 3's is on data.
 */
static void run_set(u32 n, int loop, const char *data, const char *what)
{
	const char *after = af_last + 4, *after_end = af_last + 12;

	count_in(loop, EV_INSN, af_body, af_last);
	count_in(3 - loop, EV_INSN, after, after_end);
	count_in(3, EV_INSN, data, data + 60);
	ranged(PMU_GCTRL, GCTRL_EN, n);
	is_u32(counter(loop), 3 * n, "%s: counter %d, on the loop, its %u", what, loop, 3 * n);
	is_u32(counter(3 - loop), 3, "%s: counter %d, after the loop, 3", what, 3 - loop);
	is_u32(counter(3), 0, "%s: counter 3, on data, nothing", what);
	all_off();
}

static void test_range_sets(void)
{
	const char *data = (const char *)array;
	u32 k, wrong = 0;

	sta_asi2(PMU_GCTRL, 0);
	run_set(400, 1, data, "set A");
	run_set(401, 2, data, "set B, A's ranges swapped");
	run_set(402, 1, data, "set A again");
	/* 40 new sets: past the 32 QEMU keeps, so it flushes and starts again */
	for (k = 1; k <= 40; k++) {
		count_in(1, EV_INSN, af_body, af_last);
		count_in(2, EV_INSN, af_last + 4, af_last + 12);
		count_in(3, EV_INSN, data + 64 * k, data + 64 * k + 60);
		ranged(PMU_GCTRL, GCTRL_EN, 300 + k);
		if (counter(1) != 3 * (300 + k) || counter(2) != 3 || counter(3))
			wrong++;
		all_off();
	}
	is_u32(wrong, 0, "40 new sets of ranges, one after another: none counts wrong");
	run_set(403, 2, data, "set B after them");
	run_set(404, 1, data, "set A after them");
}

int main(void)
{
	u32 dcfg = lda_asi2(ASI2_DCFG);

	dline = 4u << CFG_LSIZE(dcfg);
	dsize = (CFG_SETS(dcfg) + 1) * (1024u << CFG_SSIZE(dcfg));
	iline = 4u << CFG_LSIZE(lda_asi2(ASI2_ICFG));
	diag("D-cache %u bytes, %u-byte lines; I-cache %u-byte lines", dsize, dline, iline);

	ok(lda_asi2(PMU_FEATURES) & FEAT_AF, "FEATURES advertises address ranges");
	sta_asi2(ASI2_CCTRL, CCTRL_ICS_ON | CCTRL_DCS_ON);
	test_instructions();
	test_loads();
	test_stores();
	test_traps();
	test_range_sets();
	sta_asi2(ASI2_CCTRL, 0);
	return 0;
}
