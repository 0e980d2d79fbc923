# SPDX-License-Identifier: GPL-2.0
# perf, the kernel's own tool (tools/perf of the patched kernel source),
# cross-built static for LEON3 with the project toolchain.
#
# With libelf and libdw (the elfutils stage, static, with zlib, liblzma
# and libzstd), perf report and perf script name user and kernel
# functions; with libpfm4 (the libpfm4 stage, with the LEON3 model),
# perf stat --pfm-events takes libpfm4's event names; with perf's
# auxtrace code (no library), perf record and perf stat turn the symbols
# of --filter into the address ranges leon3_pmu counts in
# (auxtrace_parse_filters()).  Every other optional library is off: no
# libtraceevent
# (sparc32 has no tracing), no Python, Perl, BPF or libunwind (libdw
# unwinds --call-graph dwarf).  The
# JSON event tables and metrics (pmu-events, the LEON3's from the kernel
# patch series) are compiled in: jevents runs on the host's python3.

STAGE_DEPS="toolchain kernel elfutils libpfm4"
STAGE_INPUTS=""

stage_host_id() {
	dpkg-query -W flex bison make python3 pkg-config
}

PERF_OFF=(NO_LIBTRACEEVENT=1 NO_LIBPYTHON=1 NO_LIBPERL=1
	NO_LIBBPF=1 NO_SDT=1 NO_LIBUNWIND=1 NO_SLANG=1 NO_GTK2=1
	NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBBABELTRACE=1 NO_LIBCRYPTO=1 NO_LIBDEBUGINFOD=1
	NO_CAPSTONE=1 NO_LIBLLVM=1 NO_DEMANGLE=1)

stage_build() {
	local tc src elf pfm
	tc=$(dep_path toolchain)
	src=$(dep_path kernel)/src
	elf=$(dep_path elfutils)
	pfm=$(dep_path libpfm4)
	export PATH="$tc/bin:$PATH"
	step "compiling perf from Linux $(lock_version linux) (tools/perf)"
	# perf writes only to O=: the kernel stage's source stays as it is.
	mkdir -p "$WORK/perf"
	# pkg-config gives perf libdw's version (static libdw since 0.177
	# needs no -lebl), from the elfutils stage only.
	make -C "$src/tools/perf" O="$WORK/perf" ARCH=sparc \
		CROSS_COMPILE=$TARGET- WERROR=0 \
		LDFLAGS="-static -L$elf/lib -L$pfm/lib" EXTRA_CFLAGS="-I$elf/include -I$pfm/include" \
		LIBDW_DIR="$elf" PKG_CONFIG_LIBDIR="$elf/lib/pkgconfig" \
		PKG_CONFIG_PATH="$elf/lib/pkgconfig" \
		LIBPFM4=1 "${PERF_OFF[@]}" -j"$JOBS"
	# perf only warns when it leaves a library out: insist on these.
	for f in libelf dwarf zlib; do
		grep -qx "feature-$f=1" "$WORK/perf/FEATURE-DUMP" ||
			die "perf was built without $f (see $WORK/perf/FEATURE-DUMP)"
	done
	sparc64-linux-gnu-nm "$WORK/perf/perf" >"$WORK/perf.nm"
	grep -w pfm_get_os_event_encoding "$WORK/perf.nm" >/dev/null ||
		die "perf was built without libpfm4 (see the libpfm4 lines of $LOG)"
	# --call-graph dwarf: libdw's unwinder with the sparc initial frame
	# (the kernel patch "perf tools: Add sparc register names and DWARF
	# unwinding with libdw")
	grep -w libdw__arch_set_initial_registers "$WORK/perf.nm" >/dev/null ||
		die "perf was built without libdw's DWARF unwinder (see $WORK/perf/FEATURE-DUMP)"
	# --filter 'filter SYMBOL @ FILE': symbols resolved by the auxtrace code
	grep -w addr_filters__parse_bare_filter "$WORK/perf.nm" >/dev/null ||
		die "perf was built without auxtrace: --filter cannot name symbols (see the AUXTRACE lines of $LOG)"
	mkdir -p "$OUT/bin"
	# Its symbol table stays (1.4 MB): perf test's dwarf unwinding test
	# names perf's own functions, and perf can profile perf.
	sparc64-linux-gnu-strip --strip-debug -o "$OUT/bin/perf" "$WORK/perf/perf"
	file "$OUT/bin/perf"
}

stage_links() {
	link "$OUT/bin/perf" "$BUILD/perf/perf"
}
