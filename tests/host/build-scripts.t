#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The build scripts on bad input, and the cache keys: run against a copy
# of the scripts with a private, empty cache, so nothing real is touched.

. "$(dirname "$0")/../lib.sh"
set -u

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
tree="$T/tree"
mkdir -p "$tree"
cp -a "$TOP/tools" "$TOP/kernel" "$TOP/qemu-patches" "$TOP/sources.lock" "$tree/"
export LEON3_PMU_CACHE="$T/cache"
stage="$tree/tools/build/stage"
fetch="$tree/tools/build/fetch"

# --- a local archive ---------------------------------------------------------

# fetch runs against a Debian-style archive made here, not the network:
# stand-ins for busybox's source files and python3-pycotap's deb, under
# the names and versions sources.lock pins (the copy's lock pins their
# checksums), in the pool and the Sources index of trixie; every suite
# the private apt configuration lists has a Release signed by a key made
# here, which fetch is told to trust (LEON3_DEBIAN_KEYRING).  apt's copy:
# method copies the files as a download would (file: would link them).
if ! command -v gpg >/dev/null; then
	not_ok "gpg is installed, to sign the test archive (tools/build/host-deps installs it)"
	exit 1
fi
export GNUPGHOME="$T/gnupg"
mkdir -m 700 "$GNUPGHOME"
trap 'gpgconf --homedir "$GNUPGHOME" --kill gpg-agent 2>/dev/null; rm -rf "$T"' EXIT
gpg --batch --quiet --passphrase '' --quick-gen-key 'leon3-pmu test archive' ed25519 sign never
gpg --batch --export >"$T/archive-key.gpg"
archive="$T/archive"
# stand_in NAME DIR: stand-ins for NAME's pinned files in the pool's DIR,
# their checksums into the copy's lock
stand_in() {
	local f sum
	mkdir -p "$archive/$2"
	for f in $(awk -v n="$1" '$1 == n { print $5 }' "$tree/sources.lock"); do
		echo "a stand-in for $f" >"$archive/$2/$f"
		sum=$(sha256sum <"$archive/$2/$f" | cut -c1-64)
		sed -i -E "s/^($1 .* $(sed 's/[.+]/\\&/g' <<<"$f") +)[0-9a-f]{64}$/\1$sum/" "$tree/sources.lock"
	done
}
stand_in busybox pool/main/b/busybox
stand_in pycotap pool/main/p/pycotap
cp "$tree/sources.lock" "$T/lock"
# sources_stanza PACKAGE BINARY VERSION DIR FILE...: a Sources record
sources_stanza() {
	local f
	printf 'Package: %s\nBinary: %s\nVersion: %s\nDirectory: %s\nFiles:\n' "$1" "$2" "$3" "$4"
	for f in "${@:5}"; do
		printf ' %s %s %s\n' "$(md5sum <"$archive/$4/$f" | cut -c1-32)" \
			"$(stat -c %s "$archive/$4/$f")" "$f"
	done
	printf 'Checksums-Sha256:\n'
	for f in "${@:5}"; do
		printf ' %s %s %s\n' "$(sha256sum <"$archive/$4/$f" | cut -c1-64)" \
			"$(stat -c %s "$archive/$4/$f")" "$f"
	done
	echo
}
for suite in bookworm bookworm-updates trixie trixie-updates bookworm-security trixie-security; do
	d="$archive/dists/$suite"
	mkdir -p "$d/main/source"
	if [ "$suite" = trixie ]; then
		sources_stanza busybox busybox "$(awk '$1 == "busybox" { print $4; exit }' "$T/lock")" \
			pool/main/b/busybox $(awk '$1 == "busybox" { print $5 }' "$T/lock")
		sources_stanza pycotap python3-pycotap "$(awk '$1 == "pycotap" { print $4; exit }' "$T/lock")" \
			pool/main/p/pycotap
	fi >"$d/main/source/Sources"
	{
		printf 'Origin: leon3-pmu test\nSuite: %s\nCodename: %s\nDate: %s\nComponents: main\nSHA256:\n' \
			"$suite" "$suite" "$(date -Ru)"
		printf ' %s %s main/source/Sources\n' "$(sha256sum <"$d/main/source/Sources" | cut -c1-64)" \
			"$(stat -c %s "$d/main/source/Sources")"
	} >"$d/Release"
	gpg --batch --yes --clearsign -o "$d/InRelease" "$d/Release"
