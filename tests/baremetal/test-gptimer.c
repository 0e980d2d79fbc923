// SPDX-License-Identifier: GPL-2.0
/*
 * The GPTIMER's control register.  LD (load now) is an action and reads
 * as 0, and a periodic timer whose interrupt is cleared goes on counting:
 * Linux clears its tick's interrupt by writing back what it read, and a
 * QEMU that reloaded the counter there lengthened every tick by the time
 * the kernel took to clear it (and, under -icount, ended the CPU's turn
 * inside the tick, with a lock held that the other CPUs then spun on).
 *
 * qemu-args:
 * qemu-args: -icount shift=5,sleep=off
 */
#include "baremetal.h"

#define T		1		/* timer 0 is time_us()'s */
#define PERIOD		20000		/* us */

int main(void)
{
	u32 ctrl, before, after;

	mmio_write32(GPT_RELOAD(T), PERIOD - 1);
	mmio_write32(GPT_CTRL(T), GPT_CTRL_EN | GPT_CTRL_RS | GPT_CTRL_LD | GPT_CTRL_IE);
	ctrl = mmio_read32(GPT_CTRL(T));
	is_u32(ctrl & (GPT_CTRL_EN | GPT_CTRL_RS | GPT_CTRL_LD | GPT_CTRL_IE),
	       GPT_CTRL_EN | GPT_CTRL_RS | GPT_CTRL_IE,
	       "control register: EN, RS and IE as written, LD reads as 0 (0x%x)", ctrl);

	ok(wait_for(mmio_read32(GPT_CTRL(T)) & GPT_CTRL_IP, 3 * PERIOD),
	   "the periodic timer underflows and sets IP");
	/* well into the next period, so that a reload would show */
	ok(wait_for(mmio_read32(GPT_COUNTER(T)) < PERIOD / 2, PERIOD),
	   "... and counts down again from its reload value");
	ctrl = mmio_read32(GPT_CTRL(T));
	before = mmio_read32(GPT_COUNTER(T));
	mmio_write32(GPT_CTRL(T), ctrl);	/* IP written as 1 clears it */
	after = mmio_read32(GPT_COUNTER(T));
	is_u32(mmio_read32(GPT_CTRL(T)) & GPT_CTRL_IP, 0,
	       "writing back the control register with IP set clears IP");
	ok(after <= before,
	   "... and the counter goes on counting down: %u, then %u (reload %u)",
	   before, after, PERIOD - 1);

	mmio_write32(GPT_CTRL(T), GPT_CTRL_IP);	/* stop it, IP cleared */
	mmio_write32(IRQMP_CLEAR, 1u << 7);	/* timer 1's IRQ, never unmasked */
	return 0;
}
