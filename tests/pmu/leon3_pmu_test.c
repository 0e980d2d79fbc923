// SPDX-License-Identifier: GPL-2.0
/*
 * The leon3_pmu driver seen from user space (kselftest harness, built
 * from the kernel tree's kselftest_harness.h): exact user instruction
 * counts of a known loop, user/kernel filtering, the generic events it
 * maps, sampling by overflow interrupt, groups and multiplexing, counts
 * per thread, the PID filter and the PID log, address filters, and the
 * errno of every bad configuration.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "leon3_pmu_user.h"
#include "../../tools/pidlog/pid-records.h"

/* An event of this task, in @group (-1: a new one, disabled) */
static int open_in(__u32 type, __u64 config, int excl_user, int excl_kernel,
		   int group)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = config,
		.disabled = group < 0,
		.exclude_user = excl_user,
		.exclude_kernel = excl_kernel,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, group, 0);
}

static int open_event(__u32 type, __u64 config, int excl_user, int excl_kernel)
{
	return open_in(type, config, excl_user, excl_kernel, -1);
}

FIXTURE(pmu) {
	int type;
};

FIXTURE_SETUP(pmu)
{
	self->type = leon3_pmu_type();
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
	a = leon3_count_loop(fd, 100000);
	b = leon3_count_loop(fd, 1100000);
	again = leon3_count_loop(fd, 100000);
	EXPECT_EQ(b - a, 3 * 1000000LL);
	EXPECT_EQ(again, a);		/* deterministic */
	EXPECT_GT(a, 300000);
	close(fd);
}

TEST_F(pmu, generic_instructions_route_here)
{
	int fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(leon3_count_loop(fd, 600000) - leon3_count_loop(fd, 100000), 1500000LL);
	close(fd);
}

/*
 * A group of three counts the same instructions: every mode, user only,
 * kernel only.  The kernel-only one counts the system calls and none of
 * the user loop: it and the user-only one add up to the first, exactly.
 * (How much kernel work the loop's interrupts add varies: under the
 * debug kernel on 4 CPUs, from 0.4M to 18M instructions.)
 */
TEST_F(pmu, kernel_only_counts_syscalls)
{
	int all = open_in(self->type, 0x11, 0, 0, -1);
	int user = open_in(self->type, 0x11, 0, 1, all);
	int kernel = open_in(self->type, 0x11, 1, 0, all);
	long long a = -1, u = -1, k = -1;
	int i;

	ASSERT_GE(all, 0);
	ASSERT_GE(user, 0);
	ASSERT_GE(kernel, 0);
	ioctl(all, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	leon3_loop(10000000);			/* 30M user instructions */
	for (i = 0; i < 100; i++)
		getppid();
	ioctl(all, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_EQ(read(all, &a, sizeof(a)), sizeof(a));
	ASSERT_EQ(read(user, &u, sizeof(u)), sizeof(u));
	ASSERT_EQ(read(kernel, &k, sizeof(k)), sizeof(k));
	EXPECT_GT(k, 100 * 10);			/* the syscalls' kernel side */
	EXPECT_GE(u, 30000000);
	EXPECT_EQ(a, u + k) TH_LOG("%lld user, %lld kernel", u, k);
	close(kernel);
	close(user);
	close(all);
}

TEST_F(pmu, cycles_at_least_instructions)
{
	int ci = open_event(self->type, 0x11, 0, 1);
	int cc = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 1);
	long long i, c;

	ASSERT_GE(ci, 0);
	ASSERT_GE(cc, 0);
	i = leon3_count_loop(ci, 1000000);
	c = leon3_count_loop(cc, 1000000);
	EXPECT_GE(c, i);
	close(ci);
	close(cc);
}

/* One clock: bus cycles and reference cycles are cycles, exactly. */
TEST_F(pmu, bus_and_ref_cycles_are_cycles)
{
	long long c[3] = { -1, -1, -1 };
	int fd[3], i;

	fd[0] = open_in(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 1, -1);
	ASSERT_GE(fd[0], 0);
	fd[1] = open_in(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, 0, 1, fd[0]);
	ASSERT_GE(fd[1], 0) TH_LOG("bus-cycles: %s", strerror(errno));
	fd[2] = open_in(PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 0, 1, fd[0]);
	ASSERT_GE(fd[2], 0) TH_LOG("ref-cycles: %s", strerror(errno));
	ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	leon3_loop(100000);
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(read(fd[i], &c[i], sizeof(c[i])), sizeof(c[i]));
	EXPECT_GT(c[0], 300000);
	EXPECT_EQ(c[1], c[0]);
	EXPECT_EQ(c[2], c[0]);
	for (i = 0; i < 3; i++)
		close(fd[i]);
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
	EXPECT_EQ(open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 0, 0), -1);
	EXPECT_EQ(errno, ENOENT) TH_LOG("a generic event the PMU does not have");
	errno = 0;
	EXPECT_EQ(open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("a generic event id beyond the ABI's");
}

/* Neither user nor kernel: the hypervisor only, which a LEON3 lacks */
TEST_F(pmu, hypervisor_only_counts_nothing)
{
	int fd = open_event(self->type, 0x11, 1, 1);

	ASSERT_GE(fd, 0) TH_LOG("exclude_user and exclude_kernel: %s", strerror(errno));
	EXPECT_EQ(leon3_count_loop(fd, 1000000), 0);
	close(fd);
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

/* spin(n): n iterations of a 3-instruction loop, for sampled IPs */
void spin(long n);
extern char spin_end[];
__asm__(".text\n"
	".align 4\n"
	".global spin\n"
	".type spin, #function\n"
	"spin:\n"
	"1:	subcc %o0, 1, %o0\n"
	"	bne 1b\n"
	"	 nop\n"
	"	retl\n"
	"	 nop\n"
	".global spin_end\n"
	"spin_end:\n"
	".size spin, . - spin\n");

#define RING_PAGES	16

/*
 * The samples in a ring buffer: how many, how many inside spin(), and
 * the periods they report (PERF_SAMPLE_PERIOD).
 */
struct ring_stats {
	long samples, in_spin, user, lost, throttled;
	__u64 period_min, period_max, period_sum;
};

static void ring_scan(void *ring, struct ring_stats *st)
{
	struct leon3_ring r;
	struct perf_event_header *h;
	__u64 rec[4];	/* a header, the IP and the period */

	memset(st, 0, sizeof(*st));
	leon3_ring_begin(&r, ring, RING_PAGES);
	while ((h = leon3_ring_next(&r, rec, sizeof(rec)))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			__u64 ip = rec[1], period = rec[2];

			if (!st->samples || period < st->period_min)
				st->period_min = period;
			if (period > st->period_max)
				st->period_max = period;
			st->period_sum += period;
			st->samples++;
			st->in_spin += ip >= (uintptr_t)spin &&
				       ip < (uintptr_t)spin_end;
			st->user += (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				    PERF_RECORD_MISC_USER;
		} else if (h->type == PERF_RECORD_LOST) {
			st->lost++;
		} else if (h->type == PERF_RECORD_THROTTLE) {
			st->throttled++;
		}
	}
}

#define SAMPLE_KERNEL	1	/* count in the kernel, not in user mode */
#define SAMPLE_FREQ	2	/* @period is a frequency (perf's freq mode) */

/*
 * A sampling event on instructions of one mode (@flags SAMPLE_KERNEL or
 * not), every @period, IPs and periods, with its ring buffer mapped at
 * *@ring (MAP_FAILED if that fails).  Disabled; returns the fd or -1.
 */
static int open_sampler(int type, __u64 period, int flags, void **ring)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = 0x11,
		.sample_period = period,	/* or sample_freq */
		.freq = !!(flags & SAMPLE_FREQ),
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD,
		.exclude_user = !!(flags & SAMPLE_KERNEL),
		.exclude_kernel = !(flags & SAMPLE_KERNEL),
		.disabled = 1,
		.wakeup_events = 1000000,
	};
	size_t page = sysconf(_SC_PAGESIZE);
	int fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);

	*ring = fd < 0 ? MAP_FAILED :
		mmap(NULL, (RING_PAGES + 1) * page, PROT_READ | PROT_WRITE,
		     MAP_SHARED, fd, 0);
	return fd;
}

