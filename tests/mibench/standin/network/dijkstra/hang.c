// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-in that hangs in a one-CPU guest only: it loops for ever where
 * the LEON3 PMU driver is loaded (its sysfs directory exists), which is
 * in the guest and not under user-mode QEMU on the host, and where one
 * CPU is online.  So the reference finishes, the one-CPU guest run must
 * be stopped by the job's timeout, and the two-CPU one runs as any
 * other program (one hang is enough to test, and each costs the timeout).
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	while (access("/sys/bus/event_source/devices/leon3_pmu", F_OK) == 0 &&
	       sysconf(_SC_NPROCESSORS_ONLN) == 1)
		;
	printf("done\n");
	return 0;
}
