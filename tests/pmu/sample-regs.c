// SPDX-License-Identifier: GPL-2.0
/*
 * A sample's registers and user stack on sparc32 (PERF_SAMPLE_REGS_USER,
 * PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_STACK_USER: kernel/patches/0018),
 * checked against a function that sets its own registers: window_spin()
 * puts constants in its locals, outs and %y, gets its ins as arguments,
 * records its %sp, and spins with a counter in both %o0 (sampled from
 * the trap frame) and %l7 (only in its window, which the stack dump
 * must hold: the kernel flushes the window first).  Then a kernel-mode
 * sample's registers, and the errno of bad register and stack masks.
 * Prints a TAP line per check; exits 1 if one fails.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "leon3_pmu_user.h"

/* The register numbers of arch/sparc/include/uapi/asm/perf_regs.h */
enum { G0, G1, G2, G3, G4, G5, G6, G7, O0, O1, O2, O3, O4, O5, O6, O7,
	PC, NPC, PSR, Y, NREGS };
#define ALL_REGS ((1ULL << NREGS) - 1)

#define PSR_PS 0x40		/* the mode before the trap: 1 = supervisor */
#define LEON3_PSR_IMPL_VER 0xf3	/* %psr bits 31..24 of a LEON3 */
#define KERNBASE 0xf0000000UL
#define STACK_DUMP 256
#define PERIOD 10007
#define KERNEL_PERIOD 100003	/* the driver's kernel minimum is 100000 */
#define LOOPS 100000L
#define RING_PAGES 16

/* The constants window_spin() sets, and the arguments it is given */
#define LOCAL(k) (0x4c000000 + (k))
#define OUT(k) (0x4f000000 + (k))
#define ARG(k) (0x49000000 + (k))
#define YVAL 0x59

long window_spin(long n, long a1, long a2, long a3, long a4, long a5);
extern const char window_spin_loop[], window_spin_end[];
unsigned long window_spin_sp;
__asm__(".text\n"
	".align 4\n"
	".global window_spin\n"
	".type window_spin, #function\n"
	"window_spin:\n"
	"	save %sp, -96, %sp\n"
	"	sethi %hi(window_spin_sp), %g1\n"
	"	st %sp, [%g1 + %lo(window_spin_sp)]\n"
	"	wr %g0, 0x59, %y\n"			/* YVAL */
	"	set 0x4c000000, %l0\n"			/* LOCAL(0) */
	"	add %l0, 1, %l1\n"
	"	add %l0, 2, %l2\n"
	"	add %l0, 3, %l3\n"
	"	add %l0, 4, %l4\n"
	"	add %l0, 5, %l5\n"
	"	add %l0, 6, %l6\n"
	"	set 0x4f000000, %o0\n"			/* OUT(0) */
	"	add %o0, 1, %o1\n"
	"	add %o0, 2, %o2\n"
	"	add %o0, 3, %o3\n"
	"	add %o0, 4, %o4\n"
	"	add %o0, 5, %o5\n"
	"	add %o0, 7, %o7\n"
	"	mov %i0, %o0\n"
	"	mov %i0, %l7\n"
	".global window_spin_loop\n"
	"window_spin_loop:\n"
	"	sub %l7, 1, %l7\n"
	"	subcc %o0, 1, %o0\n"
	"	bne window_spin_loop\n"
	"	 nop\n"
	".global window_spin_end\n"
	"window_spin_end:\n"
	"	ret\n"
	"	 restore\n"
	".size window_spin, . - window_spin\n");

static int failed;

static void check(int ok, const char *what, const char *detail)
{
	printf("%s - %s%s%s\n", ok ? "ok" : "not ok", what,
	       ok || !*detail ? "" : ": ", ok ? "" : detail);
	failed |= !ok;
}

static int open_sampler(int exclude_user, __u64 period, __u64 sample_type, __u64 regs_user,
			__u64 regs_intr, __u32 stack_user)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.sample_period = period,
		.sample_type = sample_type,
		.sample_regs_user = regs_user,
		.sample_regs_intr = regs_intr,
		.sample_stack_user = stack_user,
		.disabled = 1,
		.exclude_user = exclude_user,
		.exclude_kernel = !exclude_user,
		.exclude_hv = 1,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* One sample of IP | REGS_USER | STACK_USER | REGS_INTR, all registers */
