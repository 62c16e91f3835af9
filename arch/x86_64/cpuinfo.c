/*
 * arch/x86_64/cpuinfo.c - /proc/cpuinfo as Linux's x86 code writes it:
 * a block of "name\t: value" lines per online CPU, blocks apart by an
 * empty line.  Readers: compare-linux's /init counts `^processor` lines,
 * glibc's get_nprocs_conf falls back to it, people read "model name".
 *
 * The identification comes from CPUID on the reading CPU and is printed
 * for every CPU: the machines rtk boots (QEMU, Bochs, a PC) have CPUs
 * alike; Linux keeps a cpuinfo_x86 per CPU.  The flags are the CPUID.1
 * features rtk itself looks at or that RT tools check for (tsc,
 * constant_tsc is left out: rtk does not read the invariant-TSC bit).
 * Linux counterpart: arch/x86/kernel/cpu/proc.c (show_cpuinfo).
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/seq_buf.h"
#include "lib/string.h"

/* CPUID.1 EDX and ECX bits, with Linux's flag names */
static const struct {
	u8 reg;		/* 0: EDX, 1: ECX */
	u8 bit;
	const char *name;
} cpu_flags[] = {
	{ 0, 0, "fpu" },   { 0, 4, "tsc" },    { 0, 5, "msr" },
	{ 0, 6, "pae" },   { 0, 8, "cx8" },    { 0, 9, "apic" },
	{ 0, 13, "pge" },  { 0, 15, "cmov" },  { 0, 19, "clflush" },
	{ 0, 23, "mmx" },  { 0, 24, "fxsr" },  { 0, 25, "sse" },
	{ 0, 26, "sse2" }, { 1, 0, "pni" },    { 1, 9, "ssse3" },
	{ 1, 13, "cx16" }, { 1, 19, "sse4_1" }, { 1, 20, "sse4_2" },
	{ 1, 21, "x2apic" }, { 1, 23, "popcnt" }, { 1, 24, "tsc_deadline_timer" },
	{ 1, 26, "xsave" }, { 1, 31, "hypervisor" },
};

/* brand - CPUID 0x80000002..4's model name, or "" without it. */
static void brand(char out[49])
{
	struct cpuid_regs r;
	u32 *w = (u32 *)out;

	out[0] = '\0';
	cpuid(0x80000000, &r);
	if (r.eax < 0x80000004)
		return;
	for (u32 leaf = 0; leaf < 3; leaf++) {
		cpuid(0x80000002 + leaf, &r);
		w[leaf * 4 + 0] = r.eax;
		w[leaf * 4 + 1] = r.ebx;
		w[leaf * 4 + 2] = r.ecx;
		w[leaf * 4 + 3] = r.edx;
	}
	out[48] = '\0';
}

void arch_show_cpuinfo(struct seq_buf *m)
{
	struct cpuid_regs v, f;
	char vendor[13], model_name[49];
	u32 family, model;
	u64 mhz = ktime_clock_hz() / 1000000;
	int cpu;

	cpuid(0, &v);
	memcpy(vendor, &v.ebx, 4);
	memcpy(vendor + 4, &v.edx, 4);
	memcpy(vendor + 8, &v.ecx, 4);
	vendor[12] = '\0';
	cpuid(1, &f);
	family = (f.eax >> 8) & 0xf;
	model = (f.eax >> 4) & 0xf;
	if (family == 0xf)
		family += (f.eax >> 20) & 0xff;
	if (family >= 6)
		model |= ((f.eax >> 16) & 0xf) << 4;
	brand(model_name);
	for_each_online_cpu (cpu) {
		seq_buf_printf(m, "processor\t: %d\nvendor_id\t: %s\n", cpu,
			       vendor);
		seq_buf_printf(m, "cpu family\t: %u\nmodel\t\t: %u\n", family,
			       model);
		seq_buf_printf(m, "model name\t: %s\nstepping\t: %u\n",
			       model_name, f.eax & 0xf);
		seq_buf_printf(m, "cpu MHz\t\t: %llu.000\n",
			       (unsigned long long)mhz);
		seq_buf_printf(m, "siblings\t: %d\ncpu cores\t: %d\n",
			       num_online_cpus(), num_online_cpus());
		seq_buf_puts(m, "flags\t\t:");
		for (unsigned int i = 0; i < ARRAY_SIZE(cpu_flags); i++) {
			u32 reg = cpu_flags[i].reg ? f.ecx : f.edx;

			if (reg >> cpu_flags[i].bit & 1)
				seq_buf_printf(m, " %s", cpu_flags[i].name);
		}
		seq_buf_puts(m, "\n\n");
	}
}
