#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Bare-metal programs (tests/baremetal/test-*.c) booted straight on QEMU's
# leon3_generic with -kernel.  Each prints its own "ok"/"not ok" lines on
# the UART and ends with "BAREMETAL-DONE failures=N"; they are passed
# through prefixed with the test's name.  A run that does not reach the
# marker (crash, hang, QEMU abort) or where QEMU exits non-zero is one more
# "not ok", with the last lines of output.
#
# A test runs once per "qemu-args: ..." line in its source (each line
# gives extra QEMU options, possibly none), or once if it has none.
# A "migrate-on: MARKER" line migrates every run of the test, when the
# guest prints MARKER, to a file (migrate.py, over QMP) and continues it
# in a second QEMU started with -incoming: the test must then finish in
# the second QEMU.  A "savevm-on: SAVE LOAD" line runs "savevm" through
# the monitor when the guest prints SAVE and "loadvm" when it prints LOAD
# (snapshot.py); the guest must then print LOAD a second time.
#
# The tests check the pipeline's timing table and the cache model each
# on its own, with exact counts, so they run with pmu-full-timing off (the
# cycles then include miss penalties only while a cache event is
# counted); a qemu-args line may turn it on again (test-pmu-snoop.c), and
# tests/pmu/fidelity.t checks the two together, in the guest, with the
# default on.
#
#   baremetal.t [NAME...]     only these tests (test-NAME.c)
#   LEON3_QEMU=...            the QEMU to use (default: build/bin/qemu-system-sparc)
#   BAREMETAL_TIMEOUT=60      seconds per run

