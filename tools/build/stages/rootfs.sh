# SPDX-License-Identifier: GPL-2.0
# The guest's initramfs: busybox, perf, leon3-pidlog (tools/pidlog/),
# leon3-methods (tools/methods/), leon3-hunt-run (tools/hunt/),
# leon3-kernel-reports (tools/rootfs/),
# libpfm4's showevtinfo and check_events, PAPI's papi_avail,
# papi_native_avail and papi_command_line, and /init (tools/rootfs/).
# The leon3_pmu module is not in it: tools/leon3-run adds the one in
# build/module at each boot, so a driver change needs no new initramfs.

STAGE_DEPS="toolchain busybox perf libpfm4 papi"
STAGE_INPUTS="tools/rootfs/init tools/rootfs/inittab tools/rootfs/mkinitramfs tools/rootfs/leon3-kernel-reports tools/pidlog/leon3-pidlog.c tools/pidlog/pid-records.h tools/include/perf-ring.h tools/methods/leon3-methods tools/hunt/leon3-hunt-run.c"

stage_host_id() {
	dpkg-query -W cpio
}

stage_build() {
	local root="$WORK/root"
	step "assembling the root tree"
	mkdir -p "$root"/{proc,sys,dev,tmp,root,etc,sys/kernel/debug}
	cp -a "$(dep_path busybox)/." "$root/"
	rm -f "$root/.complete" "$root/.id" "$root/.build-time"
	install -D -m 0755 "$(dep_path perf)/bin/perf" "$root/usr/bin/perf"
	for p in libpfm4/bin/showevtinfo libpfm4/bin/check_events papi/bin/papi_avail \
		papi/bin/papi_native_avail papi/bin/papi_command_line; do
		sparc64-linux-gnu-strip -o "$root/usr/bin/${p##*/}" "$(dep_path "${p%%/*}")/${p#*/}"
	done
	step "compiling leon3-pidlog"
	"$(dep_path toolchain)/bin/$TARGET-gcc" -static -O2 -Wall -Wextra -Werror \
		-o "$root/usr/bin/leon3-pidlog" "$TOP/tools/pidlog/leon3-pidlog.c"
	"$(dep_path toolchain)/bin/$TARGET-gcc" -static -O2 -Wall -Wextra -Werror \
		-o "$root/usr/bin/leon3-hunt-run" "$TOP/tools/hunt/leon3-hunt-run.c"
	install -m 0755 "$TOP/tools/methods/leon3-methods" "$root/usr/bin/leon3-methods"
	install -m 0755 "$TOP/tools/rootfs/leon3-kernel-reports" "$root/usr/bin/leon3-kernel-reports"
	install -m 0755 "$TOP/tools/rootfs/init" "$root/init"
	install -m 0644 "$TOP/tools/rootfs/inittab" "$root/etc/inittab"
	echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
	echo "root:x:0:" >"$root/etc/group"
	step "packing initramfs.cpio"
	"$TOP/tools/rootfs/mkinitramfs" "$OUT/initramfs.cpio" "$root"
	ls -l "$OUT/initramfs.cpio"
}

stage_links() {
	link "$OUT/initramfs.cpio" "$BUILD/rootfs/initramfs.cpio"
}
