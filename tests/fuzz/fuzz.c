// SPDX-License-Identifier: GPL-2.0
/*
 * A perf_event_open fuzzer aimed at the leon3_pmu driver (tests/fuzz/
 * fuzz.t).  For SECONDS it opens events with random attributes (biased
 * towards this PMU: its type, the generic types, valid and invalid ids,
 * filters, periods, groups, per task and per CPU), and enables,
 * disables, resets, reads, maps, refreshes and closes them at random,
 * while a second process and a thread keep the CPUs busy.
 *
 * Then it checks that nothing leaked: with every event closed, a full
 * group (six event counters plus the cycle counter) must get the whole
 * PMU of each CPU, and count.
 *
 *   fuzz SECONDS [SEED]      prints "opened N, refused M, ops K"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../pmu/leon3_pmu_user.h"

#define MAX_FDS		48

static int fds[MAX_FDS];
static void *maps[MAX_FDS];
static unsigned int seed;
static int ncpus;
static volatile int stop;
static int trace;	/* FUZZ_TRACE=1: each call on stderr, to find a hang */

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)rand_r(&seed) % n : 0;
}

static uint64_t rnd64(void)
{
	return (uint64_t)rand_r(&seed) << 33 ^ (uint64_t)rand_r(&seed) << 11 ^
	       rand_r(&seed);
}

static void random_attr(struct perf_event_attr *a, int type)
{
	static const uint64_t ids[] = { 0x00, 0x01, 0x02, 0x08, 0x09, 0x0a,
		0x11, 0x12, 0x13, 0x15, 0x22, 0x28, 0x38, 0x39, 0x3a, 0x80,
		0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
		/* shadow D-caches: ENOENT without them */
		0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97 };

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	switch (rnd(8)) {
	case 0:
		a->type = PERF_TYPE_HARDWARE;
		a->config = rnd(12);
		break;
	case 1:
		a->type = PERF_TYPE_HW_CACHE;
		a->config = rnd(8) | rnd(4) << 8 | rnd(3) << 16;
		break;
	case 2:
		a->type = PERF_TYPE_RAW;
		a->config = rnd(2) ? ids[rnd(sizeof(ids) / sizeof(ids[0]))] : rnd64();
		break;
	case 3:
		a->type = rnd(16);
		a->config = rnd64();
		break;
	default:
		a->type = type;
		a->config = rnd(8) ? ids[rnd(sizeof(ids) / sizeof(ids[0]))] :
				     rnd(4) ? rnd(256) : rnd64();
	}
	if (!rnd(4))
		a->config1 = rnd(2) ? (uint64_t)getpid() : rnd64();
	if (!rnd(16))
		a->config2 = rnd64();
	switch (rnd(4)) {
	case 0:
		a->sample_period = 1000 + rnd(1000000);
		break;
	case 1:
		a->freq = 1;
		a->sample_freq = 1 + rnd(20000);
		break;
	case 2:
		a->sample_period = rnd(4) ? rnd64() : 1 + rnd(100);
		break;
	}
	a->sample_type = rnd64() & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				    PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN |
				    PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
				    PERF_SAMPLE_CPU | PERF_SAMPLE_REGS_USER |
				    PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_STACK_USER);
	/* sparc32 has 20 sample registers (kernel/patches/0018): some masks beyond */
	a->sample_regs_user = rnd(8) ? rnd64() & ((1ULL << rnd(24)) - 1) : rnd64();
	a->sample_regs_intr = rnd(8) ? rnd64() & ((1ULL << rnd(24)) - 1) : rnd64();
	a->sample_stack_user = rnd(4) ? 8 * rnd(2048) : (uint32_t)rnd64();
	a->read_format = rnd64() & (PERF_FORMAT_TOTAL_TIME_ENABLED |
				    PERF_FORMAT_TOTAL_TIME_RUNNING |
				    PERF_FORMAT_ID | PERF_FORMAT_GROUP);
	a->disabled = rnd(2);
	a->inherit = rnd(4) == 0;
	a->pinned = rnd(8) == 0;
	a->exclusive = rnd(8) == 0;
	a->exclude_user = rnd(4) == 0;
	a->exclude_kernel = rnd(3) == 0;
	a->exclude_hv = rnd(2);
	a->exclude_idle = rnd(16) == 0;
	a->enable_on_exec = rnd(16) == 0;
	a->wakeup_events = rnd(4);
	a->sample_max_stack = rnd(4) ? 0 : rnd(200);
}

