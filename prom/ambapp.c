// SPDX-License-Identifier: GPL-2.0
/*
 * AMBA plug-and-play scan: the AHB slave table names the APB bridges,
 * each APB bridge's table names its devices (GRLIB IP core manual,
 * "Plug&play").  Devices are found here, not hard-coded.
 */
#include "prom.h"

#define AHB_PNP			0xFFFFF000
#define AHB_SLAVES_OFF		0x800
#define AHB_SLAVES		64
#define AHB_ENTRY		0x20
#define APB_PNP_OFF		0xFF000
#define APB_ENTRIES		512
#define APB_ENTRY		0x08

struct amba_dev amba_devs[AMBA_MAX_DEVS];
int amba_ndevs;

static void id_fields(u32 id, struct amba_dev *d)
{
	d->vendor = id >> 24;
	d->device = (id >> 12) & 0xfff;
	d->version = (id >> 5) & 0x1f;
	d->irq = id & 0x1f;
}

static void scan_apb(u32 bridge, u32 ignore)
{
	u32 pnp = bridge + APB_PNP_OFF;
	int i;

	for (i = 0; i < APB_ENTRIES && amba_ndevs < AMBA_MAX_DEVS; i++) {
		u32 id = bypass_ld(pnp + i * APB_ENTRY);
		u32 bar = bypass_ld(pnp + i * APB_ENTRY + 4);
		struct amba_dev *d = &amba_devs[amba_ndevs];

		if (!id)
			continue;
		id_fields(id, d);
		if (((d->vendor << 12) | d->device) == ignore)
			continue;
		d->start = bridge + (((bar >> 20) & 0xfff) << 8);
		d->size = ((~(bar >> 4) & 0xfff) + 1) << 8;
		amba_ndevs++;
	}
}

int amba_scan(u32 ignore)
{
	int i;

	amba_ndevs = 0;
	for (i = 0; i < AHB_SLAVES; i++) {
		u32 base = AHB_PNP + AHB_SLAVES_OFF + i * AHB_ENTRY;
		u32 id = bypass_ld(base);
		u32 bar = bypass_ld(base + 0x10);
		struct amba_dev s;

		if (!id)
			continue;
		id_fields(id, &s);
		if (s.vendor == VENDOR_GAISLER && s.device == GAISLER_APBMST)
			scan_apb(bar & 0xfff00000, ignore);
	}
	return amba_ndevs;
}

const struct amba_dev *amba_find(u32 vendor, u32 device)
{
	int i;

	for (i = 0; i < amba_ndevs; i++)
		if (amba_devs[i].vendor == vendor && amba_devs[i].device == device)
			return &amba_devs[i];
	return 0;
}

/* The node name Linux looks for: GRLIB's name, or "VV_DDD" (hex). */
const char *amba_name(const struct amba_dev *d, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	if (d->vendor == VENDOR_GAISLER) {
		switch (d->device) {
		case GAISLER_APBUART:
			return "GAISLER_APBUART";
		case GAISLER_IRQMP:
			return "GAISLER_IRQMP";
		case GAISLER_GPTIMER:
			return "GAISLER_GPTIMER";
		}
	}
	buf[0] = hex[(d->vendor >> 4) & 0xf];
	buf[1] = hex[d->vendor & 0xf];
	buf[2] = '_';
	buf[3] = hex[(d->device >> 8) & 0xf];
	buf[4] = hex[(d->device >> 4) & 0xf];
	buf[5] = hex[d->device & 0xf];
	buf[6] = 0;
	return buf;
}
