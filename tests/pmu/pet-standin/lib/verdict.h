/* SPDX-License-Identifier: GPL-2.0 */
void verdict(const char *what, const char *word);
