# SPDX-License-Identifier: GPL-2.0
# The tag plugin (tools/tags/, Documentation/tags.md): a GCC plugin that
# puts control-flow tags into programs.  The toolchain's compiler proper
# is Debian's sparc64 cc1, so the plugin is built with the host's g++
# against Debian's plugin headers for that cc1, and needs no stage.

STAGE_INPUTS="tools/tags/leon3_tags.cc tools/tags/leon3_tags.h"

stage_host_id() {
	dpkg-query -W g++ gcc-12-sparc64-linux-gnu gcc-12-plugin-dev-sparc64-linux-gnu
}

stage_build() {
	local plugindir
	plugindir=$(sparc64-linux-gnu-gcc-12 -print-file-name=plugin)
	[ -f "$plugindir/include/gcc-plugin.h" ] ||
		die "no GCC plugin headers in $plugindir (Debian's gcc-12-plugin-dev-sparc64-linux-gnu)"
	step "compiling leon3_tags.so"
	g++ -shared -fPIC -fno-rtti -O2 -Wall -Werror -I"$plugindir/include" \
		-I"$TOP/tools/tags" "$TOP/tools/tags/leon3_tags.cc" -o "$OUT/leon3_tags.so"
	step "loading it into the compiler"
	printf 'int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }\n' >t.c
	sparc64-linux-gnu-gcc-12 -m32 -O2 -fplugin="$OUT/leon3_tags.so" -c t.c -o t.o
	sparc64-linux-gnu-objdump -h t.o | grep -q ' \.leon3_tags ' ||
		die "the plugin loaded but left no .leon3_tags section"
	ls -l "$OUT/leon3_tags.so"
}

stage_links() {
	link "$OUT/leon3_tags.so" "$BUILD/tags/leon3_tags.so"
}
