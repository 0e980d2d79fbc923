# SPDX-License-Identifier: GPL-2.0
# busybox 1.37, static, built with the project's toolchain: the guest's
# shell and utilities.

STAGE_DEPS="toolchain"
STAGE_SOURCES="busybox"
STAGE_INPUTS="tools/rootfs/busybox.config"

stage_build() {
	local tc
	tc=$(dep_path toolchain)
	export PATH="$tc/bin:$PATH"
	step "unpacking busybox $(lock_version busybox)"
	unpack_orig busybox src
	step "configuring (defconfig + tools/rootfs/busybox.config)"
	make -C src defconfig
	grep -E '^(CONFIG_|# CONFIG_)' "$TOP/tools/rootfs/busybox.config" |
		while read -r line; do
			case $line in
			"# "*) opt=${line#\# }; opt=${opt%% *} ;;
			*) opt=${line%%=*} ;;
			esac
			sed -i -e "/^$opt=/d" -e "/^# $opt is not set/d" src/.config
			printf '%s\n' "$line" >>src/.config
		done
	# (yes ends with SIGPIPE when oldconfig is done: not a failure.)
	{ yes '' || true; } | make -C src oldconfig >/dev/null
	step "compiling"
	make -C src -j"$JOBS" CROSS_COMPILE=$TARGET- busybox
	make -C src CROSS_COMPILE=$TARGET- CONFIG_PREFIX="$OUT" install
	file "$OUT/bin/busybox"
}

stage_links() {
	link "$OUT/bin/busybox" "$BUILD/rootfs/busybox"
}
