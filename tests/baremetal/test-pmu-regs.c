// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU's registers bit for bit, as Documentation/pmu-registers.md defines
 * them: reset values, writable and reserved bits, the clear actions,
 * OVF's write-1-to-clear, sizes other than 32 bits, EVENT_ID, one PMU per
 * CPU; and the ASI 0x02 cache configuration registers next to them.
 *
 * Until QEMU models the PMU these fail, but the run must still end: an
 * access that traps is counted (one "not ok" at the end) and skipped.
 *
 * qemu-args:
 * qemu-args: -smp 2
 */
#include "pmu.h"

#define NCNT		6
#define GCTRL_RESET	(NCNT << GCTRL_NCNT_SHIFT)
#define CTRL_RW		(CTRL_EN | CTRL_SU | CTRL_IRQEN | CTRL_NU | CTRL_PF | CTRL_AF)
#define EVCTRL_RW	(CTRL_RW | CTRL_EVENT)
#define EV_INSNS	0x11
#define EV_NONE		0xff	/* no event has this id (section 4) */
#define NREGS		((PMU_CORE_LAST - PMU_CORE_FIRST) / 4 + 1)
#define LOOPS		2000	/* enough instructions to wrap from 0xffffff00 */

static const char *const reg_names[NREGS] = {
	"GCTRL", "OVF", "CYCCNT", "CYCCTRL",
	"EVCNT0", "EVCTRL0", "EVCNT1", "EVCTRL1", "EVCNT2", "EVCTRL2",
	"EVCNT3", "EVCTRL3", "EVCNT4", "EVCTRL4", "EVCNT5", "EVCTRL5",
};

static const char *reg_name(u32 addr)
{
	return reg_names[(addr - PMU_CORE_FIRST) / 4];
}

/* Counter n: 0 is the cycle counter, 1 + i event counter i. */
static u32 cnt_addr(unsigned int n)
{
	return n ? PMU_EVCNT(n - 1) : PMU_CYCCNT;
}

static const char *cnt_name(unsigned int n)
{
	return reg_name(cnt_addr(n));
}

static u32 rd(u32 addr)
{
	return lda_asi2(addr);
}

static void wr(u32 addr, u32 v)
{
	sta_asi2(addr, v);
}

static void spin(unsigned int n)
{
	for (volatile unsigned int i = 0; i < n; i++)
		;
}

/* ------------------------------------------------------------------ */

static volatile unsigned int asi_traps;
static volatile u32 first_tt, first_pc;

static int count_trap(struct trap_frame *tf)
{
	if (!asi_traps++) {
		first_tt = tf->tt;
		first_pc = tf->pc;
	}
	trap_skip(tf);
	return 1;
}

/* Everything off, counters and OVF clear: each part starts from here. */
static void pmu_quiesce(void)
{
	int i;

	wr(PMU_GCTRL, 0);
	wr(PMU_CYCCTRL, 0);
	for (i = 0; i < NCNT; i++)
		wr(PMU_EVCTRL(i), 0);
	for (i = 0; i <= NCNT; i++)
		wr(cnt_addr(i), 0);
	wr(PMU_GCTRL, GCTRL_IRQCLR);
	wr(PMU_OVF, ~0u);
	wr(PMU_GCTRL, 0);
	mmio_write32(IRQMP_CLEAR, 0xffff0000);
}

/* The first counter that differs from want[], or NCNT + 1. */
static unsigned int first_mismatch(const u32 *want)
{
	unsigned int n;

	for (n = 0; n <= NCNT; n++)
		if (rd(cnt_addr(n)) != want[n])
			break;
	return n;
}

/* One line for all seven counters (they are disabled: reading is free). */
#define counters_are(want, fmt, ...) do {					\
	unsigned int n_ = first_mismatch(want);					\
										\
	if (n_ > NCNT)								\
		ok(1, fmt, ##__VA_ARGS__);					\
	else									\
		ok(0, fmt " (%s: got 0x%08x, want 0x%08x)", ##__VA_ARGS__,	\
		   cnt_name(n_), rd(cnt_addr(n_)), (want)[n_]);			\
} while (0)

