// SPDX-License-Identifier: GPL-2.0
/*
 * perf PMU driver for the LEON3 performance monitoring unit.
 *
 * Each CPU has its own PMU in ASI 0x02 (Documentation/pmu-registers.md):
 * a cycle counter and six event counters of 32 bits.  This first
 * version counts: raw events (config = event id), the generic hardware
 * and cache events the PMU has, user/kernel filtering, per task and per
 * CPU.  Sampling needs the overflow interrupt and is refused for now.
 */

#define pr_fmt(fmt) "leon3_pmu: " fmt

#include <linux/bitops.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include <asm/cpu_type.h>

/* Registers, ASI 0x02 */
#define PMU_GCTRL		0xc0
#define PMU_OVF			0xc4
#define PMU_CNT(c)		(0xc8 + 8 * (c))	/* c = 0: CYCCNT */
#define PMU_CTRL(c)		(0xcc + 8 * (c))
#define PMU_FEATURES		0x100

#define GCTRL_EN		BIT(0)
#define GCTRL_NCNT(v)		(((v) >> 3) & 0x1f)
#define CTRL_EVENT		0xffU
#define CTRL_EN			BIT(8)
#define CTRL_CLR		BIT(9)
#define CTRL_SU			BIT(10)
#define CTRL_NU			BIT(12)
#define FEAT_NU			BIT(2)

#define LEON3_PMU_COUNTERS	7	/* counter 0 counts cycles only */
#define LEON3_PMU_MAX_PERIOD	0xffffffffULL
#define EV_CYCLES		0x15

static u32 pmu_read(u32 addr)
{
	u32 v;

	__asm__ __volatile__("lda [%1] 2, %0" : "=r" (v) : "r" (addr) : "memory");
	return v;
}

static void pmu_write(u32 addr, u32 v)
{
	__asm__ __volatile__("sta %0, [%1] 2" : : "r" (v), "r" (addr) : "memory");
}

/* The events the PMU counts (GRLIB ids below 0x80, project ids above) */
static const u8 leon3_events[] = {
	0x00, 0x01, 0x02, 0x08, 0x09, 0x0a, 0x11, 0x12, 0x13, 0x15, 0x22,
	0x28, 0x38, 0x39, 0x3a, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86,
	0x87, 0x88, 0x89,
};

#define HW_OP_UNSUPPORTED	-1

static const int leon3_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x15,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x11,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= HW_OP_UNSUPPORTED,
	[PERF_COUNT_HW_CACHE_MISSES]		= HW_OP_UNSUPPORTED,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x22,
	[PERF_COUNT_HW_BRANCH_MISSES]		= HW_OP_UNSUPPORTED,
	[PERF_COUNT_HW_BUS_CYCLES]		= HW_OP_UNSUPPORTED,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x02,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x0a,
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= HW_OP_UNSUPPORTED,
};

#define C(x)	PERF_COUNT_HW_CACHE_##x

/* [cache][op][result]; everything not listed is unsupported */
static const int leon3_cache_map[C(MAX)][C(OP_MAX)][C(RESULT_MAX)] = {
	[0 ... C(MAX) - 1] = {
		[0 ... C(OP_MAX) - 1] = {
			[0 ... C(RESULT_MAX) - 1] = HW_OP_UNSUPPORTED,
		},
	},
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x81,
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)]	= 0x08,
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)]	= 0x82,
	[C(L1D)][C(OP_WRITE)][C(RESULT_MISS)]	= 0x83,
	[C(L1I)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x80,
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)]	= 0x00,
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)]	= 0x01,
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)]	= 0x09,
};

/* Per CPU: which counters hold which event */
struct leon3_pmu_hw {
	struct perf_event *events[LEON3_PMU_COUNTERS];
	unsigned long used;
};

static DEFINE_PER_CPU(struct leon3_pmu_hw, leon3_pmu_hw);
static bool leon3_pmu_has_nu;

static bool leon3_event_known(u32 id)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(leon3_events); i++)
		if (leon3_events[i] == id)
			return true;
	return false;
}

/* The event id of @event, or a negative errno */
static int leon3_pmu_map_event(struct perf_event *event)
{
	u64 config = event->attr.config;
	unsigned int type, op, result;
	int id;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		if (config >= PERF_COUNT_HW_MAX)
			return -ENOENT;
		id = leon3_hw_map[config];
		return id == HW_OP_UNSUPPORTED ? -ENOENT : id;
	case PERF_TYPE_HW_CACHE:
		type = config & 0xff;
		op = (config >> 8) & 0xff;
		result = (config >> 16) & 0xff;
		if (type >= C(MAX) || op >= C(OP_MAX) ||
		    result >= C(RESULT_MAX) || config >> 24)
			return -EINVAL;
		id = leon3_cache_map[type][op][result];
		return id == HW_OP_UNSUPPORTED ? -ENOENT : id;
	default:
		if (config & ~(u64)CTRL_EVENT)
			return -EINVAL;		/* reserved config bits */
		return leon3_event_known(config) ? (int)config : -EINVAL;
	}
}