struct sample {
	uint64_t ip;
	uint64_t user_abi, user[NREGS];
	uint64_t stack_size, dyn_size;
	uint32_t stack[STACK_DUMP / 4];
	uint64_t intr_abi, intr[NREGS];
};

/* Read the ring's samples into @s (at most @max): how many, or -1 */
static int read_samples(void *ring, struct sample *s, int max)
{
	static uint64_t rec[65536 / 8];	/* the largest record there can be */
	struct perf_event_header *h;
	struct leon3_ring r;
	int n = 0;

	leon3_ring_begin(&r, ring, RING_PAGES);
	while ((h = leon3_ring_next(&r, rec, sizeof(rec)))) {
		const char *p = (const char *)(h + 1);
		struct sample *x = &s[n];

		if (h->type != PERF_RECORD_SAMPLE || n == max)
			continue;
		n++;
		memcpy(&x->ip, p, 8);
		memcpy(&x->user_abi, p + 8, 8);
		memcpy(x->user, p + 16, sizeof(x->user));
		p += 16 + sizeof(x->user);
		memcpy(&x->stack_size, p, 8);
		memcpy(x->stack, p + 8, sizeof(x->stack));
		p += 8 + x->stack_size;
		memcpy(&x->dyn_size, p, 8);
		memcpy(&x->intr_abi, p + 8, 8);
		memcpy(x->intr, p + 16, sizeof(x->intr));
		if (x->stack_size != STACK_DUMP)
			return -1;
	}
	return n;
}

static uint32_t thread_pointer(void)
{
	uint32_t g7;

	__asm__("mov %%g7, %0" : "=r" (g7));
	return g7;
}

extern const char __executable_start[], etext[];	/* the linker's */

/* @addr holds a call to @fn (SPARC "call": op 01, a word displacement) */
static int is_call_to(uint32_t addr, const void *fn)
{
	uint32_t insn;

	if (addr & 3 || addr < (uintptr_t)__executable_start || addr >= (uintptr_t)etext)
		return 0;
	insn = *(const uint32_t *)(uintptr_t)addr;
	return insn >> 30 == 1 && addr + (insn << 2) == (uint32_t)(uintptr_t)fn;
}

