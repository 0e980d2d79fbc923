// SPDX-License-Identifier: GPL-2.0
/*
 * irq_work is raised with a self-IPI on SMP LEON (kernel/patches/0004).
 * A sampling task-clock event with wakeup_events = 1 queues an irq_work
 * for every sample (the ring-buffer wakeup); the IWI line of
 * /proc/interrupts must grow while it runs, and poll() must see the
 * samples.  Prints the IWI totals; exit status 0 when both hold.
 */
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Sum of the IWI line over all CPUs, or -1 if there is none. */
static long iwi_total(void)
{
	char line[512], *p, *end;
	long total = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = line;
		while (*p == ' ')
			p++;
		if (strncmp(p, "IWI:", 4))
			continue;
		total = 0;
		for (p += 4;; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			total += v;
		}
	}
	fclose(f);
	return total;
}

int main(void)
{
	struct perf_event_attr attr;
	volatile unsigned long sink = 0;
	struct pollfd pfd;
	long before, after;
	void *ring;
	int fd, polled;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = 2000000;	/* ns: a sample every 2 ms */
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	ring = mmap(NULL, 2 * getpagesize(), PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		perror("mmap");
		return 1;
	}

	before = iwi_total();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (unsigned long i = 0; i < 10000000; i++)
		sink += i;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	after = iwi_total();

	pfd.fd = fd;
	pfd.events = POLLIN;
	polled = poll(&pfd, 1, 1000);
	printf("IWI before %ld after %ld, poll %d revents 0x%x\n",
	       before, after, polled, pfd.revents);
	if (before < 0) {
		fprintf(stderr, "no IWI line in /proc/interrupts\n");
		return 1;
	}
	return after > before && polled == 1 && (pfd.revents & POLLIN) ? 0 : 1;
}
