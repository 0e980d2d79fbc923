// SPDX-License-Identifier: GPL-2.0
/*
 * libdsowork.so for tests/pmu/addr-filter-dso.t: dso_work(n) is 3n + 3
 * instructions (save, n times subcc/bne/nop, ret, restore), like
 * work() in workload.c, so a filter on it has an exact count.  Plain
 * SPARC code with no absolute address: it runs wherever it is mapped.
 */
long dso_work(long n);
__asm__(".text\n"
	".align 4\n"
	".global dso_work\n"
	".type dso_work, #function\n"
	"dso_work:\n"
	"	save %sp, -96, %sp\n"
	"1:	subcc %i0, 1, %i0\n"
	"	bne 1b\n"
	"	 nop\n"
	"	ret\n"
	"	 restore %g0, 1, %o0\n"
	".size dso_work, . - dso_work\n");
