// SPDX-License-Identifier: GPL-2.0
/*
 * PAPI from C on the LEON3: a loop whose counts are known from its code,
 * counted with PAPI's low-level and high-level APIs (tests/pmu/papi.t).
 *
 *   papi-count ll N1 N2     low level: PAPI_TOT_INS, PAPI_LD_INS,
 *                           PAPI_SR_INS, PAPI_BR_INS and PAPI_BR_TKN over
 *                           loop(N1), then loop(N2); one line per run:
 *                           "ll N TOT_INS LD_INS SR_INS BR_INS BR_TKN"
 *   papi-count hl N1 N2     high level: regions "n1" and "n2" around
 *                           loop(N1) and loop(N2), after a region "w0"
 *                           that takes the first region's one-time work;
 *                           PAPI_EVENTS chooses the events,
 *                           PAPI_OUTPUT_DIRECTORY where the JSON report
 *                           goes
 *   papi-count event NAME   add NAME to an event set: "event NAME ok" or
 *                           "event NAME error CODE MESSAGE"
 *   papi-count overflow N T PAPI_TOT_INS with an overflow handler every T
 *                           instructions over loop(N): "overflow T calls C
 *                           count V", or "overflow T error STEP CODE
 *                           MESSAGE" where a step refuses T
 *   papi-count read N1 N2   PAPI_read() of a running PAPI_TOT_INS: "fast F"
 *                           (the perf_event component's fast_counter_read:
 *                           1 where it reads the counter from user
 *                           space), "read D1 D2" the counts of loop(N1)
 *                           and loop(N2) between reads (user mode), "gap
 *                           G1 G2" the counts between three reads back to
 *                           back, counting kernel mode too (a read()
 *                           system call is there, a user read is not)
 *   papi-count dcm P1 P2    PAPI_L1_LDM, PAPI_L1_STM and PAPI_L1_DCM over
 *                           P1, then P2 sweeps of arrays of 8 times the L1
 *                           D-cache that PAPI's hardware info reports, a
 *                           word a line: "geometry SIZE LINE WAYS", then
 *                           5 rounds of "rd P LDM STM DCM" (loads) and
 *                           "wr P LDM STM DCM" (stores)
 *
 * Each iteration of loop() is 5 instructions: subcc, ld, st, bne and its
 * delay slot; one load, one store, one branch, taken but in the last
 * iteration.  What PAPI itself runs between start and stop is the same
 * for every N, so the difference of two runs is exact: 5 (N2 - N1)
 * instructions, N2 - N1 loads, stores, branches and taken branches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <papi.h>

static int scratch;

static void __attribute__((noinline)) loop(long n)
{
	asm volatile("1:	subcc %0, 1, %0\n"
		     "	ld [%1], %%g1\n"
		     "	st %%g1, [%1]\n"
		     "	bne 1b\n"
		     "	 nop\n"
		     : "+r"(n) : "r"(&scratch) : "g1", "cc", "memory");
}

static const char *const ll_events[] = {
	"PAPI_TOT_INS", "PAPI_LD_INS", "PAPI_SR_INS", "PAPI_BR_INS", "PAPI_BR_TKN",
};
#define NLL (sizeof(ll_events) / sizeof(ll_events[0]))

static void die(const char *what, int ret)
{
	fprintf(stderr, "papi-count: %s: %s (%d)\n", what, PAPI_strerror(ret), ret);
	exit(1);
}

static void init(void)
{
	int ret = PAPI_library_init(PAPI_VER_CURRENT);

	if (ret != PAPI_VER_CURRENT)
		die("PAPI_library_init", ret);
}

/* An event set of the @n events @names, or die */
static int event_set(const char *const *names, unsigned int n)
{
	int es = PAPI_NULL, ret;
	unsigned int i;

	ret = PAPI_create_eventset(&es);
	if (ret != PAPI_OK)
		die("PAPI_create_eventset", ret);
	for (i = 0; i < n; i++) {
		ret = PAPI_add_named_event(es, names[i]);
		if (ret != PAPI_OK)
			die(names[i], ret);
	}
	return es;
}

