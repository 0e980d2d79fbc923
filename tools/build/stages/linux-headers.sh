# SPDX-License-Identifier: GPL-2.0
# Linux UAPI headers for the guest toolchain, from the project's kernel
# (pinned source + kernel/patches).  The stage id is a hash of the
# installed headers, so a kernel patch that leaves the UAPI alone does not
# rebuild the toolchain.

STAGE_SOURCES="linux"
STAGE_INPUTS="kernel/patches/series kernel/patches/*.patch tools/build/apply-series"

stage_build() {
	step "unpacking Linux"
	unpack_orig linux src
	"$TOP/tools/build/apply-series" src "$TOP/kernel/patches/series"
	step "installing UAPI headers"
	make -C src ARCH=sparc headers_install INSTALL_HDR_PATH="$OUT"
}

stage_id() {
	(cd "$OUT" && find include -type f | LC_ALL=C sort | xargs sha256sum) |
		sha256sum | cut -c1-16
}
