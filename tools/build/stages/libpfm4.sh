# SPDX-License-Identifier: GPL-2.0
# libpfm4, Debian's source with Debian's patches, plus the project's
# LEON3 PMU model (tools/libpfm4/patches), static for LEON3: the library
# that perf's --pfm-events and PAPI name events with, its examples
# (showevtinfo, check_events), perf_examples and its own tests/validate.

STAGE_DEPS="toolchain"
STAGE_SOURCES="libpfm4"
STAGE_INPUTS="tools/libpfm4/patches/series tools/libpfm4/patches/*.patch tools/build/apply-series"

stage_host_id() {
	dpkg-query -W make
}

# Programs the guest tests run; perf_examples' Makefile ignores a
# failed link, so each one is checked.
PFM_PROGRAMS="tests/validate examples/showevtinfo examples/check_events
	perf_examples/task perf_examples/self perf_examples/syst perf_examples/self_count
	perf_examples/evt2raw perf_examples/syst_count perf_examples/task_smpl"

stage_build() {
	local tc p
	tc=$(dep_path toolchain)
	export PATH="$tc/bin:$PATH"
	step "unpacking libpfm4 $(lock_version libpfm4), applying tools/libpfm4/patches (1/2)"
	unpack_debian libpfm4 src
	"$TOP/tools/build/apply-series" src "$TOP/tools/libpfm4/patches/series"

	step "compiling the library, examples and tests, static (2/2)"
	# ARCH=sparc: the SPARC models (UltraSPARC, Niagara, LEON3).  No
	# shared library, no Python binding; libpfm4's own -Werror stays.
	local mk=(ARCH=sparc SYS=Linux CC=$TARGET-gcc AR=$TARGET-ar OPTIM=-O2
		CONFIG_PFMLIB_SHARED=n CONFIG_PFMLIB_NOPYTHON=y LDFLAGS=-static
		PREFIX="$OUT" LDCONFIG=true)
	make -C src "${mk[@]}" -j"$JOBS"
	make -C src "${mk[@]}" install
	mkdir -p "$OUT/bin"
	for p in $PFM_PROGRAMS; do
		[ -f "src/$p" ] || die "libpfm4 did not build $p"
		install -m 0755 "src/$p" "$OUT/bin/"
	done
	ls -l "$OUT/lib/libpfm.a" "$OUT/bin"
}

stage_links() {
	link "$OUT" "$BUILD/libpfm4"
}
