// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "verdict.h"

int main(void)
{
	printf("a line before the verdict\n");
	verdict("Testing something that works...", "PASSED");
	return 0;
}
