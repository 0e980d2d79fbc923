# SPDX-License-Identifier: GPL-2.0
# The LEON3 PROM (prom/): the boot ROM that starts Linux on
# leon3_generic, built with the project's toolchain.

STAGE_DEPS="toolchain"
STAGE_INPUTS="prom/Makefile prom/prom.lds prom/*.h prom/*.c prom/*.S"

stage_build() {
	local tc
	tc=$(dep_path toolchain)
	step "building prom.bin"
	make -C "$TOP/prom" O="$OUT" CROSS_COMPILE="$tc/bin/$TARGET-"
	rm -f "$OUT"/*.o
	ls -l "$OUT/prom.bin"
}

stage_links() {
	link "$OUT/prom.bin" "$BUILD/prom/prom.bin"
	link "$OUT/prom.elf" "$BUILD/prom/prom.elf"
}
