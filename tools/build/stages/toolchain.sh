# SPDX-License-Identifier: GPL-2.0
# The guest toolchain sparc-leon3-linux-gnu: gcc-12 (C) with libgcc built
# for LEON3 (-mcpu=leon3: SPARC V8 plus CASA), glibc, the project
# kernel's UAPI headers; binutils are Debian's sparc64 ones, wrapped to
# assemble and link 32-bit.  Two multilibs, as gcc's LEON3 configuration
# (gcc/config/sparc/t-leon3) defines them: hard float (the default) and
# -msoft-float (libgcc and glibc in lib/soft: no FPU instruction, for a
# LEON3 without an FPU; glibc-patches/ makes glibc's soft-float build a
# nofpu one).
#
# Debian's own 32-bit sparc libraries are v8plus (UltraSPARC) and cannot
# run on a LEON3, hence a toolchain of our own, built in one gcc pass
# (stage_build below).  The final tree is relocatable (the sysroot lives
# under the prefix).

STAGE_DEPS="linux-headers"
STAGE_SOURCES="gcc glibc"
STAGE_INPUTS="glibc-patches/series glibc-patches/*.patch tools/build/apply-series"

stage_host_id() {
	dpkg-query -W binutils-sparc64-linux-gnu gcc-12-sparc64-linux-gnu gcc g++ \
		libgmp-dev libmpfr-dev libmpc-dev ccache
}

# The compiler proper, cc1, is Debian's sparc64 one (gcc-12-sparc64-linux-gnu,
# the same GCC 12.2) in 32-bit mode: given the options a cc1 built for
# sparc-leon3-linux-gnu has as defaults (-m32 and 32-bit pointers, no
# stack bias, no PIE unless asked: Debian's defaults to PIE; this gcc's
# headers, -iprefix, and its sysroot, -isysroot, where a cc1 of its own
# would have them built in), it emits the same code, and building a cc1
# of our own was most of this stage's time.  The driver, libgcc and the
# multilibs are built from gcc-12's source; the gcc build below makes
# everything but cc1 (make -o cc1), which is a wrapper in its build tree
# and in the installed gcc, and Debian's own, given its options by the
# specs, while glibc is built.  An -fPIC, -fPIE or --sysroot of the user's comes after
# and wins.  Each wrapper is a shell started for each compiled file (4 ms
# and more where starting a process is slow), so it starts nothing else.
DEBIAN_CC1=/usr/lib/gcc-cross/sparc64-linux-gnu/12/cc1
CC1_OPTS="-m32 -mptr32 -mno-stack-bias -fno-pie"

# install_cc1 DIR SYSROOT: the wrapper for a gcc build tree (whose driver
# gives cc1 the tree's headers itself)
install_cc1() {
	mkdir -p "$1"
	printf '#!/bin/sh\nexec %s %s -isysroot %s "$@"\n' "$DEBIAN_CC1" "$CC1_OPTS" "$2" >"$1/cc1"
	chmod +x "$1/cc1"
}

