/*
 * drivers/vga_text.c - VGA text-mode console: characters and attributes
 * in the frame buffer at 0xB8000, scrolling, hardware cursor.
 *
 * Only used when the loader left the display in EGA text mode (QEMU
 * -kernel, GRUB under BIOS with a text console); under UEFI there is no
 * text mode and COM1 is the only console.  Reference: OSDev "Text UI",
 * VGA CRTC registers 0x0E/0x0F (cursor location).
 * Linux counterpart: drivers/video/console/vgacon.c.
 */
#include "drivers/vga_text.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/io.h"

#define VGA_ATTR 0x07	/* light grey on black */

static volatile u16 *vga_buf;
static u32 vga_cols, vga_rows, vga_x, vga_y;

void vga_text_init(u64 phys, u32 cols, u32 rows)
{
	vga_buf = phys_to_virt(phys);
	vga_cols = cols ? cols : 80;
	vga_rows = rows ? rows : 25;
	vga_x = vga_y = 0;
	for (u32 i = 0; i < vga_cols * vga_rows; i++)
		vga_buf[i] = (VGA_ATTR << 8) | ' ';
}

static void vga_scroll(void)
{
	u32 n = vga_cols * (vga_rows - 1);

	for (u32 i = 0; i < n; i++)
		vga_buf[i] = vga_buf[i + vga_cols];
	for (u32 i = n; i < n + vga_cols; i++)
		vga_buf[i] = (VGA_ATTR << 8) | ' ';
	vga_y = vga_rows - 1;
}

static void vga_move_cursor(void)
{
	u16 pos = (u16)(vga_y * vga_cols + vga_x);

	outb(0x3D4, 0x0F);
	outb(0x3D5, pos & 0xFF);
	outb(0x3D4, 0x0E);
	outb(0x3D5, pos >> 8);
}

/*
 * vga_text_write - put len bytes on the screen.
 * Context: any (no sleeping).  Locking: the console lock (kernel/printk.c).
 */
void vga_text_write(const char *s, size_t len)
{
	if (!vga_buf)
		return;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\n') {
			vga_x = 0;
			vga_y++;
		} else if (c == '\r') {
			vga_x = 0;
		} else if (c == '\b') {
			if (vga_x > 0)
				vga_x--;
		} else if ((u8)c >= 0x20) {
			vga_buf[vga_y * vga_cols + vga_x] = (VGA_ATTR << 8) | (u8)c;
			if (++vga_x >= vga_cols) {
				vga_x = 0;
				vga_y++;
			}
		}
		if (vga_y >= vga_rows)
			vga_scroll();
	}
	vga_move_cursor();
}