/* Distinct non-zero values in all counters; want[] gets them. */
static void fill_counters(u32 *want)
{
	unsigned int n;

	for (n = 0; n <= NCNT; n++) {
		want[n] = 0x11111111u * (n + 1);
		wr(cnt_addr(n), want[n]);
	}
}

/* ------------------------------------------------------------------ */

static void test_reset(void)
{
	u32 a;

	for (a = PMU_CORE_FIRST; a <= PMU_CORE_LAST; a += 4)
		is_u32(rd(a), a == PMU_GCTRL ? GCTRL_RESET : 0, "%s reset value", reg_name(a));
}

static void test_masks(void)
{
	int i;

	wr(PMU_GCTRL, ~0u);
	is_u32(rd(PMU_GCTRL), GCTRL_EN | GCTRL_RESET,
	       "GCTRL all ones reads EN and NCNT only (actions and reserved read 0)");
	wr(PMU_GCTRL, ~GCTRL_NCNT & ~GCTRL_EN);
	is_u32(rd(PMU_GCTRL), GCTRL_RESET, "GCTRL: NCNT is read-only, reserved bits ignore writes");
	wr(PMU_GCTRL, 0);
	is_u32(rd(PMU_GCTRL), GCTRL_RESET, "GCTRL written 0 reads NCNT only");

	wr(PMU_OVF, ~0u);
	is_u32(rd(PMU_OVF), 0, "OVF all ones reads 0 (write-1-to-clear, reserved 30:8)");

	wr(PMU_CYCCTRL, ~0u);
	is_u32(rd(PMU_CYCCTRL), CTRL_RW, "CYCCTRL all ones reads bits 8 and 10-14 (CLR reads 0)");
	wr(PMU_CYCCTRL, ~(CTRL_RW | CTRL_CLR));
	is_u32(rd(PMU_CYCCTRL), 0, "CYCCTRL reserved bits 31:15 and 7:0 ignore writes");
	wr(PMU_CYCCTRL, 0);
	is_u32(rd(PMU_CYCCTRL), 0, "CYCCTRL written 0 reads 0");

	for (i = 0; i < NCNT; i++) {
		wr(PMU_EVCTRL(i), ~0u);
		is_u32(rd(PMU_EVCTRL(i)), EVCTRL_RW,
		       "EVCTRL%d all ones reads bits 7:0, 8 and 10-14 (CLR reads 0)", i);
		wr(PMU_EVCTRL(i), ~(EVCTRL_RW | CTRL_CLR));
		is_u32(rd(PMU_EVCTRL(i)), 0, "EVCTRL%d reserved bits 31:15 ignore writes", i);
		wr(PMU_EVCTRL(i), 0);
	}
}

/*
 * The extension block's reserved places: FEATURES bit 1 (once the PID
 * log's, whose PIDLOG registers at 0x10C-0x114 are reserved addresses
 * now) reads 0; those addresses read 0 and ignore writes.
 */
static void test_reserved_extensions(void)
{
	u32 a;

	is_u32(rd(PMU_FEATURES) & (1u << 1), 0, "FEATURES bit 1 is reserved: reads 0");
	for (a = 0x10c; a <= 0x114; a += 4) {
		wr(a, ~0u);
		is_u32(rd(a), 0, "reserved address 0x%x reads 0 after a write of all ones", a);
	}
}

static void test_counter_values(void)
{
	static const u32 patterns[] = { 0xffffffff, 0x80000001, 0x5a5a00a5, 0 };
	unsigned int n, p;
	u32 a;

	pmu_quiesce();
	for (n = 0; n <= NCNT; n++) {
		a = cnt_addr(n);
		for (p = 0; p < ARRAY_SIZE(patterns); p++) {
			wr(a, patterns[p] ^ (n << 8));
			is_u32(rd(a), patterns[p] ^ (n << 8), "%s reads back 0x%08x (disabled)",
			       reg_name(a), patterns[p] ^ (n << 8));
		}
	}
}

