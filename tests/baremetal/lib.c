// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the bare-metal test framework: console, TAP lines, the
 * trap and interrupt dispatch crt0.S calls, and CPU start-up.
 */
#include "baremetal.h"

volatile unsigned int failures;
volatile trap_hook_fn trap_hook;
volatile unsigned int trap_count[256];
volatile u32 last_trap_pc, last_trap_tt;

/* ------------------------------------------------------------------ */
/* Console */

/*
 * One line at a time on the UART when several CPUs print.  The lock is
 * recursive per CPU, so that a trap handler may print while the code it
 * interrupted holds it (except in the two instructions between taking
 * the byte and recording the owner: interrupt handlers had better not
 * print while other code on the same CPU does).
 */
static volatile u8 print_lock_byte;
static volatile int print_owner = -1;
static int print_depth;

static inline u32 ldstub(volatile u8 *p)
{
	u32 v;

	asm volatile("ldstub [%1], %0" : "=r"(v) : "r"(p) : "memory");
	return v;
}

static void print_lock(void)
{
	int me = cpu_index();

	if (print_owner == me) {
		print_depth++;
		return;
	}
	while (ldstub(&print_lock_byte))
		while (print_lock_byte)
			;
	print_owner = me;
	print_depth = 1;
}

static void print_unlock(void)
{
	if (--print_depth)
		return;
	print_owner = -1;
	asm volatile("" : : : "memory");
	print_lock_byte = 0;
}

void putc(int c)
{
	if (c == '\n')
		putc('\r');
	while (!(mmio_read32(UART_STATUS) & UART_STATUS_TE))
		;
	mmio_write32(UART_DATA, (u8)c);
}

void puts(const char *s)
{
	print_lock();
	while (*s)
		putc(*s++);
	print_unlock();
}

