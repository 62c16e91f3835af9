/*
 * arch/x86_64/smpboot.c - bring up the application processors.
 *
 * The boot CPU numbers the MADT's enabled CPUs (itself 0), copies the
 * real-mode trampoline (trampoline.asm) to TRAMPOLINE_PHYS, and starts
 * the APs one at a time:
 *   [1] allocate the AP's per-CPU copy, idle stack and IST stacks (each
 *       a guarded kernel stack), make its idle task its run queue's
 *       current one (idle_init), fill the trampoline's parameter block;
 *   [2] INIT IPI, 10 ms, STARTUP IPI, 200 us, STARTUP IPI, 200 us (the
 *       MP protocol's "typical BSP initialization sequence": the second
 *       SIPI covers a first one lost; an AP already running ignores it);
 *   [3] wait up to AP_ONLINE_TIMEOUT_NS for the AP to set its bit in
 *       cpu_online_mask; one that does not is reported (with how far it
 *       got in the trampoline) and skipped, the others still boot;
 *   [4] after the last AP, unmap the trampoline's identity mapping.
 * The AP itself (ap_start): its GDT/TSS, the IDT, its local APIC and
 * tick, then online, then cpu_startup_entry() (kernel/sched/idle.c,
 * declared in arch.h) - the AP's boot stack becomes its idle task's.
 * Spec: Intel SDM Vol. 3A 8.4.4.1 (typical BSP initialization sequence),
 * 8.4.3 (MP initialization protocol), 10.6.1 (ICR: INIT, STARTUP).
 * Linux counterpart: arch/x86/kernel/smpboot.c (native_cpu_up,
 * do_boot_cpu, wakeup_secondary_cpu_via_init, start_secondary).  rtk
 * leaves out CPU hotplug, parallel bring-up and the 82489DX INIT
 * de-assert.
 */
#include "arch/x86_64/smpboot.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/smap.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/lapic.h"
#include "kernel/cmdline.h"
#include "kernel/mm/kstack.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The MP protocol's delays (SDM Vol. 3A 8.4.4.1). */
#define INIT_DELAY_MS 10
#define SIPI_DELAY_US 200
/* How long an AP may take from the first SIPI to online.  Real CPUs need
 * well under a millisecond; TCG with many CPUs can take tens of ms. */
#define AP_ONLINE_TIMEOUT_NS (1000 * NSEC_PER_MSEC)


extern const char trampoline_start[], trampoline_end[];
extern const char trampoline_params[];

/* Real-mode "cli; hlt; jmp $-1" that parks a late AP for good. */
static const u8 park_code[] = {0xFA, 0xF4, 0xEB, 0xFD};

struct smp_cpu_info smp_cpu_info[NR_CPUS];
static struct cpu_stacks ap_stacks[NR_CPUS]; /* read by the AP itself */

static int cmdline_max_cpus = NR_CPUS;

/*
 * Who decides an AP's fate when its timeout and its arrival cross: one
 * compare-and-swap from AP_WAITING, by the AP (to AP_ONLINE, in
 * ap_start) or by the boot CPU (to AP_GIVEN_UP, in boot_ap).
 *
 *   boot CPU (boot_ap)               AP (ap_start)
 *   deadline passes                  GDT, IDT (its own state only)
 *   cmpxchg WAITING -> GIVEN_UP      cmpxchg WAITING -> ONLINE
 *   won: INIT the AP, skip it        lost: park, never online
 *   lost: the AP is online, keep it  won: lapic, tick, set_cpu_online
 *     (wait for cpu_online)
 *
 * Without it the boot CPU gave up on an AP that had just set itself
 * online, then INITed an online CPU (make test-machines
 * smp-ap-given-up: WARN_ON(n != num_online_cpus()) in kernel/smp.c).
 */
enum { AP_WAITING, AP_ONLINE, AP_GIVEN_UP };
static int ap_boot_state[NR_CPUS];

/* `nosmp`: boot CPU only.  (Linux: nosmp, same as maxcpus=0.) */
static int __init parse_nosmp(const char *val)
{
	cmdline_max_cpus = 1;
	return 0;
}
CMDLINE_PARAM("nosmp", parse_nosmp);

