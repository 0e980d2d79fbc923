// SPDX-License-Identifier: GPL-2.0
/*
 * leon3-pidlog: the context-switch timeline of a command, from the LEON3
 * PMU's PID log (the leon3_pmu driver's /dev/leon3_pidlog).
 *
 *   leon3-pidlog [-n N] [--] COMMAND [ARGS...]
 *
 * Starts the log on every CPU, runs COMMAND, stops the log and prints,
 * for each CPU, every time slice in order: when it began (cycles since
 * the log started on that CPU), how long it ran, and which process ran.
 * Then a summary per process (slices, total, shortest, mean and longest
 * slice) and the N longest slices (default 5): a rare slow run stands
 * out there.  Names come from /proc at the end of the run; processes
 * that have exited by then show as "-".
 *
 * The driver writes the incoming task's PID to the PMU on every context
 * switch; the PMU logs (PID that ran, cycles it ran) at each write.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEV "/dev/leon3_pidlog"

struct slice {
	unsigned int cpu, pid;
	unsigned long long start, cycles;
};

struct proc {
	unsigned int pid, n;
	unsigned long long total, min, max;
};

static void die(const char *what)
{
	fprintf(stderr, "leon3-pidlog: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int set_log(int on)
{
	int fd = open(DEV, O_WRONLY);

	if (fd < 0)
		return -1;
	if (write(fd, on ? "1" : "0", 1) != 1) {
		close(fd);
		return -1;
	}
	return close(fd);
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
	unsigned long long now[64] = { 0 };
	struct slice *s = NULL;
	struct proc *p = NULL;
	size_t ns = 0, cap = 0, np = 0, i, j;
	int top = 5, arg = 1, status;
	char line[128], name[32];
	unsigned long lost = 0;
	pid_t child;
	FILE *log;

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

	if (set_log(1))
		die(DEV " (is the leon3_pmu driver loaded?)");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		execvp(argv[arg], argv + arg);
		fprintf(stderr, "leon3-pidlog: %s: %s\n", argv[arg], strerror(errno));
		_exit(127);
	}
	waitpid(child, &status, 0);
	if (set_log(0))
		die(DEV);

	log = fopen(DEV, "r");
	if (!log)
		die(DEV);
	while (fgets(line, sizeof(line), log)) {
		struct slice x;
		unsigned long long cyc;

		if (sscanf(line, "# lost %lu", &lost) == 1)
			continue;
		if (sscanf(line, "%u %u %llu", &x.cpu, &x.pid, &cyc) != 3 ||
		    x.cpu >= 64)
			continue;
		x.start = now[x.cpu];
		x.cycles = cyc;
		now[x.cpu] += cyc;
		if (ns == cap) {
			cap = cap ? 2 * cap : 256;
			s = realloc(s, cap * sizeof(*s));
			if (!s)
				die("realloc");
		}
		s[ns++] = x;
	}
	fclose(log);

	printf("# context-switch timeline of: %s (pid %d)\n", argv[arg], child);
	printf("# %3s %14s %12s %7s %s\n", "cpu", "start", "cycles", "pid", "command");
	for (i = 0; i < ns; i++) {
		comm(s[i].pid, name, sizeof(name));
		printf("  %3u %14llu %12llu %7u %s%s\n", s[i].cpu, s[i].start,
		       s[i].cycles, s[i].pid, name,
		       s[i].pid == (unsigned int)child ? " (command)" : "");
	}
	if (lost)
		printf("# records lost: the log was full %lu time(s)\n", lost);

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
