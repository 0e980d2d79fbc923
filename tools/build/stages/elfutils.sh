# SPDX-License-Identifier: GPL-2.0
# libelf and libdw (elfutils), with zlib, liblzma, libbz2 and libzstd,
# static for LEON3: what perf needs to read symbols and DWARF in the
# guest.  Debian's sources with Debian's patches; only the libraries and
# their headers are built, not elfutils' programs or tests.

STAGE_DEPS="toolchain"
STAGE_SOURCES="zlib xz bzip2 zstd elfutils"

stage_host_id() {
	dpkg-query -W make gawk pkg-config
}

stage_build() {
	local tc
	tc=$(dep_path toolchain)
	export PATH="$tc/bin:$PATH"

	# The compression libraries libdw reads compressed sections with;
	# perf's static build links all of them.
	step "zlib, liblzma, libbz2 and libzstd, static (1/3)"
	unpack_debian zlib zlib
	(cd zlib && CHOST=$TARGET CFLAGS="-O2" ./configure --static --prefix="$OUT")
	make -C zlib -j"$JOBS" libz.a
	make -C zlib install
	unpack_debian xz xz
	(cd xz && ./configure --host=$TARGET --prefix="$OUT" --disable-shared \
		--disable-xz --disable-xzdec --disable-lzmadec --disable-lzmainfo \
		--disable-lzma-links --disable-scripts --disable-doc --disable-nls)
	make -C xz/src/liblzma -j"$JOBS" install
	unpack_debian bzip2 bzip2
	make -C bzip2 -j"$JOBS" libbz2.a CC=$TARGET-gcc AR=$TARGET-ar RANLIB=$TARGET-ranlib \
		CFLAGS="-O2 -D_FILE_OFFSET_BITS=64"
	install -m 644 bzip2/libbz2.a "$OUT/lib/"
	install -m 644 bzip2/bzlib.h "$OUT/include/"
	unpack_debian zstd zstd
	make -C zstd/lib -j"$JOBS" libzstd.a CC=$TARGET-gcc AR=$TARGET-ar
	make -C zstd/lib install-static install-includes install-pc PREFIX="$OUT"

	step "configuring elfutils $(lock_version elfutils) (2/3)"
	unpack_debian elfutils elfutils
	mkdir -p elfutils-build
	# No debuginfod (it needs curl), no NLS, no C++ demangler (the
	# toolchain has no libstdc++).
	(cd elfutils-build && ../elfutils/configure --host=$TARGET --prefix="$OUT" \
		--disable-debuginfod --disable-libdebuginfod --disable-nls \
		--with-bzlib --with-lzma --with-zstd --disable-demangler \
		PKG_CONFIG_PATH="$OUT/lib/pkgconfig" PKG_CONFIG_LIBDIR="$OUT/lib/pkgconfig" \
		CFLAGS="-O2 -I$OUT/include" LDFLAGS="-L$OUT/lib")

	step "compiling libelf and libdw (3/3)"
	# The static libraries only: libelf.so and libdw.so would take in
	# the non-PIC libz.a.  libdw.a takes in libdwfl, libdwelf, libebl,
	# the backends and libcpu.
	for d in lib libcpu backends libebl libdwelf libdwfl; do
		make -C elfutils-build/$d -j"$JOBS"
	done
	make -C elfutils-build/libelf -j"$JOBS" libelf.a
	make -C elfutils-build/libdw -j"$JOBS" libdw.a
	for d in libelf libdw; do
		make -C elfutils-build/$d install-libLIBRARIES install-includeHEADERS \
			install-pkgincludeHEADERS
	done
	for d in libdwfl libdwelf; do
		make -C elfutils-build/$d install-pkgincludeHEADERS
	done
	# libdw.pc: perf reads libdw's version from it
	make -C elfutils-build/config install-pkgconfigDATA
	install -m 644 elfutils-build/version.h "$OUT/include/elfutils/"
	# libelf.a needs elfutils' own helpers (libeu: eu_search_tree_init
	# and others), which 0.192 puts only in libelf.so: add them.
	$TARGET-ar rs "$OUT/lib/libelf.a" elfutils-build/lib/*.o
	ls -l "$OUT"/lib/*.a
}

stage_links() {
	link "$OUT" "$BUILD/elfutils"
}