static void put_num(u32 v, unsigned int base, int neg, int width, char pad,
		    int left)
{
	char buf[12];
	int n = 0, len;

	do {
		buf[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	len = n + neg;
	if (neg && pad == '0')
		putc('-');
	for (; !left && width > len; width--)
		putc(pad);
	if (neg && pad != '0')
		putc('-');
	while (n)
		putc(buf[--n]);
	for (; left && width > len; width--)
		putc(' ');
}

static int slen(const char *s)
{
	int n = 0;

	while (s[n])
		n++;
	return n;
}

/* %d %i %u %x %p %s %c %%, with '-', '0' and a width; 'l' is ignored. */
int vprintf(const char *fmt, va_list ap)
{
	print_lock();
	for (; *fmt; fmt++) {
		int width = 0, left = 0;
		char pad = ' ';
		const char *s;

		if (*fmt != '%') {
			putc(*fmt);
			continue;
		}
		fmt++;
		if (*fmt == '-') {
			left = 1;
			fmt++;
		}
		if (*fmt == '0') {
			pad = '0';
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + *fmt++ - '0';
		while (*fmt == 'l')
			fmt++;
		switch (*fmt) {
		case 'd':
		case 'i': {
			int v = va_arg(ap, int);

			put_num(v < 0 ? -(u32)v : (u32)v, 10, v < 0, width, pad, left);
			break;
		}
		case 'u':
			put_num(va_arg(ap, u32), 10, 0, width, pad, left);
			break;
		case 'x':
			put_num(va_arg(ap, u32), 16, 0, width, pad, left);
			break;
		case 'p':
			puts("0x");
			put_num((u32)va_arg(ap, void *), 16, 0, 8, '0', 0);
			break;
		case 'c':
			putc(va_arg(ap, int));
			break;
		case 's':
			s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			for (width -= slen(s); !left && width > 0; width--)
				putc(' ');
			puts(s);
			for (; left && width > 0; width--)
				putc(' ');
			break;
		case '\0':
			fmt--;
			break;
		default:
			putc(*fmt);
			break;
		}
	}
	print_unlock();
	return 0;
}

int printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Results */

static int vresult(int cond, const char *fmt, va_list ap)
{
	print_lock();
	puts(cond ? "ok - " : "not ok - ");
	vprintf(fmt, ap);
	if (!cond)
		failures++;
	print_unlock();
	return cond;
}

int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	print_lock();
	va_start(ap, fmt);
	vresult(cond, fmt, ap);
	va_end(ap);
	putc('\n');
	print_unlock();
	return cond;
}

int is_u32(u32 got, u32 want, const char *fmt, ...)
{
	va_list ap;

	print_lock();
	va_start(ap, fmt);
	vresult(got == want, fmt, ap);
	va_end(ap);
	if (got != want)
		printf(" (got 0x%08x, want 0x%08x)", got, want);
	putc('\n');
	print_unlock();
	return got == want;
}

void diag(const char *fmt, ...)
{
	va_list ap;

	print_lock();
	puts("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putc('\n');
	print_unlock();
}

void skip(const char *what, const char *why)
{
	printf("ok - %s # SKIP %s\n", what, why);
}

void done(void)
{
	print_lock();
	printf("BAREMETAL-DONE failures=%u\n", failures);
	/* Let the last character leave the shift register before power-off. */
	while (!(mmio_read32(UART_STATUS) & UART_STATUS_TS))
		;
	halt();
}

/* ------------------------------------------------------------------ */
/* Traps and interrupts (called from crt0.S) */

void trap_dispatch(struct trap_frame *tf);

void trap_dispatch(struct trap_frame *tf)
{
	unsigned int tt = tf->tt & 0xff;

	trap_count[tt]++;
	last_trap_tt = tt;
	last_trap_pc = tf->pc;
	if (trap_hook && trap_hook(tf))
		return;
	if (tt >= TT_TICC(0)) {
		trap_skip(tf);
		return;
	}
	ok(0, "unexpected trap 0x%02x at pc 0x%08x (npc 0x%08x, psr 0x%08x)",
	   tt, tf->pc, tf->npc, tf->psr);
	done();
}

int trap_hook_skip(struct trap_frame *tf)
{
	trap_skip(tf);
	return 1;
}

/*
 * No handler in the test: complain, and mask the level on this CPU so
 * that a source that stays asserted cannot keep the CPU here.
 */
__attribute__((weak)) void irq_handler(unsigned int level)
{
	u32 mask = IRQMP_MASK(cpu_index());

	mmio_write32(mask, mmio_read32(mask) & ~(1u << level));
	ok(0, "unexpected interrupt %u on CPU %u", level, cpu_index());
}

__attribute__((weak)) void secondary_main(unsigned int cpu)
{
}

/* ------------------------------------------------------------------ */
/* Start-up and SMP */

void bm_start(void) __attribute__((noreturn));
void bm_secondary(unsigned int cpu) __attribute__((noreturn));

void bm_start(void)
{
	int rc;

	/* The -kernel bootloader does this already; a PROM might not. */
	mmio_write32(UART_CTRL, mmio_read32(UART_CTRL) | UART_CTRL_TE | UART_CTRL_RE);
	/* time_us(): 40 MHz (leon3_generic's clock) / 40, no interrupt. */
	mmio_write32(GPT_SCALER_RELOAD, 39);
	mmio_write32(GPT_SCALER, 39);
	mmio_write32(GPT_RELOAD(0), 0xffffffff);
	mmio_write32(GPT_CTRL(0), GPT_CTRL_EN | GPT_CTRL_RS | GPT_CTRL_LD);
	rc = main();
	if (rc)
		ok(0, "main() returned %d", rc);
	done();
}

void bm_secondary(unsigned int cpu)
{
	secondary_main(cpu);
	cpu_idle();
}

unsigned int smp_ncpus(void)
{
	return (mmio_read32(IRQMP_MPSTAT) >> 28) + 1;
}

/* A CPU started this way enters _start through QEMU's bootloader. */
void start_cpu(unsigned int cpu)
{
	mmio_write32(IRQMP_MPSTAT, 1u << cpu);
}

/* Park this CPU: traps off, so only a reset brings it back. */
void cpu_idle(void)
{
	wr_psr(rd_psr() & ~PSR_ET);
	for (;;)
		asm volatile("wr %g0, %asr19");
}

/* ------------------------------------------------------------------ */
/* Deep recursion */

static volatile unsigned int zero;

/* Not a tail call: the volatile read after the call keeps every frame. */
__attribute__((noinline)) unsigned int window_sum(unsigned int n)
{
	unsigned int r;

	if (!n)
		return zero;
	r = window_sum(n - 1);
	return n + r + zero;
}

/* ------------------------------------------------------------------ */
/* What gcc may call even when freestanding */

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
