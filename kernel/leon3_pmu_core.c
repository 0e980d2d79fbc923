// SPDX-License-Identifier: GPL-2.0
/*
 * perf PMU driver for the LEON3 performance monitoring unit.
 *
 * Each CPU has its own PMU in ASI 0x02 (Documentation/pmu-registers.md):
 * a cycle counter and six event counters of 32 bits, an overflow
 * interrupt on an IRQMP extended line of the CPU's own, and the PID
 * extensions (PID register, per-counter PID filter; the trace unit's
 * PID records, in leon3_pmu_trace.c).  Each counter also has an address
 * range (AF):
 * perf's address filters, one per event.  Up to four shadow D-caches
 * count the misses the D-cache would have with other geometries, and up
 * to four shadow I-caches the I-cache's: their events exist for the
 * shadows the machine has (caps/dcache_shadow<k>, caps/icache_shadow<k>).
 *
 * Counters are 32 bits wide; counts are 64.  With an interrupt line on
 * every CPU, every counter runs with its interrupt enabled: it stops at
 * an overflow until the handler releases it, the handler folds each
 * wrap into the count, and sampling events start at -period.  Without
 * one (IRQLINE 0, or request_irq() failing) the PMU counts but cannot
 * sample: counters wrap freely, and an hrtimer on each CPU with events
 * reads them well before one can wrap twice.
 */

#define pr_fmt(fmt) "leon3_pmu: " fmt

#include <linux/bitops.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include <asm/cpudata.h>
#include <asm/cpu_type.h>
#include <asm/irq_regs.h>
#include <asm/leon_amba.h>
#include <asm/switch_to.h>

#include "leon3_pmu.h"

#define LEON3_PMU_COUNTERS	7	/* counter 0 counts cycles only */
#define LEON3_PMU_SHADOWS	4	/* shadow D-caches, and I-caches */
#define LEON3_PMU_COUNTER_BITS	32
#define LEON3_PMU_MAX_PERIOD	GENMASK_ULL(LEON3_PMU_COUNTER_BITS - 1, 0)
#define EV_CYCLES		0x15
/* shadow D-cache k: read misses 0x90 + 2k, write misses 0x91 + 2k */
#define EV_SHADOW		0x90
/* shadow I-cache k: misses 0x98 + k */
#define EV_ISHADOW		0x98
/* the write buffer's hold cycles: counted where FEATURES says so */
#define EV_WBUF_HOLD		0x10
/*
 * The shortest sampling periods.  Taking an overflow interrupt costs
 * about 2700 kernel instructions and 8600 cycles (make bench-perf): an
 * event that counts in the kernel counts its own interrupts, and six of
 * them with a short period keep a CPU in the handler, a storm that only
 * perf's throttling slows (freq mode starts every event at period 1).
 * A user-only event leaves its task that many user events per interrupt
 * (the perf_events selftests sample every 1000 user instructions).
 */
#define LEON3_PMU_MIN_PERIOD		1000
#define LEON3_PMU_MIN_KERNEL_PERIOD	100000

/*
 * Without an overflow interrupt, how often the counters are read.  2^32
 * events take 17 s at a 250 MHz LEON3, but about 2 s under QEMU, which
 * runs loops faster than real time (some 2e9 cycles a second on the
 * CI's host): 100 ms leaves a margin of 20.
 */
#define LEON3_PMU_POLL_MS		100

/* hw_perf_event.state: a period ended while stopped, and has no sample */
#define LEON3_HES_UNSAMPLED	PERF_HES_ARCH

/* perf_event_attr.config1: the PID filter (0: none) */
#define CONFIG1_PID		0xffffffffULL

/*
 * Address filters: one range per counter, so one filter per event.  The
 * range of an event with a filter is kept in hw.extra_reg.config, as
 * RANGE_HI << 32 | RANGE_LO; this one holds no PC, for a filter whose
 * file is not mapped.
 */
#define LEON3_PMU_ADDR_FILTERS	1
#define RANGE_NONE		0x00000000ffffffffULL

/*
 * The events the PMU counts, by sysfs name and id (GRLIB ids below
 * 0x80, project ids above; Documentation/pmu-registers.md): the one
 * list from which the known ids and sysfs events/ are made.
 */
struct leon3_event {
	u8 id;
	const char *name;
};

static const struct leon3_event leon3_events[] = {
	{ 0x00, "icache_miss" },
	{ 0x01, "itlb_miss" },
	{ 0x02, "icache_hold" },
	{ 0x08, "dcache_read_miss" },
	{ 0x09, "dtlb_miss" },
	{ 0x0a, "dcache_hold" },
	{ 0x10, "write_buffer_hold" },
	{ 0x11, "instructions" },
	{ 0x12, "int_instructions" },
	{ 0x13, "fp_instructions" },
	{ 0x15, "cycles" },
	{ 0x22, "branches" },
	{ 0x28, "calls" },
	{ 0x38, "loads_stores" },
	{ 0x39, "loads" },
	{ 0x3a, "stores" },
	{ 0x80, "icache_access" },
	{ 0x81, "dcache_read_access" },
	{ 0x82, "dcache_write_access" },
	{ 0x83, "dcache_write_miss" },
	{ 0x84, "window_overflows" },
	{ 0x85, "window_underflows" },
	{ 0x86, "traps" },
	{ 0x87, "taken_branches" },
	{ 0x88, "bus_reads" },
	{ 0x89, "bus_writes" },
	{ 0x90, "dcache_shadow0_read_miss" },
	{ 0x91, "dcache_shadow0_write_miss" },
	{ 0x92, "dcache_shadow1_read_miss" },
	{ 0x93, "dcache_shadow1_write_miss" },
	{ 0x94, "dcache_shadow2_read_miss" },
	{ 0x95, "dcache_shadow2_write_miss" },
	{ 0x96, "dcache_shadow3_read_miss" },
	{ 0x97, "dcache_shadow3_write_miss" },
	{ 0x98, "icache_shadow0_miss" },
	{ 0x99, "icache_shadow1_miss" },
	{ 0x9a, "icache_shadow2_miss" },
	{ 0x9b, "icache_shadow3_miss" },
};

#define HW_OP_UNSUPPORTED	-1

/*
 * A LEON3 has one clock: its AHB master runs at the CPU's clock (GRLIB's
 * double-clocked leon3s2x aside, which this PMU's model is not), and it
 * has no frequency scaling.  So bus cycles and reference cycles are its
 * cycles.
 */
