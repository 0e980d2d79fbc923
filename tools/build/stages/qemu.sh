# SPDX-License-Identifier: GPL-2.0
# QEMU 10.0 with the project's patch series (qemu-patches/series).

. "$TOP/tools/build/qemu-common.sh"
STAGE_INPUTS="qemu-patches/series qemu-patches/*.patch tools/build/qemu-common.sh tools/build/apply-series"

stage_build() {
	qemu_build "$TOP/qemu-patches/series" keep
}

stage_links() {
	link "$OUT/bin/qemu-system-sparc" "$BUILD/bin/qemu-system-sparc"
	link "$OUT/bin/qemu-sparc" "$BUILD/bin/qemu-sparc"
	link "$OUT/src" "$BUILD/qemu-src"
}
