// SPDX-License-Identifier: GPL-2.0
/*
 * Locking bugs on purpose, for tests/pmu/debug-kernel.t: the debug
 * kernel must report each, or its clean runs of the PMU driver prove
 * nothing.  Load with bug=NAME:
 *
 *   abba    two mutexes taken in both orders (a possible deadlock)
 *   irq     a spinlock taken in a hardirq (a timer) and, elsewhere,
 *           with interrupts on: found only if lockdep sees interrupt
 *           context and state through the sparc32 trap code
 *   sleep   a mutex (which may sleep) taken under a spinlock
 *           (DEBUG_ATOMIC_SLEEP)
 *
 * The module then stays loaded and does nothing.
 */

#define pr_fmt(fmt) "lockdep_canary: " fmt

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "the bug to commit: abba, irq or sleep");

static DEFINE_MUTEX(canary_a);
static DEFINE_MUTEX(canary_b);
static DEFINE_SPINLOCK(canary_lock);
static struct hrtimer canary_timer;
static bool canary_fired;

static void canary_abba(void)
{
	mutex_lock(&canary_a);
	mutex_lock(&canary_b);
	mutex_unlock(&canary_b);
	mutex_unlock(&canary_a);

	mutex_lock(&canary_b);
	mutex_lock(&canary_a);
	mutex_unlock(&canary_a);
	mutex_unlock(&canary_b);
}

/* Hardirq context: the lock becomes IN-HARDIRQ. */
static enum hrtimer_restart canary_timer_fn(struct hrtimer *t)
{
	spin_lock(&canary_lock);
	WRITE_ONCE(canary_fired, true);
	spin_unlock(&canary_lock);
	return HRTIMER_NORESTART;
}

static void canary_irq(void)
{
	hrtimer_start(&canary_timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	while (!READ_ONCE(canary_fired))
		msleep(20);
	/* Interrupts on: the lock becomes HARDIRQ-ON as well. */
	spin_lock(&canary_lock);
	spin_unlock(&canary_lock);
}

static void canary_sleep(void)
{
	spin_lock(&canary_lock);
	mutex_lock(&canary_a);
	mutex_unlock(&canary_a);
	spin_unlock(&canary_lock);
}

static int __init canary_init(void)
{
	hrtimer_init(&canary_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	canary_timer.function = canary_timer_fn;

	if (!strcmp(bug, "abba"))
		canary_abba();
	else if (!strcmp(bug, "irq"))
		canary_irq();
	else if (!strcmp(bug, "sleep"))
		canary_sleep();
	else
		return -EINVAL;
	pr_info("committed %s\n", bug);
	return 0;
}

static void __exit canary_exit(void)
{
	hrtimer_cancel(&canary_timer);
}

module_init(canary_init);
module_exit(canary_exit);

MODULE_DESCRIPTION("Locking bugs on purpose, to test the debug kernel");
MODULE_LICENSE("GPL");
