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
 *  - the cycles of a sweep are the same counted alone or beside a
 *    D-cache event, and include the miss penalties.
 *
 * Under -icount one thread runs the CPUs in turn, and a store invalidates
 * the other CPU's copy at once rather than through queued work (which
 * ended the storing CPU's turn): the second run checks that path.
 *
 * qemu-args: -smp 2 -global LEON3-sparc-cpu.pmu-full-timing=on
 * qemu-args: -smp 2 -global LEON3-sparc-cpu.pmu-full-timing=on -icount shift=5,sleep=off
 */
#include "baremetal.h"
#include "pmu.h"

#define EV_DRMISS	0x08

#define CCR_ON		0x0000000fu	/* ICS = DCS = 11 */
#define CCR_IF_DF	0x00000030u
#define CCR_IB		(1u << 16)
#define CCR_ST		(1u << 17)
#define CCR_DS		(1u << 23)
#define CCR_BOOT	(CCR_ON | CCR_IB | CCR_DS)

static u8 line[64] __attribute__((aligned(64)));
static u8 array[64 * 1024] __attribute__((aligned(64)));

/* Handshake: CPU 0 sets cmd, CPU 1 answers with the same value in ack. */
static volatile u32 cmd, ack, snoop_on, first_miss, second_miss;

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

/* One counted byte load of the line: its D-cache read misses. */
static u32 read_line(void)
{
	rsweep(PMU_GCTRL, GCTRL_EN, line, 1, 1);
	return lda_asi2(PMU_EVCNT(0));
}

void secondary_main(unsigned int cpu)
{
	u32 seen = 0;

	if (cpu != 1)
		return;
	for (;;) {
		while (cmd == seen)
			;
		seen = cmd;
		sta_asi2(ASI2_CCTRL, CCR_ON | CCR_IB | (snoop_on ? CCR_DS : 0) | (1u << 22));
		/* The model runs from here (full timing): the caches start cold. */
		sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_DRMISS);
		first_miss = read_line();
		ack = seen;			/* the line is in CPU 1's D-cache */
		while (cmd == seen)		/* CPU 0 stores to it */
			;
		seen = cmd;
		sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | EV_DRMISS);
		second_miss = read_line();
		sta_asi2(PMU_EVCTRL(0), 0);	/* the model stops */
		ack = seen;
	}
}

/* Returns CPU 1's misses on the read after CPU 0's store. */
static u32 snoop_round(u32 on, u32 *r)
{
	snoop_on = on;
	cmd = ++*r;
	if (!wait_for(ack == *r, WAIT_LONG))
		return ~0u;
	line[4] = 0x5a;			/* CPU 0 writes the line */
	cmd = ++*r;
	if (!wait_for(ack == *r, WAIT_LONG))
		return ~0u;
	is_u32(first_miss, 1, "CPU 1, snooping %s: its first read of the line misses",
	       on ? "on" : "off");
	return second_miss;
}

static void test_snoop(void)
{
	u32 r = 0;

	if (smp_ncpus() < 2) {
		skip("D-cache snooping", "1 CPU");
		return;
	}
	sta_asi2(ASI2_CCTRL, CCR_BOOT);
	start_cpu(1);
	is_u32(snoop_round(1, &r), 1,
	       "snooping on: CPU 0's store invalidates the line, CPU 1's next read misses");
	is_u32(snoop_round(0, &r), 0,
	       "snooping off: CPU 1's copy stays valid, its next read hits");
	is_u32(snoop_round(1, &r), 1, "snooping on again: misses again");
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
	 * 1 + 6k cycles; every 16-byte line misses (3 + 4 cycles, MMU off),
	 * the loop's own code too (two lines: a fraction of a percent).
	 */
	ok(alone >= 1 + lines * (6 + 7) && alone <= 1 + lines * (6 + 7) + 100,
	   "cycles of that sweep include its %u misses: %u (6 + 7 a load)", lines, alone);
}

int main(void)
{
	test_ccr();
	test_snoop();
	test_full_timing();
	return 0;
}
