// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-in that hangs in the guest only: it loops for ever where the
 * LEON3 PMU driver is loaded (its sysfs directory exists), which is in
 * the guest and not under user-mode QEMU on the host, so that the
 * reference finishes and the guest run must be stopped by the job's
 * timeout.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	while (access("/sys/bus/event_source/devices/leon3_pmu", F_OK) == 0)
		;
	printf("done\n");
	return 0;
}
