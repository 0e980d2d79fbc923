// SPDX-License-Identifier: GPL-2.0
/*
 * libdsowork.so for tests/pmu/addr-filter-dso.t: dso_work(n) is 3n + 3
 * instructions, like work() in workload.c, so that a filter on it has
 * an exact count.
 */
#include "loop-asm.h"

LOOP3_FUNCTION(dso_work);
