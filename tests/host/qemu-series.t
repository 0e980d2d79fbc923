#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The QEMU series is the export of a git branch (tools/build/qemu-git,
# tools/build/qemu-series; Documentation/building.md, "Working on the
# QEMU series"): qemu-patches/ (and its RFC series, qemu-patches/rfc/)
# is exactly what `make qemu-series` writes from the branches that
# `make qemu-git` makes of it, and neither series reworks itself (at
# most 3 % of the lines it adds are deleted or rewritten by a later
# patch of it).  Checked on a branch of the files
# the series touches only, which exports the same patches.

. "$(dirname "$0")/../lib.sh"
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
QGIT=$TOP/tools/build/qemu-git
QSERIES=$TOP/tools/build/qemu-series

if ! "$QGIT" --files-of "$T/git" >"$T/git.log" 2>&1; then
	not_ok "make qemu-git applies qemu-patches/series: $(tail -n 3 "$T/git.log" | tr '\n' ' ')"
	exit 1
fi
ok "make qemu-git applies qemu-patches/series with git am"
n=$(awk '!/^#/ && NF' "$TOP/qemu-patches/series" | wc -l)
is "the branch has a commit per patch" "$(git -C "$T/git" rev-list --count upstream..leon3-pmu)" "$n"
if [ -f "$TOP/qemu-patches/rfc/series" ]; then
	is "the RFC branch has a commit per patch of the RFC series" \
		"$(git -C "$T/git" rev-list --count leon3-pmu..leon3-pmu-rfc)" \
		"$(awk '!/^#/ && NF' "$TOP/qemu-patches/rfc/series" | wc -l)"
fi

"$QSERIES" --git "$T/git" --out "$T/out" >/dev/null 2>"$T/export.err" ||
	not_ok "qemu-series exports the branch: $(head -n 3 "$T/export.err")"
d=$(diff -r "$TOP/qemu-patches" "$T/out" 2>&1 | head -n 5 | tr '\n' ' ')
is "qemu-patches/ is what make qemu-series writes from its branch (else: make qemu-git, make qemu-series)" "$d" ""

out=$("$QSERIES" --rework --quiet --git "$T/git" 2>&1) && rc=0 || rc=$?
if [ "$rc" = 0 ]; then
	ok "neither series reworks itself: $(printf '%s' "$out" | sed 's/^qemu-series: //' | tr '\n' ' ')"
else
	not_ok "neither series reworks itself: $(printf '%s' "$out" | grep -v '^  ' | tr '\n' ' ')"
fi

# The seam between the PMU and the cache model: the cache model uses the
# PMU's interface (leon3-cache.h includes leon3-pmu.h), and the PMU none
# of the cache model's names (leon3_cache_looks_up() is the cache control
# register's, in cpu.h).
tip=leon3-pmu
! git -C "$T/git" rev-parse -q --verify leon3-pmu-rfc >/dev/null || tip=leon3-pmu-rfc
model_names() {
	grep -nE 'LEON3Cache|LEON3TLB|LEON3_CACHE_|LEON3_TLB|leon3_cache_|caches\.|leon3-cache\.h|translate-leon3-cache' |
		grep -v 'leon3_cache_looks_up' || true
}
for f in leon3-pmu.c leon3-pmu.h translate-leon3-pmu.c.inc; do
	bad=$(git -C "$T/git" show "$tip:target/sparc/$f" | model_names | head -n 3 | tr '\n' ' ')
	is "target/sparc/$f uses none of the cache model's names" "$bad" ""
done
check "target/sparc/leon3-cache.h includes the PMU's interface, leon3-pmu.h" \
	bash -c 'git -C "$1" show "$2:target/sparc/leon3-cache.h" | grep -q "^#include \"leon3-pmu.h\""' _ "$T/git" "$tip"
if printf '%s\n' "    leon3_cache_flush(env, 1, 1);" | model_names | grep -q flush; then
	ok "... and the check sees a name of the cache model where there is one"
else
	not_ok "... and the check sees a name of the cache model where there is one"
fi

# The measure sees a rework: a new commit that rewrites lines an earlier
# patch added counts them; folded into that patch, they no longer count.
g=$T/git
git -C "$g" checkout -q leon3-pmu
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
# (the last patch's lines: a fixup of them applies without conflicts)
first=$(git -C "$g" rev-parse leon3-pmu)
file=$(git -C "$g" diff --name-only "$first^" "$first" | head -n 1)
# a line of $file that the last patch added
line=$(git -C "$g" blame -l -s -n leon3-pmu -- "$file" | awk -v c="$first" 'index($0, c) == 1 { sub(/\)/, "", $3); print $3; exit }')
before=$("$QSERIES" --rework --git "$g" | sed -n 's/^qemu-series: \([0-9]*\) of the [0-9]* lines the series adds.*/\1/p')
sed -i "${line}s/\$/ \/* reworked *\//" "$g/$file"
git -C "$g" commit -q -am "a rework of the last patch"
after=$("$QSERIES" --rework --git "$g" | sed -n 's/^qemu-series: \([0-9]*\) of the [0-9]* lines the series adds.*/\1/p')
is "a later commit that rewrites a line of patch $n is counted as one reworked line" "$after" "$((before + 1))"
check "the measure names the patch reworked" \
	bash -c '"$1" --rework --git "$2" | grep "patch $3 reworks    1 lines of patch $4" >/dev/null' _ "$QSERIES" "$g" "$((n + 1))" "$n"
git -C "$g" reset -q --soft HEAD~1
git -C "$g" commit -q --fixup "$first"
GIT_SEQUENCE_EDITOR=true git -C "$g" rebase -q -i --autosquash upstream >/dev/null 2>&1
folded=$("$QSERIES" --rework --git "$g" | sed -n 's/^qemu-series: \([0-9]*\) of the [0-9]* lines the series adds.*/\1/p')
is "folded into that patch with --fixup and --autosquash, it is not a rework" "$folded" "$before"
is "... and the branch has its patches' count again" "$(git -C "$g" rev-list --count upstream..leon3-pmu)" "$n"

# Bad input: a clear error, nothing overwritten
expect_fail "qemu-git refuses a directory that exists (it may hold work)" "exists: it may hold work" \
	"$QGIT" --files-of "$g"
mkdir "$T/p" && printf '0001-missing.patch\n' >"$T/p/series"
expect_fail "qemu-git names a patch the series lists that does not exist" "lists 0001-missing.patch, which does not exist" \
	env QEMU_SERIES="$T/p/series" "$QGIT" --files-of "$T/new"
expect_fail "qemu-series says how to make a branch where there is none" "not a git tree: make it with .make qemu-git." \
	"$QSERIES" --git "$T/p" --out "$T/p2"
git -C "$g" config --unset branch.leon3-pmu.description
expect_fail "qemu-series needs the cover letter's text (the branch description)" "has no description" \
	"$QSERIES" --git "$g" --out "$T/p3"
