# SPDX-License-Identifier: GPL-2.0
# QEMU with the project's series and tools/bench/qemu-parts.patch after
# it: a QEMU that can leave parts of the PMU model out, for timing them
# (tools/bench/qemu-parts).  Built only by `make bench-qemu-parts`.

. "$TOP/tools/build/qemu-common.sh"
STAGE_INPUTS="qemu-patches/series qemu-patches/*.patch tools/bench/qemu-parts.patch tools/build/qemu-common.sh tools/build/apply-series"

stage_build() {
	mkdir patches
	cp "$TOP"/qemu-patches/series "$TOP"/qemu-patches/*.patch \
		"$TOP/tools/bench/qemu-parts.patch" patches/
	echo qemu-parts.patch >>patches/series
	qemu_build "$PWD/patches/series"
}

stage_links() {
	link "$OUT/bin/qemu-system-sparc" "$BUILD/bin/qemu-system-sparc-parts"
}
