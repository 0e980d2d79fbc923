// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-in whose output is deliberately wrong in the guest: it prints
 * the running kernel's release, which is the host's under user-mode
 * QEMU (the reference) and the guest's under Linux on the LEON3.
 */
#include <stdio.h>
#include <sys/utsname.h>

int main(void)
{
	struct utsname u;

	if (uname(&u))
		return 1;
	printf("%s\n", u.release);
	return 0;
}
