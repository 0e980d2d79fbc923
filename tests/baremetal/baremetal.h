// SPDX-License-Identifier: GPL-2.0
/*
 * Bare-metal test programs for QEMU's leon3_generic machine: one program
 * per test-*.c, booted with -kernel.  crt0.S sets up the CPU and calls
 * main() on CPU 0; lib.c prints TAP-like lines on the APBUART and ends the
 * run with "BAREMETAL-DONE failures=N", which baremetal.t looks for.
 */
#ifndef BAREMETAL_H
#define BAREMETAL_H

#include <stdarg.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;

/* leon3_generic (hw/sparc/leon3.c) */
#define UART_BASE	0x80000100
#define UART_DATA	(UART_BASE + 0x00)
#define UART_STATUS	(UART_BASE + 0x04)
#define UART_CTRL	(UART_BASE + 0x08)
#define UART_STATUS_TE	(1u << 2)	/* transmitter FIFO empty */
#define UART_STATUS_TS	(1u << 1)	/* transmitter shift register empty */
#define UART_CTRL_RE	(1u << 0)
#define UART_CTRL_TE	(1u << 1)

#define IRQMP_BASE	0x80000200
#define IRQMP_LEVEL	(IRQMP_BASE + 0x00)
#define IRQMP_PENDING	(IRQMP_BASE + 0x04)
#define IRQMP_FORCE0	(IRQMP_BASE + 0x08)
#define IRQMP_CLEAR	(IRQMP_BASE + 0x0c)
#define IRQMP_MPSTAT	(IRQMP_BASE + 0x10)
#define IRQMP_BCAST	(IRQMP_BASE + 0x14)
#define IRQMP_MASK(cpu)	(IRQMP_BASE + 0x40 + 4 * (cpu))
#define IRQMP_FORCE(cpu) (IRQMP_BASE + 0x80 + 4 * (cpu))
#define IRQMP_EXTACK(cpu) (IRQMP_BASE + 0xc0 + 4 * (cpu))
#define EIRQ		14	/* leon3_generic forwards extended interrupts on it */

#define GPTIMER_BASE	0x80000300	/* timer 0 on IRQ 6, timer 1 on IRQ 7 */
#define GPT_SCALER	(GPTIMER_BASE + 0x00)
#define GPT_SCALER_RELOAD (GPTIMER_BASE + 0x04)
#define GPT_COUNTER(n)	(GPTIMER_BASE + 0x10 + 0x10 * (n))
#define GPT_RELOAD(n)	(GPTIMER_BASE + 0x14 + 0x10 * (n))
#define GPT_CTRL(n)	(GPTIMER_BASE + 0x18 + 0x10 * (n))
#define GPT_CTRL_EN	(1u << 0)
#define GPT_CTRL_RS	(1u << 1)	/* restart from reload at underflow */
#define GPT_CTRL_LD	(1u << 2)	/* load the counter from reload now */
#define GPT_CTRL_IE	(1u << 3)
#define GPT_CTRL_IP	(1u << 4)	/* interrupt pending; written as 1 clears it */

#define MAX_CPUS	4

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* PSR fields */
#define PSR_CWP		0x0000001f
#define PSR_ET		0x00000020
#define PSR_PS		0x00000040
#define PSR_S		0x00000080
#define PSR_PIL		0x00000f00
#define PSR_PIL_SHIFT	8

/* Trap types (SPARC V8 table 7-1) */
#define TT_ILLEGAL_INSN		0x02
#define TT_PRIV_INSN		0x03
#define TT_WINDOW_OVERFLOW	0x05
#define TT_WINDOW_UNDERFLOW	0x06
#define TT_UNALIGNED		0x07
#define TT_DATA_ACCESS		0x09
#define TT_INTERRUPT(level)	(0x10 + (level))
#define TT_TICC(n)		(0x80 + (n))

/*
 * Software traps with a fixed meaning in crt0.S.  "ta 0" is left alone:
 * with traps disabled it is QEMU's power-off (CPU_FEATURE_TA0_SHUTDOWN).
 */
#define SWTRAP_TO_USER		1
#define SWTRAP_TO_SUPER		2

/* ------------------------------------------------------------------ */
/* Registers */

static inline u32 rd_psr(void)
{
	u32 v;

	asm volatile("rd %%psr, %0" : "=r"(v));
	return v;
}

/* The three nops: PSR fields take effect up to three instructions later. */
static inline void wr_psr(u32 v)
{
	asm volatile("wr %0, 0, %%psr\n\tnop\n\tnop\n\tnop" : : "r"(v) : "memory");
}

static inline u32 rd_asr17(void)
{
	u32 v;

	asm volatile("rd %%asr17, %0" : "=r"(v));
	return v;
}

/* %asr17 is readable in user mode too, so this works in either mode. */
static inline unsigned int cpu_index(void)
{
	return rd_asr17() >> 28;
}

static inline unsigned int nwindows(void)
{
	return (rd_asr17() & 0x1f) + 1;
}

/* Interrupts above PIL are taken (level 15 always, when ET is set). */
static inline void set_pil(unsigned int pil)
{
	wr_psr((rd_psr() & ~PSR_PIL) | (pil << PSR_PIL_SHIFT));
}

