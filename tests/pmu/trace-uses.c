// SPDX-License-Identifier: GPL-2.0
/*
 * The program of tests/pmu/trace.t's checks of tools/leon3-trace, built
 * with the tag plugin (and -fno-optimize-sibling-calls, so that GCC keeps
 * fib's recursion a recursion): what the code does is known from its
 * arguments, each loop marked with a "loop:" comment on its line.
 *
 *   trace-uses N RARE   fib(N); tri(N); check(i, RARE) for i < N
 *
 * check(i, RARE) takes its rare path, with a loop of its own, only where
 * i == RARE: a RARE of -1 never takes it.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) int fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

/* The inner loop runs 1, 2, ... N iterations: a histogram of N values */
__attribute__((noipa)) int tri(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)			/* loop: tri outer */
		for (int j = 0; j <= i; j++)		/* loop: tri inner */
			s ^= i * 7 + j;
	return s;
}

__attribute__((noipa)) int check(int x, int rare)
{
	int s = 0;

	if (x == rare) {
		for (int k = 0; k < x + 2; k++)		/* loop: check rare */
			s ^= k * x + 1;
		return s;
	}
	return x + 1;
}

int main(int argc, char **argv)
{
	int n, rare, t = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: trace-uses N RARE\n");
		return 2;
	}
	n = atoi(argv[1]);
	rare = atoi(argv[2]);
	for (int i = 0; i < n; i++)			/* loop: main */
		t += check(i, rare);
	printf("%d %d %d\n", fib(n), tri(n), t);
	return 0;
}
