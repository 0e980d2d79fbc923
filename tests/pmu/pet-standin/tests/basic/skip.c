// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"

int main(void)
{
	verdict("Testing something this machine does not have...", "SKIPPED");
	return 0;
}