/* Close open_sampler()'s event, and unmap its ring if it has one */
static void close_sampler(int fd, void *ring)
{
	if (ring != MAP_FAILED)
		munmap(ring, (RING_PAGES + 1) * sysconf(_SC_PAGESIZE));
	close(fd);
}

/* The work the sampling tests sample */
static void spin_work(void)
{
	spin(1000000);
}

static void syscall_work(void)		/* long system calls */
{
	int i;

	for (i = 0; i < 2000; i++)
		close(open("/proc/self/stat", O_RDONLY));
}

static void syscall_then_spin_work(void)	/* user work: not counted */
{
	syscall_work();
	spin(1000000);
}

/*
 * Sample the instructions of one mode every @period while @work runs:
 * the ring's samples in *@st, the event's count in *@count.  0, or -1
 * with errno set.
 */
static int sample_work(int type, __u64 period, int flags, void (*work)(void),
		       struct ring_stats *st, long long *count)
{
	void *ring;
	int fd = open_sampler(type, period, flags, &ring), ret = -1;

	if (fd < 0)
		return -1;
	if (ring == MAP_FAILED) {
		close_sampler(fd, ring);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, count, sizeof(*count)) == sizeof(*count)) {
		ring_scan(ring, st);
		ret = 0;
	}
	close_sampler(fd, ring);
	return ret;
}

/* Samples every @period user instructions of spin(): count / period */
TEST_F(pmu, sampling_samples_per_period)
{
	struct ring_stats st;
	long long count = -1;

	ASSERT_EQ(sample_work(self->type, 10007, 0, spin_work, &st, &count), 0)
		TH_LOG("sampling event: %s", strerror(errno));
	EXPECT_EQ(st.lost, 0);
	EXPECT_EQ(st.throttled, 0);
	EXPECT_EQ(st.samples, count / 10007)
		TH_LOG("%lld instructions", count);
	EXPECT_GE(st.samples, 3000000 / 10007);
	EXPECT_EQ(st.in_spin, st.samples) TH_LOG("IPs outside spin()");
	EXPECT_EQ(st.user, st.samples) TH_LOG("samples not flagged user");
	EXPECT_EQ(st.period_min, 10007);
	EXPECT_EQ(st.period_max, 10007);
}

/*
 * Disabled and enabled again between chunks of work, a sampling event
 * keeps its period across them: count / period samples in all, none
 * lost at a disable.  An overflow the disable takes before its
 * interrupt is owed a sample at the next enable (its IP is then past
 * spin()); without that, 290 of 300 were seen in 10 chunks.
 */
