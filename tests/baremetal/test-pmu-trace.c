// SPDX-License-Identifier: GPL-2.0
/*
 * The trace unit (extension registers): tags (sethi imm22, %g0) and
 * events come out as compressed 16-byte records in a buffer given by a
 * page table, each record as the code that made it says, with the
 * times the timing model gives that code (or its instructions, with
 * IC); the buffer's pages, limit and
 * watermark; what does not fit is counted and reported; the mode and
 * PID filters; bad buffers refused.
 *
 * qemu-args: -smp 2
 * qemu-args: -smp 2 -icount shift=5,sleep=off
 */
#define TRACE_NPAGES	4
#include "trace.h"

/* Tags: kind << 19 | id (Documentation/tags.md) */
#define T_ENTRY		0x080001	/* function 1's entry */
#define T_FENTRY	0x080002	/* function 2's entry ... */
#define T_FEXIT		0x100002	/* ... and exit */
#define T_LATCH		0x200001	/* loop 1's latch */
#define T_EXIT		0x280001	/* loop 1's exit */
#define T_ULATCH	0x200003	/* loop 3's latch, in user mode */

/*
 * tagloop(trctrl, en, n): TRCTRL = en; the entry tag; n x (subcc, latch
 * tag, bne, nop); the exit tag; TRCTRL = 0.  4 cycles an iteration (no
 * interlock: the tag is between subcc and bne).
 *
 * callloop(trctrl, en, n): the same with a call in the loop to a
 * function with entry and exit tags: n x (call, nop, Fentry, nop,
 * Fexit, retl, nop, subcc, latch, bne, nop), 13 cycles (JMPL 3).
 *
 * usertags(n): n latch tags of loop 3, for user mode.
 * oddtags(trctrl, en): tags of kinds 0, 6 and 7, and a nop.
 *
 * switches(pid_addr, a, b, n): PID = a; a loop of n x (subcc, bne, nop)
 * after a mov; PID = b.  From the first store to the second: the store
 * (2 cycles), the mov and the loop, 1 + 4n (the bne follows subcc: +1).
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

asm(".text\n"
    ".global tagloop, tl_entry, tl_latch, tl_exit\n"
    "tagloop:\n"
    "	sta	%o1, [%o0] 2\n"
    "tl_entry:\n"
    "	sethi	0x080001, %g0\n"
    "1:	subcc	%o2, 1, %o2\n"
    "tl_latch:\n"
    "	sethi	0x200001, %g0\n"
    "	bne	1b\n"
    "	 nop\n"
    "tl_exit:\n"
    "	sethi	0x280001, %g0\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    ".global callloop\n"
    "callloop:\n"
    "	mov	%o7, %g1\n"
    "	sta	%o1, [%o0] 2\n"
    "	sethi	0x080001, %g0\n"
    "1:	call	2f\n"
    "	 nop\n"
    "	subcc	%o2, 1, %o2\n"
    "	sethi	0x200001, %g0\n"
    "	bne	1b\n"
    "	 nop\n"
    "	sethi	0x280001, %g0\n"
    "	sta	%g0, [%o0] 2\n"
    "	jmp	%g1 + 8\n"
    "	 nop\n"
    "2:	sethi	0x080002, %g0\n"
    "	nop\n"
    "	sethi	0x100002, %g0\n"
    "	retl\n"
    "	 nop\n"
    ".global usertags\n"
    "usertags:\n"
    "1:	subcc	%o0, 1, %o0\n"
    "	sethi	0x200003, %g0\n"
    "	bne	1b\n"
    "	 nop\n"
    "	retl\n"
    "	 nop\n"
    ".global oddtags\n"
    "oddtags:\n"
    "	sta	%o1, [%o0] 2\n"
    "	sethi	0x000005, %g0\n"
    "	sethi	0x300006, %g0\n"
    "	sethi	0x3fffff, %g0\n"
    "	nop\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n");

void tagloop(u32 trctrl, u32 en, u32 n);
extern char tl_entry[], tl_latch[], tl_exit[];
void callloop(u32 trctrl, u32 en, u32 n);
void usertags(u32 n);
void oddtags(u32 trctrl, u32 en);

static u32 rtime(u32 i)
{
	return rec(i)->time;	/* the runs here are far below 2^32 cycles */
}

