// SPDX-License-Identifier: GPL-2.0
/*
 * Address ranges (AF, extension registers): a counter with AF counts
 * only the instructions whose PC lies in its [RANGE_LO, RANGE_HI].
 * The expected counts come from the code: a loop whose body is the
 * range, and code around it that is not.
 *
 * qemu-args:
 */
#include "baremetal.h"
#include "pmu.h"

#define PMU_FEATURES	0x100
#define FEAT_AF		(1u << 3)
#define PMU_RANGE_LO(c)	(0x140 + 8 * (c))	/* c: 0 cycles, 1 + i EVCNT[i] */
#define PMU_RANGE_HI(c)	(0x144 + 8 * (c))
#define ASI2_CCTRL	0x00		/* cache control */
#define CCTRL_ICS_ON	3u
#define EV_ICACHE_ACCESS 0x80

/*
 * u32 ranged(gctrl, en, n): GCTRL = en; mov; n x (subcc, bne, nop); 4
 * more instructions after the loop (mov, add, add, add); GCTRL = 0.
 * af_body..af_body_end: the loop body, 3 instructions.
 */
asm(".text\n"
    ".global ranged, af_body, af_body_end\n"
    "ranged:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	%o2, %o4\n"
    "af_body:\n"
    "	subcc	%o4, 1, %o4\n"
    "	bne	af_body\n"
    "af_body_end:\n"
    "	 nop\n"
    "	mov	1, %o5\n"
    "	add	%o5, 1, %o5\n"
    "	add	%o5, 1, %o5\n"
    "	add	%o5, 1, %o5\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n");

u32 ranged(u32 gctrl, u32 en, u32 n);
extern char af_body[], af_body_end[];

int main(void)
{
	u32 lo = (u32)af_body, hi = (u32)af_body_end, n = 500;

	ok(lda_asi2(PMU_FEATURES) & FEAT_AF, "FEATURES advertises address ranges");
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_RANGE_LO(1), lo);
	sta_asi2(PMU_RANGE_HI(1), hi);
	is_u32(lda_asi2(PMU_RANGE_LO(1)), lo, "RANGE_LO reads back");
	is_u32(lda_asi2(PMU_RANGE_HI(1)), hi, "RANGE_HI reads back");
	sta_asi2(PMU_RANGE_LO(2), hi + 4);		/* right after the loop */
	sta_asi2(PMU_RANGE_HI(2), hi + 12);
	sta_asi2(PMU_RANGE_LO(0), lo);
	sta_asi2(PMU_RANGE_HI(0), hi);
	sta_asi2(PMU_RANGE_LO(4), lo);
	sta_asi2(PMU_RANGE_HI(4), hi);

	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | 0x11);
	sta_asi2(PMU_EVCTRL(1), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | 0x11);
	sta_asi2(PMU_EVCTRL(2), CTRL_CLR | CTRL_EN | CTRL_SU | 0x11);
	sta_asi2(PMU_EVCTRL(3), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | 0x22);
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF);
	/* I-cache accesses are not made of instructions: AF counts none */
	sta_asi2(ASI2_CCTRL, CCTRL_ICS_ON);
	sta_asi2(PMU_EVCTRL(4), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | EV_ICACHE_ACCESS);
	sta_asi2(PMU_EVCTRL(5), CTRL_CLR | CTRL_EN | CTRL_SU | EV_ICACHE_ACCESS);
	ranged(PMU_GCTRL, GCTRL_EN, n);
	sta_asi2(ASI2_CCTRL, 0);

	is_u32(lda_asi2(PMU_EVCNT(0)), 3 * n, "AF: only the loop body's instructions (3 x %u)", n);
	is_u32(lda_asi2(PMU_EVCNT(1)), 3, "AF: the 3 instructions in a range after the loop");
	is_u32(lda_asi2(PMU_EVCNT(2)), 1 + 3 * n + 4, "without AF: every instruction");
	is_u32(lda_asi2(PMU_EVCNT(3)), n, "AF: the loop's branches");
	/* cycles of the body: subcc 1, bne 1 + 1 (after subcc), nop 1 */
	is_u32(lda_asi2(PMU_CYCCNT), 4 * n,
	       "AF on the cycle counter: the body's cycles, as without AF");
	is_u32(lda_asi2(PMU_EVCNT(5)), 1 + 3 * n + 4,
	       "without AF: an I-cache access per instruction (I-cache on)");
	is_u32(lda_asi2(PMU_EVCNT(4)), 0,
	       "AF: no I-cache accesses, an event not made of instructions");
	sta_asi2(PMU_EVCTRL(0), 0);
	sta_asi2(PMU_EVCTRL(1), 0);
	sta_asi2(PMU_EVCTRL(3), 0);
	sta_asi2(PMU_EVCTRL(4), 0);
	sta_asi2(PMU_EVCTRL(5), 0);
	sta_asi2(PMU_CYCCTRL, 0);
	return 0;
}