done
export LEON3_DEBIAN_ARCHIVE="copy://$archive" LEON3_DEBIAN_SECURITY="copy://$archive"
export LEON3_DEBIAN_KEYRING="$T/archive-key.gpg"

# --- unknown options and names ---------------------------------------------

expect_fail "stage: unknown stage is named" "unknown stage 'nosuch'" "$stage" nosuch
expect_fail "stage: unknown option gives usage" "usage: .*STAGE" "$stage" --frob
expect_fail "host-deps: unknown option is named" "unknown option '--frob'" \
	"$tree/tools/build/host-deps" --frob
expect_fail "fetch: unknown option is named" "unknown option '--frob'" "$fetch" --frob
expect_fail "fetch: a name missing from the lock is named" \
	"sources.lock: no entry named 'nosuch'" "$fetch" nosuch
expect_fail "override: a missing path names the variable" \
	"LEON3_SRC_QEMU=$T/missing: no such file" \
	env LEON3_SRC_QEMU="$T/missing" "$stage" --key qemu

# --- checksums -------------------------------------------------------------

# busybox, with its .dsc checksum broken.
dsc=busybox_1.37.0-6.dsc
good=$(awk -v f=$dsc '$5 == f {print $6}' "$tree/sources.lock")
bad=0000000000000000000000000000000000000000000000000000000000000000
sed -i "s/$good/$bad/" "$tree/sources.lock"
expect_fail "fetch: a wrong checksum names the file and the expected sha256" \
	"$dsc: sha256 mismatch \(expected $bad from .*sources.lock, got $good\)" \
	"$fetch" busybox
if [ -e "$LEON3_PMU_CACHE/downloads/$dsc" ]; then
	not_ok "fetch: the file with the wrong checksum is not kept"
else
	ok "fetch: the file with the wrong checksum is not kept"
fi
sed -i "s/$bad/$good/" "$tree/sources.lock"
check "fetch: busybox with the right checksums" "$fetch" busybox
# A download corrupted after the fact is caught on the next use.
echo corrupt >>"$LEON3_PMU_CACHE/downloads/$dsc"
expect_fail "fetch: a corrupted cached download is caught" "$dsc: sha256 mismatch" \
	"$fetch" busybox

# A version the archive does not have.
sed -i -E 's/^(busybox +src +busybox +)1:1\.37\.0-6/\11:9.9.9-1/' "$tree/sources.lock"
rm -f "$LEON3_PMU_CACHE"/downloads/busybox*
expect_fail "fetch: a missing package version is named" \
	"cannot fetch busybox=1:9.9.9-1 \(pinned for 'busybox' in .*sources.lock\)" \
	"$fetch" busybox
cp "$T/lock" "$tree/sources.lock"

# Binary packages (kind deb) come from the pool, checked against the lock;
# the private apt configuration has no binary index to be caught mid-sync.
deb=python3-pycotap_1.3.1-2_all.deb
check "fetch: a deb from the pool with the right checksum" "$fetch" pycotap
if grep -q '^deb ' "$LEON3_PMU_CACHE/apt/sources.list"; then
	not_ok "fetch: the private apt configuration lists source indexes only"
else
	ok "fetch: the private apt configuration lists source indexes only"
fi
good=$(awk -v f=$deb '$5 == f {print $6}' "$tree/sources.lock")
sed -i "s/$good/$bad/" "$tree/sources.lock"
rm -f "$LEON3_PMU_CACHE/downloads/$deb"
expect_fail "fetch: a deb with a wrong checksum is refused, naming the package" \
	"cannot fetch python3-pycotap=1.3.1-2 \(pinned for 'pycotap' in .*sources.lock\): .*Hash Sum mismatch" \
	"$fetch" pycotap
