// SPDX-License-Identifier: GPL-2.0
/*
 * The LEON3 PMU's registers in ASI 0x02 (Documentation/pmu-registers.md;
 * tests/host/register-map.t holds these to it).
 */
#ifndef PMU_H
#define PMU_H

#include "baremetal.h"

#define PMU_NEV		6		/* event counters */

#define PMU_GCTRL	0xc0
#define PMU_OVF		0xc4
#define PMU_CYCCNT	0xc8
#define PMU_CYCCTRL	0xcc
#define PMU_EVCNT(i)	(0xd0 + 8 * (i))
#define PMU_EVCTRL(i)	(0xd4 + 8 * (i))
#define PMU_CORE_FIRST	0xc0		/* the core registers: GCTRL .. EVCTRL[5] */
#define PMU_CORE_LAST	0xfc
/* address ranges (AF): c = 0 the cycle counter, 1 + i event counter i */
#define PMU_RANGE_LO(c)	(0x140 + 8 * (c))
#define PMU_RANGE_HI(c)	(0x144 + 8 * (c))
#define PMU_FEATURES	0x100		/* read-only */
#define PMU_IRQLINE	0x104		/* read-only: 4:0 the IRQMP extended interrupt */
#define PMU_PID		0x108		/* the running task's PID */
#define PMU_UWIN	0x118		/* the user window: its address, EN */
#define UWIN_EN		(1u << 0)
#define UWIN_BASE	0xfffff000u	/* read-only: the window's page, 0 if none */
#define FEAT_UWIN	(1u << 9)	/* the user window and UWIN */
#define UWIN_WINDOW	0x80100000u	/* where leon3_generic maps the window */
/* PID match: c = 0 the cycle counter, 1 + i event counter i */
#define PMU_PIDMATCH(c)	(0x120 + 4 * (c))
#define FEAT_SHADOW	(1u << 4)	/* shadow D-caches and DSHADOW */
/* shadow D-cache k's geometry, in the ASI2_DCFG format below; 0: none */
#define PMU_NSHADOW	4
#define PMU_DSHADOW(k)	(0x180 + 4 * (k))
#define FEAT_MEMTIME	(1u << 5)	/* the write buffer's timing and MEMTIME */
/* the timing model's memory properties, read-only */
#define PMU_MEMTIME	0x190
#define MEMTIME_WRITE(m)	((m) & 0xff)		/* pmu-mem-write */
#define MEMTIME_BURST(m)	(((m) >> 8) & 0x1f)	/* pmu-mem-burst */
#define MEMTIME_WBUF(m)	(((m) >> 13) & 7)	/* pmu-write-buffer */
#define MEMTIME_LAT(m)	(((m) >> 16) & 0x3ff)	/* pmu-mem-latency */
#define FEAT_TRACE	(1u << 6)	/* the trace unit and its TR* registers */
#define FEAT_BRANCH	(1u << 7)	/* ... and its branch mode, TRCTRL.BR */
#define FEAT_ISHADOW	(1u << 8)	/* shadow I-caches and ISHADOW */
/* shadow I-cache k's geometry, in the ASI2_ICFG format below; 0: none */
#define PMU_ISHADOW(k)	(0x1c8 + 4 * (k))
/* the trace unit */
#define PMU_TRCTRL	0x1a0
#define PMU_TRPID	0x1a4
#define PMU_TRTABLE	0x1a8
#define PMU_TRPAGES	0x1ac
#define PMU_TRHEAD	0x1b0
#define PMU_TRLIMIT	0x1b4
#define PMU_TRWMARK	0x1b8
#define PMU_TRLOST	0x1bc		/* read-only */
#define PMU_TRTIME_HI	0x1c0
#define PMU_TRTIME_LO	0x1c4
#define TRACE_EN	(1u << 0)
#define TRACE_SU	(1u << 1)
#define TRACE_NU	(1u << 2)
#define TRACE_PF	(1u << 3)
#define TRACE_PIDREC	(1u << 4)
#define TRACE_OVFREC	(1u << 5)
#define TRACE_IRQEN	(1u << 6)
#define TRACE_CLR	(1u << 7)	/* action */
#define TRACE_FULL	(1u << 8)	/* read-only */
#define TRACE_ERR	(1u << 9)	/* read-only */
#define TRACE_IC	(1u << 10)	/* the clock counts instructions */
#define TRACE_BR	(1u << 11)	/* branches, not tags */
/* trace records: 4 words; type 31:28, CPU 27:24 and A 21:0; B; C; time 31:0 */
#define REC_TAG		1
#define REC_REPEAT	2
#define REC_START	3
#define REC_PID		4
#define REC_OVERFLOW	5
#define REC_LOST	6
#define REC_STOP	7
#define REC_TIME	8
#define REC_SYNC	9		/* software's, never the unit's */
#define REC_BRANCH	10
#define REC_TARGET	11
#define REC_FLOW	12
#define FLOW_LEAVE	0		/* a FLOW record's A */
#define FLOW_ENTER	1