static inline void to_user(void)
{
	asm volatile("ta %0" : : "i"(SWTRAP_TO_USER) : "memory");
}

static inline void to_supervisor(void)
{
	asm volatile("ta %0" : : "i"(SWTRAP_TO_SUPER) : "memory");
}

/* ------------------------------------------------------------------ */
/* Memory-mapped I/O (no MMU: physical addresses) */

static inline u32 mmio_read32(u32 addr)
{
	return *(volatile u32 *)addr;
}

static inline void mmio_write32(u32 addr, u32 v)
{
	*(volatile u32 *)addr = v;
}

/* ------------------------------------------------------------------ */
/* ASI 0x02: LEON system registers (cache control, PMU) */

static inline u32 lda_asi2(u32 addr)
{
	u32 v;

	asm volatile("lda [%1] 2, %0" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

static inline void sta_asi2(u32 addr, u32 v)
{
	asm volatile("sta %0, [%1] 2" : : "r"(v), "r"(addr) : "memory");
}

static inline u32 lduba_asi2(u32 addr)
{
	u32 v;

	asm volatile("lduba [%1] 2, %0" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

static inline u32 lduha_asi2(u32 addr)
{
	u32 v;

	asm volatile("lduha [%1] 2, %0" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

static inline void stba_asi2(u32 addr, u32 v)
{
	asm volatile("stba %0, [%1] 2" : : "r"(v), "r"(addr) : "memory");
}

static inline void stha_asi2(u32 addr, u32 v)
{
	asm volatile("stha %0, [%1] 2" : : "r"(v), "r"(addr) : "memory");
}

/* ------------------------------------------------------------------ */
/* Traps */

/*
 * What crt0.S saved for a trap that reaches C.  A handler may change pc
 * and npc (trap_skip() steps over the trapping instruction); the rest is
 * restored as saved.
 */
struct trap_frame {
	u32 psr;	/* at the trap: S is in PS, ET is 0 */
	u32 pc;
	u32 npc;
	u32 tt;
	u32 y;
	u32 pad;
	u32 g[8];	/* g[0] unused */
};

static inline void trap_skip(struct trap_frame *tf)
{
	tf->pc = tf->npc;
	tf->npc += 4;
}

/*
 * Every trap other than window traps, interrupts and the mode-switch
 * software traps is counted here, then given to trap_hook if set.  A hook
 * returns non-zero when it dealt with the trap (usually after
 * trap_skip()).  Unhandled: software traps are skipped; any other trap
 * is a "not ok" and ends the run, since returning would re-execute the
 * faulting instruction for ever.
 */
typedef int (*trap_hook_fn)(struct trap_frame *tf);
extern volatile trap_hook_fn trap_hook;
extern volatile unsigned int trap_count[256];
extern volatile u32 last_trap_pc, last_trap_tt;

/* Window overflow / underflow traps taken, per CPU (crt0.S). */
extern volatile unsigned int window_overflows[MAX_CPUS];
extern volatile unsigned int window_underflows[MAX_CPUS];

/* A ready-made hook: count and skip every trap. */
int trap_hook_skip(struct trap_frame *tf);

/* Called with PIL raised to level; weak default: a "not ok". */
void irq_handler(unsigned int level);

/* Runs on CPU n (n > 0) once started with start_cpu(n); weak default. */
void secondary_main(unsigned int cpu);

/* ------------------------------------------------------------------ */
/* Time: GPTIMER timer 0, free-running at 1 MHz (set up before main()) */

static inline u32 time_us(void)
{
	return ~mmio_read32(GPT_COUNTER(0));
}

/*
 * Wait until cond holds, for at most us microseconds; the value is cond.
 * Time, not a loop count: how long another CPU takes to do something
 * depends on how busy the host is.
 */
#define wait_for(cond, us) ({						\
	u32 t0_ = time_us();						\
									\
	while (!(cond) && time_us() - t0_ < (us))			\
		;							\
	!!(cond);							\
})

#define WAIT_LONG	5000000		/* 5 s: well under baremetal.t's limit */

/* ------------------------------------------------------------------ */
/* SMP */

unsigned int smp_ncpus(void);
void start_cpu(unsigned int cpu);
__attribute__((noreturn)) void cpu_idle(void);

/* ------------------------------------------------------------------ */
/* Output and results */

void putc(int c);
void puts(const char *s);	/* no newline added */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);

extern volatile unsigned int failures;

int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int is_u32(u32 got, u32 want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "ok - what # SKIP why": a check that cannot run in this configuration */
void skip(const char *what, const char *why);

/*
 * 1 + 2 + ... + n by a recursion n calls deep, every frame kept: deeper
 * than the register windows, it makes window overflow and underflow
 * traps.
 */
unsigned int window_sum(unsigned int n);

/* "BAREMETAL-DONE failures=N", then QEMU powers off. */
__attribute__((noreturn)) void done(void);
__attribute__((noreturn)) void halt(void);

void *memset(void *s, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n);

int main(void);

#endif
