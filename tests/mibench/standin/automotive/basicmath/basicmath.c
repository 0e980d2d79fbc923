// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-in for MiBench's basicmath: floating point through the C library
 * (sqrt, cbrt, acos, cos, atan) and the compiler (+, *, /, conversions):
 * the real roots of cubic equations, degrees to radians and back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The real roots of x^3 + a x^2 + b x + c = 0 (Cardano); their number. */
static int cubic(double a, double b, double c, double x[3])
{
	double q = (a * a - 3.0 * b) / 9.0;
	double r = (2.0 * a * a * a - 9.0 * a * b + 27.0 * c) / 54.0;
	double q3 = q * q * q;

	if (r * r < q3) {
		double t = acos(r / sqrt(q3));

		x[0] = -2.0 * sqrt(q) * cos(t / 3.0) - a / 3.0;
		x[1] = -2.0 * sqrt(q) * cos((t + 2.0 * M_PI) / 3.0) - a / 3.0;
		x[2] = -2.0 * sqrt(q) * cos((t - 2.0 * M_PI) / 3.0) - a / 3.0;
		return 3;
	}
	x[0] = -copysign(cbrt(fabs(r) + sqrt(r * r - q3)), r);
	if (x[0] != 0.0)
		x[0] += q / x[0];
	x[0] -= a / 3.0;
	return 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	double x[3], sum = 0.0;
	int i, k, roots;

	for (i = 0; i < n; i++) {
		roots = cubic(-10.5 + i * 0.25, 32.0 - i * 0.5, -30.0 + i, x);
		for (k = 0; k < roots; k++)
			sum += x[k];
		if (i % (n / 10 ? n / 10 : 1) == 0)
			printf("cubic %d: %d root(s), first %.6f\n", i, roots, x[0]);
	}
	printf("sum of the roots: %.6f\n", sum);
	for (i = 0; i <= 360; i += 45) {
		double rad = i * (M_PI / 180.0);

		printf("%3d degrees = %.6f radians = %.3f degrees, atan %.6f\n",
		       i, rad, rad * (180.0 / M_PI), atan(rad));
	}
	return 0;
}
