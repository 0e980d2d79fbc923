#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# (Its guests keep one host core busy between them, 70 s of CPU time in
# 74 s; what they time is the guest's own work: --leon3-clock, a fixed
# lpj, a number of host stops.)
#
# The guest boots on the patched QEMU through the project's PROM, and the
# launcher (tools/leon3-run) runs commands in it: exit statuses, files
# both ways, timeouts, 1 and 2 CPUs, perf_event_open, odd PROM inputs.

. "$(dirname "$0")/../lib.sh"
set -u
run="$TOP/tools/leon3-run"
cc="$TOP/build/toolchain/bin/sparc-leon3-linux-gnu-gcc"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# guest DESC WANT_RC [launcher args...]: run and compare the exit status
guest() {
	local desc=$1 want=$2 rc
	shift 2
	"$run" --timeout 120 "$@" >"$T/out" 2>"$T/err" && rc=0 || rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc, want $want): $(tail -n 5 "$T/err" "$T/out" | tr '\n' ' ')"
	fi
}

guest "true in the guest exits 0" 0 -- true
guest "false in the guest exits 1" 1 -- false
guest "a command's own exit status comes back" 42 -- sh -c 'exit 42'
guest "output without a final newline" 7 -- sh -c 'printf "a\nno newline"; exit 7'
is "output without a final newline comes back as it was" "$(od -c "$T/out" | head -n 2)" \
	"$(printf 'a\nno newline' | od -c | head -n 2)"
guest "uname -m" 0 -- uname -m
is "uname -m says sparc" "$(cat "$T/out")" sparc
guest "/proc/cpuinfo" 0 -- cat /proc/cpuinfo
check "/proc/cpuinfo shows a LEON" grep -qi 'leon' "$T/out"
# Each CPU's clock (the kernel patch "sparc32: show each CPU's clock in
# /proc/cpuinfo on SMP"), which the PROM gives the
# kernel as the cpu nodes' clock-frequency: prom/prom.h's default.
hz=$(awk '$2 == "DEFAULT_CLOCK_HZ" { print $3 }' "$TOP/prom/prom.h")
guest "/proc/cpuinfo with 2 CPUs" 0 --cpus 2 -- cat /proc/cpuinfo
is "/proc/cpuinfo: each CPU's clock, $hz Hz, as sparc64 shows it" \
	"$(grep ClkTck "$T/out" | tr -d '\r' | tr '\t' ' ')" \
	"$(printf 'Cpu0ClkTck : %016x\nCpu1ClkTck : %016x' "$hz" "$hz")"

for cpus in 1 2 3; do
	guest "boot with $cpus CPU(s)" 0 --cpus "$cpus" -- cat /sys/devices/system/cpu/online
	is "$cpus CPU(s) online" "$(cat "$T/out")" "$([ "$cpus" = 1 ] && echo 0 || echo "0-$((cpus - 1))")"
done

# The kernel's CRNG is ready before the command runs: /init credits the
# launcher's fresh seed with busybox seedrng (Documentation/boot.md).
# Without it, glibc programs ran 38 more user instructions in their first
# malloc() until the CRNG became ready, some 35 s after boot.
guest "the CRNG seed: a guest reports its CRNG state" 0 -- sh -c \
	'dmesg | grep -c "random: crng init done"; cat /proc/sys/kernel/random/entropy_avail
	[ -e /leon3-run/seedrng ] && echo seed left || echo seed gone'
is "the CRNG is ready when the command starts (crng init done, 256 bits), the seed gone" \
	"$(tr -d '\r' <"$T/out" | tr '\n' ' ')" "1 256 seed gone "

guest "--rng-seed shorter than 32 bytes is refused" 2 --rng-seed 5eed -- true
check "the refusal says how many bytes it needs" grep -q -- '--rng-seed: 2 bytes, at least 32 needed' "$T/err"

# --leon3-clock: the guest's clock advances 32 ns an instruction.  A
# shell loop keeps the only CPU busy (no idle time), so the time perf
# stat reports is all the instructions it counts system-wide, 32 ns each.
busy_loop='sh -c "i=0; while [ \$i -lt 3000 ]; do i=\$((i+1)); done"'
is_32ns() { awk -v x="$1" 'BEGIN { exit !(x > 31.68 && x < 32.32) }'; }	# to 1 %
guest "--leon3-clock: perf stat -a times a busy loop" 0 --leon3-clock -- sh -c \
	"perf stat -a -e instructions -- $busy_loop 2>&1"
