// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"

int main(void)
{
	verdict("Testing something that does not work...", "FAILED");
	return 0;
}
