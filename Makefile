# rtk - the one Makefile.
#
#   make                 build/rtk.elf and build/rtk.iso
#   make run             boot in QEMU, serial console on this terminal
#   make test            host unit tests + in-kernel self-tests, one summary
#   make test-options    LATENCY_TRACE=1 (BUILD-opts) and DEBUG_RT_LOCKING_MODE=1
#                        (BUILD-rtlock) builds + the suites of those options
#   make test-matrix     kernel suites for every PREEMPT model x SMP=1,2,4 (tools/matrix.sh)
#   make soak            torture + loads + pi_stress + cyclictest + pitest per model (DURATION=)
#   make model-check     SPIN model of the rt_mutex PI protocol + its mutants (model/pi/)
#   make model-check-big its 4-task, 3-lock scenario (outside CI: 4-25 min, 2.4 GB)
#   make iso-test        boot build/rtk.iso under BIOS and UEFI, check the shell
#   make hog-check       the shell under a FIFO-99 hog per CPU, RT throttling on/off
#   make test-machines   boot on PC variants: chipsets, no HPET/ACPI, CPU models,
#                        1-32 CPUs, 64M-8G (tools/test_machines.py; not in CI)
#   make screen-test     type `help` on the ISO's PS/2 keyboard, check the screen
#   make usb             build/rtk-usb.img: the hybrid ISO, to dd onto a USB stick
#   make bochs           boot the ISO in Bochs (serial on this terminal)
#   make test-bochs      run the self-tests in Bochs
#   make debug           QEMU halted with its gdb stub + gdb with symbols
#   make compare-linux   cyclictest on rtk beside Debian's Linux RT/standard
#                        (MICRO=1: context switch, wake-to-run, lock costs)
#   make qemu-fetch      QEMU 10 from bookworm-backports into build/qemu10
#                        (tools/qemu_fetch.py); QEMU10=1 then selects it
#   make lpptest         LPPTEST: irq latency timed from the host via COM2 (rt, none)
#   make fuzz            host fuzz targets (libFuzzer) for FUZZ_SECONDS each
#   make CC=clang        build with clang (ld.lld is not needed: GNU ld links)
#   make clang-check     clang -fsyntax-only -Werror over every kernel C file (CI)
#
# Variables: PREEMPT=none|voluntary|desktop|rt (default rt), SMP=4,
# MEM=256M, ACCEL=tcg|kvm, APPEND="kernel args", TIMEOUT (s), BUILD=dir,
# CROSS=x86_64-elf- (prefix for gcc/ld/nm/objcopy), ICOUNT=N (icount shift),
# HZ=250 (tick rate, default 1000), NO_HZ=0 (no tickless idle),
# QEMU=emulator (default the distribution's qemu-system-x86_64), QEMU10=1
# (the one `make qemu-fetch` unpacks; fetched first if missing).

BUILD	?= build
PREEMPT	?= rt
SMP	?= 4
MEM	?= 256M
ACCEL	?= tcg
MACHINE	?= q35
CPU	?= max
APPEND	?=
TIMEOUT	?= 600
ICOUNT	?=
FUZZ_SECONDS ?= 60

CROSS	?=
CC	:= $(if $(filter default,$(origin CC)),$(CROSS)gcc,$(CC))
LD	:= $(CROSS)ld
NM	:= $(CROSS)nm
NASM	?= nasm
HOSTCC	?= gcc
PYTHON	?= python3
QEMU	?= qemu-system-x86_64
# The optional second emulator (issue 31 item 4): QEMU 10 from Debian
# bookworm-backports, unpacked by `make qemu-fetch` under QEMU10_DIR (not
# under BUILD, so the BUILD=... sub-makes of bench and compare-linux see
# the same one).  QEMU10=1 selects its wrapper script for every target
# that boots QEMU; QEMU=path on the command line still wins.
QEMU10_DIR ?= build/qemu10
QEMU10_BIN := $(abspath $(QEMU10_DIR))/qemu-system-x86_64
ifeq ($(QEMU10),1)
QEMU := $(QEMU10_BIN)
endif

# ---- the preemption model: one switch, seen by the few headers that care
PREEMPT_MODELS := none voluntary desktop rt
ifeq ($(filter $(PREEMPT),$(PREEMPT_MODELS)),)
$(error PREEMPT=$(PREEMPT) is not one of: $(PREEMPT_MODELS))
endif
PREEMPT_DEF := -DCONFIG_PREEMPT_$(shell echo $(PREEMPT) | tr a-z A-Z)

# ---- kernel compiler flags
KCFLAGS := -std=gnu11 -ffreestanding -fno-pic -fno-pie -mno-red-zone \
	-mno-sse -mno-sse2 -mno-mmx -mno-80387 -mcmodel=kernel \
	-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fno-stack-protector -fno-asynchronous-unwind-tables \
	-fno-unwind-tables -fno-common -fno-strict-aliasing \
	-Wall -Wextra -Werror -Wno-unused-parameter -O2 -g -I. -MD -MP \
	-ffile-prefix-map=$(CURDIR)=. $(PREEMPT_DEF) $(EXTRA_CFLAGS)
