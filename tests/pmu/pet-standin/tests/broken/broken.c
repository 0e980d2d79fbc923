// SPDX-License-Identifier: GPL-2.0
/* Does not build: the tool must say so, not drop it. */
#include <no-such-header.h>

int main(void)
{
	return 0;
}
