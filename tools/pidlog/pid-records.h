/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PID log of every CPU, from the LEON3 trace unit's PID records:
 * for leon3-pidlog and leon3-hunt-run (tools/hunt/), which include this
 * file.
 *
 * On each CPU a leon3_trace event (Documentation/driver.md) records,
 * with its config bit pidrec and both modes excluded, no tags but a PID
 * record at every write of the PMU's PID register, which the driver
 * makes at every context switch, each stamped with the unit's clock
 * (the timing model's cycles).  Two PID records in a row on a CPU are
 * one time slice: the PID the first wrote ran for the cycles between
 * them.  The records' layout is Documentation/pmu-registers.md's
 * ("Trace unit").
 */
#ifndef LEON3_PID_RECORDS_H
#define LEON3_PID_RECORDS_H

#include <endian.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/perf-ring.h"

#define PIDREC_DATA_PAGES	4	/* the ring for the PERF_RECORD_AUX records */
#define PIDREC_AUX_PAGES	256	/* 1 MiB: 65536 records */
#define PIDREC_SIZE		16
#define PIDREC_CFG_PIDREC	1	/* leon3_trace's config bit pidrec */

enum { PIDREC_START = 3, PIDREC_PID = 4, PIDREC_LOST = 6, PIDREC_STOP = 7,
       PIDREC_TIME = 8 };

/* One CPU's event, its areas, and where its records stand */
struct pidrec_cpu {
	int fd;
	unsigned int cpu;
	struct perf_event_mmap_page *meta;
	const unsigned char *aux;
	uint64_t hi;		/* the clock's bits 63:32 */
	uint64_t base;		/* the clock at the first START: time 0 */
	uint64_t t0;		/* when the running PID's slice began */
	uint32_t pid;		/* the running PID, if running */
	int running, started;
	uint64_t lost;		/* records the unit or the area lost */
};

/* Called for each slice: @pid ran @cycles on @cpu from @start */
typedef void (*pidrec_slice_fn)(void *arg, unsigned int cpu, uint32_t pid,
				uint64_t start, uint64_t cycles);

/* The leon3_trace PMU's type, or -1 without it */
static inline int pidrec_pmu_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/leon3_trace/type", "r");
	int type = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
}

/* Open, disabled, and map @cpu's event; 0, or -1 with errno */
static inline int pidrec_open(struct pidrec_cpu *pc, int type, unsigned int cpu)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr pe;
	void *base;

	memset(pc, 0, sizeof(*pc));
	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = type;
	pe.config = PIDREC_CFG_PIDREC;
	pe.disabled = 1;
	pe.exclude_user = 1;
	pe.exclude_kernel = 1;
	pe.exclude_hv = 1;
	pc->cpu = cpu;
	/* Not the measured command's: it has no use for the event */
	pc->fd = syscall(SYS_perf_event_open, &pe, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (pc->fd < 0)
		return -1;
	base = mmap(NULL, (1 + PIDREC_DATA_PAGES) * page, PROT_READ | PROT_WRITE,
		    MAP_SHARED, pc->fd, 0);
	if (base == MAP_FAILED)
		goto fail;
	pc->meta = base;
	pc->meta->aux_offset = (1 + PIDREC_DATA_PAGES) * page;
	pc->meta->aux_size = PIDREC_AUX_PAGES * page;
	pc->aux = mmap(NULL, pc->meta->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       pc->fd, pc->meta->aux_offset);
	if (pc->aux == MAP_FAILED)
		goto fail;
	return 0;
fail:
	close(pc->fd);
	pc->fd = -1;
	return -1;
}

