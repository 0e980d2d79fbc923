/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measured loops shared by the PMU tests (declared in pmu.h).  Leaf
 * routines without a stack: the first store starts the counters, the
 * last one stops them (neither is counted), so the counts in between
 * are those of the loop alone and can be worked out from it.
 *
 * rsweep(gctrl, en, base, bytes, stride): GCTRL = en; mov; ldub from
 *   base + i, i += stride, while i < bytes; GCTRL = 0.  Its loop body:
 *   rsweep_body to rsweep_last, for address ranges.
 * rsweep2(...): the same sweep once uncounted first, then rsweep.
 * dtlb_reorder(gctrl, en, base, n): counted, a load from each of n pages
 *   at base (page k at offset 16k: distinct sets and filter slots), page 0
 *   again, page n, then page 0 at another line (offset 2048).
 * dtlb_walk(gctrl, en, base, list, n): the TLBs flushed, then counted,
 *   for each of the n words w of list: ld w; if w >> 24 is not the
 *   current MMU context (0 at the start), switch to it; ldub from
 *   base + (w & 0xffffff).  Back to context 0, uncounted.
 * itlb_reorder(gctrl, en, n): counted, with the TLBs flushed: calls to
 *   n - 1 routines on pages of their own (itlb_page, from page 1), the
 *   first again, the one on page n, then another on the first's page.
 *   Every call returns to a line of its own.
 * wsweep(...): as rsweep, with st instead of ldub.
 * bsweep(...): as rsweep, with lda [base + i] 0x1c (MMU/cache bypass).
 * spin_until(gctrl, en, timer, deadline, u32 *k): GCTRL = en; mov; loops until
 *   the down-counting timer passes deadline; GCTRL = 0; *k = iterations.
 *   Per iteration ld, subcc, bcs, add, and ba, nop when it goes round
 *   again: 6k - 1 instructions, k loads, 2k - 1 branches, k taken.
 * icsweep(): not counted by itself: 16 KiB of straight code, at least 4
 *   lines in each set of an I-cache of at most 4 KiB a way: with LRU or
 *   LRR, what it leaves in a set of up to 4 ways is its own lines.
 * nopblock(): not counted by itself: line-aligned straight code, 254
 *   nops, retl and its delay slot: 256 instructions, 1 KiB, 1024 / line
 *   I-cache lines, no data access.
 */
	.text

	.global	rsweep, rsweep_body, rsweep_last
rsweep:
	sta	%o1, [%o0] 2
	mov	0, %g1
rsweep_body:
1:	ldub	[%o2 + %g1], %o5
	add	%g1, %o4, %g1
	cmp	%g1, %o3
	bl	1b
rsweep_last:
	 nop
	sta	%g0, [%o0] 2
	retl
	 nop

	.global	rsweep2
rsweep2:
	mov	0, %g1
1:	ldub	[%o2 + %g1], %o5
	add	%g1, %o4, %g1
	cmp	%g1, %o3
	bl	1b
	 nop
	ba	rsweep
	 nop

	.global	wsweep
wsweep:
	sta	%o1, [%o0] 2
	mov	0, %g1
1:	st	%g1, [%o2 + %g1]
	add	%g1, %o4, %g1
	cmp	%g1, %o3
	bl	1b
	 nop
	sta	%g0, [%o0] 2
	retl
	 nop

	.global	bsweep
bsweep:
	sta	%o1, [%o0] 2
	mov	0, %g1
	add	%o2, %g1, %o5
1:	lda	[%o5] 0x1c, %g0
	add	%g1, %o4, %g1
	cmp	%g1, %o3
	bl	1b
	 add	%o2, %g1, %o5
	sta	%g0, [%o0] 2
	retl
	 nop

	.global	spin_until
spin_until:
	sta	%o1, [%o0] 2
	mov	0, %g2
1:	ld	[%o2], %g1
	subcc	%g1, %o3, %g0
	bcs	2f
	 add	%g2, 1, %g2
	ba	1b
	 nop
