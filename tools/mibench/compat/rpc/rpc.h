/* SPDX-License-Identifier: GPL-2.0 */
/*
 * glibc 2.36, the guest's C library, no longer ships Sun RPC.  MiBench's
 * patricia includes <rpc/rpc.h> for nothing it uses (its network types
 * come from <netinet/in.h> and <arpa/inet.h>), so an empty header lets
 * it build.  The MiBench build searches this directory last.
 */
