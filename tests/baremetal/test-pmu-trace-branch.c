// SPDX-License-Identifier: GPL-2.0
/*
 * The trace unit's branch mode (TRCTRL.BR): every conditional branch
 * as one bit of a BRANCH record, every JMPL and RETT as a TARGET record,
 * and a FLOW record wherever the flow enters or leaves what the unit
 * records (traps, the return to another mode, the unit enabled and
 * disabled), each record as the code that made it says; what a full
 * buffer loses is counted, and the unit writes no branch after a loss
 * before it has said where the flow is again.
 *
 * qemu-args:
 * qemu-args: -icount shift=5,sleep=off
 */
#define TRACE_NPAGES	2
#include "trace.h"

/*
 * brloop(trctrl, en, n): TRCTRL = en; at bl_start, n x (subcc, bne,
 * nop); jmp bl_to (an indirect jump at bl_jmp); TRCTRL = 0 at bl_to.
 * (A store to the PMU ends its translation block: the flow enters the
 * trace where the next block starts, after the store.)
 *
 * usrloop(trctrl, en, n): TRCTRL = en; ta SWTRAP_TO_USER at ul_ta1; in
 * user mode n x (subcc, bne, nop); ta SWTRAP_TO_SUPER at ul_ta2;
 * TRCTRL = 0.
 *
 * sutrap(trctrl, en): TRCTRL = en; ta SWTRAP_TO_USER at
 * st_ta, ta SWTRAP_TO_SUPER after it (in user mode); TRCTRL = 0 at
 * st_after.
 *
 * retloop(trctrl, en, n): TRCTRL = en; at rl_start n x (call rl_leaf,
 * which returns at rl_ret with retl; subcc, bne); then a retl at rl_jmp
 * to rl_back that no call made (%o7 set by hand); TRCTRL = 0 at rl_off.
 *
 * pidsw(trctrl, en, n): TRCTRL = en; at ps_a a loop of n; PID = 6 at
 * ps_st1; a loop of n; PID = 5; at ps_b a loop of n; TRCTRL = 0 at
 * ps_off.
 */
asm(".text\n"
    ".global brloop, bl_start, bl_jmp, bl_to\n"
    "brloop:\n"
    "	sta	%o1, [%o0] 2\n"
    "bl_start:\n"
    "1:	subcc	%o2, 1, %o2\n"
    "	bne	1b\n"
    "	 nop\n"
    "	set	bl_to, %g1\n"
    "bl_jmp:\n"
    "	jmp	%g1\n"
    "	 nop\n"
    "	nop\n"
    "bl_to:\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    ".global usrloop, ul_ta1, ul_ta2\n"
    "usrloop:\n"
    "	sta	%o1, [%o0] 2\n"
    "ul_ta1:\n"
    "	ta	0x81\n"
    "1:	subcc	%o2, 1, %o2\n"
    "	bne	1b\n"
    "	 nop\n"
    "ul_ta2:\n"
    "	ta	0x82\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    ".global sutrap, st_ta, st_after\n"
    "sutrap:\n"
    "	sta	%o1, [%o0] 2\n"
    "st_ta:\n"
    "	ta	0x81\n"
    "	ta	0x82\n"
    "st_after:\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    ".global retloop, rl_start, rl_ret, rl_off, rl_jmp, rl_back\n"
    "retloop:\n"
    "	mov	%o7, %g2\n"
    "	sta	%o1, [%o0] 2\n"
    "rl_start:\n"
    "1:	call	rl_leaf\n"
    "	 nop\n"
    "	subcc	%o2, 1, %o2\n"
    "	bne	1b\n"
    "	 nop\n"
    "	set	rl_back - 8, %o7\n"
    "rl_jmp:\n"
    "	retl\n"
    "	 nop\n"
    "rl_back:\n"
    "rl_off:\n"
    "	sta	%g0, [%o0] 2\n"
    "	jmp	%g2 + 8\n"
    "	 nop\n"
    "rl_leaf:\n"
    "rl_ret:\n"
    "	retl\n"
    "	 nop\n"
    ".global pidsw, ps_a, ps_st1, ps_b, ps_off\n"
    "pidsw:\n"
    "	set	0x108, %o4\n"
    "	mov	6, %o5\n"
    "	sta	%o1, [%o0] 2\n"
    "ps_a:\n"
    "	mov	%o2, %o3\n"
    "1:	subcc	%o3, 1, %o3\n"
    "	bne	1b\n"
    "	 nop\n"
    "ps_st1:\n"
    "	sta	%o5, [%o4] 2\n"
    "	mov	%o2, %o3\n"
    "2:	subcc	%o3, 1, %o3\n"
    "	bne	2b\n"
    "	 nop\n"
    "	mov	5, %o5\n"
    "	sta	%o5, [%o4] 2\n"
    "ps_b:\n"
    "	mov	%o2, %o3\n"
    "3:	subcc	%o3, 1, %o3\n"
    "	bne	3b\n"
    "	 nop\n"
    "ps_off:\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n");

