# SPDX-License-Identifier: GPL-2.0
# QEMU with the project's series and tools/bench/qemu-parts.patch after
# it: a QEMU that can leave parts of the PMU model out, for timing them
# (tools/bench/qemu-parts).  Built only by `make bench-qemu-parts`.

. "$TOP/tools/build/qemu-common.sh"
QEMU_PROGRAMS="qemu-system-sparc"
STAGE_INPUTS="$(series_inputs qemu-patches qemu-patches/rfc) tools/bench/qemu-parts.patch tools/build/qemu-common.sh tools/build/apply-series"

stage_build() {
	mkdir parts
	cp "$TOP/tools/bench/qemu-parts.patch" parts/
	echo qemu-parts.patch >parts/series
	qemu_build "$TOP/qemu-patches/series $TOP/qemu-patches/rfc/series $PWD/parts/series"
}

stage_links() {
	link "$OUT/bin/qemu-system-sparc" "$BUILD/bin/qemu-system-sparc-parts"
}