/* `maxcpus=N`: at most N CPUs, the boot CPU included; 0 means nosmp. */
static int __init parse_maxcpus(const char *val)
{
	unsigned long n;

	/* A bad value: -EINVAL makes cmdline_parse() warn, default kept. */
	if (!val || kstrtoul(val, 0, &n) || n > NR_CPUS)
		return -EINVAL;
	cmdline_max_cpus = n ? (int)n : 1;
	return 0;
}
CMDLINE_PARAM("maxcpus", parse_maxcpus);

/* `smp.ap_timeout_ms=N`: how long an AP may take to come online (default
 * AP_ONLINE_TIMEOUT_NS).  Below INIT_DELAY_MS every AP is given up while
 * it still starts: make test-machines' smp-ap-given-up boots that way to
 * check a late AP stays out of the next CPU's parameters. */
static ktime_t ap_online_timeout = AP_ONLINE_TIMEOUT_NS;

static int __init parse_ap_timeout(const char *val)
{
	unsigned long ms;

	if (!val || kstrtoul(val, 0, &ms) || ms > 60000)
		return -EINVAL;
	ap_online_timeout = (ktime_t)ms * NSEC_PER_MSEC;
	return 0;
}
CMDLINE_PARAM("smp.ap_timeout_ms", parse_ap_timeout);

/* `smp.stray_test`: CPU 1's trampoline parameters name another APIC ID,
 * so CPU 1 wakes as a stray would (an AP given up on, waking late into
 * the next CPU's block): it must park in the trampoline and be reported,
 * and the boot go on without it (make test-machines smp-stray-ap). */
static bool stray_test;

static int __init parse_stray_test(const char *val)
{
	stray_test = true;
	return 0;
}
CMDLINE_PARAM("smp.stray_test", parse_stray_test);

int smp_cpus_limit(void)
{
	return cmdline_max_cpus;
}

u32 smp_cpu_apic_id(int cpu)
{
	BUG_ON(cpu < 0 || cpu >= NR_CPUS || !smp_cpu_info[cpu].present);
	return smp_cpu_info[cpu].apic_id;
}

/*
 * ap_start - the AP's first C code, called by the trampoline with the
 * GS base already pointing at this CPU's per-CPU copy.
 * Context: AP, interrupts off, its idle stack, the kernel page tables
 * (identity map of the trampoline still present).  Never returns.
 */