static inline int pidrec_enable(struct pidrec_cpu *pc, int on)
{
	return ioctl(pc->fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/* A slice ends at @clock: give it to @fn */
static inline void pidrec_end_slice(struct pidrec_cpu *pc, uint64_t clock,
				    pidrec_slice_fn fn, void *arg)
{
	if (pc->running)
		fn(arg, pc->cpu, pc->pid, pc->t0 - pc->base, clock - pc->t0);
	pc->running = 0;
}

/* One record: slices end at PID and STOP records, begin at PID and START */
static inline void pidrec_record(struct pidrec_cpu *pc, const unsigned char *r,
				 pidrec_slice_fn fn, void *arg)
{
	uint32_t w0 = be32toh(*(const uint32_t *)r);
	uint32_t b = be32toh(*(const uint32_t *)(r + 4));
	uint32_t c = be32toh(*(const uint32_t *)(r + 8));
	uint64_t clock;

	switch (w0 >> 28) {
	case PIDREC_START:
	case PIDREC_LOST:
	case PIDREC_TIME:
		pc->hi = (uint64_t)c << 32;
		break;
	}
	clock = pc->hi | be32toh(*(const uint32_t *)(r + 12));
	switch (w0 >> 28) {
	case PIDREC_START:
		if (!pc->started)
			pc->base = clock;
		pc->started = 1;
		pc->running = 1;
		pc->pid = b;
		pc->t0 = clock;
		break;
	case PIDREC_PID:
		pidrec_end_slice(pc, clock, fn, arg);
		pc->running = pc->started;
		pc->pid = b;
		pc->t0 = clock;
		break;
	case PIDREC_STOP:
		pidrec_end_slice(pc, clock, fn, arg);
		break;
	case PIDREC_LOST:
		/* Who ran from the last record to the next PID record is lost */
		pc->lost += b;
		pc->running = 0;
		break;
	}
}

/*
 * The records the unit wrote since the last call, each slice they end
 * given to @fn, and their space given back; a trace truncated by a full
 * area counts one lost record (the unit's LOST records count the rest).
 */
static inline void pidrec_drain(struct pidrec_cpu *pc, pidrec_slice_fn fn, void *arg)
{
	struct perf_event_mmap_page *m = pc->meta;
	struct perf_event_header *h;
	struct leon3_ring r;
	uint64_t head, off;
	/* a header, then aux_offset, aux_size, flags (PERF_RECORD_AUX) */
	uint64_t rec[4];

	/* The ring's PERF_RECORD_AUX records: only their TRUNCATED flag */
	leon3_ring_begin(&r, m, PIDREC_DATA_PAGES);
	while ((h = leon3_ring_next(&r, rec, sizeof(rec))))
		if (h->type == PERF_RECORD_AUX && h->size >= sizeof(rec) &&
		    (rec[3] & PERF_AUX_FLAG_TRUNCATED))
			pc->lost++;
	leon3_ring_end(&r);

	head = __atomic_load_n(&m->aux_head, __ATOMIC_ACQUIRE);
	for (off = m->aux_tail; off + PIDREC_SIZE <= head; off += PIDREC_SIZE)
		pidrec_record(pc, pc->aux + off % m->aux_size, fn, arg);
	__atomic_store_n(&m->aux_tail, off, __ATOMIC_RELEASE);
}

static inline void pidrec_close(struct pidrec_cpu *pc)
{
	long page = sysconf(_SC_PAGESIZE);

	munmap((void *)pc->aux, pc->meta->aux_size);
	munmap(pc->meta, (1 + PIDREC_DATA_PAGES) * page);
	close(pc->fd);
}

/*
 * The events of CPUs 0 to @ncpus - 1 opened and enabled: 0, or -1 with
 * errno (those opened before are closed again).
 */
static inline int pidrec_start(struct pidrec_cpu *pc, int ncpus, int type)
{
	int c;

	for (c = 0; c < ncpus; c++) {
		if (pidrec_open(&pc[c], type, c)) {
			int err = errno;

			while (c--)
				pidrec_close(&pc[c]);
			errno = err;
			return -1;
		}
	}
	for (c = 0; c < ncpus; c++)
		pidrec_enable(&pc[c], 1);
	return 0;
}

/*
 * Wait for @child (its status to @status), reading the records as they
 * come so that no area fills: waitpid()'s result.
 */
static inline pid_t pidrec_wait(struct pidrec_cpu *pc, int ncpus, pid_t child,
				int *status, pidrec_slice_fn fn, void *arg)
{
	struct pollfd pfd[ncpus];
	pid_t r;
	int c;

	for (c = 0; c < ncpus; c++)
		pfd[c] = (struct pollfd){ .fd = pc[c].fd, .events = POLLIN };
	while ((r = waitpid(child, status, WNOHANG)) == 0) {
		poll(pfd, ncpus, 100);
		for (c = 0; c < ncpus; c++)
			pidrec_drain(&pc[c], fn, arg);
	}
	return r;
}

/* Every CPU's event disabled, its last records read, closed: the records lost */
static inline uint64_t pidrec_finish(struct pidrec_cpu *pc, int ncpus,
				     pidrec_slice_fn fn, void *arg)
{
	uint64_t lost = 0;
	int c;

	for (c = 0; c < ncpus; c++) {
		pidrec_enable(&pc[c], 0);
		pidrec_drain(&pc[c], fn, arg);
		lost += pc[c].lost;
		pidrec_close(&pc[c]);
	}
	return lost;
}

#endif