static void test_clear_actions(void)
{
	u32 want[NCNT + 1];
	int i, n;

	pmu_quiesce();
	fill_counters(want);
	wr(PMU_GCTRL, GCTRL_RST);
	for (n = 1; n <= NCNT; n++)
		want[n] = 0;
	counters_are(want, "GCTRL.RST clears the six event counters, not CYCCNT");
	is_u32(rd(PMU_GCTRL), GCTRL_RESET, "GCTRL.RST reads back 0");

	fill_counters(want);
	wr(PMU_GCTRL, GCTRL_CRST);
	want[0] = 0;
	counters_are(want, "GCTRL.CRST clears CYCCNT only");
	is_u32(rd(PMU_GCTRL), GCTRL_RESET, "GCTRL.CRST reads back 0");

	fill_counters(want);
	wr(PMU_CYCCTRL, CTRL_CLR | CTRL_SU);
	want[0] = 0;
	counters_are(want, "CYCCTRL.CLR clears CYCCNT only");
	is_u32(rd(PMU_CYCCTRL), CTRL_SU, "CYCCTRL.CLR reads 0, the rest of the write stays");
	wr(PMU_CYCCTRL, 0);

	for (i = 0; i < NCNT; i++) {
		fill_counters(want);
		wr(PMU_EVCTRL(i), CTRL_CLR | EV_INSNS);
		want[1 + i] = 0;
		counters_are(want, "EVCTRL%d.CLR clears EVCNT%d only", i, i);
		is_u32(rd(PMU_EVCTRL(i)), EV_INSNS, "EVCTRL%d.CLR reads 0, EVENT_ID stays", i);
		wr(PMU_EVCTRL(i), 0);
	}
}

static void test_event_ids(void)
{
	unsigned int id, bad, first;
	u32 got, first_got;
	int i;

	for (i = 0; i < NCNT; i++) {
		bad = 0;
		first = 0;
		first_got = 0;
		for (id = 0; id < 256; id++) {
			wr(PMU_EVCTRL(i), id);
			got = rd(PMU_EVCTRL(i));
			if (got != id && !bad++) {
				first = id;
				first_got = got;
			}
		}
		wr(PMU_EVCTRL(i), 0);
		if (bad)
			ok(0, "EVCTRL%d stores every 8-bit EVENT_ID (%u wrong, first: 0x%02x read 0x%08x)",
			   i, bad, first, first_got);
		else
			ok(1, "EVCTRL%d stores every 8-bit EVENT_ID", i);
	}
}

/*
 * Byte and halfword lda/sta: loads read 0, stores change nothing.  The
 * registers hold values that any stray store would disturb: GCTRL's low
 * byte holds EN, RST and CRST, so a byte store of 0xff there would
 * enable or clear everything.
 */
static void test_narrow_accesses(void)
{
	u32 want[NREGS], a, got;
	unsigned int nonzero = 0, off, n;
	u32 first = 0, first_v = 0;

	pmu_quiesce();
	for (n = 0; n <= NCNT; n++)
		wr(cnt_addr(n), 0x01020304u + 0x10101010u * n);
	wr(PMU_CYCCTRL, CTRL_SU | CTRL_NU);
	for (n = 0; n < NCNT; n++)
		wr(PMU_EVCTRL(n), CTRL_SU | (0x80 + n));
	want[0] = GCTRL_RESET;
	want[1] = 0;
	want[2] = 0x01020304;
	want[3] = CTRL_SU | CTRL_NU;
	for (n = 0; n < NCNT; n++) {
		want[4 + 2 * n] = 0x01020304u + 0x10101010u * (n + 1);
		want[5 + 2 * n] = CTRL_SU | (0x80 + n);
	}

	for (a = PMU_CORE_FIRST; a <= PMU_CORE_LAST; a += 4) {
		for (off = 0; off < 4; off++) {
			got = lduba_asi2(a + off);
			if (got && !nonzero++) {
				first = a + off;
				first_v = got;
			}
		}
		for (off = 0; off < 4; off += 2) {
			got = lduha_asi2(a + off);
			if (got && !nonzero++) {
				first = a + off;
				first_v = got;
			}
		}
	}
	if (nonzero)
		ok(0, "byte/halfword loads from 0xC0-0xFF read 0 (%u did not, first at 0x%02x: 0x%x)",
		   nonzero, first, first_v);
	else
		ok(1, "byte/halfword loads from 0xC0-0xFF read 0");

	for (a = PMU_CORE_FIRST; a <= PMU_CORE_LAST; a += 4) {
		for (off = 0; off < 4; off++)
			stba_asi2(a + off, 0xff);
		for (off = 0; off < 4; off += 2)
			stha_asi2(a + off, 0xffff);
	}
	for (a = PMU_CORE_FIRST; a <= PMU_CORE_LAST; a += 4)
		is_u32(rd(a), want[(a - PMU_CORE_FIRST) / 4],
		       "%s unchanged by byte/halfword stores", reg_name(a));
	pmu_quiesce();
}

