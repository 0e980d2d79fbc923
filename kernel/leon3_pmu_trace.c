// SPDX-License-Identifier: GPL-2.0
/*
 * The LEON3 PMU's trace unit as the perf PMU "leon3_trace", part of the
 * leon3_pmu module.
 *
 * Each CPU's unit records the tags a program runs (sethi imm22, %g0,
 * which a GCC plugin puts at function entries and exits and at loop
 * entries, latches and exits), or with the "branch" switch the path it
 * takes (a bit for each conditional branch, the target of each indirect
 * one), and events, as 16-byte records that it
 * writes by itself to a buffer of pages that a table lists
 * (Documentation/pmu-registers.md, "Trace unit").  The buffer is the
 * event's AUX area, in the manner of arm_spe_pmu.c: setup_aux() makes
 * the table of its pages, and the unit's head, limit and watermark are
 * perf's own head, free space and wakeup (or half the free space, if
 * that comes first): offsets that run on, as the unit's do.  At the
 * watermark, or when the buffer is full, the PMU's interrupt hands what
 * the unit wrote to perf and gives it the space perf has free; what a
 * full buffer lost the unit counts, and says in a LOST record when it
 * resumes, and the AUX record is flagged truncated.
 *
 * The unit's clock runs only while it records, so the driver ties it to
 * the event's clock (perf's sample time): where the unit is off, before
 * its START record and after its STOP record, the driver writes a SYNC
 * record of its own with the two clocks' values, and perf places the
 * records between them on its clock.
 */

#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "leon3_pmu.h"

/* attr.config */
#define TRACE_CFG_PIDREC	BIT(0)	/* PID records */
#define TRACE_CFG_OVFREC	BIT(1)	/* counter overflow records */
#define TRACE_CFG_INSN_TIME	BIT(2)	/* times in instructions, not cycles */
#define TRACE_CFG_BRANCH	BIT(3)	/* branches, not tags */
#define TRACE_CFG_MASK		(TRACE_CFG_PIDREC | TRACE_CFG_OVFREC | \
				 TRACE_CFG_INSN_TIME | TRACE_CFG_BRANCH)

#define TRACE_REC_SIZE		16
#define TRACE_MAX_PAGES		65536	/* TRPAGES' largest */
/* In snapshot mode the unit writes on, over what it wrote before. */
#define TRACE_NO_LIMIT		0x7ffffff0U

struct leon3_trace_buf {
	u32 *table;		/* the pages' physical addresses, for the unit */
	int nr_pages;
	bool snapshot;
};

struct leon3_trace_cpu {
	struct perf_output_handle handle;
	struct perf_event *event;	/* the one event of this CPU's unit */
};

static DEFINE_PER_CPU(struct leon3_trace_cpu, leon3_trace_cpu);
/* FEATURES: the unit has a branch mode */
static bool leon3_trace_branch;

static int leon3_trace_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u32 ctrl = TRACE_EN | TRACE_IRQEN;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	/*
	 * Records, not samples: a period means nothing (perf record sets 1,
	 * as for every AUX event), a frequency is refused; nothing but the
	 * switches in the config.
	 */
	if (attr->freq || attr->config & ~TRACE_CFG_MASK ||
	    attr->config1 || attr->config2)
		return -EINVAL;
	/* Both modes excluded: no tags, so the event records at least */
	if (attr->exclude_user && attr->exclude_kernel &&
	    !(attr->config & (TRACE_CFG_PIDREC | TRACE_CFG_OVFREC)))
		return -EINVAL;
	if (!attr->exclude_kernel)
		ctrl |= TRACE_SU;
	if (attr->exclude_user)
		ctrl |= TRACE_NU;
	if (attr->config & TRACE_CFG_PIDREC)
		ctrl |= TRACE_PIDREC;
	if (attr->config & TRACE_CFG_OVFREC)
		ctrl |= TRACE_OVFREC;
	if (attr->config & TRACE_CFG_INSN_TIME)
		ctrl |= TRACE_IC;
	if (attr->config & TRACE_CFG_BRANCH) {
		if (!leon3_trace_branch)
			return -EOPNOTSUPP;
		ctrl |= TRACE_BR;
	}
	event->hw.config = ctrl;
	return 0;
}

/*
 * The unit's limit and watermark: perf's free space, and perf's next
 * wakeup or half the free space, whichever comes first.  Each interrupt
 * before the limit gives the unit what perf has read since the last, so
 * a reader that keeps up never lets it fill the space it has.
 */
static void leon3_trace_set_limits(struct perf_output_handle *handle,
				   struct leon3_trace_buf *buf)
{
	u32 head = handle->head;
	u32 limit = head + (handle->size & ~(TRACE_REC_SIZE - 1));
	u32 half = (limit - head) / 2 & ~(TRACE_REC_SIZE - 1);
	u32 wmark = half ? head + half : limit;

	if (buf->snapshot) {
		leon3_pmu_reg_write(PMU_TRLIMIT, head + TRACE_NO_LIMIT);
		leon3_pmu_reg_write(PMU_TRWMARK, head - TRACE_REC_SIZE);
		return;
	}
	leon3_pmu_reg_write(PMU_TRLIMIT, limit);
	if ((s32)(handle->wakeup - wmark) < 0)
		wmark = handle->wakeup;
	leon3_pmu_reg_write(PMU_TRWMARK, wmark);
}

