# SPDX-License-Identifier: GPL-2.0
# Common helpers for the build scripts: logging, the lock file, the
# project-private apt configuration, the stage cache.  Sourced, not run.

set -eu
set -o pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOCK="$TOP/sources.lock"
CACHE="${LEON3_PMU_CACHE:-$HOME/.cache/leon3-pmu}"
BUILD="$TOP/build"
JOBS="${JOBS:-$(nproc)}"

# Host settings that would leak into the cross compilers.
unset LIBRARY_PATH CPATH C_INCLUDE_PATH GCC_EXEC_PREFIX COMPILER_PATH
export LC_ALL=C

# ccache, where a stage uses it (the gcc passes, QEMU, the kernels): the
# depend mode takes a miss's dependencies from the compiler's own -MD
# output instead of running the preprocessor first.  A cold build of the
# kernel took 1m38s with the preprocessor mode, 1m19s in depend mode and
# 1m09s without ccache; hits are the same.  It changes how fast a compile
# misses, never what it produces.
export CCACHE_DEPEND=true

# Guest target triplet of the project's toolchain.
TARGET=sparc-leon3-linux-gnu

msg()  { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# Debian's own python3, not whatever python3 is first in PATH (pyenv).
HOST_PYTHON=/usr/bin/python3

# --- the lock file ---------------------------------------------------------

# lock_fields NAME: the lock lines of NAME (name kind package version file sha256)
lock_fields() {
	awk -v n="$1" '!/^#/ && NF && $1 == n' "$LOCK"
}

lock_check_name() {
	[ -n "$(lock_fields "$1")" ] ||
		die "$LOCK: no entry named '$1' (expected lines: $1 kind package version file sha256)"
}

# lock_files NAME: the file names pinned for NAME
lock_files() { lock_fields "$1" | awk '{print $5}'; }

# lock_version NAME
lock_version() { lock_fields "$1" | awk 'NR == 1 {print $4}'; }

# source_override NAME: the path given in LEON3_SRC_<NAME>, if any
source_override() {
	local var
	var="LEON3_SRC_$(printf '%s' "$1" | tr '[:lower:]-' '[:upper:]_')"
	printf '%s' "${!var:-}"
}

# source_id NAME: what identifies the source of NAME in cache keys
source_id() {
	local ov
	ov=$(source_override "$1")
	if [ -z "$ov" ]; then
		lock_fields "$1"
	elif [ -d "$ov" ]; then
		# A local tree: its file list, sizes and mtimes (cheap, and any
		# edit changes it).
		(cd "$ov" && find . -type f -printf '%P %s %T@\n' | LC_ALL=C sort |
			sha256sum | sed "s|-\$|dir:$1|")
	elif [ -f "$ov" ]; then
		sha256sum "$ov" | sed "s|  .*|  tarball:$1|"
	else
		die "LEON3_SRC_$(printf '%s' "$1" | tr '[:lower:]-' '[:upper:]_')=$ov: no such file or directory"
	fi
}

# --- the project-private apt configuration ---------------------------------

APT_DIR="$CACHE/apt"

# The Debian archive and security URIs this machine's apt already uses,
# so the private configuration names no host of its own.
apt_system_uri() {
	local suite=$1
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && cat "$f"
	done | awk -v want="$suite" '
		/^[[:space:]]*#/ { next }
		/^deb[[:space:]]/ {
			i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
			if ($(i + 1) == want) { print $i; exit }
		}
		/^URIs:/ { uri = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == want) { print uri; exit } }'
}

apt_setup() {
	local archive security
	archive=$(apt_archive)
	security="${LEON3_DEBIAN_SECURITY:-$(apt_system_uri bookworm-security)}"
	[ -n "$security" ] || security="$archive-security"
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
	# (LEON3_DEBIAN_KEYRING: another archive's key; the tests' local archive)
	local key="${LEON3_DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}"
	local new="$APT_DIR/sources.list.new"
	# Source indexes only: the binary packages the build uses (kind deb)
	# are fetched from the pool directory their source's record names.
	# apt updates each suite all or nothing, so one mirror-sync glitch in
	# a binary index would also throw away that suite's Sources.
	{
		for s in bookworm bookworm-updates trixie trixie-updates; do
			echo "deb-src [signed-by=$key] $archive $s main"
		done
		for s in bookworm-security trixie-security; do
			echo "deb-src [signed-by=$key] $security $s main"
		done
	} >"$new"
	# Refresh the indexes when the list changed or is a day old.
	if ! cmp -s "$new" "$APT_DIR/sources.list" ||
		[ -z "$(find "$APT_DIR/lists" -maxdepth 1 -name '*Sources*' -mtime -1 2>/dev/null)" ]; then
		mv "$new" "$APT_DIR/sources.list"
		msg "updating the project-private apt indexes ($APT_DIR)"
		apt_update
	else
		rm -f "$new"
	fi
}

# The archive that also serves the pool for kind deb files.
apt_archive() {
	local archive="${LEON3_DEBIAN_ARCHIVE:-$(apt_system_uri bookworm)}"
	[ -n "$archive" ] || die "no Debian archive found in /etc/apt (set LEON3_DEBIAN_ARCHIVE=URI)"
	printf '%s' "${archive%/}"
}