if ls "$LEON3_PMU_CACHE/downloads" | grep -q pycotap; then
	not_ok "fetch: nothing of the refused deb is kept"
else
	ok "fetch: nothing of the refused deb is kept"
fi
cp "$T/lock" "$tree/sources.lock"

# --- stages: nothing half-built is cached ----------------------------------

cat >"$tree/tools/build/stages/failing.sh" <<'EOF'
stage_build() {
	step "writing half an output"
	echo half >"$OUT/half"
	echo "the reason it failed"
	false
	echo "never reached" >"$OUT/whole"
}
EOF
cat >"$tree/tools/build/stages/working.sh" <<'EOF'
STAGE_DEPS="failing-free"
stage_build() { echo whole >"$OUT/whole"; }
stage_links() { link "$OUT/whole" "$BUILD/whole"; }
EOF
cat >"$tree/tools/build/stages/failing-free.sh" <<'EOF'
stage_build() { echo dep >"$OUT/dep"; }
EOF
expect_fail "stage: a failing build prints its log's tail and path" \
	"the reason it failed.*full log: .*build/logs/failing.log" "$stage" failing
entry=$("$stage" --path failing)
if [ -e "$entry" ]; then
	not_ok "stage: a failing build leaves no cache entry ($entry exists)"
else
	ok "stage: a failing build leaves no cache entry"
fi
out=$("$stage" working 2>&1)
check "stage: a working build is cached with its dependency" \
	test -f "$("$stage" --path working)/.complete" -a -f "$("$stage" --path failing-free)/.complete"
check "stage: the stable link points into the cache" \
	test "$(cat "$tree/build/whole" 2>/dev/null)" = whole
out=$("$stage" working 2>&1)
check "stage: a second run is a cache hit" grep -q "\[working\] cached" <<<"$out"

# The work directory goes at once, and is deleted in the background.
cat >"$tree/tools/build/stages/worktree.sh" <<'EOF'
stage_build() {
	mkdir -p many && for i in $(seq 200); do echo "$i" >"many/$i"; done
	echo done >"$OUT/done"
}
EOF
"$stage" worktree >/dev/null 2>&1
work="$LEON3_PMU_CACHE/tmp/worktree-$("$stage" --key worktree)"
check "stage: a finished build's work directory is gone from its place" test ! -e "$work"
for _ in $(seq 50); do
	[ -z "$(ls -A "$LEON3_PMU_CACHE/tmp/.trash" 2>/dev/null)" ] && break
	sleep 0.2
done
check "stage: ... and deleted in the background (the trash is empty within 10 s)" \
	test -z "$(ls -A "$LEON3_PMU_CACHE/tmp/.trash" 2>/dev/null)"
# ... without the stage's lock: on a slow disk (an ionice that takes 3 s
# to start the deletion), the next run of the stage does not wait for it.
mkdir -p "$T/slowdisk"
cat >"$T/slowdisk/ionice" <<EOF
#!/bin/sh
sleep 3
touch "$T/deletion-started"
exec /usr/bin/ionice "\$@"
EOF
chmod +x "$T/slowdisk/ionice"
echo 'stage_build() { echo done >"$OUT/done"; }' >"$tree/tools/build/stages/slowdisk.sh"
PATH="$T/slowdisk:$PATH" "$stage" slowdisk >/dev/null 2>&1
PATH="$T/slowdisk:$PATH" "$stage" slowdisk >/dev/null 2>&1
check "stage: the next run of a stage does not wait for its work directory's deletion" \
	test ! -e "$T/deletion-started"

# --- side by side: the toolchain beside the stages that do not need it ------

# Stand-ins in a tree of their own: each records when it starts and ends,
# and one of them fails when asked to.  The toolchain's ends once
# beside-a has started, or after 20 s: run one after the other, beside-a
# would start only after that.
sbs="$T/sbs"
cp -a "$tree" "$sbs"
for s in linux-headers toolchain beside-a beside-b; do
	cat >"$sbs/tools/build/stages/$s.sh" <<EOF
