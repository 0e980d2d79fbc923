# SPDX-License-Identifier: GPL-2.0
# What tools/bench/qemu-pmu and qemu-parts share: the bare-metal workload
# (qemu-workload.c) built and run on a QEMU, and the best and median of
# ROUNDS runs.  Sourced; the caller sets TOP, T (a scratch directory),
# rounds and cross (the toolchain prefix).

# build_workloads MODE...: $T/mMODE/qemu-workload.elf for each MODE
build_workloads() {
	local m
	for m in "$@"; do
		make -s -C "$TOP/tests/baremetal" O="$T/m$m" CROSS_COMPILE="$cross" \
			PROG="$TOP/tools/bench/qemu-workload.c" PROG_CFLAGS="-DMODE=$m" prog
	done
}

# run QEMU ELF [ARGS...]: host CPU seconds; the guest's output and
# QEMU's in $T/out
run() {
	local qemu=$1 elf=$2
	shift 2
	(cd "$T" && /usr/bin/time -f '%U %S' -o "$T/time" "$qemu" -M leon3_generic \
		-bios /dev/null -display none -monitor none -serial stdio -no-reboot \
		"$@" -kernel "$elf" </dev/null >"$T/out" 2>&1)
	grep -q 'BAREMETAL-DONE failures=0' "$T/out" ||
		{ echo "$(basename "$0"): $qemu $elf did not finish:" >&2; cat "$T/out" >&2; exit 1; }
	awk '{ print $1 + $2 }' "$T/time"
}

median() {
	sort -n | sed -n "$(((rounds + 1) / 2))p"
}

best() {
	sort -n | head -n 1
}
