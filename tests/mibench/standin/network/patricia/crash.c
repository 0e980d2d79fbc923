// SPDX-License-Identifier: GPL-2.0
/* Stand-in that crashes: a segmentation fault after some output. */
#include <stdio.h>

int main(int argc, char **argv)
{
	volatile int *p = (int *)(argc - 1);	/* NULL: no arguments */

	printf("about to crash\n");
	fflush(stdout);
	return *p;
}
