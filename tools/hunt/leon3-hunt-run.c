// SPDX-License-Identifier: GPL-2.0
/*
 * leon3-hunt-run: the guest side of tools/leon3-hunt and
 * tools/sweep/leon3-sweep.  Runs a command N times and prints, for each
 * run, where the machine's cycles (or other events) went while it ran,
 * as the Liquid Architecture statistics module measured them:
 *
 *   leon3-hunt-run [-n N] [-o FILE] [[-e EVENT] -r NAME=SCOPE]... -- COMMAND [ARGS...]
 *
 *   SCOPE: all | pid | LO/SIZE[@FILE][:pid]
 *
 * Each run forks COMMAND stopped on a pipe, opens on every CPU the
 * leon3_pmu cycle counts (whole system; the command alone, by the PMU's
 * PID filter) and one count per -r: of EVENT (the event id of the -e
 * before it, default cycles) in the whole system (all), of the command
 * alone (pid), or of the instructions in [LO, LO + SIZE), of every
 * process, or with ":pid" the command's only.  It starts the PID records
 * of every CPU's trace unit (tools/pidlog/pid-records.h), lets the
 * command go, and when it has exited prints (to FILE with -o, so that
 * the command's own output can go to stdout)
 *
 *   run K status S all C prog P range NAME V ...
 *   pid K PID CYCLES COMM      (a line per process the PID records saw)
 *   pidlog K # lost N          (if the trace units lost N records)
 *
 * A range without a file is addresses (perf's "filter LO/SIZE"), which
 * works system-wide: a static program's text, the kernel, a kernel
 * function.  With "@FILE" it is LO/SIZE of that file's offsets wherever
 * the command maps it (perf's "filter LO/SIZE@FILE"): a PIE's text, a
 * shared library.  The kernel resolves those per process, so they
 * count the command's task (":pid" required) rather than the CPU.
 *
 * It marks the kernel log where each run begins ("leon3-hunt-run: run
 * K") and where the last ends ("leon3-hunt-run: done"), so that a report
 * the kernel logs (leon3-kernel-reports) can be put down to its run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../pidlog/pid-records.h"

#define MAX_RANGES	5	/* 7 counters: all, prog, and these */
#define MAX_CPUS	8
#define MAX_PIDS	256
#define EV_CYCLES	0x15

struct range {
	const char *name, *file;
	unsigned long lo, size;		/* size 0: no address range */
	unsigned int event;
	int pid_only;
};

static struct range ranges[MAX_RANGES];
static int nranges, ncpus, type, trace_type;
static FILE *out;		/* the report: stdout, or -o FILE */

static void die(const char *what)
{
	fprintf(stderr, "leon3-hunt-run: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f || fscanf(f, "%d", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/*
 * cycles (or @r's event) on @cpu, of @pid only (0: every process), in
 * @r's range: the PMU's PID filter on the CPU, or for a file range the
 * task's event
 */
static int open_cycles(int cpu, pid_t pid, const struct range *r)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = r ? r->event : EV_CYCLES,
		.config1 = pid,
		.disabled = 1,
	};
	char filter[PATH_MAX + 64];
	int fd;

	if (r && r->file) {
		attr.config1 = 0;
		fd = syscall(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
	} else {
		fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, 0);
	}
	if (fd < 0)
		die("perf_event_open (is leon3_pmu loaded, and are you root?)");
	if (r && r->size) {
		snprintf(filter, sizeof(filter), "filter 0x%lx/0x%lx%s%s", r->lo, r->size,
			 r->file ? "@" : "", r->file ? r->file : "");
		if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter))
			die(filter);
	}
	return fd;
}

static unsigned long long sum(int *fds)
{
	unsigned long long total = 0, v;
	int c;

	for (c = 0; c < ncpus; c++) {
		if (read(fds[c], &v, sizeof(v)) != sizeof(v))
			die("read");
		total += v;
		close(fds[c]);
	}
	return total;
}