stage_build() {
	echo "start $s \$(date +%s.%N)" >>"$T/sbs.events"
	[ "$s" != "\${SBS_FAIL:-}" ] || { echo "$s was told to fail"; false; }
	if [ "$s" = toolchain ]; then
		for i in \$(seq 200); do
			! grep -q '^start beside-a' "$T/sbs.events" || break
			sleep 0.1
		done
	fi
	echo "end $s \$(date +%s.%N)" >>"$T/sbs.events"
}
EOF
done
LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/side-by-side" beside-a beside-b \
	>"$T/sbs.out" 2>&1 && rc=0 || rc=$?
is "side-by-side: builds both chains" "$rc $(awk '$1 == "end" { print $2 }' "$T/sbs.events" | sort | tr '\n' ' ')" \
	"0 beside-a beside-b linux-headers toolchain "
at() { awk -v e="$1" -v s="$2" '$1 == e && $2 == s { print $3 }' "$T/sbs.events"; }
check "side-by-side: linux-headers first, alone" \
	awk -v h="$(at end linux-headers)" -v t="$(at start toolchain)" -v a="$(at start beside-a)" \
	'BEGIN { exit !(h <= t && h <= a) }'
check "side-by-side: the toolchain builds while the others do (beside-a starts before it ends)" \
	awk -v a="$(at start beside-a)" -v t="$(at end toolchain)" 'BEGIN { exit !(a < t) }'
check "side-by-side: the others one after another" \
	awk -v a="$(at end beside-a)" -v b="$(at start beside-b)" 'BEGIN { exit !(a <= b) }'
rm -rf "$T/sbs-cache" "$T/sbs.events"
SBS_FAIL=beside-a LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/side-by-side" beside-a beside-b \
	>"$T/sbs.out" 2>&1 && rc=0 || rc=$?
is "side-by-side: a stage that fails beside the toolchain fails the run" "$rc" 1
check "... says which, with its log" grep -q "\[beside-a\] failed after" "$T/sbs.out"
check "... and the toolchain still ends, cached for the next run" \
	test -f "$(LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/stage" --path toolchain)/.complete"
rm -rf "$T/sbs-cache" "$T/sbs.events"
SBS_FAIL=toolchain LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/side-by-side" beside-a beside-b \
	>"$T/sbs.out" 2>&1 && rc=0 || rc=$?
is "side-by-side: a failed toolchain fails the run" "$rc" 1
check "... and the stages beside it are built and cached" \
	test -f "$(LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/stage" --path beside-b)/.complete"

# --then: two chains after the toolchain, side by side.  after-a and
# after-c each wait for the other to start (or 20 s): one after the
# other, they would not overlap.  after-b needs after-c, of the other
# chain.
for s in after-a after-b after-c; do
	cat >"$sbs/tools/build/stages/$s.sh" <<EOF
$([ $s = after-b ] && echo 'STAGE_DEPS="after-c"')
stage_build() {
	echo "start $s \$(date +%s.%N)" >>"$T/sbs.events"
	[ "$s" != "\${SBS_FAIL:-}" ] || { echo "$s was told to fail"; false; }
	if [ "$s" = after-a ] || [ "$s" = after-c ]; then
		for i in \$(seq 200); do
			! grep -q '^start after-[ac]' "$T/sbs.events" ||
				[ "\$(grep -c '^start after-[ac]' "$T/sbs.events")" -lt 2 ] || break
			sleep 0.1
		done
	fi
	echo "end $s \$(date +%s.%N)" >>"$T/sbs.events"
}
EOF
done
rm -rf "$T/sbs-cache" "$T/sbs.events"
LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/side-by-side" --then "after-a after-b" after-c \
	beside-a >"$T/sbs.out" 2>&1 && rc=0 || rc=$?
is "side-by-side --then: builds every chain" \
	"$rc $(awk '$1 == "end" { print $2 }' "$T/sbs.events" | sort | tr '\n' ' ')" \
	"0 after-a after-b after-c beside-a linux-headers toolchain "
check "side-by-side --then: the chains start after the toolchain ends" \
	awk -v t="$(at end toolchain)" -v a="$(at start after-a)" -v c="$(at start after-c)" \
	'BEGIN { exit !(t <= a && t <= c) }'