# apt_update: a mirror in the middle of a sync fails a suite for a few
# minutes; try again, then go on with what arrived (a source that is
# then missing fails its fetch with this error in the message).
apt_update() {
	local try
	for try in 1 2 3; do
		if apt_private update -qq >/dev/null 2>"$APT_DIR/update.err"; then
			rm -f "$APT_DIR/update.err"
			return 0
		fi
		[ "$try" = 3 ] || { warn "apt-get update failed (try $try of 3), again in 20 s"; sleep 20; }
	done
	warn "apt-get update failed; going on with the indexes that arrived: $(grep -E '^E:' "$APT_DIR/update.err" | head -n 2 | tr '\n' ' ')"
}

apt_private() {
	apt-get -o Dir::Etc::SourceList="$APT_DIR/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT_DIR/lists" \
		-o Dir::Cache="$APT_DIR/cache" \
		-o Dir::State::status=/dev/null \
		-o APT::Sandbox::User=root \
		-o Debug::NoLocking=1 "$@"
}

# --- fetching and verifying sources -----------------------------------------

DOWNLOADS="$CACHE/downloads"

sha256_of() { sha256sum "$1" | cut -c1-64; }

# verify_file NAME FILE: check FILE against its pinned sha256
verify_file() {
	local name=$1 file=$2 want got
	want=$(lock_fields "$name" | awk -v f="$(basename "$file")" '$5 == f {print $6}')
	[ -n "$want" ] || die "$LOCK: $(basename "$file") is not pinned for '$name'"
	got=$(sha256_of "$file")
	if [ "$got" != "$want" ]; then
		rm -f "$file"
		die "$file: sha256 mismatch (expected $want from $LOCK, got $got); removed"
	fi
}

# fetch NAME: make sure every pinned file of NAME is in $DOWNLOADS, verified
fetch() {
	local name=$1 kind pkg ver f missing=""
	lock_check_name "$name"
	read -r _ kind pkg ver _ _ < <(lock_fields "$name" | head -n1)
	mkdir -p "$DOWNLOADS"
	for f in $(lock_files "$name"); do
		[ -f "$DOWNLOADS/$f" ] || missing="$missing $f"
	done
	if [ -n "$missing" ]; then
		apt_setup
		msg "fetching $pkg=$ver ($kind) from Debian's archive"
		local tmp
		tmp=$(mktemp -d "$DOWNLOADS/.fetch.XXXXXX")
		case $kind in
		src) (cd "$tmp" && apt_private source --download-only "$pkg=$ver") \
			>"$tmp.log" 2>&1 || fetch_failed "$name" "$pkg" "$ver" "$tmp" ;;
		deb) (for f in $missing; do
			deb_download "$pkg" "$ver" "$f" "$tmp" \
				"$(lock_fields "$name" | awk -v f="$f" '$5 == f {print $6}')" || exit 1
		      done) >"$tmp.log" 2>&1 || fetch_failed "$name" "$pkg" "$ver" "$tmp" ;;
		*) rm -rf "$tmp"; die "$LOCK: '$name' has unknown kind '$kind' (expected src or deb)" ;;
		esac
		for f in $missing; do
			[ -f "$tmp/$f" ] || { rm -rf "$tmp" "$tmp.log";
				die "$LOCK: $f pinned for '$name' was not part of $pkg=$ver"; }
			verify_file "$name" "$tmp/$f"
			mv "$tmp/$f" "$DOWNLOADS/$f"
		done
		rm -rf "$tmp" "$tmp.log"
	fi
	for f in $(lock_files "$name"); do
		verify_file "$name" "$DOWNLOADS/$f"
	done
}

# apt_showsrc_dir PKG VERSION: the pool directory of the source package
# that builds binary package PKG at VERSION (from the Sources indexes)
apt_showsrc_dir() {
	apt-cache -o Dir::Etc::SourceList="$APT_DIR/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT_DIR/lists" \
		-o Dir::Cache="$APT_DIR/cache" \
		-o Dir::State::status=/dev/null showsrc "$1" 2>/dev/null |
		awk -v pkg="$1" -v ver="$2" '
			/^$/ { if (bin && v == ver && dir != "") { print dir; exit }
			       bin = 0; v = ""; dir = "" }
			/^Binary:/ { n = split(substr($0, 9), b, /[ ,]+/)
				     for (i = 1; i <= n; i++) if (b[i] == pkg) bin = 1 }
			/^Version:/ { v = $2; sub(/^[0-9]+:/, "", v) }
			/^Directory:/ { dir = $2 }
			END { if (bin && v == ver && dir != "") print dir }' | head -n1
}

# deb_download PKG VERSION FILE DIR [SHA256]: a binary package file from
# the archive's pool into DIR; apt-helper checks it against SHA256.
deb_download() {
	local dir
	dir=$(apt_showsrc_dir "$1" "$2")
	if [ -z "$dir" ]; then
		echo "E: no source package in the indexes builds $1 $2"
		return 1
	fi
	/usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$(apt_archive)/$dir/$3" "$4/$3" ${5:+"SHA256:$5"}
}

fetch_failed() {
	local err
	err=$(grep -E '^(E|W):' "$4.log" | head -n3)
	rm -rf "$4" "$4.log"
	[ ! -s "$APT_DIR/update.err" ] ||
		err="$err (and apt-get update had failed: $(grep -E '^E:' "$APT_DIR/update.err" | head -n 1))"
	die "cannot fetch $2=$3 (pinned for '$1' in $LOCK): ${err:-see apt-get output}"
}

# How sources are unpacked is part of every cache key: tools/build/unpack.sh.
. "$TOP/tools/build/unpack.sh"
