// SPDX-License-Identifier: GPL-2.0
/*
 * An interrupt one CPU forces on another (an IPI, as Linux's cross calls
 * send them) is answered before the sender has spun long.  Under -icount
 * QEMU runs the CPUs in turn on one thread; a sender that waits for the
 * answer used to spin until its turn ended, at the next timer deadline
 * (a third of the time of a 2-CPU Linux boot on a LEON3's clock went
 * there).  The IRQMP now ends the sender's turn.
 *
 * qemu-args: -smp 2 -icount shift=5,sleep=off
 */
#include "baremetal.h"

#define IRQ_LEVEL	10
#define ROUNDS		50
#define MAX_SPINS	10	/* a spin is a few instructions */

static volatile unsigned int answered, ready, stop;

void irq_handler(unsigned int level)
{
	if (cpu_index() == 1 && level == IRQ_LEVEL)
		answered++;
}

void secondary_main(unsigned int cpu)
{
	mmio_write32(IRQMP_MASK(cpu), 1u << IRQ_LEVEL);
	set_pil(0);
	ready = 1;
	while (!stop)
		;
	set_pil(15);
	mmio_write32(IRQMP_MASK(cpu), 0);
}

int main(void)
{
	unsigned int round, spins, most = 0, lost = 0;

	if (smp_ncpus() < 2) {
		skip("IPIs answered at once", "1 CPU");
		return 0;
	}
	start_cpu(1);
	if (!ok(wait_for(ready, WAIT_LONG), "CPU 1 waits for interrupts"))
		return 0;
	for (round = 0; round < ROUNDS; round++) {
		unsigned int want = answered + 1;

		spins = 0;
		mmio_write32(IRQMP_FORCE(1), 1u << IRQ_LEVEL);
		while (answered != want && spins < 100000000)
			spins++;
		lost += answered != want;
		if (spins > most)
			most = spins;
	}
	stop = 1;
	is_u32(lost, 0, "each of %u IPIs to CPU 1 is answered", ROUNDS);
	ok(most <= MAX_SPINS, "the sender spins at most %u times for an answer (most: %u)",
	   MAX_SPINS, most);
	return 0;
}