/* Record @i is of @type with fields @a (w0 21:0) and @b (w1), on CPU 0. */
static void want(u32 i, u32 type, u32 a, u32 b, const char *what)
{
	const struct rec *r = rec(i);

	is_u32(r->w0, type << 28 | a, "record %u: %s (type %u, CPU 0, 0x%x)",
	       i, what, type, a);
	if (type != REC_STOP)
		is_u32(r->b, b, "record %u: %s: %u", i, what, b);
}

static void test_registers(void)
{
	u32 a;

	ok(lda_asi2(PMU_FEATURES) & FEAT_TRACE, "FEATURES advertises the trace unit");
	for (a = PMU_TRCTRL; a <= PMU_TRTIME_LO; a += 4)
		is_u32(lda_asi2(a), 0, "trace register 0x%x reads 0 after reset", a);
	sta_asi2(PMU_TRHEAD, 0x1234567f);
	is_u32(lda_asi2(PMU_TRHEAD), 0x12345670, "TRHEAD: 3:0 read 0 (16-byte records)");
	sta_asi2(PMU_TRLIMIT, 0xffffffff);
	is_u32(lda_asi2(PMU_TRLIMIT), 0xfffffff0, "TRLIMIT: 3:0 read 0");
	sta_asi2(PMU_TRWMARK, 0x31);
	is_u32(lda_asi2(PMU_TRWMARK), 0x30, "TRWMARK: 3:0 read 0");
	sta_asi2(PMU_TRTABLE, 0x40000003);
	is_u32(lda_asi2(PMU_TRTABLE), 0x40000000, "TRTABLE: 1:0 read 0");
	sta_asi2(PMU_TRTIME_HI, 0x12);
	sta_asi2(PMU_TRTIME_LO, 0x345);
	is_u32(lda_asi2(PMU_TRTIME_HI), 0x12, "TRTIME_HI is written and read");
	is_u32(lda_asi2(PMU_TRTIME_LO), 0x345, "TRTIME_LO is written and read");
	sta_asi2(PMU_TRTIME_HI, 0);
	sta_asi2(PMU_TRTIME_LO, 0);

	/* No buffer (TRPAGES 0): enabling stops the unit with ERR at once. */
	sta_asi2(PMU_TRCTRL, 0xffffffff & ~TRACE_CLR);
	is_u32(lda_asi2(PMU_TRCTRL), 0x7f | TRACE_ERR | TRACE_IC | TRACE_BR,
	       "TRCTRL all ones without a buffer: bits 6:0, ERR (9), IC (10) and BR (11), reserved 0");
	ok(lda_asi2(PMU_OVF) & OVF_TRACE, "OVF bit 7 says the unit stopped");
	ok(lda_asi2(PMU_OVF) & OVF_IRQ, "... and with IRQEN the interrupt is pending");
	sta_asi2(PMU_GCTRL, GCTRL_IRQCLR);
	sta_asi2(PMU_TRCTRL, 0);
	/* (with BR, the branches it ran stopped are lost too: see below) */
	sta_asi2(PMU_TRLOST, 0);
	sta_asi2(PMU_TRCTRL, 0xffffffff & ~(TRACE_CLR | TRACE_BR));
	sta_asi2(PMU_TRCTRL, 0);
	sta_asi2(PMU_GCTRL, GCTRL_IRQCLR);
	is_u32(lda_asi2(PMU_TRLOST), 2, "the START and STOP records it could not write are lost");
	sta_asi2(PMU_TRCTRL, TRACE_CLR);
	is_u32(lda_asi2(PMU_TRCTRL), 0, "CLR clears ERR");
	sta_asi2(PMU_OVF, OVF_TRACE);
	is_u32(lda_asi2(PMU_OVF), 0, "OVF bit 7 is write-1-to-clear");
}

