// SPDX-License-Identifier: GPL-2.0
/*
 * savevm and loadvm through the monitor in the middle of counting lose
 * nothing: baremetal.t saves a snapshot while a counted loop runs, lets
 * the loop finish, and loads the snapshot again, so the loop's end runs
 * twice.  Whatever the point of the snapshot, the counts at the end are
 * those of the loop as the guest saw it: 6k - 1 instructions and k loads
 * for k iterations.
 *
 * qemu-args:
 * savevm-on: SAVEVM-NOW LOADVM-NOW
 */
#include "baremetal.h"
#include "pmu.h"

#define RUN_US		1500000u
#define WAIT_US		4000000u	/* for loadvm to come */

/* spin_until(): loops.S, 6k - 1 instructions and k loads for k iterations */

int main(void)
{
	u32 k, insns, loads, t;

	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | 0x11);
	sta_asi2(PMU_EVCTRL(1), CTRL_CLR | CTRL_EN | CTRL_SU | 0x39);
	diag("SAVEVM-NOW");
	spin_until(PMU_GCTRL, GCTRL_EN, GPT_COUNTER(0),
		   mmio_read32(GPT_COUNTER(0)) - RUN_US, &k);
	insns = lda_asi2(PMU_EVCNT(0));
	loads = lda_asi2(PMU_EVCNT(1));
	diag("LOADVM-NOW");
	t = time_us();
	while (time_us() - t < WAIT_US)
		;
	is_u32(insns, 6 * k - 1, "instructions exact across savevm/loadvm (%u iterations)", k);
	is_u32(loads, k, "loads exact across savevm/loadvm");
	return 0;
}