static const int leon3_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x15,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x11,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= HW_OP_UNSUPPORTED,
	[PERF_COUNT_HW_CACHE_MISSES]		= HW_OP_UNSUPPORTED,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x22,
	[PERF_COUNT_HW_BRANCH_MISSES]		= HW_OP_UNSUPPORTED,
	[PERF_COUNT_HW_BUS_CYCLES]		= 0x15,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x02,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x0a,
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= 0x15,
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

/* Per CPU: which counters hold which event, and the CPU's interrupt */
struct leon3_pmu_hw {
	struct perf_event *events[LEON3_PMU_COUNTERS];
	unsigned long used;
	struct hrtimer poll;	/* no overflow interrupt: reads the counts */
	u64 irq_ns;		/* the last overflow interrupt, modelled time */
	unsigned int irq;	/* Linux irq of this CPU's PMU, 0 if none */
};

static DEFINE_PER_CPU(struct leon3_pmu_hw, leon3_pmu_hw);
static u32 leon3_pmu_features;
/*
 * Each shadow cache's geometry: D-cache k's (DSHADOW[k]) at k, I-cache
 * k's (ISHADOW[k]) at LEON3_PMU_SHADOWS + k; 0: the machine has none.
 */
static u32 leon3_pmu_shadow[2 * LEON3_PMU_SHADOWS];
/* CTRL_IRQEN while every CPU has its interrupt: counters then sample */
static u32 leon3_pmu_irqen = CTRL_IRQEN;
static enum cpuhp_state leon3_pmu_cpuhp;
static bool leon3_pmu_registered;
/* ns = cycles * mult >> 10 at the CPU's clock; 0: clock unknown */
static u32 leon3_pmu_ns_mult;

/*
 * The user window (UWIN): where a task reads its counters with a load
 * (the address leon_map_pmu_window() gave it; 0: no window), and
 * whether a task that maps its event may (sysfs rdpmc, as on x86).
 */
static unsigned long leon3_pmu_window;
static int leon3_pmu_rdpmc = 1;

/*
 * The mms that have an event mapped that they may read, with how many:
 * a CPU's UWIN.EN is set while a task of one of them runs, so that no
 * other task reads counters.
 */
struct leon3_rdpmc_mm {
	struct hlist_node node;
	struct mm_struct *mm;
	unsigned int maps;
	struct rcu_head rcu;
};

static DEFINE_HASHTABLE(leon3_rdpmc_mms, 4);
static DEFINE_RAW_SPINLOCK(leon3_rdpmc_lock);
/*
 * How many: while none, a context switch looks no bucket up, so that
 * what the kernel reads does not depend on where its mm is (the caches'
 * counts of a run stay the same from boot to boot)
 */
static unsigned int leon3_rdpmc_nr;
static DEFINE_PER_CPU(u32, leon3_pmu_uwin);	/* this CPU's UWIN.EN */

static bool leon3_event_known(u32 id)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(leon3_events); i++)
		if (leon3_events[i].id == id)
			return true;
	return false;
}

/*
 * Whether known event @id counts on this machine: a shadow cache's
 * events count only when the machine has that shadow, the write
 * buffer's only when its timing is modelled.
 */
static bool leon3_event_counts(u32 id)
{
	if (id >= EV_SHADOW && id < EV_SHADOW + 2 * LEON3_PMU_SHADOWS)
		return leon3_pmu_shadow[(id - EV_SHADOW) / 2];
	if (id >= EV_ISHADOW && id < EV_ISHADOW + LEON3_PMU_SHADOWS)
		return leon3_pmu_shadow[LEON3_PMU_SHADOWS + id - EV_ISHADOW];
	if (id == EV_WBUF_HOLD)
		return leon3_pmu_features & FEAT_MEMTIME;
	return true;
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
			return -EINVAL;		/* not an id of the ABI */
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
		if (!leon3_event_known(config))
			return -EINVAL;
		/* a shadow's event without the shadow: as a missing generic one */
		return leon3_event_counts(config) ? (int)config : -ENOENT;
	}
}

/*
 * Take a counter for an event of control @config among those free in
 * @used: the cycle counter for cycles while it is free, else an event
 * counter.  add() takes them on the CPU's state, event_init() on a
 * scratch copy for the whole group, so that a group that passes the
 * check is one that add() can place.
 */
static int leon3_pmu_take_counter(unsigned long *used, u32 config)
{
	int idx = 0;

	if ((config & CTRL_EVENT) != EV_CYCLES || test_bit(0, used))
		idx = find_next_zero_bit(used, LEON3_PMU_COUNTERS, 1);
	if (idx >= LEON3_PMU_COUNTERS)
		return -EAGAIN;
	__set_bit(idx, used);
	return idx;
}

/* Place @e of a group; false if it cannot be, or is of another PMU */
static bool leon3_pmu_group_place(struct perf_event *e, struct pmu *pmu,
				  unsigned long *used)
{
	if (e->pmu != pmu)
		return is_software_event(e);
	return leon3_pmu_take_counter(used, e->hw.config) >= 0;
}

/* Whether @event and its group fit in one CPU's counters */
static bool leon3_pmu_group_fits(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	struct pmu *pmu = event->pmu;
	unsigned long used = 0;

	/*
	 * A new leader has no siblings, nor yet a context; for a sibling
	 * the core holds the leader's context mutex, which guards the list.
	 */
	if (leader != event) {
		if (!leon3_pmu_group_place(leader, pmu, &used))
			return false;
		for_each_sibling_event(sibling, leader)
			if (!leon3_pmu_group_place(sibling, pmu, &used))
				return false;
	}
	return leon3_pmu_group_place(event, pmu, &used);
}

static s64 leon3_pmu_min_period(struct hw_perf_event *hwc)
{
	return hwc->config & CTRL_SU ? LEON3_PMU_MIN_KERNEL_PERIOD :
				       LEON3_PMU_MIN_PERIOD;
}

/*
 * A fixed period shorter than the minimum is refused, as x86 refuses
 * one below its limit_period: perf record -c does not sample the
 * period, so a raised one would leave perf report's counts short by
 * the factor.  Frequency mode samples the period it uses, and a short
 * one is raised (leon3_pmu_set_period()).
 */
