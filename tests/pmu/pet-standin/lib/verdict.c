// SPDX-License-Identifier: GPL-2.0
/* The last line of each program: what it tested and its verdict. */
#include <stdio.h>
#include <stdlib.h>
#include "verdict.h"

void verdict(const char *what, const char *word)
{
	printf("%-60s %s\n", what, word);
	exit(1);
}
