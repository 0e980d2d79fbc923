# SPDX-License-Identifier: GPL-2.0
# Linux 6.12 for LEON3: the pinned source, kernel/patches/series, and
# kernel/config/leon3.config merged over sparc32_defconfig.  Built with
# Debian's sparc64 cross compiler (arch/sparc adds -m32 -mcpu=v8).
#
# The patched source and the build tree stay in the cache entry: out-of-
# tree modules (make module) are built against them.
#
# kernel-debug.sh builds the same kernel with more config fragments.

STAGE_SOURCES="linux"
STAGE_INPUTS="kernel/patches/series kernel/patches/*.patch kernel/config/leon3.config tools/build/apply-series"
# Merged in this order over sparc32_defconfig; the build links to build/$KERNEL_LINK.
KERNEL_FRAGMENTS="kernel/config/leon3.config"
KERNEL_LINK=linux

stage_host_id() {
	dpkg-query -W gcc-sparc64-linux-gnu binutils-sparc64-linux-gnu gcc bc flex bison ccache
}

# ccache: a kernel patch usually touches few files; the rest is reused.
KMAKE_ARGS=(ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu- "CC=ccache sparc64-linux-gnu-gcc")

stage_build() {
	export CCACHE_DIR="$CACHE/ccache" CCACHE_BASEDIR="$STAGE_ROOT/kernel"
	step "unpacking Linux $(lock_version linux)"
	unpack_orig linux "$OUT/src"
	"$TOP/tools/build/apply-series" "$OUT/src" "$TOP/kernel/patches/series"

	step "configuring (sparc32_defconfig + ${KERNEL_FRAGMENTS// / + })"
	mkdir -p "$OUT/build"
	make -C "$OUT/src" O="$OUT/build" "${KMAKE_ARGS[@]}" sparc32_defconfig
	local f frags=()
	for f in $KERNEL_FRAGMENTS; do
		frags+=("$TOP/$f")
	done
	(cd "$OUT/build" && "$OUT/src/scripts/kconfig/merge_config.sh" -m \
		.config "${frags[@]}")
	make -C "$OUT/src" O="$OUT/build" "${KMAKE_ARGS[@]}" olddefconfig
	# merge_config only warns when a fragment option did not stick.
	for f in "${frags[@]}"; do
		check_fragment "$f" "$OUT/build/.config"
	done

	step "compiling vmlinux and modules"
	make -C "$OUT/src" O="$OUT/build" "${KMAKE_ARGS[@]}" -j"$JOBS" vmlinux modules
	sparc64-linux-gnu-objcopy -O binary "$OUT/build/vmlinux" "$OUT/build/vmlinux.bin"
}

# check_fragment FRAGMENT CONFIG: every option FRAGMENT sets has that value
check_fragment() {
	local bad
	bad=$(grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' "$1" |
		while read -r line; do
			case $line in
			"# "*) opt=${line#\# }; opt=${opt%% *}
				if grep -q "^$opt=" "$2"; then echo "$opt (wanted unset)"; fi ;;
			*) if ! grep -qxF "$line" "$2"; then echo "$line"; fi ;;
			esac
		done)
	[ -z "$bad" ] || die "kernel config: options of $1 that did not apply: $bad"
}

stage_links() {
	link "$OUT/build" "$BUILD/$KERNEL_LINK"
	link "$OUT/src" "$BUILD/$KERNEL_LINK-src"
}
