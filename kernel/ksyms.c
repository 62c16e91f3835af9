/*
 * kernel/ksyms.c - look addresses up in the embedded symbol table.
 *
 * The table lives in the .ksymtab section of the image.  The Makefile
 * links three times: pass 1 with an empty table, pass 2 with the table of
 * pass 1, pass 3 with the table of pass 2.  Passes 2 and 3 have tables of
 * identical size, so the addresses in the final table are the final
 * addresses (the same trick as Linux's kallsyms, scripts/link-vmlinux.sh).
 */
#include "kernel/ksyms.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

extern const unsigned long ksym_count;
extern const struct ksym ksym_table[];
extern const char ksym_names[];

const char *ksym_lookup(unsigned long addr, unsigned long *offset,
			unsigned long *size)
{
	unsigned long lo = 0, hi = ksym_count;

	/* Binary search for the last symbol with start <= addr. */
	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (ksym_table[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	lo--;
	if (addr - ksym_table[lo].addr >= ksym_table[lo].size)
		return NULL;
	if (offset)
		*offset = addr - ksym_table[lo].addr;
	if (size)
		*size = ksym_table[lo].size;
	return &ksym_names[ksym_table[lo].name_off];
}

unsigned long ksym_address(const char *name)
{
	for (unsigned long i = 0; i < ksym_count; i++)
		if (!strcmp(&ksym_names[ksym_table[i].name_off], name))
			return ksym_table[i].addr;
	return 0;
}

int ksym_snprint(char *buf, size_t len, unsigned long addr)
{
	unsigned long off, size;
	const char *name = ksym_lookup(addr, &off, &size);

	if (!name)
		return snprintf(buf, len, "0x%lx", addr);
	return snprintf(buf, len, "%s+0x%lx/0x%lx", name, off, size);
}
