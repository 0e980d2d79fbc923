/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LEON3 PMU's registers (Documentation/pmu-registers.md) and what the
 * two parts of the leon3_pmu module share: the perf PMU (leon3_pmu_core.c)
 * and the trace unit's PMU (leon3_pmu_trace.c).
 */
#ifndef LEON3_PMU_H
#define LEON3_PMU_H

#include <linux/bits.h>
#include <linux/types.h>

#include <asm/leon.h>

/* Registers, in each CPU's ASI_LEON3_SYSCTRL (0x02) */
#define PMU_GCTRL		0xc0
#define PMU_OVF			0xc4
#define PMU_CNT(c)		(0xc8 + 8 * (c))	/* c = 0: CYCCNT */
#define PMU_CTRL(c)		(0xcc + 8 * (c))
#define PMU_FEATURES		0x100
#define PMU_IRQLINE		0x104
#define PMU_PID			0x108
#define PMU_UWIN		0x118	/* the user window: its address, EN */
#define PMU_PIDMATCH(c)		(0x120 + 4 * (c))
#define PMU_RANGE_LO(c)		(0x140 + 8 * (c))	/* CTRL_AF: first PC */
#define PMU_RANGE_HI(c)		(0x144 + 8 * (c))	/* ... and last */
#define PMU_DSHADOW(k)		(0x180 + 4 * (k))	/* shadow D-cache k */
#define PMU_ISHADOW(k)		(0x1c8 + 4 * (k))	/* shadow I-cache k */
#define PMU_TRCTRL		0x1a0	/* the trace unit */
#define PMU_TRTABLE		0x1a8
#define PMU_TRPAGES		0x1ac
#define PMU_TRHEAD		0x1b0
#define PMU_TRLIMIT		0x1b4
#define PMU_TRWMARK		0x1b8
#define PMU_TRLOST		0x1bc
#define PMU_TRTIME_LO		0x1c4

#define GCTRL_EN		BIT(0)
#define GCTRL_NCNT(v)		(((v) >> 3) & 0x1f)
#define GCTRL_IRQCLR		BIT(31)
#define OVF_COUNTERS		0x7fU	/* bit c: counter c overflowed */
#define OVF_TRACE		BIT(7)	/* the trace unit's watermark, or it stopped */
#define OVF_IRQ			BIT(31)
#define CTRL_EVENT		0xffU
#define CTRL_EN			BIT(8)
#define CTRL_CLR		BIT(9)
#define CTRL_SU			BIT(10)
#define CTRL_IRQEN		BIT(11)
#define CTRL_NU			BIT(12)
#define CTRL_PF			BIT(13)
#define CTRL_AF			BIT(14)
#define FEAT_PID		BIT(0)
#define FEAT_NU			BIT(2)
#define FEAT_AF			BIT(3)
#define FEAT_SHADOW		BIT(4)
#define FEAT_MEMTIME		BIT(5)	/* the write buffer's timing */
#define FEAT_TRACE		BIT(6)	/* the trace unit */
#define FEAT_BRANCH		BIT(7)	/* ... and its branch mode */
#define FEAT_ISHADOW		BIT(8)	/* shadow I-caches */
#define FEAT_UWIN		BIT(9)	/* the user window */

#define UWIN_EN			BIT(0)
#define UWIN_BASE		GENMASK(31, 12)
#define IRQLINE_LINE(v)		((v) & 0x1f)
#define TRACE_EN		BIT(0)
#define TRACE_SU		BIT(1)
#define TRACE_NU		BIT(2)
#define TRACE_PIDREC		BIT(4)
#define TRACE_OVFREC		BIT(5)
#define TRACE_IRQEN		BIT(6)
#define TRACE_CLR		BIT(7)
#define TRACE_FULL		BIT(8)
#define TRACE_ERR		BIT(9)
#define TRACE_IC		BIT(10)
#define TRACE_BR		BIT(11)
#define TRACE_REC_SYNC		9	/* the record type the driver writes */
/* DSHADOW and ISHADOW: as the cache configuration registers; 0: none */
#define DSHADOW_REPL(v)		(((v) >> 28) & 3)	/* 1 LRU, 2 LRR, 3 random */
#define DSHADOW_SETS(v)		(((v) >> 24) & 7)	/* ways - 1 */
#define DSHADOW_SSIZE(v)	(((v) >> 20) & 0xf)	/* KiB per way: 1 << n */
#define DSHADOW_LSIZE(v)	(((v) >> 16) & 7)	/* words per line: 1 << n */

static inline u32 leon3_pmu_reg_read(u32 addr)
{
	u32 v;

	__asm__ __volatile__("lda [%1] %2, %0" : "=r" (v)
			     : "r" (addr), "i" (ASI_LEON3_SYSCTRL) : "memory");
	return v;
}

static inline void leon3_pmu_reg_write(u32 addr, u32 v)
{
	__asm__ __volatile__("sta %0, [%1] %2" : : "r" (v), "r" (addr),
			     "i" (ASI_LEON3_SYSCTRL) : "memory");
}

/* The trace unit: the perf PMU leon3_trace (leon3_pmu_trace.c) */
int leon3_trace_init(bool irq, bool branch);
void leon3_trace_exit(void);
void leon3_trace_handle_irq(void);

#endif /* LEON3_PMU_H */