static int leon3_pmu_check_period(struct perf_event *event, u64 value)
{
	if (!event->attr.freq && value < leon3_pmu_min_period(&event->hw))
		return -EINVAL;
	return 0;
}

static int leon3_pmu_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u32 ctrl;
	int id;

	if (attr->type != event->pmu->type &&
	    attr->type != PERF_TYPE_HARDWARE &&
	    attr->type != PERF_TYPE_HW_CACHE)
		return -ENOENT;

	id = leon3_pmu_map_event(event);
	if (id < 0)
		return id;

	if (attr->type == event->pmu->type &&
	    (attr->config1 & ~CONFIG1_PID || attr->config2))
		return -EINVAL;		/* reserved config bits */

	/* What the PMU cannot tell apart is refused, never miscounted. */
	if (attr->exclude_idle)
		return -EOPNOTSUPP;

	ctrl = id | CTRL_EN | leon3_pmu_irqen;
	if (!attr->exclude_kernel)
		ctrl |= CTRL_SU;
	/*
	 * Excluding both leaves the hypervisor, which a LEON3 does not
	 * have: the event counts nothing (SU clear, NU set), as on other
	 * PMUs without one.  PAPI's PAPI_DOM_SUPERVISOR asks for this.
	 */
	if (attr->exclude_user) {
		if (!(leon3_pmu_features & FEAT_NU))
			return -EOPNOTSUPP;
		ctrl |= CTRL_NU;
	}
	hwc->config_base = 0;
	if (attr->type == event->pmu->type && attr->config1) {
		if (!(leon3_pmu_features & FEAT_PID))
			return -EOPNOTSUPP;
		ctrl |= CTRL_PF;
		hwc->config_base = attr->config1;
	}
	hwc->config = ctrl;
	hwc->idx = -1;
	/*
	 * A task's own event may be read by the task from the window: its
	 * counter is the task's while the task runs.  (No window without
	 * the overflow interrupt: leon3_pmu_init().)
	 */
	hwc->flags &= ~PERF_EVENT_FLAG_USER_READ_CNT;
	if (leon3_pmu_window && READ_ONCE(leon3_pmu_rdpmc) &&
	    (event->attach_state & PERF_ATTACH_TASK))
		hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;

	if (!leon3_pmu_group_fits(event))
		return -EINVAL;

	/*
	 * A counting event overflows every 2^31 events too, so that the
	 * interrupt folds each wrap into the 64-bit count.
	 */
	if (!is_sampling_event(event)) {
		hwc->sample_period = LEON3_PMU_MAX_PERIOD >> 1;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	} else if (leon3_pmu_check_period(event, hwc->sample_period)) {
		return -EINVAL;
	} else if (hwc->sample_period < leon3_pmu_min_period(hwc)) {
		hwc->sample_period = leon3_pmu_min_period(hwc);
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	return 0;
}

/* Fold the counter's progress since the last read into the count. */
static void leon3_pmu_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	/* sign-extended, as a task's own read of the window takes it */
	do {
		prev = local64_read(&hwc->prev_count);
		now = (s64)(s32)leon3_pmu_reg_read(PMU_CNT(hwc->idx));
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = (now - prev) & LEON3_PMU_MAX_PERIOD;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/* Start the counter @left events before its overflow. */
static void leon3_pmu_program(struct perf_event *event, s64 left)
{
	struct hw_perf_event *hwc = &event->hw;

	local64_set(&hwc->prev_count, (u64)-left);
	leon3_pmu_reg_write(PMU_CNT(hwc->idx), (u32)-left);
	perf_event_update_userpage(event);
}

/*
 * Start the counter at -(events left in the period).  Returns whether
 * a period ended: the overflow is then a sample (for sampling events).
 */
static bool leon3_pmu_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = hwc->sample_period;
	bool ended = false;

	/* Frequency mode changes it: raise it here too. */
	period = max(period, leon3_pmu_min_period(hwc));

	if (unlikely(left <= -period)) {
		left = period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		ended = true;
	}
	if (unlikely(left <= 0)) {
		left += period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		ended = true;
	}
	/* Half the range: a late read still sees less than one wrap. */
	if (left > (s64)(LEON3_PMU_MAX_PERIOD >> 1))
		left = LEON3_PMU_MAX_PERIOD >> 1;

	leon3_pmu_program(event, left);
	return ended;
}

/*
 * perf core has changed the event's filters or where their files are
 * mapped: take the range (its lock held, called from the next start).
 */
static void leon3_pmu_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	struct perf_addr_filter_range *fr = event->addr_filter_ranges;
	struct hw_perf_event *hwc = &event->hw;
	unsigned long last;

	if (list_empty(&head->list)) {
		hwc->config &= ~CTRL_AF;
		return;
	}
	hwc->config |= CTRL_AF;
	if (!fr[0].size) {
		hwc->extra_reg.config = RANGE_NONE;
		return;
	}
	last = fr[0].start + (fr[0].size - 1);
	if (last < fr[0].start)		/* to the end of the address space */
		last = ULONG_MAX;
	hwc->extra_reg.config = (u64)last << 32 | fr[0].start;
}

/*
 * A counter has one range and counts inside it: no more filters, and
 * no start or stop triggers (-EOPNOTSUPP, as Intel PT refuses what it
 * lacks).  perf core has refused an empty range already.
 */
static int leon3_pmu_addr_filters_validate(struct list_head *filters)
{
	struct perf_addr_filter *filter;
	int n = 0;

	list_for_each_entry(filter, filters, entry) {
		if (filter->action != PERF_ADDR_FILTER_ACTION_FILTER)
			return -EOPNOTSUPP;
		if (++n > LEON3_PMU_ADDR_FILTERS)
			return -EOPNOTSUPP;
	}
	return 0;
}

static void leon3_pmu_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	bool unsampled = hwc->state & LEON3_HES_UNSAMPLED;

	hwc->state = 0;
	perf_event_addr_filters_sync(event);
	/*
	 * A period that ended while the event was stopped (its overflow
	 * still pending at a context switch or a disable) has had no
	 * sample: overflow at the next event, so that the handler takes it.
	 * Any other period_left <= 0 is perf core starting a new period
	 * (PERF_EVENT_IOC_PERIOD, frequency mode): no sample for that.
	 */
	if (unsampled)
		leon3_pmu_program(event, 1);
	else
		leon3_pmu_set_period(event);
	if (hwc->config & CTRL_PF)
		leon3_pmu_reg_write(PMU_PIDMATCH(hwc->idx), hwc->config_base);
	if (hwc->config & CTRL_AF) {
		leon3_pmu_reg_write(PMU_RANGE_LO(hwc->idx),
				    lower_32_bits(hwc->extra_reg.config));
		leon3_pmu_reg_write(PMU_RANGE_HI(hwc->idx),
				    upper_32_bits(hwc->extra_reg.config));
	}
	leon3_pmu_reg_write(PMU_CTRL(hwc->idx), hwc->config);
}

