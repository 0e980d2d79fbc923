// SPDX-License-Identifier: GPL-2.0
/*
 * The leon3_pmu driver seen from user space (kselftest harness, built
 * from the kernel tree's kselftest_harness.h): exact user instruction
 * counts of a known loop, user/kernel filtering, the generic events it
 * maps, and the errno of every bad configuration.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"

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

static int open_event(__u32 type, __u64 config, int excl_user, int excl_kernel)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = config,
		.disabled = 1,
		.exclude_user = excl_user,
		.exclude_kernel = excl_kernel,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
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

/* Count one loop of @n iterations on @fd. */
static long long count_loop(int fd, long n)
{
	long long c = -1;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &c, sizeof(c)) != sizeof(c))
		return -1;
	return c;
}

FIXTURE(pmu) {
	int type;
};

FIXTURE_SETUP(pmu)
{
	self->type = pmu_type();
	ASSERT_GT(self->type, 0) TH_LOG("no leon3_pmu in sysfs: module not loaded?");
}

FIXTURE_TEARDOWN(pmu)
{
}

/* The overhead around the loop cancels: two loop sizes differ by 3 x. */
TEST_F(pmu, user_instructions_exact)
{
	int fd = open_event(self->type, 0x11, 0, 1);
	long long a, b, again;

	ASSERT_GE(fd, 0);
	a = count_loop(fd, 100000);
	b = count_loop(fd, 1100000);
	again = count_loop(fd, 100000);
	EXPECT_EQ(b - a, 3 * 1000000LL);
	EXPECT_EQ(again, a);		/* deterministic */
	EXPECT_GT(a, 300000);
	close(fd);
}

TEST_F(pmu, generic_instructions_route_here)
{
	int fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(count_loop(fd, 600000) - count_loop(fd, 100000), 1500000LL);
	close(fd);
}

TEST_F(pmu, kernel_only_counts_syscalls)
{
	int fd = open_event(self->type, 0x11, 1, 0);
	long long c = -1;
	int i;

	ASSERT_GE(fd, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop(1000000);				/* user work: not counted */
	for (i = 0; i < 100; i++)
		getppid();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(read(fd, &c, sizeof(c)), sizeof(c));
	EXPECT_GT(c, 100 * 10);			/* the syscalls' kernel side */
	EXPECT_LT(c, 1000000);			/* none of the user loop */
	close(fd);
}

TEST_F(pmu, cycles_at_least_instructions)
{
	int ci = open_event(self->type, 0x11, 0, 1);
	int cc = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 1);
	long long i, c;

	ASSERT_GE(ci, 0);
	ASSERT_GE(cc, 0);
	i = count_loop(ci, 1000000);
	c = count_loop(cc, 1000000);
	EXPECT_GE(c, i);
	close(ci);
	close(cc);
}

TEST_F(pmu, bad_configs)
{
	errno = 0;
	EXPECT_EQ(open_event(self->type, 0x111, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("reserved config bits");
	errno = 0;
	EXPECT_EQ(open_event(self->type, 0x40, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("an id with no event");
	errno = 0;
	EXPECT_EQ(open_event(self->type, 0x11, 1, 1), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("neither user nor kernel");
	errno = 0;
	EXPECT_EQ(open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 0, 0), -1);
	EXPECT_EQ(errno, ENOENT) TH_LOG("a generic event the PMU does not have");
}

/* Generic cache events: the L1 and TLB ones route here, the rest do not */
TEST_F(pmu, generic_cache_events)
{
	__u64 l1d_read_miss = PERF_COUNT_HW_CACHE_L1D |
			      PERF_COUNT_HW_CACHE_OP_READ << 8 |
			      PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
	__u64 itlb_miss = PERF_COUNT_HW_CACHE_ITLB |
			  PERF_COUNT_HW_CACHE_OP_READ << 8 |
			  PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
	__u64 ll_read = PERF_COUNT_HW_CACHE_LL |
			PERF_COUNT_HW_CACHE_OP_READ << 8 |
			PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16;
	int fd;

	fd = open_event(PERF_TYPE_HW_CACHE, l1d_read_miss, 0, 0);
	EXPECT_GE(fd, 0);
	close(fd);
	fd = open_event(PERF_TYPE_HW_CACHE, itlb_miss, 0, 0);
	EXPECT_GE(fd, 0);
	close(fd);
	errno = 0;
	EXPECT_EQ(open_event(PERF_TYPE_HW_CACHE, ll_read, 0, 0), -1);
	EXPECT_EQ(errno, ENOENT) TH_LOG("no last-level cache");
}

TEST_F(pmu, sampling_refused_until_interrupts)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->type,
		.config = 0x11,
		.sample_period = 100000,
		.disabled = 1,
	};

	errno = 0;
	EXPECT_EQ(syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
}

/* sysfs: the format, and every event by name opens and counts */
TEST_F(pmu, sysfs_events_open)
{
	const char *dir = "/sys/bus/event_source/devices/leon3_pmu/events";
	char path[512], text[64];
	struct dirent *d;
	unsigned int id;
	int n = 0, fd;
	DIR *dp;
	FILE *f;

	f = fopen("/sys/bus/event_source/devices/leon3_pmu/format/event", "r");
	ASSERT_TRUE(f != NULL);
	ASSERT_TRUE(fgets(text, sizeof(text), f) != NULL);
	fclose(f);
	EXPECT_STREQ(text, "config:0-7\n");

	dp = opendir(dir);
	ASSERT_TRUE(dp != NULL);
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		f = fopen(path, "r");
		ASSERT_TRUE(f != NULL);
		ASSERT_EQ(fscanf(f, "event=%x", &id), 1) TH_LOG("%s", d->d_name);
		fclose(f);
		fd = open_event(self->type, id, 0, 0);
		EXPECT_GE(fd, 0) TH_LOG("%s (0x%x) does not open", d->d_name, id);
		if (fd >= 0)
			close(fd);
		n++;
	}
	closedir(dp);
	EXPECT_EQ(n, 25);			/* every event of the spec */
}

/* perf holds the module while an event exists: rmmod must fail. */
TEST_F(pmu, unload_refused_while_open)
{
	int fd = open_event(self->type, 0x11, 0, 1);

	ASSERT_GE(fd, 0);
	/* busybox's rmmod exits 0 even when the kernel says EAGAIN */
	system("rmmod leon3_pmu 2>/dev/null");
	EXPECT_EQ(system("grep -q '^leon3_pmu .* Live' /proc/modules"), 0);
	EXPECT_EQ(pmu_type(), self->type);
	close(fd);
}

TEST_HARNESS_MAIN