ifneq ($(findstring clang,$(CC)),)
KCFLAGS += --target=x86_64-unknown-none-elf -Wno-unknown-warning-option
else
KCFLAGS += -mgeneral-regs-only
endif
# The article's timing options (kernel/debug/latency_timing.h):
# LATENCY_TIMING=1 for all three, or each alone (CRITICAL_PREEMPT_TIMING=1).
TIMING_OPTS := CRITICAL_PREEMPT_TIMING CRITICAL_IRQSOFF_TIMING WAKEUP_TIMING
ifneq ($(filter 1,$(LATENCY_TIMING) $(LATENCY_TRACE)),)
$(foreach o,$(TIMING_OPTS),$(eval $(o) ?= 1))
endif
KCFLAGS += $(foreach o,$(TIMING_OPTS),$(if $(filter 1,$($(o))),-DCONFIG_$(o)))
# The article's debugging options: PRINTK_IGNORE_LOGLEVEL=1 prints every
# level; DETECT_SOFTLOCKUP (kernel/debug/softlockup.h) is on unless =0.
DEBUG_OPTS := PRINTK_IGNORE_LOGLEVEL DETECT_SOFTLOCKUP
DETECT_SOFTLOCKUP ?= 1
KCFLAGS += $(foreach o,$(DEBUG_OPTS),$(if $(filter 1,$($(o))),-DCONFIG_$(o)))
# Lock debugging (kernel/locking/debug_irqflags.h, the validator
# lockdep.h): on unless =0.  DEBUG_RT_LOCKING_MODE (rtlock_mode.h, the
# run-time `rtlock mode rt|raw` switch; PREEMPT=rt only) is off unless =1,
# so the spin_lock() a reader follows in spinlock.h is the one that runs;
# make test-options builds and tests it.
# DEBUG_PREEMPT (kernel/sched/smp_processor_id.c, Linux's option, not
# the article's): smp_processor_id() reports a caller that can migrate;
# off unless =1 (tools/harness.py fails a run on its report).
LOCK_DEBUG_OPTS := DEBUG_IRQ_FLAGS DEBUG_RT_LOCKING_MODE LOCKDEP DEBUG_PREEMPT
DEBUG_PREEMPT ?= 0
DEBUG_IRQ_FLAGS ?= 1
LOCKDEP ?= 1
DEBUG_RT_LOCKING_MODE ?= 0
KCFLAGS += $(foreach o,$(LOCK_DEBUG_OPTS),$(if $(filter 1,$($(o))),-DCONFIG_$(o)))
# Memory debugging (kernel/mm/slab_debug.h, kernel/mm/pmm.c): red zones,
# poison and alloc/free sites for slab objects, poison and double-free
# checks for pages; on unless SLAB_DEBUG=0.
MM_DEBUG_OPTS := SLAB_DEBUG
SLAB_DEBUG ?= 1
KCFLAGS += $(foreach o,$(MM_DEBUG_OPTS),$(if $(filter 1,$($(o))),-DCONFIG_$(o)))
# The tick rate (kernel/time/tick.h): make HZ=250; 1000 by default.
# NO_HZ=1 (default): an idle CPU stops its tick (NO_HZ idle, Linux's
# CONFIG_NO_HZ, later CONFIG_NO_HZ_IDLE; boot with nohz=off to keep it
# periodic); NO_HZ=0: the tick never stops.
HZ ?= 1000
NO_HZ ?= 1
KCFLAGS += -DCONFIG_HZ=$(HZ) -DCONFIG_NO_HZ=$(NO_HZ)
# No -g: NASM records the absolute build directory in its DWARF and has no
# prefix map, which would make the ELF depend on where the tree lives.
NASMFLAGS := -f elf64 -w+all
LDFLAGS := -nostdlib -z max-page-size=0x1000 -z noexecstack --build-id=none \
	--no-warn-rwx-segments \
	-T linker.ld

# ---- kernel sources: every .c/.asm in these directories
KERNEL_DIRS := boot arch/x86_64 kernel kernel/shell kernel/time kernel/mm \
	kernel/futex kernel/fs \
	kernel/sched kernel/locking kernel/irq kernel/rcu kernel/debug kernel/user \
	kernel/workloads \
	lib drivers tests/kernel
KSRCS_C   := $(sort $(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.c)))
KSRCS_ASM := $(sort $(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.asm)))
KOBJS := $(patsubst %.c,$(BUILD)/%.o,$(KSRCS_C)) \
	 $(patsubst %.asm,$(BUILD)/%.asm.o,$(KSRCS_ASM))
