// SPDX-License-Identifier: GPL-2.0
/*
 * The framework itself: register windows, user mode, traps, interrupts
 * and secondary CPUs, as later tests rely on them.
 *
 * qemu-args:
 * qemu-args: -smp 2
 * qemu-args: -smp 4
 */
#include "baremetal.h"

#define DEPTH		40
#define IRQ_LEVEL	10
#define WAIT_IRQ	100000		/* us: an interrupt on this CPU is immediate */

static volatile unsigned int zero;

/* ------------------------------------------------------------------ */

static volatile unsigned int hook_calls;
static volatile u32 hook_tt, hook_psr;

static int record_and_skip(struct trap_frame *tf)
{
	hook_calls++;
	hook_tt = tf->tt;
	hook_psr = tf->psr;
	trap_skip(tf);
	return 1;
}

static void test_windows(const char *mode)
{
	unsigned int cpu = cpu_index();
	unsigned int ovf = window_overflows[cpu], unf = window_underflows[cpu];
	unsigned int got = window_sum(DEPTH);

	is_u32(got, DEPTH * (DEPTH + 1) / 2, "%s: recursion %u deep (%u windows)",
	       mode, DEPTH, nwindows());
	ok(window_overflows[cpu] - ovf >= DEPTH - nwindows(),
	   "%s: window overflow traps taken (%u)", mode, window_overflows[cpu] - ovf);
	ok(window_underflows[cpu] - unf >= DEPTH - nwindows(),
	   "%s: window underflow traps taken (%u)", mode, window_underflows[cpu] - unf);
}

static void test_user_mode(void)
{
	u32 psr;

	trap_hook = record_and_skip;
	hook_calls = 0;
	to_user();
	/* %asr17 is not privileged: the CPU index reads in user mode too. */
	ok(cpu_index() == 0, "user mode: %%asr17 readable");
	test_windows("user mode");
	asm volatile("rd %%psr, %0" : "=r"(psr));
	to_supervisor();
	is_u32(hook_calls, 1, "user mode: rd %%psr traps once");
	is_u32(hook_tt, TT_PRIV_INSN, "user mode: rd %%psr is a privileged_instruction trap");
	ok(!(hook_psr & PSR_PS), "user mode: the trap came from user mode (PS clear)");

	hook_calls = 0;
	to_user();
	(void)lda_asi2(0x00);
	to_supervisor();
	is_u32(hook_calls, 1, "user mode: lda [] 0x02 traps once");
	is_u32(hook_tt, TT_PRIV_INSN, "user mode: lda [] 0x02 is a privileged_instruction trap");
	trap_hook = 0;

	psr = rd_psr();
	ok(psr & PSR_S, "back in supervisor mode (PSR 0x%08x)", psr);
	ok(psr & PSR_ET, "traps still enabled");
}

static void test_swtrap(void)
{
	unsigned int before = trap_count[TT_TICC(5)];

	asm volatile("ta 5" : : : "memory");
	is_u32(trap_count[TT_TICC(5)] - before, 1, "ta 5 reaches the C trap hook, and returns");
}

/*
 * A trap handler that calls C must give back every global, %y and the
 * condition codes: the hook trashes them, the asm checks them.
 */
static int trash_hook(struct trap_frame *tf)
{
	asm volatile("mov -1, %%g1\n\tmov -1, %%g2\n\tmov -1, %%g3\n\tmov -1, %%g4\n\t"
		     "mov -1, %%g5\n\tmov -1, %%g6\n\tmov -1, %%g7\n\t"
		     "wr %%g0, -1, %%y\n\taddcc %%g0, 0, %%g0"
		     : : : "g1", "g2", "g3", "g4", "cc", "memory");
	trap_skip(tf);
	return 1;
}

