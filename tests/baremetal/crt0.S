/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Start-up and trap handling for the bare-metal tests.
 *
 * QEMU's -kernel bootloader (leon3.c: write_bootloader) enters _start in
 * supervisor mode with traps off, on every CPU: CPU 0 at power-on, the
 * others when CPU 0 starts them through the IRQMP.  There is no MMU and no
 * other software: this file owns the trap table and the register windows.
 *
 * Register-window invariant (SPARC V8): exactly one window is invalid
 * (its WIM bit set).  It is the one a trap handler lands in when the
 * trapped code had no free window left, so handlers that call C must
 * first free the next window, and check before rett that the window they
 * return to is still resident.
 */

#define STACK_SIZE	16384		/* per CPU */
#define MAX_CPUS	4

#define PSR_ET		0x20
#define PSR_PS		0x40
#define PSR_S		0x80
#define PSR_PIL		0xf00

/*
 * Trap frame, below the trap window's own 96-byte C frame (64 bytes of
 * window save area, then the words the ABI reserves for the callee).
 * The layout is struct trap_frame in baremetal.h.
 */
#define TF_PSR		0
#define TF_PC		4
#define TF_NPC		8
#define TF_TT		12
#define TF_Y		16
#define TF_G		24		/* g[0..7], 8-aligned for std/ldd */
#define TF_SIZE		56
#define C_FRAME		96
#define TRAP_FRAME	(C_FRAME + TF_SIZE)	/* multiple of 8 */

/*
 * Every table entry: PSR in %l0 (the trap does not save it), tt in %l3.
 * The trap itself put pc/npc in %l1/%l2.
 */
	.macro	trap_entry handler, tt
	rd	%psr, %l0
	sethi	%hi(\handler), %l4
	jmp	%l4 + %lo(\handler)
	 mov	\tt, %l3
	.endm

	.section .text.traptable, "ax"
	.align	4096
	.global	trap_table
trap_table:
	.set	tt, 0
	.rept	256
	.if	tt == 0x05
	trap_entry window_overflow, tt
	.elseif	tt == 0x06
	trap_entry window_underflow, tt
	.elseif	tt >= 0x11 && tt <= 0x1f
	trap_entry trap_irq, tt
	.elseif	tt == 0x80 + 1			/* SWTRAP_TO_USER */
	trap_entry trap_to_user, tt
	.elseif	tt == 0x80 + 2			/* SWTRAP_TO_SUPER */
	trap_entry trap_to_super, tt
	.else
	trap_entry trap_generic, tt
	.endif
	.set	tt, tt + 1
	.endr

	.text

/*
 * %l6 = NWINDOWS - 1, from %asr17 rather than hard-wired, so the same
 * binary works whatever number of windows the CPU is configured with.
 */
	.macro	get_nwin_minus_1
	rd	%asr17, %l6
	and	%l6, 0x1f, %l6
	.endm

/*
 * Save the window after the current one (CWP - 1, the oldest resident
 * one) to its stack and make it the invalid window.  Clobbers %g1, %l5,
 * %l6; the caller keeps %g1.  WIM bits of unimplemented windows ignore
 * writes (V8 4.2), so the rotate needs no mask.
 */
	.macro	spill_next
	rd	%wim, %l5
	get_nwin_minus_1
	srl	%l5, 1, %g1
	sll	%l5, %l6, %l5
	or	%l5, %g1, %g1		! WIM rotated right by one
	save				! WIM is still the old one: allowed
	wr	%g1, 0, %wim
	nop
	nop
	nop
	std	%l0, [%sp + 0]
	std	%l2, [%sp + 8]
	std	%l4, [%sp + 16]
	std	%l6, [%sp + 24]
	std	%i0, [%sp + 32]
	std	%i2, [%sp + 40]
	std	%i4, [%sp + 48]
	std	%i6, [%sp + 56]
	restore
	.endm