static void test_loop(void)
{
	u32 t0;

	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_PID, 77);
	t0 = lda_asi2(PMU_TRTIME_LO);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU, 1000);
	want(0, REC_START, 0, 77, "START with the PID");
	want(1, REC_TAG, T_ENTRY, 1, "the entry tag, once");
	want(2, REC_TAG, T_LATCH, 1000, "the latch tag: one record for 1000 runs");
	want(3, REC_TAG, T_EXIT, 1, "the exit tag, once");
	want(4, REC_STOP, 0, 0, "STOP");
	want_end(5);
	is_u32(rtime(0), t0, "START at the clock's time (it stands while the unit is off)");
	is_u32(rtime(1) - rtime(0), 0, "the entry tag right after the enabling store (not timed)");
	is_u32(rtime(2) - rtime(1), 2, "the first latch 2 cycles later (entry tag, subcc)");
	is_u32(rtime(3) - rtime(2), 4 * 1000 - 1,
	       "the exit tag 1000 iterations of 4 cycles after the first latch, less its subcc");
	is_u32(rtime(4) - rtime(3), 1, "STOP after the exit tag's cycle");
	is_u32(lda_asi2(PMU_TRTIME_LO), rtime(4), "TRTIME stops with the unit");
	is_u32(rec(0)->c, 0, "START: the clock's high word (0)");
	is_u32(rec(1)->c, (u32)tl_entry, "TAG: the entry tag's PC");
	is_u32(rec(2)->c, (u32)tl_latch, "TAG: the latch tag's PC");
	is_u32(rec(3)->c, (u32)tl_exit, "TAG: the exit tag's PC");
}

/* The clock's high word: in START, and in a TIME record when it changes. */
static void test_time(void)
{
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRTIME_HI, 1);
	sta_asi2(PMU_TRTIME_LO, 0xffffff00u);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU, 1000);
	want(0, REC_START, 0, 77, "START");
	is_u32(rec(0)->c, 1, "START: high word 1");
	is_u32(rtime(0), 0xffffff00u, "... low word as TRTIME_LO was set");
	want(1, REC_TAG, T_ENTRY, 1, "entry");
	want(2, REC_TAG, T_LATCH, 1000, "latch");
	want(3, REC_TIME, 0, 0, "TIME: the high word changed in the loop");
	is_u32(rec(3)->c, 2, "... to 2");
	want(4, REC_TAG, T_EXIT, 1, "exit");
	is_u32(rtime(4) - rtime(2), 4 * 1000 - 1, "the exit's low word, across the carry");
	want(5, REC_STOP, 0, 0, "STOP");
	want_end(6);
	is_u32(lda_asi2(PMU_TRTIME_HI), 2, "TRTIME_HI 2");
	sta_asi2(PMU_TRTIME_HI, 0);
	sta_asi2(PMU_TRTIME_LO, 0);
}

/*
 * callloop(100) with the clock @ic (0: cycles, TRACE_IC: instructions),
 * whose iteration takes @per of it: the same records either way, and
 * the times the clock gives
 */
static void check_callloop(u32 ic, u32 per, const char *unit)
{
	u32 t0 = lda_asi2(PMU_TRTIME_LO);

	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	callloop(PMU_TRCTRL, TRACE_EN | TRACE_SU | ic, 100);
	want(0, REC_START, !!ic, 77, ic ? "START: A = 1, the clock counts instructions" : "START");
	want(1, REC_TAG, T_ENTRY, 1, "entry");
	want(2, REC_TAG, T_FENTRY, 1, "the first iteration: the call's entry");
	want(3, REC_TAG, T_FEXIT, 1, "... its exit");
	want(4, REC_TAG, T_LATCH, 1, "... the latch");
	want(5, REC_REPEAT, 3, 99, "REPEAT: the last 3 records 99 times more");
	want(6, REC_TAG, T_EXIT, 1, "the loop's exit");
	want(7, REC_STOP, 0, 0, "STOP");
	want_end(8);
	is_u32(rtime(0), t0, "START at the time the last STOP left the clock");
	is_u32(rtime(2) - rtime(1), 3, "the call's entry tag: entry tag, call, nop");
	is_u32(rtime(5) - rtime(2), per, "REPEAT: at the second iteration, %u %s on", per, unit);
	is_u32(rtime(6) - rtime(2), per * 100 - 2,
	       "the exit tag: 100 iterations of %u %s on, less call and nop", per, unit);
}

static void test_repeat(void)
{
	check_callloop(0, 13, "cycles");
}

static volatile u32 sink;

