// SPDX-License-Identifier: GPL-2.0
/*
 * The write buffer (Documentation/pmu-registers.md, "The write buffer"):
 * every store goes to the bus through it; a store waits for a place in
 * it, a load miss for it to be empty.  The expected cycles are worked
 * out here from the code and the memory timing that MEMTIME reports
 * (a buffer of d stores, a write of W cycles, B more for an STD's second
 * word, a read latency L), so that each qemu-args line is checked
 * against its own figures:
 *  - N stores T cycles apart, each a write of W: with a buffer, store k
 *    starts at max(kT, (k - d + 1)W) (the write of store k - d must have
 *    ended), so the N stores take max((N - 1)T, (N - d)W) cycles from
 *    the first to the last; without one, each waits for its write:
 *    (N - 1)(T + W) + W.  Bursts of ST (T = 2) and STD (T = 3, W + B),
 *    and stores in a loop (T = 7);
 *  - stores in one translation block alternately 7 and 2 cycles apart
 *    (stmix), worked out store by store (stores_sim()): a store that
 *    finds the buffer empty, then one that waits for its write; counted
 *    once with write_buffer_hold and once with dcache_hold alone;
 *  - a store, then a load that misses: the load waits for the buffer to
 *    be empty (W - 2 cycles after the store's 2), then for its line
 *    (3 + L); without a buffer the store waits for its write instead;
 *  - write_buffer_hold counts exactly the cycles the stores and loads
 *    waited, and dcache_hold counts them too.
 *
 * qemu-args:
 * qemu-args: -cpu LEON3,pmu-write-buffer=0
 * qemu-args: -cpu LEON3,pmu-write-buffer=2,pmu-mem-write=12,pmu-mem-burst=3
 * qemu-args: -cpu LEON3,pmu-write-buffer=4,pmu-mem-write=20,pmu-mem-latency=9
 * qemu-args: -cpu LEON3,pmu-mem-write=1,pmu-mem-burst=0
 * qemu-args: -cpu LEON3,pmu-mem-write=8
 * qemu-args: -icount shift=5,sleep=off
 */
#include "baremetal.h"
#include "pmu.h"

#define EV_IMISS	0x00
#define EV_IHOLD	0x02
#define EV_DRMISS	0x08
#define EV_DHOLD	0x0a
#define EV_WBHOLD	0x10
#define EV_BUSWRITE	0x89

#define CCTRL_ICS_ON	3u
#define CCTRL_DCS_ON	(3u << 2)

/*
 * The timing table: ST 2, STD 3, a read 3 + pmu-mem-latency (MMU off),
 * and a D-cache line fill pmu-mem-burst more for each further word
 */
#define CYC_ST		2
#define CYC_STD		3
#define CYC_MISS	3

#define NBURST		32
#define NMIX		8	/* stmix's pairs of stores */

/*
 * stburst(gctrl, en, base): GCTRL = en; NBURST x st %g0 to base + 16k;
 * GCTRL = 0.  stdburst: the same with std.
 * stmix(gctrl, en, base): GCTRL = en; NMIX x (st %g0 to base + 16k,
 * 5 nops, st %g0 to base + 16k + 8); GCTRL = 0: one translation block.
 * stld(gctrl, en, base, bytes, stride): GCTRL = en; mov; per iteration
 * st %g0 to base, ldub from base + i, add, cmp, bl, nop (8 cycles) while
 * i += stride < bytes; GCTRL = 0.
 */
asm(".text\n"
    ".align 64\n"
    ".global stburst, stdburst, stmix, stld\n"
    "stburst:\n"
    "	sta	%o1, [%o0] 2\n"
    "	.set	off, 0\n"
    "	.rept	32\n"
    "	st	%g0, [%o2 + off]\n"
    "	.set	off, off + 16\n"
    "	.endr\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    "stdburst:\n"
    "	sta	%o1, [%o0] 2\n"
    "	.set	off, 0\n"
    "	.rept	32\n"
    "	std	%g0, [%o2 + off]\n"
    "	.set	off, off + 16\n"
    "	.endr\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    "stmix:\n"
    "	sta	%o1, [%o0] 2\n"
    "	.set	off, 0\n"
    "	.rept	8\n"
    "	st	%g0, [%o2 + off]\n"
    "	nop; nop; nop; nop; nop\n"
    "	st	%g0, [%o2 + off + 8]\n"
    "	.set	off, off + 16\n"
    "	.endr\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    "stld:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	0, %g1\n"
    "1:	st	%g0, [%o2]\n"
    "	ldub	[%o2 + %g1], %o5\n"
    "	add	%g1, %o4, %g1\n"
    "	cmp	%g1, %o3\n"
    "	bl	1b\n"
    "	 nop\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n");

