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

/* spin(): as in test-pmu-migrate.c: 6k - 1 instructions, k loads */
asm(".text\n"
    ".global spin\n"
    "spin:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	0, %g2\n"
    "1:	ld	[%o3], %g1\n"
    "	subcc	%g1, %o4, %g0\n"
    "	bcs	2f\n"
    "	 add	%g2, 1, %g2\n"
    "	ba	1b\n"
    "	 nop\n"
    "2:	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 st	%g2, [%o5]\n");

void spin(u32 gctrl, u32 en, u32 unused, u32 timer_addr, u32 deadline, u32 *k);

int main(void)
{
	u32 k, insns, loads, t;

	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | 0x11);
	sta_asi2(PMU_EVCTRL(1), CTRL_CLR | CTRL_EN | CTRL_SU | 0x39);
	diag("SAVEVM-NOW");
	spin(PMU_GCTRL, GCTRL_EN, 0, GPT_COUNTER(0),
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
