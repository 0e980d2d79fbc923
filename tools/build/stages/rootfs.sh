# SPDX-License-Identifier: GPL-2.0
# The guest's initramfs: busybox and /init (tools/rootfs/).

STAGE_DEPS="busybox"
STAGE_INPUTS="tools/rootfs/init tools/rootfs/inittab tools/rootfs/mkinitramfs"

stage_host_id() {
	dpkg-query -W cpio gzip
}

stage_build() {
	local root="$WORK/root"
	step "assembling the root tree"
	mkdir -p "$root"/{proc,sys,dev,tmp,root,etc,sys/kernel/debug}
	cp -a "$(dep_path busybox)/." "$root/"
	rm -f "$root/.complete" "$root/.id" "$root/.build-time"
	install -m 0755 "$TOP/tools/rootfs/init" "$root/init"
	install -m 0644 "$TOP/tools/rootfs/inittab" "$root/etc/inittab"
	echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
	echo "root:x:0:" >"$root/etc/group"
	step "packing initramfs.cpio.gz"
	"$TOP/tools/rootfs/mkinitramfs" "$OUT/initramfs.cpio.gz" "$root"
	ls -l "$OUT/initramfs.cpio.gz"
}

stage_links() {
	link "$OUT/initramfs.cpio.gz" "$BUILD/rootfs/initramfs.cpio.gz"
}
