// SPDX-License-Identifier: GPL-2.0
/*
 * LEON3 PROM: boots Linux on QEMU's leon3_generic.
 *
 * Linux on sparc32 expects an OpenBoot-style PROM: it is entered at
 * KERNBASE with the MMU on and a "romvec" in %o0, and asks the PROM for
 * the memory banks, the boot arguments, the console and a device tree.
 * This PROM gives it a V0 romvec (the V2/V3 vectors are never needed on
 * LEON), a tree built from the AMBA plug-and-play tables, the UART as
 * console, and the boot information the launcher left in RAM.
 */
#include "prom.h"

#define LINUX_OPPROM_MAGIC	0x10010407
#define PROM_REVISION		1

struct linux_mlist_v0 {
	struct linux_mlist_v0 *theres_more;
	u32 start_adr;
	u32 num_bytes;
};

struct linux_arguments_v0 {
	char *argv[8];
	char args[100];
	char boot_dev[2];
	int boot_dev_ctrl;
	int boot_dev_unit;
	int dev_partition;
	char *kernel_file_name;
	void *aieee1;
};

/* Linux's struct linux_romvec, V0 part (asm/openprom.h). */
struct romvec {
	u32 pv_magic_cookie;
	u32 pv_romvers;
	u32 pv_plugin_revision;
	u32 pv_printrev;
	struct linux_mlist_v0 **v0_totphys;
	struct linux_mlist_v0 **v0_prommap;
	struct linux_mlist_v0 **v0_available;
	const struct linux_nodeops_v0 *pv_nodeops;
	char **pv_bootstr;
	void *pv_v0devops[9];
	char *pv_stdin;
	char *pv_stdout;
	int (*pv_getchar)(void);
	void (*pv_putchar)(int ch);
	int (*pv_nbgetchar)(void);
	int (*pv_nbputchar)(int ch);
	void (*pv_putstr)(char *str, int len);
	void (*pv_reboot)(char *bootstr);
	void (*pv_printf)(const char *fmt, ...);
	void (*pv_abort)(void);
	volatile int *pv_ticks;
	void (*pv_halt)(void);
	void (**pv_synchook)(void);
	void (*pv_fortheval)(int len, char *str);
	struct linux_arguments_v0 **pv_v0bootargs;
	u32 (*pv_enaddr)(int d, char *enaddr);
	u32 v2_v3[40];			/* V2/V3 vectors: unused with V0 */
};

/* Offsets the kernel's head_32.S hard-codes. */
_Static_assert(__builtin_offsetof(struct romvec, pv_nodeops) == 0x1c, "romvec layout");
_Static_assert(__builtin_offsetof(struct romvec, pv_printf) == 0x68, "romvec layout");

static struct romvec romvec;
static struct linux_mlist_v0 mem_bank, *mem_list;
static struct linux_arguments_v0 bootargs, *bootargs_p;
static char prom_stdio;			/* PROMDEV_TTYA */
static int ticks;
static void (*synchook)(void);
static char cmdline[sizeof(((struct bootinfo *)0)->cmdline)];
static u32 cache_control;		/* for every CPU, set by CPU 0 */

static struct bootinfo *const bootinfo = (void *)(PROM_RAM_VA + PROM_BOOTINFO_OFF);

static int prom_getchar(void)
{
	int c;

	while ((c = console_nbgetchar()) < 0)
		;
	return c;
}

static void prom_putchar(int c)
{
	console_putc(c);
}

static void prom_putstr(char *s, int len)
{
	while (len-- > 0)
		console_putc(*s++);
}

/* Linux formats its PROM messages itself; print the format as it is. */
static void prom_printf(const char *fmt, ...)
{
	console_puts(fmt);
}

static void prom_reboot(char *bootstr)
{
	console_puts("PROM: leon3_generic has no reset; powering off\n");
	prom_halt();
}

static void prom_fortheval(int len, char *str)
{
	if (len == 5 && !memcmp(str, "reset", 5))
		prom_reboot(str);
}

static u32 prom_enaddr(int d, char *enaddr)
{
	return 0;
}

static void fatal(const char *what)
{
	console_puts("PROM: ");
	console_puts(what);
	console_puts("\nPROM: cannot boot Linux; powering off\n");
	prom_halt();
}

static const struct amba_dev *need_device(u32 device, const char *name)
{
	const struct amba_dev *d = amba_find(VENDOR_GAISLER, device);

	if (!d) {
		console_puts("PROM: the AMBA plug-and-play tables list no ");
		console_puts(name);
		console_puts(", which Linux needs\n");
		fatal("missing device");
	}
	return d;
}

