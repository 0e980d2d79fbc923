// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "verdict.h"

/* Passes, but first writes a line to the kernel log as the kernel's own warnings begin */
int main(void)
{
	FILE *f = fopen("/dev/kmsg", "w");

	if (f) {
		fprintf(f, "WARNING: pet stand-in basic/kmsg warns on purpose\n");
		fclose(f);
	}
	verdict("Testing something that works but warns...", "PASSED");
	return 0;
}
