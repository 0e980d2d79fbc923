# SPDX-License-Identifier: GPL-2.0
# Helpers for test programs run by tests/run (sourced).

TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
# as in tests/lib.py: the guest launcher and the guest compiler
RUN=$TOP/tools/leon3-run
CC=$TOP/build/toolchain/bin/sparc-leon3-linux-gnu-gcc

ok() { printf 'ok - %s\n' "$*"; }
not_ok() { printf 'not ok - %s\n' "$*"; }
skip() { printf 'ok - %s # SKIP %s\n' "$1" "$2"; }

# check DESC CMD...: ok if CMD succeeds
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# is DESC GOT WANT
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1 (got '$2', want '$3')"
	fi
}

# expect_fail DESC PATTERN CMD...: CMD must fail and print PATTERN (ERE)
expect_fail() {
	local desc=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" -eq 0 ]; then
		not_ok "$desc (succeeded; wanted a failure)"
	elif ! printf "%s\n" "$out" | grep -zqE -- "$pat"; then
		not_ok "$desc (exit $rc, message did not match /$pat/: $(printf '%s' "$out" | tail -n 3 | tr '\n' ' ')"
	else
		ok "$desc"
	fi
}

# guest_build OUT SRC [FLAGS...]: SRC as a static guest program, warnings
# as errors; if it does not build, "not ok" with the compiler's first
# lines, and the test exits.
guest_build() {
	local out=$1 src=$2
	shift 2
	if ! "$CC" -static -O2 -Wall -Werror "$@" "$src" -o "$out" 2>"$out.cc.err"; then
		not_ok "$(basename "$src") builds: $(head -n 3 "$out.cc.err" | tr '\n' ' ')"
		exit 1
	fi
}