/*
 * Write a SYNC record at the unit's head while it is off: the event's
 * clock now, and the unit's clock (which stands while it is off), so
 * the START record that follows or the STOP record before has a perf
 * time.  Where there is no room, none: the unit would drop a record
 * there too.
 */
static void leon3_trace_write_sync(struct perf_event *event,
				   struct leon3_trace_buf *buf)
{
	u32 head = leon3_pmu_reg_read(PMU_TRHEAD);
	u32 off = head & ((buf->nr_pages << PAGE_SHIFT) - 1);
	u64 now = event->clock();
	__be32 *rec;

	if ((s32)(leon3_pmu_reg_read(PMU_TRLIMIT) - head) < TRACE_REC_SIZE)
		return;
	/* The pages are perf's AUX pages: lowmem, as the unit's table has it */
	rec = phys_to_virt(buf->table[off >> PAGE_SHIFT]) + offset_in_page(off);
	rec[0] = cpu_to_be32(TRACE_REC_SYNC << 28 | smp_processor_id() << 24);
	rec[1] = cpu_to_be32(upper_32_bits(now));
	rec[2] = cpu_to_be32(lower_32_bits(now));
	rec[3] = cpu_to_be32(leon3_pmu_reg_read(PMU_TRTIME_LO));
	leon3_pmu_reg_write(PMU_TRHEAD, head + TRACE_REC_SIZE);
}

/*
 * Hand what the unit wrote to perf.  @ctrl is TRCTRL as it was: a unit
 * that stopped, or lost records, truncated the trace.
 */
static void leon3_trace_output_end(struct perf_output_handle *handle,
				   u32 ctrl)
{
	struct leon3_trace_buf *buf = perf_get_aux(handle);
	u32 head = leon3_pmu_reg_read(PMU_TRHEAD);
	unsigned long size = head - (u32)handle->head;

	if ((ctrl & (TRACE_FULL | TRACE_ERR)) || leon3_pmu_reg_read(PMU_TRLOST))
		perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);
	if (buf->snapshot) {
		/* perf takes the head from the handle; the last buffer's worth */
		size = min_t(unsigned long, size,
			     (unsigned long)buf->nr_pages << PAGE_SHIFT);
		handle->head = head;
	}
	perf_aux_output_end(handle, size);
}

static void leon3_trace_start(struct perf_event *event, int flags)
{
	struct leon3_trace_cpu *tc = this_cpu_ptr(&leon3_trace_cpu);
	struct perf_output_handle *handle = &tc->handle;
	struct hw_perf_event *hwc = &event->hw;
	struct leon3_trace_buf *buf;

	buf = perf_aux_output_begin(handle, event);
	if (!buf) {
		hwc->state |= PERF_HES_STOPPED;
		return;
	}
	hwc->state = 0;
	leon3_pmu_reg_write(PMU_TRTABLE, virt_to_phys(buf->table));
	leon3_pmu_reg_write(PMU_TRPAGES, buf->nr_pages);
	leon3_pmu_reg_write(PMU_TRHEAD, handle->head);
	leon3_trace_set_limits(handle, buf);
	leon3_trace_write_sync(event, buf);
	/* What it lost before, on this CPU or another: a LOST record first */
	leon3_pmu_reg_write(PMU_TRLOST, local64_read(&hwc->prev_count));
	leon3_pmu_reg_write(PMU_TRCTRL, hwc->config | TRACE_CLR);
}

static void leon3_trace_stop(struct perf_event *event, int flags)
{
	struct leon3_trace_cpu *tc = this_cpu_ptr(&leon3_trace_cpu);
	struct perf_output_handle *handle = &tc->handle;
	struct hw_perf_event *hwc = &event->hw;
	struct leon3_trace_buf *buf;
	u32 ctrl;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	ctrl = leon3_pmu_reg_read(PMU_TRCTRL);
	/* Off: the unit writes what it holds back, and a STOP record. */
	leon3_pmu_reg_write(PMU_TRCTRL, 0);
	buf = perf_get_aux(handle);
	if (buf) {
		local64_set(&hwc->prev_count, leon3_pmu_reg_read(PMU_TRLOST));
		if (!(ctrl & TRACE_ERR))
			leon3_trace_write_sync(event, buf);
		leon3_trace_output_end(handle, ctrl);
	}
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int leon3_trace_add(struct perf_event *event, int flags)
{
	struct leon3_trace_cpu *tc = this_cpu_ptr(&leon3_trace_cpu);
	struct hw_perf_event *hwc = &event->hw;

	if (tc->event)
		return -EBUSY;
	tc->event = event;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START) {
		leon3_trace_start(event, PERF_EF_RELOAD);
		if (hwc->state & PERF_HES_STOPPED) {
			tc->event = NULL;
			return -EINVAL;
		}
	}
	return 0;
}

