// SPDX-License-Identifier: GPL-2.0
/*
 * Migration loses nothing: counters and the trace unit run through a
 * long loop during which baremetal.t migrates the machine to a file and
 * continues it in a new QEMU.  The counts afterwards are exact, a
 * stopped counter is still stopped, its OVF bits and pending interrupt
 * still there, and the IRQMP still holds the masked extended interrupt;
 * the trace has every tag, the repetition the unit was counting when it
 * migrated included.
 *
 * qemu-args:
 * migrate-on: MIGRATE-NOW
 */
#include "baremetal.h"
#include "pmu.h"

#define RUN_US		3000000u	/* long enough to migrate during it */

#define T_LATCH		0x200001
#define T_EXIT		0x280001
#define T_FENTRY	0x080002
#define T_FEXIT		0x100002

/*
 * tagspin(gctrl, en, timer, deadline, u32 *k): spin_until() of loops.S
 * with tags: GCTRL = en; each iteration calls a function with an entry
 * and an exit tag, then loads the timer, and goes round again after a
 * latch tag until the down-counting timer passes deadline; the exit
 * tag; GCTRL = 0; *k = iterations.  12k - 1 instructions, k loads.
 */
asm(".text\n"
    "tagspin:\n"
    "	mov	%o7, %o5\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	0, %g2\n"
    "1:	call	3f\n"
    "	 nop\n"
    "	ld	[%o2], %g1\n"
    "	subcc	%g1, %o3, %g0\n"
    "	bcs	2f\n"
    "	 add	%g2, 1, %g2\n"
    "	sethi	0x200001, %g0\n"
    "	ba	1b\n"
    "	 nop\n"
    "2:	sethi	0x280001, %g0\n"
    "	sta	%g0, [%o0] 2\n"
    "	jmp	%o5 + 8\n"
    "	 st	%g2, [%o4]\n"
    "3:	sethi	0x080002, %g0\n"
    "	retl\n"
    "	 sethi	0x100002, %g0\n");

void tagspin(u32 gctrl, u32 en, u32 timer, u32 deadline, u32 *k);

static u32 trbuf[1024] __attribute__((aligned(4096)));
static u32 trtable[1];

/* Trace record @i: type, field A, field B */
static void want(u32 i, u32 type, u32 a, u32 b, const char *what)
{
	is_u32(trbuf[4 * i], type << 28 | a, "trace record %u: %s", i, what);
	is_u32(trbuf[4 * i + 1], b, "trace record %u: %s: %u", i, what, b);
}

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

	/* The rest start together with tagspin()'s GCTRL store. */
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | 0x11);
	sta_asi2(PMU_EVCTRL(1), CTRL_CLR | CTRL_EN | CTRL_SU | 0x39);
	/* ... and the trace unit, before them */
	trtable[0] = (u32)trbuf;
	sta_asi2(PMU_TRTABLE, (u32)trtable);
	sta_asi2(PMU_TRPAGES, 1);
	sta_asi2(PMU_TRLIMIT, sizeof(trbuf));
	sta_asi2(PMU_PID, 9);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU);
	tagspin(PMU_GCTRL, GCTRL_EN, GPT_COUNTER(0),
		mmio_read32(GPT_COUNTER(0)) - RUN_US, &k);
	sta_asi2(PMU_TRCTRL, 0);
	insns = lda_asi2(PMU_EVCNT(0));
	cycles = lda_asi2(PMU_CYCCNT);
	loads = lda_asi2(PMU_EVCNT(1));

	is_u32(insns, 12 * k - 1, "instructions exact across the migration (%u iterations)", k);
	ok(cycles > 6 * k, "cycle counter kept counting (%u)", cycles);
	is_u32(loads, k, "loads: one per iteration, none lost or invented");
	is_u32(lda_asi2(PMU_EVCNT(2)), 0, "the counter stopped by its overflow stayed stopped");
	is_u32(lda_asi2(PMU_OVF), OVF_IRQ | OVF_EV(2), "OVF bits kept");
	ok(mmio_read32(IRQMP_PENDING) & (1u << line),
	   "the PMU's extended interrupt %u is still pending in the IRQMP", line);
	is_u32(mmio_read32(IRQMP_MASK(0)), 1u << EIRQ, "IRQMP mask kept");
	is_u32((mmio_read32(IRQMP_MPSTAT) >> 16) & 0xf, EIRQ, "IRQMP EIRQ kept");

	want(0, REC_START, 0, 9, "START");
	want(1, REC_TAG, T_FENTRY, 1, "the call's entry tag");
	want(2, REC_TAG, T_FEXIT, 1, "its exit tag");
	want(3, REC_TAG, T_LATCH, 1, "the latch");
	want(4, REC_REPEAT, 3, k - 2, "REPEAT: every further iteration that went round");
	want(5, REC_TAG, T_FENTRY, 1, "the last iteration's call: entry");
	want(6, REC_TAG, T_FEXIT, 1, "... exit");
	want(7, REC_TAG, T_EXIT, 1, "the loop's exit");
	is_u32(trbuf[4 * 8] >> 28, REC_STOP, "STOP");
	is_u32(lda_asi2(PMU_TRHEAD), 9 * 16, "nothing more");
	is_u32(lda_asi2(PMU_TRLOST), 0, "nothing lost");
	sta_asi2(PMU_PID, 0);
	return 0;
}
