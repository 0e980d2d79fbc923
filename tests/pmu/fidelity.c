// SPDX-License-Identifier: GPL-2.0
/*
 * Measuring tool of tests/pmu/fidelity.t: runs code of known shape in
 * user mode, pinned to a CPU, under user-only perf counters, and prints
 * what it measured; fidelity.t works out from the cache geometry and
 * the timing table of Documentation/pmu-registers.md what a LEON3
 * should count, and compares.  The kernels are in assembly so that
 * their instruction mix is the one fidelity.t assumes.
 *
 *   fidelity CPU DLINE DSIZE          one line per measurement:
 *       "NAME cpu=C run=R key=value..."  (each measurement 5 times)
 *   fidelity snoop CPU_R CPU_W DLINE  a reader and a writer thread
 *
 * DLINE is the D-cache line in bytes and DSIZE its size; the I-cache
 * loops have fixed sizes, printed as "iloops small=B big=B", and the
 * store bursts a fixed number of iterations, "wburst iterations=N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RUNS		5
#define WB_ITERATIONS	5000	/* of wburst */
#define MAX_EVENTS	4

/*
 * dsweep(base, bytes, stride, passes): one load per stride.  Per load:
 * ld, add, cmp, bne, nop; per pass: mov, add (before), subcc, bne, nop.
 */
void dsweep(const void *base, unsigned long bytes, unsigned long stride,
	    unsigned long passes);
__asm__(".text\n"
	".align 32\n"
	".global dsweep\n"
	".type dsweep, #function\n"
	"dsweep:\n"
	"1:	mov %o0, %o4\n"
	"	add %o0, %o1, %o5\n"
	"2:	ld [%o4], %g1\n"
	"	add %o4, %o2, %o4\n"
	"	cmp %o4, %o5\n"
	"	bne 2b\n"
	"	 nop\n"
	"	subcc %o3, 1, %o3\n"
	"	bne 1b\n"
	"	 nop\n"
	"	retl\n"
	"	 nop\n"
	".size dsweep, . - dsweep\n");

/*
 * ipc_loop(n, buf): n iterations of ld, add (uses the load: interlock),
 * st, umul, subcc, bne (after subcc), nop.
 */
void ipc_loop(unsigned long n, unsigned int *buf);
__asm__(".text\n"
	".align 32\n"
	".global ipc_loop\n"
	".type ipc_loop, #function\n"
	"ipc_loop:\n"
	"1:	ld [%o1], %o2\n"
	"	add %o2, 1, %o3\n"
	"	st %o3, [%o1 + 4]\n"
	"	umul %o3, %o3, %o4\n"
	"	subcc %o0, 1, %o0\n"
	"	bne 1b\n"
	"	 nop\n"
	"	retl\n"
	"	 nop\n"
	".size ipc_loop, . - ipc_loop\n");

/*
 * wburst(n, base): n iterations of 8 stores to base + 16k (k = 0..7),
 * then subcc, bne (after subcc), nop.  wburst_cached(n, base): a load
 * from each of the 8 addresses first, so that the stores hit lines
 * the D-cache holds, then wburst.
 */
void wburst(unsigned long n, void *base);
void wburst_cached(unsigned long n, void *base);
__asm__(".text\n"
	".align 32\n"
	".global wburst, wburst_cached\n"
	".type wburst_cached, #function\n"
	"wburst_cached:\n"
	"	.set off, 0\n"
	"	.rept 8\n"
	"	ld [%o1 + off], %g0\n"
	"	.set off, off + 16\n"
	"	.endr\n"
	".type wburst, #function\n"
	"wburst:\n"
	"1:\n"
	"	.set off, 0\n"
	"	.rept 8\n"
	"	st %g0, [%o1 + off]\n"
	"	.set off, off + 16\n"
	"	.endr\n"
	"	subcc %o0, 1, %o0\n"
	"	bne 1b\n"
	"	 nop\n"
	"	retl\n"
	"	 nop\n"
	".size wburst, . - wburst\n"
	".size wburst_cached, . - wburst_cached\n");

/*
 * ILOOP(name, insns): n iterations of a loop body of @insns
 * instructions (nops, then subcc, bne, nop), starting on a 32-byte
 * boundary: its code is 4 * insns bytes.
 */
