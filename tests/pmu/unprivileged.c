// SPDX-License-Identifier: GPL-2.0
/*
 * What a user who is not root may measure, at the kernel's default
 * perf_event_paranoid (2): its own user-mode counts, exactly; the
 * kernel's, other tasks' and whole CPUs' are EACCES, and so are the
 * PID records of a CPU's trace unit (leon3-pidlog's).  Run as root: it drops to nobody (65534) first.  Prints
 * a TAP line per check.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "leon3_pmu_user.h"

static int failed;

static void check(int ok, const char *what, long got)
{
	printf("%s - %s (got %ld)\n", ok ? "ok" : "not ok", what, got);
	failed |= !ok;
}

static int open_event(__u32 type, __u64 config, __u64 config1, int excl_kernel,
		      pid_t pid, int cpu)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = config,
		.config1 = config1,
		.disabled = 1,
		.exclude_kernel = excl_kernel,
		.exclude_hv = 1,
	};

	return syscall(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
}

int main(void)
{
	int type = leon3_pmu_type(), fd, paranoid = -99;
	FILE *f;

	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = -99;
		fclose(f);
	}
	check(paranoid == 2, "perf_event_paranoid is the kernel's default, 2", paranoid);
	if (setgid(65534) || setuid(65534)) {
		perror("setuid");
		return 1;
	}
	check(getuid() == 65534 && geteuid() == 65534, "running as nobody", geteuid());

	fd = open_event(type, 0x11, 0, 1, 0, -1);
	check(fd >= 0, "its own user-mode instructions: opens", fd < 0 ? errno : 0);
	if (fd >= 0) {
		/* the overhead around the loop cancels */
		long long d = leon3_count_loop(fd, 300000) - leon3_count_loop(fd, 100000);

		check(d == 600000, "... and counts a loop exactly: 600000", d);
		close(fd);
	}
	errno = 0;
	fd = open_event(type, 0x11, 0, 0, 0, -1);
	check(fd < 0 && errno == EACCES, "counting the kernel too: EACCES", errno);
	errno = 0;
	fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 1, -1, 0);
	check(fd < 0 && errno == EACCES, "a whole CPU (pid -1, cpu 0): EACCES", errno);
	errno = 0;
	fd = open_event(type, 0x11, 1, 1, -1, 0);
	check(fd < 0 && errno == EACCES, "a whole CPU with the PID filter (pid=1): EACCES",
	      errno);
	errno = 0;
	fd = open_event(type, 0x11, 0, 1, 1, -1);
	check(fd < 0 && errno == EACCES, "another user's task (init): EACCES", errno);
	errno = 0;
	fd = leon3_pmu_type_of("leon3_trace");
	if (fd >= 0) {
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = fd,
			.config = 1,	/* pidrec */
			.disabled = 1,
			.exclude_user = 1,
			.exclude_kernel = 1,
			.exclude_hv = 1,
		};

		fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	}
	check(fd < 0 && errno == EACCES, "a CPU's PID records (leon3_trace/pidrec/ with pid -1): "
	      "EACCES", errno);
	return failed;
}
