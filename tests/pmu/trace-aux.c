// SPDX-License-Identifier: GPL-2.0
/*
 * trace-aux: run a program under the leon3_trace PMU and print what the
 * trace unit recorded, with no perf tool: the event opened on the child
 * before it runs the program (enable_on_exec), its ring buffer and AUX
 * area mapped as perf record maps them.
 *
 * Usage: trace-aux [-a PAGES] [-S] [-c CONFIG] [-k] [-U] [-P PERIOD] [-F FREQ] [-2] [-e]
 *                  PROG [ARGS...]
 *   -a PAGES   pages of the AUX area (default 16)
 *   -S         snapshot mode: the AUX area mapped read-only, which the
 *              unit overwrites; the last PAGES pages are printed
 *   -c CONFIG  attr.config (1: PID records, 2: overflow records, 4: times
 *              in instructions)
 *   -k         the kernel's tags too (exclude_kernel = 0)
 *   -U         exclude_user
 *   -P PERIOD  attr.sample_period
 *   -F FREQ    attr.sample_freq, with attr.freq
 *   -2         open a second event on the same program: "second ERRNO"
 *   -e         only open the event: "open 0", or "open ERRNO" if it fails
 *
 * Prints, after the program ran (its own output first):
 *   aux OFFSET SIZE FLAGS   each PERF_RECORD_AUX of the ring buffer
 *   itrace_start PID TID    PERF_RECORD_ITRACE_START
 *   lost N                  PERF_RECORD_LOST
 *   head AUX_HEAD tail AUX_TAIL
 *   rec W0 W1 W2 W3         each trace record of the AUX area, in hex
 *   exit STATUS
 * Exit status 2, and "open ERRNO" or "mmap ERRNO", when tracing fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "leon3_pmu_user.h"

#define DATA_PAGES	16
#define REC_SIZE	16

static __u64 freq;

static int open_trace(int type, pid_t pid, __u64 config, __u64 period,
		      int kernel, int exclude_user)
{
	struct perf_event_attr pe;

	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = type;
	pe.config = config;
	pe.sample_period = period;
	if (freq) {
		pe.freq = 1;
		pe.sample_freq = freq;
	}
	pe.disabled = 1;
	pe.enable_on_exec = 1;
	pe.exclude_kernel = !kernel;
	pe.exclude_hv = 1;
	pe.exclude_user = exclude_user;
	return syscall(SYS_perf_event_open, &pe, pid, -1, -1, 0);
}

static void print_ring(void *base)
{
	union {
		struct perf_event_header h;
		char buf[256];
	} rec;
	struct leon3_ring r;
	const __u64 *u;

	leon3_ring_begin(&r, base, DATA_PAGES);
	while (leon3_ring_next(&r, &rec, sizeof(rec))) {
		u = (const __u64 *)(&rec.h + 1);
		switch (rec.h.type) {
		case PERF_RECORD_AUX:
			printf("aux %llu %llu %llu\n", u[0], u[1], u[2]);
			break;
		case PERF_RECORD_ITRACE_START:
			printf("itrace_start %u %u\n", ((const __u32 *)u)[0],
			       ((const __u32 *)u)[1]);
			break;
		case PERF_RECORD_LOST:
			printf("lost %llu\n", u[1]);
			break;
		}
	}
}

int main(int argc, char **argv)
{
	int opt, fd, fd2, type, go[2], status, kernel = 0, exclude_user = 0;
	int snapshot = 0, two = 0, only_open = 0;
	long aux_pages = 16, page = sysconf(_SC_PAGESIZE);
	__u64 config = 0, period = 0, head, tail, from, off, size;
	struct perf_event_mmap_page *meta;
	const unsigned char *aux;
	void *base;
	pid_t child;
	char c = 0;

	while ((opt = getopt(argc, argv, "+a:Sc:kUP:F:2e")) != -1) {
		switch (opt) {
		case 'a':
			aux_pages = strtol(optarg, NULL, 0);
			break;
		case 'S':
			snapshot = 1;
			break;
		case 'c':
			config = strtoull(optarg, NULL, 0);
			break;
		case 'k':
			kernel = 1;
			break;
		case 'U':
			exclude_user = 1;
			break;
		case 'P':
			period = strtoull(optarg, NULL, 0);
			break;
		case 'F':
			freq = strtoull(optarg, NULL, 0);
			break;
		case '2':
			two = 1;
			break;
		case 'e':
			only_open = 1;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: trace-aux [options] PROG [ARGS...]\n");
		return 2;
	}
	type = leon3_pmu_type_of("leon3_trace");
	if (type < 0) {
		printf("no leon3_trace PMU\n");
		return 2;
	}
	if (pipe(go))
		return 2;
	child = fork();
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}

	fd = open_trace(type, child, config, period, kernel, exclude_user);
	if (fd < 0 || only_open) {
		printf("open %d\n", fd < 0 ? errno : 0);
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		return fd < 0 && !only_open ? 2 : 0;
	}
	if (two) {
		fd2 = open_trace(type, child, config, period, kernel, exclude_user);
		printf("second %d\n", fd2 < 0 ? errno : 0);
	}
	base = mmap(NULL, (1 + DATA_PAGES) * page, PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		printf("mmap %d\n", errno);
		return 2;
	}
	meta = base;
	meta->aux_offset = (1 + DATA_PAGES) * page;
	meta->aux_size = aux_pages * page;
	aux = mmap(NULL, meta->aux_size, snapshot ? PROT_READ : PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, meta->aux_offset);
	if (aux == MAP_FAILED) {
		printf("mmap %d\n", errno);
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		return 2;
	}

	if (write(go[1], &c, 1) != 1)
		return 2;
	waitpid(child, &status, 0);
	fflush(stdout);

	print_ring(base);
	head = meta->aux_head;
	tail = meta->aux_tail;
	__sync_synchronize();	/* aux_head before the data it covers */
	printf("head %llu tail %llu\n", head, tail);
	size = meta->aux_size;
	from = snapshot ? (head > size ? head - size : 0) : tail;
	for (off = from; off + REC_SIZE <= head; off += REC_SIZE) {
		const __u32 *w = (const __u32 *)(aux + off % size);

		printf("rec %08x %08x %08x %08x\n", w[0], w[1], w[2], w[3]);
	}
	printf("exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
