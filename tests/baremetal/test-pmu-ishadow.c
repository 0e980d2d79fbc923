// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow I-caches (QEMU's icache-shadow): each counts the misses that
 * the I-cache would have with its geometry, in the same run.  The
 * geometries are read from ISHADOW[k] and the I-cache configuration
 * register, and each cache's misses are worked out from its own
 * geometry and the code run:
 *  - FEATURES bit 8; ISHADOW[k] holds a shadow's geometry in the I-cache
 *    configuration register's format, 0 past the last shadow; a shadow
 *    of the I-cache's own geometry (shadow 0 in each run here) reads as
 *    the configuration register's geometry fields;
 *  - a block of straight code run after a flush (FI): one miss per line
 *    of each cache's own line size; again: none;
 *  - after 16 KiB of other code, whose lines take every way of every
 *    set of each cache here: every line again;
 *  - 6 KiB of straight code run twice: the second run misses every line
 *    in a cache whose sets each get more of its lines than they have
 *    ways, and none in one whose sets each have a way to spare;
 *  - shadow 0, of the I-cache's geometry, counts exactly the I-cache's
 *    misses in each of these;
 *  - the I-cache's own misses are those of a run without shadows (its
 *    lookups are the same whatever the shadows' lines: the block's first
 *    instruction and each line it enters).
 *
 * qemu-args: -cpu LEON3,icache-ways=2,icache-way-kib=2,icache-line=16,icache-shadow=4kx2:8kx4/32:4kx2/32/lrr:16kx4/16/lrr
 * qemu-args: -cpu LEON3,icache-ways=4,icache-way-kib=1,icache-line=32,icache-shadow=4kx4/32:4kx2/16:8kx2/16
 * qemu-args: -cpu LEON3,icache-ways=4,icache-way-kib=1,icache-line=32
 */
#include "baremetal.h"
#include "pmu.h"

#define EV_IMISS	0x00
#define EV_ISHADOW(k)	(0x98 + (k))

#define CFG_GEOMETRY	0x37f70000u	/* REPL, ways, way size, line size */
#define CFG_MMU		(1u << 3)

/*
 * u32 iblock_1k(gctrl) and iblock_6k(gctrl): line-aligned; GCTRL = EN,
 * 7 nops, then 1 KiB or 6 KiB of nops (a whole number of lines), then
 * GCTRL = 0.  The lines each cache counts: those of the nops after the
 * enabling store's line (fetched before it), and the stopping store's.
 */
asm(".text\n"
    ".align 64\n"
    ".global iblock_1k\n"
    "iblock_1k:\n"
    "	sta	%o1, [%o0] 2\n"
    "	.rept 7\n"
    "	nop\n"
    "	.endr\n"
    "	.rept 256\n"
    "	nop\n"
    "	.endr\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n"
    ".align 64\n"
    ".global iblock_6k\n"
    "iblock_6k:\n"
    "	sta	%o1, [%o0] 2\n"
    "	.rept 7\n"
    "	nop\n"
    "	.endr\n"
    "	.rept 1536\n"
    "	nop\n"
    "	.endr\n"
    "	sta	%g0, [%o0] 2\n"
    "	retl\n"
    "	 nop\n");

void iblock_1k(u32 gctrl, u32 en);
void iblock_6k(u32 gctrl, u32 en);

/* A cache: the I-cache (k = -1) or shadow k, and its counter */
struct icache {
	int k;
	u32 cfg, line, ways, sets;
	u32 n[2];	/* misses counted by measure() @run 0 and 1 */
};

static struct icache caches[1 + PMU_NSHADOW];
static u32 ncaches;

static void flush_icache(void)
{
	sta_asi2(ASI2_CCTRL, lda_asi2(ASI2_CCTRL) | (1u << 21));	/* FI */
}

/*
 * Run @block counted, each cache's misses on a counter of its own, in
 * caches[].n[@run].  Nothing runs between two measure() calls in a row
 * but a few lines of this code: printing would take the blocks' sets.
 */
static void measure(void (*block)(u32, u32), int run)
{
	u32 i;

	sta_asi2(PMU_GCTRL, 0);
	for (i = 0; i < ncaches; i++)
		sta_asi2(PMU_EVCTRL(i), CTRL_CLR | CTRL_EN | CTRL_SU |
			 (caches[i].k < 0 ? EV_IMISS : EV_ISHADOW(caches[i].k)));
	block(PMU_GCTRL, GCTRL_EN);
	for (i = 0; i < ncaches; i++)
		caches[i].n[run] = lda_asi2(PMU_EVCNT(i));
}

