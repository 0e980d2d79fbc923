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

static int low_level(long n1, long n2)
{
	long long v[NLL];
	long n[2] = { n1, n2 };
	int es = PAPI_NULL, ret;
	unsigned int i, r;

	init();
	ret = PAPI_create_eventset(&es);
	if (ret != PAPI_OK)
		die("PAPI_create_eventset", ret);
	for (i = 0; i < NLL; i++) {
		ret = PAPI_add_named_event(es, ll_events[i]);
		if (ret != PAPI_OK)
			die(ll_events[i], ret);
	}
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

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "ll"))
		return low_level(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "hl"))
		return high_level(atol(argv[2]), atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "event"))
		return one_event(argv[2]);
	fprintf(stderr, "usage: papi-count ll N1 N2 | hl N1 N2 | event NAME\n");
	return 2;
}
