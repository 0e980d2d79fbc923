// SPDX-License-Identifier: GPL-2.0
/*
 * The cache control register as a LEON3 boot loader sets it, D-cache
 * snooping between two CPUs, and cycles that do not depend on what else
 * is counted (pmu-full-timing, the default, which baremetal.t turns off
 * for the other tests' exact pipeline counts):
 *  - IB, DS and the cache states read back; ST (separate snoop tags) is
 *    set and read-only; reserved bits read 0;
 *  - a line read by CPU 1, written by CPU 0, read again by CPU 1: the
 *    second read misses with CPU 1's snooping on (CCR.DS), hits without;
 *  - CPU 1's shadow D-caches snoop by their own line: a store to the
 *    other half of a 32-byte line invalidates it in a shadow of 32-byte
 *    lines, not in the 16-byte lines of the D-cache and another shadow;
 *  - the cycles of a sweep are the same counted alone or beside a
 *    D-cache event, and include the miss penalties.
 *
 * Under -icount one thread runs the CPUs in turn, and a store invalidates
 * the other CPU's copy at once rather than through queued work (which
 * ended the storing CPU's turn): the second run checks that path.
 *
 * qemu-args: -smp 2 -global LEON3-sparc-cpu.pmu-full-timing=on -global LEON3-sparc-cpu.dcache-shadow=4kx1:8kx2/32/lrr
 * qemu-args: -smp 2 -global LEON3-sparc-cpu.pmu-full-timing=on -global LEON3-sparc-cpu.dcache-shadow=4kx1:8kx2/32/lrr -icount shift=5,sleep=off
 */
#include "baremetal.h"
#include "pmu.h"

#define EV_DRMISS	0x08
#define EV_SHADOW_RMISS(k)	(0x90 + 2 * (k))
#define NSHADOW		2	/* the shadows of qemu-args */

#define CCR_ON		0x0000000fu	/* ICS = DCS = 11 */
#define CCR_IF_DF	0x00000030u
#define CCR_IB		(1u << 16)
#define CCR_ST		(1u << 17)
#define CCR_DS		(1u << 23)
#define CCR_BOOT	(CCR_ON | CCR_IB | CCR_DS)

static u8 line[64] __attribute__((aligned(64)));
static u8 array[64 * 1024] __attribute__((aligned(64)));

/*
 * Handshake: CPU 0 sets cmd, CPU 1 answers with the same value in ack.
 * CPU 1 counts the read misses of its D-cache (counter 0) and of each
 * shadow k (counter 1 + k).
 */
static volatile u32 cmd, ack, snoop_on;
static volatile u32 first_miss[1 + NSHADOW], second_miss[1 + NSHADOW];
static u32 line_bytes[1 + NSHADOW];

static void test_ccr(void)
{
	sta_asi2(ASI2_CCTRL, 0xffffffffu);
	is_u32(lda_asi2(ASI2_CCTRL), CCR_BOOT | CCR_IF_DF | CCR_ST,
	       "cache control: every bit set reads back ICS, DCS, IF, DF, IB, DS and ST");
	sta_asi2(ASI2_CCTRL, 0);
	is_u32(lda_asi2(ASI2_CCTRL), CCR_ST, "cache control 0: ST stays (read-only)");
	sta_asi2(ASI2_CCTRL, CCR_BOOT);
	is_u32(lda_asi2(ASI2_CCTRL), CCR_BOOT | CCR_ST,
	       "cache control 0x%08x (a boot loader's): reads back with ST", CCR_BOOT);
}

static void count_misses(void)
{
	u32 i;

	for (i = 0; i <= NSHADOW; i++)
		sta_asi2(PMU_EVCTRL(i), CTRL_CLR | CTRL_EN | CTRL_SU |
			 (i ? EV_SHADOW_RMISS(i - 1) : EV_DRMISS));
}

/* One counted byte load of the line: the misses of each cache. */
static void read_line(volatile u32 *miss)
{
	u32 i;

	rsweep(PMU_GCTRL, GCTRL_EN, line, 1, 1);
	for (i = 0; i <= NSHADOW; i++)
		miss[i] = lda_asi2(PMU_EVCNT(i));
}

void secondary_main(unsigned int cpu)
{
	u32 seen = 0, i;

	if (cpu != 1)
		return;
	for (;;) {
		while (cmd == seen)
			;
		seen = cmd;
		sta_asi2(ASI2_CCTRL, CCR_ON | CCR_IB | (snoop_on ? CCR_DS : 0) | (1u << 22));
		/* The model runs from here (full timing): the caches start cold. */
		count_misses();
		read_line(first_miss);
		ack = seen;			/* the line is in CPU 1's D-cache */
		while (cmd == seen)		/* CPU 0 stores to it */
			;
		seen = cmd;
		count_misses();
		read_line(second_miss);
		for (i = 0; i <= NSHADOW; i++)	/* the model stops */
			sta_asi2(PMU_EVCTRL(i), 0);
		ack = seen;
	}
}