ns=$(tr -d '\r' <"$T/out" | awk '/ instructions/ { gsub(",", "", $1); n = $1 }
	/seconds time elapsed/ { s = $1 } END { if (n > 0) printf "%.3f", s * 1e9 / n }')
check "--leon3-clock: the guest's time is its instructions times 32 ns, to 1 % ($ns ns each)" \
	is_32ns "$ns"

# On a LEON3's clock with more than one CPU, the kernel's crypto
# jitterentropy start-up (gone: kernel/config/leon3.config) found no
# jitter and held a CPU past RCU's stall limit (21 s) during boot.
for cpus in 2 4; do
	guest "--leon3-clock on $cpus CPUs: boots" 0 --leon3-clock --cpus "$cpus" -- sh -c \
		'cut -d" " -f1 /proc/uptime; dmesg | grep -E "rcu.*(stall|detected)|jitterentropy" || true'
	up=$(head -n 1 "$T/out" | tr -d '\r')
	is "--leon3-clock on $cpus CPUs: the kernel log reports no RCU stall (up ${up:-?} s)" \
		"$(tail -n +2 "$T/out" | tr -d '\r')" ""
done

# With more than one CPU, QEMU runs them in turn and the one clock counts
# every CPU's instructions.  A CPU that waited for another (a lock the
# other held, an answer to an interrupt) spun until its turn ended: the
# idle CPU ran twice the busy one's instructions, the boot took 31 s on
# 2 CPUs and 38 s on 4 (11 s on 1).  Measured: the idle CPU runs its
# ticks, about 4 % of the busy one's instructions.
guest "--leon3-clock on 2 CPUs: perf stat -a -A of a busy loop on CPU 0" 0 --leon3-clock --cpus 2 -- sh -c \
	"perf stat -a -A -e instructions -- taskset 1 $busy_loop 2>&1"
read -r busy idle ns < <(tr -d '\r' <"$T/out" | awk '
	$3 == "instructions" { gsub(",", "", $2); n[$1] = $2 }
	/seconds time elapsed/ { s = $1 }
	END { t = n["CPU0"] + n["CPU1"]; if (t > 0) printf "%d %d %.3f\n", n["CPU0"], n["CPU1"], s * 1e9 / t }') ||
	busy=0 idle=0 ns=0
check "--leon3-clock on 2 CPUs: the time is both CPUs' instructions times 32 ns, to 1 % ($ns ns each)" \
	is_32ns "$ns"
check "--leon3-clock on 2 CPUs: the idle CPU runs under 10 % of the busy one's instructions ($idle of $busy)" \
	awk -v b="$busy" -v i="$idle" 'BEGIN { exit !(b > 0 && i < b / 10) }'

# Highmem pages cost the other CPUs nothing (the kernel's sparc32 highmem
# patches, at the end of the sparc32 group):
# each page a kmap_local mapping had unmapped, and each page written to
# the page cache in highmem, sent a cross call to flush every CPU's
# caches.  dd on CPU 0 copies 8 MiB (2048 pages) within tmpfs, which
# keeps them in highmem.  A cross call reaches CPU 1 as a trap that is
# neither a window trap nor an interrupt /proc/interrupts counts (LEON's
# cross calls have their own IRQ level): 6539 during the copy before,
# 48 after (ticks just outside the /proc/interrupts reads).
head -c $((8 << 20)) /dev/urandom >"$T/blob"
cat >"$T/highmem.sh" <<'EOF'
high() { awk '/HighFree/ { print $2 }' /proc/meminfo; }
h=$(high)
taskset 1 perf stat -a -A -x, -e traps -e window_overflows -e window_underflows -- \
	taskset 1 sh -c '
	cpu1_irqs() { awk "NR > 1 && \$3 ~ /^[0-9]+\$/ { n += \$3 } END { print n + 0 }" /proc/interrupts; }
	i=$(cpu1_irqs)
	dd if=/root/blob of=/tmp/copy bs=64k 2>/dev/null
	echo irqs $(($(cpu1_irqs) - i))' 2>&1
echo highmem $((h - $(high)))
taskset 2 md5sum /tmp/copy
EOF
guest "--leon3-clock on 2 CPUs: dd copies 8 MiB within tmpfs on CPU 0" 0 --leon3-clock --cpus 2 \
	--add "$T/blob" --add "$T/highmem.sh" -- sh /root/highmem.sh
read -r xc irqs high < <(tr -d '\r' <"$T/out" | awk -F, '
	/^CPU1,/ { n[$4] = $2 } /^irqs / { split($0, a, " "); i = a[2] }
	/^highmem / { split($0, a, " "); h = a[2] }
	END {
		w = n["window_overflows [leon3_pmu]"] + n["window_underflows [leon3_pmu]"]
		printf "%d %d %d\n", n["traps [leon3_pmu]"] - w - i, i, h
	}') || xc=-1 irqs=0 high=0
check "the copy is in highmem (${high} KiB of it)" test "$high" -ge 7168
check "CPU 1 takes its ticks during the copy (${irqs} interrupts)" test "$irqs" -gt 0
check "CPU 1 gets under 128 cross calls for the copy's 2048 highmem pages ($xc)" \
	test "$xc" -ge 0 -a "$xc" -lt 128
is "CPU 1 reads the copy as written" "$(grep /tmp/copy "$T/out" | cut -d' ' -f1)" \
	"$(md5sum <"$T/blob" | cut -d' ' -f1)"

# Files both ways.
head -c 30000 /dev/urandom >"$T/blob"
mkdir -p "$T/dir/sub"
echo hello >"$T/dir/sub/file"
guest "--add a file and a directory, --get a file back" 0 \
	--add "$T/blob" --add "$T/dir:/data" --get /root/copy:"$T/back" \
	-- sh -c 'cat /data/sub/file && cp /root/blob /root/copy'
is "a directory added to the guest is readable there" "$(cat "$T/out")" hello
check "a file comes back from the guest byte for byte" cmp -s "$T/blob" "$T/back"

# A large initramfs (64 MiB that do not compress, more than the 57 MiB
# that fitted after the kernel within the PROM's initial mapping) boots,
# and one too large for low memory is refused with the sizes.
head -c $((64 << 20)) /dev/urandom >"$T/big"
guest "a 64 MiB --add boots (--mem 512M)" 0 --mem 512M --add "$T/big" -- md5sum /root/big
is "the 64 MiB file arrives intact" "$(cut -d' ' -f1 "$T/out")" "$(md5sum <"$T/big" | cut -d' ' -f1)"
guest "a 64 MiB --add in --mem 64M is refused" 125 --mem 64M --add "$T/big" -- true
check "the refusal says why" grep -q 'does not fit in --mem 64M: Linux needs it in low memory' "$T/err"
rm -f "$T/big"
# Files that fit in low memory but not in the guest's root file system
# (a tmpfs of half the RAM): the kernel stops unpacking with an error
# and the files after it are missing; /init says so and runs nothing.
head -c $((72 << 20)) /dev/zero >"$T/zeros"
guest "72 MiB of --add in --mem 128M (a 64 MiB root file system): not run" 125 \
	--mem 128M --add "$T/zeros" -- true
check "/init says the files are missing, and why" \
	grep -q 'init: Initramfs unpacking failed: write error: files are missing' "$T/err"
rm -f "$T/zeros"

# A guest that hangs is stopped by --timeout, with the last console lines
# (8 s: the boot before them takes 1 s here).
"$run" --timeout 8 -- sh -c 'echo about to hang; sleep 1000' >"$T/out" 2>"$T/err" && rc=0 || rc=$?
is "a hung guest times out with status 124" "$rc" 124
check "the timeout shows the last console lines" grep -q 'about to hang' "$T/err"

# perf_event_open with a software event.
if "$cc" -static -O2 "$TOP/tests/boot/task-clock.c" -o "$T/task-clock"; then
	for cpus in 1 2; do
		guest "perf_event_open task-clock counts ($cpus CPU(s))" 0 --cpus "$cpus" \
			--add "$T/task-clock" -- /root/task-clock
	done
else
	not_ok "task-clock.c builds with the guest toolchain"
fi

# Futexes (kernel/patches/0003): the program prints one line per check.
if "$cc" -static -O2 -pthread "$TOP/tests/boot/futex.c" -o "$T/futex"; then
	guest "futex checks run to the end on 2 CPUs" 0 --cpus 2 --add "$T/futex" -- /root/futex
	grep -E '^(not )?ok - ' "$T/out" || not_ok "futex checks printed nothing"
else
	not_ok "futex.c builds with the guest toolchain"
fi

# A TLB flush reaches the other CPU (qemu-patches/0010): a thread on
# CPU 1 must see the page CPU 0 maps in place of another.
if "$cc" -static -O2 -pthread "$TOP/tests/boot/tlb-flush.c" -o "$T/tlb-flush"; then
	guest "remapped pages seen by the other CPU at once (2 CPUs)" 0 --cpus 2 \
		--add "$T/tlb-flush" -- /root/tlb-flush
	# each round is a check of its own
	grep -E '^(not )?ok - ' "$T/out"
	rounds=$(awk '$1 == "#define" && $2 == "ROUNDS" { print $3 }' "$TOP/tests/boot/tlb-flush.c")
	is "tlb-flush: each of its $rounds rounds reported" \
		"$(grep -cE '^(not )?ok - tlb: round ' "$T/out")" "$rounds"
else
	not_ok "tlb-flush.c builds with the guest toolchain"
fi

# irq_work raised by a self-IPI (kernel/patches/0004).
if "$cc" -static -O2 "$TOP/tests/boot/irq-work.c" -o "$T/irq-work"; then
	for cpus in 1 2; do
		guest "perf wakeups run through the irq_work IPI ($cpus CPU(s))" 0 \
			--cpus "$cpus" --add "$T/irq-work" -- /root/irq-work
	done
else
	not_ok "irq-work.c builds with the guest toolchain"
fi

# The clock of CPU 1 runs while CPU 0 takes no tick (kernel/patches/0010).
# Upstream's lib/test_lockup.c, built here from the pinned kernel source,
# holds CPU 0 with interrupts off (its init then fails with EAGAIN, by
# design) while clock-stall.c works and reads the clocks on CPU 1.  It
# holds with mdelay(), whose loop count comes from the boot's delay-loop
# calibration, which the host's speed and load at that moment decide
# (1100 to 1800 BogoMIPS in three boots; 420 once, when a "second" lasted
# 250-330 ms, short of the 300 ms clock-stall.c wants).  So this boot
# skips the calibration (lpj=2000000): the hold is 2 x HZ x lpj loops of
# 2 instructions, 2e9, a fixed amount of CPU 0's work that a slow host
# only makes longer in its time, and CPU 1 works beside it as long.
# (0.6 to 1.4e9 instructions a second here, other guests running: a hold
# of 1.4 to 3.3 s, inside clock-stall's 4 s or past their end: either
# way the stall is the run of chunks without a tick.)
mkdir "$T/lockup"
cp "$TOP/build/linux-src/lib/test_lockup.c" "$T/lockup/"
echo 'obj-m := test_lockup.o' >"$T/lockup/Kbuild"
if make -s -C "$TOP/build/linux" M="$T/lockup" ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu- \
	modules >"$T/lockup.log" 2>&1 &&
	"$cc" -static -O2 "$TOP/tests/boot/clock-stall.c" -o "$T/clock-stall"; then
	guest "CPU 1's clocks while CPU 0 has interrupts off (2 CPUs)" 0 --cpus 2 --append lpj=2000000 \
		--add "$T/clock-stall" --add "$T/lockup/test_lockup.ko" -- sh -c '
		/root/clock-stall 4 >/root/stall.out & sleep 1
		taskset 1 insmod /root/test_lockup.ko time_secs=2 disable_irq=1 2>/dev/null
		wait $!; rc=$?; cat /root/stall.out; dmesg | grep test_lockup; exit $rc'
	grep -E '^# ' "$T/out" | sed 's/^/# /'
	grep -E '^(not )?ok - ' "$T/out"
	check "test_lockup held CPU 0 (its own log line)" grep -q 'test_lockup: Start on CPU0' "$T/out"
else
	not_ok "test_lockup.ko and clock-stall.c build: $(tail -n 3 "$T/lockup.log")"
fi

# The clocks run on through ticks taken late (kernel/patches/0011), as a
# busy host makes a virtual CPU take them: the host stops QEMU for 80 ms,
# again and again, while clock-late.c works and reads the clocks, until
# clock-late has seen 12 such stops (it gives up after 100 s).  Counted
# from the ticks, the clocks stood still or stepped back after each stop.
# The host's pace sets only how long this takes: a slow host stops QEMU
# less often, and clock-late waits for it.
if "$cc" -static -O2 "$TOP/tests/boot/clock-late.c" -o "$T/clock-late"; then
	rm -f "$T/qemu.pid"
	"$run" --timeout 180 --cpus 2 --add "$T/clock-late" \
		--qemu-opt=-pidfile --qemu-opt="$T/qemu.pid" -- sh -c '
		echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
		echo start; exec /root/clock-late 12 100' >"$T/out" 2>"$T/err" &
	lr=$!
	for _ in $(seq 1200); do
		grep -q '^start' "$T/out" 2>/dev/null || ! kill -0 "$lr" 2>/dev/null && break
		sleep 0.1
	done
	q=$(cat "$T/qemu.pid" 2>/dev/null) stops=0
	while [ -n "$q" ] && kill -0 "$lr" 2>/dev/null; do
		sleep 0.2
		kill -STOP "$q" 2>/dev/null && sleep 0.08 && kill -CONT "$q" && stops=$((stops + 1))
	done
	wait "$lr" && rc=0 || rc=$?
	check "the host stopped QEMU while clock-late ran, 12 times or more ($stops)" \
		test "$stops" -ge 12
	grep -E '^# ' "$T/out" | sed 's/^/# /'
	grep -E '^(not )?ok - ' "$T/out"
	is "clock-late exits 0" "$rc" 0
	check "the clocksource is the free-running GPTIMER timer" grep -qx 'clocksource gptimer' "$T/out"
else
	not_ok "clock-late.c builds with the guest toolchain"
fi

# The PROM on odd inputs.
guest "1 GiB of RAM (more than the kernel maps directly)" 0 --mem 1G -- \
	sh -c 'grep MemTotal /proc/meminfo'
check "the kernel sees about 1 GiB" awk '/MemTotal/ { exit !($2 > 900000) }' "$T/out"
guest "an empty kernel command line still boots" 0 --cmdline "" -- true
"$run" --timeout 60 --pnp-ignore 0x01011 -- true >"$T/out" 2>"$T/err" && rc=0 || rc=$?
check "a timer missing from plug and play stops with a message" \
	grep -q 'no GAISLER_GPTIMER' "$T/err"
is "... and QEMU exits rather than hangs" "$rc" 125
# (without boot information the command never starts: the PROM's line
# comes at once, the timeout ends the guest)
"$run" -v --timeout 5 --no-bootinfo -- true >"$T/out" 2>"$T/err" && rc=0 || rc=$?
check "without boot information the PROM says which defaults it uses" \
	grep -q 'PROM: no boot information at 0x40003c00: assuming 64 MiB' "$T/out"

# The caches: on every CPU as a boot loader leaves them, off on request,
# and no machine that Linux would silently run uncached.
"$run" -v --timeout 60 -- true >"$T/out" 2>"$T/err" && rc=0 || rc=$?
check "the PROM enables the caches, burst fetch and snooping by default" \
	grep -q 'PROM: caches: I on, D on, snooping, burst fetch (cache control 0x0081000f)' "$T/out"
"$run" -v --timeout 60 --caches off -- true >"$T/out" 2>"$T/err" && rc=0 || rc=$?
check "--caches off: the PROM leaves them off" \
	grep -q 'PROM: caches: I off, D off (cache control 0x00000000)' "$T/out"
expect_fail "--caches with a bit the PROM does not set is refused" \
	'bits 0x1000000 are not ones the PROM sets' "$run" --caches 0x0181000f -- true
expect_fail "--caches with a cache state the model does not have is refused" \
	'ICS = 10 is not a cache state' "$run" --caches 0x0081000e -- true
# The project's kernel is SMP: even on one CPU, it turns the caches of
# a D-cache with ways over 4 KiB off (leon_configure_cache_smp()).  With
# the caches asked on, the PROM refuses such a machine; with them off
# there is nothing to turn off, and the kernel's patch "sparc32: LEON:
# sparc_leon3_disable_cache() turns the caches off" keeps them off
# (before it, Linux turned them on: 0xF & ~CCR).
for cpus in 1 2; do
	"$run" --timeout 60 --cpus "$cpus" --qemu-opt=-global \
		--qemu-opt LEON3-sparc-cpu.dcache-way-kib=8 -- true >"$T/out" 2>"$T/err" && rc=0 || rc=$?
	check "$cpus CPU(s), 8 KiB D-cache ways (Linux would switch the caches off): a clear refusal" \
		grep -q 'D-cache ways larger than 4 KiB: SMP Linux would turn the' "$T/err"
	is "... and QEMU exits rather than boots uncached" "$rc" 125
done
guest "--caches off, 8 KiB D-cache ways, 2 CPUs: boots (nothing to turn off)" 0 \
	--caches off --cpus 2 --qemu-opt=-global --qemu-opt LEON3-sparc-cpu.dcache-way-kib=8 -- \
	sh -c 'grep "^CPU[01] caches" /proc/cpuinfo; dmesg | grep "disabling caches"'
is "... and both CPUs' caches stay off" \
	"$(grep -c '^CPU[01] caches.*: I off, D off' "$T/out")" 2
check "... the kernel said it would disable them (its note)" \
	grep -q 'only works on 4k cache.*disabling caches' "$T/out"
guest "4 ways of 4 KiB (a 16 KiB D-cache) boot with the caches on" 0 \
	--qemu-opt=-global --qemu-opt LEON3-sparc-cpu.dcache-ways=4 \
	--qemu-opt=-global --qemu-opt LEON3-sparc-cpu.dcache-way-kib=4 -- \
	sh -c 'grep -q "^CPU0 caches.*: I on, D on" /proc/cpuinfo'
