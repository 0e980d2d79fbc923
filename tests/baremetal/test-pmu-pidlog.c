// SPDX-License-Identifier: GPL-2.0
/*
 * The PID log (extension registers): every write to the PID register
 * while the log is on records (previous PID, cycles since the previous
 * write).  The cycles between two writes are worked out from the code
 * between them and the timing model; the FIFO keeps 64 records and
 * flags an overflow; CLR empties it.
 *
 * qemu-args:
 */
#include "baremetal.h"
#include "pmu.h"

#define PMU_FEATURES	0x100
#define PMU_PID		0x108
#define PMU_PIDLOG	0x10c
#define PMU_PIDLOG_PID	0x110
#define PMU_PIDLOG_CYC	0x114
#define FEAT_PIDLOG	(1u << 1)
#define PIDLOG_EN	(1u << 0)
#define PIDLOG_CLR	(1u << 1)
#define PIDLOG_COUNT(v)	(((v) >> 8) & 0xffff)
#define PIDLOG_OVF	(1u << 31)
#define PIDLOG_DEPTH	64

/*
 * void switches(u32 pid_addr, u32 a, u32 b, u32 n): PID = a; a loop of
 * n x (subcc, bne, nop) after a mov; PID = b.  Between the two stores:
 * 1 + 4n cycles (the bne follows subcc: +1).
 */
asm(".text\n"
    ".global switches\n"
    "switches:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	%o3, %o4\n"
    "1:	subcc	%o4, 1, %o4\n"
    "	bne	1b\n"
    "	 nop\n"
    "	sta	%o2, [%o0] 2\n"
    "	retl\n"
    "	 nop\n");

void switches(u32 pid_addr, u32 a, u32 b, u32 n);

static void pop(u32 *pid, u32 *cycles)
{
	*pid = lda_asi2(PMU_PIDLOG_PID);
	*cycles = lda_asi2(PMU_PIDLOG_CYC);	/* reading the cycles pops */
}

int main(void)
{
	u32 st, pid, cyc, i, lost = 0;

	ok(lda_asi2(PMU_FEATURES) & FEAT_PIDLOG, "FEATURES advertises the PID log");
	sta_asi2(PMU_PIDLOG, PIDLOG_CLR);
	is_u32(lda_asi2(PMU_PIDLOG), 0, "the log is off and empty after CLR");

	/* Off: PID writes record nothing. */
	switches(PMU_PID, 5, 6, 10);
	is_u32(PIDLOG_COUNT(lda_asi2(PMU_PIDLOG)), 0, "log off: no records");

	sta_asi2(PMU_PIDLOG, PIDLOG_EN);
	switches(PMU_PID, 7, 8, 1000);
	st = lda_asi2(PMU_PIDLOG);
	is_u32(PIDLOG_COUNT(st), 2, "two PID writes, two records");
	pop(&pid, &cyc);
	is_u32(pid, 6, "first record: the PID before the first write");
	pop(&pid, &cyc);
	is_u32(pid, 7, "second record: the PID that ran the loop");
	is_u32(cyc, 1 + 4 * 1000, "... for the loop's cycles (1 + 4n, n = 1000)");
	is_u32(PIDLOG_COUNT(lda_asi2(PMU_PIDLOG)), 0, "popped empty");
	is_u32(lda_asi2(PMU_PIDLOG_PID), 0, "an empty log reads 0");

	/*
	 * The same with an address-range counter counting (an empty range):
	 * the log still has every cycle (its fold once took the AF
	 * counters' cycles for the log's).
	 */
	sta_asi2(PMU_RANGE_LO(1), 4);
	sta_asi2(PMU_RANGE_HI(1), 4);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | 0x11);
	sta_asi2(PMU_GCTRL, GCTRL_EN);
	switches(PMU_PID, 9, 10, 1000);
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_EVCTRL(0), 0);
	pop(&pid, &cyc);
	pop(&pid, &cyc);
	is_u32(pid, 9, "with an AF counter counting: the PID that ran the loop");
	is_u32(cyc, 1 + 4 * 1000, "... for all the loop's cycles, as without");

	/* Overflow: 70 writes into 64 places. */
	for (i = 0; i < PIDLOG_DEPTH + 6; i++)
		sta_asi2(PMU_PID, 100 + i);
	st = lda_asi2(PMU_PIDLOG);
	is_u32(PIDLOG_COUNT(st), PIDLOG_DEPTH, "the FIFO holds %u records", PIDLOG_DEPTH);
	ok(st & PIDLOG_OVF, "overflow flagged when records were dropped");
	pop(&pid, &cyc);
	is_u32(pid, 10, "the oldest records are kept, the newest dropped");
	for (i = 1; i < PIDLOG_DEPTH; i++) {
		pop(&pid, &cyc);
		if (pid != 100 + i - 1)
			lost++;
	}
	is_u32(lost, 0, "records come out in order");
	ok(lda_asi2(PMU_PIDLOG) & PIDLOG_OVF, "overflow stays until CLR");
	sta_asi2(PMU_PIDLOG, PIDLOG_CLR | PIDLOG_EN);
	is_u32(lda_asi2(PMU_PIDLOG), PIDLOG_EN, "CLR empties the log and clears the overflow");
	sta_asi2(PMU_PIDLOG, 0);
	sta_asi2(PMU_PID, 0);
	return 0;
}
