// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"

int main(void)
{
	verdict("Testing a bug of some kernels...", "KNOWN KERNEL BUG");
	return 0;
}