static void leon3_pmu_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	u32 ovf = BIT(hwc->idx);

	if (hwc->state & PERF_HES_STOPPED)
		return;
	leon3_pmu_reg_write(PMU_CTRL(hwc->idx), 0);
	leon3_pmu_update(event);
	/*
	 * An overflow the handler has not seen yet: the count has it, and
	 * the handler must not take it for the counter's next user (a
	 * sampling event's next start takes its sample).
	 */
	if (leon3_pmu_reg_read(PMU_OVF) & ovf) {
		leon3_pmu_reg_write(PMU_OVF, ovf);
		if (is_sampling_event(event))
			hwc->state |= LEON3_HES_UNSAMPLED;
	}
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* No overflow interrupt: fold each running counter's progress in. */
static enum hrtimer_restart leon3_pmu_poll(struct hrtimer *timer)
{
	struct leon3_pmu_hw *hw = container_of(timer, struct leon3_pmu_hw, poll);
	int idx;

	for_each_set_bit(idx, &hw->used, LEON3_PMU_COUNTERS) {
		struct perf_event *event = hw->events[idx];

		if (!(event->hw.state & PERF_HES_STOPPED))
			leon3_pmu_update(event);
	}
	hrtimer_forward_now(timer, ms_to_ktime(LEON3_PMU_POLL_MS));
	return HRTIMER_RESTART;
}

static int leon3_pmu_add(struct perf_event *event, int flags)
{
	struct leon3_pmu_hw *hw = this_cpu_ptr(&leon3_pmu_hw);
	struct hw_perf_event *hwc = &event->hw;
	bool first = !hw->used;
	int idx;

	idx = leon3_pmu_take_counter(&hw->used, hwc->config);
	if (idx < 0)
		return idx;
	if (!leon3_pmu_irqen && first)
		hrtimer_start(&hw->poll, ms_to_ktime(LEON3_PMU_POLL_MS),
			      HRTIMER_MODE_REL_PINNED_HARD);
	hw->events[idx] = event;
	hwc->idx = idx;
	hwc->state = (hwc->state & LEON3_HES_UNSAMPLED) | PERF_HES_STOPPED |
		     PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		leon3_pmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void leon3_pmu_del(struct perf_event *event, int flags)
{
	struct leon3_pmu_hw *hw = this_cpu_ptr(&leon3_pmu_hw);
	struct hw_perf_event *hwc = &event->hw;

	leon3_pmu_stop(event, PERF_EF_UPDATE);
	hw->events[hwc->idx] = NULL;
	__clear_bit(hwc->idx, &hw->used);
	/* nothing of it for the window's next reader */
	if (leon3_pmu_window)
		leon3_pmu_reg_write(PMU_CNT(hwc->idx), 0);
	hwc->idx = -1;
	if (!leon3_pmu_irqen && !hw->used)
		hrtimer_cancel(&hw->poll);
	perf_event_update_userpage(event);
}

static void leon3_pmu_read(struct perf_event *event)
{
	leon3_pmu_update(event);
}

/*
 * The mmap page's index: the window's word + 1 for an event the task
 * may read itself (word c is counter c), 0 for the others.
 */
static int leon3_pmu_event_idx(struct perf_event *event)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return 0;
	return event->hw.idx + 1;
}

/*
 * @mm's entry in the table of mms that may read the window, or NULL;
 * under RCU, preemption off or leon3_rdpmc_lock
 */
static struct leon3_rdpmc_mm *leon3_rdpmc_find(struct mm_struct *mm)
{
	struct leon3_rdpmc_mm *m;

	hash_for_each_possible_rcu(leon3_rdpmc_mms, m, node, (unsigned long)mm)
		if (m->mm == mm)
			return m;
	return NULL;
}

/* This CPU's UWIN.EN for a task of @mm (preemption off) */
static void leon3_pmu_uwin_for(struct mm_struct *mm)
{
	u32 en = mm && READ_ONCE(leon3_rdpmc_nr) && leon3_rdpmc_find(mm) ?
		 UWIN_EN : 0;

	if (__this_cpu_read(leon3_pmu_uwin) != en) {
		__this_cpu_write(leon3_pmu_uwin, en);
		leon3_pmu_reg_write(PMU_UWIN, en);
	}
}

/* ... for the task it runs now (on every CPU, by IPI) */
static void leon3_pmu_uwin_sync(void *info)
{
	leon3_pmu_uwin_for(current->mm);
}

/*
 * A task maps a readable event (with its mm's mmap lock): its mm's tasks
 * may read the window from now on, and, for the mm's first such event,
 * every CPU checks the task it runs, as x86 does for rdpmc.
 */
static void leon3_pmu_event_mapped(struct perf_event *event,
				   struct mm_struct *mm)
{
	struct leon3_rdpmc_mm *m, *new;
	unsigned long flags;
	bool added = false;

	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	raw_spin_lock_irqsave(&leon3_rdpmc_lock, flags);
	m = leon3_rdpmc_find(mm);
	if (m) {
		m->maps++;
	} else if (new) {
		new->mm = mm;
		new->maps = 1;
		hash_add_rcu(leon3_rdpmc_mms, &new->node, (unsigned long)mm);
		WRITE_ONCE(leon3_rdpmc_nr, leon3_rdpmc_nr + 1);
		new = NULL;
		added = true;
	}
	raw_spin_unlock_irqrestore(&leon3_rdpmc_lock, flags);
	kfree(new);	/* not needed, or a failed allocation: no user reads */
	if (added)
		on_each_cpu(leon3_pmu_uwin_sync, NULL, 1);
}