static __noreturn void ap_start(int cpu)
{
	int waiting = AP_WAITING;

	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	gdt_init_cpu(cpu, &ap_stacks[cpu]);
	idt_load();
	syscall_init_cpu();
	fpu_init_cpu();
	setup_smep();		/* the trampoline copied the boot CPU's CR4; */
	setup_smap();		/* this CPU's own CPUID decides (smap.c) */
	BUG_ON(raw_smp_processor_id() != cpu);
	/* an AP woken late with another CPU's parameters parked in the
	 * trampoline ([0]), before it took this stack */
	/*
	 * Decide before touching anything shared: the boot CPU INITs an AP
	 * it gave up on, wherever it is.  Deciding after lapic_init_cpu
	 * (whose irq_stack_init_cpu allocates) let an INIT land inside
	 * kstack_alloc with its lock held, locked for good (test-machines
	 * LOADER=uefi smp-ap-given-up: "raw spinlock ... stuck: waiter CPU 0
	 * ... at percpu_alloc_cpu; holder CPU 1 ... acquired at
	 * kstack_alloc").  Pairs with the cmpxchg in boot_ap().
	 */
	if (!__atomic_compare_exchange_n(&ap_boot_state[cpu], &waiting,
					 AP_ONLINE, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		arch_halt_forever(); /* given up: the boot CPU INITs us */
	lapic_init_cpu();
	tick_init_cpu(); /* this CPU's LAPIC timer tick */
	set_cpu_online(cpu, true); /* pairs with the wait in boot_ap() */
	cpu_startup_entry(cpu);
}

/* number_cpus - logical numbers for the MADT's enabled CPUs, the boot
 * CPU first; returns how many got one. */
static int __init number_cpus(u32 bsp_apic_id, int limit)
{
	const struct acpi_madt_info *madt = &acpi.madt;
	bool bsp_seen = false;
	int n = 1, skipped = 0;

	smp_cpu_info[0].apic_id = bsp_apic_id;
	smp_cpu_info[0].present = true;
	for (int i = 0; i < madt->n_cpus; i++) {
		if (!madt->cpus[i].enabled)
			continue;
		if (madt->cpus[i].apic_id == bsp_apic_id) {
			bsp_seen = true;
			continue;
		}
		if (n >= limit) {
			skipped++;
			continue;
		}
		smp_cpu_info[n].apic_id = madt->cpus[i].apic_id;
		smp_cpu_info[n].present = true;
		n++;
	}
	if (!bsp_seen)
		pr_warn("smp: boot CPU (APIC ID %u) is not in the MADT\n",
			bsp_apic_id);
	if (skipped)
		pr_info("smp: %d CPU(s) left offline (limit %d)\n", skipped,
			limit);
	return n;
}

/* alloc_ap_resources - [1] the AP's per-CPU copy and stacks.  Returns
 * the idle stack top or 0 (reported) when out of memory. */
static unsigned long __init alloc_ap_resources(int cpu)
{
	int err = percpu_alloc_cpu(cpu);
	void *idle = kstack_alloc();

	if (err || !idle) {
		pr_err("smp: CPU %d: no memory for per-CPU data or stack\n",
		       cpu);
		if (idle)
			kstack_free(idle);
		return 0;
	}
	for (int i = 0; i < IST_COUNT; i++) {
		void *ist = kstack_alloc();

		if (!ist) {
			pr_err("smp: CPU %d: no memory for IST stack\n", cpu);
			return 0; /* stacks stay allocated: boot only */
		}
		ap_stacks[cpu].ist_top[i] = (unsigned long)kstack_top(ist);
	}
	ap_stacks[cpu].rsp0 = 0;
	smp_cpu_info[cpu].idle_stack = idle;
	return (unsigned long)kstack_top(idle);
}

/* report_stray - an AP that woke with the parameters of the CPU being
 * booted, not its own, parked in the trampoline ([0] there) and left its
 * APIC ID: say so, and clear the note for the next AP.  Context: boot
 * CPU, between two APs' windows or within one. */
static void __init report_stray(int cpu, struct trampoline_params *params)
{
	if (!__atomic_load_n(&params->stray_seen, __ATOMIC_ACQUIRE))
		return;
	pr_warn("smp: APIC ID %u woke with CPU %d's parameters (for APIC ID "
		"%#x) and parked in the trampoline\n",
		READ_ONCE(params->stray), cpu, READ_ONCE(params->apic_id));
	WRITE_ONCE(params->stray_seen, 0);
}

/* boot_ap - [1]..[3] for one AP; 0 once it is online, -ENOMEM or
 * -ETIMEDOUT (reported). */
static int __init boot_ap(int cpu, struct trampoline_params *params)
{
	u32 apic_id = smp_cpu_info[cpu].apic_id;
	unsigned long stack_top = alloc_ap_resources(cpu); /* [1] */
	ktime_t start, deadline;

	if (!stack_top)
		return -ENOMEM;
	idle_init(cpu); /* rq->curr before the AP can be woken onto */
	params->stack_top = stack_top;
	params->gs_base = __per_cpu_offset[cpu];
	params->cpu = cpu;
	params->apic_id = stray_test && cpu == 1 ? apic_id ^ (1u << 31)
						 : apic_id;
	ap_boot_state[cpu] = AP_WAITING;
	__atomic_store_n(&params->stage, 0, __ATOMIC_RELEASE);

	start = ktime_get(); /* [2] */
	lapic_send_init(apic_id);
	mdelay(INIT_DELAY_MS);
	for (int i = 0; i < 2; i++) {
		lapic_send_sipi(apic_id, TRAMPOLINE_PHYS >> PAGE_SHIFT);
		udelay(SIPI_DELAY_US);
	}

	deadline = start + ap_online_timeout; /* [3] */
	while (!cpu_online(cpu)) {
		int waiting = AP_WAITING;

		if (ktime_get() > deadline &&
		    __atomic_compare_exchange_n(&ap_boot_state[cpu], &waiting,
						AP_GIVEN_UP, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			u32 stage = __atomic_load_n(&params->stage,
						    __ATOMIC_ACQUIRE);

			pr_err("smp: CPU %d (APIC ID %u) did not come online "
			       "within %lld ms (%s), skipped\n",
			       cpu, apic_id,
			       (long long)(ap_online_timeout / NSEC_PER_MSEC),
			       stage == 0   ? "no sign of life"
			       : stage == 1 ? "stuck in the trampoline"
					    : "stuck after long mode");
			/*
			 * A late AP must not wake into the next CPU's
			 * parameters: seen with 66 CPUs under TCG on a busy
			 * host (make test-machines MACHINES=madt-66), APIC
			 * ID 51 came up as CPU 52 on CPU 52's stack, and
			 * both ran there.  INIT puts it back to waiting for
			 * a SIPI, which only its own APIC ID gets.
			 */
			lapic_send_init(apic_id);
			mdelay(INIT_DELAY_MS);
			smp_cpu_info[cpu].failed = true;
			report_stray(cpu, params);
			return -ETIMEDOUT;
		}
		cpu_relax();
	}
	report_stray(cpu, params);
	smp_cpu_info[cpu].boot_ns = ktime_get() - start;
	pr_info("smp: CPU %d (APIC ID %u) online in %llu us\n", cpu, apic_id,
		(unsigned long long)(smp_cpu_info[cpu].boot_ns /
				     NSEC_PER_USEC));
	return 0;
}

/*
 * smp_boot_cpus - see smpboot.h.
 * Context: boot CPU, once.  Locking: none; the APs start one at a time
 * and share only the parameter block, which the boot CPU rewrites only
 * after the previous AP is online (it no longer reads it) or given up.
 */
int __init smp_boot_cpus(void)
{
	size_t len = trampoline_end - trampoline_start;
	struct trampoline_params *params;
	int n, online = 1;

	BUILD_BUG_ON(sizeof(struct trampoline_params) != 72);
	BUILD_BUG_ON(IST_STACK_SIZE > KSTACK_SIZE);
	BUG_ON(raw_smp_processor_id() != 0);
	n = number_cpus(lapic_id(), smp_cpus_limit());
	nr_cpu_ids = n;
	if (n == 1)
		return 1;
	if (mmu_identity_map(TRAMPOLINE_PHYS, PAGE_SIZE)) {
		pr_err("smp: cannot map the AP trampoline, boot CPU only\n");
		return 1;
	}
	BUG_ON(len > PAGE_SIZE);
	memcpy(phys_to_virt(TRAMPOLINE_PHYS), trampoline_start, len);
	params = phys_to_virt(TRAMPOLINE_PHYS +
			      (trampoline_params - trampoline_start));
	params->cr3 = mmu_kernel_cr3();
	params->cr4 = read_cr4();
	params->efer = rdmsr(MSR_EFER) & (EFER_LME | EFER_NXE);
	params->entry = (u64)(uintptr_t)ap_start;

	/*
	 * Stop every AP first: OVMF leaves its APs spinning in a firmware
	 * loop, and under TCG 31 spinning vCPUs on a 2-CPU host made each
	 * AP take 0.3-1.5 s to come online, some past the timeout (make
	 * test-machines LOADER=uefi smp-32: "30 of 32 CPUs online").  An
	 * INITed AP waits for a SIPI without running.
	 */
	for (int cpu = 1; cpu < n; cpu++)
		lapic_send_init(smp_cpu_info[cpu].apic_id);
	mdelay(INIT_DELAY_MS);
	for (int cpu = 1; cpu < n; cpu++) {
		if (!boot_ap(cpu, params))
			online++;
	}
	/* [4] A given-up AP that still wakes later must not enable paging
	 * on tables without the identity map (a triple fault resets the
	 * whole machine): the page now starts with cli; hlt; jmp back. */
	memcpy(phys_to_virt(TRAMPOLINE_PHYS), park_code, sizeof(park_code));
	mmu_identity_unmap(TRAMPOLINE_PHYS, PAGE_SIZE);
	return online;
}
