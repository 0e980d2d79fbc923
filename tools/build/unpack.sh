# SPDX-License-Identifier: GPL-2.0
# How pinned sources are unpacked into a build.  Sourced by lib.sh; part
# of every stage's cache key (what lib.sh does besides is fetching and
# verifying, which the lock's checksums already pin).

# unpack_orig NAME DEST: unpack the upstream tarball of NAME (or its
# override) into DEST, with the top-level directory stripped.
unpack_orig() {
	local name=$1 dest=$2 ov tarball
	ov=$(source_override "$name")
	mkdir -p "$dest"
	if [ -n "$ov" ] && [ -d "$ov" ]; then
		msg "using local source tree $ov for $name"
		cp -a "$ov/." "$dest/"
		return
	fi
	if [ -n "$ov" ]; then
		msg "using local tarball $ov for $name"
		tarball=$ov
	else
		fetch "$name"
		tarball="$DOWNLOADS/$(lock_files "$name" | grep '\.orig\.tar\.')"
	fi
	tar -xf "$tarball" -C "$dest" --strip-components=1
}

# unpack_debian NAME DEST: dpkg-source -x of the pinned Debian source
# package (upstream tarball plus Debian's patches).
unpack_debian() {
	local name=$1 dest=$2 ov
	ov=$(source_override "$name")
	[ -z "$ov" ] || die "LEON3_SRC_* overrides are not supported for '$name' (needs Debian's patches)"
	fetch "$name"
	rm -rf "$dest"
	dpkg-source -x "$DOWNLOADS/$(lock_files "$name" | grep '\.dsc$')" "$dest" >/dev/null 2>&1 ||
		die "dpkg-source -x failed for '$name'"
}

# unpack_deb NAME DEST: dpkg -x of a pinned binary package
unpack_deb() {
	fetch "$1"
	mkdir -p "$2"
	dpkg -x "$DOWNLOADS/$(lock_files "$1" | grep '\.deb$')" "$2"
}