/* The kernel's "HdrS" boot header (head_32.S), where the initrd goes. */
static u32 *find_kernel_header(void)
{
	u32 *p = (u32 *)KERNEL_VA;
	u32 *end = (u32 *)(KERNEL_VA + 0x10000);

	for (; p < end; p++)
		if (*p == 0x48647253)	/* "HdrS" */
			return p;
	return 0;
}

static void setup_romvec(void)
{
	romvec.pv_magic_cookie = LINUX_OPPROM_MAGIC;
	romvec.pv_romvers = 0;
	romvec.pv_plugin_revision = PROM_REVISION;
	romvec.pv_printrev = PROM_REVISION;
	mem_list = &mem_bank;
	romvec.v0_totphys = &mem_list;
	romvec.v0_available = &mem_list;
	romvec.v0_prommap = 0;
	romvec.pv_nodeops = &prom_nodeops;
	prom_stdio = 1;			/* PROMDEV_TTYA: the first "serial" node */
	romvec.pv_stdin = &prom_stdio;
	romvec.pv_stdout = &prom_stdio;
	romvec.pv_getchar = prom_getchar;
	romvec.pv_putchar = prom_putchar;
	romvec.pv_nbgetchar = console_nbgetchar;
	romvec.pv_nbputchar = console_nbputchar;
	romvec.pv_putstr = prom_putstr;
	romvec.pv_reboot = prom_reboot;
	romvec.pv_printf = prom_printf;
	romvec.pv_abort = prom_halt;
	romvec.pv_ticks = &ticks;
	romvec.pv_halt = prom_halt;
	romvec.pv_synchook = &synchook;
	romvec.pv_fortheval = prom_fortheval;
	bootargs_p = &bootargs;
	romvec.pv_v0bootargs = &bootargs_p;
	romvec.pv_enaddr = prom_enaddr;
}

/*
 * An SMP Linux on LEON3, even on one CPU, accepts only a snooping
 * D-cache of at most 4 KiB per way: leon_configure_cache_smp() turns
 * both caches off on any other, with a note in the kernel log that few
 * read.  Asked for caches on, the machine would not be the one asked
 * for: refuse it here, where it can be said plainly.  With both caches
 * off there is nothing to turn off, and any geometry boots (the
 * project's kernel; before its patch "sparc32: LEON:
 * sparc_leon3_disable_cache() turns the caches off", Linux turned
 * caches that were off on).
 */
static void check_smp_caches(u32 ccr)
{
	u32 dcfg = sysctrl_ld(LEON_DCFG);

	if (!(ccr & (CCR_ICS_ON | CCR_DCS_ON)))
		return;
	if (!(dcfg & CFG_SNOOP))
		fatal("the D-cache cannot snoop: SMP Linux would turn the caches\n"
		      "PROM: off (leon_configure_cache_smp); give the D-cache snooping,\n"
		      "PROM: or boot with the caches off");
	if (CFG_WAY_KIB(dcfg) > 4)
		fatal("D-cache ways larger than 4 KiB: SMP Linux would turn the\n"
		      "PROM: caches off (leon_configure_cache_smp); use dcache-way-kib\n"
		      "PROM: of at most 4 (more ways for a larger cache), or boot with\n"
		      "PROM: the caches off");
}

/*
 * Enable the caches as a LEON3 boot loader does (flushed first), on the
 * CPU this runs on, and check that the model kept what was asked for.
 */
static void caches_on(u32 ccr)
{
	u32 got;

	sysctrl_st(LEON_CCR, ccr | CCR_FI | CCR_FD);
	got = sysctrl_ld(LEON_CCR) & CCR_SETTABLE;
	if (got != ccr) {
		console_puts("PROM: cache control ");
		console_puthex(ccr);
		console_puts(" written, ");
		console_puthex(got);
		console_puts(" read back\n");
		fatal("this QEMU does not implement that cache configuration");
	}
}

static void say_caches(u32 ccr)
{
	static const char *const state[4] = { "off", "frozen", "off", "on" };

	console_puts("PROM: caches: I ");
	console_puts(state[ccr & 3]);
	console_puts(", D ");
	console_puts(state[(ccr >> 2) & 3]);
	console_puts(ccr & CCR_DS ? ", snooping" : "");
	console_puts(ccr & CCR_IB ? ", burst fetch" : "");
	console_puts(" (cache control ");
	console_puthex(ccr);
	console_puts(")\n");
}