#define ILOOP(name, insns)						\
	void name(unsigned long n);					\
	extern const char name##_end[];					\
	__asm__(".text\n"						\
		".align 32\n"						\
		".global " #name "\n"					\
		".type " #name ", #function\n"				\
		#name ":\n"						\
		"1:\n"							\
		".rept " #insns " - 3\n"				\
		"	nop\n"						\
		".endr\n"						\
		"	subcc %o0, 1, %o0\n"				\
		"	bne 1b\n"					\
		"	 nop\n"						\
		".global " #name "_end\n"				\
		#name "_end:\n"						\
		"	retl\n"						\
		"	 nop\n"						\
		".size " #name ", . - " #name "\n")

ILOOP(iloop_small, 256);	/* 1 KiB */
ILOOP(iloop_big, 4096);		/* 16 KiB */

struct event {
	const char *name;
	__u32 type;
	__u64 config;
};

static __u32 leon3_type;

#define HW(n, c)	{ n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define CACHE(n, c, op, res) { n, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_##c | \
	(PERF_COUNT_HW_CACHE_OP_##op << 8) | (PERF_COUNT_HW_CACHE_RESULT_##res << 16) }
#define TYPE_LEON3	(~0u)		/* replaced by leon3_pmu's type */
#define RAW(n, id)	{ n, TYPE_LEON3, id }

static void die(const char *what)
{
	fprintf(stderr, "fidelity: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void read_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/leon3_pmu/type", "r");

	if (!f || fscanf(f, "%u", &leon3_type) != 1)
		die("/sys/bus/event_source/devices/leon3_pmu/type");
	fclose(f);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* A group of user-only counters of the calling thread, disabled. */
static int open_group(const struct event *ev, int n, int *fds)
{
	for (int i = 0; i < n; i++) {
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = ev[i].type == TYPE_LEON3 ? leon3_type : ev[i].type,
			.config = ev[i].config,
			.disabled = i == 0,
			.exclude_kernel = 1,
			.exclude_hv = 1,
			.read_format = PERF_FORMAT_GROUP,
		};

		fds[i] = syscall(__NR_perf_event_open, &attr, 0, -1,
				 i ? fds[0] : -1, 0);
		if (fds[i] < 0)
			die(ev[i].name);
	}
	return fds[0];
}

typedef void (*kernel_fn)(void *arg);

/*
 * Run @fn under the events @ev, RUNS times, each after @prep (not
 * counted) if not NULL; print one line per run.
 */
static void measure(const char *name, int cpu, const struct event *ev, int n,
		    kernel_fn prep, kernel_fn fn, void *arg)
{
	int fds[MAX_EVENTS];
	__u64 vals[1 + MAX_EVENTS];
	int leader = open_group(ev, n, fds);

	for (int run = 0; run < RUNS; run++) {
		if (prep)
			prep(arg);
		ioctl(leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		fn(arg);
		ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		if (read(leader, vals, sizeof(vals)) != (ssize_t)((1 + n) * sizeof(__u64)))
			die("read");
		printf("%s cpu=%d run=%d", name, cpu, run);
		for (int i = 0; i < n; i++)
			printf(" %s=%llu", ev[i].name, (unsigned long long)vals[1 + i]);
		printf("\n");
	}
	for (int i = n - 1; i >= 0; i--)
		close(fds[i]);
}

struct sweep {
	const void *base;
	unsigned long bytes, stride, passes;
	const void *evict;		/* twice the D-cache, elsewhere */
	unsigned long evict_bytes;
};

static void run_dsweep(void *arg)
{
	struct sweep *s = arg;

	dsweep(s->base, s->bytes, s->stride, s->passes);
}

/* Fill the D-cache with other lines: the sweep then starts cold. */
static void evict_dcache(void *arg)
{
	struct sweep *s = arg;

	dsweep(s->evict, s->evict_bytes, s->stride, 1);
}

struct ipc {
	unsigned long n;
	unsigned int *buf;
};

static void run_ipc(void *arg)
{
	struct ipc *p = arg;

	ipc_loop(p->n, p->buf);
}

struct wb {
	unsigned long n;
	void *base;
};

static void run_wburst(void *arg)
{
	struct wb *w = arg;

	wburst(w->n, w->base);
}

static void run_wburst_cached(void *arg)
{
	struct wb *w = arg;

	wburst_cached(w->n, w->base);
}

static void run_iloop_small(void *arg)
{
	iloop_small((unsigned long)arg);
}

static void run_iloop_big(void *arg)
{
	iloop_big((unsigned long)arg);
}

/* Fill the I-cache with other lines: the small loop then starts cold. */
static void evict_icache(void *arg)
{
	iloop_big(1);
}

/* The measurements on one CPU. */
static int on_cpu(int cpu, unsigned long dline, unsigned long dsize)
{
	static const struct event dmiss[] = {
		CACHE("l1d_load_misses", L1D, READ, MISS),
		CACHE("l1d_loads", L1D, READ, ACCESS),
		RAW("loads", 0x39),
	};
	static const struct event cyc[] = { HW("cycles", CPU_CYCLES) };
	static const struct event cyc_miss[] = {
		HW("cycles", CPU_CYCLES),
		CACHE("l1d_load_misses", L1D, READ, MISS),
	};
	static const struct event imiss[] = {
		CACHE("l1i_load_misses", L1I, READ, MISS),
		CACHE("l1i_loads", L1I, READ, ACCESS),
		HW("instructions", INSTRUCTIONS),
	};
	static const struct event ipc[] = {
		HW("cycles", CPU_CYCLES),
		HW("instructions", INSTRUCTIONS),
		CACHE("l1d_stores", L1D, WRITE, ACCESS),
		RAW("stores", 0x3a),
	};
	static const struct event wbuf[] = {
		HW("cycles", CPU_CYCLES),
		RAW("write_buffer_hold", 0x10),
		RAW("dcache_hold", 0x0a),
		RAW("stores", 0x3a),
	};
	unsigned long big = 16 * dsize;
	char *buf = aligned_alloc(4096, big);
	struct sweep fit = { buf, dsize / 2, dline, 20, buf + 4 * dsize, 2 * dsize };
	struct sweep nofit = { buf, big, dline, 3 };
	struct ipc small = { 20000, (unsigned int *)buf };
	struct ipc large = { 220000, (unsigned int *)buf };
	struct wb wb = { WB_ITERATIONS, buf };

	if (!buf)
		die("aligned_alloc");
	memset(buf, 1, big);
	pin(cpu);
	measure("dfit", cpu, dmiss, 3, evict_dcache, run_dsweep, &fit);
	measure("dbig", cpu, dmiss, 3, NULL, run_dsweep, &nofit);
	measure("dbig_cycles", cpu, cyc, 1, NULL, run_dsweep, &nofit);
	measure("dbig_cycles_miss", cpu, cyc_miss, 2, NULL, run_dsweep, &nofit);
	measure("ismall", cpu, imiss, 3, evict_icache, run_iloop_small, (void *)20UL);
	measure("ibig", cpu, imiss, 3, NULL, run_iloop_big, (void *)20UL);
	measure("ipc_small", cpu, ipc, 4, NULL, run_ipc, &small);
	measure("ipc_large", cpu, ipc, 4, NULL, run_ipc, &large);
	measure("wburst", cpu, wbuf, 4, NULL, run_wburst, &wb);
	measure("wburst_cached", cpu, wbuf, 4, NULL, run_wburst_cached, &wb);
	free(buf);
	return 0;
}

/*
 * Snooping: the reader reads LINES lines, then lets the writer store a
 * word into each of them and waits for it, ROUNDS times.  With
 * snooping, every one of the reader's reads after the first round
 * misses; the writer's flag is on a line of its own, re-read once per
 * round after the writer wrote it.
 */
#define LINES	64
#define ROUNDS	200

struct shared {
	char *lines;
	unsigned long dline;
	volatile unsigned int *turn;	/* its own line: whose turn, round */
	int cpu_w;
};

static void *writer(void *arg)
{
	struct shared *s = arg;

	pin(s->cpu_w);
	for (unsigned int r = 1; r <= ROUNDS; r++) {
		while (*s->turn != 2 * r - 1)
			;
		for (int i = 0; i < LINES; i++)
			*(volatile unsigned int *)(s->lines + i * s->dline) = r;
		__sync_synchronize();
		*s->turn = 2 * r;
	}
	return NULL;
}

static void read_rounds(void *arg)
{
	struct shared *s = arg;

	for (unsigned int r = 1; r <= ROUNDS; r++) {
		dsweep(s->lines, LINES * s->dline, s->dline, 1);
		__sync_synchronize();
		*s->turn = 2 * r - 1;
		while (*s->turn != 2 * r)
			;
	}
}

static int snoop(int cpu_r, int cpu_w, unsigned long dline)
{
	static const struct event ev[] = {
		CACHE("l1d_load_misses", L1D, READ, MISS),
		CACHE("l1d_loads", L1D, READ, ACCESS),
	};
	struct shared s = { .dline = dline, .cpu_w = cpu_w };
	char *mem = aligned_alloc(4096, 2 * 4096);
	int fds[MAX_EVENTS];
	__u64 vals[3];
	pthread_t t;

	if (!mem)
		die("aligned_alloc");
	memset(mem, 0, 2 * 4096);
	s.lines = mem;
	s.turn = (volatile unsigned int *)(mem + 4096);
	pin(cpu_r);
	open_group(ev, 2, fds);
	if (pthread_create(&t, NULL, writer, &s))
		die("pthread_create");
	ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	read_rounds(&s);
	ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	pthread_join(t, NULL);
	if (read(fds[0], vals, sizeof(vals)) != sizeof(vals))
		die("read");
	printf("snoop cpu=%d writer=%d lines=%d rounds=%d l1d_load_misses=%llu l1d_loads=%llu\n",
	       cpu_r, cpu_w, LINES, ROUNDS, (unsigned long long)vals[1],
	       (unsigned long long)vals[2]);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	read_type();
	printf("iloops small=%lu big=%lu\n",
	       (unsigned long)(iloop_small_end - (const char *)iloop_small),
	       (unsigned long)(iloop_big_end - (const char *)iloop_big));
	printf("wburst iterations=%d\n", WB_ITERATIONS);
	if (argc == 5 && !strcmp(argv[1], "snoop"))
		return snoop(atoi(argv[2]), atoi(argv[3]), strtoul(argv[4], NULL, 0));
	if (argc == 4)
		return on_cpu(atoi(argv[1]), strtoul(argv[2], NULL, 0),
			      strtoul(argv[3], NULL, 0));
	fprintf(stderr, "usage: fidelity CPU DLINE DSIZE | fidelity snoop CPU_R CPU_W DLINE\n");
	return 2;
}
