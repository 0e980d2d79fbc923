// SPDX-License-Identifier: GPL-2.0
/*
 * A task reads its own counter from the LEON3 PMU's user window, as
 * perf's mmap page documents it (include/uapi/linux/perf_event.h): the
 * page's lock, index, offset and pmc_width, and a load of word index - 1
 * of the window at caps/user_window, retried when the lock moved.
 *
 * Prints "name value" lines for tests/pmu/user-read.t:
 *   window ADDR UAPI: caps/user_window's address and <asm/leon_pmu.h>'s
 *   cap_user_rdpmc C, pmc_width W, index I
 *   self N1 N2 D / read N1 N2 D: the user instructions a loop of N2
 *     iterations counts more than one of N1, read from the window and
 *     with read() (3 (N2 - N1) if both are exact)
 *   migrate D: the same from the window, with the task moved to the
 *     other CPU in the middle of each loop (2 CPUs or more)
 *   retries R: how many reads the lock made again
 *   gap G G G: read() then a window read at once, three times: the
 *     window's count less read()'s (the same each time)
 *   disabled I: the index once the event is disabled (0: no user read)
 *   closed V...: the window's words after the event is unmapped and
 *     closed (0: nothing of it left to read)
 *   child V...: the words a child without an event reads (0)
 *   store S: the signal that ends a child that stores to the window
 *
 *
 * Usage: user-read [rdpmc-off | peek | mapped | spin N | storm N]
 *   rdpmc-off: only print the page's caps
 *   peek: print the window's words without an event ("peek V...")
 *   mapped: print them with an event mapped ("mapped V...")
 *   spin N: only run the loop N times (another task's work)
 *   storm N: N window reads beside a task that spins on the same CPU
 *     (storm())
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <asm/leon_pmu.h>

#include "leon3_pmu_user.h"

#define N1	1000
#define N2	101000
#define WORDS	7	/* the cycle counter and 6 event counters */

static volatile struct perf_event_mmap_page *pc;
static const volatile uint32_t *window;
static long retries;

/* The count as the mmap page and the window give it; -1: no user read */
static long long self_read(void)
{
	return leon3_user_read(pc, window, &retries);
}

static void move_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The window's count across a loop of @n, moved to @other half-way if >= 0 */
static long long self_loop(long n, int other, int home)
{
	long long a, b;

	if (other >= 0)
		move_to(home);
	a = self_read();
	leon3_loop(n / 2);
	if (other >= 0)
		move_to(other);
	leon3_loop(n - n / 2);
	b = self_read();
	return a < 0 || b < 0 ? -1 : b - a;
}

static long long read_loop(int fd, long n)
{
	long long a = leon3_read_count(fd), b;

	leon3_loop(n);
	b = leon3_read_count(fd);
	return a < 0 || b < 0 ? -1 : b - a;
}

static void print_words(const char *what)
{
	int i;

	printf("%s", what);
	for (i = 0; i < WORDS; i++)
		printf(" %u", window[i]);
	printf("\n");
}

/*
 * @n window reads in a row, on CPU 0 beside another task that spins
 * there: the scheduler switches between the two, and the switch's update
 * of the mmap page lands in the middle of a read about as often as it
 * comes, which the read's lock then retries.  Prints "storm N R B G":
 * the reads, how many the lock retried, how many went back from the one
 * before (0), and then a read() less a window read at once (the same few
 * instructions as "gap").
 */
static int storm(int fd, long n)
{
	long long prev = 0, now, r;
	long i, back = 0;
	pid_t spinner;

	move_to(0);
	spinner = fork();
	if (spinner == 0) {
		for (;;)
			leon3_loop(1000000);
	}
	for (i = 0; i < n; i++) {
		now = self_read();
		back += now < prev;
		prev = now;
	}
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	r = leon3_read_count(fd);
	printf("storm %ld %ld %ld %lld\n", n, retries, back, self_read() - r);
	return 0;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd, i, status, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long long d1, d2;
	pid_t child;

	if (argc > 2 && !strcmp(argv[1], "spin")) {
		leon3_loop(strtol(argv[2], NULL, 0));
		return 0;
	}
	window = leon3_user_window();
	printf("window %p %p\n", (const void *)window, (const void *)LEON_PMU_USER_WINDOW);
	if (!window)
		return 1;
	if (argc > 1 && !strcmp(argv[1], "peek")) {
		print_words("peek");
		return 0;
	}
	print_words("before");		/* no event mapped: 0 */

	fd = leon3_open_counting(0x11, 1);	/* instructions:u */
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	pc = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("cap_user_rdpmc %d\npmc_width %d\nindex %u\n", (int)pc->cap_user_rdpmc,
	       (int)pc->pmc_width, pc->index);
	if (argc > 2 && !strcmp(argv[1], "storm"))
		return storm(fd, strtol(argv[2], NULL, 0));
	if (argc > 1 && !strcmp(argv[1], "mapped")) {
		leon3_loop(N2);
		print_words("mapped");
		return 0;
	}
	if (argc > 1)
		return 0;

	d1 = self_loop(N1, -1, 0);
	d2 = self_loop(N2, -1, 0);
	printf("self %d %d %lld\n", N1, N2, d2 < 0 || d1 < 0 ? -1 : d2 - d1);
	d1 = read_loop(fd, N1);
	d2 = read_loop(fd, N2);
	printf("read %d %d %lld\n", N1, N2, d2 < 0 || d1 < 0 ? -1 : d2 - d1);
	if (ncpu > 1) {
		d1 = self_loop(N1, 1, 0);
		d2 = self_loop(N2, 1, 0);
		printf("migrate %lld\n", d2 < 0 || d1 < 0 ? -1 : d2 - d1);
	}
	printf("gap");
	for (i = 0; i < 3; i++) {
		long long r = leon3_read_count(fd);
		long long s = self_read();

		printf(" %lld", s < 0 || r < 0 ? -1 : s - r);
	}
	printf("\nretries %ld\n", retries);

	child = fork();
	if (child == 0) {
		print_words("child");
		fflush(stdout);
		_exit(0);
	}
	waitpid(child, NULL, 0);

	/* a store to the window: the page is read-only, even for the kernel */
	child = fork();
	if (child == 0) {
		((volatile uint32_t *)window)[pc->index - 1] = 0;
		_exit(0);
	}
	waitpid(child, &status, 0);
	printf("store %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : -1);

	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	printf("disabled %u\n", pc->index);
	munmap((void *)pc, page);
	close(fd);
	print_words("closed");
	return 0;
}
