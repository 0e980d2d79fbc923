#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Every patch of both series passes its upstream's checkpatch (QEMU's
# scripts/checkpatch.pl; Linux's with --strict), is signed off by its
# author, and every series entry exists.  The checkpatch scripts
# come from the pinned sources.

. "$(dirname "$0")/../lib.sh"
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# get_script NAME DIR: unpack NAME's scripts/ dir from its pinned tarball
get_script() {
	bash -c '. "$1/tools/build/lib.sh"; fetch "$2" >&2
		tar -xf "$DOWNLOADS/$(lock_files "$2" | grep "\.orig\.tar\.")" -C "$3" \
			--strip-components=1 --wildcards "*/scripts/checkpatch.pl" \
			"*/scripts/spelling.txt" "*/scripts/const_structs.checkpatch" 2>/dev/null || true' \
		_ "$TOP" "$1" "$2"
}

series_patches() {
	awk '!/^#/ && NF {print $1}' "$1"
}

# exceptions_for DIR PATCH: "--ignore TYPE" for each type DIR's
# checkpatch-exceptions allows PATCH, with the reason given there.
exceptions_for() {
	[ -f "$1/checkpatch-exceptions" ] || return 0
	awk -v p="$2" '!/^#/ && $1 == p && NF >= 3 { printf "--ignore %s ", $2 }' \
		"$1/checkpatch-exceptions"
}

