// SPDX-License-Identifier: GPL-2.0
/*
 * One SIGIO per sampling period, the way PAPI and perf_event_tests'
 * overflow tests take overflows: a user-only instructions event with a
 * period of PERIOD, armed for one overflow (PERF_EVENT_IOC_REFRESH 1)
 * and re-armed by the signal handler, over a loop of a known number of
 * instructions.  Prints the signals, the count and perf's sample rate.
 *
 * Usage: refresh-signals PERIODS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PERIOD 1000000

static volatile int signals, hups;

static void on_sigio(int sig, siginfo_t *si, void *uc)
{
	signals++;
	if (si->si_code == POLL_HUP)
		hups++;
	ioctl(si->si_fd, PERF_EVENT_IOC_REFRESH, 1);
}

/* 3 instructions an iteration: subcc, bne, nop */
static void work(unsigned long n)
{
	asm volatile("1: subcc %0, 1, %0\n\tbne 1b\n\tnop" : "+r"(n) : : "cc");
}

int main(int argc, char **argv)
{
	struct perf_event_attr pe;
	struct sigaction sa;
	long long count;
	int fd, periods;
	char rate[32] = "";
	FILE *f;

	periods = argc > 1 ? atoi(argv[1]) : 1000;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigio;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGIO, &sa, NULL);

	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = PERF_TYPE_HARDWARE;
	pe.config = PERF_COUNT_HW_INSTRUCTIONS;
	pe.sample_period = PERIOD;
	pe.sample_type = PERF_SAMPLE_IP;
	pe.wakeup_events = 1;
	pe.disabled = 1;
	pe.exclude_kernel = 1;
	fd = syscall(__NR_perf_event_open, &pe, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	if (mmap(NULL, 2 * getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) ==
	    MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	fcntl(fd, F_SETFL, O_RDWR | O_NONBLOCK | O_ASYNC);
	fcntl(fd, F_SETSIG, SIGIO);
	fcntl(fd, F_SETOWN, getpid());
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
	work((unsigned long)periods * PERIOD / 3);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return 1;
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	if (f) {
		if (!fgets(rate, sizeof(rate), f))
			rate[0] = 0;
		fclose(f);
	}
	printf("signals %d hup %d count %lld rate %s", signals, hups, count, rate);
	return 0;
}