static u32 stack_top(int cpu)
{
	extern u8 prom_stacks[];

	return (u32)&prom_stacks[(cpu + 1) * PROM_STACK_SIZE] - 96;
}

void prom_boot(void)
{
	extern u8 __bss_start[], __bss_end[];
	const struct amba_dev *uart, *timer, *irqmp;
	u32 ram_size = DEFAULT_RAM_SIZE, clock_hz = DEFAULT_CLOCK_HZ;
	u32 initrd_pa = 0, initrd_size = 0, *hdr;
	int have_info, ncpus;

	memset(__bss_start, 0, __bss_end - __bss_start);
	have_info = bootinfo->magic == BOOTINFO_MAGIC &&
		    bootinfo->version == BOOTINFO_VERSION;
	cache_control = have_info ? bootinfo->cache_control : CCR_BOOT;

	amba_scan(have_info ? bootinfo->pnp_ignore : 0);
	uart = amba_find(VENDOR_GAISLER, GAISLER_APBUART);
	if (!uart)
		prom_halt();		/* no console to say why */
	console_init(uart->start);
	console_puts("\nLEON3 PMU project PROM\n");

	if (have_info) {
		ram_size = bootinfo->ram_size;
		initrd_pa = bootinfo->initrd_pa;
		initrd_size = bootinfo->initrd_size;
		if (bootinfo->clock_hz)
			clock_hz = bootinfo->clock_hz;
		memcpy(cmdline, bootinfo->cmdline, sizeof(cmdline) - 1);
	} else {
		console_puts("PROM: no boot information at ");
		console_puthex(PROM_BOOTINFO_PA);
		console_puts(": assuming 64 MiB of RAM, no initramfs\n");
		memcpy(cmdline, DEFAULT_CMDLINE, sizeof(DEFAULT_CMDLINE));
	}
	if (cache_control & ~CCR_SETTABLE)
		fatal("the cache control value in the boot information sets bits\n"
		      "PROM: other than ICS, DCS, IF, DF, IB and DS");

	irqmp = need_device(GAISLER_IRQMP, "GAISLER_IRQMP (interrupt controller)");
	/* The CPU count: MP status bits 31:28 hold the number of CPUs - 1. */
	ncpus = (bypass_ld(irqmp->start + 0x10) >> 28) + 1;
	if (ncpus > PROM_MAX_CPUS)
		ncpus = PROM_MAX_CPUS;
	check_smp_caches(cache_control);
	caches_on(cache_control);
	say_caches(cache_control);
	timer = need_device(GAISLER_GPTIMER, "GAISLER_GPTIMER (timer)");
	/* Linux expects the timer prescaler to give 1 MHz ticks already. */
	bypass_st(timer->start + 0x4, clock_hz / 1000000 - 1);
	bypass_st(timer->start + 0x0, clock_hz / 1000000 - 1);

	if (ram_size < (16 << 20) || ram_size > (1u << 30))
		fatal("RAM size in the boot information is not 16 MiB..1 GiB");
	mem_bank.start_adr = PROM_RAM_PA;
	mem_bank.num_bytes = ram_size;

	hdr = find_kernel_header();
	if (!hdr)
		fatal("no Linux image at physical 0x40004000 (no HdrS header)");
	if (initrd_size) {
		if (initrd_pa < KERNEL_PA ||
		    initrd_pa + initrd_size > PROM_RAM_PA + ram_size)
			fatal("the initramfs is not inside RAM");
		hdr[4] = initrd_pa - PROM_RAM_PA;	/* sparc_ramdisk_image */
		hdr[5] = initrd_size;			/* sparc_ramdisk_size */
	}

	tree_build(clock_hz, ncpus);
	setup_romvec();
	bootargs.argv[0] = "prom()";
	bootargs.argv[1] = cmdline[0] ? cmdline : 0;

	console_puts("PROM: ");
	console_putc('0' + ncpus);
	console_puts(" CPU(s), RAM ");
	console_puthex(ram_size);
	console_puts(" bytes, command line \"");
	console_puts(cmdline);
	console_puts("\"\n");
	enter_kernel(KERNEL_VA, &romvec, stack_top(0));
}

/*
 * CPUs 1..3, started by Linux: their caches as CPU 0's, then into the
 * kernel, which knows they are not first.
 */
void prom_secondary(int cpu)
{
	caches_on(cache_control);
	enter_kernel(KERNEL_VA, &romvec, stack_top(cpu));
}