/* GCTRL */
#define GCTRL_EN	(1u << 0)
#define GCTRL_RST	(1u << 1)	/* action: clears the event counters */
#define GCTRL_CRST	(1u << 2)	/* action: clears the cycle counter */
#define GCTRL_NCNT_SHIFT 3		/* 7:3, read-only */
#define GCTRL_NCNT	(0x1fu << GCTRL_NCNT_SHIFT)
#define GCTRL_IRQCLR	(1u << 31)	/* action */

/* OVF: bit 0 cycle counter, bit 1 + i event counter i, 31 IRQ pending */
#define OVF_CYC		(1u << 0)
#define OVF_EV(i)	(1u << (1 + (i)))
#define OVF_TRACE	(1u << 7)	/* the trace unit's watermark, or it stopped */
#define OVF_IRQ		(1u << 31)

/* CYCCTRL and EVCTRL */
#define CTRL_EVENT	0xffu		/* EVCTRL only */
#define CTRL_EN		(1u << 8)
#define CTRL_CLR	(1u << 9)	/* action */
#define CTRL_SU		(1u << 10)
#define CTRL_IRQEN	(1u << 11)
#define CTRL_NU		(1u << 12)
#define CTRL_PF		(1u << 13)
#define CTRL_AF		(1u << 14)

/* ASI 0x02 cache configuration registers (GRLIB LEON3, Linux asm/leon.h) */
#define ASI2_CCTRL	0x00
#define ASI2_ICFG	0x08
#define ASI2_DCFG	0x0c
#define CFG_REPL(c)	(((c) >> 28) & 3)	/* 0 one way, 1 LRU, 2 LRR, 3 random */
#define CFG_SNOOP	(1u << 27)
#define CFG_SETS(c)	(((c) >> 24) & 7)	/* ways - 1 */
#define CFG_SSIZE(c)	(((c) >> 20) & 0xf)	/* way size: 1 KiB << n */
#define CFG_LSIZE(c)	(((c) >> 16) & 7)	/* line: 1 word << n */

/* Measured loops (loops.S): counters started and stopped by GCTRL */
void rsweep(u32 gctrl, u32 en, void *base, u32 bytes, u32 stride);
extern char rsweep_body[], rsweep_last[];
void rsweep2(u32 gctrl, u32 en, void *base, u32 bytes, u32 stride);
void wsweep(u32 gctrl, u32 en, void *base, u32 bytes, u32 stride);
void bsweep(u32 gctrl, u32 en, void *base, u32 bytes, u32 stride);
void dtlb_reorder(u32 gctrl, u32 en, void *base, u32 n);
void dtlb_walk(u32 gctrl, u32 en, void *base, const u32 *list, u32 n);
void itlb_reorder(u32 gctrl, u32 en, u32 n);
void spin_until(u32 gctrl, u32 en, u32 timer, u32 deadline, u32 *k);
void nopblock(void);		/* 1 KiB of straight code, not counted */
void icsweep(void);		/* 16 KiB of straight code, not counted */

#endif