/* IC: the clock counts instructions, and START says so. */
static void test_iclock(void)
{
	u32 t0, d[2], i, n;

	check_callloop(TRACE_IC, 11, "instructions");

	/* IC stays as EN set it until EN is cleared. */
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_IC);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU);
	is_u32(lda_asi2(PMU_TRCTRL), TRACE_EN | TRACE_SU | TRACE_IC,
	       "a write that keeps EN set keeps IC");
	sta_asi2(PMU_TRCTRL, 0);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU);
	is_u32(lda_asi2(PMU_TRCTRL), TRACE_EN | TRACE_SU, "EN set again: IC as written");
	sta_asi2(PMU_TRCTRL, 0);
	want(2, REC_START, 0, 77, "... and START says cycles (A = 0)");

	/* Only the instructions of the modes whose tags it records */
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_IC);
	t0 = lda_asi2(PMU_TRTIME_LO);
	for (i = 0; i < 100; i++)
		sink += i;
	is_u32(lda_asi2(PMU_TRTIME_LO), t0, "IC, user mode only: supervisor code does not count");
	for (n = 50; n <= 150; n += 100) {
		t0 = lda_asi2(PMU_TRTIME_LO);
		to_user();
		usertags(n);
		to_supervisor();
		d[n > 50] = lda_asi2(PMU_TRTIME_LO) - t0;
	}
	is_u32(d[1] - d[0], 4 * 100,
	       "IC, user mode only: 100 more iterations of 4 user instructions, 400 more");
	sta_asi2(PMU_TRCTRL, 0);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_IC);
	t0 = lda_asi2(PMU_TRTIME_LO);
	for (i = 0; i < 100; i++)
		sink += i;
	ok(lda_asi2(PMU_TRTIME_LO) - t0 >= 100, "IC with SU: supervisor code counts");
	sta_asi2(PMU_TRCTRL, 0);
}

static void test_odd_tags(void)
{
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	oddtags(PMU_TRCTRL, TRACE_EN | TRACE_SU);
	want(0, REC_START, 0, 77, "START");
	want(1, REC_TAG, 0x000005, 1, "a tag of kind 0 is recorded as it is");
	want(2, REC_TAG, 0x300006, 1, "... of kind 6");
	want(3, REC_TAG, 0x3fffff, 1, "... of kind 7");
	want(4, REC_STOP, 0, 0, "STOP: the nop (sethi 0, %g0) is no tag");
	want_end(5);
}

static void test_events(void)
{
	u32 i, n = 0, ovf = 0, t;

	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_PIDREC);
	sta_asi2(PMU_PID, 5);
	sta_asi2(PMU_PID, 6);
	sta_asi2(PMU_TRCTRL, 0);
	want(0, REC_START, 0, 77, "START");
	want(1, REC_PID, 0, 5, "a PID write");
	want(2, REC_PID, 0, 6, "another");
	want(3, REC_STOP, 0, 0, "STOP");
	want_end(4);

	/*
	 * The PID log: PID records only (SU clear, NU set: no tag is
	 * recorded), a time slice between two of them, with an address-range
	 * counter counting or not (the PID log's fold once took the AF
	 * counters' cycles for its own).
	 */
	for (i = 0; i < 2; i++) {
		sta_asi2(PMU_PID, 77);
		if (i) {
			sta_asi2(PMU_RANGE_LO(1), 4);
			sta_asi2(PMU_RANGE_HI(1), 4);
			sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | 0x11);
			sta_asi2(PMU_GCTRL, GCTRL_EN);
		}
		trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
		sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_NU | TRACE_PIDREC);
		usertags(10);
		switches(PMU_PID, 7, 8, 1000);
		sta_asi2(PMU_TRCTRL, 0);
		sta_asi2(PMU_GCTRL, 0);
		sta_asi2(PMU_EVCTRL(0), 0);
		want(0, REC_START, 0, 77, i ? "PID records, an AF counter counting: START" :
		     "PID records only: START");
		want(1, REC_PID, 0, 7, "... no tag of the 10 run, the first PID write");
		want(2, REC_PID, 0, 8, "... the second");
		is_u32(rtime(2) - rtime(1), 2 + 1 + 4 * 1000,
		       "... PID 7's slice: the store, the mov and the loop, 2 + 1 + 4n (n = 1000)");
		want(3, REC_STOP, 0, 0, "... STOP");
		want_end(4);
	}
	sta_asi2(PMU_PID, 77);

	/* The cycle counter wraps while the unit records overflows. */
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
	sta_asi2(PMU_CYCCNT, 0xffffff00u);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_OVFREC);
	sta_asi2(PMU_GCTRL, GCTRL_EN);
	for (i = 0; i < 100; i++)
		sink = i;
	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_TRCTRL, 0);
	sta_asi2(PMU_CYCCTRL, 0);
	sta_asi2(PMU_OVF, OVF_CYC);
	for (i = 0; i < 8 && rec(i)->w0; i++) {
		n++;
		if (rec(i)->w0 >> 28 == REC_OVERFLOW) {
			ovf++;
			is_u32(rec(i)->w0 & 0x3fffff, OVF_CYC, "OVERFLOW: the cycle counter's OVF bit");
			t = rtime(i);
		}
	}
	is_u32(ovf, 1, "one OVERFLOW record for one wrap");
	is_u32(n, 3, "START, OVERFLOW, STOP");
	ok(ovf && t > rtime(0) + 0x100 && t <= rtime(2),
	   "it comes after the 256 cycles to the wrap, before STOP");
}