static void leon3_trace_del(struct perf_event *event, int flags)
{
	struct leon3_trace_cpu *tc = this_cpu_ptr(&leon3_trace_cpu);

	leon3_trace_stop(event, PERF_EF_UPDATE);
	tc->event = NULL;
}

static void leon3_trace_read(struct perf_event *event)
{
}

static void *leon3_trace_setup_aux(struct perf_event *event, void **pages,
				   int nr_pages, bool snapshot)
{
	int i, cpu = event->cpu == -1 ? raw_smp_processor_id() : event->cpu;
	struct leon3_trace_buf *buf;

	/* The unit takes a power of two of pages, as perf makes them */
	if (nr_pages > TRACE_MAX_PAGES || !is_power_of_2(nr_pages))
		return NULL;
	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, cpu_to_node(cpu));
	if (!buf)
		return NULL;
	/* kmalloc: the unit reads the table by its physical address */
	buf->table = kmalloc_array(nr_pages, sizeof(u32), GFP_KERNEL);
	if (!buf->table) {
		kfree(buf);
		return NULL;
	}
	for (i = 0; i < nr_pages; i++)
		buf->table[i] = virt_to_phys(pages[i]);
	buf->nr_pages = nr_pages;
	buf->snapshot = snapshot;
	return buf;
}

static void leon3_trace_free_aux(void *aux)
{
	struct leon3_trace_buf *buf = aux;

	kfree(buf->table);
	kfree(buf);
}

/*
 * The PMU's interrupt with OVF bit 7: the unit reached its watermark or
 * stopped.  Hand over what it wrote, and give it perf's free space; it
 * goes on writing meanwhile, into the space it had.
 */
void leon3_trace_handle_irq(void)
{
	struct leon3_trace_cpu *tc = this_cpu_ptr(&leon3_trace_cpu);
	struct perf_output_handle *handle = &tc->handle;
	struct perf_event *event = tc->event;
	struct leon3_trace_buf *buf;
	u32 ctrl;

	leon3_pmu_reg_write(PMU_OVF, OVF_TRACE);
	buf = perf_get_aux(handle);
	if (!event || (event->hw.state & PERF_HES_STOPPED) || !buf)
		return;
	ctrl = leon3_pmu_reg_read(PMU_TRCTRL);
	if (buf->snapshot && !(ctrl & (TRACE_FULL | TRACE_ERR)))
		return;
	leon3_trace_output_end(handle, ctrl);
	buf = perf_aux_output_begin(handle, event);
	if (!buf) {
		/* No room: perf disables the event; the unit counts the rest. */
		leon3_pmu_reg_write(PMU_TRCTRL, 0);
		local64_set(&event->hw.prev_count,
			    leon3_pmu_reg_read(PMU_TRLOST));
		event->hw.state |= PERF_HES_STOPPED;
		return;
	}
	leon3_trace_set_limits(handle, buf);
	if (ctrl & (TRACE_FULL | TRACE_ERR))
		leon3_pmu_reg_write(PMU_TRCTRL, event->hw.config | TRACE_CLR);
}

/* sysfs: format/ */
PMU_FORMAT_ATTR(pidrec, "config:0");
PMU_FORMAT_ATTR(ovfrec, "config:1");
PMU_FORMAT_ATTR(insn_time, "config:2");
PMU_FORMAT_ATTR(branch, "config:3");

static struct attribute *leon3_trace_format_attrs[] = {
	&format_attr_pidrec.attr,
	&format_attr_ovfrec.attr,
	&format_attr_insn_time.attr,
	&format_attr_branch.attr,
	NULL,
};

static const struct attribute_group leon3_trace_format_group = {
	.name = "format",
	.attrs = leon3_trace_format_attrs,
};

static const struct attribute_group *leon3_trace_attr_groups[] = {
	&leon3_trace_format_group,
	NULL,
};

static struct pmu leon3_trace_pmu = {
	.module		= THIS_MODULE,
	/*
	 * The PMU's interrupt is an IRQMP extended interrupt, a maskable
	 * one: the event may take any clock (perf record -k).
	 */
	.capabilities	= PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_ITRACE |
			  PERF_PMU_CAP_NO_NMI,
	.attr_groups	= leon3_trace_attr_groups,
	.task_ctx_nr	= perf_sw_context,
	.event_init	= leon3_trace_event_init,
	.add		= leon3_trace_add,
	.del		= leon3_trace_del,
	.start		= leon3_trace_start,
	.stop		= leon3_trace_stop,
	.read		= leon3_trace_read,
	.setup_aux	= leon3_trace_setup_aux,
	.free_aux	= leon3_trace_free_aux,
};

int leon3_trace_init(bool irq, bool branch)
{
	BUILD_BUG_ON(PAGE_SIZE != 4096);	/* the unit's pages */
	leon3_trace_branch = branch;
	/* Without the interrupt the unit stops when full, until stopped. */
	if (!irq)
		pr_info("trace unit: no interrupt, a trace ends when its buffer is full\n");
	return perf_pmu_register(&leon3_trace_pmu, "leon3_trace", -1);
}

void leon3_trace_exit(void)
{
	perf_pmu_unregister(&leon3_trace_pmu);
}
