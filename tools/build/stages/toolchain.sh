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
# run on a LEON3, hence a toolchain of our own.  Three passes, as usual
# for a cross glibc toolchain:
#   1. a bootstrap gcc (no libc) in a scratch prefix,
#   2. glibc built with it, installed into the final sysroot,
#   3. the final gcc against that sysroot.
# The final tree is relocatable (the sysroot lives under the prefix).

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
# multilibs are built from gcc-12's source as before; the gcc builds
# below make everything but cc1 (make -o cc1), which is a wrapper in
# their build trees and in the installed gcc, and Debian's own in the
# bootstrap gcc.  An -fPIC, -fPIE or --sysroot of the user's comes after
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
# Debian's cc1, given CC1_OPTS and them by the specs (the bootstrap gcc:
# it has no sysroot of its own and never moves).  The specs file is the
# driver's own specs (-dumpspecs) with those added: a specs file of a few
# lines would replace the built-in specs, not add to them (gcc then
# forgets -D__sparc_v8__ and -Aleon).  bin/$TARGET-as stays the wrapper
# for those who run it directly.
install_specs() {
	local prefix=$1 gcc="$1/bin/$TARGET-gcc" libexec libdir cc1=
	shift
	[ $# -eq 0 ] || cc1="$CC1_OPTS $*"
	libexec=$(find "$prefix/libexec/gcc/$TARGET" -name collect2 -printf '%h\n')
	libdir=$(dirname "$("$gcc" -print-libgcc-file-name)")
	[ -n "$libexec" ] && [ -d "$libexec" ] || die "no collect2 installed under $prefix/libexec/gcc/$TARGET"
	[ -d "$libdir" ] || die "no libgcc installed under $prefix/lib/gcc/$TARGET"
	"$gcc" -dumpspecs | awk -v cc1="$cc1" '
		prev == "*cc1:" { if (cc1 != "") $0 = cc1 " " $0; n++ }
		prev == "*asm:" { $0 = "--32 " $0; n++ }
		{ print; prev = $0 }
		END { exit n != 2 }' >"$libdir/specs" || die "$gcc -dumpspecs has no *cc1: or no *asm:"
	[ -z "$cc1" ] || ln -sf "$DEBIAN_CC1" "$libexec/cc1"
	ln -sf /usr/bin/sparc64-linux-gnu-as "$prefix/$TARGET/bin/as"
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

# build_glibc NAME CFLAG LIBDIR SLIBDIR DESTDIR: configure, build and
# install glibc for one multilib with the bootstrap gcc.
build_glibc() {
	local name=$1 flag=$2 libdir=$3 slibdir=$4 dest=$5
	mkdir "glibc-$name" && cd "glibc-$name"
	# CXX: there is no target C++ compiler.  An empty CXX is not enough:
	# configure then finds the host g++, which links (host) programs, and
	# the build dies linking support/links-dso-program for x86-64.  A
	# name that does not exist makes configure drop C++.
	# --disable-default-pie: static PIE start-up crashes with this
	# toolchain (IRELATIVE fix-ups).
	PATH="$boot/bin:$PATH" ../glibc-src/configure --prefix=/usr \
		--host=$TARGET --build="$(../glibc-src/scripts/config.guess)" \
		--with-headers="$sysroot/usr/include" --disable-default-pie \
		--disable-werror --disable-nscd --disable-profile \
		--disable-timezone-tools --without-selinux --enable-kernel=4.19 \
		--libdir="$libdir" libc_cv_slibdir="$slibdir" \
		CC="$TARGET-gcc${flag:+ $flag}" CXX="$TARGET-g++" CFLAGS="-O2 -g0"
	# glibc's own list of what it builds, less iconvdata (the gconv
	# modules, which iconv_open loads for a character set beyond the
	# built-in UTF-8, ASCII, ISO-8859-1 and UCS ones: no guest program
	# here does; a tenth of the build) and support (libsupport, for
	# glibc's own tests)
	PATH="$boot/bin:$PATH" make "$PWD/sysd-sorted"
	local subdirs
	subdirs=$(sed -n 's/^sorted-subdirs := //p' sysd-sorted | tr ' ' '\n' |
		grep -vx 'iconvdata\|support' | xargs)
	[[ " $subdirs " == *" elf "* ]] || die "glibc's sysd-sorted names no subdirectories"
	PATH="$boot/bin:$PATH" make -j"$JOBS" subdirs="$subdirs"
	PATH="$boot/bin:$PATH" make install subdirs="$subdirs" DESTDIR="$dest" MAKEINFO=:
	cd ..
}

stage_build() {
	local sysroot="$OUT/$TARGET/sysroot" boot="$WORK/bootstrap"
	local headers
	headers=$(dep_path linux-headers)

	step "unpacking gcc-12 and applying Debian's patches (1/7)"
	unpack_debian gcc gcc-deb
	# Unpacks src/ and applies Debian's series, which includes
	# gcc-gfdl-build.diff: the DFSG tarball lacks the GFDL texinfo
	# sources that the s-tm-texi rule would otherwise check.
	make -C gcc-deb -f debian/rules patch
	grep -q 'cat $(srcdir)/doc/tm.texi.in > tmp-tm.texi' gcc-deb/src/gcc/Makefile.in

	step "unpacking glibc, applying Debian's patches and glibc-patches/ (2/7)"
	unpack_debian glibc glibc-src
	"$TOP/tools/build/apply-series" glibc-src "$TOP/glibc-patches/series"

	install_binutils_wrappers "$boot"
	install_binutils_wrappers "$OUT"
	mkdir -p "$sysroot/usr"
	cp -a "$headers/include" "$sysroot/usr/"

	# ccache for the host compilers: the two gcc passes share most host
	# objects, and a later rebuild of this stage shares all of them.
	export CCACHE_DIR="$CACHE/ccache" CCACHE_BASEDIR="$WORK"
	export CC="ccache gcc" CXX="ccache g++"

	[ -x "$DEBIAN_CC1" ] || die "$DEBIAN_CC1 is missing (Debian's gcc-12-sparc64-linux-gnu: make deps)"

	step "bootstrap gcc, C only, no libc (3/7)"
	mkdir gcc1 && cd gcc1
	PATH="$boot/bin:$PATH" ../gcc-deb/src/configure --prefix="$boot" \
		"${gcc_common_config[@]}" --without-headers --with-newlib \
		--disable-shared --disable-threads \
		CFLAGS=-O2 CXXFLAGS=-O2
	install_cc1 gcc "$sysroot"
	PATH="$boot/bin:$PATH" make -j"$JOBS" MAKE="make -o cc1" all-gcc all-target-libgcc
	PATH="$boot/bin:$PATH" make MAKE="make -o cc1" install-gcc install-target-libgcc
	cd ..
	install_specs "$boot" -isysroot "$sysroot"
	# With --disable-shared the EH code is in libgcc.a; glibc links
	# its static helpers against libgcc_eh explicitly.
	for f in "" -msoft-float; do
		ln -sf libgcc.a "$($boot/bin/$TARGET-gcc $f -print-libgcc-file-name | xargs dirname)/libgcc_eh.a"
	done

	step "glibc $(lock_version glibc), hard float (4/7)"
	build_glibc hard "" /usr/lib /lib "$sysroot"

	step "glibc $(lock_version glibc), soft float, nofpu, into lib/soft (5/7)"
	build_glibc soft -msoft-float /usr/lib/soft /lib/soft "$WORK/glibc-soft-root"
	# The headers are shared: the soft-float ABI variant adds only its
	# own gnu/stubs-32_soft.h and gnu/lib-names-32_soft.h, which
	# gnu/stubs.h and gnu/lib-names.h pick under -msoft-float; any other
	# difference would compile soft-float programs against wrong ones.
	cp -an "$WORK/glibc-soft-root/usr/include/." "$sysroot/usr/include/"
	local differ
	differ=$(diff -r "$sysroot/usr/include" "$WORK/glibc-soft-root/usr/include" |
		grep -v "^Only in $sysroot/usr/include" || true)
	[ -z "$differ" ] || die "the soft-float glibc installs other headers: $differ"
	cp -a "$WORK/glibc-soft-root/lib/soft" "$sysroot/lib/"
	cp -a "$WORK/glibc-soft-root/usr/lib/soft" "$sysroot/usr/lib/"

	step "final gcc against the sysroot (6/7)"
	mkdir gcc2 && cd gcc2
	PATH="$OUT/bin:$PATH" ../gcc-deb/src/configure --prefix="$OUT" \
		"${gcc_common_config[@]}" --with-sysroot="$OUT/$TARGET/sysroot" \
		--enable-shared --enable-threads=posix --enable-__cxa_atexit \
		CFLAGS=-O2 CXXFLAGS=-O2
	# The host libraries' configure results (libiberty, libcpp, zlib,
	# fixincludes, ...: same host compiler, same flags) are the bootstrap
	# pass's; only gcc/ and the target's libgcc depend on this pass's
	# options and sysroot.  Most of a gcc pass here is its configure
	# scripts: a minute less.
	(cd ../gcc1 && find . -name config.cache ! -path ./gcc/config.cache ! -path "./$TARGET/*") |
		while read -r f; do
			mkdir -p "$(dirname "$f")"
			cp "../gcc1/$f" "$f"
		done
	install_cc1 gcc "$sysroot"
	PATH="$OUT/bin:$PATH" make -j"$JOBS" MAKE="make -o cc1"
	PATH="$OUT/bin:$PATH" make MAKE="make -o cc1" install-strip
	cd ..
	install_specs "$OUT"
	install_cc1_relocatable "$OUT"

	step "checking static programs link, soft float without the FPU (7/7)"
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
