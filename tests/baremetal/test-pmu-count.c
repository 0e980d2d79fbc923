// SPDX-License-Identifier: GPL-2.0
/*
 * What the PMU counts.  Every expected value is worked out here from the
 * instruction sequences below (and, for cycles, from the timing model of
 * Documentation/pmu-registers.md), never read back from the model:
 * exact instruction, branch, load and store counts for known loops,
 * user/kernel filtering around traps (and the same counts from the same
 * code when every counter counts in both modes), window traps against
 * the trap handlers' own count, the overflow interrupt through the IRQMP
 * extended interrupt with its skid, and one PMU per CPU.  Under -icount
 * with two CPUs QEMU cuts blocks wherever a CPU's turn ends: the counts
 * must not change.
 *
 * qemu-args:
 * qemu-args: -smp 2
 * qemu-args: -smp 2 -icount shift=5,sleep=off
 */
#include "baremetal.h"
#include "pmu.h"

#define EV_INSN		0x11
#define EV_INT		0x12
#define EV_FP		0x13
#define EV_CYCLES	0x15
#define EV_BRANCH	0x22
#define EV_CALL		0x28
#define EV_LDST		0x38
#define EV_LOAD		0x39
#define EV_STORE	0x3a
#define EV_WIN_OVF	0x84
#define EV_WIN_UNF	0x85
#define EV_TRAP		0x86
#define EV_TAKEN	0x87

#define PSR_EF		0x00001000

/*
 * Leaf routines: the store enables a counter, the load reads one; in
 * between, exactly the instructions listed.  The store and the load are
 * not counted (Documentation/pmu-registers.md).
 *
 * u32 loop3(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, u32 n):
 *   1 + 3n instructions (mov; n x subcc, bne, nop); n branches, n - 1
 *   taken; cycles 1 + 4n (the bne follows subcc: +1).
 *
 * u32 memloop(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, u32 n, void *buf):
 *   1 + 6n instructions; per iteration ld, st (uses the loaded register:
 *   +1), ldd (2), subcc, bne (+1), swap (3): 12 cycles, 3 loads (ld,
 *   ldd, swap), 2 stores (st, swap).
 *
 * u32 ldloop(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, u32 n, void *buf):
 *   1 + 11n instructions; per iteration 8 ld of buf (none used), subcc,
 *   bne (+1), nop: 12 cycles and 8 loads, the densest loads can be.
 *
 * u32 fploop(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, u32 n):
 *   1 + 4n instructions, n of them FP (faddd, 4 cycles): 1 + 8n cycles.
 *
 * void userloop(u32 n): ta 1 (to user); mov; n x (subcc, bne, nop);
 *   ta 2 (back): 3n + 2 user-mode instructions, ta 2 included.
 */
asm(".text\n"
    ".global loop3\n"
    "loop3:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	%o3, %o4\n"
    "1:	subcc	%o4, 1, %o4\n"
    "	bne	1b\n"
    "	 nop\n"
    "	lda	[%o2] 2, %o0\n"
    "	retl\n"
    "	 nop\n"
    ".global memloop\n"
    "memloop:\n"
    "	save	%sp, -96, %sp\n"
    "	sta	%i1, [%i0] 2\n"
    "	mov	%i3, %l0\n"
    "1:	ld	[%i4], %l1\n"
    "	st	%l1, [%i4 + 4]\n"
    "	ldd	[%i4], %l2\n"
    "	subcc	%l0, 1, %l0\n"
    "	bne	1b\n"
    "	 swap	[%i4 + 8], %l4\n"
    "	lda	[%i2] 2, %i0\n"
    "	ret\n"
    "	 restore\n"
    ".global ldloop\n"
    "ldloop:\n"
    "	save	%sp, -96, %sp\n"
    "	sta	%i1, [%i0] 2\n"
    "	mov	%i3, %l0\n"
    "1:	ld	[%i4], %l1\n"
    "	ld	[%i4], %l2\n"
    "	ld	[%i4], %l3\n"
    "	ld	[%i4], %l4\n"
    "	ld	[%i4], %l5\n"
    "	ld	[%i4], %l6\n"
    "	ld	[%i4], %l7\n"
    "	ld	[%i4], %l1\n"
    "	subcc	%l0, 1, %l0\n"
    "	bne	1b\n"
    "	 nop\n"
    "	lda	[%i2] 2, %i0\n"
    "	ret\n"
    "	 restore\n"
    ".global fploop\n"
    "fploop:\n"
    "	sta	%o1, [%o0] 2\n"
    "	mov	%o3, %o4\n"
    "1:	faddd	%f0, %f2, %f4\n"
    "	subcc	%o4, 1, %o4\n"
    "	bne	1b\n"
    "	 nop\n"
    "	lda	[%o2] 2, %o0\n"
    "	retl\n"
    "	 nop\n"
    ".global userloop\n"
    "userloop:\n"
    "	ta	1\n"
    "	mov	%o0, %o4\n"
    "1:	subcc	%o4, 1, %o4\n"
    "	bne	1b\n"
    "	 nop\n"
    "	ta	2\n"
    "	retl\n"
    "	 nop\n");

