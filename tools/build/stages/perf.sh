# SPDX-License-Identifier: GPL-2.0
# perf, the kernel's own tool (tools/perf of the patched kernel source),
# cross-built static for LEON3 with the project toolchain.
#
# The guest has no libraries, so every optional library perf can use is
# off: no libelf (symbols are not resolved in the guest: perf report
# shows addresses), no libtraceevent (sparc32 has no tracing), no
# Python, Perl, BPF, unwinders or compression.  The JSON event tables
# and metrics (pmu-events, the LEON3's from the kernel patch series) are
# compiled in: jevents runs on the host's python3.

STAGE_DEPS="toolchain kernel"
STAGE_INPUTS=""

stage_host_id() {
	dpkg-query -W flex bison make python3
}

PERF_OFF=(NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_LIBPYTHON=1 NO_LIBPERL=1
	NO_LIBBPF=1 NO_SDT=1 NO_LIBUNWIND=1 NO_SLANG=1 NO_GTK2=1
	NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBZSTD=1 NO_LZMA=1 NO_ZLIB=1
	NO_LIBBABELTRACE=1 NO_AUXTRACE=1 NO_LIBCRYPTO=1 NO_LIBDEBUGINFOD=1
	NO_CAPSTONE=1 NO_LIBLLVM=1 NO_DEMANGLE=1 NO_LIBPFM4=1)

stage_build() {
	local tc src
	tc=$(dep_path toolchain)
	src=$(dep_path kernel)/src
	export PATH="$tc/bin:$PATH"
	step "compiling perf from Linux $(lock_version linux) (tools/perf)"
	# perf writes only to O=: the kernel stage's source stays as it is.
	mkdir -p "$WORK/perf"
	make -C "$src/tools/perf" O="$WORK/perf" ARCH=sparc \
		CROSS_COMPILE=$TARGET- LDFLAGS=-static WERROR=0 \
		"${PERF_OFF[@]}" -j"$JOBS"
	mkdir -p "$OUT/bin"
	sparc64-linux-gnu-strip -o "$OUT/bin/perf" "$WORK/perf/perf"
	file "$OUT/bin/perf"
}

stage_links() {
	link "$OUT/bin/perf" "$BUILD/perf/perf"
}
