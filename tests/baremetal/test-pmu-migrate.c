// SPDX-License-Identifier: GPL-2.0
/*
 * Migration loses nothing: counters run through a long loop during
 * which baremetal.t migrates the machine to a file and continues it in
 * a new QEMU.  The counts afterwards are exact, a stopped counter is
 * still stopped, its OVF bits and pending interrupt still there, and the
 * IRQMP still holds the masked extended interrupt.
 *
 * qemu-args:
 * migrate-on: MIGRATE-NOW
 */
#include "baremetal.h"
#include "pmu.h"

#define RUN_US		3000000u	/* long enough to migrate during it */

/* spin_until(): loops.S, 6k - 1 instructions and k loads for k iterations */

int main(void)
{
	u32 line = lda_asi2(PMU_IRQLINE), insns, cycles, loads, k;

	/* Counter 2 overflows (IRQEN) and stays stopped. */
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCNT(2), 0xfffffff0u);
	sta_asi2(PMU_EVCTRL(2), CTRL_EN | CTRL_SU | CTRL_IRQEN | 0x11);
	sta_asi2(PMU_OVF, 0x7f);
	/* The interrupt stays masked: pending in the IRQMP across migration. */
	mmio_write32(IRQMP_MASK(0), 1u << EIRQ);
	sta_asi2(PMU_GCTRL, GCTRL_EN);
	diag("MIGRATE-NOW");
	sta_asi2(PMU_GCTRL, 0);

	/* The rest start together with spin_until()'s GCTRL store. */
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | 0x11);
	sta_asi2(PMU_EVCTRL(1), CTRL_CLR | CTRL_EN | CTRL_SU | 0x39);
	spin_until(PMU_GCTRL, GCTRL_EN, GPT_COUNTER(0),
		   mmio_read32(GPT_COUNTER(0)) - RUN_US, &k);
	insns = lda_asi2(PMU_EVCNT(0));
	cycles = lda_asi2(PMU_CYCCNT);
	loads = lda_asi2(PMU_EVCNT(1));

	is_u32(insns, 6 * k - 1, "instructions exact across the migration (%u iterations)", k);
	ok(cycles > 6 * k, "cycle counter kept counting (%u)", cycles);
	is_u32(loads, k, "loads: one per iteration, none lost or invented");
	is_u32(lda_asi2(PMU_EVCNT(2)), 0, "the counter stopped by its overflow stayed stopped");
	is_u32(lda_asi2(PMU_OVF), OVF_IRQ | OVF_EV(2), "OVF bits kept");
	ok(mmio_read32(IRQMP_PENDING) & (1u << line),
	   "the PMU's extended interrupt %u is still pending in the IRQMP", line);
	is_u32(mmio_read32(IRQMP_MASK(0)), 1u << EIRQ, "IRQMP mask kept");
	is_u32((mmio_read32(IRQMP_MPSTAT) >> 16) & 0xf, EIRQ, "IRQMP EIRQ kept");
	return 0;
}
