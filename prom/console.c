// SPDX-License-Identifier: GPL-2.0
/*
 * The PROM console: the first APBUART of the plug-and-play tables,
 * reached through the MMU bypass ASI so that it works before and after
 * the kernel takes over the MMU.
 */
#include "prom.h"

#define UART_DATA	0x0
#define UART_STATUS	0x4
#define UART_CTRL	0x8
#define UART_SCALER	0xc
#define STATUS_DR	0x01	/* data ready */
#define STATUS_TE	0x04	/* transmitter FIFO empty */
#define CTRL_RE		0x01
#define CTRL_TE		0x02

static u32 uart;

void console_init(u32 uart_base)
{
	uart = uart_base;
	if (uart)
		bypass_st(uart + UART_CTRL, CTRL_RE | CTRL_TE);
}

/* V0 PROM convention (arch/sparc/prom/console_32.c): 1 sent, 0 busy. */
int console_nbputchar(int c)
{
	if (!uart || !(bypass_ld(uart + UART_STATUS) & STATUS_TE))
		return 0;
	bypass_st(uart + UART_DATA, c & 0xff);
	return 1;
}

void console_putc(int c)
{
	if (!uart)
		return;
	if (c == '\n')
		console_putc('\r');
	while (!console_nbputchar(c))
		;
}

int console_nbgetchar(void)
{
	if (!uart || !(bypass_ld(uart + UART_STATUS) & STATUS_DR))
		return -1;
	return bypass_ld(uart + UART_DATA) & 0xff;
}

void console_puts(const char *s)
{
	while (*s)
		console_putc(*s++);
}

void console_puthex(u32 v)
{
	int i;

	console_puts("0x");
	for (i = 28; i >= 0; i -= 4)
		console_putc("0123456789abcdef"[(v >> i) & 0xf]);
}