/*
 * OVF's bits can only be set by overflows, so this part needs counting:
 * start near the wrap and run a loop.
 */
static void test_overflow_bits(void)
{
	u32 a, b;

	pmu_quiesce();
	wr(PMU_CYCCNT, 0xffffff00);
	wr(PMU_EVCNT(0), 0xffffff00);
	wr(PMU_EVCTRL(0), CTRL_EN | CTRL_SU | EV_INSNS);
	wr(PMU_CYCCTRL, CTRL_EN | CTRL_SU);
	wr(PMU_GCTRL, GCTRL_EN);
	spin(LOOPS);
	wr(PMU_GCTRL, 0);
	is_u32(rd(PMU_OVF), OVF_CYC | OVF_EV(0),
	       "overflows without IRQEN set OVF bits 0 and 1, not 31");
	a = rd(PMU_CYCCNT);
	ok(a && a < 0x80000000, "CYCCNT wrapped and kept counting (0x%08x)", a);
	a = rd(PMU_EVCNT(0));
	ok(a && a < 0x80000000, "EVCNT0 wrapped and kept counting (0x%08x)", a);

	wr(PMU_GCTRL, GCTRL_RST | GCTRL_CRST);
	wr(PMU_CYCCTRL, CTRL_CLR);
	wr(PMU_EVCTRL(0), CTRL_CLR);
	is_u32(rd(PMU_OVF), OVF_CYC | OVF_EV(0), "RST, CRST and CLR leave OVF alone");
	wr(PMU_OVF, OVF_EV(0));
	is_u32(rd(PMU_OVF), OVF_CYC, "writing 1 to OVF bit 1 clears it, and only it");
	wr(PMU_OVF, OVF_CYC);
	is_u32(rd(PMU_OVF), 0, "writing 1 to OVF bit 0 clears it");

	/* With IRQEN: bit 31 too, and the counter stops. */
	pmu_quiesce();
	wr(PMU_CYCCNT, 0xffffff00);
	wr(PMU_CYCCTRL, CTRL_EN | CTRL_SU | CTRL_IRQEN);
	wr(PMU_GCTRL, GCTRL_EN);
	spin(LOOPS);
	a = rd(PMU_CYCCNT);
	spin(LOOPS);
	b = rd(PMU_CYCCNT);
	is_u32(rd(PMU_OVF), OVF_CYC | OVF_IRQ, "an overflow with IRQEN sets OVF bits 0 and 31");
	is_u32(b, a, "the counter that overflowed with IRQEN stopped");
	wr(PMU_OVF, OVF_IRQ);
	is_u32(rd(PMU_OVF), OVF_CYC | OVF_IRQ, "writing 1 to OVF bit 31 is ignored");
	wr(PMU_OVF, OVF_CYC);
	is_u32(rd(PMU_OVF), OVF_IRQ, "OVF bit 0 clears while bit 31 stays");
	spin(LOOPS);
	is_u32(rd(PMU_CYCCNT), a, "clearing the OVF bit does not release the counter");
	wr(PMU_GCTRL, GCTRL_IRQCLR | GCTRL_EN);
	is_u32(rd(PMU_OVF), 0, "GCTRL.IRQCLR clears OVF bit 31");
	spin(LOOPS);
	b = rd(PMU_CYCCNT);
	ok(b != a, "GCTRL.IRQCLR releases the stopped counter (0x%08x -> 0x%08x)", a, b);
	is_u32(rd(PMU_GCTRL), GCTRL_RESET | GCTRL_EN, "GCTRL.IRQCLR reads back 0");

	/* An id with no event behind it counts nothing. */
	pmu_quiesce();
	wr(PMU_EVCTRL(1), CTRL_EN | CTRL_SU | EV_NONE);
	wr(PMU_GCTRL, GCTRL_EN);
	spin(LOOPS);
	wr(PMU_GCTRL, 0);
	is_u32(rd(PMU_EVCNT(1)), 0, "EVENT_ID 0x%02x (no such event) counts nothing", EV_NONE);
	is_u32(rd(PMU_EVCTRL(1)), CTRL_EN | CTRL_SU | EV_NONE, "... and keeps its id");
	pmu_quiesce();
}

