// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU's user window (UWIN, Documentation/pmu-registers.md): a page
 * where a load of word c returns counter c of the loading CPU while its
 * UWIN.EN is set, in user mode as in supervisor mode.  Expected values
 * come from the code: a load returns everything completed before it,
 * so two loads around a known loop differ by the loop's instructions
 * and the first load, also where the loads are in the middle of a
 * translation block.  With EN clear, for stores, other sizes and words
 * past the counters: 0, nothing changed, no trap.  Each CPU reads its own
 * counters at the same address.
 *
 * qemu-args:
 * qemu-args: -smp 2
 * qemu-args: -icount shift=5,sleep=off
 */
#include "baremetal.h"
#include "pmu.h"

#define EV_INSN		0x11

static u32 window;

/*
 * u32 wloop(u32 word, u32 n): loads @word, runs 1 + 3n instructions
 * (mov; n x subcc, bne, nop) and 3 more, loads @word again, and returns
 * the second value less the first: 3n + 5 instructions, the first load
 * one of them.  Both loads follow other instructions of their blocks.
 */
u32 wloop(u32 word, u32 n);
asm(".text\n"
    ".global wloop\n"
    "wloop:\n"
    "	nop\n"
    "	nop\n"
    "	ld [%o0], %o2\n"
    "	mov %o1, %o3\n"
    "1:	subcc %o3, 1, %o3\n"
    "	bne 1b\n"
    "	 nop\n"
    "	add %g0, 1, %g0\n"
    "	add %g0, 2, %g0\n"
    "	add %g0, 3, %g0\n"
    "	ld [%o0], %o4\n"
    "	retl\n"
    "	 sub %o4, %o2, %o0\n");

/*
 * u32 wloop_ds(u32 word, u32 n, u32 *first): loads @word into *@first,
 * runs the loop, 3 more instructions and the "retl", whose delay slot
 * loads @word again and returns it: 3n + 7 instructions from the first
 * load to the second (ld, st, mov, the loop, 3 adds, retl).  QEMU
 * translates a load from I/O space in the middle of a block again as a
 * block of its own, so that the loads of wloop() start their blocks;
 * this second load ends its block, after five other instructions.
 */
u32 wloop_ds(u32 word, u32 n, u32 *first);
asm(".text\n"
    ".global wloop_ds\n"
    "wloop_ds:\n"
    "	ld [%o0], %o3\n"
    "	st %o3, [%o2]\n"
    "	mov %o1, %o4\n"
    "1:	subcc %o4, 1, %o4\n"
    "	bne 1b\n"
    "	 nop\n"
    "	add %g0, 1, %g0\n"
    "	add %g0, 2, %g0\n"
    "	add %g0, 3, %g0\n"
    "	retl\n"
    "	 ld [%o0], %o0\n");

static u32 wloop_ds_diff(u32 word, u32 n)
{
	u32 first, second = wloop_ds(word, n, &first);

	return second - first;
}

static volatile unsigned int traps;

static int count_trap(struct trap_frame *tf)
{
	traps++;
	trap_skip(tf);
	return 1;
}

static void pmu_off(void)
{
	int i;

	sta_asi2(PMU_GCTRL, 0);
	sta_asi2(PMU_UWIN, 0);
	for (i = 0; i < PMU_NEV; i++)
		sta_asi2(PMU_EVCTRL(i), 0);
	sta_asi2(PMU_CYCCTRL, 0);
}

/* Event counter 0 counts instructions in both modes, from 0 */
static void count_insns(void)
{
	pmu_off();
	sta_asi2(PMU_EVCNT(0), 0);
	sta_asi2(PMU_EVCTRL(0), EV_INSN | CTRL_EN | CTRL_SU);
	sta_asi2(PMU_GCTRL, GCTRL_EN);
}

static void test_register(void)
{
	u32 uwin;

	ok(lda_asi2(PMU_FEATURES) & FEAT_UWIN, "FEATURES bit 9: there is a user window");
	uwin = lda_asi2(PMU_UWIN);
	is_u32(uwin, UWIN_WINDOW, "UWIN at reset: the window's address, EN clear");
	window = uwin & UWIN_BASE;
	sta_asi2(PMU_UWIN, 0x12345000 | UWIN_EN);
	is_u32(lda_asi2(PMU_UWIN), UWIN_WINDOW | UWIN_EN,
	       "UWIN: EN sets, the address bits are read-only");
	sta_asi2(PMU_UWIN, ~UWIN_EN);
	is_u32(lda_asi2(PMU_UWIN), UWIN_WINDOW, "UWIN: EN clears, the other bits ignored");
}