static void test_trap_state(void)
{
	u32 buf[12];
	int i, bad = 0;

	trap_hook = trash_hook;
	/* %g5-%g7 are not the compiler's: saved and put back by hand. */
	asm volatile("st %%g5, [%0 + 40]\n\tst %%g6, [%0 + 44]\n\tst %%g7, [%0 + 0]\n\t"
		     "set 0x11111111, %%g1\n\tset 0x22222222, %%g2\n\t"
		     "set 0x33333333, %%g3\n\tset 0x44444444, %%g4\n\t"
		     "set 0x55555555, %%g5\n\tset 0x66666666, %%g6\n\t"
		     "set 0x77777777, %%g7\n\twr %%g0, 0x123, %%y\n\t"
		     "subcc %%g0, 1, %%g0\n\t"	/* N and C */
		     "ta 5\n\t"
		     "rd %%psr, %%g1\n\tst %%g1, [%0 + 36]\n\trd %%y, %%g1\n\tst %%g1, [%0 + 32]\n\t"
		     "st %%g2, [%0 + 8]\n\tst %%g3, [%0 + 12]\n\tst %%g4, [%0 + 16]\n\t"
		     "st %%g5, [%0 + 20]\n\tst %%g6, [%0 + 24]\n\tst %%g7, [%0 + 28]\n\t"
		     "ld [%0 + 0], %%g7\n\tld [%0 + 40], %%g5\n\tld [%0 + 44], %%g6"
		     : : "r"(buf) : "g1", "g2", "g3", "g4", "cc", "memory");
	trap_hook = 0;
	for (i = 2; i <= 7; i++)
		bad += buf[i] != 0x11111111u * i;
	ok(!bad, "a trap through C keeps %%g2-%%g7 (%d changed)", bad);
	is_u32(buf[8], 0x123, "... and %%y");
	is_u32((buf[9] >> 20) & 0xf, 0x9, "... and the condition codes (N, C)");
}

/* ------------------------------------------------------------------ */

static volatile unsigned int irq_calls[MAX_CPUS], irq_level[MAX_CPUS];
static volatile u32 irq_psr[MAX_CPUS];

void irq_handler(unsigned int level)
{
	unsigned int cpu = cpu_index();

	irq_calls[cpu]++;
	irq_level[cpu] = level;
	irq_psr[cpu] = rd_psr();
	/* Deeper than the windows, inside a handler. */
	if (window_sum(DEPTH) != DEPTH * (DEPTH + 1) / 2)
		irq_level[cpu] = 0xbad;
}

/* Force IRQ_LEVEL on this CPU through its IRQMP force register. */
static int force_irq_once(unsigned int cpu)
{
	irq_calls[cpu] = 0;
	mmio_write32(IRQMP_MASK(cpu), 1u << IRQ_LEVEL);
	mmio_write32(IRQMP_FORCE(cpu), 1u << IRQ_LEVEL);
	set_pil(0);
	wait_for(irq_calls[cpu], WAIT_IRQ);
	set_pil(15);
	mmio_write32(IRQMP_MASK(cpu), 0);
	return irq_calls[cpu];
}

static void test_irq(void)
{
	unsigned int calls;

	mmio_write32(IRQMP_MASK(0), 1u << IRQ_LEVEL);
	mmio_write32(IRQMP_FORCE(0), 1u << IRQ_LEVEL);
	wait_for(irq_calls[0], 1000);		/* it must not come */
	is_u32(irq_calls[0], 0, "forced interrupt held off by PIL 15");
	is_u32(mmio_read32(IRQMP_FORCE(0)), 1u << IRQ_LEVEL, "IRQMP force register shows it");
	mmio_write32(IRQMP_MASK(0), 0);
	mmio_write32(IRQMP_FORCE(0), (1u << IRQ_LEVEL) << 16);	/* force clear */
	is_u32(mmio_read32(IRQMP_FORCE(0)), 0, "force clear bits drop it");

	calls = force_irq_once(0);
	is_u32(calls, 1, "forced interrupt %u taken once", IRQ_LEVEL);
	is_u32(irq_level[0], IRQ_LEVEL, "irq_handler() gets the level");
	is_u32((irq_psr[0] & PSR_PIL) >> PSR_PIL_SHIFT, IRQ_LEVEL, "handler runs at PIL = level");
	ok(irq_psr[0] & PSR_S, "handler runs in supervisor mode");
	is_u32(mmio_read32(IRQMP_FORCE(0)), 0, "taking the interrupt acknowledged it (force bit clear)");
	is_u32(mmio_read32(IRQMP_PENDING) & 0xfffe, 0, "nothing pending afterwards");
	ok((rd_psr() & PSR_PIL) == PSR_PIL, "PIL restored after the handler");

	/* From user mode: interrupts and user mode mix. */
	irq_calls[0] = 0;
	mmio_write32(IRQMP_MASK(0), 1u << IRQ_LEVEL);
	set_pil(0);
	to_user();
	mmio_write32(IRQMP_FORCE(0), 1u << IRQ_LEVEL);
	wait_for(irq_calls[0], WAIT_IRQ);
	to_supervisor();
	set_pil(15);
	mmio_write32(IRQMP_MASK(0), 0);
	is_u32(irq_calls[0], 1, "interrupt taken in user mode");
	ok(rd_psr() & PSR_S, "supervisor again after it");
}