static unsigned int pids[MAX_PIDS];
static unsigned long long pid_cycles[MAX_PIDS];
static int npids;

/* A slice of the PID records: its cycles to its process */
static void add_slice(void *arg __attribute__((unused)),
		      unsigned int cpu __attribute__((unused)), uint32_t pid,
		      uint64_t start __attribute__((unused)), uint64_t cycles)
{
	int i;

	for (i = 0; i < npids && pids[i] != pid; i++)
		;
	if (i == npids && npids < MAX_PIDS)
		pids[npids++] = pid;
	if (i < npids)
		pid_cycles[i] += cycles;
}

/* The PID records of a run: cycles per process */
static void print_pids(int run, pid_t child, unsigned long long lost)
{
	char path[64], name[64];
	int i;

	if (lost)
		fprintf(out, "pidlog %d # lost %llu\n", run, lost);
	for (i = 0; i < npids; i++) {
		FILE *c;

		snprintf(path, sizeof(path), "/proc/%u/comm", pids[i]);
		c = fopen(path, "r");
		if (pids[i] == (unsigned int)child)
			strcpy(name, "(the command)");
		else if (pids[i] == 0)
			strcpy(name, "(idle)");
		else if (!c || !fgets(name, sizeof(name), c))
			strcpy(name, "(exited)");
		if (c)
			fclose(c);
		name[strcspn(name, "\n")] = 0;
		fprintf(out, "pid %d %u %llu %s\n", run, pids[i], pid_cycles[i], name);
	}
	npids = 0;
	memset(pid_cycles, 0, sizeof(pid_cycles));
}

/*
 * Marks the kernel log: where run @run begins, or with 0 where the runs
 * end.  At KERN_DEBUG, which the log keeps and the console does not
 * print; a file opened for each mark, since /dev/kmsg limits the lines
 * of one open file.  Without /dev/kmsg the runs go on unmarked.
 */
static void mark_log(int run)
{
	char line[48];
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC), n;

	if (fd < 0)
		return;
	if (run)
		n = snprintf(line, sizeof(line), "<7>leon3-hunt-run: run %d\n", run);
	else
		n = snprintf(line, sizeof(line), "<7>leon3-hunt-run: done\n");
	if (write(fd, line, n) != n)
		fprintf(stderr, "leon3-hunt-run: /dev/kmsg: %s\n", strerror(errno));
	close(fd);
}