static void test_exact(void)
{
	static const u32 n[] = { 1, 100, 5000 };
	unsigned int i;

	count_insns();
	sta_asi2(PMU_UWIN, UWIN_EN);
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		is_u32(wloop(window + 4, n[i]), 3 * n[i] + 5,
		       "supervisor: two window loads around %u loop iterations differ by "
		       "3n + 5 instructions", (unsigned int)n[i]);
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		is_u32(wloop_ds_diff(window + 4, n[i]), 3 * n[i] + 7,
		       "supervisor: the same, the second load at the end of its block: "
		       "3n + 7 for %u iterations", (unsigned int)n[i]);
	to_user();
	i = wloop(window + 4, 1000);
	to_supervisor();
	is_u32(i, 3 * 1000 + 5, "user mode: the same, 1000 iterations");
	to_user();
	i = wloop_ds_diff(window + 4, 1000);
	to_supervisor();
	is_u32(i, 3 * 1000 + 7, "user mode: the same at the end of a block, 1000 iterations");
	pmu_off();
}

static void test_same_as_asi(void)
{
	u32 w[PMU_NEV + 1], a[PMU_NEV + 1];
	int c;

	/* stopped, with values of their own */
	pmu_off();
	sta_asi2(PMU_CYCCNT, 0xc0c0c0c0);
	for (c = 0; c < PMU_NEV; c++)
		sta_asi2(PMU_EVCNT(c), 0x11111111 * (c + 1));
	sta_asi2(PMU_UWIN, UWIN_EN);
	for (c = 0; c <= PMU_NEV; c++) {
		w[c] = mmio_read32(window + 4 * c);
		a[c] = lda_asi2(c ? PMU_EVCNT(c - 1) : PMU_CYCCNT);
	}
	for (c = 0; c <= PMU_NEV; c++)
		is_u32(w[c], a[c], "word %d: the value of %s, as ASI 0x02 reads it", c,
		       c ? "EVCNT" : "CYCCNT");
	{
		uint64_t d;

		asm volatile("ldd [%1], %0" : "=r"(d) : "r"(window) : "memory");
		ok((u32)(d >> 32) == a[0] && (u32)d == a[1],
		   "an LDD of words 0 and 1 reads CYCCNT and EVCNT[0]");
	}
	pmu_off();
}

static void test_refused(void)
{
	unsigned int t = traps;

	pmu_off();
	sta_asi2(PMU_EVCNT(0), 0xabcd1234);
	is_u32(mmio_read32(window + 4), 0, "EN clear: a load reads 0, not the counter");
	sta_asi2(PMU_UWIN, UWIN_EN);
	mmio_write32(window + 4, 7);
	is_u32(lda_asi2(PMU_EVCNT(0)), 0xabcd1234, "a store to the window changes nothing");
	is_u32(*(volatile unsigned char *)(window + 7), 0, "a byte load reads 0");
	is_u32(*(volatile unsigned short *)(window + 6), 0, "a halfword load reads 0");
	is_u32(mmio_read32(window + 4 * (PMU_NEV + 1)), 0, "the word past the counters reads 0");
	is_u32(mmio_read32(window + 0xffc), 0, "the page's last word reads 0");
	is_u32(traps, t, "none of these traps");
	pmu_off();
}

static volatile unsigned int cpu1_ready, cpu1_done;
static volatile u32 cpu1_read;

void secondary_main(unsigned int cpu)
{
	if (cpu != 1)
		return;
	sta_asi2(PMU_EVCNT(0), 0x1c1c1c1c);
	sta_asi2(PMU_UWIN, UWIN_EN);
	cpu1_read = mmio_read32(window + 4);
	sta_asi2(PMU_UWIN, 0);
	cpu1_done = 1;
}

static void test_per_cpu(void)
{
	if (smp_ncpus() < 2) {
		skip("each CPU reads its own counters", "1 CPU");
		return;
	}
	pmu_off();
	sta_asi2(PMU_EVCNT(0), 0x0c0c0c0c);
	sta_asi2(PMU_UWIN, UWIN_EN);
	start_cpu(1);
	ok(wait_for(cpu1_done, WAIT_LONG), "CPU 1 ran");
	is_u32(cpu1_read, 0x1c1c1c1c, "CPU 1 reads its own EVCNT[0] at the same address");
	is_u32(mmio_read32(window + 4), 0x0c0c0c0c, "CPU 0 reads its own");
	pmu_off();
}

int main(void)
{
	trap_hook = count_trap;
	test_register();
	test_exact();
	test_same_as_asi();
	test_refused();
	test_per_cpu();
	trap_hook = 0;
	return 0;
}
