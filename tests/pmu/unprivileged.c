// SPDX-License-Identifier: GPL-2.0
/*
 * What a user who is not root may measure, at the kernel's default
 * perf_event_paranoid (2): its own user-mode counts, exactly; the
 * kernel's, other tasks' and whole CPUs' are EACCES, and so is the PID
 * log device.  Run as root: it drops to nobody (65534) first.  Prints
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

static int failed;

static void check(int ok, const char *what, long got)
{
	printf("%s - %s (got %ld)\n", ok ? "ok" : "not ok", what, got);
	failed |= !ok;
}

static int pmu_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/leon3_pmu/type", "r");
	int type = -1;

	if (f) {
		if (fscanf(f, "%d", &type) != 1)
			type = -1;
		fclose(f);
	}
	return type;
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

/* n iterations of subcc, bne, nop after a mov: 3n + 1 instructions */
static void loop(long n)
{
	long r;

	__asm__ __volatile__("mov %1, %0\n"
			     "1: subcc %0, 1, %0\n"
			     "bne 1b\n"
			     " nop\n" : "=&r" (r) : "r" (n) : "cc");
}

/* The user instructions of two loops 3 x apart: their difference */
static long long loop_difference(int fd)
{
	long long c[2] = { -1, -1 };
	long n[2] = { 100000, 300000 };
	int i;

	for (i = 0; i < 2; i++) {
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		loop(n[i]);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &c[i], sizeof(c[i])) != sizeof(c[i]))
			return -1;
	}
	return c[1] - c[0];
}

int main(void)
{
	int type = pmu_type(), fd, paranoid = -99;
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
		long long d = loop_difference(fd);

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
	fd = open("/dev/leon3_pidlog", O_RDONLY);
	check(fd < 0 && errno == EACCES, "the PID log device: EACCES", errno);
	return failed;
}
