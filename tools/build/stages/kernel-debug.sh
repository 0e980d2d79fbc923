# SPDX-License-Identifier: GPL-2.0
# The debug kernel: the kernel stage's source, patches and configuration
# with kernel/config/debug.config merged last (lockdep, atomic-sleep and
# lock debugging).  make test boots it for the driver's lock checks
# (tests/pmu/debug-kernel.t); tools/leon3-run --debug-kernel boots it.

. "$STAGES/kernel.sh"
STAGE_INPUTS="$STAGE_INPUTS kernel/config/debug.config tools/build/stages/kernel.sh"
KERNEL_FRAGMENTS="$KERNEL_FRAGMENTS kernel/config/debug.config"
KERNEL_LINK=linux-debug