# signed_by_author PATCH: a Signed-off-by names the From: (the header
# unfolded), as upstream asks of the author of a patch.
signed_by_author() {
	local from
	from=$(awk '/^From: / { f = 1; a = substr($0, 7); next }
		f && /^[ \t]/ { sub(/^[ \t]+/, " "); a = a $0; next }
		f { print a; exit }' "$1")
	[ -n "$from" ] && grep -qxF "Signed-off-by: $from" "$1"
}

check_series() {
	local what=$1 series=$2 checkpatch=$3
	shift 3
	local dir p n=0 ignore
	dir=$(dirname "$series")
	for p in $(series_patches "$series"); do
		n=$((n + 1))
		ignore=$(exceptions_for "$dir" "$p")
		if [ ! -f "$dir/$p" ]; then
			not_ok "$what: $p listed in the series exists"
			continue
		fi
		check "$what: $p is signed off by its author" signed_by_author "$dir/$p"
		out=$("$checkpatch" "$@" $ignore "$dir/$p" 2>&1) &&
			ok "$what: $p passes checkpatch${ignore:+ (${ignore% }: see checkpatch-exceptions)}" ||
			not_ok "$what: $p passes checkpatch: $(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK)' | head -n 3 | tr '\n' ' ')"
	done
	[ "$n" -gt 0 ] || skip "$what: checkpatch" "the series is empty"
}

mkdir -p "$T/qemu" "$T/linux"
# checkpatch leaves a CamelCase cache (.checkpatch-camelcase.*) in its
# working directory: keep it out of the work tree.
cd "$T"
get_script qemu "$T/qemu"
# Linux's tarball is large: use the kernel stage's source when it is built.
kstage=$("$TOP/tools/build/stage" --path kernel)
linux="$kstage/src"
if [ ! -f "$kstage/.complete" ]; then
	linux="$T/linux"
	get_script linux "$linux"
fi
check_series "qemu-patches" "$TOP/qemu-patches/series" "$T/qemu/scripts/checkpatch.pl" \
	--no-tree
check_series "qemu-patches/rfc" "$TOP/qemu-patches/rfc/series" "$T/qemu/scripts/checkpatch.pl" \
	--no-tree
check_series "kernel/patches" "$TOP/kernel/patches/series" "$linux/scripts/checkpatch.pl" \
	--strict --no-tree

# The measurement patch of the qemu-parts stage (not for upstream) keeps
# QEMU's style, and applies on top of the series as it is now: to the
# qemu stage's patched source, when that is built.
mp="$TOP/tools/bench/qemu-parts.patch"
check "tools/bench/qemu-parts.patch is signed off by its author" signed_by_author "$mp"
out=$("$T/qemu/scripts/checkpatch.pl" --no-tree "$mp" 2>&1) &&
	ok "tools/bench/qemu-parts.patch passes checkpatch" ||
	not_ok "tools/bench/qemu-parts.patch passes checkpatch: $(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING)' | head -n 3 | tr '\n' ' ')"
qstage=$("$TOP/tools/build/stage" --path qemu)
if [ -f "$qstage/.complete" ]; then
	check "tools/bench/qemu-parts.patch applies on top of qemu-patches/series and rfc/series" \
		patch -d "$qstage/src" -p1 --dry-run --batch -s -i "$mp"
else
	skip "tools/bench/qemu-parts.patch applies on top of qemu-patches/series and rfc/series" \
		"the qemu stage is not built"
fi

# The out-of-tree driver follows the kernel's style too.
for f in "$TOP"/kernel/*.[ch]; do
	[ -f "$f" ] || continue
	out=$("$linux/scripts/checkpatch.pl" --strict --no-tree -f "$f" 2>&1) &&
		ok "kernel/$(basename "$f") passes checkpatch --strict" ||
		not_ok "kernel/$(basename "$f") passes checkpatch --strict: $(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK)' | head -n 3 | tr '\n' ' ')"
done

# The QEMU series and its RFC series are ready to mail: a cover letter
# that counts the patches, and "[PATCH n/N]" ("[RFC PATCH n/N]")
# subjects in the series' order.
mailed_qemu_series() {
	local q=$1 prefix=$2 n i=0 bad= p
	n=$(series_patches "$q/series" | wc -l)
	if [ -f "$q/0000-cover-letter.patch" ]; then
		check "${q#$TOP/}: the cover letter is [$prefix 00/$n] with a subject and text" \
			bash -c 'grep -q "^Subject: \[$3 0*0/$2\] [^*]" "$1" && ! grep -q "\*\*\* \(SUBJECT\|BLURB\) HERE" "$1"' \
			_ "$q/0000-cover-letter.patch" "$n" "$prefix"
	else
		not_ok "${q#$TOP/}: 0000-cover-letter.patch exists"
	fi
	for p in $(series_patches "$q/series"); do
		i=$((i + 1))
		grep -q "^Subject: \[$prefix 0*$i/$n\] " "$q/$p" 2>/dev/null || bad="$bad $p"
	done
	if [ -z "$bad" ]; then
		ok "${q#$TOP/}: every patch is [$prefix i/$n] in the series' order"
	else
		not_ok "${q#$TOP/}: every patch is [$prefix i/$n] in the series' order: not:$bad"
	fi
}
mailed_qemu_series "$TOP/qemu-patches" PATCH
mailed_qemu_series "$TOP/qemu-patches/rfc" "RFC PATCH"

# glibc has no checkpatch: its series is checked for what glibc asks of
# a mailed patch: a subject and a message, a Signed-off-by (glibc takes
# the DCO), and, in what it adds, no trailing whitespace and no line
# over 79 columns.
g="$TOP/glibc-patches"
for p in $(series_patches "$g/series"); do
	if [ ! -f "$g/$p" ]; then
		not_ok "glibc-patches: $p listed in the series exists"
		continue
	fi
	check "glibc-patches: $p has a subject, a message of its own and a Signed-off-by" \
		bash -c 'grep -q "^Subject: \[PATCH\] [a-z]" "$1" && grep -q "^Signed-off-by: " "$1" &&
			[ "$(sed -n "/^Subject:/,/^---$/p" "$1" | wc -l)" -gt 8 ]' _ "$g/$p"
	check "glibc-patches: $p is signed off by its author" signed_by_author "$g/$p"
	bad=$(awk '/^\+\+\+ / { next } /^\+/ { l = substr($0, 2); gsub(/\t/, "        ", l)
		if ($0 ~ /[ \t]$/ || length(l) > 79) print FNR }' "$g/$p" | head -n 3 | tr '\n' ' ')
	is "glibc-patches: $p adds no trailing whitespace and no line over 79 columns" "$bad" ""
done

# libpfm4, PAPI and perf_event_tests have no checkpatch either: each series is checked for
# a mailed patch's parts ([PATCH i/N] subjects in the series' order, a
# message of its own, a Signed-off-by) and, in what it adds, no trailing
# whitespace and no space before a tab (both indent with tabs).
check_mailed_series() {
	local l=$1 n i=0 p bad
	n=$(series_patches "$l/series" | wc -l)
	for p in $(series_patches "$l/series"); do
		i=$((i + 1))
		if [ ! -f "$l/$p" ]; then
			not_ok "${l#$TOP/}: $p listed in the series exists"
			continue
		fi
		check "${l#$TOP/}: $p is [PATCH $i/$n] with a message of its own and a Signed-off-by" \
			bash -c 'grep -q "^Subject: \[PATCH $2\] [a-z]" "$1" && grep -q "^Signed-off-by: " "$1" &&
				[ "$(sed -n "/^Subject:/,/^---$/p" "$1" | wc -l)" -gt 6 ]' _ "$l/$p" "$i/$n"
		check "${l#$TOP/}: $p is signed off by its author" signed_by_author "$l/$p"
		bad=$(awk '/^\+\+\+ / { next } /^\+/ && ($0 ~ /[ \t]$/ || $0 ~ / \t/) { print FNR }' "$l/$p" |
			head -n 3 | tr '\n' ' ')
		is "${l#$TOP/}: $p adds no trailing whitespace and no space before a tab" "$bad" ""
	done
}
check_mailed_series "$TOP/tools/libpfm4/patches"
check_mailed_series "$TOP/tools/papi/patches"
check_mailed_series "$TOP/tools/perf-event-tests/patches"