static int open_random(int type, pid_t other)
{
	struct perf_event_attr a;
	int slot = rnd(MAX_FDS), group = -1, cpu = -1, fd;
	pid_t pid = 0;

	random_attr(&a, type);
	if (!rnd(3)) {
		int g = rnd(MAX_FDS);

		group = fds[g];
	}
	switch (rnd(4)) {
	case 0:
		pid = -1;
		cpu = rnd(ncpus);
		break;
	case 1:
		pid = other;
		break;
	case 2:
		cpu = rnd(ncpus + 1) - 1;
		break;
	}
	if (fds[slot] >= 0)
		return 0;
	if (trace)
		fprintf(stderr, "open type %u config %#llx config1 %#llx period %llu "
			"freq %u excl u%u k%u idle%u pid %d cpu %d group %d\n",
			a.type, (unsigned long long)a.config,
			(unsigned long long)a.config1,
			(unsigned long long)a.sample_period, a.freq,
			a.exclude_user, a.exclude_kernel, a.exclude_idle,
			pid, cpu, group);
	fd = syscall(__NR_perf_event_open, &a, pid, cpu, group,
		     rnd(8) ? 0 : PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	fds[slot] = fd;
	return 1;
}

static void close_slot(int i)
{
	size_t page = sysconf(_SC_PAGESIZE);

	if (maps[i]) {
		munmap(maps[i], 3 * page);
		maps[i] = NULL;
	}
	if (fds[i] >= 0)
		close(fds[i]);
	fds[i] = -1;
}

static void random_op(void)
{
	size_t page = sysconf(_SC_PAGESIZE);
	int i = rnd(MAX_FDS), fd = fds[i];
	uint64_t buf[64], period;
	volatile long k;
	int op;

	if (fd < 0)
		return;
	op = rnd(9);
	if (trace)
		fprintf(stderr, "op %d on fd %d\n", op, fd);
	switch (op) {
	case 0:
		ioctl(fd, PERF_EVENT_IOC_ENABLE, rnd(2) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	case 1:
		ioctl(fd, PERF_EVENT_IOC_DISABLE, rnd(2) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	case 2:
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		break;
	case 3:
		if (read(fd, buf, rnd(2) ? sizeof(buf) : 8) < 0)
			break;
		break;
	case 4:
		ioctl(fd, PERF_EVENT_IOC_REFRESH, rnd(3));
		break;
	case 5:
		period = rnd(2) ? 1 + rnd(100000) : rnd64();
		ioctl(fd, PERF_EVENT_IOC_PERIOD, &period);
		break;
	case 6:
		if (!maps[i]) {
			maps[i] = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, 0);
			if (maps[i] == MAP_FAILED)
				maps[i] = NULL;
		}
		break;
	case 7:
		close_slot(i);
		break;
	default:
		for (k = 0; k < 20000; k++)
			;
	}
}

static void *busy(void *arg)
{
	volatile unsigned long n = 0;

	while (!stop) {
		n++;
		if (!(n & 0xfffff))
			sched_yield();
	}
	return NULL;
}

/* With everything closed, a full group must get each CPU's whole PMU. */
static int check_no_leak(int type)
{
	static const uint64_t ids[6] = { 0x11, 0x12, 0x22, 0x38, 0x39, 0x3a };
	int cpu, i, bad = 0;

	for (cpu = 0; cpu < ncpus; cpu++) {
		struct perf_event_attr a = {
			.size = sizeof(a), .type = type, .config = 0x15,
			.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
			.pinned = 1,
		};
		int g[7];
		uint64_t v[3];

		g[0] = syscall(__NR_perf_event_open, &a, -1, cpu, -1, 0);
		if (g[0] < 0) {
			printf("leak check: cpu %d: cycles: %s\n", cpu, strerror(errno));
			return 1;
		}
		a.pinned = 0;
		for (i = 0; i < 6; i++) {
			a.config = ids[i];
			g[i + 1] = syscall(__NR_perf_event_open, &a, -1, cpu, g[0], 0);
			if (g[i + 1] < 0) {
				printf("leak check: cpu %d: event %d: %s\n", cpu, i,
				       strerror(errno));
				return 1;
			}
		}
		usleep(50000);
		for (i = 0; i < 7; i++) {
			if (read(g[i], v, sizeof(v)) != sizeof(v) || !v[2] ||
			    v[2] != v[1] || !v[0]) {
				printf("leak check: cpu %d: counter %d: count %llu, "
				       "enabled %llu, running %llu\n", cpu, i,
				       (unsigned long long)v[0],
				       (unsigned long long)v[1],
				       (unsigned long long)v[2]);
				bad = 1;
			}
		}
		for (i = 6; i >= 0; i--)
			close(g[i]);
	}
	return bad;
}

int main(int argc, char **argv)
{
	long opened = 0, refused = 0, ops = 0;
	int type = leon3_pmu_type(), i, r;
	pthread_t thread;
	time_t end;
	pid_t other;

	if (argc < 2 || type < 0) {
		fprintf(stderr, "usage: fuzz SECONDS [SEED] (with leon3_pmu loaded)\n");
		return 2;
	}
	seed = argc > 2 ? strtoul(argv[2], NULL, 0) : (unsigned int)time(NULL);
	printf("seed %u\n", seed);
	fflush(stdout);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	trace = getenv("FUZZ_TRACE") != NULL;
	signal(SIGIO, SIG_IGN);
	signal(SIGTRAP, SIG_IGN);
	for (i = 0; i < MAX_FDS; i++)
		fds[i] = -1;

	other = fork();
	if (other == 0) {
		busy(NULL);
		_exit(0);
	}
	pthread_create(&thread, NULL, busy, NULL);

	end = time(NULL) + atoi(argv[1]);
	while (time(NULL) < end) {
		if (rnd(3)) {
			random_op();
			ops++;
			continue;
		}
		r = open_random(type, other);
		opened += r > 0;
		refused += r < 0;
	}
	for (i = 0; i < MAX_FDS; i++)
		close_slot(i);
	stop = 1;
	pthread_join(thread, NULL);
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);

	printf("opened %ld, refused %ld, ops %ld\n", opened, refused, ops);
	if (check_no_leak(type))
		return 1;
	printf("no leaked counter\n");
	return 0;
}