static void leon3_pmu_event_unmapped(struct perf_event *event,
				     struct mm_struct *mm)
{
	struct leon3_rdpmc_mm *m;
	unsigned long flags;
	bool gone = false;

	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	raw_spin_lock_irqsave(&leon3_rdpmc_lock, flags);
	m = leon3_rdpmc_find(mm);
	if (m && !--m->maps) {
		hash_del_rcu(&m->node);
		WRITE_ONCE(leon3_rdpmc_nr, leon3_rdpmc_nr - 1);
		gone = true;
	}
	raw_spin_unlock_irqrestore(&leon3_rdpmc_lock, flags);
	if (gone) {
		kfree_rcu(m, rcu);
		on_each_cpu(leon3_pmu_uwin_sync, NULL, 1);
	}
}

/* GCTRL.EN starts and stops all of this CPU's counters at once. */
static void leon3_pmu_enable(struct pmu *pmu)
{
	leon3_pmu_reg_write(PMU_GCTRL, GCTRL_EN);
}

static void leon3_pmu_disable(struct pmu *pmu)
{
	leon3_pmu_reg_write(PMU_GCTRL, 0);
}

/*
 * The registers a sample reports.  A user-only event that overflows on
 * the last user instructions before a trap is taken in the kernel, and
 * perf drops a kernel sample of an exclude_kernel event: report the
 * user registers the trap saved, where the overflow was.
 */
static struct pt_regs *leon3_pmu_sample_regs(struct perf_event *event,
					     struct pt_regs *regs)
{
	if (event->attr.exclude_kernel && !user_mode(regs) && current->mm &&
	    user_mode(task_pt_regs(current)))
		return task_pt_regs(current);
	return regs;
}

/*
 * The handler times itself for perf_sample_event_took(): perf lowers
 * the sample rate when overflow interrupts take more than
 * perf_cpu_time_max_percent of the CPU, and without that, events in
 * frequency mode on a slow kernel (lockdep) overflow faster than the
 * per-tick throttling can catch.  Under emulation the wall clock says
 * little about a LEON3 (QEMU runs the handler at its own speed, and a
 * busy host may stop the vCPU in the middle of it), so the handler
 * counts its own cycles, those of the modelled LEON3, on a counter no
 * event uses, and reports them at the CPU's clock.  Returns the
 * counter, or -1 when none is free.
 */
static int leon3_pmu_irq_time_start(struct leon3_pmu_hw *hw)
{
	int c = find_first_zero_bit(&hw->used, LEON3_PMU_COUNTERS);

	if (c >= LEON3_PMU_COUNTERS || !leon3_pmu_ns_mult)
		return -1;
	leon3_pmu_reg_write(PMU_CNT(c), 0);
	leon3_pmu_reg_write(PMU_CTRL(c), EV_CYCLES | CTRL_EN | CTRL_SU);
	return c;
}

/*
 * The handler's time at the CPU's clock.  Without a free counter, the
 * last interrupt's: it ran the same code.  Before any, the wall clock.
 */
static u64 leon3_pmu_irq_time(struct leon3_pmu_hw *hw, int c, u64 wall_start)
{
	u32 cycles;

	if (c < 0 || test_bit(c, &hw->used))	/* an event took it meanwhile */
		return hw->irq_ns ?: sched_clock() - wall_start;
	cycles = leon3_pmu_reg_read(PMU_CNT(c));
	leon3_pmu_reg_write(PMU_CTRL(c), 0);
	if (cycles)	/* else GCTRL.EN was clear: nothing counted */
		hw->irq_ns = ((u64)cycles * leon3_pmu_ns_mult) >> 10;
	return hw->irq_ns ?: sched_clock() - wall_start;
}

static irqreturn_t leon3_pmu_handle_irq(int irq, void *dev)
{
	struct leon3_pmu_hw *hw = this_cpu_ptr(&leon3_pmu_hw);
	struct pt_regs *regs = get_irq_regs();
	struct perf_sample_data data;
	unsigned long ovf;
	u64 start;
	int idx, timer;

	/* Bit 31 alone: leon3_pmu_stop() took the counter's overflow. */
	if (!(leon3_pmu_reg_read(PMU_OVF) & (OVF_IRQ | OVF_COUNTERS | OVF_TRACE)))
		return IRQ_NONE;
	start = sched_clock();
	timer = leon3_pmu_irq_time_start(hw);

	/*
	 * Acknowledge first: IRQCLR lowers the line and releases the
	 * stopped counters, so that an overflow from here on raises the
	 * line again (one while bit 31 is set would raise nothing).  Then
	 * take the overflows so far; a released counter's few new events
	 * are in its next read.
	 */
	leon3_pmu_reg_write(PMU_GCTRL, (leon3_pmu_reg_read(PMU_GCTRL) & GCTRL_EN) | GCTRL_IRQCLR);
	ovf = leon3_pmu_reg_read(PMU_OVF);
	if (ovf & OVF_TRACE)
		leon3_trace_handle_irq();
	ovf &= OVF_COUNTERS;
	leon3_pmu_reg_write(PMU_OVF, ovf);

	for_each_set_bit(idx, &ovf, LEON3_PMU_COUNTERS) {
		struct perf_event *event = hw->events[idx];
		struct hw_perf_event *hwc;

		if (!event)
			continue;
		hwc = &event->hw;
		leon3_pmu_update(event);
		if (!leon3_pmu_set_period(event) || !is_sampling_event(event))
			continue;
		/*
		 * The kernel returns to user space with interrupts masked:
		 * an overflow there is taken at a user IP, and the sample
		 * says so (perf drops it for an exclude_kernel event).
		 */
		perf_sample_data_init(&data, 0, hwc->last_period);
		if (perf_event_overflow(event, &data,
					leon3_pmu_sample_regs(event, regs)))
			leon3_pmu_stop(event, 0);	/* throttled */
	}

	/* perf's pending work (wakeups, signals) runs here, not later. */
	irq_work_run();

	perf_sample_event_took(leon3_pmu_irq_time(hw, timer, start));
	return IRQ_HANDLED;
}

/* sysfs: format/, events/ (every event of the PMU by name), caps/ */
PMU_FORMAT_ATTR(event, "config:0-7");
PMU_FORMAT_ATTR(pid, "config1:0-31");	/* count only while PID runs */

static struct attribute *leon3_pmu_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_pid.attr,
	NULL,
};

static const struct attribute_group leon3_pmu_format_group = {
	.name = "format",
	.attrs = leon3_pmu_format_attrs,
};

