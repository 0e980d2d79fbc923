// SPDX-License-Identifier: GPL-2.0
/*
 * Futexes on SMP LEON (kernel/patches/0003): every FUTEX_WAKE_OP
 * operation computes what it should, an unknown operation and a bad
 * address give their errno, FUTEX_LOCK_PI takes a free lock atomically,
 * and glibc's mutexes (plain and priority-inheriting) keep a shared
 * counter exact under contention.  One "ok"/"not ok" line per check;
 * exit status 0 only if all pass.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NTHREADS 4
#define NLOCKS 3000

static int failures;

static void report(int good, const char *what)
{
	printf("%s - futex: %s\n", good ? "ok" : "not ok", what);
	failures += !good;
}

static long futex(uint32_t *uaddr, int op, uint32_t val, void *timeout,
		  uint32_t *uaddr2, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);
}

/* What FUTEX_WAKE_OP must leave in *uaddr2, computed here. */
static uint32_t expected(int op, uint32_t old, uint32_t arg)
{
	switch (op) {
	case FUTEX_OP_SET:
		return arg;
	case FUTEX_OP_ADD:
		return old + arg;
	case FUTEX_OP_OR:
		return old | arg;
	case FUTEX_OP_ANDN:
		return old & ~arg;
	default:
		return old ^ arg;
	}
}

static void wake_ops(void)
{
	static const char *const names[] = { "SET", "ADD", "OR", "ANDN", "XOR" };
	uint32_t word1 = 0, word2;
	char what[80];
	long r;

	for (int op = FUTEX_OP_SET; op <= FUTEX_OP_XOR; op++) {
		word2 = 0x5a6;
		r = futex(&word1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &word2,
			  FUTEX_OP(op, 0x3c, FUTEX_OP_CMP_EQ, 0));
		snprintf(what, sizeof(what),
			 "FUTEX_WAKE_OP %s: 0x5a6 op 0x3c -> 0x%x (want 0x%x), returns %ld",
			 names[op], word2, expected(op, 0x5a6, 0x3c), r);
		report(r == 0 && word2 == expected(op, 0x5a6, 0x3c), what);
	}

	word2 = 7;
	r = futex(&word1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &word2,
		  FUTEX_OP(6, 1, FUTEX_OP_CMP_EQ, 0));
	report(r == -1 && errno == ENOSYS && word2 == 7,
	       "FUTEX_WAKE_OP with an unknown operation fails with ENOSYS");

	r = futex(&word1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1,
		  (uint32_t *)16, FUTEX_OP(FUTEX_OP_SET, 1, FUTEX_OP_CMP_EQ, 0));
	report(r == -1 && errno == EFAULT,
	       "FUTEX_WAKE_OP on an unmapped address fails with EFAULT");
}

static void lock_pi(void)
{
	uint32_t word = 0;
	pid_t tid = syscall(SYS_gettid);
	long r;

	r = futex(&word, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	report(r == 0 && word == (uint32_t)tid,
	       "FUTEX_LOCK_PI on a free lock stores the caller's TID");
	r = futex(&word, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	report(r == 0 && word == 0, "FUTEX_UNLOCK_PI frees it again");
}

static pthread_mutex_t mutex;
static unsigned long counter;

static void *locker(void *arg)
{
	for (int i = 0; i < NLOCKS; i++) {
		pthread_mutex_lock(&mutex);
		counter++;
		if (i % 64 == 0)
			sched_yield();	/* hand the CPU over with the lock held */
		pthread_mutex_unlock(&mutex);
	}
	return arg;
}

static void contention(int protocol, const char *what)
{
	pthread_mutexattr_t attr;
	pthread_t t[NTHREADS];
	char line[120];
	int err = 0;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setprotocol(&attr, protocol);
	pthread_mutex_init(&mutex, &attr);
	counter = 0;
	for (int i = 0; i < NTHREADS; i++)
		err |= pthread_create(&t[i], NULL, locker, NULL);
	for (int i = 0; i < NTHREADS; i++)
		err |= pthread_join(t[i], NULL);
	snprintf(line, sizeof(line), "%s: %d threads x %d locked increments = %lu",
		 what, NTHREADS, NLOCKS, counter);
	report(!err && counter == (unsigned long)NTHREADS * NLOCKS, line);
	pthread_mutex_destroy(&mutex);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	wake_ops();
	lock_pi();
	contention(PTHREAD_PRIO_NONE, "pthread mutex");
	contention(PTHREAD_PRIO_INHERIT, "priority-inheriting pthread mutex");
	return failures ? 1 : 0;
}
