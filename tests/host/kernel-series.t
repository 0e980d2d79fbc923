#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The kernel series is the export of git branches, one a group of
# patches for one set of maintainers (tools/build/kernel-git,
# tools/build/kernel-series; Documentation/building.md, "Working on the
# kernel series"): kernel/patches/ is exactly what `make kernel-series`
# writes from the branches `make kernel-git` makes of it, the series
# does not rework itself (at most 3 % of the lines it adds are deleted
# or rewritten by a later patch of it), and each group applies to
# upstream Linux alone, or on the groups its line says it needs.
# Checked on branches of the files the series touches only, which
# export the same patches.

. "$(dirname "$0")/../lib.sh"
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
KGIT=$TOP/tools/build/kernel-git
KSERIES=$TOP/tools/build/kernel-series
K=$TOP/kernel/patches
g=$T/git

if ! "$KGIT" --files-of "$g" >"$T/git.log" 2>&1; then
	not_ok "make kernel-git applies kernel/patches/series: $(tail -n 3 "$T/git.log" | tr '\n' ' ')"
	exit 1
fi
ok "make kernel-git applies kernel/patches/series with git am"
# a branch a group, stacked, with the group's patches
want= got= base=upstream
for b in $(awk '/^# group / { sub(/:.*/, "", $3); print $3 }' "$K/series"); do
	want="$want $b:$(awk -v b="$b" '/^# group / { split($3, f, ":"); in_b = (f[1] == b); next }
		!/^#/ && NF && in_b { n++ } END { print n + 0 }' "$K/series")"
	got="$got $b:$(git -C "$g" rev-list --count "$base..$b" 2>&1)"
	base=$b
done
is "a branch a group of the series, stacked, with the group's patches" "$got" "$want"

"$KSERIES" --git "$g" --out "$T/out" >/dev/null 2>"$T/export.err" ||
	not_ok "kernel-series exports the branches: $(head -n 3 "$T/export.err")"
d=$(diff -r -x checkpatch-exceptions "$K" "$T/out" 2>&1 | head -n 5 | tr '\n' ' ')
is "kernel/patches/ is what make kernel-series writes from its branches (else: make kernel-git, make kernel-series)" "$d" ""

# says DESC CMD...: ok if CMD succeeds, with what it says (one line)
says() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc: $(printf '%s' "$out" | sed 's/^kernel-series: //' | tr '\n' ' ')"
	else
		not_ok "$desc: $(printf '%s' "$out" | tr '\n' ' ')"
	fi
}
says "the series does not rework itself" "$KSERIES" --rework --quiet --git "$g"
says "each group applies to upstream alone or on the groups it needs" "$KSERIES" --groups --git "$g"

# The group check sees a group that needs another: of two patches of
# one chain (the second changes lines next to the first's), the second
# alone does not apply, and applies once its line says what it needs.
p1=$(awk '!/^#/ && NF' "$K/series" | grep -m1 -- '-sched_clock-')
p2=$(awk '!/^#/ && NF' "$K/series" | grep -m1 -- '-the-first-CPU-to-take-the-tick-')
mkdir "$T/chain"
cp "$K/$p1" "$K/$p2" "$T/chain/"
printf '# group a: the first\n%s\n# group b: the second\n%s\n' "$p1" "$p2" >"$T/chain/series"
expect_fail "a group that needs another and does not say so fails the check" "group b does not apply to upstream alone: $p2 fails" \
	"$KSERIES" --groups --git "$g" --patches "$T/chain"
sed -i 's/^# group b:/# group b (needs a):/' "$T/chain/series"
check "... and passes it once its line says so" \
	bash -c '"$1" --groups --git "$2" --patches "$3" | grep -q "group b (1 patches) applies to upstream on a"' \
	_ "$KSERIES" "$g" "$T/chain"

# Bad input: a clear error, nothing overwritten
expect_fail "kernel-git refuses a directory that exists (it may hold work)" "exists: it may hold work" \
	"$KGIT" --files-of "$g"
printf '%s\n' "$p1" >"$T/chain/series"
expect_fail "kernel-git refuses a patch outside any group" "$p1 is in no group" \
	env KERNEL_SERIES="$T/chain/series" "$KGIT" --files-of "$T/new"
printf '# group b (needs c): the second\n%s\n' "$p2" >"$T/chain/series"
expect_fail "kernel-git refuses a group that needs one that is not before it" "group b needs c, which is not a group before it" \
	env KERNEL_SERIES="$T/chain/series" "$KGIT" --files-of "$T/new"
expect_fail "kernel-series says how to make the branches where there are none" "not a git tree: make it with .make kernel-git." \
	"$KSERIES" --git "$T/chain" --out "$T/p2"
# a group's branch left behind by a rebase without --update-refs
read -r g1 g2 _ < <(awk '/^# group / { sub(/:.*/, "", $3); printf "%s ", $3 }' "$K/series")
git -C "$g" branch -q -f "$g2" upstream
expect_fail "kernel-series refuses a group's branch that is not on the one below it" "$g2 is not on $g1: rebase the top branch with --update-refs" \
	"$KSERIES" --git "$g" --out "$T/p3"
check "... and writes nothing" test ! -e "$T/p3"

# Documentation/boot.md has a row a patch ("| NNNN subject | why |", or a
# range NNNN–MMMM): its numbers must be the series' own, each once.
want=$(grep -v '^#' "$K/series" | grep -o '^[0-9]\{4\}' | tr '\n' ' ')
got=$(sed -n '/^## The kernel patches/,/^## /p' "$TOP/Documentation/boot.md" |
	sed -n 's/^| \([0-9]\{4\}\)\(–\([0-9]\{4\}\)\)\? .*/\1 \3/p' |
	while read -r a b; do seq -w "$a" "${b:-$a}"; done | tr '\n' ' ')
is "Documentation/boot.md's table of the kernel patches numbers them as kernel/patches/series does" "$got" "$want"
