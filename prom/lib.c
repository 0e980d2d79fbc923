// SPDX-License-Identifier: GPL-2.0
/* The few C library functions the PROM needs (and gcc may call). */
#include "prom.h"

void *memset(void *s, int c, unsigned long n)
{
	u8 *p = s;

	while (n--)
		*p++ = c;
	return s;
}

void *memcpy(void *d, const void *s, unsigned long n)
{
	u8 *dp = d;
	const u8 *sp = s;

	while (n--)
		*dp++ = *sp++;
	return d;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (u8)*a - (u8)*b;
}

unsigned long strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

int memcmp(const void *a, const void *b, unsigned long n)
{
	const u8 *pa = a, *pb = b;

	for (; n; n--, pa++, pb++)
		if (*pa != *pb)
			return *pa - *pb;
	return 0;
}
