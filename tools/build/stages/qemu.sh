# SPDX-License-Identifier: GPL-2.0
# QEMU 10.0 with the project's patch series (qemu-patches/series) and the
# RFC series on top of it (qemu-patches/rfc/series).

. "$TOP/tools/build/qemu-common.sh"
QEMU_PROGRAMS="qemu-system-sparc qemu-sparc"
STAGE_INPUTS="$(series_inputs qemu-patches qemu-patches/rfc) tools/build/qemu-common.sh tools/build/apply-series"

stage_build() {
	qemu_build "$TOP/qemu-patches/series $TOP/qemu-patches/rfc/series" keep
}

stage_links() {
	link "$OUT/bin/qemu-system-sparc" "$BUILD/bin/qemu-system-sparc"
	link "$OUT/bin/qemu-sparc" "$BUILD/bin/qemu-sparc"
	link "$OUT/src" "$BUILD/qemu-src"
}