/*
 * u32 pair_NAME(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, void *buf): two
 * instructions back to back in one block, for the two +1 rules of the
 * timing model: what each instruction reads and loads, as the SPARC V8
 * manual defines its operands.
 */
#define PAIR(name, first, second)		\
	".global pair_" #name "\n"		\
	"pair_" #name ":\n"			\
	"	sta	%o1, [%o0] 2\n"		\
	"	" first "\n"			\
	"	" second "\n"			\
	"	lda	[%o2] 2, %o0\n"		\
	"	retl\n"				\
	"	 nop\n"
asm(".text\n"
    PAIR(ld_add, "ld [%o3], %g1", "add %g1, 1, %g2")
    PAIR(ld_ldstub, "ld [%o3], %g1", "ldstub [%o3 + 8], %g1")
    PAIR(ld_swap, "ld [%o3], %g1", "swap [%o3 + 8], %g1")
    PAIR(ld_casa, "ld [%o3], %g2", "casa [%o3] 0xb, %g2, %g3")
    PAIR(casa_add, "casa [%o3] 0xb, %g2, %g3", "add %g3, 1, %g4")
    PAIR(ld_fadds, "ld [%o3], %g1", "fadds %f1, %f1, %f2")
    PAIR(ld_rdasr, "ld [%o3], %l1", "rd %asr17, %g2")
    PAIR(ldd_add, "ldd [%o3], %g2", "add %g3, 1, %g1"));

#define PAIR_FN(name) u32 pair_##name(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, void *buf)
PAIR_FN(ld_add);
PAIR_FN(ld_ldstub);
PAIR_FN(ld_swap);
PAIR_FN(ld_casa);
PAIR_FN(casa_add);
PAIR_FN(ld_fadds);
PAIR_FN(ld_rdasr);
PAIR_FN(ldd_add);
u32 loop3(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, u32 n);
u32 memloop(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, u32 n, void *buf);
u32 ldloop(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, u32 n, void *buf);
u32 fploop(u32 ctrl_addr, u32 ctrl, u32 cnt_addr, u32 n);
void userloop(u32 n);

static void pmu_reset(void)
{
	int i;

	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_CYCCTRL, CTRL_CLR);
	for (i = 0; i < PMU_NEV; i++)
		sta_asi2(PMU_EVCTRL(i), CTRL_CLR);
	sta_asi2(PMU_OVF, 0x7f);
	sta_asi2(PMU_GCTRL, GCTRL_IRQCLR | GCTRL_EN);
}

/* Counter 0 counts @event in supervisor mode over one loop3(n). */
static u32 count_loop3(u32 event, u32 n)
{
	pmu_reset();
	return loop3(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | event, PMU_EVCNT(0), n);
}

/*
 * Cycles of the pairs, from the timing table: ld 1, ldd 2, add 1,
 * ldstub/swap/casa 3, fadds 4, rd 1; +1 where the second instruction
 * reads a register the first loads.
 */
