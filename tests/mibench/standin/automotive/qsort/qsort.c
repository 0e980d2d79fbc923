// SPDX-License-Identifier: GPL-2.0
/* Stand-in for MiBench's qsort: sorts the numbers of a file, one a line. */
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static long v[100000];
	size_t n = 0, i;
	FILE *f;

	if (argc < 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: qsort FILE\n");
		return 1;
	}
	while (n < sizeof(v) / sizeof(v[0]) && fscanf(f, "%ld", &v[n]) == 1)
		n++;
	fclose(f);
	qsort(v, n, sizeof(v[0]), cmp);
	for (i = 0; i < n; i++)
		printf("%ld\n", v[i]);
	return 0;
}
