// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open() works in the guest: a task-clock software event
 * counts the CPU time of a busy loop.  Prints the count and exits 0 when
 * it is plausible: more than zero, no more than the wall time elapsed.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(void)
{
	struct perf_event_attr attr;
	volatile unsigned long sink = 0;
	uint64_t count, t0, wall;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.disabled = 1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	t0 = now_ns();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (unsigned long i = 0; i < 20000000; i++)
		sink += i;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	wall = now_ns() - t0;
	if (read(fd, &count, sizeof(count)) != sizeof(count)) {
		perror("read");
		return 1;
	}
	printf("task-clock %llu ns, wall %llu ns\n",
	       (unsigned long long)count, (unsigned long long)wall);
	return count > 0 && count <= wall + 10000000 ? 0 : 1;
}
