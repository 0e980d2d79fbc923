/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LEON3 PROM entry: every CPU starts here, at physical 0, with the MMU
 * off.  The code is linked at PROM_ROM_VA but runs at physical 0 until
 * the MMU is on, so everything before the jump to the linked address
 * uses only constants and PC-relative branches.
 *
 * CPU 0 builds the page tables (in the RAM the kernel keeps reserved),
 * then every CPU turns the MMU on with them and continues at its linked
 * address: CPU 0 in prom_boot(), the others (started later by Linux
 * through the IRQMP) in prom_secondary().
 */
#include "prom.h"

#define PA(off)		(PROM_RAM_PA + (off))

/* st_pte TABLE_OFF, INDEX, VALUE: one page-table word, MMU bypassed */
	.macro	st_pte table, index, value
	set	PA(\table) + 4 * (\index), %o0
	set	\value, %o1
	sta	%o1, [%o0] ASI_LEON_BYPASS
	.endm

	.section .text.start, "ax"
	.global	_start
_start:
	/* Supervisor, traps off, all interrupts masked, window 0. */
	wr	%g0, PSR_S | PSR_PS | PSR_PIL, %psr
	nop; nop; nop
	wr	%g0, 2, %wim
	wr	%g0, 0, %y
	rd	%asr17, %g1
	srl	%g1, 28, %g1			! %g1 = CPU index
	cmp	%g1, 0
	bne	mmu_on
	 nop

	/* CPU 0: clear, then fill the page tables. */
	set	PA(0), %o0
	set	PA(MMU_SIZE), %o2
1:	sta	%g0, [%o0] ASI_LEON_BYPASS
	add	%o0, 4, %o0
	cmp	%o0, %o2
	bne	1b
	 nop
	st_pte	MMU_CTX_OFF, 0, (PA(MMU_L1_OFF) >> 4) | SRMMU_ET_PTD
	/* 16 MiB at 0: the ROM, identity, for the instructions below. */
	st_pte	MMU_L1_OFF, 0x00, (0x00000000 >> 4) | SRMMU_PTE_FLAGS
	/* KERNBASE: the kernel's initial mapping, 64 MiB of RAM. */
	st_pte	MMU_L1_OFF, 0xF0, ((PROM_RAM_PA + (0 << 24)) >> 4) | SRMMU_PTE_FLAGS
	st_pte	MMU_L1_OFF, 0xF1, ((PROM_RAM_PA + (1 << 24)) >> 4) | SRMMU_PTE_FLAGS
	st_pte	MMU_L1_OFF, 0xF2, ((PROM_RAM_PA + (2 << 24)) >> 4) | SRMMU_PTE_FLAGS
	st_pte	MMU_L1_OFF, 0xF3, ((PROM_RAM_PA + (3 << 24)) >> 4) | SRMMU_PTE_FLAGS
	/* 0xFF000000: a level-2 table for the PROM window. */
	st_pte	MMU_L1_OFF, 0xFF, (PA(MMU_L2_OFF) >> 4) | SRMMU_ET_PTD
	/* 0xFFD00000: 256 KiB of ROM (the PROM's code). */
	st_pte	MMU_L2_OFF, (PROM_ROM_VA >> 18) & 0x3f, (0x00000000 >> 4) | SRMMU_PTE_FLAGS
	/* 0xFFE00000: 4 KiB pages of the PROM's 16 KiB of RAM. */
	st_pte	MMU_L2_OFF, (PROM_RAM_VA >> 18) & 0x3f, (PA(MMU_L3_OFF) >> 4) | SRMMU_ET_PTD
	st_pte	MMU_L3_OFF, 0, (PA(0x0000) >> 4) | SRMMU_PTE_FLAGS
	st_pte	MMU_L3_OFF, 1, (PA(0x1000) >> 4) | SRMMU_PTE_FLAGS
	st_pte	MMU_L3_OFF, 2, (PA(0x2000) >> 4) | SRMMU_PTE_FLAGS
	st_pte	MMU_L3_OFF, 3, (PA(0x3000) >> 4) | SRMMU_PTE_FLAGS

mmu_on:
	set	MMU_CTXTBL, %o0
	set	PA(MMU_CTX_OFF) >> 4, %o1
	sta	%o1, [%o0] ASI_LEON_MMUREGS
	set	MMU_CTX, %o0
	sta	%g0, [%o0] ASI_LEON_MMUREGS
	lda	[%g0] ASI_LEON_MMUREGS, %o1
	or	%o1, 1, %o1
	sta	%o1, [%g0] ASI_LEON_MMUREGS
	nop; nop; nop

	/* Now at the linked addresses: a stack per CPU, then C. */
	set	prom_stacks + PROM_STACK_SIZE - 96, %sp
	sll	%g1, 10, %o1			! PROM_STACK_SIZE == 1 << 10
	add	%sp, %o1, %sp
	mov	%g0, %fp
	cmp	%g1, 0
	bne	2f
	 mov	%g1, %o0
	set	prom_boot, %o1
	jmp	%o1
	 nop
2:	set	prom_secondary, %o1
	jmp	%o1
	 nop

	.text

/* enter_kernel(entry, romvec, sp): jump to the kernel, traps still off */
	.global	enter_kernel
enter_kernel:
	mov	%o2, %sp
	mov	%g0, %fp
	set	KERNEL_VA, %o3			! the kernel's own trap table
	wr	%o3, 0, %tbr
	nop; nop; nop
	mov	%o0, %g1
	mov	%o1, %o0
	jmp	%g1
	 mov	%g0, %o1

/* prom_halt(): traps off, then "ta 0", which makes QEMU power off. */
	.global	prom_halt
prom_halt:
	rd	%psr, %o0
	andn	%o0, PSR_ET, %o0
	wr	%o0, 0, %psr
	nop; nop; nop
	ta	0
	b	prom_halt
	 nop

/* u32 bypass_ld(u32 pa) / void bypass_st(u32 pa, u32 val) */
	.global	bypass_ld, bypass_st
bypass_ld:
	retl
	 lda	[%o0] ASI_LEON_BYPASS, %o0
bypass_st:
	retl
	 sta	%o1, [%o0] ASI_LEON_BYPASS

/* u32 sysctrl_ld(u32 addr) / void sysctrl_st(u32 addr, u32 val): ASI 0x02 */
	.global	sysctrl_ld, sysctrl_st
sysctrl_ld:
	retl
	 lda	[%o0] ASI_LEON_SYSCTRL, %o0
sysctrl_st:
	sta	%o1, [%o0] ASI_LEON_SYSCTRL
	retl
	 nop

	.section .mmu, "aw", @nobits
	.skip	MMU_SIZE

	.section .stack, "aw", @nobits
	.global	prom_stacks
prom_stacks:
	.skip	PROM_STACK_SIZE * PROM_MAX_CPUS

	.section .note.GNU-stack, "", @progbits