static void test_interlocks(void)
{
	static u32 buf[4] __attribute__((aligned(8)));
	u32 (*const fns[])(u32, u32, u32, void *) = {
		pair_ld_add, pair_ld_ldstub, pair_ld_swap, pair_ld_casa,
		pair_casa_add, pair_ld_fadds, pair_ld_rdasr, pair_ldd_add,
	};
	static const struct {
		u32 cycles;
		const char *what;
	} want[] = {
		{ 1 + 1 + 1, "ld, add of the loaded register: +1" },
		{ 1 + 3, "ld, ldstub into the loaded register: ldstub reads no rd" },
		{ 1 + 3 + 1, "ld, swap of the loaded register: swap stores rd, +1" },
		{ 1 + 3 + 1, "ld, casa comparing with the loaded register: +1" },
		{ 3 + 1 + 1, "casa, add of the register it loads: +1" },
		{ 1 + 4, "ld %g1, fadds %f1: an FP register is not %g1" },
		{ 1 + 1, "ld %l1, rd %asr17: its rs1 field (17) names no register" },
		{ 2 + 1 + 1, "ldd %g2, add of %g3, the pair's second: +1" },
	};
	unsigned int i;

	wr_psr(rd_psr() | PSR_EF);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		pmu_reset();
		is_u32(fns[i](PMU_CYCCTRL, CTRL_EN | CTRL_SU, PMU_CYCCNT, buf),
		       want[i].cycles, "cycles: %s", want[i].what);
	}
	wr_psr(rd_psr() & ~PSR_EF);
}

static void test_loops(void)
{
	static const u32 ns[] = { 1, 10, 1000, 100000 };
	static u32 buf[4] __attribute__((aligned(8)));
	unsigned int i;
	u32 n;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		n = ns[i];
		is_u32(count_loop3(EV_INSN, n), 1 + 3 * n,
		       "instructions: loop of %u x 3 (+1)", n);
	}
	n = 1000;
	pmu_reset();
	is_u32(loop3(PMU_CYCCTRL, CTRL_EN | CTRL_SU, PMU_CYCCNT, n), 1 + 4 * n,
	       "cycle counter: loop of %u (timing model: 1 + 4n)", n);
	is_u32(count_loop3(EV_CYCLES, n), 1 + 4 * n, "cycles event (0x15): the same");

	/*
	 * Longer than the model's pending counts may grow between folds
	 * (2^20 cycles, Documentation/performance.md): 40 million cycles
	 * and 30 million instructions, still exact; and branches, and
	 * loads at 2 every 3 cycles, which blocks add to fields of 21 bits.
	 */
	n = 10000000;
	pmu_reset();
	is_u32(loop3(PMU_CYCCTRL, CTRL_EN | CTRL_SU, PMU_CYCCNT, n), 1 + 4 * n,
	       "cycle counter: loop of %u, over several folds", n);
	is_u32(count_loop3(EV_INSN, n), 1 + 3 * n, "instructions: the same loop");
	is_u32(count_loop3(EV_BRANCH, n), n, "branches: the same loop");
	n = 2000000;
	pmu_reset();
	is_u32(ldloop(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_LOAD, PMU_EVCNT(0), n, buf),
	       8 * n, "loads: %u iterations of 8, over several folds", n);
	pmu_reset();
	is_u32(ldloop(PMU_CYCCTRL, CTRL_EN | CTRL_SU, PMU_CYCCNT, n, buf),
	       1 + 12 * n, "cycles: the same loop (timing model: 1 + 12n)");
	pmu_reset();
	is_u32(memloop(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_STORE, PMU_EVCNT(0), n, buf),
	       2 * n, "stores: %u iterations of the memory loop, over several folds", n);
	n = 1000;
	is_u32(count_loop3(EV_INT, n), 1 + 3 * n, "integer instructions: all of them");
	is_u32(count_loop3(EV_FP, n), 0, "FP instructions: none");
	is_u32(count_loop3(EV_BRANCH, n), n, "branches: %u", n);
	is_u32(count_loop3(EV_TAKEN, n), n - 1, "taken branches: %u (the last falls through)", n - 1);
	is_u32(count_loop3(EV_CALL, n), 0, "calls: none");
	is_u32(count_loop3(EV_LOAD, n), 0, "loads: none");

	n = 500;
	pmu_reset();
	is_u32(memloop(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_INSN, PMU_EVCNT(0), n, buf),
	       1 + 6 * n, "memory loop: instructions");
	pmu_reset();
	is_u32(memloop(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_LOAD, PMU_EVCNT(0), n, buf),
	       3 * n, "memory loop: loads (ld, ldd, swap)");
	pmu_reset();
	is_u32(memloop(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_STORE, PMU_EVCNT(0), n, buf),
	       2 * n, "memory loop: stores (st, swap)");
	pmu_reset();
	is_u32(memloop(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_LDST, PMU_EVCNT(0), n, buf),
	       5 * n, "memory loop: loads + stores");
	pmu_reset();
	is_u32(memloop(PMU_CYCCTRL, CTRL_EN | CTRL_SU, PMU_CYCCNT, n, buf), 1 + 12 * n,
	       "memory loop: cycles (load-use, LDD, ST, SWAP latencies)");

	n = 300;
	wr_psr(rd_psr() | PSR_EF);
	pmu_reset();
	is_u32(fploop(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_FP, PMU_EVCNT(0), n), n,
	       "FP loop: FP instructions");
	pmu_reset();
	is_u32(fploop(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_INT, PMU_EVCNT(0), n),
	       1 + 3 * n, "FP loop: integer instructions");
	pmu_reset();
	is_u32(fploop(PMU_CYCCTRL, CTRL_EN | CTRL_SU, PMU_CYCCNT, n), 1 + 8 * n,
	       "FP loop: cycles (FADDd 4)");
	wr_psr(rd_psr() & ~PSR_EF);
}