# install_cc1_relocatable PREFIX: the installed wrapper (install-strip
# leaves the build tree's out: strip refuses a script), which finds the
# headers and the sysroot beside it wherever the tree is.  A driver that
# runs where it was installed gives cc1 neither -iprefix nor -isysroot
# (one that was moved gives both).  The driver runs it as
# PREFIX/libexec/gcc/TARGET/VERSION/cc1 (PREFIX as the driver finds its
# own, maybe PREFIX/bin/..): the tree from $0 without starting a process.
install_cc1_relocatable() {
	local dir rel
	dir=$(find "$1/libexec/gcc/$TARGET" -name collect2 -printf '%h\n')
	[ -n "$dir" ] && [ -d "$dir" ] || die "no collect2 installed under $1/libexec/gcc/$TARGET"
	rel=libexec/gcc/$TARGET/${dir##*/}/cc1
	# (not through a link to Debian's cc1 that install_specs left)
	rm -f "$dir/cc1"
	cat >"$dir/cc1" <<-EOS
	#!/bin/sh
	# Debian's sparc64 cc1 as $TARGET's (tools/build/stages/toolchain.sh)
	top=\${0%/$rel}
	[ "\$top" != "\$0" ] || top=\$(cd "\$(dirname "\$0")/../../../.." && pwd)
	exec $DEBIAN_CC1 $CC1_OPTS -iprefix "\$top/lib/gcc/$TARGET/${dir##*/}/" \\
		-isysroot "\$top/$TARGET/sysroot" "\$@"
	EOS
	chmod +x "$dir/cc1"
}

# install_specs PREFIX [CC1_OPTION...]: the gcc installed in PREFIX runs
# Debian's as itself, its --32 from gcc's specs; with CC1_OPTIONs, also
# Debian's cc1, given CC1_OPTS and them by the specs (while glibc is
# built: no wrapper shell started for each file).  The specs file is the
# driver's own specs (-dumpspecs, without a specs file of ours) with
# those added: a specs file of a few lines would replace the built-in
# specs, not add to them (gcc then forgets -D__sparc_v8__ and -Aleon).
# bin/$TARGET-as stays the wrapper for those who run it directly.
install_specs() {
	local prefix=$1 gcc="$1/bin/$TARGET-gcc" libexec libdir cc1=
	shift
	[ $# -eq 0 ] || cc1="$CC1_OPTS $*"
	libexec=$(find "$prefix/libexec/gcc/$TARGET" -name collect2 -printf '%h\n')
	libdir=$(dirname "$("$gcc" -print-file-name=include)")
	[ -n "$libexec" ] && [ -d "$libexec" ] || die "no collect2 installed under $prefix/libexec/gcc/$TARGET"
	[ "${libdir#"$prefix"/lib/gcc/$TARGET/}" != "$libdir" ] || die "$gcc's own directory is not under $prefix/lib/gcc/$TARGET: $libdir"
	rm -f "$libdir/specs" "$libexec/cc1"
	"$gcc" -dumpspecs | awk -v cc1="$cc1" '
		prev == "*cc1:" { if (cc1 != "") $0 = cc1 " " $0; n++ }
		prev == "*asm:" { $0 = "--32 " $0; n++ }
		{ print; prev = $0 }
		END { exit n != 2 }' >"$libdir/specs" || die "$gcc -dumpspecs has no *cc1: or no *asm:"
	[ -z "$cc1" ] || ln -s "$DEBIAN_CC1" "$libexec/cc1"
	# (where the driver looks before its tooldir, whose as stays the
	# wrapper: gcc's build tree runs that one, and has no specs of ours)
	ln -sf /usr/bin/sparc64-linux-gnu-as "$libexec/as"
}

# Options shared by both gcc passes.
gcc_common_config=(--target=$TARGET --with-cpu=leon3 --with-float=hard
	--enable-languages=c --enable-multilib --disable-nls
	--disable-bootstrap --disable-lto --disable-libssp
	--disable-libquadmath --disable-libgomp --disable-libatomic
	--disable-libitm --disable-libsanitizer --disable-libvtv
	--disable-libstdcxx --disable-werror --with-glibc-version=2.36
	"--with-pkgversion=LEON3 PMU project, Debian gcc-12 $(lock_version gcc)")

# binutils: Debian's sparc64 cross binutils in 32-bit mode.
install_binutils_wrappers() {
	local prefix=$1 t
	mkdir -p "$prefix/bin" "$prefix/$TARGET/bin"
	cat >"$prefix/bin/$TARGET-as" <<-'EOS'
	#!/bin/sh
	exec sparc64-linux-gnu-as --32 "$@"
	EOS
	cat >"$prefix/bin/$TARGET-ld" <<-'EOS'
	#!/bin/sh
	exec sparc64-linux-gnu-ld -m elf32_sparc "$@"
	EOS
	for t in ar nm objcopy objdump ranlib readelf size strings strip addr2line; do
		ln -sf "/usr/bin/sparc64-linux-gnu-$t" "$prefix/bin/$TARGET-$t"
	done
	chmod +x "$prefix/bin/$TARGET-as" "$prefix/bin/$TARGET-ld"
	# gcc looks for the plain names in its tooldir.
	for t in as ld ar nm objcopy objdump ranlib readelf strip; do
		ln -sf "../../bin/$TARGET-$t" "$prefix/$TARGET/bin/$t"
	done
}

# glibc_configure NAME CFLAG LIBDIR SLIBDIR: configure glibc for one
# multilib in glibc-NAME with the gcc being built (before its libgcc:
# configure links nothing with it), and write glibc's own list of what
# it builds to glibc-NAME/subdirs.
glibc_configure() {
	local name=$1 flag=$2 libdir=$3 slibdir=$4
	mkdir "glibc-$name" && cd "glibc-$name"
	# CXX: there is no target C++ compiler.  An empty CXX is not enough:
	# configure then finds the host g++, which links (host) programs, and
	# the build dies linking support/links-dso-program for x86-64.  A
	# name that does not exist makes configure drop C++.
	# --disable-default-pie: static PIE start-up crashes with this
	# toolchain (IRELATIVE fix-ups).
	../glibc-src/configure --prefix=/usr \
		--host=$TARGET --build="$(../glibc-src/scripts/config.guess)" \
		--with-headers="$sysroot/usr/include" --disable-default-pie \
		--disable-werror --disable-nscd --disable-profile \
		--disable-timezone-tools --without-selinux --enable-kernel=4.19 \
		--libdir="$libdir" libc_cv_slibdir="$slibdir" \
		CC="$TARGET-gcc${flag:+ $flag}" CXX="$TARGET-g++" CFLAGS="-O2 -g0"
	# glibc's own list of what it builds, less iconvdata (the gconv
	# modules, which iconv_open loads for a character set beyond the
	# built-in UTF-8, ASCII, ISO-8859-1 and UCS ones: no guest program
	# here does; a tenth of the build), support (libsupport, for
	# glibc's own tests), po (its messages' translations) and
	# localedata (the locale sources that localedef compiles)
	make "$PWD/sysd-sorted"
	sed -n 's/^sorted-subdirs := //p' sysd-sorted | tr ' ' '\n' |
		grep -vx 'iconvdata\|support\|po\|localedata' | xargs >subdirs
	grep -qw elf subdirs || die "glibc's sysd-sorted names no subdirectories"
	cd ..
}

# glibc_start_files NAME CFLAG LIBDIR: what libgcc needs of glibc-NAME
# to link libgcc_s.so: the start files, and a libc.so with libc's soname
# and nothing in it (libgcc_s is linked again with the real one, below).
glibc_start_files() {
	local name=$1 flag=$2 libdir=$3
	make -C "glibc-$name" csu/subdir_lib
	mkdir -p "$sysroot$libdir"
	cp "glibc-$name/csu/crt1.o" "glibc-$name/csu/crti.o" "glibc-$name/csu/crtn.o" "$sysroot$libdir/"
	$TARGET-gcc $flag -nostdlib -nostartfiles -shared -x c /dev/null \
		-Wl,-soname,libc.so.6 -o "$sysroot$libdir/libc.so"
}

# glibc_build NAME DESTDIR: build and install the glibc of glibc-NAME,
# its libraries without its programs (ldconfig, ldd, locale, iconv,
# getconf, ...: no guest program or test runs them; build-programs=no)
glibc_build() {
	local name=$1 dest=$2 subdirs
	subdirs=$(cat "glibc-$name/subdirs")
	make -C "glibc-$name" -j"$JOBS" subdirs="$subdirs" build-programs=no
	make -C "glibc-$name" install subdirs="$subdirs" DESTDIR="$dest" MAKEINFO=: build-programs=no
}

# gcc_fix_headers: gcc's limits.h includes the libc's when the sysroot
# has one, and fixincludes fixes the sysroot's headers (glibc's
# pthread.h): both made again, with the glibc headers the sysroot has now.
gcc_fix_headers() {
	rm -f gcc/gcc/stmp-int-hdrs gcc/gcc/stmp-fixinc
	make -C gcc -j"$JOBS" MAKE="make -o cc1" all-gcc
	grep -q _GCC_NEXT_LIMITS_H gcc/gcc/include-fixed/limits.h ||
		die "gcc's limits.h does not include glibc's"
}

# One gcc build, configured as the final toolchain, in the order its
# parts need each other: the driver, glibc's headers and start files,
# libgcc, glibc, libgcc_s linked again against it.  (The usual cross
# toolchain builds gcc twice, a bootstrap gcc without a libc first: here
# that pass was a sixth of the stage's CPU time, Documentation/
# building.md.)  gcc's configure reads nothing of the sysroot's glibc:
# --with-glibc-version answers what it would read.
stage_build() {
	local sysroot="$OUT/$TARGET/sysroot"
	local headers libexec
	headers=$(dep_path linux-headers)

	step "unpacking gcc-12 and applying Debian's patches (1/8)"
	unpack_debian gcc gcc-deb
	# Unpacks src/ and applies Debian's series, which includes
	# gcc-gfdl-build.diff: the DFSG tarball lacks the GFDL texinfo
	# sources that the s-tm-texi rule would otherwise check.
	make -C gcc-deb -f debian/rules patch
	grep -q 'cat $(srcdir)/doc/tm.texi.in > tmp-tm.texi' gcc-deb/src/gcc/Makefile.in

	step "unpacking glibc, applying Debian's patches and glibc-patches/ (2/8)"
	unpack_debian glibc glibc-src
	"$TOP/tools/build/apply-series" glibc-src "$TOP/glibc-patches/series"

	install_binutils_wrappers "$OUT"
	export PATH="$OUT/bin:$PATH"
	mkdir -p "$sysroot/usr"
	cp -a "$headers/include" "$sysroot/usr/"

	# ccache for the host compilers: a later rebuild of this stage
	# shares all the host objects.
	export CCACHE_DIR="$CACHE/ccache" CCACHE_BASEDIR="$WORK"
	export CC="ccache gcc" CXX="ccache g++"

	[ -x "$DEBIAN_CC1" ] || die "$DEBIAN_CC1 is missing (Debian's gcc-12-sparc64-linux-gnu: make deps)"

	step "gcc's driver, C only (3/8)"
	mkdir gcc && cd gcc
	../gcc-deb/src/configure --prefix="$OUT" \
		"${gcc_common_config[@]}" --with-sysroot="$sysroot" \
		--enable-shared --enable-threads=posix --enable-__cxa_atexit \
		CFLAGS=-O2 CXXFLAGS=-O2
	install_cc1 gcc "$sysroot"
	make -j"$JOBS" MAKE="make -o cc1" all-gcc
	make MAKE="make -o cc1" install-gcc
	cd ..
	install_specs "$OUT" -isysroot "$sysroot"

	step "glibc's headers and start files; libgcc (4/8)"
	glibc_configure hard "" /usr/lib /lib
	glibc_configure soft -msoft-float /usr/lib/soft /lib/soft
	# (before the build, glibc's gnu/stubs.h for each ABI is empty; the
	# soft float ABI's is one file more)
	make -C glibc-hard install-headers install-bootstrap-headers=yes DESTDIR="$sysroot"
	make -C glibc-soft install-bootstrap-headers=yes DESTDIR="$sysroot" \
		"$sysroot/usr/include/gnu/stubs-32_soft.h" "$sysroot/usr/include/gnu/lib-names-32_soft.h"
	glibc_start_files hard "" /usr/lib
	glibc_start_files soft -msoft-float /usr/lib/soft
	gcc_fix_headers
	make -C gcc -j"$JOBS" MAKE="make -o cc1" all-target-libgcc
	make -C gcc MAKE="make -o cc1" install-target-libgcc

	step "glibc $(lock_version glibc), hard float (5/8)"
	glibc_build hard "$sysroot"

	step "glibc $(lock_version glibc), soft float, nofpu, into lib/soft (6/8)"
	glibc_build soft "$WORK/glibc-soft-root"
	# The headers are shared: the soft-float ABI variant adds only its
	# own gnu/stubs-32_soft.h and gnu/lib-names-32_soft.h, which
	# gnu/stubs.h and gnu/lib-names.h pick under -msoft-float; any other
	# difference would compile soft-float programs against wrong ones.
	# (Those two files, as glibc's headers had them before the build,
	# give way.)
	rm "$sysroot/usr/include/gnu/stubs-32_soft.h" "$sysroot/usr/include/gnu/lib-names-32_soft.h"
	cp -an "$WORK/glibc-soft-root/usr/include/." "$sysroot/usr/include/"
	local differ
	differ=$(diff -r "$sysroot/usr/include" "$WORK/glibc-soft-root/usr/include" |
		grep -v "^Only in $sysroot/usr/include" || true)
	[ -z "$differ" ] || die "the soft-float glibc installs other headers: $differ"
	cp -a "$WORK/glibc-soft-root/lib/soft" "$sysroot/lib/"
	cp -a "$WORK/glibc-soft-root/usr/lib/soft" "$sysroot/usr/lib/"

	step "libgcc_s linked against glibc; installing gcc (7/8)"
	gcc_fix_headers
	find "gcc/$TARGET" -name 'libgcc_s.so*' -delete
	# (and the rest of gcc's build: c++tools and the others it installs)
	make -C gcc -j"$JOBS" MAKE="make -o cc1"
	libexec=$(find "$OUT/libexec/gcc/$TARGET" -name collect2 -printf '%h\n')
	rm -f "$libexec/cc1"
	make -C gcc MAKE="make -o cc1" install-strip
	install_specs "$OUT"
	install_cc1_relocatable "$OUT"
	local lib dyn
	for lib in "$OUT/$TARGET/lib/libgcc_s.so.1" "$OUT/$TARGET/lib/soft/libgcc_s.so.1"; do
		dyn=$("$OUT/bin/$TARGET-readelf" -d --dyn-syms -W "$lib")
		[[ $dyn == *"(NEEDED)"*"[libc.so.6]"* ]] || die "$lib does not need libc.so.6"
		[[ $dyn == *" UND "*"@GLIBC_"* ]] || die "$lib was not linked against glibc's symbol versions"
	done

	step "checking static programs link, soft float without the FPU (8/8)"
	[ "$(readlink -f "$("$OUT/bin/$TARGET-gcc" -print-prog-name=as)")" = \
		"$(readlink -f /usr/bin/sparc64-linux-gnu-as)" ] ||
		die "$TARGET-gcc does not run Debian's as itself: $("$OUT/bin/$TARGET-gcc" -print-prog-name=as)"
	# gcc's own CPU macros survive its specs file (install_specs)
	for f in "" -msoft-float; do
		# (grep -c: grep -q would end gcc's output early, and pipefail fail it)
		[ "$("$OUT/bin/$TARGET-gcc" $f -E -dM - </dev/null | grep -cx '#define __sparc_v8__ 1')" = 1 ] ||
			die "$TARGET-gcc $f does not define __sparc_v8__: its specs lost gcc's own"
	done
	printf '#include <pthread.h>\n#include <stdio.h>\nstatic void *f(void *a) { return a; }\nint main(void) { pthread_t t; void *r; pthread_create(&t, 0, f, 0); pthread_join(t, &r); printf("%%lld\\n", (long long)r); return 0; }\n' >t.c
	"$OUT/bin/$TARGET-gcc" -static -pthread -O2 t.c -o t
	file t
	[ "$("$OUT/bin/$TARGET-gcc" -msoft-float -print-multi-directory)" = soft ] ||
		die "gcc -msoft-float does not select the soft multilib"
	printf '#include <math.h>\n#include <stdio.h>\nint main(int c, char **v) { printf("%%f\\n", sqrt(c * 2.0) + sin(c)); return 0; }\n' >fp.c
	"$OUT/bin/$TARGET-gcc" -static -msoft-float -O2 fp.c -o fp -lm
	# crtfastmath.o, which gcc links only with -ffast-math, sets %fsr's
	# NS bit: a soft-float program must not use -ffast-math.
	"$TOP/tools/check-sparc-v8" --no-fpu fp "$sysroot/lib/soft" "$sysroot/usr/lib/soft" \
		$(find "$(dirname "$("$OUT/bin/$TARGET-gcc" -msoft-float -print-libgcc-file-name)")" \
			-maxdepth 1 -name '*.[ao]' ! -name crtfastmath.o)
	rm -rf "$OUT/share/info" "$OUT/share/man"
}

stage_links() {
	link "$OUT" "$BUILD/toolchain"
}