void stburst(u32 gctrl, u32 en, void *base);
void stdburst(u32 gctrl, u32 en, void *base);
void stmix(u32 gctrl, u32 en, void *base);
void stld(u32 gctrl, u32 en, void *base, u32 bytes, u32 stride);

static u8 array[16 * 1024] __attribute__((aligned(64)));

static u32 depth, wr, burst, lat, dline;

/* The counters: write buffer holds, D-cache holds, I-cache and D-cache misses */
enum { WBHOLD, DHOLD, IMISS, DRMISS, IHOLD, NEV };
static const u32 events[NEV] = { EV_WBHOLD, EV_DHOLD, EV_IMISS, EV_DRMISS, EV_IHOLD };
static u32 cnt[NEV], cycles;

/* Counters cleared and set up, GCTRL.EN clear: the routine sets it. */
static void start(void)
{
	int i;

	sta_asi2(PMU_GCTRL, 0);
	for (i = 0; i < NEV; i++)
		sta_asi2(PMU_EVCTRL(i), CTRL_CLR | CTRL_EN | CTRL_SU | events[i]);
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
}

static void stop(void)
{
	int i;

	for (i = 0; i < NEV; i++)
		cnt[i] = lda_asi2(PMU_EVCNT(i));
	cycles = lda_asi2(PMU_CYCCNT);
}

static void flush_dcache(void)
{
	sta_asi2(ASI2_CCTRL, lda_asi2(ASI2_CCTRL) | (1u << 22));	/* FD */
}

/* Cycles of n stores t apart, each a write of w, from the first to the last's start */
static u32 stores_span(u32 n, u32 t, u32 w)
{
	u32 bus = depth < n ? (n - depth) * w : 0;

	if (!depth)
		return (n - 1) * (t + w) + w;
	return bus > (n - 1) * t ? bus : (n - 1) * t;
}

/*
 * Stores issued @gap[k] cycles after the one before (without waiting),
 * each a write of @w, store by store: with a buffer of depth stores, a
 * store waits for a place (the write depth stores back has ended), and
 * its write starts when it is in and the write before it has ended;
 * without one, it waits for its own write.  The cycles from the first
 * store to the end of the last one's wait; *@waited: what they waited.
 */
static u32 stores_sim(const u32 *gap, u32 n, u32 w, u32 *waited)
{
	u32 ends[4] = { 0 };	/* the last depth writes' ends, oldest first */
	u32 now = 0, last = 0, held = 0, hold, place, k, i;

	for (k = 0; k < n; k++) {
		if (k)
			now += gap[k - 1];
		if (!depth) {
			last = (last > now ? last : now) + w;
			hold = last - now;
		} else {
			place = k >= depth ? ends[0] : 0;
			hold = place > now ? place - now : 0;
			last = (now + hold > last ? now + hold : last) + w;
			for (i = 0; i + 1 < depth; i++)
				ends[i] = ends[i + 1];
			ends[depth - 1] = last;
		}
		now += hold;
		held += hold;
	}
	*waited = held;
	return now;
}

/*
 * A burst of stores @fn, run twice: uncounted (but with the counters set
 * up, so that the cache model runs and caches its code), then counted,
 * with write_buffer_hold or (@wbhold clear) without it.  With @cached,
 * the lines it stores to are loaded first: the stores then hit lines the
 * model knows to be present, which QEMU's translated code counts without
 * calling the model (for a buffer of one store or none).
 */
static void run_burst(void (*fn)(u32, u32, void *), int cached, int wbhold)
{
	start();
	fn(PMU_GCTRL, 0, array);
	flush_dcache();
	if (cached)
		rsweep(PMU_GCTRL, 0, array, NBURST * 16, 16);
	start();
	if (!wbhold)
		sta_asi2(PMU_EVCTRL(WBHOLD), CTRL_CLR);
	fn(PMU_GCTRL, GCTRL_EN, array);
	stop();
}

/* NBURST stores @t cycles apart, each a write of @w */
static void test_burst(void (*fn)(u32, u32, void *), const char *what, int cached,
		       u32 t, u32 w)
{
	u32 want;

	run_burst(fn, cached, 1);
	/* ... then the last store's own cycles */
	want = stores_span(NBURST, t, w) + t;
	is_u32(cnt[IMISS], 0, "%s: the code is cached", what);
	is_u32(cycles, want, "%s: %u stores %u cycles apart, writes of %u cycles, buffer of %u",
	       what, NBURST, t, w, depth);
	is_u32(cnt[WBHOLD], want - NBURST * t, "%s: write_buffer_hold: what the stores waited",
	       what);
	is_u32(cnt[DHOLD], cnt[WBHOLD], "%s: dcache_hold counts the same cycles", what);
}

