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
 * wsweep(...): as rsweep, with st instead of ldub.
 * bsweep(...): as rsweep, with lda [base + i] 0x1c (MMU/cache bypass).
 * spin_until(gctrl, en, timer, deadline, u32 *k): GCTRL = en; mov; loops until
 *   the down-counting timer passes deadline; GCTRL = 0; *k = iterations.
 *   Per iteration ld, subcc, bcs, add, and ba, nop when it goes round
 *   again: 6k - 1 instructions, k loads, 2k - 1 branches, k taken.
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