void brloop(u32 trctrl, u32 en, u32 n);
void usrloop(u32 trctrl, u32 en, u32 n);
void sutrap(u32 trctrl, u32 en);
void pidsw(u32 trctrl, u32 en, u32 n);
void retloop(u32 trctrl, u32 en, u32 n);
extern char rl_start[], rl_ret[], rl_off[], rl_jmp[], rl_back[];
extern char ps_a[], ps_st1[], ps_b[], ps_off[];
extern char bl_start[], bl_jmp[], bl_to[], ul_ta1[], ul_ta2[];
extern char st_ta[], st_after[], trap_table[];

/* Record @i is of @type with fields @a, @b and @c, on CPU 0. */
static void want(u32 i, u32 type, u32 a, u32 b, u32 c, const char *what)
{
	const struct rec *r = rec(i);

	is_u32(r->w0, type << 28 | a, "record %u: %s (type %u, A 0x%x)", i,
	       what, type, a);
	is_u32(r->b, b, "record %u: %s: B 0x%x", i, what, b);
	is_u32(r->c, c, "record %u: %s: C 0x%x", i, what, c);
}

static void want_type(u32 i, u32 type, u32 a, const char *what)
{
	is_u32(rec(i)->w0, type << 28 | a, "record %u: %s (type %u, A 0x%x)",
	       i, what, type, a);
}

/* The outcomes of a loop of @n iterations from outcome @k on, at most 64 */
static void want_loop_bits(u32 i, u32 n, u32 k, const char *what)
{
	u32 m = n - k < 64 ? n - k : 64, hi = 0, lo = 0, j;

	/* taken but for the last iteration's; outcome j at bit 63 - j */
	for (j = 0; j < m; j++) {
		if (k + j == n - 1)
			continue;
		if (j < 32)
			hi |= 1u << (31 - j);
		else
			lo |= 1u << (63 - j);
	}
	want(i, REC_BRANCH, m, hi, lo, what);
}

#define SU_ONLY		(TRACE_EN | TRACE_BR | TRACE_SU | TRACE_NU)

static void test_loop(void)
{
	u32 n, i;

	ok(lda_asi2(PMU_FEATURES) & FEAT_BRANCH, "FEATURES advertises branch tracing");
	for (n = 1; n <= 130; n += 129) {
		trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
		brloop(PMU_TRCTRL, SU_ONLY, n);
		want_type(0, REC_START, 0, "START");
		want(1, REC_FLOW, FLOW_ENTER, (u32)bl_start, (u32)bl_start + 4,
		     "the flow enters after the store that sets EN");
		for (i = 0; i < (n + 63) / 64; i++)
			want_loop_bits(2 + i, n, 64 * i, "the loop's bne, a bit each");
		want(2 + i, REC_TARGET, 0, (u32)bl_to, (u32)bl_jmp,
		     "the jmp's target and PC");
		want(3 + i, REC_FLOW, FLOW_LEAVE, (u32)bl_to, (u32)bl_to + 4,
		     "the flow leaves at the store that clears EN");
		want_type(4 + i, REC_STOP, 0, "STOP");
		want_end(5 + i);
	}
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	brloop(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_NU, 5);
	want_type(0, REC_START, 0, "without BR: START");
	want_type(1, REC_STOP, 0, "... and STOP: no branch is recorded");
	want_end(2);
}

