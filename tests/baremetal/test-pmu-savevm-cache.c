// SPDX-License-Identifier: GPL-2.0
/*
 * loadvm brings back the caches of the snapshot: an array and a block
 * of code first used after the snapshot miss on every line again when
 * they are used again after loadvm.  No PMU write comes between the
 * snapshot and those accesses (a PMU write makes QEMU forget which lines
 * it knew the caches to hold): QEMU must forget them at loadvm itself.
 * The second run has shadow D- and I-caches, whose tags the snapshot
 * holds too (and without whose state loadvm would fail).
 *
 * qemu-args:
 * qemu-args: -global LEON3-sparc-cpu.dcache-shadow=8kx2 -global LEON3-sparc-cpu.icache-shadow=16kx4/16
 * savevm-on: SAVEVM-NOW LOADVM-NOW
 */
#include "baremetal.h"
#include "pmu.h"

#define RUN_US		1500000u
#define WAIT_US		4000000u	/* for loadvm to come */

static u32 fresh[256] __attribute__((aligned(64)));	/* 1 KiB: fits any D-cache */

/* the code: nopblock() (loops.S), 1024 / line lines */

int main(void)
{
	u32 dline = 4u << CFG_LSIZE(lda_asi2(ASI2_DCFG));
	u32 iline = 4u << CFG_LSIZE(lda_asi2(ASI2_ICFG));
	u32 t, d, i, k;

	sta_asi2(ASI2_CCTRL, 0xf);	/* I- and D-cache on */
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | 0x08);	/* D-cache read misses */
	sta_asi2(PMU_RANGE_LO(2), (u32)nopblock);			/* range 2: EVCTRL(1) */
	sta_asi2(PMU_RANGE_HI(2), (u32)nopblock + 1020);
	sta_asi2(PMU_EVCTRL(1), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | 0x00);	/* I-cache misses */
	sta_asi2(PMU_GCTRL, GCTRL_EN);
	diag("SAVEVM-NOW");
	t = time_us();
	while (time_us() - t < RUN_US)
		;
	/* from here to the checks: no PMU write */
	d = lda_asi2(PMU_EVCNT(0));
	for (k = 0; k < 256; k++)
		(void)*(volatile u32 *)&fresh[k];
	d = lda_asi2(PMU_EVCNT(0)) - d;
	i = lda_asi2(PMU_EVCNT(1));
	nopblock();
	i = lda_asi2(PMU_EVCNT(1)) - i;
	diag("LOADVM-NOW");
	t = time_us();
	while (time_us() - t < WAIT_US)
		;
	is_u32(d, 1024 / dline,
	       "an array first read after the snapshot misses on every line after loadvm (%u-byte lines)",
	       dline);
	is_u32(i, 1024 / iline,
	       "code first run after the snapshot misses on every line after loadvm (%u-byte lines)",
	       iline);
	return 0;
}
