// SPDX-License-Identifier: GPL-2.0
/*
 * leon3-pidlog: the context-switch timeline of a command, from the PID
 * records of every CPU's LEON3 trace unit (pid-records.h).
 *
 *   leon3-pidlog [-n N] [--] COMMAND [ARGS...]
 *
 * Starts the PID records on every CPU, runs COMMAND, stops them and
 * prints, for each CPU, every time slice in order: when it began (cycles
 * since the records started on that CPU), how long it ran, and which
 * process ran.  Then a summary per process (slices, total, shortest,
 * mean and longest slice) and the N longest slices (default 5): a rare
 * slow run stands out there.  Names come from /proc at the end of the
 * run; processes that have exited by then show as "-".
 *
 * The driver writes the incoming task's PID to the PMU on every context
 * switch; the trace unit records each write with its clock.  Root only,
 * as every system-wide leon3_trace event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pid-records.h"

#define MAX_CPUS	16

struct slice {
	unsigned int cpu, pid;
	unsigned long long start, cycles;
};

struct proc {
	unsigned int pid, n;
	unsigned long long total, min, max;
};

static struct slice *slices;
static size_t nslices, cap;

static void die(const char *what)
{
	fprintf(stderr, "leon3-pidlog: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void add_slice(void *arg __attribute__((unused)), unsigned int cpu,
		      uint32_t pid, uint64_t start, uint64_t cycles)
{
	if (nslices == cap) {
		cap = cap ? 2 * cap : 256;
		slices = realloc(slices, cap * sizeof(*slices));
		if (!slices)
			die("realloc");
	}
	slices[nslices++] = (struct slice){ .cpu = cpu, .pid = pid, .start = start,
					    .cycles = cycles };
}

static int by_cpu_start(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start ? 1 : 0;
}

static void comm(unsigned int pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(buf, len, "%s", pid ? "-" : "(idle)");
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static int by_cycles(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;

	return x->cycles < y->cycles ? 1 : x->cycles > y->cycles ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct pidrec_cpu pc[MAX_CPUS];
	struct slice *s;
	struct proc *p = NULL;
	size_t ns, np = 0, i, j;
	int top = 5, arg = 1, status, type, ncpus;
	unsigned long long lost;
	char name[32];
	pid_t child;

	if (arg + 1 < argc && !strcmp(argv[arg], "-n")) {
		top = atoi(argv[arg + 1]);
		arg += 2;
	}
	if (arg < argc && !strcmp(argv[arg], "--"))
		arg++;
	if (arg >= argc) {
		fprintf(stderr, "usage: leon3-pidlog [-n N] [--] COMMAND [ARGS...]\n");
		return 2;
	}

	type = pidrec_pmu_type();
	if (type < 0) {
		fprintf(stderr, "leon3-pidlog: no leon3_trace PMU (is the leon3_pmu driver "
			"loaded, on a PMU with the trace unit?)\n");
		return 1;
	}
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	if (pidrec_start(pc, ncpus, type))
		die("leon3_trace");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		execvp(argv[arg], argv + arg);
		fprintf(stderr, "leon3-pidlog: %s: %s\n", argv[arg], strerror(errno));
		_exit(127);
	}
	if (pidrec_wait(pc, ncpus, child, &status, add_slice, NULL) != child)
		die("waitpid");
	lost = pidrec_finish(pc, ncpus, add_slice, NULL);
	s = slices;
	ns = nslices;
	qsort(s, ns, sizeof(*s), by_cpu_start);

	printf("# context-switch timeline of: %s (pid %d)\n", argv[arg], child);
	printf("# %3s %14s %12s %7s %s\n", "cpu", "start", "cycles", "pid", "command");
	for (i = 0; i < ns; i++) {
		comm(s[i].pid, name, sizeof(name));
		printf("  %3u %14llu %12llu %7u %s%s\n", s[i].cpu, s[i].start,
		       s[i].cycles, s[i].pid, name,
		       s[i].pid == (unsigned int)child ? " (command)" : "");
	}
	if (lost)
		printf("# records lost: %llu (an area was full)\n", lost);

	for (i = 0; i < ns; i++) {
		for (j = 0; j < np && p[j].pid != s[i].pid; j++)
			;
		if (j == np) {
			p = realloc(p, (np + 1) * sizeof(*p));
			if (!p)
				die("realloc");
			p[np++] = (struct proc){ .pid = s[i].pid, .min = ~0ULL };
		}
		p[j].n++;
		p[j].total += s[i].cycles;
		if (s[i].cycles < p[j].min)
			p[j].min = s[i].cycles;
		if (s[i].cycles > p[j].max)
			p[j].max = s[i].cycles;
	}
	printf("\n# per process\n# %7s %-16s %7s %14s %12s %12s %12s\n", "pid",
	       "command", "slices", "cycles", "shortest", "mean", "longest");
	for (j = 0; j < np; j++) {
		comm(p[j].pid, name, sizeof(name));
		printf("  %7u %-16s %7u %14llu %12llu %12llu %12llu\n", p[j].pid,
		       name, p[j].n, p[j].total, p[j].min, p[j].total / p[j].n,
		       p[j].max);
	}

	qsort(s, ns, sizeof(*s), by_cycles);
	printf("\n# longest slices\n");
	for (i = 0; i < ns && i < (size_t)top; i++) {
		comm(s[i].pid, name, sizeof(name));
		printf("  cpu %u at %llu: pid %u %s ran %llu cycles\n", s[i].cpu,
		       s[i].start, s[i].pid, name, s[i].cycles);
	}
	free(s);
	free(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