TEST_F(pmu, sampling_across_disable_enable)
{
	struct ring_stats st;
	long long count = -1;
	void *ring;
	int i, fd = open_sampler(self->type, 10007, 0, &ring);

	ASSERT_GE(fd, 0) TH_LOG("sampling event: %s", strerror(errno));
	ASSERT_TRUE(ring != MAP_FAILED) TH_LOG("mmap: %s", strerror(errno));
	for (i = 0; i < 10; i++) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		spin(100003);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	ASSERT_EQ(read(fd, &count, sizeof(count)), sizeof(count));
	ring_scan(ring, &st);
	close_sampler(fd, ring);
	EXPECT_EQ(st.lost, 0);
	EXPECT_EQ(st.throttled, 0);
	EXPECT_GE(count, 10 * 3 * 100000);
	EXPECT_EQ(st.samples, count / 10007)
		TH_LOG("%lld instructions in 10 chunks", count);
}

/*
 * A fixed period below the driver's minimum (1000 user events, 100000
 * for events that count in the kernel; caps/min_period and
 * caps/min_kernel_period) is refused, at open and by
 * PERF_EVENT_IOC_PERIOD: perf record -c does not sample the period, so
 * a period raised behind its back made perf report's counts short by
 * the factor (-c 1009 with a minimum of 10000 reported a tenth of the
 * misses).
 */
TEST_F(pmu, sampling_short_fixed_period_refused)
{
	static const struct { __u64 period; int flags, ok; } cases[] = {
		{ 1, 0, 0 }, { 999, 0, 0 }, { 1000, 0, 1 },
		{ 1000, SAMPLE_KERNEL, 0 }, { 99999, SAMPLE_KERNEL, 0 },
		{ 100000, SAMPLE_KERNEL, 1 },
	};
	__u64 shorter = 999, shortest = 1000;
	unsigned int i;
	void *ring;
	int fd;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		errno = 0;
		fd = open_sampler(self->type, cases[i].period, cases[i].flags,
				  &ring);
		EXPECT_EQ(fd >= 0, cases[i].ok)
			TH_LOG("period %llu, %s: %s",
			       (unsigned long long)cases[i].period,
			       cases[i].flags ? "kernel" : "user",
			       strerror(errno));
		if (fd < 0) {
			/* the harness's EXPECT_EQ is an if of its own */
			EXPECT_EQ(errno, EINVAL);
		} else {
			close_sampler(fd, ring);
		}
	}

	fd = open_sampler(self->type, 10007, 0, &ring);
	ASSERT_GE(fd, 0) TH_LOG("sampling event: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(ioctl(fd, PERF_EVENT_IOC_PERIOD, &shorter), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(ioctl(fd, PERF_EVENT_IOC_PERIOD, &shortest), 0)
		TH_LOG("PERF_EVENT_IOC_PERIOD 1000: %s", strerror(errno));
	close_sampler(fd, ring);
}

/*
 * Frequency mode starts at period 1 and chooses its own: a period below
 * the minimum is raised there, and every sample reports the period used
 * (perf record samples it in that mode), so that perf's totals (the
 * sum of the periods) stay within the count.
 */
TEST_F(pmu, sampling_freq_mode_raises_short_periods)
{
	static const struct {
		int flags;
		void (*work)(void);
		__u64 shortest;
	} cases[] = {
		{ 0, spin_work, 1000 },
		{ SAMPLE_KERNEL, syscall_work, 100000 },
	};
	struct ring_stats st;
	long long count = -1;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(sample_work(self->type, 100000,
				      SAMPLE_FREQ | cases[i].flags,
				      cases[i].work, &st, &count), 0)
			TH_LOG("sampling event: %s", strerror(errno));
		EXPECT_GE(st.samples, 10);
		EXPECT_GE(st.period_min, cases[i].shortest);
		EXPECT_LE(st.period_sum, count)
			TH_LOG("%ld samples, periods %llu to %llu", st.samples,
			       (unsigned long long)st.period_min,
			       (unsigned long long)st.period_max);
	}
}

/*
 * PERF_EVENT_IOC_PERIOD on a running event starts a new period: no
 * sample for the one it cuts short.  perf core zeroes period_left for
 * that, as frequency mode does when it lowers a period; only a period
 * that ended while the event was stopped is still owed a sample.
 */
TEST_F(pmu, sampling_new_period_takes_no_sample)
{
	__u64 p1 = 20011, p2 = 30011;
	long long before = -1, count = -1;
	struct ring_stats st;
	long n1, n2;
	void *ring;
	int fd = open_sampler(self->type, p1, 0, &ring);

	ASSERT_GE(fd, 0) TH_LOG("sampling event: %s", strerror(errno));
	ASSERT_TRUE(ring != MAP_FAILED) TH_LOG("mmap: %s", strerror(errno));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(1000000);
	ASSERT_EQ(read(fd, &before, sizeof(before)), sizeof(before));
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PERIOD, &p2), 0);
	spin(1000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(read(fd, &count, sizeof(count)), sizeof(count));
	ring_scan(ring, &st);
	close_sampler(fd, ring);

	/* the samples of each period, from their number and their sum */
	n2 = (st.period_sum - p1 * st.samples) / (p2 - p1);
	n1 = st.samples - n2;
	EXPECT_EQ(st.period_min, p1);
	EXPECT_EQ(st.period_max, p2);
	EXPECT_EQ(n1, before / p1) TH_LOG("%lld instructions before", before);
	EXPECT_EQ(n2, (count - before) / p2)
		TH_LOG("%lld instructions after the new period", count - before);
}