/*
 * userloop(@n) with counter i programmed to @ctrl[i], all started
 * together (programmed while GCTRL.EN is off); their counts in @cnt.
 */
static void userloop_counted(u32 n, const u32 *ctrl, u32 *cnt, int nr)
{
	int i;

	pmu_reset();
	sta_asi2(PMU_GCTRL, 0);
	for (i = 0; i < nr; i++)
		sta_asi2(PMU_EVCTRL(i), ctrl[i]);
	sta_asi2(PMU_GCTRL, GCTRL_EN);
	userloop(n);
	sta_asi2(PMU_GCTRL, 0);
	for (i = 0; i < nr; i++)
		cnt[i] = lda_asi2(PMU_EVCNT(i));
}

static void test_modes(void)
{
	static const u32 split[6] = {
		CTRL_EN | EV_INSN,			/* user only */
		CTRL_EN | CTRL_SU | CTRL_NU | EV_INSN,	/* kernel only */
		CTRL_EN | CTRL_SU | EV_INSN,		/* both */
		CTRL_EN | CTRL_SU | EV_TRAP,
		CTRL_EN | CTRL_SU | EV_WIN_OVF,
		CTRL_EN | CTRL_SU | EV_WIN_UNF,
	};
	/*
	 * Every counter counting in both modes: then a trap, RETT or WRPSR
	 * leaves what is pending for the next fold.  The same code counts
	 * the same as with the counters split, where each of them folded.
	 */
	static const u32 alike[4] = {
		CTRL_EN | CTRL_SU | EV_INSN,
		CTRL_EN | CTRL_SU | EV_TRAP,
		CTRL_EN | CTRL_SU | EV_WIN_OVF,
		CTRL_EN | CTRL_SU | EV_WIN_UNF,
	};
	u32 n = 2000, c[6], a[4];

	userloop_counted(n, split, c, 6);
	is_u32(c[0], 3 * n + 2, "user-only counter: the user loop and its ta (%u)", n);
	ok(c[1] > 0, "kernel-only counter (SU + NU) counts the trap handlers (%u)", c[1]);
	is_u32(c[2], c[0] + c[1], "a counter of both modes counts user + kernel");
	is_u32(c[3], 2 + c[4] + c[5], "traps: ta 1, ta 2 and the window traps");

	userloop_counted(n, alike, a, 4);
	is_u32(a[0], c[2], "all counters of both modes: instructions, user + kernel");
	is_u32(a[1], c[3], "all counters of both modes: traps");
	is_u32(a[2], c[4], "all counters of both modes: window overflows");
	is_u32(a[3], c[5], "all counters of both modes: window underflows");
}

