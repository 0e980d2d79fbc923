// SPDX-License-Identifier: GPL-2.0
/*
 * read-cost: what one read of a counter costs a task, in the modelled
 * LEON3's cycles and instructions: read() of the event, against a read
 * of the PMU's user window through perf's mmap page (as
 * tests/pmu/user-read.c does it).  A cycles and an instructions event,
 * each readable from the window, measure N reads of a third event each
 * way, and an empty loop of N iterations; the cost of a read is the
 * difference over N.  Both modes for read(), user mode only for the
 * user reads (which the kernel's timer ticks would only blur).  Prints
 *   read CYCLES INSNS     read() of the event
 *   user CYCLES INSNS     the mmap page's read (its lock, index, offset
 *                         and the window's word, 64-bit arithmetic)
 *   load CYCLES INSNS     the window's word alone (one load)
 *   papi CYCLES INSNS F   PAPI_read() of a running PAPI_TOT_INS event
 *                         set, with the perf_event component's
 *                         fast_counter_read F (1: the user window, 0:
 *                         read())
 * per read, or "user none" where the task cannot read the window.  With
 * "slow", only the papi line, with sysfs rdpmc 0 while PAPI starts (so
 * that PAPI reads with read()), and 1 again after.
 *
 * Usage: read-cost N [slow]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <papi.h>

#include "../../tests/pmu/leon3_pmu_user.h"

#define RDPMC "/sys/bus/event_source/devices/leon3_pmu/rdpmc"

struct counter {
	int fd;
	volatile struct perf_event_mmap_page *pc;
};

static const volatile uint32_t *window;

static int open_counter(struct counter *c, unsigned long config, int user_only)
{
	c->fd = leon3_open_counting(config, user_only);
	if (c->fd < 0)
		return -1;
	c->pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, c->fd, 0);
	return c->pc == MAP_FAILED ? -1 : 0;
}

/* The mmap page's documented read, from the window; -1 if not readable */
static inline long long user_read(const struct counter *c)
{
	return leon3_user_read(c->pc, window, NULL);
}

enum { EMPTY, READ, USER, LOAD, PAPI };

static int papi_set;
static long long papi_value;

/* cycles and instructions of N iterations of @what, read from the window */
static int measure(struct counter *cyc, struct counter *ins, struct counter *ev,
		   int what, long n, long long *dc, long long *di)
{
	long long c0, i0, c1, i1, sink = 0;
	long i;

	c0 = user_read(cyc);
	i0 = user_read(ins);
	for (i = 0; i < n; i++) {
		if (what == READ)
			sink += leon3_read_count(ev->fd);
		else if (what == USER)
			sink += user_read(ev);
		else if (what == LOAD)
			sink += window[ev->pc->index - 1];
		else if (what == PAPI && PAPI_read(papi_set, &papi_value) == PAPI_OK)
			sink += papi_value;
		__asm__ __volatile__("" : : : "memory");
	}
	i1 = user_read(ins);
	c1 = user_read(cyc);
	if (c0 < 0 || i0 < 0 || c1 < 0 || i1 < 0 || sink < 0)
		return -1;
	*dc = c1 - c0;
	*di = i1 - i0;
	return 0;
}

static int set_rdpmc(const char *v)
{
	FILE *f = fopen(RDPMC, "w");

	if (!f)
		return -1;
	fputs(v, f);
	return fclose(f);
}

/*
 * PAPI_TOT_INS started in an event set, PAPI's fast read on or off as
 * sysfs rdpmc is while PAPI starts: its fast_counter_read, or -1
 */
static int papi_start(int slow)
{
	const PAPI_component_info_t *ci;
	int fast;

	if (slow && set_rdpmc("0"))
		return -1;
	fast = PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT;
	if (slow && set_rdpmc("1"))
		return -1;
	papi_set = PAPI_NULL;
	if (!fast || PAPI_create_eventset(&papi_set) != PAPI_OK ||
	    PAPI_add_named_event(papi_set, "PAPI_TOT_INS") != PAPI_OK ||
	    PAPI_start(papi_set) != PAPI_OK)
		return -1;
	ci = PAPI_get_component_info(PAPI_get_component_index("perf_event"));
	return ci ? ci->fast_counter_read : -1;
}

int main(int argc, char **argv)
{
	struct counter cyc[2], ins[2], ev;
	long long c[5], in[5], ec[2], ei[2];
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 0;
	int slow = argc > 2 && !strcmp(argv[2], "slow"), fast, w;

	if (n <= 0 || (argc > 2 && !slow)) {
		fprintf(stderr, "usage: read-cost N [slow]\n");
		return 2;
	}
	window = leon3_user_window();
	/* [0] both modes, for read() and PAPI; [1] user mode, for the user reads */
	if (!window || open_counter(&cyc[0], 0x15, 0) || open_counter(&ins[0], 0x11, 0) ||
	    open_counter(&cyc[1], 0x15, 1) || open_counter(&ins[1], 0x11, 1) ||
	    open_counter(&ev, 0x11, 0)) {
		printf("user none\n");
		return 1;
	}
	for (w = EMPTY; w <= (slow ? EMPTY : LOAD); w++) {
		int u = w == USER || w == LOAD;

		if (measure(&cyc[u], &ins[u], &ev, w, n, &c[w], &in[w]) ||
		    (w == EMPTY && measure(&cyc[1], &ins[1], &ev, w, n, &ec[1], &ei[1]))) {
			printf("user none\n");
			return 1;
		}
	}
	/* PAPI's reads count in both modes, as read()'s */
	fast = papi_start(slow);
	if (fast < 0 || measure(&cyc[0], &ins[0], &ev, PAPI, n, &c[PAPI], &in[PAPI])) {
		printf("papi none\n");
		return 1;
	}
	ec[0] = c[EMPTY];
	ei[0] = in[EMPTY];
	if (!slow) {
		printf("read %.1f %.1f\n", (double)(c[READ] - ec[0]) / n,
		       (double)(in[READ] - ei[0]) / n);
		printf("user %.1f %.1f\n", (double)(c[USER] - ec[1]) / n,
		       (double)(in[USER] - ei[1]) / n);
		printf("load %.1f %.1f\n", (double)(c[LOAD] - ec[1]) / n,
		       (double)(in[LOAD] - ei[1]) / n);
	}
	printf("papi %.1f %.1f %d\n", (double)(c[PAPI] - ec[0]) / n,
	       (double)(in[PAPI] - ei[0]) / n, fast);
	return 0;
}