static void test_full(void)
{
	trace_setup(TRACE_NPAGES, 0, 3 * RECSZ, NEVER);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU, 10);
	want(0, REC_START, 0, 77, "START");
	want(1, REC_TAG, T_ENTRY, 1, "the records before the loss are intact: entry");
	want(2, REC_TAG, T_LATCH, 10, "... latch");
	want_end(3);
	ok(lda_asi2(PMU_TRCTRL) & TRACE_FULL, "FULL: room for 3 records, 5 to write");
	is_u32(lda_asi2(PMU_TRLOST), 2, "TRLOST: the exit tag and STOP");
	ok(lda_asi2(PMU_OVF) & OVF_TRACE, "OVF bit 7: the unit stopped");
	is_u32(lda_asi2(PMU_OVF) & OVF_IRQ, 0, "... no interrupt without IRQEN");

	/* More room, and CLR: a LOST record first. */
	sta_asi2(PMU_TRLIMIT, 7 * RECSZ);
	tagloop(PMU_TRCTRL, TRACE_CLR | TRACE_EN | TRACE_SU, 5);
	want(3, REC_LOST, 0, 2, "after CLR: LOST, with what was lost");
	want(4, REC_START, 0, 77, "START");
	want(5, REC_TAG, T_ENTRY, 1, "entry");
	want(6, REC_TAG, T_LATCH, 5, "latch");
	want_end(7);
	is_u32(lda_asi2(PMU_TRLOST), 2, "lost again: exit and STOP");
	is_u32(rtime(3), rtime(4), "LOST has the time recording resumed");

	/* Full while the tags run: every tag after it counts. */
	trace_setup(TRACE_NPAGES, 0, 2 * RECSZ, NEVER);
	callloop(PMU_TRCTRL, TRACE_EN | TRACE_SU, 50);
	want(0, REC_START, 0, 77, "START");
	want(1, REC_TAG, T_ENTRY, 1, "entry");
	want_end(2);
	is_u32(lda_asi2(PMU_TRLOST), 3 * 50 + 2, "TRLOST: the 150 tags of the loop, the exit and STOP");
	sta_asi2(PMU_OVF, OVF_TRACE);
}

static void test_watermark(void)
{
	trace_setup(TRACE_NPAGES, 0, ROOM, 2 * RECSZ);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU, 3);
	ok(lda_asi2(PMU_OVF) & OVF_TRACE, "watermark after 2 records: OVF bit 7");
	is_u32(lda_asi2(PMU_OVF) & OVF_IRQ, 0, "... no interrupt without IRQEN");
	ok(!(lda_asi2(PMU_TRCTRL) & TRACE_FULL), "... the unit goes on");
	want_end(5);

	trace_setup(TRACE_NPAGES, 0, ROOM, 2 * RECSZ);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_IRQEN, 3);
	ok(lda_asi2(PMU_OVF) & OVF_IRQ, "with IRQEN: the PMU's interrupt is pending");
	sta_asi2(PMU_GCTRL, GCTRL_IRQCLR);
	sta_asi2(PMU_OVF, OVF_TRACE);
	is_u32(lda_asi2(PMU_OVF), 0, "IRQCLR and OVF bit 7 cleared");
}