/* "the I-cache" or "shadow k", for messages */
static const char *name(const struct icache *c)
{
	static const char *const names[1 + PMU_NSHADOW] = {
		"the I-cache", "shadow 0", "shadow 1", "shadow 2", "shadow 3",
	};

	return names[c->k + 1];
}

/* The lines a block of @bytes of nops makes cache @c count */
static u32 block_lines(const struct icache *c, u32 bytes)
{
	/* the enabling store's line holds 32 bytes: 1 or 2 lines */
	return (32 - c->line) / c->line + bytes / c->line + 1;
}

static void add_cache(int k, u32 cfg)
{
	struct icache *c = &caches[ncaches++];

	c->k = k;
	c->cfg = cfg;
	c->line = 4u << CFG_LSIZE(cfg);
	c->ways = CFG_SETS(cfg) + 1;
	c->sets = (1024u << CFG_SSIZE(cfg)) / c->line;
}

int main(void)
{
	u32 icfg = lda_asi2(ASI2_ICFG), i, k, per_set, most;

	ok((lda_asi2(PMU_FEATURES) & FEAT_ISHADOW) != 0,
	   "FEATURES bit 8: shadow I-caches and ISHADOW");
	add_cache(-1, icfg);
	for (k = 0; k < PMU_NSHADOW && lda_asi2(PMU_ISHADOW(k)); k++)
		add_cache(k, lda_asi2(PMU_ISHADOW(k)));
	for (i = k; i < PMU_NSHADOW; i++)
		is_u32(lda_asi2(PMU_ISHADOW(i)), 0, "ISHADOW[%u] of no shadow reads 0", i);
	for (i = 0; i < PMU_NSHADOW; i++) {
		sta_asi2(PMU_ISHADOW(i), 0x12345678);	/* read-only */
		is_u32(lda_asi2(PMU_ISHADOW(i)), i < k ? caches[1 + i].cfg : 0,
		       "ISHADOW[%u] is read-only", i);
	}
	for (i = 0; i < ncaches; i++)
		diag("%s: %u sets of %u-byte lines, %u ways, replacement %u",
		     name(&caches[i]), caches[i].sets, caches[i].line,
		     caches[i].ways, CFG_REPL(caches[i].cfg));
	if (k)
		is_u32(caches[1].cfg & ~(CFG_GEOMETRY | CFG_MMU), 0,
		       "ISHADOW[0] has no bits but the geometry's and the MMU's");
	if (k)
		is_u32(caches[1].cfg, icfg,
		       "shadow 0, of the I-cache's geometry, reads as its configuration register");

	sta_asi2(ASI2_CCTRL, 0xf);	/* I- and D-cache on */
	flush_icache();
	measure(iblock_1k, 0);
	measure(iblock_1k, 1);
	for (i = 0; i < ncaches; i++)
		is_u32(caches[i].n[0], block_lines(&caches[i], 1024),
		       "1 KiB after a flush: %s misses each line", name(&caches[i]));
	for (i = 0; i < ncaches; i++)
		is_u32(caches[i].n[1], 0, "... again: %s misses none", name(&caches[i]));
	icsweep();
	measure(iblock_1k, 0);
	for (i = 0; i < ncaches; i++)
		is_u32(caches[i].n[0], block_lines(&caches[i], 1024),
		       "... after 16 KiB of other code: %s misses each line again",
		       name(&caches[i]));

	measure(iblock_6k, 0);
	measure(iblock_6k, 1);
	for (i = 0; i < ncaches; i++) {
		struct icache *c = &caches[i];
		u32 lines = block_lines(c, 6144) + 1;	/* + the enabling store's */

		per_set = lines / c->sets;		/* the fewest of a set */
		most = (lines + c->sets - 1) / c->sets;
		if (per_set > c->ways)
			is_u32(c->n[1], lines - 1, "6 KiB again: %s misses each line (%u or more a set)",
			       name(c), per_set);
		else if (most < c->ways)
			is_u32(c->n[1], 0, "6 KiB again: %s misses none (%u or fewer a set)",
			       name(c), most);
		else
			diag("6 KiB again: %s: %u misses", name(c), c->n[1]);
	}
	if (ncaches > 1) {
		measure(iblock_6k, 0);
		is_u32(caches[1].n[0], caches[0].n[0],
		       "6 KiB a third time: shadow 0 misses as the I-cache does");
	}
	sta_asi2(PMU_GCTRL, 0);
	return 0;
}
