// SPDX-License-Identifier: GPL-2.0
/* Stand-in for MiBench's CRC32: the CRC-32 (IEEE 802.3) of a file. */
#include <stdio.h>

int main(int argc, char **argv)
{
	unsigned long crc = 0xffffffffUL, len = 0;
	FILE *f;
	int c, k;

	if (argc < 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: crc FILE\n");
		return 1;
	}
	while ((c = getc(f)) != EOF) {
		crc ^= (unsigned long)c;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320UL & -(crc & 1));
		len++;
	}
	fclose(f);
	printf("%s %08lX %7lu\n", argv[1], crc ^ 0xffffffffUL, len);
	return 0;
}
