# SPDX-License-Identifier: GPL-2.0
# The same QEMU 10.0 source with none of the project's patches: the
# reference for side-by-side benchmarks.

. "$TOP/tools/build/qemu-common.sh"
QEMU_PROGRAMS="qemu-system-sparc"
STAGE_INPUTS="tools/build/qemu-common.sh"

stage_build() {
	qemu_build ""
}

stage_links() {
	link "$OUT/bin/qemu-system-sparc" "$BUILD/bin/qemu-system-sparc-baseline"
}