static volatile unsigned int zero;

static void test_windows(void)
{
	unsigned int cpu = cpu_index(), o0 = window_overflows[cpu], u0 = window_underflows[cpu];
	u32 ovf, unf;

	pmu_reset();
	sta_asi2(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_WIN_OVF);
	sta_asi2(PMU_EVCTRL(1), CTRL_EN | CTRL_SU | EV_WIN_UNF);
	is_u32(window_sum(30), 30 * 31 / 2, "recursion of depth 30");
	sta_asi2(PMU_GCTRL, 0);
	ovf = lda_asi2(PMU_EVCNT(0));
	unf = lda_asi2(PMU_EVCNT(1));
	ok(ovf >= 30 - 8, "window overflows counted: %u for depth 30, 8 windows", ovf);
	is_u32(ovf, window_overflows[cpu] - o0, "... as many as the overflow handler ran");
	is_u32(unf, window_underflows[cpu] - u0, "underflows: as many as the handler ran (%u)", unf);
}

/* PID register and per-counter PID match (PF, extension registers) */

static void test_pid(void)
{
	u32 n = 700;

	sta_asi2(PMU_PID, 42);
	sta_asi2(PMU_PIDMATCH(1), 42);
	is_u32(count_loop3(EV_INSN | CTRL_PF, n), 1 + 3 * n,
	       "PID filter: counts while PID matches");
	sta_asi2(PMU_PIDMATCH(1), 43);
	is_u32(count_loop3(EV_INSN | CTRL_PF, n), 0, "PID filter: nothing for another PID");
	sta_asi2(PMU_PIDMATCH(0), 42);
	pmu_reset();
	is_u32(loop3(PMU_CYCCTRL, CTRL_EN | CTRL_SU | CTRL_PF, PMU_CYCCNT, n), 1 + 4 * n,
	       "PID filter on the cycle counter");
	is_u32(lda_asi2(PMU_PID), 42, "PID register reads back");
	sta_asi2(PMU_PID, 0);
}

/* ------------------------------------------------------------------ */
/* Overflow interrupt */

#define OVF_AT		1000u

static volatile unsigned int irq_calls[MAX_CPUS];
static volatile u32 irq_eid[MAX_CPUS], irq_ovf[MAX_CPUS], irq_ref[MAX_CPUS];
static volatile u32 irq_cnt0[MAX_CPUS];

void irq_handler(unsigned int level)
{
	unsigned int cpu = cpu_index();

	if (level != EIRQ) {
		ok(0, "CPU %u: unexpected interrupt %u", cpu, level);
		return;
	}
	irq_calls[cpu]++;
	irq_eid[cpu] = mmio_read32(IRQMP_EXTACK(cpu)) & 0x1f;
	irq_ovf[cpu] = lda_asi2(PMU_OVF);
	irq_ref[cpu] = lda_asi2(PMU_EVCNT(1));
	irq_cnt0[cpu] = lda_asi2(PMU_EVCNT(0));
}

/*
 * Counter 0 (with IRQEN) and counter 1 count user instructions; counter
 * 0 starts OVF_AT before the wrap.  The user loop ends when the handler
 * has run; counter 1, frozen in the handler, says how many instructions
 * ran after the overflow before the interrupt was taken.
 */