/*
 * Kernel samples of system calls say so.  The kernel returns to user
 * space with interrupts masked, so an overflow in that last stretch is
 * taken, and flagged, at the user IP after the system call: a few, not
 * most, in system calls long enough (the period cannot be shorter than
 * the driver's kernel minimum, 100000).
 */
TEST_F(pmu, sampling_kernel_flag)
{
	struct ring_stats st;
	long long count = -1;

	ASSERT_EQ(sample_work(self->type, 100003, 1, syscall_then_spin_work,
			      &st, &count), 0)
		TH_LOG("sampling event: %s", strerror(errno));
	EXPECT_GE(st.samples, 20);
	EXPECT_LE(st.user * 4, st.samples) TH_LOG("%ld of %ld samples", st.user, st.samples);
}

/* Whether /proc/interrupts lists the PMU's overflow interrupts */
static int pmu_has_interrupts(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[256];
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "leon3_pmu") != NULL;
	if (f)
		fclose(f);
	return found;
}

/*
 * Sampling needs the overflow interrupt: without one (no line, or its
 * request failed) a sampling event is refused with EOPNOTSUPP, while
 * counting works (count_beyond_32_bits).
 */
TEST_F(pmu, sampling_needs_interrupt)
{
	void *ring = MAP_FAILED;
	int fd = open_sampler(self->type, 100003, 0, &ring);

	if (pmu_has_interrupts()) {
		EXPECT_GE(fd, 0) TH_LOG("sampling with interrupts: %s", strerror(errno));
	} else {
		EXPECT_EQ(fd, -1);
		EXPECT_EQ(errno, EOPNOTSUPP) TH_LOG("%s", strerror(errno));
	}
	if (fd >= 0)
		close_sampler(fd, ring);
}

/*
 * A counting event across wraps of the 32-bit counter: the count is 64
 * bits.  A counting event's period is 2^31 - 1, so the 4.5e9
 * instructions wrap it twice.  At a wrap the counter stops at 0 until
 * the handler releases it, and the model adds a translation block's
 * instructions at the block's end: the rest of the block that wrapped
 * it is lost, at most 2 of the loop's 3 (subcc, bne, nop).  So at most
 * 2 x 2 are lost (4 measured, in 3 runs each on 1, 2 and 4 CPUs).
 */
TEST_F(pmu, count_beyond_32_bits)
{
	int fd = open_event(self->type, 0x11, 0, 1);
	long long small, big, want;

	ASSERT_GE(fd, 0);
	small = leon3_count_loop(fd, 100000);
	big = leon3_count_loop(fd, 1500100000);	/* 4.5e9 instructions */
	want = small + 3 * 1500000000LL;
	EXPECT_GT(big, 1LL << 32);
	EXPECT_LE(big, want);
	EXPECT_GE(big, want - 2 * 2) TH_LOG("lost %lld", want - big);
	TH_LOG("lost at the wraps: %lld instructions", want - big);
	close(fd);
}

/* A group must fit in six event counters plus the cycle counter. */
TEST_F(pmu, group_fits_counters)
{
	int fds[9], i, n = 0;

	fds[n++] = open_in(self->type, 0x11, 0, 1, -1);
	ASSERT_GE(fds[0], 0);
	for (i = 0; i < 5; i++) {
		fds[n] = open_in(self->type, 0x12, 0, 1, fds[0]);
		ASSERT_GE(fds[n], 0) TH_LOG("event %d of 6", n + 1);
		n++;
	}
	/* A seventh non-cycles event does not fit ... */
	errno = 0;
	EXPECT_EQ(open_in(self->type, 0x22, 0, 1, fds[0]), -1);
	EXPECT_EQ(errno, EINVAL);
	/* ... a cycles event does, on the cycle counter ... */
	fds[n] = open_in(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 1, fds[0]);
	EXPECT_GE(fds[n], 0);
	n++;
	/* ... and a second one does not. */
	errno = 0;
	EXPECT_EQ(open_in(self->type, 0x15, 0, 1, fds[0]), -1);
	EXPECT_EQ(errno, EINVAL);

	/* The full group counts: seven counters on one loop */
	if (fds[n - 1] >= 0) {
		long long ins = -1, cyc = -1;

		ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		leon3_loop(100000);
		ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		EXPECT_EQ(read(fds[0], &ins, sizeof(ins)), sizeof(ins));
		EXPECT_EQ(read(fds[n - 1], &cyc, sizeof(cyc)), sizeof(cyc));
		EXPECT_GT(ins, 300000);
		EXPECT_GE(cyc, ins);
	}
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * Iterations of leon3_loop() that take about @secs of the guest's time,
 * at most 300M: the guest's clock is the host's, or a LEON3's (leon3-run
 * --leon3-clock) that runs some 30 times slower.
 */
static long loops_for(double secs)
{
	struct timespec a, b;
	double t;

	clock_gettime(CLOCK_MONOTONIC, &a);
	leon3_loop(1000000);
	clock_gettime(CLOCK_MONOTONIC, &b);
	t = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	return t > 1e6 * secs / 300e6 ? 1e6 * secs / t : 300000000;
}

/*
 * How far a multiplexed count, scaled, may be off.  Each 4 ms slice's
 * time also holds the kernel's rotation and tick work, which a user-only
 * count misses.  Measured on a LEON3's clock: at most 0.12 % on 1 CPU
 * and 0.28 % on 4 (8 runs each), 1 % allowed; on the lockdep kernel
 * (tests/pmu/debug-kernel.t), whose kernel work is slower, 0.75 to
 * 2.31 % (8 runs, 2 CPUs), 5 % allowed.
 */