. "$(dirname "$0")/../lib.sh"
set -u
here="$TOP/tests/baremetal"
cross="$TOP/build/toolchain/bin/sparc-leon3-linux-gnu-"
qemu=${LEON3_QEMU:-$TOP/build/bin/qemu-system-sparc}
# QEMU runs in a directory of its own (below): a relative path is made absolute
case $qemu in */*) [ ! -e "$qemu" ] || qemu=$(realpath "$qemu") ;; esac
limit=${BAREMETAL_TIMEOUT:-60}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ $# -gt 0 ]; then
	srcs=()
	for name in "$@"; do
		srcs+=("$here/test-${name#test-}")
		srcs[-1]=${srcs[-1]%.c}.c
	done
else
	srcs=("$here"/test-*.c)
fi

if [ ! -x "${cross}gcc" ]; then
	not_ok "the project's cross compiler ${cross}gcc is missing (make toolchain)"
	exit 1
fi
if [ ! -x "$qemu" ]; then
	not_ok "QEMU $qemu is missing (make qemu, or set LEON3_QEMU)"
	exit 1
fi

# pmu-full-timing=off (above), where the QEMU has the cache model: a QEMU
# built from an earlier patch of the series (make qemu-series-check) may not.
timing=
if "$qemu" -M leon3_generic -device LEON3-sparc-cpu,help 2>/dev/null |
	grep -q 'pmu-full-timing='; then
	timing="-global LEON3-sparc-cpu.pmu-full-timing=off"
fi

# -k: one test that does not build must not stop the others.
make -k -C "$here" O="$T" CROSS_COMPILE="$cross" >"$T/build.log" 2>&1

if [ $# -eq 0 ] && ls "$T"/*.elf >/dev/null 2>&1; then
	out=$("$TOP/tools/check-sparc-v8" --privileged "$T"/*.elf 2>&1) &&
		ok "the test programs are pure SPARC V8 (+ LEON3)" ||
		not_ok "the test programs are pure SPARC V8 (+ LEON3): $(printf '%s' "$out" | head -n 3 | tr '\n' ' ')"
fi

# last_lines FILE...: the end of some output, on one line
last_lines() {
	tail -q -n 6 "$@" 2>/dev/null | tr -d '\r' | tr '\n' '|' | sed 's/|$//; s/|/ | /g'
}

# why_stopped: QEMU's own messages (a fatal error comes before a
# register dump), then the guest's last lines
why_stopped() {
	local msg
	msg=$(grep -E '^(qemu|migrate.py|snapshot.py)|: (fatal|error)' "$T/err" | head -n 3 | tr '\n' ' ')
	printf '%s' "${msg:+$msg| }guest: $(last_lines "$T/out")"
}

# boot ELF OUT ARGS...: run QEMU on ELF, the guest's output in OUT
boot() {
	local elf=$1 out=$2
	shift 2
	# -bios /dev/null: an empty firmware image makes leon3_generic write
	# its small -kernel bootloader, even if a u-boot.bin lies in the
	# current directory (QEMU looks there first); cd to the empty $T too.
	# (The outer 2>/dev/null: bash's own "Aborted" note when QEMU aborts.)
	(cd "$T" && timeout -k 5 "$limit" "$qemu" -M leon3_generic -bios /dev/null \
		-display none -monitor none -serial stdio -no-reboot \
		$timing "$@" -kernel "$elf" </dev/null >"$out" 2>>"$T/err") 2>/dev/null
}

# run_one ELF LABEL ARGS [MARKER [SAVE LOAD]]: one boot (two with a
# migration at MARKER; a savevm and a loadvm at SAVE and LOAD), its
# lines passed through
run_one() {
	local elf=$1 label=$2 args=$3 marker=${4:-} save=${5:-} load=${6:-}
	local argv rc line want shown pid
	read -ra argv <<<"$args"
	: >"$T/err"
	if [ -n "$save" ]; then
		rm -f "$T/qmp.sock" "$T/snap.qcow2"
		boot "$elf" "$T/out" -S -qmp "unix:$T/qmp.sock,server=on,wait=off" "${argv[@]}" &
		pid=$!
		if ! python3 "$here/snapshot.py" "$T/qmp.sock" "$T/out" "$save" "$load" \
			"$T/snap.qcow2" "$limit" 2>>"$T/err"; then
			kill "$pid" 2>/dev/null
			wait "$pid"
			not_ok "$label: savevm at $save, loadvm at $load: $(why_stopped)"
			return
		fi
		wait "$pid"
		rc=$?
		if [ "$(grep -c "$load" "$T/out")" -lt 2 ]; then
			not_ok "$label: the guest did not run again from the snapshot"
		fi
		echo "# $label: savevm at $save, loadvm at $load"
	elif [ -z "$marker" ]; then
		boot "$elf" "$T/out" "${argv[@]}"
		rc=$?
	else
		rm -f "$T/qmp.sock" "$T/state"
		boot "$elf" "$T/out1" -qmp "unix:$T/qmp.sock,server=on,wait=off" "${argv[@]}" &
		pid=$!
		if ! python3 "$here/migrate.py" "$T/qmp.sock" "$T/out1" "$marker" "$T/state" \
			"$limit" 2>>"$T/err"; then
			kill "$pid" 2>/dev/null
			wait "$pid"
			cp "$T/out1" "$T/out"
			not_ok "$label: migration at $marker: $(why_stopped)"
			return
		fi
		wait "$pid"
		# The second QEMU continues the guest; the end must come from it.
		boot "$elf" "$T/out2" -incoming "exec:cat $T/state" "${argv[@]}"
		rc=$?
		if grep -q BAREMETAL-DONE "$T/out1"; then
			not_ok "$label: the test ended before the migration completed"
		fi
		cat "$T/out1" "$T/out2" >"$T/out"
		echo "# $label: migrated to a new QEMU at $marker"
	fi
	shown=0
	while IFS= read -r line; do
		case $line in
		"ok - "*) echo "ok - $label: ${line#ok - }" ;;
		"not ok - "*)
			echo "not ok - $label: ${line#not ok - }"
			shown=$((shown + 1))
			;;
		"# "*) echo "# $label: ${line#\# }" ;;
		esac
	done < <(tr -d '\r' <"$T/out")

	want=$(tr -d '\r' <"$T/out" | sed -n 's/^BAREMETAL-DONE failures=\([0-9]*\)$/\1/p' | tail -n 1)
	if [ -z "$want" ]; then
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			not_ok "$label: timed out after ${limit}s without BAREMETAL-DONE: $(why_stopped)"
		else
			not_ok "$label: stopped without BAREMETAL-DONE (QEMU exit $rc): $(why_stopped)"
		fi
		return
	fi
	if [ "$rc" != 0 ]; then
		not_ok "$label: QEMU exited with status $rc after BAREMETAL-DONE: $(why_stopped)"
	fi
	if [ "$want" != "$shown" ]; then
		not_ok "$label: BAREMETAL-DONE counts $want failures, $shown were printed"
	fi
}

for src in "${srcs[@]}"; do
	name=$(basename "$src" .c)
	short=${name#test-}
	elf="$T/$name.elf"
	if [ ! -f "$src" ]; then
		not_ok "$short: no such test ($src)"
		continue
	fi
	if [ ! -f "$elf" ]; then
		why=$(grep -F "$name.c:" "$T/build.log" | head -n 3 | tr '\n' ' ')
		not_ok "$short: does not build: ${why:-$(last_lines "$T/build.log")}"
		continue
	fi
	# One line per run: what follows "qemu-args:", up to a "*/".
	runs=$(sed -n 's/^[[:space:]/*]*qemu-args:\(.*\)$/\1/p' "$src" |
		sed 's|\*/.*||; s/^[[:space:]]*//; s/[[:space:]]*$//; s/^$/-/')
	marker=$(sed -n 's/^[[:space:]/*]*migrate-on:[[:space:]]*\([^[:space:]]*\).*$/\1/p' "$src" | head -n 1)
	save= load=
	read -r save load < <(sed -n 's/^[[:space:]/*]*savevm-on:[[:space:]]*\(.*\)$/\1/p' "$src") || true
	while IFS= read -r args; do
		[ "$args" != - ] || args=
		label=$short
		[ -z "$args" ] || label="$short ($args)"
		run_one "$elf" "$label" "$args" "$marker" "$save" "$load"
	done <<<"${runs:--}"
done
