// SPDX-License-Identifier: GPL-2.0
/*
 * Known branches for the trace unit's branch mode (tests/pmu/trace-branch.t):
 *
 *   branch-work loop N    bw_loop(N): N x (subcc, bne bw_loop, nop): the
 *                         bne at bw_loop_bne taken N - 1 times
 *   branch-work calls N   bw_calls(N): N x (call bw_leaf at bw_call,
 *                         jmpl to bw_leaf through a register at bw_jmpl,
 *                         subcc, bne at bw_calls_bne), bw_leaf's retl at
 *                         bw_leaf_ret returning to bw_call + 8 and
 *                         bw_jmpl + 8
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long bw_loop(long n);
long bw_calls(long n);

__asm__(".text\n"
	".align 4\n"
	".global bw_loop, bw_loop_bne\n"
	".type bw_loop, #function\n"
	"bw_loop:\n"
	"	subcc %o0, 1, %o0\n"
	"bw_loop_bne:\n"
	"	bne bw_loop\n"
	"	 nop\n"
	"	retl\n"
	"	 nop\n"
	".size bw_loop, . - bw_loop\n"
	".global bw_calls, bw_call, bw_jmpl, bw_calls_bne\n"
	".type bw_calls, #function\n"
	"bw_calls:\n"
	"	save %sp, -96, %sp\n"
	"	set bw_leaf, %l1\n"
	"bw_call:\n"
	"	call bw_leaf\n"
	"	 nop\n"
	"bw_jmpl:\n"
	"	jmpl %l1, %o7\n"
	"	 nop\n"
	"	subcc %i0, 1, %i0\n"
	"bw_calls_bne:\n"
	"	bne bw_call\n"
	"	 nop\n"
	"	ret\n"
	"	 restore\n"
	".size bw_calls, . - bw_calls\n"
	".global bw_leaf, bw_leaf_ret\n"
	".type bw_leaf, #function\n"
	"bw_leaf:\n"
	"bw_leaf_ret:\n"
	"	retl\n"
	"	 nop\n"
	".size bw_leaf, . - bw_leaf\n");

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc != 3 || n < 1) {
		fprintf(stderr, "usage: branch-work loop|calls N (N >= 1)\n");
		return 2;
	}
	if (!strcmp(argv[1], "loop"))
		bw_loop(n);
	else if (!strcmp(argv[1], "calls"))
		bw_calls(n);
	else
		return 2;
	return 0;
}