/* events/: made from leon3_events[] at init */
static struct perf_pmu_events_attr leon3_event_attrs[ARRAY_SIZE(leon3_events)];
static struct attribute *leon3_pmu_event_attrs[ARRAY_SIZE(leon3_events) + 1];

static ssize_t leon3_event_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "event=0x%02llx\n", ev->id);
}

static void __init leon3_pmu_init_event_attrs(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(leon3_events); i++) {
		struct perf_pmu_events_attr *ev = &leon3_event_attrs[i];

		sysfs_attr_init(&ev->attr.attr);
		ev->attr.attr.name = leon3_events[i].name;
		ev->attr.attr.mode = 0444;
		ev->attr.show = leon3_event_show;
		ev->id = leon3_events[i].id;
		leon3_pmu_event_attrs[i] = &ev->attr.attr;
	}
}

/* events/ lists only the events that count on this machine. */
static umode_t leon3_pmu_event_is_visible(struct kobject *kobj,
					  struct attribute *attr, int i)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);

	return leon3_event_counts(ev->id) ? attr->mode : 0;
}

static const struct attribute_group leon3_pmu_events_group = {
	.name = "events",
	.attrs = leon3_pmu_event_attrs,
	.is_visible = leon3_pmu_event_is_visible,
};

/*
 * caps/: numbers from the driver's constants, and the geometry of each
 * shadow cache the machine has (dcache_shadow<k>, id k; icache_shadow<k>,
 * id LEON3_PMU_SHADOWS + k)
 */
static ssize_t leon3_cap_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *cap =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "%llu\n", cap->id);
}

/*
 * A shadow's geometry as QEMU's dcache-shadow and icache-shadow
 * properties write it,
 * SIZEkxWAYS/LINE/REPL (e.g. 8kx4/16/lru); one way has no replacement,
 * and shows the property's default.
 */
static void leon3_shadow_geometry(char *buf, size_t size, u32 cfg)
{
	static const char * const repl[] = { "lru", "lru", "lrr", "random" };
	unsigned int ways = DSHADOW_SETS(cfg) + 1;

	scnprintf(buf, size, "%ukx%u/%u/%s", ways << DSHADOW_SSIZE(cfg), ways,
		  4U << DSHADOW_LSIZE(cfg), repl[DSHADOW_REPL(cfg)]);
}

/* user_window: the address where a task reads its counters, in hex */
static ssize_t leon3_cap_window_show(struct device *dev,
				     struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "0x%lx\n", leon3_pmu_window);
}

static ssize_t leon3_cap_shadow_show(struct device *dev,
				     struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *cap =
		container_of(attr, struct perf_pmu_events_attr, attr);
	char geometry[32];

	leon3_shadow_geometry(geometry, sizeof(geometry),
			      leon3_pmu_shadow[cap->id]);
	return sysfs_emit(page, "%s\n", geometry);
}

PMU_EVENT_ATTR(counters, leon3_cap_counters, LEON3_PMU_COUNTERS - 1,
	       leon3_cap_show);
PMU_EVENT_ATTR(cycle_counter, leon3_cap_cycle_counter, 1, leon3_cap_show);
PMU_EVENT_ATTR(counter_bits, leon3_cap_counter_bits, LEON3_PMU_COUNTER_BITS,
	       leon3_cap_show);
PMU_EVENT_ATTR(min_period, leon3_cap_min_period, LEON3_PMU_MIN_PERIOD,
	       leon3_cap_show);
PMU_EVENT_ATTR(min_kernel_period, leon3_cap_min_kernel_period,
	       LEON3_PMU_MIN_KERNEL_PERIOD, leon3_cap_show);
PMU_EVENT_ATTR(user_window, leon3_cap_user_window, 0, leon3_cap_window_show);
PMU_EVENT_ATTR(dcache_shadow0, leon3_cap_dcache_shadow0, 0,
	       leon3_cap_shadow_show);
PMU_EVENT_ATTR(dcache_shadow1, leon3_cap_dcache_shadow1, 1,
	       leon3_cap_shadow_show);
PMU_EVENT_ATTR(dcache_shadow2, leon3_cap_dcache_shadow2, 2,
	       leon3_cap_shadow_show);
PMU_EVENT_ATTR(dcache_shadow3, leon3_cap_dcache_shadow3, 3,
	       leon3_cap_shadow_show);
PMU_EVENT_ATTR(icache_shadow0, leon3_cap_icache_shadow0, LEON3_PMU_SHADOWS,
	       leon3_cap_shadow_show);
PMU_EVENT_ATTR(icache_shadow1, leon3_cap_icache_shadow1,
	       LEON3_PMU_SHADOWS + 1, leon3_cap_shadow_show);
PMU_EVENT_ATTR(icache_shadow2, leon3_cap_icache_shadow2,
	       LEON3_PMU_SHADOWS + 2, leon3_cap_shadow_show);
PMU_EVENT_ATTR(icache_shadow3, leon3_cap_icache_shadow3,
	       LEON3_PMU_SHADOWS + 3, leon3_cap_shadow_show);

static struct attribute *leon3_pmu_caps_attrs[] = {
	&leon3_cap_counters.attr.attr,
	&leon3_cap_cycle_counter.attr.attr,
	&leon3_cap_counter_bits.attr.attr,
	&leon3_cap_min_period.attr.attr,
	&leon3_cap_min_kernel_period.attr.attr,
	&leon3_cap_user_window.attr.attr,
	&leon3_cap_dcache_shadow0.attr.attr,
	&leon3_cap_dcache_shadow1.attr.attr,
	&leon3_cap_dcache_shadow2.attr.attr,
	&leon3_cap_dcache_shadow3.attr.attr,
	&leon3_cap_icache_shadow0.attr.attr,
	&leon3_cap_icache_shadow1.attr.attr,
	&leon3_cap_icache_shadow2.attr.attr,
	&leon3_cap_icache_shadow3.attr.attr,
	NULL,
};

/* dcache_shadow<k> and icache_shadow<k> only for a shadow the machine has */
static umode_t leon3_pmu_caps_is_visible(struct kobject *kobj,
					 struct attribute *attr, int i)
{
	struct perf_pmu_events_attr *cap =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);

	if (cap->attr.show == leon3_cap_shadow_show &&
	    !leon3_pmu_shadow[cap->id])
		return 0;
	if (cap->attr.show == leon3_cap_window_show && !leon3_pmu_window)
		return 0;
	return attr->mode;
}