/* What is wrong with a user sample in window_spin(), or "" */
static const char *user_sample_error(const struct sample *x, char *buf,
				     size_t len)
{
	uint32_t sp = window_spin_sp, pc = x->user[PC];
	const uint32_t *w = x->stack;
	int k;

	if (x->user_abi != PERF_SAMPLE_REGS_ABI_32)
		return snprintf(buf, len, "ABI %llu", (unsigned long long)x->user_abi), buf;
	if (pc != x->ip || pc < (uintptr_t)window_spin_loop || pc >= (uintptr_t)window_spin_end)
		return snprintf(buf, len, "pc %#x, ip %#llx", pc, (unsigned long long)x->ip), buf;
	if (x->user[NPC] != pc + 4 && x->user[NPC] != (uintptr_t)window_spin_loop)
		return snprintf(buf, len, "npc %#llx at pc %#x", (unsigned long long)x->user[NPC], pc), buf;
	if (x->user[G0] != 0 || x->user[G7] != thread_pointer())
		return snprintf(buf, len, "g0 %#llx g7 %#llx", (unsigned long long)x->user[G0],
				(unsigned long long)x->user[G7]), buf;
	for (k = 1; k <= 5; k++)
		if (x->user[O0 + k] != OUT(k))
			return snprintf(buf, len, "o%d %#llx", k, (unsigned long long)x->user[O0 + k]), buf;
	if (x->user[O6] != sp || x->user[O7] != OUT(7))
		return snprintf(buf, len, "sp %#llx (window_spin's %#x) o7 %#llx",
				(unsigned long long)x->user[O6], sp,
				(unsigned long long)x->user[O7]), buf;
	if (x->user[Y] != YVAL || x->user[PSR] >> 24 != LEON3_PSR_IMPL_VER || x->user[PSR] & PSR_PS)
		return snprintf(buf, len, "y %#llx psr %#llx", (unsigned long long)x->user[Y],
				(unsigned long long)x->user[PSR]), buf;
	if (x->dyn_size != STACK_DUMP)
		return snprintf(buf, len, "stack dump of %llu bytes", (unsigned long long)x->dyn_size), buf;
	/* the window at %sp: %l0-%l6, %l7 = the counter, %i0-%i7 */
	for (k = 0; k <= 6; k++)
		if (w[k] != LOCAL(k))
			return snprintf(buf, len, "stack word %d (l%d) %#x", k, k, w[k]), buf;
	if (w[7] != x->user[O0] && w[7] != x->user[O0] - 1)
		return snprintf(buf, len, "l7 %#x in the dump, o0 %#llx: the window is stale",
				w[7], (unsigned long long)x->user[O0]), buf;
	if (w[8] != LOOPS)
		return snprintf(buf, len, "i0 %#x", w[8]), buf;
	for (k = 1; k <= 5; k++)
		if (w[8 + k] != ARG(k))
			return snprintf(buf, len, "i%d %#x", k, w[8 + k]), buf;
	if (w[14] != sp + 96 || !is_call_to(w[15], window_spin))
		return snprintf(buf, len, "fp %#x (expected %#x), i7 %#x not a call to window_spin",
				w[14], sp + 96, w[15]), buf;
	if (x->intr_abi != PERF_SAMPLE_REGS_ABI_32 || memcmp(x->intr, x->user, sizeof(x->user)))
		return "REGS_INTR differs from REGS_USER for a user-mode sample";
	return "";
}

/*
 * Open an event that samples every register and a stack dump (kernel
 * mode only with @exclude_user), reported as the check @what, and run
 * @work under it: its samples in @s (at most @max), their number or -1
 * (read_samples()) in *@n.  -1 when the event or its ring could not be
 * had.
 */
static int sample_all_regs(int exclude_user, __u64 period, const char *what,
			   void (*work)(void), struct sample *s, int max, int *n)
{
	size_t len = (RING_PAGES + 1) * sysconf(_SC_PAGESIZE);
	void *ring;
	int fd;

	fd = open_sampler(exclude_user, period, PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER |
			  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR,
			  ALL_REGS, ALL_REGS, STACK_DUMP);
	check(fd >= 0, what, strerror(errno));
	if (fd < 0)
		return -1;
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		check(0, "mmap of the ring", strerror(errno));
		close(fd);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	*n = read_samples(ring, s, max);
	munmap(ring, len);
	close(fd);
	return 0;
}

static void window_spin_work(void)
{
	window_spin(LOOPS, ARG(1), ARG(2), ARG(3), ARG(4), ARG(5));
	/* no tail call: window_spin's %i7 must be a call to it */
	__asm__ __volatile__("" ::: "memory");
}

static void user_samples(void)
{
	static struct sample s[64];
	char what[160], buf[160], first[200] = "";
	int n, i, bad = 0;

	if (sample_all_regs(0, PERIOD, "a user sampling event with every register and a stack dump opens",
			    window_spin_work, s, 64, &n))
		return;

	/* 4 instructions an iteration; a sample or two outside the loop */
	snprintf(buf, sizeof(buf), "%d", n);
	check(n >= 4 * LOOPS / PERIOD - 2, "about 40 samples of 256-byte stack dumps", buf);
	for (i = 0; i < n; i++) {
		const char *e;

		if (s[i].ip < (uintptr_t)window_spin_loop || s[i].ip >= (uintptr_t)window_spin_end)
			continue;	/* the code around the loop */
		e = user_sample_error(&s[i], buf, sizeof(buf));
		if (*e && !bad++)
			snprintf(first, sizeof(first), "sample %d: %s", i, e);
	}
	snprintf(what, sizeof(what), "every sample in the loop: pc, npc, %%g0, %%g7, %%o1-%%o7, "
		 "%%y, %%psr as window_spin set them; the dump's window holds its locals, "
		 "its ins and the live counter in %%l7");
	check(n > 0 && !bad, what, first);
}

