// SPDX-License-Identifier: GPL-2.0
/*
 * The tag plugin's test program (tests/guest-binaries/tags.t): loops
 * whose trip counts the test knows from the arguments, each marked with
 * a "loop:" comment on its line, which the test finds.
 *
 *   tags-loops ROWS COLS    prints grid's sum, four's and sign(ROWS - COLS)
 */
#include <stdio.h>
#include <stdlib.h>

/* ROWS x COLS trips of the inner loop (noipa: no constant folding) */
__attribute__((noipa)) int grid(int rows, int cols)
{
	int t = 0;

	for (int r = 0; r < rows; r++)			/* loop: grid outer */
		for (int c = 0; c < cols; c++)		/* loop: grid inner */
			t += r * c;
	return t;
}

/* Four trips, known to the compiler: -O2 unrolls the loop whole */
__attribute__((noipa)) int four(const int *a)
{
	int s = 0;

	for (int i = 0; i < 4; i++)			/* loop: four */
		s += a[i];
	return s;
}

__attribute__((noipa)) int sign(int x)
{
	if (x < 0)
		return -1;
	return x > 0;
}

int main(int argc, char **argv)
{
	int a[4] = { 1, 2, 3, 4 };
	int rows, cols;

	if (argc != 3) {
		fprintf(stderr, "usage: tags-loops ROWS COLS\n");
		return 2;
	}
	rows = atoi(argv[1]);
	cols = atoi(argv[2]);
	printf("%d %d %d\n", grid(rows, cols), four(a), sign(rows - cols));
	return 0;
}
