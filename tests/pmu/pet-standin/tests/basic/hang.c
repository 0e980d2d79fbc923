// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("waiting forever\n");
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}