/* Reload the current window's locals and ins from its stack. */
	.macro	fill_current
	ldd	[%sp + 0], %l0
	ldd	[%sp + 8], %l2
	ldd	[%sp + 16], %l4
	ldd	[%sp + 24], %l6
	ldd	[%sp + 32], %i0
	ldd	[%sp + 40], %i2
	ldd	[%sp + 48], %i4
	ldd	[%sp + 56], %i6
	.endm

/* %l5 = WIM rotated left by one (the next window up becomes invalid). */
	.macro	wim_rotate_left
	rd	%wim, %l4
	get_nwin_minus_1
	sll	%l4, 1, %l5
	srl	%l4, %l6, %l4
	or	%l5, %l4, %l5
	.endm

/* Per-CPU count of window traps, for tests (no condition codes touched). */
	.macro	count_window_trap counters
	rd	%asr17, %l4
	srl	%l4, 28, %l4
	sll	%l4, 2, %l4
	set	\counters, %l5
	ld	[%l5 + %l4], %l6
	inc	%l6
	st	%l6, [%l5 + %l4]
	.endm

/*
 * A save found CWP - 1 invalid.  We run in that window; spill the next
 * one and re-execute the save.  No condition codes are touched.
 */
window_overflow:
	mov	%g1, %l7
	count_window_trap window_overflows
	spill_next
	mov	%l7, %g1
	jmp	%l1
	 rett	%l2

/*
 * A restore at CWP c found c + 1 invalid; we run in c - 1.
 * Move the invalid window up by one, reload c + 1, and re-execute.
 */
window_underflow:
	count_window_trap window_underflows
	wim_rotate_left
	wr	%l5, 0, %wim
	nop
	nop
	nop
	restore				! c
	restore				! c + 1
	fill_current
	save
	save				! back in c - 1
	jmp	%l1
	 rett	%l2

/* Return to the instruction after the ta with PS clear: rett drops S. */
trap_to_user:
	andn	%l0, PSR_PS, %l0
	b	1f
	 nop
trap_to_super:
	or	%l0, PSR_PS, %l0
1:	wr	%l0, 0, %psr		! ET stays 0 until rett
	nop
	nop
	nop
	add	%l2, 4, %l3
	jmp	%l2
	 rett	%l3

/*
 * Traps that run C.  Common part: make a free window for C, build the
 * trap frame below the trapped code's %sp (the trap window's %fp: the
 * SPARC ABI keeps nothing below %sp), then let the caller enable traps.
 */
	.macro	enter_c
	rd	%wim, %l5
	and	%l0, 0x1f, %l6		! CWP
	srl	%l5, %l6, %l5
	btst	1, %l5
	be	1f			! not the invalid window: next one is free
	 mov	%g1, %l7
	spill_next
1:	mov	%l7, %g1
	sub	%fp, TRAP_FRAME, %sp
	add	%sp, C_FRAME, %l7	! %l7 = trap frame from here on
	st	%l0, [%l7 + TF_PSR]
	st	%l1, [%l7 + TF_PC]
	st	%l2, [%l7 + TF_NPC]
	st	%l3, [%l7 + TF_TT]
	rd	%y, %l5
	st	%l5, [%l7 + TF_Y]
	st	%g1, [%l7 + TF_G + 4]
	std	%g2, [%l7 + TF_G + 8]
	std	%g4, [%l7 + TF_G + 16]
	std	%g6, [%l7 + TF_G + 24]
	.endm

trap_irq:
	enter_c
	and	%l3, 0xf, %o0		! interrupt level
	andn	%l0, PSR_PIL, %l5
	sll	%o0, 8, %l6
	or	%l5, %l6, %l5
	wr	%l5, PSR_ET, %psr	! PIL = level, traps on (wr xors)
	nop
	nop
	nop
	call	irq_handler
	 nop
	b	leave_c
	 nop

trap_generic:
	enter_c
	or	%l0, PSR_PIL, %l5
	wr	%l5, PSR_ET, %psr	! traps on for window traps, PIL 15
	nop
	nop
	nop
	call	trap_dispatch
	 mov	%l7, %o0
	/* fall through */