static const struct attribute_group leon3_pmu_caps_group = {
	.name = "caps",
	.attrs = leon3_pmu_caps_attrs,
	.is_visible = leon3_pmu_caps_is_visible,
};

/*
 * cpus: the CPUs the PMU counts on, every one.  perf takes a PMU with
 * this file for a core PMU (as arm_pmu's): its JSON event tables and
 * metrics apply to it.
 */
static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	return cpumap_print_to_pagebuf(true, page, cpu_possible_mask);
}
static DEVICE_ATTR_RO(cpus);

/*
 * rdpmc: 1 (the default) lets a task read its own events' counters from
 * the user window once it maps them, 0 does not; as x86's, for the
 * events opened from then on.
 */
static ssize_t rdpmc_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, "%d\n", READ_ONCE(leon3_pmu_rdpmc));
}

static ssize_t rdpmc_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned int val;
	int ret = kstrtouint(buf, 0, &val);

	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	WRITE_ONCE(leon3_pmu_rdpmc, val);
	return count;
}
static DEVICE_ATTR_RW(rdpmc);

static struct attribute *leon3_pmu_cpus_attrs[] = {
	&dev_attr_cpus.attr,
	&dev_attr_rdpmc.attr,
	NULL,
};

/* rdpmc only where there is a window */
static umode_t leon3_pmu_cpus_is_visible(struct kobject *kobj,
					 struct attribute *attr, int i)
{
	if (attr == &dev_attr_rdpmc.attr && !leon3_pmu_window)
		return 0;
	return attr->mode;
}

static const struct attribute_group leon3_pmu_cpus_group = {
	.attrs = leon3_pmu_cpus_attrs,
	.is_visible = leon3_pmu_cpus_is_visible,
};

static const struct attribute_group *leon3_pmu_attr_groups[] = {
	&leon3_pmu_format_group,
	&leon3_pmu_events_group,
	&leon3_pmu_caps_group,
	&leon3_pmu_cpus_group,
	NULL,
};

static struct pmu leon3_pmu = {
	.module		= THIS_MODULE,
	.attr_groups	= leon3_pmu_attr_groups,
	.task_ctx_nr	= perf_hw_context,
	.event_init	= leon3_pmu_event_init,
	.pmu_enable	= leon3_pmu_enable,
	.pmu_disable	= leon3_pmu_disable,
	.add		= leon3_pmu_add,
	.del		= leon3_pmu_del,
	.start		= leon3_pmu_start,
	.stop		= leon3_pmu_stop,
	.read		= leon3_pmu_read,
	.event_idx	= leon3_pmu_event_idx,
	.event_mapped	= leon3_pmu_event_mapped,
	.event_unmapped	= leon3_pmu_event_unmapped,
	.check_period	= leon3_pmu_check_period,
	.addr_filters_validate	= leon3_pmu_addr_filters_validate,
	.addr_filters_sync	= leon3_pmu_addr_filters_sync,
};

/* Counters off and cleared, global enable on: each counter's EN decides */
/*
 * The context-switch hook: the PMU's PID register follows the CPU, and
 * so does UWIN.EN, set only for a task whose mm may read the window.
 */
static void leon3_pmu_switch(struct task_struct *next)
{
	if (leon3_pmu_features & FEAT_PID)
		leon3_pmu_reg_write(PMU_PID, task_pid_nr(next));
	if (leon3_pmu_window)
		leon3_pmu_uwin_for(next->mm);
}

/* Whether the driver needs leon3_pmu_switch() at each context switch */
static bool leon3_pmu_hooks_switch(void)
{
	return (leon3_pmu_features & FEAT_PID) || leon3_pmu_window;
}

static void leon3_pmu_reset_cpu(void *info)
{
	int c;

	for (c = 0; c < LEON3_PMU_COUNTERS; c++)
		leon3_pmu_reg_write(PMU_CTRL(c), CTRL_CLR);
	leon3_pmu_reg_write(PMU_OVF, OVF_COUNTERS);
	leon3_pmu_reg_write(PMU_GCTRL, GCTRL_IRQCLR | (info ? GCTRL_EN : 0));
	if (leon3_pmu_features & FEAT_TRACE)
		leon3_pmu_reg_write(PMU_TRCTRL, TRACE_CLR);
	if (leon3_pmu_features & FEAT_UWIN) {
		leon3_pmu_reg_write(PMU_UWIN, 0);
		__this_cpu_write(leon3_pmu_uwin, 0);
	}
}

/*
 * The shadow D- and I-caches, read on this CPU: every CPU has the same
 * ones (QEMU's -cpu properties), and sysfs lists the events of those only.
 */
static void __init leon3_pmu_read_shadows(void)
{
	char geometry[32];
	u32 cfg;
	int k;

	for (k = 0; k < 2 * LEON3_PMU_SHADOWS; k++) {
		if (k < LEON3_PMU_SHADOWS && (leon3_pmu_features & FEAT_SHADOW))
			cfg = leon3_pmu_reg_read(PMU_DSHADOW(k));
		else if (k >= LEON3_PMU_SHADOWS &&
			 (leon3_pmu_features & FEAT_ISHADOW))
			cfg = leon3_pmu_reg_read(PMU_ISHADOW(k - LEON3_PMU_SHADOWS));
		else
			cfg = 0;
		leon3_pmu_shadow[k] = cfg;
		if (!cfg)
			continue;
		leon3_shadow_geometry(geometry, sizeof(geometry), cfg);
		pr_info("shadow %c-cache %d: %s\n",
			k < LEON3_PMU_SHADOWS ? 'D' : 'I',
			k % LEON3_PMU_SHADOWS, geometry);
	}
}

/*
 * This CPU's overflow interrupt: the extended IRQMP line in its IRQLINE
 * register, routed to this CPU only.  0 if it has none: while the driver
 * loads, the PMU then counts only.
 */
static unsigned int leon3_pmu_request_irq(unsigned int cpu)
{
	u32 line = IRQLINE_LINE(leon3_pmu_reg_read(PMU_IRQLINE));
	const char *then = leon3_pmu_registered ? "" : ": counting only";
	unsigned int irq;
	int ret;

	irq = line >= 16 ? leon_build_device_irq(line, handle_simple_irq,
						 "edge", 0) : 0;
	if (!irq) {
		pr_info("CPU %u: no overflow interrupt (line %u)%s\n",
			cpu, line, then);
		return 0;
	}
	ret = IS_ENABLED(CONFIG_SMP) ? irq_set_affinity(irq, cpumask_of(cpu)) : 0;
	if (!ret)
		ret = request_irq(irq, leon3_pmu_handle_irq,
				  IRQF_NOBALANCING | IRQF_NO_THREAD,
				  "leon3_pmu", &leon3_pmu);
	if (ret) {
		pr_warn("CPU %u: overflow interrupt %u (line %u): error %d%s\n",
			cpu, irq, line, ret, then);
		return 0;
	}
	return irq;
}

