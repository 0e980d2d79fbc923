// SPDX-License-Identifier: GPL-2.0
/*
 * dso-main PAD N M LIB, for tests/pmu/addr-filter-dso.t: a
 * position-independent executable that runs spin(N) from its own text,
 * then reserves PAD pages and dlopen()s LIB, so that the library lands
 * at an address that depends on PAD, and runs its dso_work(M).  It
 * prints where both functions are.  spin(n) and dso_work(m) are
 * 3n + 3 and 3m + 3 instructions.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "loop-asm.h"

LOOP3_FUNCTION(spin);

int main(int argc, char **argv)
{
	long (*dso_work)(long);
	long pad;
	void *lib;

	if (argc != 5) {
		fprintf(stderr, "usage: dso-main PAD N M LIB\n");
		return 2;
	}
	pad = atol(argv[1]);
	if (pad > 0 && mmap(NULL, pad * 4096, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED) {
		perror("dso-main: mmap");
		return 1;
	}
	lib = dlopen(argv[4], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "dso-main: %s\n", dlerror());
		return 1;
	}
	dso_work = (long (*)(long))dlsym(lib, "dso_work");
	if (!dso_work) {
		fprintf(stderr, "dso-main: %s\n", dlerror());
		return 1;
	}
	printf("spin %p dso_work %p\n", (void *)spin, (void *)dso_work);
	fflush(stdout);
	spin(atol(argv[2]));
	dso_work(atol(argv[3]));
	return 0;
}
