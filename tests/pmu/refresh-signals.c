// SPDX-License-Identifier: GPL-2.0
/*
 * One SIGIO per sampling period, the way PAPI and perf_event_tests'
 * overflow tests take overflows: a user-only instructions event with a
 * period of PERIOD, armed for one overflow (PERF_EVENT_IOC_REFRESH 1)
 * and re-armed by the signal handler, over a loop of a known number of
 * instructions.  Prints the signals, the count and perf's sample rate.
 *
 * With "papi", the way PAPI's perf_event component does it
 * (_pe_dispatch_timer): the sampling event is member 3 of a group of
 * GROUP instructions events, the group is started with
 * PERF_EVENT_IOC_ENABLE on its leader (no overflow limit until the
 * first refresh), and the handler disables the event before it re-arms
 * it, so that every overflow reschedules the group.
 *
 * Usage: refresh-signals PERIODS [papi]
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
#define GROUP 6
#define SAMPLER 3	/* the sampling member in papi mode */

static volatile int signals, hups;
static int papi;

static void on_sigio(int sig, siginfo_t *si, void *uc)
{
	signals++;
	if (si->si_code == POLL_HUP)
		hups++;
	if (papi)
		ioctl(si->si_fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(si->si_fd, PERF_EVENT_IOC_REFRESH, 1);
}

/* 3 instructions an iteration: subcc, bne, nop */
static void work(unsigned long n)
{
	asm volatile("1: subcc %0, 1, %0\n\tbne 1b\n\tnop" : "+r"(n) : : "cc");
}

/* An instructions event; the sampling one if @sampler. */
static int open_event(int sampler, int disabled, int group_fd)
{
	struct perf_event_attr pe;

	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = PERF_TYPE_HARDWARE;
	pe.config = PERF_COUNT_HW_INSTRUCTIONS;
	if (sampler) {
		pe.sample_period = PERIOD;
		pe.sample_type = PERF_SAMPLE_IP;
		pe.wakeup_events = 1;
	}
	pe.disabled = disabled;
	pe.exclude_kernel = 1;
	return syscall(__NR_perf_event_open, &pe, 0, -1, group_fd, 0);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	long long count;
	int fds[GROUP], fd, periods, n, i;
	char rate[32] = "";
	FILE *f;

	periods = argc > 1 ? atoi(argv[1]) : 1000;
	papi = argc > 2 && !strcmp(argv[2], "papi");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigio;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGIO, &sa, NULL);

	n = papi ? GROUP : 1;
	for (i = 0; i < n; i++) {
		fds[i] = open_event(papi ? i == SAMPLER : 1, i == 0, i ? fds[0] : -1);
		if (fds[i] < 0) {
			perror("perf_event_open");
			return 1;
		}
	}
	fd = fds[papi ? SAMPLER : 0];
	if (mmap(NULL, 2 * getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) ==
	    MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	fcntl(fd, F_SETFL, O_RDWR | O_NONBLOCK | O_ASYNC);
	fcntl(fd, F_SETSIG, SIGIO);
	fcntl(fd, F_SETOWN, getpid());
	for (i = 0; i < n; i++)
		ioctl(fds[i], PERF_EVENT_IOC_RESET, 0);
	if (papi)
		ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0);
	else
		ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
	work((unsigned long)periods * PERIOD / 3);
	ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return 1;
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	if (f) {
		if (!fgets(rate, sizeof(rate), f))
			rate[0] = 0;
		fclose(f);
	}
	printf("%s %d hup %d count %lld rate %s", papi ? "papi-signals" : "signals",
	       signals, hups, count, rate);
	return 0;
}