/*
 * A trap or an interrupt at each depth, so that it finds the invalid
 * window at every distance: the interrupted frames must come back whole.
 */
static unsigned int sum_trap_at_bottom(unsigned int n, int irq)
{
	unsigned int r;

	if (!n) {
		if (!irq) {
			asm volatile("ta 5" : : : "memory");
			return zero;
		}
		mmio_write32(IRQMP_FORCE(0), 1u << IRQ_LEVEL);
		set_pil(0);
		wait_for(irq_calls[0], WAIT_IRQ);
		set_pil(15);
		return zero;
	}
	r = sum_trap_at_bottom(n - 1, irq);
	return n + r + zero;
}

static void test_depths(void)
{
	unsigned int d, max = 2 * nwindows() + 2, bad_sum = 0, bad_irq = 0;
	unsigned int before = trap_count[TT_TICC(5)];

	for (d = 0; d <= max; d++)
		bad_sum += sum_trap_at_bottom(d, 0) != d * (d + 1) / 2;
	ok(!bad_sum, "ta 5 at depths 0-%u: frames intact (%u wrong)", max, bad_sum);
	is_u32(trap_count[TT_TICC(5)] - before, max + 1, "... and every ta counted");

	mmio_write32(IRQMP_MASK(0), 1u << IRQ_LEVEL);
	for (d = 0; d <= max; d++) {
		irq_calls[0] = 0;
		bad_sum += sum_trap_at_bottom(d, 1) != d * (d + 1) / 2;
		bad_irq += irq_calls[0] != 1;
	}
	mmio_write32(IRQMP_MASK(0), 0);
	ok(!bad_sum, "interrupts at depths 0-%u: frames intact (%u wrong)", max, bad_sum);
	ok(!bad_irq, "... one interrupt each time (%u wrong)", bad_irq);
}

/* ------------------------------------------------------------------ */

static volatile unsigned int alive[MAX_CPUS], sums[MAX_CPUS], irqs[MAX_CPUS];

void secondary_main(unsigned int cpu)
{
	alive[cpu] = cpu + 1;
	sums[cpu] = window_sum(DEPTH);
	irqs[cpu] = force_irq_once(cpu);
}

static void test_smp(void)
{
	unsigned int n = smp_ncpus(), cpu;

	if (n == 1) {
		skip("secondary CPUs start and run C", "1 CPU");
		return;
	}
	is_u32(mmio_read32(IRQMP_MPSTAT) & ((1u << n) - 2), (1u << n) - 2,
	       "secondary CPUs are powered down at reset (MP status)");
	for (cpu = 1; cpu < n; cpu++) {
		start_cpu(cpu);
		wait_for(irqs[cpu], WAIT_LONG);
		is_u32(alive[cpu], cpu + 1, "CPU %u started, knows its index", cpu);
		is_u32(sums[cpu], DEPTH * (DEPTH + 1) / 2, "CPU %u: deep recursion", cpu);
		is_u32(irqs[cpu], 1, "CPU %u: its own forced interrupt", cpu);
		ok(!(mmio_read32(IRQMP_MPSTAT) & (1u << cpu)), "CPU %u running (MP status)", cpu);
	}
}

static void test_timer(void)
{
	u32 t0 = time_us(), t1;
	int i;

	for (i = 0; i < 100000 && time_us() == t0; i++)
		;
	t1 = time_us();
	ok(t1 != t0, "time_us() advances (GPTIMER timer 0: %u -> %u)", t0, t1);
}

int main(void)
{
	u32 psr = rd_psr();

	diag("CPU %u of %u, %u windows, PSR 0x%08x", cpu_index(), smp_ncpus(),
	     nwindows(), psr);
	ok((psr & (PSR_S | PSR_ET | PSR_PIL)) == (PSR_S | PSR_ET | PSR_PIL),
	   "main() runs in supervisor mode, traps on, PIL 15");
	test_timer();
	test_windows("supervisor");
	test_user_mode();
	test_swtrap();
	test_trap_state();
	test_irq();
	test_depths();
	test_smp();
	return 0;
}
