/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LOOP3_FUNCTION(name): long name(long n), 3n + 3 instructions (save,
 * n times subcc/bne/nop, ret, restore) in a register window of its own,
 * plain SPARC code with no absolute address, so that it runs wherever
 * it is mapped: a PIE, a shared library (tests/pmu/dso-*.c).
 */
#ifndef LOOP_ASM_H
#define LOOP_ASM_H

#define LOOP3_FUNCTION(name)				\
	long name(long n);				\
	__asm__(".text\n"				\
		".align 4\n"				\
		".global " #name "\n"			\
		".type " #name ", #function\n"		\
		#name ":\n"				\
		"	save %sp, -96, %sp\n"		\
		"1:	subcc %i0, 1, %i0\n"		\
		"	bne 1b\n"			\
		"	 nop\n"				\
		"	ret\n"				\
		"	 restore %g0, 1, %o0\n"		\
		".size " #name ", . - " #name "\n")

#endif