static const char *cache_name(u32 i)
{
	static const char *const name[] = { "D-cache", "shadow 0", "shadow 1" };

	return name[i];
}

/*
 * CPU 0 stores to byte @at of the line that CPU 1 has read; CPU 1 reads
 * byte 0 again.  Each cache's misses on that read in @miss.
 */
static int snoop_round(u32 on, u32 at, u32 *r, u32 *miss)
{
	u32 i;

	snoop_on = on;
	cmd = ++*r;
	if (!wait_for(ack == *r, WAIT_LONG))
		return ok(0, "CPU 1 reads the line (round %u)", *r);
	line[at] = 0x5a;		/* CPU 0 writes the line */
	cmd = ++*r;
	if (!wait_for(ack == *r, WAIT_LONG))
		return ok(0, "CPU 1 reads the line again (round %u)", *r);
	for (i = 0; i <= NSHADOW; i++) {
		is_u32(first_miss[i], 1, "CPU 1, snooping %s: its first read of the line misses "
		       "in its %s", on ? "on" : "off", cache_name(i));
		miss[i] = second_miss[i];
	}
	return 1;
}

static void test_snoop(void)
{
	u32 r = 0, miss[1 + NSHADOW], i, k, dcfg;

	if (smp_ncpus() < 2) {
		skip("D-cache snooping", "1 CPU");
		return;
	}
	line_bytes[0] = 4u << CFG_LSIZE(lda_asi2(ASI2_DCFG));
	ok(lda_asi2(PMU_FEATURES) & FEAT_SHADOW, "the PMU has shadow D-caches (FEATURES)");
	for (k = 0; k < NSHADOW; k++) {
		dcfg = lda_asi2(PMU_DSHADOW(k));
		ok(dcfg != 0, "shadow %u is configured (qemu-args): DSHADOW 0x%08x", k, dcfg);
		line_bytes[1 + k] = 4u << CFG_LSIZE(dcfg);
	}
	sta_asi2(ASI2_CCTRL, CCR_BOOT);
	start_cpu(1);
	/* byte 4: the same 16-byte line, and so the same 32-byte line */
	if (snoop_round(1, 4, &r, miss))
		for (i = 0; i <= NSHADOW; i++)
			is_u32(miss[i], 1, "snooping on: CPU 0's store invalidates the line, "
			       "CPU 1's next read misses in its %s", cache_name(i));
	if (snoop_round(0, 4, &r, miss))
		for (i = 0; i <= NSHADOW; i++)
			is_u32(miss[i], 0, "snooping off: CPU 1's copy stays valid, its next read "
			       "hits in its %s", cache_name(i));
	/* byte 20: another 16-byte line, the same 32-byte line */
	if (snoop_round(1, 20, &r, miss))
		for (i = 0; i <= NSHADOW; i++)
			is_u32(miss[i], line_bytes[i] == 32,
			       "snooping on, a store to byte 20: CPU 1's %s (%u-byte lines) %s",
			       cache_name(i), line_bytes[i],
			       line_bytes[i] == 32 ? "misses" : "hits");
}

/* Cycles of a sweep of one load per line over 64 KiB (every load misses). */
static u32 sweep_cycles(int with_cache_event)
{
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(0), with_cache_event ?
		 CTRL_CLR | CTRL_EN | CTRL_SU | EV_DRMISS : 0);
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
	sta_asi2(ASI2_CCTRL, CCR_BOOT | (3u << 21));	/* FI, FD: start cold */
	rsweep(PMU_GCTRL, GCTRL_EN, array, sizeof(array), 16);
	sta_asi2(PMU_EVCTRL(0), 0);
	return lda_asi2(PMU_CYCCNT);
}

static void test_full_timing(void)
{
	u32 lines = sizeof(array) / 16, alone, beside;

	alone = sweep_cycles(0);
	beside = sweep_cycles(1);
	is_u32(alone, beside, "cycles of a sweep: the same counted alone and beside a cache event");
	/*
	 * rsweep: mov, then per load ldub, add, cmp, bl (+1 after cmp), nop:
	 * 1 + 6k cycles; every 16-byte line misses (3 + 4 cycles, MMU off,
	 * and 3 more for the line's burst of 4 words), the loop's own code
	 * too (two lines: a fraction of a percent).
	 */
	ok(alone >= 1 + lines * (6 + 10) && alone <= 1 + lines * (6 + 10) + 100,
	   "cycles of that sweep include its %u misses: %u (6 + 10 a load)", lines, alone);
}

int main(void)
{
	test_ccr();
	test_snoop();
	test_full_timing();
	return 0;
}