static int low_level(long n1, long n2)
{
	long long v[NLL];
	long n[2] = { n1, n2 };
	int es, ret;
	unsigned int i, r;

	init();
	es = event_set(ll_events, NLL);
	for (r = 0; r < 2; r++) {
		ret = PAPI_start(es);
		if (ret != PAPI_OK)
			die("PAPI_start", ret);
		loop(n[r]);
		ret = PAPI_stop(es, v);
		if (ret != PAPI_OK)
			die("PAPI_stop", ret);
		printf("ll %ld", n[r]);
		for (i = 0; i < NLL; i++)
			printf(" %lld", v[i]);
		printf("\n");
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return 0;
}

static void region(const char *name, long n)
{
	int ret;

	ret = PAPI_hl_region_begin(name);
	if (ret != PAPI_OK)
		die("PAPI_hl_region_begin", ret);
	loop(n);
	ret = PAPI_hl_region_end(name);
	if (ret != PAPI_OK)
		die("PAPI_hl_region_end", ret);
}

static int high_level(long n1, long n2)
{
	/* the first region also allocates what every region shares */
	region("w0", n1);
	region("n1", n1);
	region("n2", n2);
	/* the report is written at exit */
	return 0;
}

static int one_event(const char *name)
{
	int es = PAPI_NULL, ret;

	init();
	ret = PAPI_create_eventset(&es);
	if (ret != PAPI_OK)
		die("PAPI_create_eventset", ret);
	ret = PAPI_add_named_event(es, name);
	if (ret == PAPI_OK)
		printf("event %s ok\n", name);
	else
		printf("event %s error %d %s\n", name, ret, PAPI_strerror(ret));
	PAPI_shutdown();
	return 0;
}

/*
 * The cache sweeps of "dcm".  Read: with LRU (or LRR) replacement, a
 * cyclic sweep of more lines than a set holds misses on every line.
 * Write: a LEON3's D-cache writes through and allocates no line on a
 * store miss, so stores to lines that no load brings in miss every time.
 */
static void __attribute__((noinline)) read_sweep(const volatile char *a,
						 long bytes, long line, long passes)
{
	long p, i;

	for (p = 0; p < passes; p++)
		for (i = 0; i < bytes; i += line)
			(void)a[i];	/* volatile: a load each */
}

static void __attribute__((noinline)) write_sweep(volatile char *b, long bytes,
						  long line, long passes)
{
	long p, i;

	for (p = 0; p < passes; p++)
		for (i = 0; i < bytes; i += line)
			b[i] = p;
}

static int dcache_misses(long p1, long p2)
{
	static const char *const ev[] = { "PAPI_L1_LDM", "PAPI_L1_STM", "PAPI_L1_DCM" };
	const PAPI_hw_info_t *hw;
	const PAPI_mh_cache_info_t *c, *l1d = NULL;
	long passes[2] = { p1, p2 }, bytes;
	long long v[3];
	int es, ret, i, round, r, w;
	char *a, *b;

	init();
	hw = PAPI_get_hardware_info();
	if (!hw)
		die("PAPI_get_hardware_info", PAPI_ECMP);
	for (i = 0; i < PAPI_MH_MAX_LEVELS; i++) {
		c = &hw->mem_hierarchy.level[0].cache[i];
		if (PAPI_MH_CACHE_TYPE(c->type) == PAPI_MH_TYPE_DATA)
			l1d = c;
	}
	if (!l1d || l1d->size <= 0 || l1d->line_size <= 0) {
		printf("geometry none\n");
		return 1;
	}
	printf("geometry %d %d %d\n", l1d->size, l1d->line_size, l1d->associativity);
	bytes = 8L * l1d->size;
	/* page-aligned: no line of b is shared with what malloc reads */
	if (posix_memalign((void **)&a, 4096, bytes) ||
	    posix_memalign((void **)&b, 4096, bytes))
		die("posix_memalign", PAPI_ENOMEM);
	memset(a, 1, bytes);
	/*
	 * b's pages faulted in now, outside the counts: a store that faults
	 * is counted, then counted again when it is run again
	 */
	memset(b, 0, bytes);
	es = event_set(ev, 3);
	for (round = 0; round < 5; round++) {
		for (w = 0; w < 2; w++) {
			for (r = 0; r < 2; r++) {
				/* the same cache contents at every start: a's lines */
				read_sweep(a, bytes, l1d->line_size, 1);
				ret = PAPI_start(es);
				if (ret != PAPI_OK)
					die("PAPI_start", ret);
				if (w)
					write_sweep(b, bytes, l1d->line_size, passes[r]);
				else
					read_sweep(a, bytes, l1d->line_size, passes[r]);
				ret = PAPI_stop(es, v);
				if (ret != PAPI_OK)
					die("PAPI_stop", ret);
				printf("%s %ld %lld %lld %lld\n", w ? "wr" : "rd",
				       passes[r], v[0], v[1], v[2]);
			}
		}
	}
	PAPI_shutdown();
	return 0;
}

static volatile long overflow_calls;

static void overflow_handler(int es, void *address, long long overflow_vector,
			     void *context)
{
	overflow_calls++;
}

/* Each overflow of PAPI_TOT_INS every @threshold over loop(@n) */
static int overflow(long n, int threshold)
{
	static const char *const ev[] = { "PAPI_TOT_INS" };
	const char *step = "PAPI_overflow";
	long long v = 0;
	int es, ret;

	init();
	es = event_set(ev, 1);
	ret = PAPI_overflow(es, PAPI_TOT_INS, threshold, 0, overflow_handler);
	if (ret == PAPI_OK) {
		step = "PAPI_start";
		ret = PAPI_start(es);
	}
	if (ret != PAPI_OK) {
		printf("overflow %d error %s %d %s\n", threshold, step, ret,
		       PAPI_strerror(ret));
		return 1;
	}
	loop(n);
	ret = PAPI_stop(es, &v);
	if (ret != PAPI_OK)
		die("PAPI_stop", ret);
	printf("overflow %d calls %ld count %lld\n", threshold, overflow_calls, v);
	PAPI_shutdown();
	return 0;
}

/*
 * Start @es, read it, run loop(@n[0]), read, loop(@n[1]), read (no loop
 * for 0): each read's value in @v; stop and free @es
 */
static void reads_around(int es, const long n[2], long long v[3])
{
	int ret = PAPI_start(es), i;

	for (i = 0; ret == PAPI_OK && i < 3; i++) {
		if (i && n[i - 1])
			loop(n[i - 1]);
		ret = PAPI_read(es, &v[i]);
	}
	if (ret != PAPI_OK)
		die("PAPI_start or PAPI_read", ret);
	ret = PAPI_stop(es, NULL);
	if (ret != PAPI_OK)
		die("PAPI_stop", ret);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static int reads(long n1, long n2)
{
	static const char *const ev[] = { "PAPI_TOT_INS" };
	const PAPI_component_info_t *ci;
	const long n[2] = { n1, n2 }, none[2] = { 0, 0 };
	long long v[3];
	int ret;

	init();
	ci = PAPI_get_component_info(PAPI_get_component_index("perf_event"));
	printf("fast %d\n", ci ? ci->fast_counter_read : -1);
	reads_around(event_set(ev, 1), n, v);
	printf("read %lld %lld\n", v[1] - v[0], v[2] - v[1]);
	ret = PAPI_set_domain(PAPI_DOM_ALL);
	if (ret != PAPI_OK)
		die("PAPI_set_domain", ret);
	reads_around(event_set(ev, 1), none, v);
	printf("gap %lld %lld\n", v[1] - v[0], v[2] - v[1]);
	PAPI_shutdown();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "ll"))
		return low_level(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "hl"))
		return high_level(atol(argv[2]), atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "event"))
		return one_event(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "dcm"))
		return dcache_misses(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "overflow"))
		return overflow(atol(argv[2]), atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "read"))
		return reads(atol(argv[2]), atol(argv[3]));
	fprintf(stderr, "usage: papi-count ll N1 N2 | hl N1 N2 | event NAME | dcm P1 P2 | overflow N T | read N1 N2\n");
	return 2;
}