static double mux_tolerance(void)
{
	return access("/proc/lockdep_stats", F_OK) ? 0.01 : 0.05;
}

/*
 * Ten events on seven counters: perf rotates them, scaled counts agree.
 * perf scales by time, and on the host's clock a virtual CPU that the
 * host leaves waiting has time running without counts: tests/pmu/driver.t
 * runs this test on a LEON3's clock.
 */
TEST_F(pmu, multiplexing_scales)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->type,
		.config = 0x11,
		.exclude_kernel = 1,
		.disabled = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd[10], i, rotated = 0, ref;
	double off, worst = 0, most = mux_tolerance();
	long long want;
	/* some 500 rotations at HZ=250, well inside the harness's 30 s */
	long n = loops_for(2.0);

	ref = open_event(self->type, 0x11, 0, 1);
	ASSERT_GE(ref, 0);
	want = leon3_count_loop(ref, n);
	close(ref);

	for (i = 0; i < 10; i++) {
		fd[i] = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
		ASSERT_GE(fd[i], 0);
	}
	/* all ten on and off at once */
	prctl(PR_TASK_PERF_EVENTS_ENABLE);
	leon3_loop(n);
	prctl(PR_TASK_PERF_EVENTS_DISABLE);
	for (i = 0; i < 10; i++) {
		__u64 v[3] = { 0 };
		double scaled;

		ASSERT_EQ(read(fd[i], v, sizeof(v)), sizeof(v));
		ASSERT_GT(v[2], 0) TH_LOG("event %d never ran", i);
		rotated += v[2] < v[1];
		scaled = (double)v[0] * v[1] / v[2];
		off = scaled > want ? scaled / want - 1 : 1 - scaled / want;
		worst = off > worst ? off : worst;
		EXPECT_LE(off, most)
			TH_LOG("event %d: %.0f of %lld, %.3f %% off (%.0f %% allowed)", i, scaled,
			       want, 100 * off, 100 * most);
		close(fd[i]);
	}
	EXPECT_GT(rotated, 0) TH_LOG("no event was ever switched out");
	TH_LOG("multiplexed: the scaled counts at most %.3f %% off", 100 * worst);
}

/* Work in chunks, yielding the CPU between them; counts its own events */
struct worker {
	long chunk;
	long long count;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	int fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1);
	int i;

	if (fd < 0)
		return NULL;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 20; i++) {
		leon3_loop(w->chunk);
		sched_yield();
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &w->count, sizeof(w->count)) != sizeof(w->count))
		w->count = -1;
	close(fd);
	return NULL;
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A task's count follows it from CPU to CPU: 20 chunks of work, moved
 * to the other CPU (or kept on CPU 0, for the reference) between
 * chunks, count the same user instructions.  The code is the same for
 * both (the CPU is (i + 1) & move, noipa: no copy specialised for a
 * constant @move), so only the moves differ.
 */
static __attribute__((noipa)) long long count_moving(int move)
{
	int fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1);
	long long c = -1;
	int i;

	if (fd < 0)
		return -1;
	pin_to(0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 20; i++) {
		leon3_loop(100000);
		pin_to((i + 1) & move);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &c, sizeof(c)) != sizeof(c))
		c = -1;
	close(fd);
	return c;
}

TEST_F(pmu, count_follows_migration)
{
	long long still, moving;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU: nowhere to migrate");
	still = count_moving(0);
	moving = count_moving(1);
	ASSERT_GT(still, 20 * 300000LL);
	EXPECT_EQ(moving, still);
}

/* Two threads interleaved on one CPU each count exactly their own work. */
TEST_F(pmu, per_thread_counts)
{
	struct worker alone = { .chunk = 100000 }, a = { .chunk = 100000 };
	struct worker b = { .chunk = 300000 };
	pthread_t ta, tb;

	pin_to(0);
	worker_run(&alone);
	ASSERT_GT(alone.count, 0);
	ASSERT_EQ(pthread_create(&ta, NULL, worker_run, &a), 0);
	ASSERT_EQ(pthread_create(&tb, NULL, worker_run, &b), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	EXPECT_EQ(a.count, alone.count);
	EXPECT_EQ(b.count - a.count, 20 * 3 * 200000LL);
}

/* A process on CPU 0 that runs spin(n) once a byte comes on @go */
static pid_t spin_child(long n, int go)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		if (read(go, &c, 1) != 1)
			_exit(1);
		spin(n);
		_exit(0);
	}
	return pid;
}

/* A counter filtered on a PID counts only while that process runs. */
TEST_F(pmu, pid_filter)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->type,
		.config = 0x11,
		.exclude_kernel = 1,
	};
	long long all = -1, one = -1;
	int fa, fd, go[2];
	pid_t a, b;

	pin_to(0);
	ASSERT_EQ(pipe(go), 0);
	a = spin_child(3000000, go[0]);
	b = spin_child(1000000, go[0]);
	attr.config1 = a;
	fa = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	ASSERT_GE(fa, 0) TH_LOG("pid filter: %s", strerror(errno));
	attr.config1 = 0;
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(go[1], "gg", 2), 2);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	ASSERT_EQ(read(fa, &one, sizeof(one)), sizeof(one));
	ASSERT_EQ(read(fd, &all, sizeof(all)), sizeof(all));
	/* a's spin() and the little it does around it */
	EXPECT_GE(one, 9000000);
	EXPECT_LT(one, 9000000 + 100000);
	/* everything on CPU 0 has b's spin() too */
	EXPECT_GE(all, one + 3000000);
	close(fa);
	close(fd);
	close(go[0]);
	close(go[1]);
}