static void leon3_pmu_free_irq(struct leon3_pmu_hw *hw)
{
	if (hw->irq)
		free_irq(hw->irq, &leon3_pmu);
	hw->irq = 0;
}

/*
 * CPU hot-plug, on the CPU itself: each CPU's PMU is reset and gets its
 * interrupt as it comes online (every online CPU when the driver loads),
 * and is stopped and loses it as it goes.  (sparc32 cannot unplug a CPU:
 * the teardown runs when the driver unloads, once no event is left.)
 * Sampling needs an interrupt on every CPU: while the driver loads, a
 * CPU without one leaves the PMU counting only; once the PMU is
 * registered, a CPU without one cannot come online.
 */
static int leon3_pmu_cpu_online(unsigned int cpu)
{
	struct leon3_pmu_hw *hw = this_cpu_ptr(&leon3_pmu_hw);

	leon3_pmu_reset_cpu((void *)1);
	if (!leon3_pmu_irqen)
		return 0;
	hw->irq = leon3_pmu_request_irq(cpu);
	if (hw->irq)
		return 0;
	return leon3_pmu_registered ? -ENODEV : 0;
}

static int leon3_pmu_cpu_offline(unsigned int cpu)
{
	leon3_pmu_reset_cpu(NULL);
	leon3_pmu_free_irq(this_cpu_ptr(&leon3_pmu_hw));
	return 0;
}

/* Some online CPU has no interrupt: counting only, every CPU's freed */
static void leon3_pmu_count_only(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (!per_cpu(leon3_pmu_hw, cpu).irq)
			break;
	if (cpu >= nr_cpu_ids)
		return;
	leon3_pmu_irqen = 0;
	for_each_possible_cpu(cpu)
		leon3_pmu_free_irq(per_cpu_ptr(&leon3_pmu_hw, cpu));
	leon3_pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;
}

static int __init leon3_pmu_init(void)
{
	u32 gctrl;
	int cpu, ret;

	if (sparc_cpu_model != sparc_leon)
		return -ENODEV;
	gctrl = leon3_pmu_reg_read(PMU_GCTRL);
	if (GCTRL_NCNT(gctrl) != LEON3_PMU_COUNTERS - 1) {
		pr_info("no LEON3 PMU (GCTRL 0x%08x)\n", gctrl);
		return -ENODEV;
	}
	leon3_pmu_features = leon3_pmu_reg_read(PMU_FEATURES);
	leon3_pmu_read_shadows();
	if (leon3_pmu_features & FEAT_UWIN) {
		u32 base = leon3_pmu_reg_read(PMU_UWIN) & UWIN_BASE;

		if (base)
			leon3_pmu_window = leon_map_pmu_window(base);
	}
	/* once here: a 64-bit division costs the handler hundreds of instructions */
	if (cpu_data(0).clock_tick)
		leon3_pmu_ns_mult = div_u64((u64)NSEC_PER_SEC << 10, cpu_data(0).clock_tick);
	leon3_pmu_init_event_attrs();
	for_each_possible_cpu(cpu) {
		struct hrtimer *poll = &per_cpu(leon3_pmu_hw, cpu).poll;

		hrtimer_init(poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		poll->function = leon3_pmu_poll;
	}

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf/leon3_pmu:online",
				leon3_pmu_cpu_online, leon3_pmu_cpu_offline);
	if (ret < 0)
		return ret;
	leon3_pmu_cpuhp = ret;
	leon3_pmu_count_only();
	if (leon3_pmu_features & FEAT_AF)
		leon3_pmu.nr_addr_filters = LEON3_PMU_ADDR_FILTERS;
	/*
	 * No user reads without the overflow interrupt, which keeps each
	 * counter within half its range of the count the mmap page has.
	 */
	if (!leon3_pmu_irqen)
		leon3_pmu_window = 0;
	if (leon3_pmu_hooks_switch()) {
		ret = sparc32_set_switch_hook(leon3_pmu_switch);
		if (ret)
			goto fail_irqs;
	}
	ret = perf_pmu_register(&leon3_pmu, "leon3_pmu", PERF_TYPE_RAW);
	if (ret)
		goto fail_hook;
	leon3_pmu_registered = true;
	if (leon3_pmu_features & FEAT_TRACE) {
		ret = leon3_trace_init(leon3_pmu_irqen,
				       leon3_pmu_features & FEAT_BRANCH);
		if (ret)
			goto fail_pmu;
	}

	if (leon3_pmu_irqen)
		pr_info("%d event counters and a cycle counter per CPU, overflow interrupts\n",
			GCTRL_NCNT(gctrl));
	else
		pr_info("%d event counters and a cycle counter per CPU, no overflow interrupt: counting only, read every %d ms\n",
			GCTRL_NCNT(gctrl), LEON3_PMU_POLL_MS);
	return 0;

fail_pmu:
	perf_pmu_unregister(&leon3_pmu);
	leon3_pmu_registered = false;
fail_hook:
	if (leon3_pmu_hooks_switch())
		sparc32_clear_switch_hook(leon3_pmu_switch);
fail_irqs:
	cpuhp_remove_state(leon3_pmu_cpuhp);	/* stops every CPU's PMU */
	return ret;
}

static void __exit leon3_pmu_exit(void)
{
	if (leon3_pmu_features & FEAT_TRACE)
		leon3_trace_exit();
	perf_pmu_unregister(&leon3_pmu);
	leon3_pmu_registered = false;
	if (leon3_pmu_hooks_switch())
		sparc32_clear_switch_hook(leon3_pmu_switch);
	cpuhp_remove_state(leon3_pmu_cpuhp);	/* stops every CPU's PMU */
}

module_init(leon3_pmu_init);
module_exit(leon3_pmu_exit);

MODULE_DESCRIPTION("LEON3 performance monitoring unit");
MODULE_LICENSE("GPL");
