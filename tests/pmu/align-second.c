// SPDX-License-Identifier: GPL-2.0
/*
 * Sleeps until the next whole second of CLOCK_MONOTONIC: under QEMU
 * -icount a program started after it starts at the same phase of the
 * guest's timer ticks in every boot, whatever the boot did before.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(void)
{
	struct timespec t;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += 1;
	t.tv_nsec = 0;
	err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	if (err) {
		fprintf(stderr, "align-second: clock_nanosleep: %s\n", strerror(err));
		return 1;
	}
	return 0;
}
