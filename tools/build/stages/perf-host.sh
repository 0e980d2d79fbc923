# SPDX-License-Identifier: GPL-2.0
# perf for the host (x86-64), from the same patched kernel source as the
# guest's perf: it reads the guest's perf.data (big-endian, 32-bit) and
# names its functions from the guest's binaries (tools/leon3-perf).
#
# Debian 12's own perf (linux-perf 6.1) cannot: perf reads perf.data of
# its own version or older, and the guest's 6.12 perf writes a 136-byte
# perf_event_attr (config3, Linux 6.3), which perf 6.1 refuses ("file
# uses a more recent and unsupported ABI (8 bytes extra)").
#
# With the host's libelf and libdw (Debian's libelf-dev, libdw-dev);
# perf annotate disassembles with binutils-sparc64-linux-gnu's objdump.
# With perf's auxtrace code (no library), which decodes the LEON3 trace
# unit's AUX area in the guest's perf.data (perf report -D).  Every other
# optional library is off, as in the guest's perf.

STAGE_DEPS="kernel"
STAGE_INPUTS=""

stage_host_id() {
	dpkg-query -W gcc make flex bison python3 pkg-config libelf-dev libdw-dev
}

PERF_OFF=(NO_LIBTRACEEVENT=1 NO_LIBPYTHON=1 NO_LIBPERL=1
	NO_LIBBPF=1 NO_SDT=1 NO_LIBUNWIND=1 NO_SLANG=1 NO_GTK2=1
	NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBBABELTRACE=1 NO_LIBCRYPTO=1 NO_LIBDEBUGINFOD=1
	NO_CAPSTONE=1 NO_LIBLLVM=1 NO_LIBPFM4=1)

stage_build() {
	local src
	src=$(dep_path kernel)/src
	step "compiling perf from Linux $(lock_version linux) for the host (tools/perf)"
	mkdir -p "$WORK/perf"
	make -C "$src/tools/perf" O="$WORK/perf" WERROR=0 "${PERF_OFF[@]}" -j"$JOBS"
	for f in libelf dwarf zlib; do
		grep -qx "feature-$f=1" "$WORK/perf/FEATURE-DUMP" ||
			die "host perf was built without $f (see $WORK/perf/FEATURE-DUMP)"
	done
	mkdir -p "$OUT/bin"
	strip -o "$OUT/bin/perf" "$WORK/perf/perf"
	"$OUT/bin/perf" --version
}

stage_links() {
	link "$OUT/bin/perf" "$BUILD/perf-host/perf"
}
