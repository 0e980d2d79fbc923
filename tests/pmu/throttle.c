// SPDX-License-Identifier: GPL-2.0
/*
 * Samples, signals and counts of events that perf throttles.  Two
 * user-only instructions events, periods PERIOD and 2 * PERIOD, each
 * with its own ring buffer and a queued real-time signal per wakeup
 * (wakeup_events 1, as perf_event_tests' overflow tests), over a loop
 * of a known number of instructions.  When perf throttles an event the
 * driver stops it in its interrupt handler and perf core starts it
 * again at the next tick: neither may lose a count or a sample.  A
 * stopped event counts nothing: a third event, counting only (which perf
 * never throttles), enabled before them and disabled after, counts the
 * whole loop for comparison.
 *
 * Prints the counting event's count:
 *   reference count C
 * and per sampling event:
 *   event I period P count C samples S signals N pollin N throttle T
 *   unthrottle U lost L
 * The ring buffers (BUF_PAGES) are large enough that no record reaches
 * their watermark (half of each): every wakeup is a sample's.
 *
 * Usage: throttle ITERATIONS  (3 instructions an iteration)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "leon3_pmu_user.h"

#define EVENTS		2
#define PERIOD		1000000
#define BUF_PAGES	64
#define SIG		(SIGRTMIN + 2)

static int fds[EVENTS];
static volatile int signals[EVENTS], pollin[EVENTS];

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int i;

	for (i = 0; i < EVENTS; i++) {
		if (si->si_fd == fds[i]) {
			signals[i]++;
			if (si->si_code == POLL_IN)
				pollin[i]++;
		}
	}
}

/* A user-only instructions event: sampling every @period, or counting (0) */
static int open_event(long period)
{
	struct perf_event_attr pe;

	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = PERF_TYPE_HARDWARE;
	pe.config = PERF_COUNT_HW_INSTRUCTIONS;
	pe.sample_period = period;
	pe.sample_type = PERF_SAMPLE_IP;
	pe.wakeup_events = 1;
	pe.disabled = 1;
	pe.exclude_kernel = 1;
	return syscall(__NR_perf_event_open, &pe, 0, -1, -1, 0);
}

int main(int argc, char **argv)
{
	size_t len = (1 + BUF_PAGES) * getpagesize();
	struct perf_event_mmap_page *page[EVENTS];
	struct sigaction sa;
	long long ref_count = -1;
	long iterations;
	int i, ref;

	iterations = argc > 1 ? atol(argv[1]) : 100000000;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIG, &sa, NULL);

	for (i = 0; i < EVENTS; i++) {
		fds[i] = open_event((long)PERIOD * (i + 1));
		if (fds[i] < 0) {
			perror("perf_event_open");
			return 1;
		}
		page[i] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fds[i], 0);
		if (page[i] == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		fcntl(fds[i], F_SETFL, O_RDWR | O_NONBLOCK | O_ASYNC);
		fcntl(fds[i], F_SETSIG, SIG);
		fcntl(fds[i], F_SETOWN, getpid());
		ioctl(fds[i], PERF_EVENT_IOC_RESET, 0);
	}
	ref = open_event(0);
	if (ref < 0) {
		perror("perf_event_open (counting)");
		return 1;
	}
	ioctl(ref, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < EVENTS; i++)
		ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
	leon3_loop(iterations);
	for (i = 0; i < EVENTS; i++)
		ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
	ioctl(ref, PERF_EVENT_IOC_DISABLE, 0);
	if (read(ref, &ref_count, sizeof(ref_count)) != sizeof(ref_count))
		return 1;
	printf("reference count %lld\n", ref_count);

	for (i = 0; i < EVENTS; i++) {
		struct perf_event_header *h, rec;
		struct leon3_ring r;
		long samples = 0, throttle = 0, unthrottle = 0, lost = 0;
		long long count = -1;

		if (read(fds[i], &count, sizeof(count)) != sizeof(count))
			return 1;
		leon3_ring_begin(&r, page[i], BUF_PAGES);
		while ((h = leon3_ring_next(&r, &rec, sizeof(rec)))) {
			if (h->type == PERF_RECORD_SAMPLE)
				samples++;
			else if (h->type == PERF_RECORD_THROTTLE)
				throttle++;
			else if (h->type == PERF_RECORD_UNTHROTTLE)
				unthrottle++;
			else if (h->type == PERF_RECORD_LOST)
				lost++;
		}
		printf("event %d period %ld count %lld samples %ld signals %d pollin %d "
		       "throttle %ld unthrottle %ld lost %ld\n", i, (long)PERIOD * (i + 1),
		       count, samples, signals[i], pollin[i], throttle, unthrottle, lost);
	}
	return 0;
}
