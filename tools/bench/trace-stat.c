// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of tools/bench/trace-cost: what a perf.data of
 * `perf record -e leon3_trace//` holds, read in the guest where the
 * file is (a trace of a MiBench program is megabytes: too many for the
 * serial line, and perf report -D prints a line a record).
 *
 *   trace-stat PERF.DATA
 *
 * Prints "bytes B records R tags T lost L" (B the AUX data, R = B / 16,
 * T the tag runs the records stand for, L the tags and events LOST
 * records say the unit dropped) and a line "type NAME N" for each record
 * type present.  The records' layout is Documentation/pmu-registers.md's
 * ("Trace unit"); tests/pmu/trace.t holds this count to the host
 * decoder's (tools/leon3lib/trace.py) on the same file.
 *
 * Exit status 2 if the file is not a perf.data of this machine's byte
 * order, or is cut short.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define REC_SIZE		16
#define PERF_RECORD_AUXTRACE	71
#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" read little-endian */
#define WINDOW			8	/* a REPEAT's p is at most 8 */
#define STREAMS			16	/* AUX buffers: one a CPU */

enum {
	TAG = 1, REPEAT, START, PID, OVERFLOW, LOST, STOP, TIME, SYNC,
	BRANCH, TARGET, FLOW, NTYPES
};

static const char *const names[NTYPES + 1] = {
	"type-0", "TAG", "REPEAT", "START", "PID", "OVERFLOW", "LOST", "STOP",
	"TIME", "SYNC", "BRANCH", "TARGET", "FLOW", "type-13+",
};

struct section {
	uint64_t offset, size;
};

struct file_header {		/* tools/perf/util/header.h */
	uint64_t magic, size, attr_size;
	struct section attrs, data, event_types;
};

struct auxtrace_event {		/* PERF_RECORD_AUXTRACE, its data after it */
	uint32_t type;
	uint16_t misc, size;
	uint64_t data_size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
};

/* The runs of each stream's last TAG records, which a REPEAT repeats */
struct stream {
	uint32_t runs[WINDOW];
	unsigned int n;
};

static struct stream streams[STREAMS];
static uint64_t types[NTYPES + 1], tags, lost, bytes;

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void record(struct stream *s, const unsigned char *r)
{
	uint32_t w0 = be32(r), b = be32(r + 4), p, i;
	unsigned int type = w0 >> 28;

	types[type < NTYPES ? type : NTYPES]++;
	switch (type) {
	case TAG:
		tags += b;
		memmove(s->runs, s->runs + 1, (WINDOW - 1) * sizeof(s->runs[0]));
		s->runs[WINDOW - 1] = b;
		if (s->n < WINDOW)
			s->n++;
		break;
	case REPEAT:
		p = w0 & 0x3fffff;
		if (p > s->n)
			break;	/* undecodable: the host decoder says why */
		for (i = WINDOW - p; i < WINDOW; i++)
			tags += (uint64_t)s->runs[i] * b;
		break;
	case TIME:
	case SYNC:
	case BRANCH:	/* branch traces: no tags, nothing held between */
	case TARGET:
	case FLOW:
	case 0:
		break;
	case LOST:
		lost += b;
		/* fall through */
	default:
		s->n = 0;	/* a REPEAT repeats TAG records since the last other */
	}
}

int main(int argc, char **argv)
{
	static unsigned char buf[65536];
	struct file_header h;
	uint64_t pos, end;
	FILE *f;
	int t;

	if (argc != 2) {
		fprintf(stderr, "usage: trace-stat PERF.DATA\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	if (fread(&h, sizeof(h), 1, f) != 1 || h.magic != PERF_MAGIC2) {
		fprintf(stderr, "%s: not a perf.data of this byte order\n", argv[1]);
		return 2;
	}
	end = h.data.offset + h.data.size;
	for (pos = h.data.offset; pos < end;) {
		struct auxtrace_event e;
		uint64_t left;

		if (fseek(f, (long)pos, SEEK_SET) || fread(&e, 8, 1, f) != 1 || e.size < 8)
			goto cut;
		pos += e.size;
		if (e.type != PERF_RECORD_AUXTRACE)
			continue;
		if (fread((char *)&e + 8, sizeof(e) - 8, 1, f) != 1)
			goto cut;
		bytes += e.data_size;
		for (left = e.data_size; left >= REC_SIZE;) {
			size_t n = left < sizeof(buf) ? left : sizeof(buf), i;

			if (fread(buf, n, 1, f) != 1)
				goto cut;
			for (i = 0; i + REC_SIZE <= n; i += REC_SIZE)
				record(&streams[e.idx % STREAMS], buf + i);
			left -= n;
		}
		pos += e.data_size;
	}
	printf("bytes %llu records %llu tags %llu lost %llu\n",
	       (unsigned long long)bytes, (unsigned long long)(bytes / REC_SIZE),
	       (unsigned long long)tags, (unsigned long long)lost);
	for (t = 0; t <= NTYPES; t++)
		if (types[t])
			printf("type %s %llu\n", names[t], (unsigned long long)types[t]);
	return 0;
cut:
	fprintf(stderr, "%s: cut short at byte %llu\n", argv[1], (unsigned long long)pos);
	return 2;
}
