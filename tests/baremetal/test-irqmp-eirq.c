// SPDX-License-Identifier: GPL-2.0
/*
 * IRQMP extended interrupts (Documentation/pmu-registers.md, "Interrupt delivery"; GRLIB IRQMP): the
 * registers only.  Extended interrupts cannot be forced (the force
 * registers cover levels 15:1), so their delivery is tested with the
 * PMU's overflow interrupt, which raises one.
 *
 * qemu-args:
 * qemu-args: -smp 2
 */
#include "baremetal.h"

#define EXT_BITS	0xffff0000u

int main(void)
{
	unsigned int n = smp_ncpus(), cpu;
	u32 mpstat = mmio_read32(IRQMP_MPSTAT);

	diag("MP status 0x%08x, %u CPU(s)", mpstat, n);
	is_u32((mpstat >> 16) & 0xf, EIRQ, "MP status bits 19:16 report EIRQ %u", EIRQ);
	is_u32(mpstat >> 28, n - 1, "MP status bits 31:28 report the CPU count (unchanged)");

	/* Reset state. */
	is_u32(mmio_read32(IRQMP_PENDING) & EXT_BITS, 0,
	       "no extended interrupt pending at reset (pending 31:16)");
	for (cpu = 0; cpu < n; cpu++) {
		is_u32(mmio_read32(IRQMP_MASK(cpu)) & EXT_BITS, 0,
		       "CPU %u: extended interrupts masked at reset (mask 31:16)", cpu);
		is_u32(mmio_read32(IRQMP_EXTACK(cpu)), 0,
		       "CPU %u: extended acknowledge register reads 0 at reset", cpu);
	}

	/* Mask bits 31:16 are plain storage, per CPU. */
	for (cpu = 0; cpu < n; cpu++) {
		mmio_write32(IRQMP_MASK(cpu), EXT_BITS);
		is_u32(mmio_read32(IRQMP_MASK(cpu)), EXT_BITS,
		       "CPU %u: mask bits 31:16 all writable", cpu);
		mmio_write32(IRQMP_MASK(cpu), 0x5aa50000 | (1u << EIRQ));
		is_u32(mmio_read32(IRQMP_MASK(cpu)), 0x5aa50000 | (1u << EIRQ),
		       "CPU %u: mask 31:16 keep a pattern, next to the EIRQ bit", cpu);
		if (cpu + 1 < n)
			is_u32(mmio_read32(IRQMP_MASK(cpu + 1)) & EXT_BITS, 0,
			       "CPU %u: another CPU's mask untouched", cpu + 1);
		mmio_write32(IRQMP_MASK(cpu), 0);
		is_u32(mmio_read32(IRQMP_MASK(cpu)), 0, "CPU %u: mask cleared again", cpu);
	}

	/* The clear register takes extended bits; nothing to clear yet. */
	mmio_write32(IRQMP_CLEAR, EXT_BITS);
	is_u32(mmio_read32(IRQMP_PENDING) & EXT_BITS, 0,
	       "clear register accepts bits 31:16 (pending still 0)");
	is_u32(mmio_read32(IRQMP_EXTACK(0)), 0,
	       "extended acknowledge still 0 (no extended interrupt taken)");

	diag("delivery, EID latch and acknowledge: in the PMU tests (the only source)");
	return 0;
}