/*
 * Traps off again before looking at WIM, so nothing moves it under us.
 * If C's window traps left the window we return to (CWP + 1) spilled,
 * reload it now: rett would take an underflow trap with ET = 0, which is
 * error mode.  The final PSR write restores the trapped code's icc
 * (btst above clobbers them) and PIL.
 */
leave_c:
	wr	%l0, 0, %psr
	nop
	nop
	nop
	rd	%wim, %l4
	get_nwin_minus_1
	srl	%l4, 1, %l5
	sll	%l4, %l6, %l4
	or	%l4, %l5, %l4		! WIM rotated right: bit CWP = window CWP+1
	and	%l0, 0x1f, %l6
	srl	%l4, %l6, %l4
	btst	1, %l4
	be	2f
	 nop
	wim_rotate_left
	wr	%l5, 0, %wim
	nop
	nop
	nop
	restore
	fill_current
	save
2:	ld	[%l7 + TF_Y], %l5
	wr	%l5, 0, %y
	ld	[%l7 + TF_G + 4], %g1
	ldd	[%l7 + TF_G + 8], %g2
	ldd	[%l7 + TF_G + 16], %g4
	ldd	[%l7 + TF_G + 24], %g6
	ld	[%l7 + TF_PC], %l1
	ld	[%l7 + TF_NPC], %l2
	wr	%l0, 0, %psr
	nop
	nop
	nop
	jmp	%l1
	 rett	%l2

/*
 * Reset entry for every CPU.  Window 1 invalid with CWP 0: the first
 * restore past _start's frame would underflow, and saves go 7, 6, ...
 */
	.section .text.start, "ax"
	.global	_start
_start:
	wr	%g0, PSR_S | PSR_PS | PSR_PIL, %psr
	nop
	nop
	nop
	wr	%g0, 2, %wim
	set	trap_table, %g1
	wr	%g1, 0, %tbr
	wr	%g0, 0, %y
	rd	%asr17, %g2
	srl	%g2, 28, %g2			! CPU index
	cmp	%g2, MAX_CPUS
	bgeu	park				! no stack for it
	 nop
	set	stacks + STACK_SIZE - C_FRAME, %sp
	sll	%g2, 14, %g3			! STACK_SIZE == 1 << 14
	add	%sp, %g3, %sp
	mov	%g0, %fp
	tst	%g2
	bne	1f
	 nop

	/* CPU 0 only: the others start after main() has run a while. */
	set	__bss_start, %g3
	set	__bss_end, %g4
2:	cmp	%g3, %g4
	bgeu	3f
	 nop
	st	%g0, [%g3]
	b	2b
	 add	%g3, 4, %g3
3:
	/* Traps on (window traps from here), interrupts masked by PIL. */
	wr	%g0, PSR_S | PSR_PS | PSR_PIL | PSR_ET, %psr
	nop
	nop
	nop
	call	bm_start			! does not return
	 nop
	b	halt
	 nop

1:	wr	%g0, PSR_S | PSR_PS | PSR_PIL | PSR_ET, %psr
	nop
	nop
	nop
	call	bm_secondary			! does not return
	 mov	%g2, %o0
park:
	wr	%g0, %asr19			! power down, for good: ET is 0
	b	park
	 nop

/*
 * halt(): traps off, then "ta 0", which QEMU's LEON3 turns into a
 * power-off when traps are disabled (on hardware: error mode, a stop).
 */
	.text
	.global	halt
halt:
	rd	%psr, %o0
	andn	%o0, PSR_ET, %o0
	wr	%o0, 0, %psr
	nop
	nop
	nop
	ta	0
	b	halt
	 nop

	.section .bss
	.align	4
	.global	window_overflows, window_underflows
window_overflows:
	.skip	4 * MAX_CPUS
window_underflows:
	.skip	4 * MAX_CPUS

	.section .stack, "aw", @nobits
	.align	8
stacks:
	.skip	STACK_SIZE * MAX_CPUS

	.section .note.GNU-stack, "", @progbits
