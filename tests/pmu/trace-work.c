// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads with tags written by hand (sethi imm22, %g0: kind << 19 | id,
 * Documentation/tags.md), whose traces tests/pmu/trace.t knows:
 *
 *   loop N   function 1's entry tag; loop 1's latch tag N times; loop 1's
 *            exit tag
 *   call N   function 1's entry; N x (function 2's entry and exit tags,
 *            loop 1's latch); loop 1's exit
 *   nest N   function 1's entry; for i = 1..N: loop 2's entry, its latch
 *            i times, its exit, loop 1's latch; loop 1's exit
 *   sleep N  N x (loop 3's latch tag, CLOCK_REALTIME read right after it,
 *            20 ms asleep); then each time read, "at SEC.NSEC" a line
 *
 * Each tag's address is a global symbol (tw_*), for the records' PCs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLEEP_MAX	100

__asm__(".text\n"
	".global tw_loop, tw_entry, tw_latch, tw_exit\n"
	"tw_loop:\n"
	"tw_entry:\n"
	"	sethi	0x080001, %g0\n"
	"1:	subcc	%o0, 1, %o0\n"
	"tw_latch:\n"
	"	sethi	0x200001, %g0\n"
	"	bne	1b\n"
	"	 nop\n"
	"tw_exit:\n"
	"	sethi	0x280001, %g0\n"
	"	retl\n"
	"	 nop\n"

	".global tw_call, tw_centry, tw_clatch, tw_cexit, tw_fentry, tw_fexit\n"
	"tw_call:\n"
	"	mov	%o7, %g1\n"
	"tw_centry:\n"
	"	sethi	0x080001, %g0\n"
	"1:	call	tw_func\n"
	"	 nop\n"
	"	subcc	%o0, 1, %o0\n"
	"tw_clatch:\n"
	"	sethi	0x200001, %g0\n"
	"	bne	1b\n"
	"	 nop\n"
	"tw_cexit:\n"
	"	sethi	0x280001, %g0\n"
	"	jmp	%g1 + 8\n"
	"	 nop\n"
	"tw_func:\n"
	"tw_fentry:\n"
	"	sethi	0x080002, %g0\n"
	"	nop\n"
	"tw_fexit:\n"
	"	sethi	0x100002, %g0\n"
	"	retl\n"
	"	 nop\n"

	".global tw_nest, tw_nentry, tw_ientry, tw_ilatch, tw_iexit, tw_olatch, tw_oexit\n"
	"tw_nest:\n"
	"	mov	1, %o1\n"
	"tw_nentry:\n"
	"	sethi	0x080001, %g0\n"
	"2:	mov	%o1, %o2\n"
	"tw_ientry:\n"
	"	sethi	0x180002, %g0\n"
	"1:	subcc	%o2, 1, %o2\n"
	"tw_ilatch:\n"
	"	sethi	0x200002, %g0\n"
	"	bne	1b\n"
	"	 nop\n"
	"tw_iexit:\n"
	"	sethi	0x280002, %g0\n"
	"	cmp	%o1, %o0\n"
	"	add	%o1, 1, %o1\n"
	"tw_olatch:\n"
	"	sethi	0x200001, %g0\n"
	"	bne	2b\n"
	"	 nop\n"
	"tw_oexit:\n"
	"	sethi	0x280001, %g0\n"
	"	retl\n"
	"	 nop\n"

	".global tw_stag\n"
	"tw_stag:\n"
	"	sethi	0x200003, %g0\n"
	"	retl\n"
	"	 nop\n");

void tw_loop(long n);
void tw_call(long n);
void tw_nest(long n);
void tw_stag(void);

/* The times are printed at the end: no write between a tag and its sleep */
static void tw_sleep(long n)
{
	static struct timespec at[SLEEP_MAX];
	const struct timespec nap = { 0, 20000000 };
	long i;

	for (i = 0; i < n; i++) {
		tw_stag();
		clock_gettime(CLOCK_REALTIME, &at[i]);
		nanosleep(&nap, NULL);
	}
	for (i = 0; i < n; i++)
		printf("at %lld.%09ld\n", (long long)at[i].tv_sec, at[i].tv_nsec);
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 0) : 0;

	if (argc != 3 || n < 1) {
		fprintf(stderr, "usage: trace-work loop|call|nest|sleep N (N >= 1)\n");
		return 2;
	}
	if (!strcmp(argv[1], "loop"))
		tw_loop(n);
	else if (!strcmp(argv[1], "call"))
		tw_call(n);
	else if (!strcmp(argv[1], "nest"))
		tw_nest(n);
	else if (!strcmp(argv[1], "sleep") && n <= SLEEP_MAX)
		tw_sleep(n);
	else
		return 2;
	printf("done %s %ld\n", argv[1], n);
	return 0;
}