check "side-by-side --then: the two chains side by side (after-a and after-c overlap)" \
	awk -v a="$(at start after-a)" -v A="$(at end after-a)" \
	-v c="$(at start after-c)" -v C="$(at end after-c)" 'BEGIN { exit !(a < C && c < A) }'
check "side-by-side --then: a stage that needs one of the other chain starts after it" \
	awk -v b="$(at start after-b)" -v c="$(at end after-c)" 'BEGIN { exit !(c <= b) }'
is "side-by-side --then: ... which is built once" "$(grep -c '^start after-c' "$T/sbs.events")" 1
rm -rf "$T/sbs-cache" "$T/sbs.events"
SBS_FAIL=after-a LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/side-by-side" \
	--then "after-a after-b" after-c beside-a >"$T/sbs.out" 2>&1 && rc=0 || rc=$?
is "side-by-side --then: a stage that fails in a chain fails the run" "$rc" 1
check "... and the other chain still ends, cached for the next run" \
	test -f "$(LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/stage" --path after-c)/.complete"
check "... and the failed chain stops there (after-b not built)" \
	test ! -e "$(LEON3_PMU_CACHE="$T/sbs-cache" "$sbs/tools/build/stage" --path after-b)"

# --- cache keys ------------------------------------------------------------

key() { "$stage" --key "$1"; }
q0=$(key qemu) b0=$(key qemu-baseline) k0=$(key kernel) p0=$(key qemu-parts)
is "keys are stable" "$(key qemu) $(key kernel)" "$q0 $k0"

echo "# a change" >>"$tree/tools/bench/qemu-parts.patch"
check "the measurement patch changes the qemu-parts key" test "$(key qemu-parts)" != "$p0"
is "the measurement patch leaves the qemu key alone" "$(key qemu)" "$q0"
p1=$(key qemu-parts)

printf '%s\n' '--- a/x' >"$tree/qemu-patches/0001-test.patch"
echo 0001-test.patch >>"$tree/qemu-patches/series"
check "a QEMU patch changes the qemu key" test "$(key qemu)" != "$q0"
check "a QEMU patch changes the qemu-parts key" test "$(key qemu-parts)" != "$p1"
is "a QEMU patch leaves qemu-baseline alone" "$(key qemu-baseline)" "$b0"
is "a QEMU patch leaves the kernel alone" "$(key kernel)" "$k0"
q1=$(key qemu)

echo "CONFIG_PRINTK=y" >>"$tree/kernel/config/leon3.config"
check "a kernel config change changes the kernel key" test "$(key kernel)" != "$k0"
is "a kernel config change leaves QEMU alone" "$(key qemu)" "$q1"

mkdir -p "$T/qemu-src"
echo 10.0.13 >"$T/qemu-src/VERSION"
check "LEON3_SRC_QEMU=DIR changes the qemu key" \
	test "$(LEON3_SRC_QEMU="$T/qemu-src" "$stage" --key qemu)" != "$q1"
echo "# comment" >>"$tree/tools/build/stages/qemu.sh"
check "the stage's own script is part of its key" test "$(key qemu)" != "$q1"

# --- the test runner -------------------------------------------------------

mkdir -p "$T/runner"
printf '#!/bin/sh\necho "ok - it ran"\n' >"$T/runner/a.t"
cp "$T/runner/a.t" "$T/runner/b.t"
chmod +x "$T/runner/a.t"	# b.t lost its execute bit
out=$("$TOP/tests/run" "$T/runner" 2>&1) && rc=0 || rc=$?
is "tests/run: a .t without its execute bit fails the run" "$rc $(tail -n 1 <<<"$out")" \
	"1 1 passed, 1 failed"
check "tests/run: and names it" grep -q "b.t: not executable" <<<"$out"
check "tests/run: gives each program's counts and time" \
	grep -Eq "^--- .*/a\.t: 1 passed, 0 failed, 0 skipped in [0-9]+s$" <<<"$out"

