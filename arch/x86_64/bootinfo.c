/*
 * arch/x86_64/bootinfo.c - read the boot loader's information block into
 * the portable struct boot_info (arch/x86_64/arch.h).
 *
 * Two loaders reach start32 (boot/multiboot.asm):
 *   Multiboot1 (QEMU -kernel): Multiboot 0.6.96 section 3.3, "Boot
 *     information format": flags word, cmdline, mods, mmap, framebuffer.
 *     There is no RSDP in it: ACPI code scans the BIOS areas instead.
 *   Multiboot2 (GRUB): Multiboot2 spec section 3.6, a list of 8-byte
 *     aligned tags: 1 cmdline, 3 module, 6 memory map, 8 framebuffer,
 *     14/15 ACPI RSDP copies (old/new).
 * Everything is copied out, so the loader's memory can be reused later;
 * the block's own range is recorded so the page allocator skips it until
 * then.  Linux counterpart: arch/x86/boot + setup_arch()'s e820 parsing.
 */
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MB1_BOOTLOADER_MAGIC 0x2BADB002
#define MB2_BOOTLOADER_MAGIC 0x36D76289

#define MB1_INFO_CMDLINE (1u << 2)
#define MB1_INFO_MODS (1u << 3)
#define MB1_INFO_MMAP (1u << 6)
#define MB1_INFO_FRAMEBUFFER (1u << 12)

struct boot_info boot_info;

static u32 rd32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u64 rd64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void add_region(u64 base, u64 len, u32 type)
{
	struct boot_mem_region *r;

	if (boot_info.nr_mmap >= BOOT_MMAP_MAX || len == 0)
		return;
	r = &boot_info.mmap[boot_info.nr_mmap++];
	r->base = base;
	r->len = len;
	/* Multiboot and E820 share the type numbers 1..5; anything else is
	 * reserved. */
	r->type = (type >= 1 && type <= 5) ? type : BOOT_MEM_RESERVED;
}

static void add_module(u64 start, u64 end)
{
	if (boot_info.nr_modules >= (int)ARRAY_SIZE(boot_info.modules))
		return;
	boot_info.modules[boot_info.nr_modules].start = start;
	boot_info.modules[boot_info.nr_modules].end = end;
	boot_info.nr_modules++;
}

static void copy_cmdline(const char *s)
{
	strscpy(boot_info.cmdline, s, sizeof(boot_info.cmdline));
}

/* read_fb_colours - the six colour-field bytes of an RGB framebuffer
 * (Multiboot 0.6.96 3.3 offsets 110-115, Multiboot2 3.6.12 color_info):
 * red position, red size, green position, green size, blue ... */
static void read_fb_colours(const u8 *p)
{
	boot_info.fb_red_pos = p[0];
	boot_info.fb_red_size = p[1];
	boot_info.fb_green_pos = p[2];
	boot_info.fb_green_size = p[3];
	boot_info.fb_blue_pos = p[4];
	boot_info.fb_blue_size = p[5];
}

static void parse_mb1(const u8 *mbi)
{
	u32 flags = rd32(mbi);

	boot_info.loader = "multiboot1";
	boot_info.info_len = 120;	/* the fixed part of the structure */
	if (flags & MB1_INFO_CMDLINE) {
		/* Multiboot1 loaders (QEMU's -kernel, GRUB's `multiboot`)
		 * put the image's path first, like argv[0]; the parameters
		 * follow it.  A path has a '/' and no '='. */
		const char *s = phys_to_virt(rd32(mbi + 16));
		const char *sp = strchr(s, ' ');
		size_t first = sp ? (size_t)(sp - s) : strlen(s);

		if (memchr(s, '/', first) && !memchr(s, '=', first))
			s = sp ? sp + 1 : s + first;
		copy_cmdline(s);
	}
	if (flags & MB1_INFO_MODS) {
		u32 count = rd32(mbi + 20);
		const u8 *mod = phys_to_virt(rd32(mbi + 24));

		for (u32 i = 0; i < count && i < 8; i++, mod += 16)
			add_module(rd32(mod), rd32(mod + 4));
	}
	if (flags & MB1_INFO_MMAP) {
		u32 len = rd32(mbi + 44);
		const u8 *p = phys_to_virt(rd32(mbi + 48));
		const u8 *end = p + len;

		/* Each entry is preceded by its size, which excludes the size
		 * field itself. */
		while (p + 24 <= end) {
			u32 size = rd32(p);

			add_region(rd64(p + 4), rd64(p + 12), rd32(p + 20));
			p += size + 4;
		}
	}
	if (flags & MB1_INFO_FRAMEBUFFER) {
		boot_info.has_framebuffer = true;
		boot_info.fb_addr = rd64(mbi + 88);
		boot_info.fb_pitch = rd32(mbi + 96);
		boot_info.fb_width = rd32(mbi + 100);
		boot_info.fb_height = rd32(mbi + 104);
		boot_info.fb_bpp = mbi[108];
		boot_info.fb_type = mbi[109];
		read_fb_colours(mbi + 110);
	}
}

static void parse_mb2_mmap(const u8 *tag, u32 size)
{
	u32 entry_size = rd32(tag + 8);
	const u8 *p = tag + 16;

	if (entry_size < 24)
		return;
	for (; p + entry_size <= tag + size; p += entry_size)
		add_region(rd64(p), rd64(p + 8), rd32(p + 16));
}

static void parse_mb2(const u8 *mbi)
{
	u32 total = rd32(mbi);
	const u8 *tag = mbi + 8;

	boot_info.loader = "multiboot2";
	boot_info.info_len = total;
	while (tag + 8 <= mbi + total) {
		u32 type = rd32(tag), size = rd32(tag + 4);

		if (type == 0 || size < 8)
			break;
		switch (type) {
		case 1:
			copy_cmdline((const char *)tag + 8);
			break;
		case 3:
			add_module(rd32(tag + 8), rd32(tag + 12));
			break;
		case 6:
			parse_mb2_mmap(tag, size);
			break;
		case 8:
			boot_info.has_framebuffer = true;
			boot_info.fb_addr = rd64(tag + 8);
			boot_info.fb_pitch = rd32(tag + 16);
			boot_info.fb_width = rd32(tag + 20);
			boot_info.fb_height = rd32(tag + 24);
			boot_info.fb_bpp = tag[28];
			boot_info.fb_type = tag[29];
			/* GRUB's multiboot_tag_framebuffer_common: a u16
			 * reserved field, then the colour info at 32. */
			if (size >= 38)
				read_fb_colours(tag + 32);
			break;
		case 14:
		case 15:
			/* The newer (v2) copy wins over the old one. */
			if (type == 15 || !boot_info.rsdp_copied) {
				u32 n = size - 8;

				if (n > sizeof(boot_info.rsdp))
					n = sizeof(boot_info.rsdp);
				memcpy(boot_info.rsdp, tag + 8, n);
				boot_info.rsdp_copied = true;
			}
			break;
		default:
			break;
		}
		tag += ALIGN_UP(size, 8);
	}
}

/*
 * arch_boot_parse - see arch.h.
 * Context: boot CPU, early, before the page allocator; does not sleep.
 * Locking: none (single CPU).
 */
int __init arch_boot_parse(u32 magic, u64 info_phys)
{
	const u8 *mbi = phys_to_virt(info_phys);

	boot_info.info_phys = info_phys;
	if (magic == MB1_BOOTLOADER_MAGIC)
		parse_mb1(mbi);
	else if (magic == MB2_BOOTLOADER_MAGIC)
		parse_mb2(mbi);
	else
		return -EINVAL;
	return 0;
}
