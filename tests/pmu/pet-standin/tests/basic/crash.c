// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

int main(void)
{
	volatile int *p = NULL;

	printf("about to crash\n");
	fflush(stdout);
	return *p;
}