2:	sta	%g0, [%o0] 2
	retl
	 st	%g2, [%o4]

	.global	dtlb_reorder
dtlb_reorder:
	set	4112, %g3		! a page and a line
	smul	%o3, %g3, %g2		! page n at offset 16n
	sta	%o1, [%o0] 2
	mov	0, %g1
1:	ldub	[%o2 + %g1], %o5
	add	%g1, %g3, %g1
	cmp	%g1, %g2
	bl	1b
	 nop
	ldub	[%o2], %o5		! page 0: the TLB's most recent again
	ldub	[%o2 + %g2], %o5	! page n: a miss, which evicts page 1
	ldub	[%o2 + 2048], %o5	! page 0 at a new line: still there
	sta	%g0, [%o0] 2
	retl
	 nop

	.global	dtlb_walk
dtlb_walk:
	set	0x400, %g1
	sta	%g0, [%g1] 0x18		! flush the TLBs
	mov	0x200, %g3		! the MMU's context register
	mov	0, %g4			! the context now
	sethi	%hi(0xffffff), %g5
	or	%g5, %lo(0xffffff), %g5
	sta	%o1, [%o0] 2
1:	ld	[%o3], %g1
	srl	%g1, 24, %g2
	cmp	%g2, %g4
	be	2f
	 and	%g1, %g5, %g1
	sta	%g2, [%g3] 0x19
	mov	%g2, %g4
2:	ldub	[%o2 + %g1], %o5
	subcc	%o4, 1, %o4
	bne	1b
	 add	%o3, 4, %o3
	sta	%g0, [%o0] 2
	retl
	 sta	%g0, [%g3] 0x19

/*
 * itlb_reorder and the routines it calls, each on a page of its own: the
 * I-TLB sees a page when a call or a return first fetches from one of
 * its lines.  Each call ends a 32-byte block, so that it returns to a
 * line (of 16 or 32 bytes) that no fetch has noted yet.  No save: a
 * window overflow would fetch from the trap table's page.
 */
#define ITLB_CALL(target)	\
	.balign	32;		\
	.rept	6;		\
	nop;			\
	.endr;			\
	call	target;		\
	 nop

	.section .text.itlb, "ax"
	.balign	4096
	.global	itlb_reorder
itlb_reorder:
	mov	%o7, %g4
	set	itlb_pages + 32 * 32, %o3	! page 0's routine, 32-byte line 32
	set	4096 + 32, %o4			! the next page's, a line on
	mov	1, %o5
	set	0x400, %g1
	sta	%o1, [%o0] 2
	sta	%g0, [%g1] 0x18		! flush the TLBs: this page misses next
3:	ITLB_CALL(%o3)			! pages 0 to n - 2
	add	%o3, %o4, %o3
	add	%o5, 1, %o5
	cmp	%o5, %o2
	bl	3b
	 nop
	set	itlb_pages + 32 * 32, %g2
	ITLB_CALL(%g2)			! page 0 again: the TLB's most recent
	ITLB_CALL(%o3)			! page n - 1: a miss, which evicts page 1
	set	itlb_pages + 60 * 32, %g2
	ITLB_CALL(%g2)			! page 0 at a new line: still there
	sta	%g0, [%o0] 2
	jmp	%g4 + 8
	 nop

/*
 * Page k's routine at 32-byte line 32 + k, page 0's second one at line
 * 60: distinct sets and filter slots for lines of 16 or 32 bytes.
 */
	.balign	4096
itlb_pages:
	.irp	k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
	.balign	4096
	.skip	(32 + \k) * 32
	retl
	 nop
	.if	\k == 0
	.balign	32
	.skip	(60 - 33) * 32
	retl
	 nop
	.endif
	.endr

	.balign	64
	.global	nopblock
nopblock:
	.rept	254
	nop
	.endr
	retl
	 nop

	.balign	64
	.global	icsweep
icsweep:
	.rept	4094
	nop
	.endr
	retl
	 nop
