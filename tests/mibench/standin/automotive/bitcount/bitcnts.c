// SPDX-License-Identifier: GPL-2.0
/* Stand-in for MiBench's bitcount: the number of 1 bits in 0..N-1. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;
	unsigned long i, bits = 0;

	for (i = 0; i < n; i++) {
		unsigned long v = i;

		while (v) {
			v &= v - 1;
			bits++;
		}
	}
	printf("%lu bits in 0..%lu\n", bits, n - 1);
	return 0;
}
