/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LEON3 control-flow tags: the instruction the tag plugin (leon3_tags.cc)
 * emits and the record it leaves in the ELF file for each one.  The
 * decoders read this file for the same values (tools/leon3lib/tags.py);
 * Documentation/tags.md describes both.
 *
 * A tag is "sethi imm22, %g0" with a non-zero imm22: every SPARC V8 runs
 * it as a no-op (it writes %g0), so a program with tags runs on any
 * LEON3.  imm22 holds the tag's kind (bits 21:19, never 0, so no tag is
 * the plain nop "sethi 0, %g0") and its id (bits 18:0): a function's
 * entry and exit tags share the function's id, a loop's entry, latch
 * and exit tags the loop's, unique within the compilation unit.
 */
#ifndef LEON3_TAGS_H
#define LEON3_TAGS_H

#define LEON3_TAG_SETHI_G0	0x01000000u	/* sethi 0, %g0 */
#define LEON3_TAG_IMM_MASK	0x003fffffu
#define LEON3_TAG_KIND_SHIFT	19
#define LEON3_TAG_ID_BITS	19
#define LEON3_TAG_ID_MAX	((1u << LEON3_TAG_ID_BITS) - 1)

/* kinds */
#define LEON3_TAG_FUNC_ENTRY	1	/* the function starts */
#define LEON3_TAG_FUNC_EXIT	2	/* it returns */
#define LEON3_TAG_LOOP_ENTRY	3	/* the loop is entered, from its preheader */
#define LEON3_TAG_LOOP_LATCH	4	/* it goes round again (its latch) */
#define LEON3_TAG_LOOP_EXIT	5	/* it is left, by one of its exits */

/*
 * Section .leon3_tags, not loaded: one record per tag instruction, in the
 * target's byte order, 24 bytes:
 *   u32 addr    the tag's address (link time: add the load bias of a
 *               shared object or PIE)
 *   u32 insn    the tag instruction
 *   u32 line    its source line (a loop's: its header's first)
 *   u16 depth   loop depth: 0 for a function's tags, 1 for an outermost loop
 *   u16 zero
 *   u32 func    the function's name: offset into .leon3_tagstr
 *   u32 file    the source file's name: offset into .leon3_tagstr
 * A compiler copy of a tag (a block duplicated after the plugin ran)
 * has a record of its own.
 */
#define LEON3_TAG_RECORD_SIZE	24
#define LEON3_TAG_SECTION	".leon3_tags"
#define LEON3_TAG_STR_SECTION	".leon3_tagstr"

#endif