/*
 * Two processes on one CPU handing a token back and forth through pipes
 * (sched_yield() need not switch: EEVDF may keep the yielder running).
 * Each blocks until the other has run, so the log must show at least one
 * a-b switch per handoff.
 */
static pid_t ping_pong(int in, int out, int rounds, int first)
{
	pid_t pid = fork();
	char c = 0;

	if (pid)
		return pid;
	while (rounds--) {
		if (first && write(out, &c, 1) != 1)
			_exit(1);
		if (read(in, &c, 1) != 1)
			_exit(1);
		if (!first && write(out, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

/* Two processes' turns on CPU 0, from leon3-pidlog's slices */
struct turns {
	pid_t a, b, cur;
	int switches;
};

static void count_turn(void *arg, unsigned int cpu, uint32_t pid,
		       uint64_t start, uint64_t cycles)
{
	struct turns *t = arg;

	(void)start;
	(void)cycles;
	if (cpu != 0 || (pid != (uint32_t)t->a && pid != (uint32_t)t->b))
		return;
	t->switches += t->cur != -1 && (pid_t)pid != t->cur;
	t->cur = pid;
}

/*
 * The trace unit's PID records (tools/pidlog/pid-records.h, as
 * leon3-pidlog reads them) list the switches between two processes
 * taking turns, with nothing lost.
 */
TEST_F(pmu, pid_log)
{
	struct turns t = { .cur = -1 };
	int type = pidrec_pmu_type();
	const int rounds = 50;
	int ab[2], ba[2], sa, sb;
	struct pidrec_cpu pc;

	ASSERT_GE(type, 0) TH_LOG("no leon3_trace PMU");
	ASSERT_EQ(pidrec_open(&pc, type, 0), 0) TH_LOG("leon3_trace/pidrec/ on CPU 0: %s",
						       strerror(errno));
	pin_to(0);
	ASSERT_EQ(pipe(ab), 0);
	ASSERT_EQ(pipe(ba), 0);
	ASSERT_EQ(pidrec_enable(&pc, 1), 0);
	t.a = ping_pong(ba[0], ab[1], rounds, 1);
	t.b = ping_pong(ab[0], ba[1], rounds, 0);
	ASSERT_EQ(waitpid(t.a, &sa, 0), t.a);
	ASSERT_EQ(waitpid(t.b, &sb, 0), t.b);
	ASSERT_EQ(pidrec_enable(&pc, 0), 0);
	EXPECT_EQ(sa, 0);
	EXPECT_EQ(sb, 0);
	pidrec_drain(&pc, count_turn, &t);
	pidrec_close(&pc);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	EXPECT_EQ(pc.lost, 0);
	/* a, b, a, b, ..., a: rounds + 1 turns of a between rounds of b */
	EXPECT_GE(t.switches, 2 * rounds);
}

/* Filters and reserved bits: each refused with its errno */
TEST_F(pmu, bad_filter_configs)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->type,
		.config = 0x11,
		.disabled = 1,
	};

	attr.config1 = 1ULL << 32;
	errno = 0;
	EXPECT_EQ(syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("config1 bits above the PID");
	attr.config1 = 0;
	attr.config2 = 1;
	errno = 0;
	EXPECT_EQ(syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("config2");
	attr.config2 = 0;
	attr.exclude_idle = 1;
	errno = 0;
	EXPECT_EQ(syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0), -1);
	EXPECT_EQ(errno, EOPNOTSUPP) TH_LOG("exclude_idle");
}

/*
 * Address filters.  The filter perf record writes for [@start, @end) of
 * this program: "filter OFFSET/SIZE@FILE", with the file offset that
 * /proc/self/maps shows at @start.  0, or -1 if it is not mapped.
 */
static int text_filter(const void *start, const void *end, char *buf,
		       size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, off, a = (uintptr_t)start;
	char line[512], path[256];
	int ret = -1;

	while (f && ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %255s",
			   &lo, &hi, &off, path) != 4 || a < lo || a >= hi)
			continue;
		snprintf(buf, len, "filter 0x%lx/0x%lx@%s", a - lo + off,
			 (unsigned long)((uintptr_t)end - a), path);
		ret = 0;
	}
	if (f)
		fclose(f);
	return ret;
}

/* The address and size of kernel function @name, from /proc/kallsyms */
static int kernel_function(const char *name, unsigned long *addr,
			   unsigned long *size)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long a;
	char sym[256], t;
	int found = 0;

	while (f && fscanf(f, "%lx %c %255s%*[^\n]", &a, &t, sym) == 3) {
		if (found && a > *addr) {
			*size = a - *addr;
			break;
		}
		if (!found && !strcmp(sym, name)) {
			*addr = a;
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found && *size ? 0 : -1;
}

static int set_filter(int fd, const char *filter)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter);
}

/* Work in spin() and around it: only spin()'s 3n + 2 are in its range. */
static long long count_spin_and_more(int fd, long n)
{
	long long c = -1;
	int i;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(n);
	leon3_loop(n);
	for (i = 0; i < 100; i++)
		getppid();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &c, sizeof(c)) != sizeof(c))
		return -1;
	return c;
}

