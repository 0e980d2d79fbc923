// SPDX-License-Identifier: GPL-2.0
/*
 * Guest garbage never harms QEMU: random values of every size written to
 * every PMU address (0xC0-0x1FC, and a little beyond), random event ids
 * and control bits with the counters running code that traps, recurses
 * and takes the PMU's interrupts.  The run must reach its end; the
 * reserved bits must still read as zero afterwards.
 *
 * qemu-args:
 * qemu-args: -smp 2
 */
#include "baremetal.h"
#include "pmu.h"

#define ROUNDS		40

static u32 lfsr = 0xace1u;

/* xorshift32: reproducible, so a failure can be replayed */
static u32 rnd(void)
{
	lfsr ^= lfsr << 13;
	lfsr ^= lfsr >> 17;
	lfsr ^= lfsr << 5;
	return lfsr;
}

static volatile unsigned int pmu_irqs;

/* Overflows with IRQEN happen at random: acknowledge and go on. */
void irq_handler(unsigned int level)
{
	pmu_irqs++;
	sta_asi2(PMU_GCTRL, (lda_asi2(PMU_GCTRL) & GCTRL_EN) | GCTRL_IRQCLR);
}

static volatile unsigned int zero;

static __attribute__((noinline)) unsigned int sum(unsigned int n)
{
	return n ? n + sum(n - 1) + zero : zero;
}

static void scribble(void)
{
	u32 addr = 0xc0 + (rnd() % 0x150), v = rnd();

	switch (rnd() % 4) {
	case 0:
		stba_asi2(addr, v);
		break;
	case 1:
		stha_asi2(addr & ~1u, v);
		break;
	default:
		/* keep the trap handlers' PSR-free world: no IRQCLR games here */
		sta_asi2(addr & ~3u, v);
		break;
	}
	(void)lda_asi2((0xc0 + (rnd() % 0x150)) & ~3u);
	(void)lduba_asi2(0xc0 + (rnd() % 0x150));
}

int main(void)
{
	unsigned int round, i, bad = 0;
	int c;

	trap_hook = trap_hook_skip;
	mmio_write32(IRQMP_MASK(cpu_index()), 0xffff0000u | (1u << EIRQ));
	set_pil(0);
	for (round = 0; round < ROUNDS; round++) {
		for (i = 0; i < 200; i++)
			scribble();
		/* Random events and control bits on every counter, then work. */
		for (c = 0; c < PMU_NEV; c++) {
			sta_asi2(PMU_EVCTRL(c), rnd() & ~CTRL_CLR);
			sta_asi2(PMU_EVCNT(c), rnd() | 0xfffffc00u);
		}
		/* ... and one that surely overflows with its interrupt on */
		sta_asi2(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | CTRL_IRQEN | 0x11);
		sta_asi2(PMU_CYCCTRL, rnd());
		sta_asi2(PMU_GCTRL, GCTRL_EN | (rnd() & GCTRL_IRQCLR));
		if (sum(20) != 210)
			bad++;
		to_user();
		for (i = 0; i < 500; i++)
			zero;
		to_supervisor();
	}
	set_pil(15);
	mmio_write32(IRQMP_MASK(cpu_index()), 0);
	sta_asi2(PMU_GCTRL, GCTRL_IRQCLR);

	ok(1, "%u rounds of random PMU writes and random events: QEMU still runs", ROUNDS);
	ok(!bad, "code runs correctly under random counting (%u bad)", bad);
	ok(pmu_irqs > 0, "overflow interrupts came and went (%u)", pmu_irqs);
	is_u32(lda_asi2(PMU_GCTRL) & 0x7ffffff8u, PMU_NEV << GCTRL_NCNT_SHIFT,
	       "GCTRL reserved bits still read 0");
	is_u32(lda_asi2(PMU_OVF) & 0x7fffff00u, 0, "OVF reserved bits still read 0");
	is_u32(lda_asi2(PMU_CYCCTRL) & 0xffff80ffu, 0, "CYCCTRL reserved bits still read 0");
	for (c = 0; c < PMU_NEV; c++)
		if (lda_asi2(PMU_EVCTRL(c)) & 0xffff8000u)
			bad++;
	ok(!bad, "EVCTRL reserved bits still read 0");
	return 0;
}