static int leon3_pmu_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u32 ctrl;
	int id;

	if (event->attr.type != event->pmu->type &&
	    event->attr.type != PERF_TYPE_HARDWARE &&
	    event->attr.type != PERF_TYPE_HW_CACHE)
		return -ENOENT;

	id = leon3_pmu_map_event(event);
	if (id < 0)
		return id;

	/* No overflow interrupt yet: counting only. */
	if (is_sampling_event(event) || event->attr.sample_period)
		return -EOPNOTSUPP;

	ctrl = id | CTRL_EN;
	if (!event->attr.exclude_kernel)
		ctrl |= CTRL_SU;
	if (event->attr.exclude_user) {
		if (event->attr.exclude_kernel)
			return -EINVAL;		/* nothing left to count */
		if (!leon3_pmu_has_nu)
			return -EOPNOTSUPP;
		ctrl |= CTRL_NU;
	}
	hwc->config = ctrl;
	hwc->idx = -1;
	return 0;
}

/* Fold the counter's progress since the last read into the count. */
static void leon3_pmu_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	do {
		prev = local64_read(&hwc->prev_count);
		now = pmu_read(PMU_CNT(hwc->idx));
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	local64_add((now - prev) & LEON3_PMU_MAX_PERIOD, &event->count);
}

static void leon3_pmu_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	hwc->state = 0;
	local64_set(&hwc->prev_count, 0);
	pmu_write(PMU_CNT(hwc->idx), 0);
	pmu_write(PMU_CTRL(hwc->idx), hwc->config);
	perf_event_update_userpage(event);
}