/* One range per counter: one filter per event, in sysfs for perf */
TEST_F(pmu, addr_filters_in_sysfs)
{
	FILE *f = fopen("/sys/bus/event_source/devices/leon3_pmu/nr_addr_filters", "r");
	int n = -1;

	ASSERT_TRUE(f != NULL);
	EXPECT_EQ(fscanf(f, "%d", &n), 1);
	fclose(f);
	EXPECT_EQ(n, 1);
}

/*
 * A filter on spin(): the event counts its instructions exactly, in
 * either mode, none of the loop or the system calls around it.  The
 * legacy event (PERF_TYPE_HARDWARE) takes it as the PMU's own does.
 */
TEST_F(pmu, addr_filter_counts_its_range)
{
	int fd = open_event(self->type, 0x11, 0, 0);
	int hw = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1);
	char filter[512];

	ASSERT_GE(fd, 0);
	ASSERT_GE(hw, 0);
	ASSERT_EQ(text_filter(spin, spin_end, filter, sizeof(filter)), 0);
	ASSERT_EQ(set_filter(fd, filter), 0) TH_LOG("%s: %s", filter, strerror(errno));
	ASSERT_EQ(set_filter(hw, filter), 0) TH_LOG("%s: %s", filter, strerror(errno));
	EXPECT_EQ(count_spin_and_more(fd, 1000000), 3000002);
	EXPECT_EQ(count_spin_and_more(fd, 2000000), 6000002);
	EXPECT_EQ(count_spin_and_more(hw, 1000000), 3000002);
	close(hw);
	close(fd);
}