/* With IC the records' times are instructions: 3 an iteration */
static void test_time(void)
{
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	brloop(PMU_TRCTRL, SU_ONLY | TRACE_IC, 100);
	is_u32(rec(2)->time - rec(1)->time, 1,
	       "IC: the first bne one instruction (subcc) after the flow entered");
	is_u32(rec(3)->time - rec(2)->time, 64 * 3,
	       "IC: the second BRANCH record's first outcome 64 iterations later");
	is_u32(rec(4)->time - rec(3)->time, 2 + 35 * 3 + 2,
	       "IC: the jmp after that bne and its nop, 35 more iterations and the set (2 insns)");
}

/* User mode only: the flow enters after the trap to user mode, leaves at the trap back */
static void test_user(void)
{
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	usrloop(PMU_TRCTRL, TRACE_EN | TRACE_BR, 10);
	want_type(0, REC_START, 0, "user mode: START");
	want(1, REC_FLOW, FLOW_ENTER, (u32)ul_ta1 + 4, (u32)ul_ta1 + 8,
	     "user mode: the flow enters after the trap's return");
	want_loop_bits(2, 10, 0, "user mode: the loop");
	want(3, REC_FLOW, FLOW_LEAVE, (u32)ul_ta2, (u32)ul_ta2 + 4,
	     "user mode: the flow leaves at the trap, its own PC");
	want_type(4, REC_STOP, 0, "user mode: STOP");
	want_end(5);
}

/*
 * Supervisor mode only, around a trip to user mode: each trap leaves
 * the flow at the trapping instruction and enters it at the trap
 * table's entry; each handler's jmp and rett are TARGET records; the
 * return to user mode leaves the flow there.
 */
static void test_traps(void)
{
	u32 v1 = (u32)trap_table + 16 * 0x81, v2 = (u32)trap_table + 16 * 0x82;

	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sutrap(PMU_TRCTRL, SU_ONLY);
	want_type(0, REC_START, 0, "traps: START");
	want(1, REC_FLOW, FLOW_ENTER, (u32)st_ta, (u32)st_ta + 4, "traps: enters at st_ta");
	want(2, REC_FLOW, FLOW_LEAVE, (u32)st_ta, (u32)st_ta + 4,
	     "traps: the ta leaves the flow at its own PC");
	want(3, REC_FLOW, FLOW_ENTER, v1, v1 + 4, "traps: ... and enters it at its trap table entry");
	want_type(4, REC_TARGET, 0, "traps: the entry's jmp to the handler");
	is_u32(rec(4)->c, v1 + 8, "traps: ... at the entry's third instruction");
	want_type(5, REC_TARGET, 0, "traps: the handler's jmp to its %%l2");
	is_u32(rec(5)->b, (u32)st_ta + 4, "traps: ... to the ta's nPC");
	want_type(6, REC_TARGET, 0, "traps: the rett");
	is_u32(rec(6)->b, (u32)st_ta + 8, "traps: ... to the nPC after it");
	is_u32(rec(6)->c, rec(5)->c + 4, "traps: ... in the jmp's delay slot");
	want(7, REC_FLOW, FLOW_LEAVE, (u32)st_ta + 4, (u32)st_ta + 8,
	     "traps: user mode is not recorded: the flow leaves at its first instruction");
	want(8, REC_FLOW, FLOW_ENTER, v2, v2 + 4,
	     "traps: the trap from user mode enters at its entry (no leave: not recorded)");
	want_type(9, REC_TARGET, 0, "traps: the second entry's jmp");
	is_u32(rec(10)->b, (u32)st_after, "traps: the second handler's jmp to its %%l2: st_after");
	is_u32(rec(11)->b, (u32)st_after + 4, "traps: ... and its rett");
	want(12, REC_FLOW, FLOW_LEAVE, (u32)st_after, (u32)st_after + 4,
	     "traps: the store that clears EN");
	want_type(13, REC_STOP, 0, "traps: STOP");
	want_end(14);
}