static void overflow_irq(unsigned int cpu, const char *who)
{
	u32 line = lda_asi2(PMU_IRQLINE), skid, i;

	ok(line >= 16 && line <= 31, "%s: PMU interrupt line %u is an extended one", who, line);
	irq_calls[cpu] = 0;
	pmu_reset();
	sta_asi2(PMU_EVCNT(0), 0u - OVF_AT);
	sta_asi2(PMU_EVCTRL(0), CTRL_EN | CTRL_IRQEN | EV_INSN);
	sta_asi2(PMU_EVCTRL(1), CTRL_EN | EV_INSN);
	mmio_write32(IRQMP_MASK(cpu), (1u << line) | (1u << EIRQ));
	set_pil(0);
	to_user();
	for (i = 0; i < 1000000 && !irq_calls[cpu]; i++)
		;
	to_supervisor();
	set_pil(15);

	is_u32(irq_calls[cpu], 1, "%s: one overflow interrupt", who);
	is_u32(irq_eid[cpu], line, "%s: extended acknowledge register holds the PMU line", who);
	is_u32(irq_ovf[cpu], OVF_IRQ | OVF_EV(0), "%s: OVF shows counter 0 and the IRQ", who);
	skid = irq_ref[cpu] - OVF_AT;
	ok(irq_ref[cpu] >= OVF_AT && skid <= 63,
	   "%s: interrupt taken %u instructions after the overflow (at most 63)", who, skid);
	is_u32(irq_cnt0[cpu], 0, "%s: the counter stopped at 0", who);

	/* Still stopped after more user work, until IRQCLR. */
	to_user();
	for (i = 0; i < 1000; i++)
		zero;
	to_supervisor();
	is_u32(lda_asi2(PMU_EVCNT(0)), 0, "%s: stopped until IRQCLR", who);
	sta_asi2(PMU_GCTRL, GCTRL_EN | GCTRL_IRQCLR);
	is_u32(lda_asi2(PMU_OVF), OVF_EV(0), "%s: IRQCLR clears OVF bit 31 only", who);
	to_user();
	for (i = 0; i < 1000; i++)
		zero;
	to_supervisor();
	ok(lda_asi2(PMU_EVCNT(0)) > 1000, "%s: counting again after IRQCLR", who);
	is_u32(irq_calls[cpu], 1, "%s: no second interrupt", who);
	mmio_write32(IRQMP_MASK(cpu), 0);
	sta_asi2(PMU_GCTRL, 0);
}

/* ------------------------------------------------------------------ */
/* SMP: CPU 1 has its own PMU and its own interrupt */

static volatile u32 cpu1_count, cpu1_line, cpu1_done;

void secondary_main(unsigned int cpu)
{
	if (cpu != 1)
		return;
	cpu1_line = lda_asi2(PMU_IRQLINE);
	cpu1_count = count_loop3(EV_INSN, 777);
	overflow_irq(1, "CPU 1");
	cpu1_done = 1;
}

static void test_smp(void)
{
	u32 mine;

	if (smp_ncpus() < 2) {
		skip("each CPU counts on its own PMU", "1 CPU");
		return;
	}
	pmu_reset();
	sta_asi2(PMU_EVCNT(2), 0x1234);
	sta_asi2(PMU_GCTRL, 0);
	start_cpu(1);
	ok(wait_for(cpu1_done, WAIT_LONG), "CPU 1 ran its PMU tests");
	is_u32(cpu1_count, 1 + 3 * 777, "CPU 1 counts its own loop exactly");
	ok(cpu1_line != lda_asi2(PMU_IRQLINE),
	   "the two PMUs have different interrupt lines (%u, %u)", lda_asi2(PMU_IRQLINE), cpu1_line);
	mine = lda_asi2(PMU_EVCNT(2));
	is_u32(mine, 0x1234, "CPU 0's counters untouched by CPU 1");
	is_u32(irq_calls[0], 1, "CPU 0 took no interrupt of CPU 1's PMU");
}

int main(void)
{
	u32 feat = lda_asi2(0x100);

	diag("PMU features 0x%08x, interrupt line %u", feat, lda_asi2(PMU_IRQLINE));
	is_u32((mmio_read32(IRQMP_MPSTAT) >> 16) & 0xf, EIRQ, "IRQMP forwards extended interrupts on %u", EIRQ);
	test_loops();
	test_interlocks();
	test_modes();
	test_windows();
	test_pid();
	overflow_irq(0, "CPU 0");
	test_smp();
	return 0;
}