# A program that prints no check tested nothing: a failure.  A skipped
# check is counted in the last line, and listed with its reason.
mkdir -p "$T/quiet" "$T/skips"
printf '#!/bin/sh\necho "no check here"\n' >"$T/quiet/g.t"
printf '#!/bin/sh\necho "ok - h ran"\necho "ok - h needs X # SKIP no X here"\n' >"$T/skips/h.t"
chmod +x "$T/quiet/g.t" "$T/skips/h.t"
out=$("$TOP/tests/run" "$T/quiet" 2>&1) && rc=0 || rc=$?
is "tests/run: a program that prints no check fails the run" "$rc $(tail -n 1 <<<"$out")" \
	"1 0 passed, 1 failed"
check "tests/run: and says so" grep -q "g.t: printed no check" <<<"$out"
out=$("$TOP/tests/run" "$T/skips/h.t" 2>&1) && rc=0 || rc=$?
is "tests/run PROGRAM.t: a skipped check is counted in the last line" \
	"$rc $(tail -n 1 <<<"$out")" "0 1 passed, 0 failed, 1 skipped"
check "tests/run: and listed before it, with its reason" \
	grep -q "^  $T/skips/h.t: h needs X: no X here$" <<<"$out"

# One-core programs run beside each other: c.t passes only if d.t starts
# while it waits (up to 20 s), which it cannot when they run in turn.
# e.t's runner is killed: its result is a failure, not a gap.
mkdir -p "$T/pair"
cat >"$T/pair/c.t" <<EOF
#!/bin/sh
# tests/run: one-core
for i in \$(seq 200); do [ -e "$T/d-started" ] && break; sleep 0.1; done
[ -e "$T/d-started" ] && echo "ok - c ran beside d" || echo "not ok - c ran beside d"
EOF
cat >"$T/pair/d.t" <<EOF
#!/bin/sh
# tests/run: one-core
touch "$T/d-started"; echo "ok - d"; exit 4
EOF
printf '#!/bin/sh\n# tests/run: one-core\necho "ok - e"; kill -9 $PPID\n' >"$T/pair/e.t"
printf '#!/bin/sh\necho "ok - f alone"\n' >"$T/pair/f.t"
chmod +x "$T/pair/"*.t
out=$(TEST_JOBS=2 "$TOP/tests/run" "$T/pair" 2>&1) && rc=0 || rc=$?
is "tests/run: one-core programs run side by side; the counts add up" \
	"$rc $(tail -n 1 <<<"$out")" "1 3 passed, 2 failed"
check "tests/run: a one-core program's exit status is a failure" \
	grep -q "d.t: exited with status 4" <<<"$out"
check "tests/run: a program whose runner was killed is a failure" \
	grep -q "e.t: left no result" <<<"$out"
is "tests/run: the others run after them" \
	"$(grep '^=== ' <<<"$out" | sed 's,.*/,,' | tr '\n' ' ')" "c.t d.t e.t f.t "
out=$(TEST_JOBS=x "$TOP/tests/run" "$T/pair" 2>&1) && rc=0 || rc=$?
is "tests/run: TEST_JOBS=x is refused" "$rc $out" \
	"2 error: TEST_JOBS=x: a number of programs at a time, 1 or more"
out=$("$TOP/tests/run" "$T" 2>&1) && rc=0 || rc=$?
is "tests/run: a directory without a test program is refused (it would test nothing)" \
	"$rc $out" "2 error: $T: no test program (*.t) in it"
out=$("$TOP/tests/run" 2>&1) && rc=0 || rc=$?
is "tests/run: no directory or program is refused" "$rc" "2"

# --- make help ---------------------------------------------------------------

# The README says `make help` lists every target: each .PHONY target but
# all (plain `make`) and help itself has a "make TARGET" line.
help=$(make -s -C "$TOP" help)
missing=""
for target in $(sed -n '/^\.PHONY:/,/[^\\]$/p' "$TOP/Makefile" | tr -d '\\' | sed 's/^\.PHONY://'); do
	case $target in all | help) continue ;; esac
	grep -Eq "^  make $target( |$)" <<<"$help" || missing="$missing $target"
done
is "make help lists every target" "${missing:-none missing}" "none missing"