/*
 * Kernel samples: the interrupted kernel's registers in REGS_INTR, the
 * user's (where it entered the kernel) in REGS_USER.  A kernel event's
 * overflow can also be taken at the user IP after a system call (see
 * leon3_pmu_test's sampling_kernel_flag): then both hold the user's.
 */
static const char *kernel_sample_error(const struct sample *x)
{
	if (x->user_abi != PERF_SAMPLE_REGS_ABI_32 || x->user[PC] >= KERNBASE ||
	    x->user[PSR] & PSR_PS || x->dyn_size != STACK_DUMP)
		return "REGS_USER is not a user's, or no stack dump";
	if (x->intr_abi != PERF_SAMPLE_REGS_ABI_32 || x->intr[PC] != x->ip)
		return "REGS_INTR's pc is not the sample's ip";
	if (x->intr[PSR] & PSR_PS)
		return x->ip >= KERNBASE ? "" : "a kernel %psr with a user pc";
	return x->ip < KERNBASE && !memcmp(x->intr, x->user, sizeof(x->user)) ? "" :
		"a user-mode sample whose REGS_INTR is not REGS_USER";
}

static void system_calls_work(void)
{
	int i;

	for (i = 0; i < 10000; i++)
		syscall(__NR_getppid);
}

static void kernel_samples(void)
{
	static struct sample s[64];
	char buf[240] = "";
	int n, i, bad = 0, kernel = 0;

	if (sample_all_regs(1, KERNEL_PERIOD,
			    "a kernel sampling event with user and interrupt registers opens",
			    system_calls_work, s, 64, &n))
		return;
	for (i = 0; i < n; i++) {
		const struct sample *x = &s[i];
		const char *e = kernel_sample_error(x);

		kernel += x->ip >= KERNBASE;
		if (*e && !bad++)
			snprintf(buf, sizeof(buf),
				 "sample %d: %s: ip %#llx, intr pc %#llx psr %#llx, user pc %#llx psr %#llx, dump %llu",
				 i, e, (unsigned long long)x->ip, (unsigned long long)x->intr[PC],
				 (unsigned long long)x->intr[PSR], (unsigned long long)x->user[PC],
				 (unsigned long long)x->user[PSR], (unsigned long long)x->dyn_size);
	}
	if (!bad && kernel < 5)
		snprintf(buf, sizeof(buf), "%d kernel samples of %d", kernel, n);
	check(kernel >= 5 && !bad, "every kernel sample: the kernel's pc and %psr in REGS_INTR, "
	      "the user's in REGS_USER, and a user stack dump", buf);
}

static void bad_masks(void)
{
	static const struct {
		const char *what;
		__u64 type, regs_user, regs_intr;
		__u32 stack;
	} bad[] = {
		{ "a user register beyond %y", PERF_SAMPLE_REGS_USER, 1ULL << NREGS, 0, 0 },
		{ "no user register", PERF_SAMPLE_REGS_USER, 0, 0, 0 },
		{ "an interrupt register beyond %y", PERF_SAMPLE_REGS_INTR, 0, 1ULL << 40, 0 },
		{ "a stack dump not a multiple of 8", PERF_SAMPLE_STACK_USER, 0, 0, 100 },
	};
	char what[120], buf[80];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int fd = open_sampler(0, PERIOD, PERF_SAMPLE_IP | bad[i].type, bad[i].regs_user,
				      bad[i].regs_intr, bad[i].stack);
		int err = fd < 0 ? errno : 0;

		snprintf(what, sizeof(what), "%s is EINVAL", bad[i].what);
		snprintf(buf, sizeof(buf), "%s", fd < 0 ? strerror(err) : "it opened");
		check(fd < 0 && err == EINVAL, what, buf);
		if (fd >= 0)
			close(fd);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	user_samples();
	kernel_samples();
	bad_masks();
	return failed;
}