static void test_pages(void)
{
	const struct rec *r;

	/* Two pages, the table in reverse; start 2 records before the end. */
	trace_setup(2, 2 * PAGE - 2 * RECSZ, 2 * PAGE + ROOM, NEVER);
	table[0] = (u32)buf[1];
	table[1] = (u32)buf[0];
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU, 8);
	r = (const struct rec *)((u32)buf[0] + PAGE - 2 * RECSZ);
	is_u32(r[0].w0 >> 28, REC_START, "START in the table's second page (buf[0]), at its end");
	is_u32(r[1].w0, REC_TAG << 28 | T_ENTRY, "the entry tag after it");
	r = (const struct rec *)buf[1];
	is_u32(r[0].w0, REC_TAG << 28 | T_LATCH, "the head wrapped to the table's first page (buf[1])");
	is_u32(r[1].w0, REC_TAG << 28 | T_EXIT, "the exit tag after it");
	is_u32(r[2].w0 >> 28, REC_STOP, "STOP");
	is_u32(lda_asi2(PMU_TRHEAD), 2 * PAGE + 3 * RECSZ, "TRHEAD runs on; the buffer position wraps");
}

/*
 * A page's table entry is read when the unit enters the page, and again
 * after TRTABLE or TRPAGES is written or the unit is enabled.
 */
static void test_page_entry(void)
{
	const struct rec *r0 = (const struct rec *)buf[0];
	const struct rec *r1 = (const struct rec *)buf[1];

	trace_setup(2, 0, ROOM, NEVER);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU);
	table[0] = (u32)buf[1];
	sta_asi2(PMU_TRCTRL, 0);
	is_u32(r0[0].w0 >> 28, REC_START, "START in page 0, where the table said (buf[0])");
	is_u32(r0[1].w0 >> 28, REC_STOP,
	       "STOP in the same page: its entry, changed in memory since, is not read again");
	is_u32(r1[1].w0, 0, "... nothing where the entry points now (buf[1])");
	sta_asi2(PMU_TRTABLE, (u32)table);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU);
	sta_asi2(PMU_TRCTRL, 0);
	is_u32(r1[2].w0 >> 28, REC_START,
	       "TRTABLE written, the unit enabled: the entry read again, START in buf[1]");
	is_u32(r1[3].w0 >> 28, REC_STOP, "... and STOP after it");
	is_u32(r0[2].w0, 0, "... nothing more in buf[0]");
}

static void test_filters(void)
{
	/* User mode only (no SU): the kernel's tags are not seen. */
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	tagloop(PMU_TRCTRL, TRACE_EN, 10);
	want(0, REC_START, 0, 77, "user only: START");
	want(1, REC_STOP, 0, 0, "... STOP; no supervisor tags");
	want_end(2);

	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRCTRL, TRACE_EN);
	to_user();
	usertags(50);
	to_supervisor();
	sta_asi2(PMU_TRCTRL, 0);
	want(1, REC_TAG, T_ULATCH, 50, "user only: the user-mode tags");
	want(2, REC_STOP, 0, 0, "STOP");

	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_NU);
	to_user();
	usertags(50);
	to_supervisor();
	sta_asi2(PMU_TRCTRL, 0);
	want(1, REC_STOP, 0, 0, "NU: user-mode tags are not seen");

	/* PF: only while PID == TRPID */
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRPID, 42);
	sta_asi2(PMU_PID, 41);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_PF, 10);
	want(1, REC_STOP, 0, 0, "PF, PID 41 for TRPID 42: no tags");
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_PID, 42);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_PF, 10);
	want(0, REC_START, 0, 42, "PF, PID 42: START");
	want(2, REC_TAG, T_LATCH, 10, "... and the tags");
	want_end(5);

	/*
	 * A run of one tag at one PC, translated code counting it: the PID
	 * changes in the middle, and the tags of the other PID are not seen;
	 * back to PID 42, the run goes on.
	 */
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU | TRACE_PF);
	usertags(10);
	sta_asi2(PMU_PID, 41);
	usertags(10);
	sta_asi2(PMU_PID, 42);
	usertags(10);
	sta_asi2(PMU_TRCTRL, 0);
	want(1, REC_TAG, T_ULATCH, 20, "a run across a PID change: PID 42's 20 tags, not PID 41's");
	want(2, REC_STOP, 0, 0, "STOP");
	want_end(3);
	sta_asi2(PMU_PID, 77);
}