# The PI tester's built-in scripts (kernel/workloads/rttester.h).
PI_SCRIPTS := $(sort $(wildcard tests/pi/*.tst))
KOBJS += $(BUILD)/pi_scripts.o
# The framebuffer console's font (drivers/fbcon_font.h), converted at build
# time from a Debian console font (console-setup-linux, tools/deps.sh).
FBCON_FONT ?= /usr/share/consolefonts/Lat15-Terminus16.psf.gz
KOBJS += $(BUILD)/fbcon_font.o

# LATENCY_TRACE=1 (implies LATENCY_TIMING): every kernel C file but these
# starts each function with `call __fentry__` (kernel/debug/latency_trace.h)
TRACE_NOTRACE := kernel/debug/latency_trace.c kernel/debug/latency_timing.c \
	kernel/printk.c kernel/console.c drivers/uart16550.c drivers/vga_text.c \
	arch/x86_64/smpboot.c arch/x86_64/percpu_hw.c arch/x86_64/cpu_init.c \
	tests/kernel/test_memory_kstack.c
# (test_memory_kstack: its stack overflow must fault in its own function, not
# in __fentry__'s register saves)
ifeq ($(LATENCY_TRACE),1)
KCFLAGS += -DCONFIG_LATENCY_TRACE
# arch/x86_64/fentry.asm holds __fentry__ under this define
NASMFLAGS += -DCONFIG_LATENCY_TRACE
$(patsubst %.c,$(BUILD)/%.o,$(filter-out $(TRACE_NOTRACE),$(KSRCS_C))): \
	KCFLAGS += -pg -mfentry
endif

# Objects depend on $(BUILD)/.cflags, rewritten only when the flags (and
# so PREEMPT= or an option) change: a changed option rebuilds everything.
# (The prefix map is left out: it names the tree's directory and keeps it
# out of the output, so a copied tree may reuse the objects: make check-labs.)
BUILD_FLAGS := $(CC) $(filter-out -ffile-prefix-map=%,$(KCFLAGS)) $(NASM) $(NASMFLAGS)
$(shell mkdir -p $(BUILD) && echo '$(BUILD_FLAGS)' | cmp -s - $(BUILD)/.cflags \
	|| echo '$(BUILD_FLAGS)' > $(BUILD)/.cflags)

# ---- host unit tests: portable sources built for the host under sanitizers
HOST_SRCS := $(sort $(wildcard lib/*.c) \
	kernel/sched/rt_runqueue.c kernel/sched/rt_placement.c kernel/locking/pi_chain.c \
	kernel/fs/inode.c kernel/fs/dir.c kernel/fs/namei.c kernel/fs/open.c \
	kernel/fs/cpio.c kernel/fs/unpack.c kernel/fs/stat_abi.c \
	kernel/user/elf_check.c kernel/mm/mmap_checks.c)
HOST_CFLAGS := -std=gnu11 -g -O1 -I. -Wall -Wextra -Werror \
	-Wno-unused-parameter -fno-builtin \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -DRTK_HOST_TEST
HOST_TESTS := $(patsubst tests/host/%.c,$(BUILD)/host/%,\
	$(sort $(wildcard tests/host/test_*.c)))
HOST_COMMON := tests/host/check.c tests/host/fake_arch.c tests/host/fake_kernel.c

.PHONY: all iso run test host-test kernel-test iso-test hog-check bochs test-bochs \
	screen-test usb fbcon-latency test-machines test-machines-ci \
	test-options test-matrix \
	debug fuzz deps qemu-fetch clean
.DELETE_ON_ERROR:

all: $(BUILD)/rtk.elf $(BUILD)/rtk.iso

# deps: every target that boots QEMU has it, so QEMU10=1 fetches there.
deps: $(if $(filter 1,$(QEMU10)),$(QEMU10_BIN))
	@bash tools/deps.sh

# make qemu-fetch: apt-get download qemu-system-x86, qemu-system-data and
# seabios from bookworm-backports under a private apt configuration (the
# host's sources and packages stay as they are), dpkg-deb -x them into
# QEMU10_DIR and write the wrapper QEMU10_BIN (its libraries and ROMs);
# prints its version.  A second run does nothing.  Not in CI.
qemu-fetch: $(QEMU10_BIN)
$(QEMU10_BIN): tools/qemu_fetch.py
	$(PYTHON) tools/qemu_fetch.py --cache $(QEMU10_DIR)

# V=1 shows the full command lines.
Q := $(if $(V),,@)

$(BUILD)/%.o: %.c $(BUILD)/.cflags
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(BUILD)/%.asm.o: %.asm $(BUILD)/.cflags
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  NASM    $<")
	$(Q)$(NASM) $(NASMFLAGS) -MD $(BUILD)/$*.asm.d -MP $< -o $@

# The symbol table is linked into .rodata, which lies after .text, so the
# text addresses of the first link (empty table) are final: link once,
# generate the table with nm, link again, and check nothing moved.
$(BUILD)/ksyms0.c: tools/mksyms.py
	@mkdir -p $(BUILD)
	$(PYTHON) tools/mksyms.py --empty > $@

$(BUILD)/rtk.pass1.elf: $(KOBJS) $(BUILD)/ksyms0.o linker.ld
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(LD) $(LDFLAGS) -o $@ $(KOBJS) $(BUILD)/ksyms0.o

$(BUILD)/ksyms.c: $(BUILD)/rtk.pass1.elf tools/mksyms.py
	$(Q)$(NM) -n $< | $(PYTHON) tools/mksyms.py > $@

$(BUILD)/rtk.elf: $(BUILD)/rtk.pass1.elf $(BUILD)/ksyms.o
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(LD) $(LDFLAGS) -o $@ $(KOBJS) $(BUILD)/ksyms.o
	@$(NM) -n $(BUILD)/rtk.pass1.elf | grep -i ' t ' > $(BUILD)/syms1.txt
	@$(NM) -n $@ | grep -i ' t ' > $(BUILD)/syms2.txt
	@cmp -s $(BUILD)/syms1.txt $(BUILD)/syms2.txt || \
		{ echo "error: text moved between symbol-table links"; exit 1; }
	@echo "  built $@ (PREEMPT=$(PREEMPT))"

$(BUILD)/fbcon_font.c: $(wildcard $(FBCON_FONT)) tools/psf2c.py
	@mkdir -p $(BUILD)
	@test -r $(FBCON_FONT) || { echo "error: no console font $(FBCON_FONT): run tools/deps.sh (console-setup-linux) or set FBCON_FONT=file.psf.gz"; exit 1; }
	$(Q)$(PYTHON) tools/psf2c.py $(FBCON_FONT) $@

$(BUILD)/ksyms0.o $(BUILD)/ksyms.o $(BUILD)/pi_scripts.o $(BUILD)/fbcon_font.o: $(BUILD)/%.o: $(BUILD)/%.c $(BUILD)/.cflags
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

# tests/pi/NAME.tst -> { "NAME", "line\n" ... } (quotes, backslashes escaped)
$(BUILD)/pi_scripts.c: $(PI_SCRIPTS) Makefile
	@mkdir -p $(BUILD)
	$(Q){ echo '#include "kernel/workloads/rttester.h"'; \
	  echo 'const struct pi_script pi_scripts[] = {'; \
	  for f in $(PI_SCRIPTS); do \
	    echo "{ \"$$(basename $$f .tst)\","; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
	    echo '},'; \
	  done; \
	  echo '};'; \
	  echo 'const int nr_pi_scripts = sizeof(pi_scripts) / sizeof(pi_scripts[0]);'; \
	} > $@

# The ISO whose GRUB default is the "BIOS text mode" entry: Bochs's VBE
# under GRUB's gfxpayload list crashes in GRUB (test-machines BOCHS=1).
$(BUILD)/rtk-text.iso: $(BUILD)/rtk.elf boot/grub.cfg
	@rm -rf $(BUILD)/isodir-txt && mkdir -p $(BUILD)/isodir-txt/boot/grub
	@cp $(BUILD)/rtk.elf $(BUILD)/isodir-txt/boot/rtk.elf
	@sed 's/^set default=.*/set default=2/' boot/grub.cfg \
		> $(BUILD)/isodir-txt/boot/grub/grub.cfg
	$(Q)grub-mkrescue -o $@ $(BUILD)/isodir-txt 2> $(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

iso: $(BUILD)/rtk.iso
$(BUILD)/rtk.iso: $(BUILD)/rtk.elf boot/grub.cfg $(BUILD)/initramfs.cpio
	@rm -rf $(BUILD)/isodir && mkdir -p $(BUILD)/isodir/boot/grub
	@cp $(BUILD)/rtk.elf $(BUILD)/isodir/boot/rtk.elf
	@cp $(BUILD)/initramfs.cpio $(BUILD)/isodir/boot/initramfs.cpio
	@cp boot/grub.cfg $(BUILD)/isodir/boot/grub/grub.cfg
	@echo "  ISO     $@"
	$(Q)grub-mkrescue -o $@ $(BUILD)/isodir 2> $(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

# The same ISO whose GRUB menu boots the "rtk selftest (BIOS text mode)"
# entry (Bochs has no -append, so the choice is made in grub.cfg; text
# mode: GRUB's VBE switch triple-faults in Bochs, see boot/grub.cfg).
$(BUILD)/rtk-selftest.iso: $(BUILD)/rtk.elf boot/grub.cfg
	@rm -rf $(BUILD)/isodir-st && mkdir -p $(BUILD)/isodir-st/boot/grub
	cp $(BUILD)/rtk.elf $(BUILD)/isodir-st/boot/rtk.elf
	sed 's/^set default=.*/set default=3/' boot/grub.cfg \
		> $(BUILD)/isodir-st/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isodir-st 2> $(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

# Under KVM, -cpu max asks for an MSR (IA32_ARCH_CAPABILITIES) some hosts'
# KVM refuses ("failed to set MSR 0x10a"); leave that feature out there.
QEMU_CPU = $(CPU)$(if $(filter kvm,$(ACCEL)),$(if $(filter max host,$(CPU)),$(comma)-arch-capabilities))
QEMU_ARGS = -machine $(MACHINE) -cpu $(QEMU_CPU) -smp $(SMP) -m $(MEM) \
	-no-reboot -device isa-debug-exit,iobase=0xf4,iosize=4 \
	$(if $(filter kvm,$(ACCEL)),-accel kvm,-accel tcg) \
	$(if $(ICOUNT),-icount shift=$(ICOUNT)$(comma)sleep=off)
comma := ,

run: deps $(BUILD)/rtk.elf $(BUILD)/initramfs.cpio
	@echo "rtk: QEMU, serial console here; poweroff (or ctrl-A x) to leave"
	@# poweroff leaves through isa-debug-exit: status (0 << 1) | 1 = 1
	$(QEMU) $(QEMU_ARGS) -kernel $(BUILD)/rtk.elf -append "$(APPEND)" \
		-initrd $(BUILD)/initramfs.cpio$(if $(wildcard $(ABI_INITRD)),$(comma)$(ABI_INITRD)) \
		-display none -serial mon:stdio; s=$$?; [ $$s -le 1 ] || \
		{ echo "rtk: QEMU exited with status $$s"; exit $$s; }

$(BUILD)/host/%: tests/host/%.c $(HOST_SRCS) $(HOST_COMMON) tests/host/check.h
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(HOST_COMMON) $(HOST_SRCS) -o $@

host-test: $(HOST_TESTS)
	$(PYTHON) tools/harness.py --host-bin $(BUILD)/host \
		--log $(BUILD)/host-test.log

# The compare initramfs (Debian's busybox-static, rt-tests and their glibc
# libraries, uncompressed): the one compare-linux boots Linux with, and a
# second boot module of `make test`, where the debian suite runs its
# binaries (tests/kernel/test_debian.c).  Fetched once with apt-get
# download into ABI_CACHE; without Debian's archive the file is not made
# and the suite skips, saying so.
ABI_CACHE ?= build/compare-linux
ABI_INITRD := $(ABI_CACHE)/initramfs.cpio
.PHONY: abi-initramfs
abi-initramfs: $(ABI_INITRD)
$(ABI_INITRD): tools/compare_linux.py
	@mkdir -p $(ABI_CACHE)
	$(Q)$(PYTHON) tools/compare_linux.py --initramfs-only \
		--cache $(ABI_CACHE) >/dev/null || \
		echo "abi-initramfs: could not fetch Debian's packages: the debian suite will skip"

test: deps $(HOST_TESTS) $(BUILD)/rtk.elf $(BUILD)/initramfs.cpio $(ABI_INITRD)
	$(PYTHON) tools/harness.py --host-bin $(BUILD)/host \
		--elf $(BUILD)/rtk.elf --qemu $(QEMU) --smp $(SMP) --mem $(MEM) \
		--initrd $(BUILD)/initramfs.cpio,$(ABI_INITRD) \
		--accel $(ACCEL) --append "$(APPEND)" --timeout $(TIMEOUT) \
		$(if $(ICOUNT),--icount $(ICOUNT)) \
		$(if $(SELFTEST),--selftest $(SELFTEST)) \
		--log $(BUILD)/kernel-test.log

# make init-test: boot with init=/t_init (the first user process, pid 1,
# powers the machine off with reboot(2)), with a missing init= (Linux's
# "Failed to execute", then rtk's shell), and with compare-linux's
# initramfs and its busybox /init script, loaded mode (issue 30 item 9:
# the script Linux runs, fork/pipes/wait/signals under busybox sh,
# Debian's hackbench and cyclictest): tools/init_test.py.  .ci/run runs
# it beside make test.
.PHONY: init-test
init-test: deps $(BUILD)/rtk.elf $(BUILD)/initramfs.cpio $(ABI_INITRD)
	$(PYTHON) tools/init_test.py --elf $(BUILD)/rtk.elf --qemu $(QEMU) \
		--initrd $(BUILD)/initramfs.cpio --busybox-initrd $(ABI_INITRD) \
		--timeout $(TIMEOUT)

kernel-test: deps $(BUILD)/rtk.elf $(BUILD)/initramfs.cpio $(ABI_INITRD)
	$(PYTHON) tools/harness.py --elf $(BUILD)/rtk.elf --qemu $(QEMU) \
		--initrd $(BUILD)/initramfs.cpio,$(ABI_INITRD) \
		--smp $(SMP) --mem $(MEM) --accel $(ACCEL) --append "$(APPEND)" \
		--timeout $(TIMEOUT) $(if $(ICOUNT),--icount $(ICOUNT)) \
		$(if $(SELFTEST),--selftest $(SELFTEST)) \
		--log $(BUILD)/kernel-test.log

# The options the default build leaves out, each in a build dir of its
# own with its suites: the instruments (LATENCY_TRACE=1, which implies the
# timing options), and the spinlock_t mode switch (DEBUG_RT_LOCKING_MODE=1:
# debug_locking's test_rtlock_* cases, and the spinlock_t suites through
# its layer).  Not one build: under LATENCY_TRACE every spin_lock is
# traced, and debug_locking's 4-CPU exclusion case then takes minutes.
OPTS_BUILD ?= $(BUILD)-opts
OPTS_SUITES ?= latency_timing,latency_trace
RTLOCK_BUILD ?= $(BUILD)-rtlock
RTLOCK_SUITES ?= debug_locking,spinlock,nort,wakeup_races
test-options: deps
	$(MAKE) BUILD=$(OPTS_BUILD) LATENCY_TRACE=1 kernel-test \
		SELFTEST=$(OPTS_SUITES)
	$(MAKE) BUILD=$(RTLOCK_BUILD) DEBUG_RT_LOCKING_MODE=1 kernel-test \
		SELFTEST=$(RTLOCK_SUITES)

# Issue 4's matrix: each model built once (BUILD-m-<model>), its kernel
# suites run with every CPU count.  MATRIX_MODELS / MATRIX_SMP narrow it.
MATRIX_MODELS ?= none voluntary desktop rt
MATRIX_SMP ?= 1 2 4
test-matrix: deps
	bash tools/matrix.sh -m "$(MATRIX_MODELS)" -s "$(MATRIX_SMP)" -b $(BUILD)-m

OVMF ?= $(firstword $(wildcard /usr/share/OVMF/OVMF_CODE.fd \
	/usr/share/ovmf/OVMF.fd /usr/share/qemu/OVMF.fd))
# make hog-check [SMP=n]: the shell under a FIFO-99 t_loop on every CPU,
# with RT throttling on (echo answered, kill ends them, memory back) and
# off (-1: the hogs own the machine) -- tools/hog_check.py (issue 28).
hog-check: deps $(BUILD)/rtk.elf $(BUILD)/initramfs.cpio
	$(PYTHON) tools/hog_check.py --elf $(BUILD)/rtk.elf \
		--initrd $(BUILD)/initramfs.cpio --smp $(SMP) --qemu $(QEMU) \
		--log $(BUILD)/hog-check.log

iso-test: deps $(BUILD)/rtk.iso
	$(PYTHON) tools/iso_test.py --iso $(BUILD)/rtk.iso --ovmf "$(OVMF)" \
		--qemu $(QEMU) \
		--timeout 180

# make test-machines [MACHINES=name,...] [LOADER=bios|uefi] [BOCHS=1]:
# boot build/rtk.elf on each PC variant (tools/test_machines.py --list),
# one PASS/FAIL line each with the time to the prompt.  LOADER: GRUB from
# build/rtk.iso under SeaBIOS or OVMF instead of QEMU's -kernel.  The
# x2apic rows need QEMU >= 8.1 (QEMU10=1; they SKIP on Debian 12's 7.2,
# whose TCG has no x2APIC).  BOCHS=1 adds Bochs with an x2APIC, booting the ISO's
# text-mode entry: about 5 minutes.  Outside CI.
test-machines: deps $(BUILD)/rtk.elf $(if $(BOCHS),$(BUILD)/rtk-text.iso) \
		$(if $(LOADER),$(BUILD)/rtk.iso)
	$(PYTHON) tools/test_machines.py --elf $(BUILD)/rtk.elf --qemu $(QEMU) \
		--timeout $(TIMEOUT) $(if $(MACHINES),--only $(MACHINES)) -v \
		$(if $(LOADER),--loader $(LOADER) --iso $(BUILD)/rtk.iso \
			--ovmf "$(OVMF)") \
		$(if $(BOCHS),--bochs-iso $(BUILD)/rtk-text.iso)

# make test-machines-ci: the subset .ci/run boots (test_machines.py --ci,
# about half a minute).
test-machines-ci: deps $(BUILD)/rtk.elf
	$(PYTHON) tools/test_machines.py --elf $(BUILD)/rtk.elf --qemu $(QEMU) \
		--timeout 120 --ci -v

# make screen-test [APPEND=...]: type `help` on the emulated PS/2 keyboard
# of the ISO under BIOS and UEFI and compare the screen with the text
# rendered in the same font (tools/screen_test.py).  APPEND=fbcon=off
# must fail.  USB=1: boot build/rtk-usb.img as a USB stick instead.
screen-test: deps $(BUILD)/rtk.iso $(if $(USB),$(BUILD)/rtk-usb.img)
	$(PYTHON) tools/screen_test.py --ovmf "$(OVMF)" --qemu $(QEMU) \
		$(if $(USB),--usb --iso $(BUILD)/rtk-usb.img,--iso $(BUILD)/rtk.iso) \
		--font $(FBCON_FONT) --timeout 180 \
		$(if $(APPEND),--append "$(APPEND)" --elf $(BUILD)/rtk.elf)

# make usb: build/rtk-usb.img, the same hybrid image as the ISO
# (grub-mkrescue writes an MBR with GRUB's BIOS boot code, a GPT with an
# EFI system partition, and ISO 9660 + El Torito for optical media), to
# copy onto a USB stick as it is: see README "Running on a PC".
usb: $(BUILD)/rtk-usb.img
$(BUILD)/rtk-usb.img: $(BUILD)/rtk.iso
	@cp $< $@
	@$(PYTHON) -c 'import sys; d = open(sys.argv[1], "rb").read(512); \
		sys.exit(0 if d[510:] == b"\x55\xaa" else \
		"usb: %s has no MBR boot signature: not a hybrid image" % sys.argv[1])' $@
	@echo "  USB     $@ ($$(du -h $@ | cut -f1)): write it to a whole stick with"
	@echo "          sudo dd if=$@ of=/dev/sdX bs=4M conv=fsync status=progress"

# make fbcon-latency: the LATENCY_TIMING=1 kernel (BUILD-lat) with the
# screen console and with fbcon=off, one CPU under -icount, `dmesg` x30:
# the longest preempt-off/irqs-off sections and fbcon's own figures.
LAT_BUILD ?= $(BUILD)-lat
fbcon-latency: deps
	$(MAKE) --no-print-directory BUILD=$(LAT_BUILD) LATENCY_TIMING=1 \
		$(LAT_BUILD)/rtk.iso
	@rm -rf $(LAT_BUILD)/isodir-off && cp -r $(LAT_BUILD)/isodir $(LAT_BUILD)/isodir-off
	@sed -i 's|multiboot2 /boot/rtk.elf|& fbcon=off|' $(LAT_BUILD)/isodir-off/boot/grub/grub.cfg
	$(Q)grub-mkrescue -o $(LAT_BUILD)/rtk-fbcon-off.iso $(LAT_BUILD)/isodir-off \
		2> $(LAT_BUILD)/grub-mkrescue.log || { cat $(LAT_BUILD)/grub-mkrescue.log; exit 1; }
	$(PYTHON) tools/fbcon_latency.py --iso $(LAT_BUILD)/rtk.iso \
		--iso-off $(LAT_BUILD)/rtk-fbcon-off.iso --out $(LAT_BUILD) \
		--qemu $(QEMU)

bochs: deps $(BUILD)/rtk.iso
	$(PYTHON) tools/bochs.py --iso $(BUILD)/rtk.iso

test-bochs: deps $(BUILD)/rtk-selftest.iso
	$(PYTHON) tools/bochs.py --iso $(BUILD)/rtk-selftest.iso --selftest \
		--timeout $(TIMEOUT)

debug: deps $(BUILD)/rtk.elf
	$(QEMU) $(QEMU_ARGS) -kernel $(BUILD)/rtk.elf -append "$(APPEND)" \
		-display none -serial file:$(BUILD)/debug-serial.log -s -S &
	gdb -q -x tools/gdbinit $(BUILD)/rtk.elf

FUZZ_TARGETS := $(patsubst tests/host/%.c,$(BUILD)/fuzz/%,\
	$(sort $(wildcard tests/host/fuzz_*.c)))
$(BUILD)/fuzz/%: tests/host/%.c $(HOST_SRCS) tests/host/fake_arch.c tests/host/fake_kernel.c
	@mkdir -p $(dir $@)
	clang -std=gnu11 -g -O1 -I. -DRTK_HOST_TEST -fno-builtin \
		-fsanitize=fuzzer,address,undefined $< $(HOST_SRCS) \
		tests/host/fake_arch.c tests/host/fake_kernel.c -o $@
fuzz: $(FUZZ_TARGETS)
	@bash tools/deps.sh --fuzz
	@set -e; for f in $(FUZZ_TARGETS); do \
		c=tests/host/$$(basename $$f)_corpus; mkdir -p $(BUILD)/fuzz/corpus; \
		echo "fuzz: $$f for $(FUZZ_SECONDS) s"; \
		timeout $$(( $(FUZZ_SECONDS) + 60 )) $$f \
			-max_total_time=$(FUZZ_SECONDS) $(BUILD)/fuzz/corpus \
			$$( [ -d $$c ] && echo $$c ); \
	done

# make check-arch: the portable kernel knows the machine through one
# header (arch/x86_64/arch.h) and calls arch_*() functions: no inline
# assembly or x86 names in kernel/ and lib/; arch/ does not include
# drivers/, kernel/shell/ or kernel/debug/ (tools/check_arch.sh).
.PHONY: check-arch
check-arch:
	@bash tools/check_arch.sh
	@bash tools/check_tree.sh

# make clang-check: clang's warnings on every kernel C file (KSRCS_C:
# arch, kernel, lib, drivers, tests/kernel) with the kernel's flags and
# -Werror, front end only (-fsyntax-only: no code generation, so a few
# seconds with -j instead of the minutes of a whole `make CC=clang`, and
# .ci/run never has to skip it).  What it cannot see: diagnostics of
# clang's back end (inline-asm operands, frame sizes) and the .asm files;
# `make CC=clang` still builds and links the whole kernel.  One stamp per
# file, with its header dependencies, so a second run only redoes what
# changed.  gcc-only flags are swapped for clang's target, as in KCFLAGS.
CLANG ?= clang
CLANG_KCFLAGS := $(filter-out -MD -MP -g -mgeneral-regs-only --target=% \
	-Wno-unknown-warning-option,$(KCFLAGS)) \
	--target=x86_64-unknown-none-elf -Wno-unknown-warning-option
CLANG_STAMPS := $(patsubst %.c,$(BUILD)/clang-check/%.ok,$(KSRCS_C))
.PHONY: clang-check
clang-check: $(CLANG_STAMPS)
	@echo "  clang-check: $(words $(CLANG_STAMPS)) files, no warnings"
$(BUILD)/clang-check/%.ok: %.c $(BUILD)/.cflags
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(CLANG_KCFLAGS) -fsyntax-only -MD -MP -MF $(@:.ok=.d) \
		-MT $@ $<
	@touch $@

# make check-docs: every repository path, `file:function` and suite:case
# reference in docs/, README.md and model/pi/README.md resolves, and the
# book's rtk-transcript blocks are well formed (tools/check_docs.py; the
# syntax is in docs/book/README.md).  It does not boot a kernel:
# check-transcripts (below) replays the blocks.
.PHONY: check-docs
check-docs:
	@$(PYTHON) tools/check_docs.py

# make check-transcripts: replay every rtk-transcript block against a
# booted kernel of the model it names (tools/replay_transcripts.py): one
# boot per (model, SMP) pair, each `~` line must match its command's
# output.  The kernels are the matrix's (BUILD-m-<model>), built here if
# missing; about 20 s of boots for the book's 3 pairs.
TRANSCRIPT_MODELS ?= rt none
.PHONY: check-transcripts
check-transcripts: deps
	@set -e; for m in $(TRANSCRIPT_MODELS); do \
		$(MAKE) --no-print-directory -s BUILD=$(BUILD)-m-$$m PREEMPT=$$m \
			$(BUILD)-m-$$m/rtk.elf; done
	$(PYTHON) tools/replay_transcripts.py --logdir $(BUILD) \
		$(foreach m,$(TRANSCRIPT_MODELS),--elf $(m)=$(BUILD)-m-$(m)/rtk.elf)

# The labs (labs/README.md, tools/labs.py): make lab-list; make lab
# LAB=name DIR=path writes a student tree (a git repository) with the
# lab's solution regions replaced by skeletons; make grade [LAB=name]
# [TESTS=dir] builds and runs the lab's graded tests (every model and
# SMP its labs/<name>/lab.conf names) and prints `score: N/100` (exit 0
# whatever the score); make check-labs (CI) grades the reference (100),
# every student tree (below 100, a failing test per region) and the
# lab.conf wrong-ci: known-wrong solutions (labs/<lab>/wrong/*.patch,
# each below 100) on each lab's one ci: (model, SMP); check-labs-all
# grades every known-wrong solution.  HIDDEN=dir is TESTS=dir (a
# teacher's hidden tests, labs/README.md); WRONG=name one mutant only.
.PHONY: lab-list lab grade check-labs check-labs-all
lab-list:
	@$(PYTHON) tools/labs.py list
lab:
	@test -n "$(LAB)" -a -n "$(DIR)" || { echo "usage: make lab LAB=name DIR=path (make lab-list)"; exit 2; }
	@$(PYTHON) tools/labs.py make $(LAB) $(DIR)
grade: deps
	@$(PYTHON) tools/labs.py grade $(if $(LAB),--lab $(LAB)) $(if $(TESTS),--tests $(TESTS)) $(if $(HIDDEN),--tests $(HIDDEN))
check-labs: deps
	@$(PYTHON) tools/labs.py check $(if $(LAB),--lab $(LAB)) $(foreach w,$(WRONG),--wrong $(w))
check-labs-all: deps
	@$(PYTHON) tools/labs.py check --all-wrong $(if $(LAB),--lab $(LAB))

# make latency PREEMPT=none LOAD="lockhog 2 2000" ICOUNT=3 SMP=2 [LOOPS=N]:
# boot, start the load, run cyclictest -S -p99 -i1000 -lLOOPS -q -h 3000;
# writes $(BUILD)/latency-<model>-<load>.txt and .png (tools/latency.py).
LOAD ?= lockhog 2 2000
LOOPS ?= 20000
.PHONY: latency
latency: deps $(BUILD)/rtk.elf
	$(PYTHON) tools/latency.py --elf $(BUILD)/rtk.elf --model $(PREEMPT) \
		--qemu $(QEMU) \
		--load "$(LOAD)" --smp $(SMP) --mem $(MEM) --loops $(LOOPS) \
		$(if $(ICOUNT),--icount $(ICOUNT)) --append "$(APPEND)" \
		--out $(BUILD)

# make lpptest [SAMPLES=2000] [LPP_MODELS="rt none"] [SMP=N] (outside CI,
# a benchmark): LPPTEST, interrupt latency from outside the guest
# (drivers/lpptest.c, tools/lpptest.py): builds BUILD-lpp-<model>, boots
# each idle and under `load cpu 2; hackbench 2`, times SAMPLES round trips
# host -> COM2 (a unix socket) -> irq 3 handler -> answer, beside an
# in-guest cyclictest and the host floor (a socketpair echo thread);
# writes $(BUILD)/lpptest.txt and lpptest-<model>-<load>.txt/.png.
SAMPLES ?= 2000
LPP_MODELS ?= rt none
LPP_SMP = $(if $(filter command line,$(origin SMP)),$(SMP),2)
.PHONY: lpptest
lpptest: deps
	@set -e; for m in $(LPP_MODELS); do \
		$(MAKE) --no-print-directory BUILD=$(BUILD)-lpp-$$m \
			PREEMPT=$$m $(BUILD)-lpp-$$m/rtk.elf; done
	@mkdir -p $(BUILD)
	$(PYTHON) tools/lpptest.py $(foreach m,$(LPP_MODELS),\
		--elf $(m)=$(BUILD)-lpp-$(m)/rtk.elf) --qemu $(QEMU) \
		--smp $(LPP_SMP) --mem $(MEM) --samples $(SAMPLES) \
		--append "$(APPEND)" --out $(BUILD)

# make bench [SMP=N] [ICOUNT=N]: build the four models (BUILD-bench-<model>),
# boot each with selftest=bench (SMP 2 unless given), print one table of
# the figures, median/max per model; also in $(BUILD)/bench.txt (+ logs).
BENCH_SMP = $(if $(filter command line,$(origin SMP)),$(SMP),2)
.PHONY: bench
bench: deps
	@set -e; for m in $(PREEMPT_MODELS); do \
		$(MAKE) --no-print-directory BUILD=$(BUILD)-bench-$$m \
			PREEMPT=$$m $(BUILD)-bench-$$m/rtk.elf; done
	@mkdir -p $(BUILD)
	$(PYTHON) tools/bench.py $(foreach m,$(PREEMPT_MODELS),\
		--elf $(m)=$(BUILD)-bench-$(m)/rtk.elf) --qemu $(QEMU) \
		--machine $(MACHINE) --cpu $(CPU) --smp $(BENCH_SMP) --mem $(MEM) \
		$(if $(ICOUNT),--icount $(ICOUNT)) --out $(BUILD)/bench.txt

# make compare-linux [ROUNDS=3] [LOOPS=20000] [SMP=2] [ICOUNT=N] [CMP_HZ=250] (outside
# CI: downloads Debian's linux-image-rt-amd64, linux-image-amd64, rt-tests
# and busybox-static with apt-get download into $(BUILD)/compare-linux,
# installs nothing): cyclictest idle and under hackbench + busy loops on
# Linux RT, Linux standard, rtk rt and rtk none, interleaved, ROUNDS
# rounds; one table of medians and the rtk/Linux ratios
# (tools/compare_linux.py), also in $(BUILD)/compare-linux.txt.
# MICRO=1: instead of cyclictest, rtk's bench figures (ctxsw, wake-to-run,
# tsc-read, the uncontended locks) beside $(BUILD)/linux_micro
# (tools/linux_micro.c, static) on the same Linux kernels, plain TCG then
# -icount $(or $(ICOUNT),3) in each round (docs/latency.md, "Micro-costs
# beside Linux").
ROUNDS ?= 3
CMP_SMP = $(if $(filter command line,$(origin SMP)),$(SMP),2)
.PHONY: compare-linux
# rtk is built as the Debian kernels are, without lock validator, irq-flag
# and slab checks or latency timing (CMP_OPTS): a production build beside
# a production build.  With their tick rate too: Debian's amd64 kernels
# (and Linux's Kconfig default) have CONFIG_HZ=250, rtk's default is 1000;
# CMP_HZ=1000 compares rtk's default instead (docs/latency.md, "The loaded
# average, looked at from the host", measures both).
CMP_HZ ?= 250
# CMP_RTK_LOAD="cpu 2; hackbench 2 8": rtk's loads in the loaded runs, an
# item "run PROG ARGS &" a user program from the initramfs (default: "run
# t_loop &" per CPU, user-mode busy loops like Linux's shell loops, and
# hackbench 2; "cpu 2; hackbench 2" loads with rtk's in-kernel loops).
CMP_OPTS := LOCKDEP=0 DEBUG_IRQ_FLAGS=0 SLAB_DEBUG=0 CRITICAL_PREEMPT_TIMING=0 \
	CRITICAL_IRQSOFF_TIMING=0 WAKEUP_TIMING=0 HZ=$(CMP_HZ)
compare-linux: deps $(if $(MICRO),$(BUILD)/linux_micro)
	@set -e; for m in rt none; do \
		$(MAKE) --no-print-directory BUILD=$(BUILD)-cmp-$$m \
			PREEMPT=$$m $(CMP_OPTS) $(BUILD)-cmp-$$m/rtk.elf \
			$(BUILD)-cmp-$$m/initramfs.cpio; done
	$(PYTHON) tools/compare_linux.py --rtk rt=$(BUILD)-cmp-rt/rtk.elf \
		--rtk-initrd $(BUILD)-cmp-rt/initramfs.cpio \
		--rtk none=$(BUILD)-cmp-none/rtk.elf --rounds $(ROUNDS) \
		--rtk-hz $(CMP_HZ) $(if $(CMP_RTK_LOAD),--rtk-load "$(CMP_RTK_LOAD)") \
		--loops $(LOOPS) --smp $(CMP_SMP) --mem 512M \
		$(if $(ICOUNT),--icount $(ICOUNT)) --qemu $(QEMU) \
		$(if $(MICRO),--micro $(BUILD)/linux_micro) \
		--cache $(BUILD)/compare-linux \
		--out $(BUILD)/compare-$(if $(MICRO),micro,linux).txt

$(BUILD)/linux_micro: tools/linux_micro.c
	@mkdir -p $(dir $@)
	$(HOSTCC) -static -O2 -pthread -Wall -Wextra -Werror -o $@ $<

# make soak DURATION=10m [PREEMPT=rt | MODELS="rt none"] [SMP=4]: build each
# model (SOAK_BUILD-<model>, all four unless PREEMPT= or MODELS= is given),
# boot it with selftest=soak soak.duration=DURATION (torture, loads,
# pi_stress, cyclictest and the pitest scripts at once, kernel/debug/
# soak.h), one table from tools/soak.py; also $(BUILD)/soak.txt and
# $(BUILD)/soak-<model>.log.  DURATION: seconds or Ns, Nm, Nh.
# SOAK_BUILD=dir: the model dirs' prefix (CI reuses the matrix's, -m).
DURATION ?= 60s
SOAK_BUILD ?= $(BUILD)-soak
SOAK_MODELS = $(or $(MODELS),$(if $(filter command line,$(origin PREEMPT)),$(PREEMPT),$(PREEMPT_MODELS)))
.PHONY: soak
soak: deps
	@set -e; for m in $(SOAK_MODELS); do \
		$(MAKE) --no-print-directory BUILD=$(SOAK_BUILD)-$$m \
			PREEMPT=$$m $(SOAK_BUILD)-$$m/rtk.elf; done
	@mkdir -p $(BUILD)
	$(PYTHON) tools/soak.py $(foreach m,$(SOAK_MODELS),\
		--elf $(m)=$(SOAK_BUILD)-$(m)/rtk.elf) --duration $(DURATION) \
		--qemu $(QEMU) --smp $(SMP) --mem $(MEM) --accel $(ACCEL) \
		$(if $(ICOUNT),--icount $(ICOUNT)) --out $(BUILD)

# make model-check (or make model): issue 17's SPIN model of the rt_mutex
# PI protocol (model/pi/README.md): every scenario passes every property,
# every mutant is caught with a trail.  PROP_OFF=prop_x removes one check.
.PHONY: model model-check
model: model-check
model-check: deps
	bash model/pi/check.sh -o $(BUILD)/model
# make model-check-big: the scenario too big for CI (CHAIN3: 4 tasks, 3
# locks, a two-link boost and deboost; about 37 M states, 2.4 GB of
# memory, 4-25 min on 2 cores).
.PHONY: model-check-big
model-check-big: deps
	bash model/pi/check.sh -b -o $(BUILD)/model-big

# User programs and the initramfs (issue 18): make user, make user-host-test.
include user/user.mk

clean:
	rm -rf $(BUILD)

-include $(KOBJS:.o=.d) $(BUILD)/ksyms.d $(BUILD)/ksyms0.d \
	$(CLANG_STAMPS:.ok=.d)
