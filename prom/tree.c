// SPDX-License-Identifier: GPL-2.0
/*
 * The device tree the PROM hands to Linux, and the V0 node operations
 * Linux reads it with (arch/sparc/prom/tree_32.c).
 *
 *   /                    compatible "leon3", idprom
 *   /cpuN                one per CPU: device_type "cpu", mid, mmu-nctx,
 *                        clock-frequency
 *   /ambapp0             device_type "ambapp"; one child per APB device
 *                        of the plug-and-play tables: GAISLER_IRQMP,
 *                        GAISLER_GPTIMER, GAISLER_APBUART (device_type
 *                        "serial", freq), others as "VV_DDD"; each with
 *                        reg, interrupts, vendor, device, version
 *
 * Nodes are numbered from 1 (0 means "none" to Linux).
 */
#include "prom.h"

#define MAX_NODES	(2 + PROM_MAX_CPUS + AMBA_MAX_DEVS)
#define MAX_PROPS	8
#define VAL_POOL	1024

struct prop {
	const char *name;
	const void *val;
	int len;
};

struct node {
	int child, sibling;
	int nprops;
	struct prop props[MAX_PROPS];
};

static struct node nodes[MAX_NODES + 1];
static int nnodes;
static u8 pool[VAL_POOL];
static int pool_used;
static char amba_names[AMBA_MAX_DEVS][8];

static void *pool_alloc(int len)
{
	void *p;

	len = (len + 3) & ~3;
	if (pool_used + len > VAL_POOL) {
		console_puts("PROM: device tree property pool exhausted\n");
		prom_halt();
	}
	p = &pool[pool_used];
	pool_used += len;
	return p;
}

static int new_node(int parent)
{
	int n = ++nnodes;

	if (parent) {
		int *link = &nodes[parent].child;

		while (*link)
			link = &nodes[*link].sibling;
		*link = n;
	}
	return n;
}

static void add_prop(int n, const char *name, const void *val, int len)
{
	struct node *nd = &nodes[n];

	if (nd->nprops == MAX_PROPS) {
		console_puts("PROM: too many properties on a node\n");
		prom_halt();
	}
	nd->props[nd->nprops].name = name;
	nd->props[nd->nprops].val = val;
	nd->props[nd->nprops].len = len;
	nd->nprops++;
}

static void add_str(int n, const char *name, const char *s)
{
	add_prop(n, name, s, strlen(s) + 1);
}

static void add_int(int n, const char *name, u32 v)
{
	u32 *p = pool_alloc(4);

	*p = v;
	add_prop(n, name, p, 4);
}

static void add_reg(int n, u32 start, u32 size)
{
	u32 *p = pool_alloc(8);

	p[0] = start;
	p[1] = size;
	add_prop(n, "reg", p, 8);
}

/* The Sun IDPROM Linux checks: format 1, LEON3 SoC, XOR checksum. */
static void add_idprom(int n)
{
	u8 *id = pool_alloc(32);
	u8 sum = 0;
	int i;

	memset(id, 0, 32);
	id[0] = 0x01;			/* id_format */
	id[1] = 0x30 | 0x02;		/* M_LEON | M_LEON3_SOC */
	id[2] = 0x02;			/* locally administered MAC 02:00:4c:33:00:01 */
	id[4] = 0x4c;
	id[5] = 0x33;
	id[7] = 0x01;
	for (i = 0; i < 15; i++)
		sum ^= id[i];
	id[15] = sum;			/* id_cksum */
	add_prop(n, "idprom", id, 32);
}

void tree_build(u32 clock_hz, int ncpus)
{
	static const char *const cpu_names[PROM_MAX_CPUS] = {
		"cpu0", "cpu1", "cpu2", "cpu3"
	};
	int root, amba, n, i;

	root = new_node(0);
	add_str(root, "name", "leon3_generic");
	add_str(root, "compatible", "leon3");
	add_idprom(root);

	for (i = 0; i < ncpus; i++) {
		n = new_node(root);
		add_str(n, "name", cpu_names[i]);
		add_str(n, "device_type", "cpu");
		add_int(n, "mid", i);
		add_int(n, "mmu-nctx", MMU_NCTX);
		add_int(n, "clock-frequency", clock_hz);
	}

	amba = new_node(root);
	add_str(amba, "name", "ambapp0");
	add_str(amba, "device_type", "ambapp");
	for (i = 0; i < amba_ndevs; i++) {
		const struct amba_dev *d = &amba_devs[i];

		n = new_node(amba);
		add_str(n, "name", amba_name(d, amba_names[i]));
		add_reg(n, d->start, d->size);
		if (d->irq)
			add_int(n, "interrupts", d->irq);
		add_int(n, "vendor", d->vendor);
		add_int(n, "device", d->device);
		add_int(n, "version", d->version);
		if (d->vendor == VENDOR_GAISLER && d->device == GAISLER_APBUART) {
			add_str(n, "device_type", "serial");
			add_int(n, "freq", clock_hz);
		}
	}
}

/* --- V0 node operations ------------------------------------------------ */

static int valid(int n)
{
	return n > 0 && n <= nnodes;
}

static const struct prop *find_prop(int n, const char *name)
{
	int i;

	if (!valid(n) || !name)
		return 0;
	for (i = 0; i < nodes[n].nprops; i++)
		if (!strcmp(nodes[n].props[i].name, name))
			return &nodes[n].props[i];
	return 0;
}

static int no_nextnode(int n)
{
	if (n == 0)
		return 1;		/* the root */
	return valid(n) ? nodes[n].sibling : 0;
}

static int no_child(int n)
{
	return valid(n) ? nodes[n].child : 0;
}

static int no_proplen(int n, const char *name)
{
	const struct prop *p = find_prop(n, name);

	return p ? p->len : -1;
}

static int no_getprop(int n, const char *name, char *val)
{
	const struct prop *p = find_prop(n, name);

	if (!p)
		return -1;
	memcpy(val, p->val, p->len);
	return p->len;
}

static int no_setprop(int n, const char *name, char *val, int len)
{
	return -1;			/* the tree is read-only */
}

static char *no_nextprop(int n, char *name)
{
	int i;

	if (!valid(n))
		return "";
	if (!name || !*name)
		return nodes[n].nprops ? (char *)nodes[n].props[0].name : "";
	for (i = 0; i < nodes[n].nprops - 1; i++)
		if (!strcmp(nodes[n].props[i].name, name))
			return (char *)nodes[n].props[i + 1].name;
	return "";
}

const struct linux_nodeops_v0 prom_nodeops = {
	.no_nextnode = no_nextnode,
	.no_child = no_child,
	.no_proplen = no_proplen,
	.no_getprop = no_getprop,
	.no_setprop = no_setprop,
	.no_nextprop = no_nextprop,
};