static void one_run(int run, char **argv)
{
	int all[MAX_CPUS], prog[MAX_CPUS], rfd[MAX_RANGES][MAX_CPUS];
	struct pidrec_cpu pc[MAX_CPUS];
	unsigned long long lost;
	int go[2], status, c, r;
	pid_t child;
	char b;

	mark_log(run);
	if (pipe(go))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(126);
		close(go[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "leon3-hunt-run: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	for (c = 0; c < ncpus; c++) {
		all[c] = open_cycles(c, 0, NULL);
		prog[c] = open_cycles(c, child, NULL);
		for (r = 0; r < nranges; r++)
			rfd[r][c] = open_cycles(c, ranges[r].pid_only ? child : 0, &ranges[r]);
	}
	if (pidrec_start(pc, ncpus, trace_type))
		die("leon3_trace");
	for (c = 0; c < ncpus; c++) {
		ioctl(all[c], PERF_EVENT_IOC_ENABLE, 0);
		ioctl(prog[c], PERF_EVENT_IOC_ENABLE, 0);
		for (r = 0; r < nranges; r++)
			ioctl(rfd[r][c], PERF_EVENT_IOC_ENABLE, 0);
	}
	if (write(go[1], "g", 1) != 1)
		die("write");
	close(go[1]);
	if (pidrec_wait(pc, ncpus, child, &status, add_slice, NULL) != child)
		die("waitpid");
	for (c = 0; c < ncpus; c++) {
		ioctl(all[c], PERF_EVENT_IOC_DISABLE, 0);
		ioctl(prog[c], PERF_EVENT_IOC_DISABLE, 0);
		for (r = 0; r < nranges; r++)
			ioctl(rfd[r][c], PERF_EVENT_IOC_DISABLE, 0);
	}
	lost = pidrec_finish(pc, ncpus, add_slice, NULL);

	fprintf(out, "run %d status %d all %llu prog %llu", run,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	       sum(all), sum(prog));
	for (r = 0; r < nranges; r++)
		fprintf(out, " range %s %llu", ranges[r].name, sum(rfd[r]));
	fprintf(out, "\n");
	print_pids(run, child, lost);
	fflush(out);
}

int main(int argc, char **argv)
{
	unsigned int event = EV_CYCLES;
	int runs = 10, opt, i;
	char *eq, *p;

	out = stdout;
	while ((opt = getopt(argc, argv, "+n:e:o:r:")) != -1) {
		switch (opt) {
		case 'n':
			runs = atoi(optarg);
			break;
		case 'o':
			out = fopen(optarg, "we");
			if (!out)
				die(optarg);
			break;
		case 'e':
			event = strtoul(optarg, &p, 0);
			if (*p || event > 0xff) {
				fprintf(stderr, "leon3-hunt-run: -e %s: an event id (0-0xff)\n", optarg);
				return 2;
			}
			break;
		case 'r':
			if (nranges == MAX_RANGES) {
				fprintf(stderr, "leon3-hunt-run: at most %d ranges (7 counters)\n",
					MAX_RANGES);
				return 2;
			}
			eq = strchr(optarg, '=');
			if (!eq) {
				fprintf(stderr, "leon3-hunt-run: -r NAME=SCOPE, not %s\n", optarg);
				return 2;
			}
			*eq = 0;
			ranges[nranges].name = optarg;
			ranges[nranges].event = event;
			if (!strcmp(eq + 1, "all") || !strcmp(eq + 1, "pid")) {
				ranges[nranges].pid_only = eq[1] == 'p';
				nranges++;
				break;
			}
			ranges[nranges].lo = strtoul(eq + 1, &p, 0);
			if (*p != '/') {
				fprintf(stderr, "leon3-hunt-run: %s: all, pid or LO/SIZE, not %s\n",
					optarg, eq + 1);
				return 2;
			}
			ranges[nranges].size = strtoul(p + 1, &p, 0);
			eq = strrchr(p, ':');
			ranges[nranges].pid_only = eq && !strcmp(eq, ":pid");
			if (ranges[nranges].pid_only)
				*eq = 0;
			if (*p == '@' && p[1])
				ranges[nranges].file = p + 1;
			else if (*p)
				ranges[nranges].size = 0;
			if (!ranges[nranges].size) {
				fprintf(stderr, "leon3-hunt-run: %s: a size, @FILE and :pid at most\n",
					optarg);
				return 2;
			}
			if (ranges[nranges].file && !ranges[nranges].pid_only) {
				fprintf(stderr, "leon3-hunt-run: %s: a range of a file counts the command only: add :pid\n",
					optarg);
				return 2;
			}
			nranges++;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || runs < 1) {
		fprintf(stderr, "usage: leon3-hunt-run [-n N] [-o FILE] [[-e EVENT] -r NAME=all|pid|LO/SIZE[@FILE][:pid]]... -- COMMAND [ARGS...]\n");
		return 2;
	}
	type = read_int("/sys/bus/event_source/devices/leon3_pmu/type");
	if (type < 0) {
		fprintf(stderr, "leon3-hunt-run: no leon3_pmu in sysfs: is the driver loaded?\n");
		return 1;
	}
	trace_type = pidrec_pmu_type();
	if (trace_type < 0) {
		fprintf(stderr, "leon3-hunt-run: no leon3_trace in sysfs: the PMU has no trace unit\n");
		return 1;
	}
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	for (i = 1; i <= runs; i++)
		one_run(i, argv + optind);
	mark_log(0);
	return 0;
}