/*
 * stmix, once counting write_buffer_hold and dcache_hold, once
 * dcache_hold alone: the stores wait the same whatever counts their
 * waits.
 */
static void test_mix(int wbhold)
{
	const char *what = wbhold ? "" : ", dcache_hold alone";
	u32 gap[2 * NMIX], k, want, waited;

	for (k = 0; k < 2 * NMIX; k++)
		gap[k] = k % 2 ? CYC_ST : CYC_ST + 5;
	want = stores_sim(gap, 2 * NMIX, wr, &waited) + CYC_ST;
	run_burst(stmix, 0, wbhold);
	is_u32(cnt[IMISS], 0, "stores 7 and 2 cycles apart%s: the code is cached", what);
	is_u32(cycles, want, "stores 7 and 2 cycles apart%s: writes of %u cycles, buffer of %u",
	       what, wr, depth);
	is_u32(cnt[WBHOLD], wbhold ? waited : 0, "... write_buffer_hold: %s",
	       wbhold ? "what the stores waited" : "not counted");
	is_u32(cnt[DHOLD], waited, "... dcache_hold: what the stores waited");
}

/* Stores in a loop, 7 cycles apart (loops.S wsweep), to lines of their own */
static void test_loop(void)
{
	u32 n = 64, want;

	start();
	wsweep(PMU_GCTRL, 0, array, n * dline, dline);
	start();
	wsweep(PMU_GCTRL, GCTRL_EN, array, n * dline, dline);
	stop();
	/* mov; per store st, add, cmp, bl (+1 after cmp), nop */
	want = 1 + stores_span(n, 7, wr) + 7;
	is_u32(cycles, want, "stores in a loop, 7 cycles apart: %s", wr > 7 || !depth ?
	       "bound by the writes" : "no wait");
	is_u32(cnt[WBHOLD], want - 1 - 7 * n, "... write_buffer_hold");
}

/* A store, then a load that misses: the load's line fill waits for the write. */
static void test_load_after_store(void)
{
	u32 n = 64, iter, wait, want, fill;

	start();
	stld(PMU_GCTRL, 0, array, n * dline, dline);	/* the code in the I-cache */
	flush_dcache();
	start();
	stld(PMU_GCTRL, GCTRL_EN, array, n * dline, dline);
	stop();
	/* without a buffer the store waits; with one, the load (2 cycles later) */
	wait = !depth ? wr : (wr > CYC_ST ? wr - CYC_ST : 0);
	/* the fill: a burst of the line, each further word burst cycles */
	fill = CYC_MISS + lat + (dline / 4 - 1) * burst;
	iter = 8 + wait + fill;
	want = 1 + n * iter + cnt[IHOLD];
	is_u32(cnt[DRMISS], n, "store then load: every load misses (%u lines)", n);
	is_u32(cycles, want, "store then load miss: %u cycles per iteration (%u waiting)", iter,
	       wait);
	is_u32(cnt[WBHOLD], n * wait, "... write_buffer_hold: %u per iteration", wait);
	is_u32(cnt[DHOLD], n * (wait + fill), "... dcache_hold: the wait and the fill (%u)", fill);
}

int main(void)
{
	u32 m = lda_asi2(PMU_MEMTIME);

	ok(lda_asi2(PMU_FEATURES) & FEAT_MEMTIME, "FEATURES: the write buffer and MEMTIME");
	depth = MEMTIME_WBUF(m);
	wr = MEMTIME_WRITE(m);
	burst = MEMTIME_BURST(m);
	lat = MEMTIME_LAT(m);
	dline = 4u << CFG_LSIZE(lda_asi2(ASI2_DCFG));
	diag("MEMTIME 0x%08x: write buffer of %u, writes of %u + %u a further word, reads %u",
	     m, depth, wr, burst, lat);
	sta_asi2(PMU_MEMTIME, 0);
	is_u32(lda_asi2(PMU_MEMTIME), m, "MEMTIME is read-only");
	/* (stores_sim() holds at most 4 writes) */
	if (!ok(depth <= 4, "MEMTIME: a write buffer of 0 to 4 stores, as pmu-write-buffer"))
		return 0;
	sta_asi2(ASI2_CCTRL, CCTRL_ICS_ON | CCTRL_DCS_ON);

	test_burst(stburst, "ST burst to lines not cached", 0, CYC_ST, wr);
	test_burst(stburst, "ST burst to cached lines", 1, CYC_ST, wr);
	test_burst(stdburst, "STD burst to lines not cached", 0, CYC_STD, wr + burst);
	test_burst(stdburst, "STD burst to cached lines", 1, CYC_STD, wr + burst);
	test_mix(1);
	test_mix(0);
	test_loop();
	test_load_after_store();
	return 0;
}
