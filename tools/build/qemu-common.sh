# SPDX-License-Identifier: GPL-2.0
# What the qemu and qemu-baseline stages share: one QEMU 10.0 build for
# sparc-softmmu and sparc-linux-user, from the pinned source plus the
# patch series given.  Sourced by tools/build/stages/qemu*.sh.

STAGE_SOURCES="qemu meson pycotap"

# series_inputs DIR...: the series files and the patches they list, as
# STAGE_INPUTS (relative to TOP): what a cover letter says changes
# nothing that is built
series_inputs() {
	local d
	for d in "$@"; do
		[ -f "$TOP/$d/series" ] || continue
		printf '%s/series ' "$d"
		awk -v d="$d" '!/^#/ && NF { printf "%s/%s ", d, $1 }' "$TOP/$d/series"
	done
}

stage_host_id() {
	dpkg-query -W gcc libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev \
		ninja-build python3 python3-venv
}

# qemu_build "SERIES..." [keep]: patch series files applied in order,
# or empty for none; builds the programs of QEMU_PROGRAMS (set by the
# stage) into $OUT/bin.  With "keep", the (patched) source stays in
# $OUT/src, for grep, editors and debuggers; the build still sees it as
# ../src, so that ccache shares the untouched files with the other QEMU
# stages (all configured alike, whatever programs they build).
qemu_build() {
	local series=$1 keep=${2:-} s
	step "unpacking QEMU $(lock_version qemu)"
	if [ "$keep" = keep ]; then
		unpack_orig qemu "$OUT/src"
		ln -s "$OUT/src" src
	else
		unpack_orig qemu src
	fi
	for s in $series; do
		step "applying ${s#"$TOP"/}"
		"$TOP/tools/build/apply-series" src "$s"
	done

	# Debian 12's meson is too old for QEMU 10.0 and the DFSG tarball
	# has no python/wheels: use trixie's meson and pycotap, unpacked
	# here and seen by configure's venv through PYTHONPATH.
	unpack_deb meson pydeps
	unpack_deb pycotap pydeps
	export PYTHONPATH="$WORK/pydeps/usr/lib/python3/dist-packages"

	# ccache lets the patched and the baseline build share the files
	# the patches do not touch.
	export CCACHE_DIR="$CACHE/ccache" CCACHE_BASEDIR="$WORK"

	step "configuring (sparc-softmmu, sparc-linux-user)"
	mkdir build && cd build
	../src/configure --prefix="$OUT" --python="$HOST_PYTHON" \
		--target-list=sparc-softmmu,sparc-linux-user \
		--without-default-features --enable-tcg --enable-fdt=system \
		--disable-download --disable-install-blobs --disable-docs \
		--disable-werror
	# The programs alone: QEMU's default target also builds its unit and
	# qtest programs and the softfloat and testfloat libraries of its FP
	# tests, a third of its objects, and installing builds them too.
	step "compiling $QEMU_PROGRAMS"
	make -j"$JOBS" $QEMU_PROGRAMS
	mkdir -p "$OUT/bin"
	install -m 0755 $QEMU_PROGRAMS "$OUT/bin/"
}