static void leon3_pmu_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	pmu_write(PMU_CTRL(hwc->idx), 0);
	leon3_pmu_update(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int leon3_pmu_add(struct perf_event *event, int flags)
{
	struct leon3_pmu_hw *hw = this_cpu_ptr(&leon3_pmu_hw);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	/* Cycles go to the cycle counter when it is free. */
	if ((hwc->config & CTRL_EVENT) == EV_CYCLES && !(hw->used & BIT(0))) {
		idx = 0;
	} else {
		idx = find_next_zero_bit(&hw->used, LEON3_PMU_COUNTERS, 1);
		if (idx >= LEON3_PMU_COUNTERS)
			return -EAGAIN;
	}
	__set_bit(idx, &hw->used);
	hw->events[idx] = event;
	hwc->idx = idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		leon3_pmu_start(event, PERF_EF_RELOAD);
	return 0;
}

static void leon3_pmu_del(struct perf_event *event, int flags)
{
	struct leon3_pmu_hw *hw = this_cpu_ptr(&leon3_pmu_hw);
	struct hw_perf_event *hwc = &event->hw;

	leon3_pmu_stop(event, PERF_EF_UPDATE);
	hw->events[hwc->idx] = NULL;
	__clear_bit(hwc->idx, &hw->used);
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

static void leon3_pmu_read(struct perf_event *event)
{
	leon3_pmu_update(event);
}

/* sysfs: format/, events/ (every event of the PMU by name), caps/ */
PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *leon3_pmu_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group leon3_pmu_format_group = {
	.name = "format",
	.attrs = leon3_pmu_format_attrs,
};

#define LEON3_EVENT_ATTR(_name, _id)					\
	PMU_EVENT_ATTR_STRING(_name, leon3_event_attr_##_name, "event=" #_id)

LEON3_EVENT_ATTR(icache_miss, 0x00);
LEON3_EVENT_ATTR(itlb_miss, 0x01);
LEON3_EVENT_ATTR(icache_hold, 0x02);
LEON3_EVENT_ATTR(dcache_read_miss, 0x08);
LEON3_EVENT_ATTR(dtlb_miss, 0x09);
LEON3_EVENT_ATTR(dcache_hold, 0x0a);
LEON3_EVENT_ATTR(instructions, 0x11);
LEON3_EVENT_ATTR(int_instructions, 0x12);
LEON3_EVENT_ATTR(fp_instructions, 0x13);
LEON3_EVENT_ATTR(cycles, 0x15);
LEON3_EVENT_ATTR(branches, 0x22);
LEON3_EVENT_ATTR(calls, 0x28);
LEON3_EVENT_ATTR(loads_stores, 0x38);
LEON3_EVENT_ATTR(loads, 0x39);
LEON3_EVENT_ATTR(stores, 0x3a);
LEON3_EVENT_ATTR(icache_access, 0x80);
LEON3_EVENT_ATTR(dcache_read_access, 0x81);
LEON3_EVENT_ATTR(dcache_write_access, 0x82);
LEON3_EVENT_ATTR(dcache_write_miss, 0x83);
LEON3_EVENT_ATTR(window_overflows, 0x84);
LEON3_EVENT_ATTR(window_underflows, 0x85);
LEON3_EVENT_ATTR(traps, 0x86);
LEON3_EVENT_ATTR(taken_branches, 0x87);
LEON3_EVENT_ATTR(bus_reads, 0x88);
LEON3_EVENT_ATTR(bus_writes, 0x89);

static struct attribute *leon3_pmu_event_attrs[] = {
	&leon3_event_attr_icache_miss.attr.attr,
	&leon3_event_attr_itlb_miss.attr.attr,
	&leon3_event_attr_icache_hold.attr.attr,
	&leon3_event_attr_dcache_read_miss.attr.attr,
	&leon3_event_attr_dtlb_miss.attr.attr,
	&leon3_event_attr_dcache_hold.attr.attr,
	&leon3_event_attr_instructions.attr.attr,
	&leon3_event_attr_int_instructions.attr.attr,
	&leon3_event_attr_fp_instructions.attr.attr,
	&leon3_event_attr_cycles.attr.attr,
	&leon3_event_attr_branches.attr.attr,
	&leon3_event_attr_calls.attr.attr,
	&leon3_event_attr_loads_stores.attr.attr,
	&leon3_event_attr_loads.attr.attr,
	&leon3_event_attr_stores.attr.attr,
	&leon3_event_attr_icache_access.attr.attr,
	&leon3_event_attr_dcache_read_access.attr.attr,
	&leon3_event_attr_dcache_write_access.attr.attr,
	&leon3_event_attr_dcache_write_miss.attr.attr,
	&leon3_event_attr_window_overflows.attr.attr,
	&leon3_event_attr_window_underflows.attr.attr,
	&leon3_event_attr_traps.attr.attr,
	&leon3_event_attr_taken_branches.attr.attr,
	&leon3_event_attr_bus_reads.attr.attr,
	&leon3_event_attr_bus_writes.attr.attr,
	NULL,
};

static const struct attribute_group leon3_pmu_events_group = {
	.name = "events",
	.attrs = leon3_pmu_event_attrs,
};

PMU_EVENT_ATTR_STRING(counters, leon3_cap_counters, "6");
PMU_EVENT_ATTR_STRING(cycle_counter, leon3_cap_cycle_counter, "1");
PMU_EVENT_ATTR_STRING(counter_bits, leon3_cap_counter_bits, "32");

static struct attribute *leon3_pmu_caps_attrs[] = {
	&leon3_cap_counters.attr.attr,
	&leon3_cap_cycle_counter.attr.attr,
	&leon3_cap_counter_bits.attr.attr,
	NULL,
};

static const struct attribute_group leon3_pmu_caps_group = {
	.name = "caps",
	.attrs = leon3_pmu_caps_attrs,
};

static const struct attribute_group *leon3_pmu_attr_groups[] = {
	&leon3_pmu_format_group,
	&leon3_pmu_events_group,
	&leon3_pmu_caps_group,
	NULL,
};

static struct pmu leon3_pmu = {
	.module		= THIS_MODULE,
	.attr_groups	= leon3_pmu_attr_groups,
	.task_ctx_nr	= perf_hw_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.event_init	= leon3_pmu_event_init,
	.add		= leon3_pmu_add,
	.del		= leon3_pmu_del,
	.start		= leon3_pmu_start,
	.stop		= leon3_pmu_stop,
	.read		= leon3_pmu_read,
};

/* Counters off and cleared, global enable on: each counter's EN decides */
static void leon3_pmu_reset_cpu(void *info)
{
	int c;

	for (c = 0; c < LEON3_PMU_COUNTERS; c++)
		pmu_write(PMU_CTRL(c), CTRL_CLR);
	pmu_write(PMU_OVF, 0x7f);
	pmu_write(PMU_GCTRL, info ? GCTRL_EN : 0);
}

static int __init leon3_pmu_init(void)
{
	u32 gctrl;
	int ret;

	if (sparc_cpu_model != sparc_leon)
		return -ENODEV;
	gctrl = pmu_read(PMU_GCTRL);
	if (GCTRL_NCNT(gctrl) != LEON3_PMU_COUNTERS - 1) {
		pr_info("no LEON3 PMU (GCTRL 0x%08x)\n", gctrl);
		return -ENODEV;
	}
	leon3_pmu_has_nu = pmu_read(PMU_FEATURES) & FEAT_NU;

	on_each_cpu(leon3_pmu_reset_cpu, (void *)1, 1);
	ret = perf_pmu_register(&leon3_pmu, "leon3_pmu", PERF_TYPE_RAW);
	if (ret) {
		on_each_cpu(leon3_pmu_reset_cpu, NULL, 1);
		return ret;
	}
	pr_info("%d event counters and a cycle counter per CPU\n",
		GCTRL_NCNT(gctrl));
	return 0;
}

static void __exit leon3_pmu_exit(void)
{
	perf_pmu_unregister(&leon3_pmu);
	on_each_cpu(leon3_pmu_reset_cpu, NULL, 1);
}

module_init(leon3_pmu_init);
module_exit(leon3_pmu_exit);

MODULE_DESCRIPTION("LEON3 performance monitoring unit");
MODULE_LICENSE("GPL");
