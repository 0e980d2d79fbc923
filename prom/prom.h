/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LEON3 PROM: what start.S and the C files share.
 */
#ifndef LEON3_PROM_H
#define LEON3_PROM_H

/* Virtual layout (prom.lds) and the physical memory behind it. */
#define PROM_ROM_VA		0xFFD00000	/* boot ROM, physical 0 */
#define PROM_RAM_VA		0xFFE00000	/* physical PROM_RAM_PA */
#define PROM_RAM_PA		0x40000000	/* RAM start: 16 KiB below the kernel */
#define PROM_BOOTINFO_OFF	0x3C00		/* launcher's boot information */
#define PROM_BOOTINFO_PA	(PROM_RAM_PA + PROM_BOOTINFO_OFF)

/* Page tables, at the start of the PROM's RAM (section .mmu). */
#define MMU_CTX_OFF		0x000		/* 256 contexts, 1 KiB */
#define MMU_L1_OFF		0x400		/* 256 entries, 1 KiB */
#define MMU_L2_OFF		0x800		/* 0xFF000000-0xFFFFFFFF, 64 entries */
#define MMU_L3_OFF		0x900		/* 0xFFE00000-0xFFE3FFFF, 64 entries */
#define MMU_SIZE		0xA00
#define MMU_NCTX		256

/* The kernel: raw image at the start of RAM + 0x4000, entered at KERNBASE. */
#define KERNEL_PA		(PROM_RAM_PA + 0x4000)
#define KERNEL_VA		0xF0004000
#define KERNBASE		0xF0000000

#define PROM_MAX_CPUS		4
#define PROM_STACK_SIZE		1024

/* SPARC/LEON constants. */
#define ASI_LEON_MMUREGS	0x19
#define ASI_LEON_BYPASS		0x1c
#define ASI_LEON_SYSCTRL	0x02		/* cache control, PMU */
#define MMU_CTRL		0x000
#define MMU_CTXTBL		0x100
#define MMU_CTX			0x200
#define PSR_PIL			0x00000f00
#define PSR_S			0x00000080
#define PSR_PS			0x00000040
#define PSR_ET			0x00000020
/* SRMMU entries: PTD = table PA >> 4 | 1; PTE = page PA >> 4 | flags. */
#define SRMMU_ET_PTD		0x1
#define SRMMU_PTE_FLAGS		0xfe	/* cacheable, modified, referenced, supervisor RWX, PTE */

#ifndef __ASSEMBLER__

typedef unsigned int u32;
typedef unsigned char u8;

/*
 * Boot information, written by the launcher (tools/leon3-run) at
 * PROM_BOOTINFO_PA before the machine starts.  Without it (wrong magic)
 * the PROM uses its defaults and says so.
 */
#define BOOTINFO_MAGIC		0x4c334249	/* "L3BI" */
#define BOOTINFO_VERSION	2
struct bootinfo {
	u32 magic;
	u32 version;
	u32 ram_size;		/* bytes of RAM at PROM_RAM_PA */
	u32 initrd_pa;		/* physical address of the initramfs, or 0 */
	u32 initrd_size;
	u32 clock_hz;		/* system clock, 0: default */
	u32 pnp_ignore;		/* test hook: a (vendor << 12 | device) to ignore */
	u32 cache_control;	/* written on every CPU (CCR_*) */
	char cmdline[1024 - 32];
};

#define DEFAULT_RAM_SIZE	(64 << 20)
#define DEFAULT_CLOCK_HZ	40000000	/* leon3_generic's system clock */
#define DEFAULT_CMDLINE		"console=ttyS0"

/*
 * LEON3 cache control register (ASI 0x02, 0x00) and D-cache
 * configuration register (0x0C).  A LEON3 boot loader enables both
 * caches, instruction burst fetch and D-cache snooping: CCR_BOOT.
 */
#define LEON_CCR		0x00
#define LEON_DCFG		0x0c
#define CCR_ICS_ON		0x00000003
#define CCR_DCS_ON		0x0000000c
#define CCR_IF			0x00000010	/* I-cache freeze on interrupt */
#define CCR_DF			0x00000020	/* D-cache freeze on interrupt */
#define CCR_IB			0x00010000	/* instruction burst fetch */
#define CCR_FI			0x00200000	/* flush the I-cache (action) */
#define CCR_FD			0x00400000	/* flush the D-cache (action) */
#define CCR_DS			0x00800000	/* D-cache snooping */
#define CCR_SETTABLE		(CCR_ICS_ON | CCR_DCS_ON | CCR_IF | CCR_DF | \
				 CCR_IB | CCR_DS)
#define CCR_BOOT		(CCR_ICS_ON | CCR_DCS_ON | CCR_IB | CCR_DS)
#define CFG_SNOOP		0x08000000	/* the D-cache can snoop */
#define CFG_WAY_KIB(cfg)	(1u << (((cfg) >> 20) & 0xf))

/* AMBA plug and play (ambapp.c). */
#define VENDOR_GAISLER		0x01
#define GAISLER_APBMST		0x006
#define GAISLER_APBUART		0x00c
#define GAISLER_IRQMP		0x00d
#define GAISLER_GPTIMER		0x011

struct amba_dev {
	u32 vendor, device, version, irq;
	u32 start, size;
};

#define AMBA_MAX_DEVS		16
extern struct amba_dev amba_devs[AMBA_MAX_DEVS];
extern int amba_ndevs;
int amba_scan(u32 ignore);
const struct amba_dev *amba_find(u32 vendor, u32 device);
const char *amba_name(const struct amba_dev *d, char *buf);

/* Device tree (tree.c), read by Linux through the V0 node operations. */
struct linux_nodeops_v0 {
	int (*no_nextnode)(int node);
	int (*no_child)(int node);
	int (*no_proplen)(int node, const char *name);
	int (*no_getprop)(int node, const char *name, char *val);
	int (*no_setprop)(int node, const char *name, char *val, int len);
	char *(*no_nextprop)(int node, char *name);
};
void tree_build(u32 clock_hz, int ncpus);
extern const struct linux_nodeops_v0 prom_nodeops;

/* Console (console.c): the APBUART, through the MMU bypass ASI. */
void console_init(u32 uart_base);
void console_putc(int c);
void console_puts(const char *s);
void console_puthex(u32 v);
int console_nbputchar(int c);
int console_nbgetchar(void);

/* Entry points from start.S (prom.c). */
void prom_boot(void) __attribute__((noreturn));
void prom_secondary(int cpu) __attribute__((noreturn));

/* Low level (start.S, lib.c). */
u32 bypass_ld(u32 pa);
void bypass_st(u32 pa, u32 val);
u32 sysctrl_ld(u32 addr);
void sysctrl_st(u32 addr, u32 val);
void prom_halt(void) __attribute__((noreturn));
void enter_kernel(u32 entry, void *romvec, u32 sp) __attribute__((noreturn));
void *memset(void *s, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n);
int memcmp(const void *a, const void *b, unsigned long n);
int strcmp(const char *a, const char *b);
unsigned long strlen(const char *s);

#endif /* __ASSEMBLER__ */
#endif /* LEON3_PROM_H */
