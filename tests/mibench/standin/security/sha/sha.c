// SPDX-License-Identifier: GPL-2.0
/* Stand-in for a MiBench program that does not build. */
#error "stand-in: this program does not build, on purpose"
