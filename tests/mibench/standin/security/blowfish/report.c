// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-in whose guest runs leave a report in the kernel log: where the
 * LEON3 PMU driver is loaded (its sysfs directory exists), which is in
 * the guest and not under user-mode QEMU on the host, it writes a
 * "WARNING:" line to /dev/kmsg, as the kernel's own warnings begin.  Its
 * output is the reference's, so only the kernel log can fail the job.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	FILE *kmsg;

	if (access("/sys/bus/event_source/devices/leon3_pmu", F_OK) == 0) {
		kmsg = fopen("/dev/kmsg", "w");
		if (!kmsg)
			return 1;
		fprintf(kmsg, "WARNING: a report of the mibench stand-in (blowfish)\n");
		fclose(kmsg);
	}
	printf("done\n");
	return 0;
}