static void test_cache_config(void)
{
	u32 icfg = lda_asi2(ASI2_ICFG), dcfg = lda_asi2(ASI2_DCFG);

	diag("ASI 0x02: 0x08 = 0x%08x, 0x0C = 0x%08x", icfg, dcfg);
	ok(icfg != 0, "I-cache configuration register (0x08) is non-zero");
	ok(dcfg != 0, "D-cache configuration register (0x0C) is non-zero");
	ok(dcfg & CFG_SNOOP, "D-cache configuration advertises snooping (bit 27)");
	/* Section 5 defaults: I 8 KiB 2-way 32-byte lines, D 4 KiB 2-way 16-byte. */
	is_u32(CFG_SETS(icfg), 1, "I-cache: 2 ways");
	is_u32(CFG_SSIZE(icfg), 2, "I-cache: 4 KiB per way");
	is_u32(CFG_LSIZE(icfg), 3, "I-cache: 8-word lines");
	is_u32(CFG_SETS(dcfg), 1, "D-cache: 2 ways");
	is_u32(CFG_SSIZE(dcfg), 1, "D-cache: 2 KiB per way");
	is_u32(CFG_LSIZE(dcfg), 2, "D-cache: 4-word lines");
}

/* ------------------------------------------------------------------ */

static volatile u32 cpu1_reset_gctrl, cpu1_reset_cyccnt, cpu1_cyccnt;
static volatile unsigned int cpu1_done;

void secondary_main(unsigned int cpu)
{
	if (cpu != 1)
		return;
	cpu1_reset_gctrl = rd(PMU_GCTRL);
	cpu1_reset_cyccnt = rd(PMU_CYCCNT);
	wr(PMU_CYCCNT, 0xc1c1c1c1);
	cpu1_cyccnt = rd(PMU_CYCCNT);
	cpu1_done = 1;
}

static void test_per_cpu(void)
{
	if (smp_ncpus() < 2) {
		skip("each CPU has its own PMU", "1 CPU");
		return;
	}
	pmu_quiesce();
	wr(PMU_CYCCNT, 0xc0c0c0c0);
	start_cpu(1);
	ok(wait_for(cpu1_done, WAIT_LONG), "CPU 1 ran");
	is_u32(cpu1_reset_gctrl, GCTRL_RESET, "CPU 1: its GCTRL has the reset value");
	is_u32(cpu1_reset_cyccnt, 0, "CPU 1: its CYCCNT is not CPU 0's");
	is_u32(cpu1_cyccnt, 0xc1c1c1c1, "CPU 1: its CYCCNT reads back");
	is_u32(rd(PMU_CYCCNT), 0xc0c0c0c0, "CPU 0: its CYCCNT untouched by CPU 1");
	pmu_quiesce();
}

int main(void)
{
	trap_hook = count_trap;
	test_reset();
	test_masks();
	test_reserved_extensions();
	test_counter_values();
	test_clear_actions();
	test_event_ids();
	test_narrow_accesses();
	test_overflow_bits();
	test_cache_config();
	test_per_cpu();
	trap_hook = 0;
	if (asi_traps)
		ok(0, "ASI 0x02 accesses do not trap (%u did, the first: tt 0x%02x at pc 0x%08x)",
		   asi_traps, first_tt, first_pc);
	else
		ok(1, "ASI 0x02 accesses do not trap");
	return 0;
}