/* The unit must refuse buffers that are not RAM, and stop. */
static void bad_buffer(u32 tab, u32 pages, u32 page0, const char *what)
{
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	table[0] = page0;
	sta_asi2(PMU_TRTABLE, tab);
	sta_asi2(PMU_TRPAGES, pages);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU, 10);
	ok(lda_asi2(PMU_TRCTRL) & TRACE_ERR, "%s: ERR", what);
	is_u32(lda_asi2(PMU_TRHEAD), 0, "%s: nothing written", what);
	is_u32(lda_asi2(PMU_TRLOST), 14, "%s: START, 12 tags and STOP lost", what);
	is_u32(((const u32 *)buf[0])[0], 0, "%s: RAM untouched", what);
}

static void test_bad_buffers(void)
{
	bad_buffer((u32)table, 3, (u32)buf[0], "3 pages (not a power of two)");
	bad_buffer(UART_BASE, 1, (u32)buf[0], "the table on the APB bus");
	bad_buffer((u32)table, 1, UART_BASE & ~(PAGE - 1), "a page on the APB bus");
	bad_buffer((u32)table, 1, (u32)buf[0] + 16, "a page not page-aligned");
	bad_buffer((u32)table, 1, 0, "a page at 0 (the PROM)");
	sta_asi2(PMU_OVF, OVF_TRACE);
	sta_asi2(PMU_TRCTRL, TRACE_CLR);
	sta_asi2(PMU_TRLOST, 0);
}

static volatile u32 cpu1_done;
static u32 cpu1_table[1], cpu1_buf[PAGE / 4] __attribute__((aligned(PAGE)));

/* Each CPU has its own unit: CPU 1 traces into its own buffer. */
void secondary_main(unsigned int cpu)
{
	cpu1_table[0] = (u32)cpu1_buf;
	sta_asi2(PMU_TRTABLE, (u32)cpu1_table);
	sta_asi2(PMU_TRPAGES, 1);
	sta_asi2(PMU_TRLIMIT, PAGE);
	tagloop(PMU_TRCTRL, TRACE_EN | TRACE_SU, 4);
	cpu1_done = 1;
	cpu_idle();
}

static void test_cpu1(void)
{
	if (smp_ncpus() < 2) {
		skip("each CPU has its own trace unit", "1 CPU");
		return;
	}
	trace_setup(TRACE_NPAGES, 0, ROOM, NEVER);
	sta_asi2(PMU_TRCTRL, TRACE_EN | TRACE_SU);
	start_cpu(1);
	ok(wait_for(cpu1_done, WAIT_LONG), "CPU 1 ran its loop");
	sta_asi2(PMU_TRCTRL, 0);
	is_u32(cpu1_buf[0], REC_START << 28 | 1 << 24, "CPU 1's START in its buffer, CPU field 1");
	is_u32(cpu1_buf[4 * 2], REC_TAG << 28 | 1 << 24 | T_LATCH, "CPU 1's latch tag");
	is_u32(cpu1_buf[4 * 2 + 1], 4, "... 4 times");
	is_u32(cpu1_buf[4 * 2 + 2], (u32)tl_latch, "... at its PC");
	is_u32(rec(0)->w0 >> 28, REC_START, "CPU 0's unit: START");
	is_u32(rec(1)->w0 >> 28, REC_STOP, "CPU 0's unit: nothing of CPU 1's tags");
}

int main(void)
{
	test_registers();
	test_loop();
	test_time();
	test_repeat();
	test_iclock();
	test_odd_tags();
	test_events();
	test_full();
	test_watermark();
	test_pages();
	test_page_entry();
	test_filters();
	test_bad_buffers();
	test_cpu1();
	sta_asi2(PMU_PID, 0);
	return 0;
}
