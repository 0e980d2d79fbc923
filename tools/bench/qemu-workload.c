// SPDX-License-Identifier: GPL-2.0
/*
 * Guest workload of tools/bench/qemu-pmu, a bare-metal program on the
 * tests/baremetal start-up code.  The same integer mix (sorting, a small
 * matrix product, a checksum over a table larger than the D-cache, calls
 * deep enough for window traps) runs with the PMU set up as MODE says:
 *   0  nothing: the PMU stays off (and on an unpatched QEMU, absent)
 *   1  the cycle counter and an instruction counter
 *   2  every event of six counters, caches included (the cache model on)
 *   3  the cycle counter and an instruction counter, and a second one
 *      with an address range (AF): sort()'s instructions
 * and prints the instruction count, so that the runner can work out the
 * simulated MIPS.  On an unpatched QEMU the PMU accesses do nothing.
 */
#include "baremetal.h"
#include "pmu.h"

#ifndef MODE
#define MODE 0
#endif
#define ROUNDS		1500

/*
 * The data on pages of their own: a store to a page that holds code
 * takes QEMU's slow path for self-modifying code, on both QEMUs alike,
 * which would hide part of what the PMU model costs.
 */
static struct {
	u32 table[16384];	/* 64 KiB: larger than the D-cache */
	u32 sortbuf[512];
	int ma[24][24], mb[24][24], mc[24][24];
} d __attribute__((aligned(4096)));

static __attribute__((noinline)) void sort(u32 *a, int n)
{
	for (int i = 1; i < n; i++) {
		u32 v = a[i];
		int j = i - 1;

		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
}

static __attribute__((noinline)) u32 deep(u32 n)
{
	return n ? deep(n - 1) * 3 + n : 1;
}

static u32 work(u32 seed)
{
	u32 x = seed, sum = 0;
	int i, j, k;

	for (i = 0; i < 512; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		d.sortbuf[i] = x;
	}
	sort(d.sortbuf, 512);
	for (i = 0; i < 24; i++)
		for (j = 0; j < 24; j++) {
			int s = 0;

			for (k = 0; k < 24; k++)
				s += d.ma[i][k] * d.mb[k][j];
			d.mc[i][j] = s;
		}
	for (i = 0; i < 16384; i += 3)
		sum += d.table[i] ^ (u32)d.mc[i % 24][i % 23];
	return sum + d.sortbuf[17] + deep(40);
}

static void setup_pmu(void)
{
#if MODE == 1
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | 0x11);
	sta_asi2(PMU_GCTRL, GCTRL_EN);
#elif MODE == 3
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
	sta_asi2(PMU_EVCTRL(0), CTRL_CLR | CTRL_EN | CTRL_SU | 0x11);
	/* sort() ends where deep() begins: gcc keeps a file's order at -O2 */
	sta_asi2(PMU_RANGE_LO(2), (u32)sort);
	sta_asi2(PMU_RANGE_HI(2), (u32)deep - 4);
	sta_asi2(PMU_EVCTRL(1), CTRL_CLR | CTRL_EN | CTRL_SU | CTRL_AF | 0x11);
	sta_asi2(PMU_GCTRL, GCTRL_EN);
#elif MODE == 2
	static const u32 ev[PMU_NEV] = { 0x11, 0x08, 0x00, 0x39, 0x22, 0x86 };

	for (int i = 0; i < PMU_NEV; i++)
		sta_asi2(PMU_EVCTRL(i), CTRL_CLR | CTRL_EN | CTRL_SU | ev[i]);
	sta_asi2(PMU_CYCCTRL, CTRL_CLR | CTRL_EN | CTRL_SU);
	sta_asi2(PMU_GCTRL, GCTRL_EN);
#endif
}

int main(void)
{
	u32 check = 0, r, i;

	for (i = 0; i < 16384; i++)
		d.table[i] = i * 2654435761u;
	for (i = 0; i < 24 * 24; i++) {
		d.ma[i / 24][i % 24] = i;
		d.mb[i / 24][i % 24] = 7 - i;
	}
	sta_asi2(ASI2_CCTRL, 0xf);	/* I- and D-cache on, as Linux runs */
	setup_pmu();
	for (r = 0; r < ROUNDS; r++)
		check += work(r + 1);
	sta_asi2(PMU_GCTRL, 0);
	diag("mode %d check %08x instructions %u cycles %u in range %u", MODE, check,
	     lda_asi2(PMU_EVCNT(0)), lda_asi2(PMU_CYCCNT), lda_asi2(PMU_EVCNT(1)));
	return 0;
}
