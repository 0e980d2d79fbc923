# SPDX-License-Identifier: GPL-2.0
# PAPI from Debian's source package (the upstream tarball: the project's
# patches in tools/papi/patches are against upstream), cross-built
# static for LEON3 with the perf_event component on the libpfm4 stage's
# library (with its LEON3 model): libpapi.a, the utilities (papi_avail,
# papi_native_avail, papi_command_line, ...), the ctests and the
# validation tests.

STAGE_DEPS="toolchain libpfm4"
STAGE_SOURCES="papi"
STAGE_INPUTS="tools/papi/patches/series tools/papi/patches/*.patch tools/build/apply-series"

stage_host_id() {
	dpkg-query -W make gcc
}

PAPI_UTILS="papi_avail papi_native_avail papi_command_line papi_component_avail
	papi_decode papi_event_chooser papi_mem_info papi_version papi_cost papi_clockres
	papi_hardware_avail papi_error_codes"

stage_build() {
	local tc pfm u
	tc=$(dep_path toolchain)
	pfm=$(dep_path libpfm4)
	export PATH="$tc/bin:$PATH"
	step "unpacking PAPI $(lock_version papi), applying tools/papi/patches (1/4)"
	unpack_orig papi papi
	"$TOP/tools/build/apply-series" papi "$TOP/tools/papi/patches/series"

	step "configuring for $TARGET (2/4)"
	# Cross-compiling, PAPI's configure cannot run its test programs:
	# the answers are given.  --with-CPU: not the build machine's x86
	# (whose cpuid code would be built).  The wall clock from
	# gettimeofday: the cycle-counter timer of sparc reads %tick, which
	# SPARC V8 does not have.  No Fortran (ac_cv_prog_ac_ct_F77=), no
	# libsde, static only; libpfm4 from its stage, whose objects go into
	# libpapi.a.  genpapifdef runs on the host (--with-nativecc).
	(cd papi/src && CC=$TARGET-gcc AR=$TARGET-ar RANLIB=$TARGET-ranlib \
		CFLAGS="-O2" LDFLAGS="-static" ./configure \
		--build=x86_64-pc-linux-gnu --host=$TARGET --prefix="$OUT" \
		--with-OS=linux --with-arch=sparc --with-CPU=leon3 \
		--with-perf-events --with-pfm-prefix="$pfm" \
		--with-ffsll --with-tls=__thread \
		--with-walltimer=gettimeofday --with-virtualtimer=clock_thread_cputime_id \
		--with-static-lib=yes --with-shared-lib=no --with-static-tools \
		--with-libsde=no --with-tests=ctests --disable-perf-event-uncore \
		--with-nativecc=gcc ac_cv_prog_ac_ct_F77=)

	step "compiling libpapi.a and the utilities (3/4)"
	make -C papi/src -j"$JOBS" static
	make -C papi/src -j"$JOBS" utils

	step "compiling the ctests and validation tests (4/4)"
	# Upstream ignores the failed builds of some ctests (OpenMP needs
	# libgomp, which the toolchain does not have); the tests list what
	# was built.
	make -C papi/src -j"$JOBS" ctests

	make -C papi/src install-lib
	mkdir -p "$OUT/bin" "$OUT/ctests" "$OUT/validation_tests"
	for u in $PAPI_UTILS; do
		[ -f "papi/src/utils/$u" ] || die "PAPI did not build utils/$u"
		install -m 0755 "papi/src/utils/$u" "$OUT/bin/"
	done
	find papi/src/ctests papi/src/validation_tests -maxdepth 1 -type f -perm -u+x \
		! -name '*.[ch]' ! -name '*.sh' -exec sh -c '
			for f; do install -m 0755 "$f" "$0/$(basename "$(dirname "$f")")/"; done' "$OUT" {} +
	# The tests are booted into the guest by the hundred: without their
	# debug information, 0.5 MiB each instead of 2.
	sparc64-linux-gnu-strip "$OUT"/bin/* "$OUT"/ctests/* "$OUT"/validation_tests/*
	# What PAPI's run_tests.sh leaves out (support programs, long runs):
	# the tests run the rest.
	install -m 0644 papi/src/run_tests_exclude.txt "$OUT/"
	echo "$(ls "$OUT/ctests" | wc -l) ctests, $(ls "$OUT/validation_tests" | wc -l) validation tests"
	ls -l "$OUT/lib/libpapi.a"
}

stage_links() {
	link "$OUT" "$BUILD/papi"
}
