// SPDX-License-Identifier: GPL-2.0
/*
 * The LEON3 PMU's PID log, part of the leon3_pmu module.
 *
 * At each PID write a CPU's PMU logs the PID that ran and its cycles in
 * a FIFO of 64 records.  The driver drains the FIFOs into one buffer,
 * read as text from /dev/leon3_pidlog, a "cpu pid cycles" line per
 * record; writing 1 or 0 there starts or stops the logging.
 */

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include "leon3_pmu.h"

struct leon3_pidlog_rec {
	u32 cpu;
	u32 pid;
	u32 cycles;
};

#define PIDLOG_RECORDS		4096
#define PIDLOG_DRAIN_AT		32	/* records in the FIFO */

static struct leon3_pidlog_rec leon3_pidlog[PIDLOG_RECORDS];
static unsigned int leon3_pidlog_head, leon3_pidlog_tail;
static unsigned long leon3_pidlog_lost;
static bool leon3_pidlog_on;
static DEFINE_RAW_SPINLOCK(leon3_pidlog_lock);
static DEFINE_MUTEX(leon3_pidlog_mutex);

/* Move this CPU's logged records to the buffer (IRQs off) */
static void leon3_pidlog_drain(void *unused)
{
	u32 status = leon3_pmu_reg_read(PMU_PIDLOG);
	u32 n = PIDLOG_COUNT(status);
	struct leon3_pidlog_rec rec;

	rec.cpu = smp_processor_id();
	raw_spin_lock(&leon3_pidlog_lock);
	while (n--) {
		rec.pid = leon3_pmu_reg_read(PMU_PIDLOG_PID);
		rec.cycles = leon3_pmu_reg_read(PMU_PIDLOG_CYC);	/* pops the record */
		if (leon3_pidlog_tail - leon3_pidlog_head < PIDLOG_RECORDS)
			leon3_pidlog[leon3_pidlog_tail++ % PIDLOG_RECORDS] = rec;
		else
			leon3_pidlog_lost++;
	}
	if (status & PIDLOG_OVF) {
		/* The FIFO filled up: say so, and clear the flag. */
		leon3_pidlog_lost++;
		leon3_pmu_reg_write(PMU_PIDLOG, PIDLOG_CLR | (status & PIDLOG_EN));
	}
	raw_spin_unlock(&leon3_pidlog_lock);
}

static void leon3_pidlog_start_cpu(void *unused)
{
	leon3_pmu_reg_write(PMU_PIDLOG, PIDLOG_CLR | PIDLOG_EN);
}

static void leon3_pidlog_stop_cpu(void *unused)
{
	leon3_pidlog_drain(NULL);
	leon3_pmu_reg_write(PMU_PIDLOG, 0);
}

/* At each context switch (IRQs off): drain a FIFO getting full. */
void leon3_pmu_pidlog_switch(void)
{
	if (READ_ONCE(leon3_pidlog_on) &&
	    PIDLOG_COUNT(leon3_pmu_reg_read(PMU_PIDLOG)) >= PIDLOG_DRAIN_AT)
		leon3_pidlog_drain(NULL);
}

static ssize_t leon3_pidlog_read(struct file *file, char __user *buf,
				 size_t len, loff_t *ppos)
{
	struct leon3_pidlog_rec rec;
	unsigned long lost;
	bool fault = false;
	size_t done = 0;
	char line[40];
	int n;

	mutex_lock(&leon3_pidlog_mutex);
	on_each_cpu(leon3_pidlog_drain, NULL, 1);
	for (;;) {
		raw_spin_lock_irq(&leon3_pidlog_lock);
		lost = leon3_pidlog_lost;
		rec = leon3_pidlog[leon3_pidlog_head % PIDLOG_RECORDS];
		if (!lost && leon3_pidlog_head == leon3_pidlog_tail) {
			raw_spin_unlock_irq(&leon3_pidlog_lock);
			break;
		}
		raw_spin_unlock_irq(&leon3_pidlog_lock);

		if (lost)
			n = scnprintf(line, sizeof(line), "# lost %lu\n", lost);
		else
			n = scnprintf(line, sizeof(line), "%u %u %u\n",
				      rec.cpu, rec.pid, rec.cycles);
		if (done + n > len)
			break;
		if (copy_to_user(buf + done, line, n)) {
			fault = true;
			break;
		}
		done += n;

		raw_spin_lock_irq(&leon3_pidlog_lock);
		if (lost)
			leon3_pidlog_lost -= lost;
		else
			leon3_pidlog_head++;
		raw_spin_unlock_irq(&leon3_pidlog_lock);
	}
	mutex_unlock(&leon3_pidlog_mutex);
	return fault && !done ? -EFAULT : done;
}

static ssize_t leon3_pidlog_write(struct file *file, const char __user *buf,
				  size_t len, loff_t *ppos)
{
	bool on;
	int ret;

	ret = kstrtobool_from_user(buf, len, &on);
	if (ret)
		return ret;

	mutex_lock(&leon3_pidlog_mutex);
	if (on) {
		raw_spin_lock_irq(&leon3_pidlog_lock);
		leon3_pidlog_head = 0;
		leon3_pidlog_tail = 0;
		leon3_pidlog_lost = 0;
		raw_spin_unlock_irq(&leon3_pidlog_lock);
		WRITE_ONCE(leon3_pidlog_on, true);
		on_each_cpu(leon3_pidlog_start_cpu, NULL, 1);
	} else {
		on_each_cpu(leon3_pidlog_stop_cpu, NULL, 1);
		WRITE_ONCE(leon3_pidlog_on, false);
	}
	mutex_unlock(&leon3_pidlog_mutex);
	return len;
}

static const struct file_operations leon3_pidlog_fops = {
	.owner	= THIS_MODULE,
	.read	= leon3_pidlog_read,
	.write	= leon3_pidlog_write,
	.llseek	= noop_llseek,
};

static struct miscdevice leon3_pidlog_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "leon3_pidlog",
	.fops	= &leon3_pidlog_fops,
	.mode	= 0600,
};

int leon3_pmu_pidlog_init(void)
{
	return misc_register(&leon3_pidlog_dev);
}

void leon3_pmu_pidlog_exit(void)
{
	misc_deregister(&leon3_pidlog_dev);
}