/*
 * Returns: a return to where the newest recorded call returns is a
 * taken bit among the branches' (the retl, then the bne, each
 * iteration); a retl no call predicted is a TARGET record.
 */
static void test_returns(void)
{
	u32 n = 20, hi = 0, lo = 0, i;

	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	retloop(PMU_TRCTRL, SU_ONLY, n);
	want_type(0, REC_START, 0, "returns: START");
	want(1, REC_FLOW, FLOW_ENTER, (u32)rl_start, (u32)rl_start + 4, "returns: enters");
	for (i = 0; i < 2 * n; i++) {
		if (i == 2 * n - 1)
			continue;	/* the last bne not taken */
		if (i < 32)
			hi |= 1u << (31 - i);
		else
			lo |= 1u << (63 - i);
	}
	want(2, REC_BRANCH, 2 * n, hi, lo,
	     "returns: each retl the call predicted a taken bit, then the bne's");
	want(3, REC_TARGET, 0, (u32)rl_back, (u32)rl_jmp,
	     "returns: a retl no call predicted: its target");
	want(4, REC_FLOW, FLOW_LEAVE, (u32)rl_off, (u32)rl_off + 4, "returns: leaves");
	want_type(5, REC_STOP, 0, "returns: STOP");
	want_end(6);
}

/*
 * With PF, the flow leaves at the PID write that makes PID another
 * process's (the store's own PC) and enters after the one that makes
 * it the traced one again.
 */
static void test_pid(void)
{
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_PID, 5);
	sta_asi2(PMU_TRPID, 5);
	pidsw(PMU_TRCTRL, SU_ONLY | TRACE_PF, 3);
	want_type(0, REC_START, 0, "PID: START");
	want(1, REC_FLOW, FLOW_ENTER, (u32)ps_a, (u32)ps_a + 4, "PID: enters after EN");
	want_loop_bits(2, 3, 0, "PID: the first loop");
	want(3, REC_FLOW, FLOW_LEAVE, (u32)ps_st1, (u32)ps_st1 + 4,
	     "PID: leaves at the write of another PID");
	want(4, REC_FLOW, FLOW_ENTER, (u32)ps_b, (u32)ps_b + 4,
	     "PID: enters after the write of the traced one (the second loop not recorded)");
	want_loop_bits(5, 3, 0, "PID: the third loop");
	want(6, REC_FLOW, FLOW_LEAVE, (u32)ps_off, (u32)ps_off + 4, "PID: leaves at EN cleared");
	want_type(7, REC_STOP, 0, "PID: STOP");
	want_end(8);
	sta_asi2(PMU_PID, 0);
	sta_asi2(PMU_TRPID, 0);
}

/*
 * A buffer with room for START and FLOW only: the first BRANCH record
 * stops the unit with FULL; its 64 outcomes, the other 66, the jmp and
 * STOP are lost.  Then, written again (CLR), the LOST record comes
 * first, and no branch before the next FLOW record.
 */
static void test_full(void)
{
	trace_setup(TRACE_NPAGES, 0, 2 * RECSZ, NEVER);
	brloop(PMU_TRCTRL, SU_ONLY, 130);
	ok(lda_asi2(PMU_TRCTRL) & TRACE_FULL, "full: FULL");
	is_u32(lda_asi2(PMU_TRLOST), 130 + 2, "full: 130 outcomes, the jmp and STOP lost");
	want_end(2);
	sta_asi2(PMU_TRLIMIT, ROOM);
	sta_asi2(PMU_TRCTRL, TRACE_CLR);
	sta_asi2(PMU_OVF, OVF_TRACE);
	brloop(PMU_TRCTRL, SU_ONLY, 3);
	want(2, REC_LOST, 0, 132, 0, "full: written again, first the LOST record");
	want_type(3, REC_START, 0, "full: then START");
	want(4, REC_FLOW, FLOW_ENTER, (u32)bl_start, (u32)bl_start + 4, "full: then FLOW");
	want_loop_bits(5, 3, 0, "full: then the branches");
}

int main(void)
{
	test_loop();
	test_time();
	test_user();
	test_traps();
	test_pid();
	test_returns();
	test_full();
	sta_asi2(PMU_TRCTRL, 0);
	return 0;
}