/* An empty filter string removes the filter: everything counts again. */
TEST_F(pmu, addr_filter_removed)
{
	int fd = open_event(self->type, 0x11, 0, 1);
	long long all;
	char filter[512];

	ASSERT_GE(fd, 0);
	ASSERT_EQ(text_filter(spin, spin_end, filter, sizeof(filter)), 0);
	all = count_spin_and_more(fd, 1000000);
	ASSERT_EQ(set_filter(fd, filter), 0);
	EXPECT_EQ(count_spin_and_more(fd, 1000000), 3000002);
	ASSERT_EQ(set_filter(fd, ""), 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(count_spin_and_more(fd, 1000000), all);
	EXPECT_GT(all, 6000000);
	close(fd);
}

/* A file this task has not mapped: nothing in range, nothing counted */
TEST_F(pmu, addr_filter_unmapped_file_counts_nothing)
{
	int fd = open_event(self->type, 0x11, 0, 1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(set_filter(fd, "filter 0x0/0x100000@/bin/busybox"), 0)
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(count_spin_and_more(fd, 1000000), 0);
	close(fd);
}

/* Samples of a filtered event: count / period, every one in spin() */
TEST_F(pmu, addr_filter_sampling)
{
	struct ring_stats st;
	long long count = -1;
	char filter[512];
	void *ring;
	int fd = open_sampler(self->type, 10007, 0, &ring);

	ASSERT_GE(fd, 0);
	ASSERT_TRUE(ring != MAP_FAILED);
	ASSERT_EQ(text_filter(spin, spin_end, filter, sizeof(filter)), 0);
	ASSERT_EQ(set_filter(fd, filter), 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(1000000);
	leon3_loop(1000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(read(fd, &count, sizeof(count)), sizeof(count));
	ring_scan(ring, &st);
	/* each overflow stops the counter until the handler: a few lost */
	EXPECT_LE(count, 3000002);
	EXPECT_GE(count, 3000002 - 2 * st.samples);
	EXPECT_EQ(st.samples, count / 10007);
	EXPECT_EQ(st.samples, 3000002 / 10007);
	EXPECT_EQ(st.in_spin, st.samples) TH_LOG("IPs outside spin()");
	EXPECT_EQ(st.lost, 0);
	close_sampler(fd, ring);
}

/* A child inherits the event and its filter: its spin() counts. */
TEST_F(pmu, addr_filter_inherited)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->type,
		.config = 0x11,
		.exclude_kernel = 1,
		.inherit = 1,
		.disabled = 1,
	};
	long long c = -1;
	char filter[512];
	int fd, status;
	pid_t child;

	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(text_filter(spin, spin_end, filter, sizeof(filter)), 0);
	ASSERT_EQ(set_filter(fd, filter), 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	child = fork();
	if (child == 0) {
		spin(1000000);
		leon3_loop(1000000);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &status, 0), child);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(read(fd, &c, sizeof(c)), sizeof(c));
	EXPECT_EQ(c, 3000002);
	close(fd);
}

/*
 * A kernel function: sys_getppid() does the same work each call, so
 * twice the calls count twice the instructions, and user mode none.
 */
TEST_F(pmu, addr_filter_kernel_function)
{
	int fd = open_event(self->type, 0x11, 1, 0);
	int user = open_event(self->type, 0x11, 0, 1);
	unsigned long addr = 0, size = 0;
	long long c[2] = { -1, -1 }, u = -1;
	char filter[128];
	int i, k;

	ASSERT_GE(fd, 0);
	ASSERT_GE(user, 0);
	ASSERT_EQ(kernel_function("sys_getppid", &addr, &size), 0);
	snprintf(filter, sizeof(filter), "filter 0x%lx/0x%lx", addr, size);
	ASSERT_EQ(set_filter(fd, filter), 0) TH_LOG("%s: %s", filter, strerror(errno));
	ASSERT_EQ(set_filter(user, filter), 0);
	for (k = 0; k < 2; k++) {
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		ioctl(user, PERF_EVENT_IOC_ENABLE, 0);
		for (i = 0; i < 1000 * (k + 1); i++)
			syscall(__NR_getppid);
		ioctl(user, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		ASSERT_EQ(read(fd, &c[k], sizeof(c[k])), sizeof(c[k]));
	}
	ASSERT_EQ(read(user, &u, sizeof(u)), sizeof(u));
	EXPECT_GE(c[0], 1000 * 3) TH_LOG("%s", filter);
	EXPECT_EQ(c[1], 2 * c[0]);
	EXPECT_EQ(u, 0);
	close(user);
	close(fd);
}

/* What the PMU cannot do, and what perf core refuses, with their errno */
TEST_F(pmu, addr_filter_bad)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->type,
		.config = 0x11,
		.disabled = 1,
	};
	char filter[512], two[1100], trigger[600];
	int fd = open_event(self->type, 0x11, 0, 1), cpu_wide;
	const char *at;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(text_filter(spin, spin_end, filter, sizeof(filter)), 0);
	at = strchr(filter, '@');
	ASSERT_TRUE(at != NULL);

	snprintf(two, sizeof(two), "%s %s", filter, filter);
	errno = 0;
	EXPECT_EQ(set_filter(fd, two), -1);
	EXPECT_EQ(errno, EOPNOTSUPP) TH_LOG("two filters, one range");
	snprintf(trigger, sizeof(trigger), "start 0x100%s", at);
	errno = 0;
	EXPECT_EQ(set_filter(fd, trigger), -1);
	EXPECT_EQ(errno, EOPNOTSUPP) TH_LOG("a start trigger");
	snprintf(trigger, sizeof(trigger), "stop 0x100%s", at);
	errno = 0;
	EXPECT_EQ(set_filter(fd, trigger), -1);
	EXPECT_EQ(errno, EOPNOTSUPP) TH_LOG("a stop trigger");
	errno = 0;
	EXPECT_EQ(set_filter(fd, "filter 0x0/0x100@/no/such/file"), -1);
	EXPECT_EQ(errno, ENOENT) TH_LOG("a file that does not exist");
	errno = 0;
	EXPECT_EQ(set_filter(fd, "filter 0x0/0x100@/proc"), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("a directory");
	errno = 0;
	EXPECT_EQ(set_filter(fd, "filter 0x100/0@/bin/busybox"), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("an empty range");
	errno = 0;
	EXPECT_EQ(set_filter(fd, "filter spin"), -1);
	EXPECT_EQ(errno, EINVAL) TH_LOG("a symbol: perf resolves those");
	/* and the event still counts, unfiltered */
	EXPECT_GT(count_spin_and_more(fd, 1000000), 6000000);

	/* The same file is mapped anywhere in each task: per-task only */
	cpu_wide = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	ASSERT_GE(cpu_wide, 0);
	errno = 0;
	EXPECT_EQ(set_filter(cpu_wide, filter), -1);
	EXPECT_EQ(errno, EOPNOTSUPP) TH_LOG("a file filter on a CPU-wide event");
	close(cpu_wide);
	close(fd);
}

/*
 * sysfs: the format, and every event by name opens and counts; the
 * events of a shadow D-cache only when caps/ shows the shadow, which
 * they are ENOENT without
 */
TEST_F(pmu, sysfs_events_open)
{
	const char *dir = "/sys/bus/event_source/devices/leon3_pmu/events";
	char path[512], text[64];
	struct dirent *d;
	unsigned int id;
	int n = 0, shadows = 0, fd, k;
	DIR *dp;
	FILE *f;

	f = fopen("/sys/bus/event_source/devices/leon3_pmu/format/event", "r");
	ASSERT_TRUE(f != NULL);
	ASSERT_TRUE(fgets(text, sizeof(text), f) != NULL);
	fclose(f);
	EXPECT_STREQ(text, "config:0-7\n");
	f = fopen("/sys/bus/event_source/devices/leon3_pmu/format/pid", "r");
	ASSERT_TRUE(f != NULL);
	ASSERT_TRUE(fgets(text, sizeof(text), f) != NULL);
	fclose(f);
	EXPECT_STREQ(text, "config1:0-31\n");

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

	for (k = 0; k < 4; k++) {
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/leon3_pmu/caps/dcache_shadow%d", k);
		if (!access(path, R_OK)) {
			shadows++;
			continue;
		}
		for (id = 0x90 + 2 * k; id <= 0x91 + 2 * k; id++) {
			errno = 0;
			EXPECT_EQ(open_event(self->type, id, 0, 0), -1);
			EXPECT_EQ(errno, ENOENT) TH_LOG("0x%x without shadow %d", id, k);
		}
	}
	/*
	 * Documentation/pmu-registers.md: 26 (write_buffer_hold included:
	 * this QEMU models the write buffer), and 2 for each shadow
	 */
	EXPECT_EQ(n, 26 + 2 * shadows);
}

/* perf holds the module while an event exists: rmmod must fail. */
TEST_F(pmu, unload_refused_while_open)
{
	int fd = open_event(self->type, 0x11, 0, 1);

	ASSERT_GE(fd, 0);
	/* busybox's rmmod exits 0 even when the kernel says EAGAIN */
	system("rmmod leon3_pmu 2>/dev/null");
	EXPECT_EQ(system("grep -q '^leon3_pmu .* Live' /proc/modules"), 0);
	EXPECT_EQ(leon3_pmu_type(), self->type);
	close(fd);
}

TEST_HARNESS_MAIN
