# SPDX-License-Identifier: GPL-2.0
# Helpers for test programs run by tests/run (sourced).

TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

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
