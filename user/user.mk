# user/user.mk - user programs and the initramfs, included by the Makefile.
#
#   make user             $(BUILD)/user/<prog>.elf for every user/*.c and
#                         user/tests/*.c, and $(BUILD)/initramfs.cpio
#   make user-host-test   build them and run each host-runnable program on
#                         this Linux host (tools/user_host_test.sh)
#
# Every program is one .c file linked with user/lib (crt0, system calls,
# printf, threads and mutexes) and the kernel's portable lib/string.c and
# lib/vsnprintf.c (and lib/cyclictest_opts.c + latency_hist.c,
# the pure cyclictest option parser and statistics), all built again
# here with the user flags into $(BUILD)/user/obj.  The ELFs are static,
# non-PIE, at 0x400000 (user/user.ld), Linux's x86_64 ABI: the same file
# runs on rtk and on Linux.  The initramfs (cpio newc, tools/mkcpio.py)
# holds each program at its root under its name ("cyclictest").

USER_BUILD := $(BUILD)/user
USER_OBJ := $(USER_BUILD)/obj
# Freestanding (no libc from outside), SSE allowed: the kernel saves a
# user task's FPU state.  No red zone rule: user code may use it.
USER_CFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-pie -fno-pic \
	-fno-stack-protector -fno-asynchronous-unwind-tables \
	-fno-omit-frame-pointer -fno-common -fno-strict-aliasing \
	-Wall -Wextra -Werror -Wno-unused-parameter -I. -MD -MP \
	-ffile-prefix-map=$(CURDIR)=. -DRTK_USER
ifneq ($(findstring clang,$(CC)),)
USER_CFLAGS += -Wno-unknown-warning-option
endif
# (-no-pie: gcc's default is PIE; clang calls it unused beside -static)
USER_LDFLAGS := -nostdlib -static $(if $(findstring clang,$(CC)),,-no-pie) \
	-Wl,-T,user/user.ld \
	-Wl,--build-id=none -Wl,-z,noexecstack -Wl,-z,max-page-size=0x1000

USER_LIB_SRCS := $(sort $(wildcard user/lib/*.c) $(wildcard user/lib/*.S)) \
	lib/string.c lib/vsnprintf.c \
	lib/cyclictest_opts.c lib/latency_hist.c
USER_LIB_OBJS := $(patsubst %,$(USER_OBJ)/%.o,$(filter-out user/lib/crt0.S,$(USER_LIB_SRCS)))
USER_CRT0 := $(USER_OBJ)/user/lib/crt0.S.o
USER_LIB := $(USER_BUILD)/libuser.a

USER_PROG_SRCS := $(sort $(wildcard user/*.c) $(wildcard user/tests/*.c))
USER_PROGS := $(basename $(notdir $(USER_PROG_SRCS)))
ifneq ($(words $(USER_PROGS)),$(words $(sort $(USER_PROGS))))
$(error user/user.mk: two programs share a name: $(USER_PROG_SRCS))
endif
USER_ELFS := $(patsubst %,$(USER_BUILD)/%.elf,$(USER_PROGS))

USER_FLAGS := $(CC) $(USER_CFLAGS) $(USER_LDFLAGS)
$(shell mkdir -p $(USER_BUILD) && echo '$(USER_FLAGS)' | \
	cmp -s - $(USER_BUILD)/.cflags || echo '$(USER_FLAGS)' > $(USER_BUILD)/.cflags)

.PHONY: user user-host-test
user: $(BUILD)/initramfs.cpio
all: $(BUILD)/initramfs.cpio

$(USER_OBJ)/%.c.o: %.c $(USER_BUILD)/.cflags
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  UCC     $<")
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(USER_OBJ)/%.S.o: %.S $(USER_BUILD)/.cflags
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  UAS     $<")
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(USER_LIB): $(USER_LIB_OBJS)
	@rm -f $@
	$(Q)$(CROSS)ar rcs $@ $^

# One program = its own object + crt0 + what it uses of libuser.a.
define user_prog_rule
$(USER_BUILD)/$(basename $(notdir $(1))).elf: $(USER_OBJ)/$(1).o $(USER_CRT0) $(USER_LIB) user/user.ld
	@$$(if $$(V),,echo "  ULD     $$@")
	$$(Q)$$(CC) $$(USER_LDFLAGS) -o $$@ $(USER_CRT0) $(USER_OBJ)/$(1).o $(USER_LIB) -lgcc
endef
$(foreach s,$(USER_PROG_SRCS),$(eval $(call user_prog_rule,$(s))))

# Position-independent test programs (user/pie/, issue 29 item 5): ET_DYN
# images of the loader's PIE and PT_INTERP paths.  They link no library
# (user/lib is built -fno-pie), only crt0.S (built again with -fpie) and
# static inlines, and must carry no dynamic relocation: nothing relocates them
# (the check below fails the build if the linker made one).
#   t_pie         a static PIE (-static-pie: ET_DYN, no PT_INTERP)
#   t_pie_interp  the same code as a PIE whose PT_INTERP names
#                 /lib64/ld-rtk-test.so, a symlink (in the initramfs) to
#   t_ldso        the test interpreter, itself a static PIE
USER_PIE_CFLAGS := $(filter-out -fno-pie -fno-pic,$(USER_CFLAGS)) -fpie
USER_PIE_LDFLAGS := -nostdlib -Wl,--build-id=none -Wl,-z,noexecstack \
	-Wl,-z,max-page-size=0x1000
USER_PIE_INTERP := /lib64/ld-rtk-test.so
USER_PIES := t_pie t_pie_interp t_ldso
USER_PIE_ELFS := $(patsubst %,$(USER_BUILD)/%.elf,$(USER_PIES))

$(USER_OBJ)/pie/%.o: user/pie/% $(USER_BUILD)/.cflags
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  UCC     $<")
	$(Q)$(CC) $(USER_PIE_CFLAGS) -c $< -o $@
$(USER_OBJ)/pie/crt0.S.o: user/lib/crt0.S $(USER_BUILD)/.cflags
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  UCC     $<")
	$(Q)$(CC) $(USER_PIE_CFLAGS) -c $< -o $@

USER_PIE_START := $(USER_OBJ)/pie/crt0.S.o
$(USER_BUILD)/t_pie.elf: $(USER_PIE_START) $(USER_OBJ)/pie/t_pie.c.o
	@$(if $(V),,echo "  ULD     $@")
	$(Q)$(CC) $(USER_PIE_LDFLAGS) -static-pie -o $@ $^
	$(Q)! $(CROSS)readelf -rW $@ | grep -q R_X86_64 || \
		{ echo "$@: has dynamic relocations"; rm -f $@; exit 1; }
$(USER_BUILD)/t_pie_interp.elf: $(USER_PIE_START) $(USER_OBJ)/pie/t_pie.c.o
	@$(if $(V),,echo "  ULD     $@")
	$(Q)$(CC) $(USER_PIE_LDFLAGS) -pie \
		-Wl,--dynamic-linker=$(USER_PIE_INTERP) -o $@ $^
	$(Q)! $(CROSS)readelf -rW $@ | grep -q R_X86_64 || \
		{ echo "$@: has dynamic relocations"; rm -f $@; exit 1; }
$(USER_BUILD)/t_ldso.elf: $(USER_PIE_START) $(USER_OBJ)/pie/t_ldso.c.o
	@$(if $(V),,echo "  ULD     $@")
	$(Q)$(CC) $(USER_PIE_LDFLAGS) -static-pie -o $@ $^
	$(Q)! $(CROSS)readelf -rW $@ | grep -q R_X86_64 || \
		{ echo "$@: has dynamic relocations"; rm -f $@; exit 1; }

# The archive holds copies without debug sections (a quarter of the
# size: the loader reads less); gdb uses the .elf files beside them.
$(USER_BUILD)/%.stripped: $(USER_BUILD)/%.elf
	$(Q)$(CROSS)objcopy --strip-debug $< $@

$(BUILD)/initramfs.cpio: $(USER_ELFS:.elf=.stripped) \
		$(USER_PIE_ELFS:.elf=.stripped) tools/mkcpio.py
	@$(if $(V),,echo "  CPIO    $@")
	$(Q)$(PYTHON) tools/mkcpio.py -o $@ \
		$(foreach p,$(USER_PROGS) $(USER_PIES),$(p)=$(USER_BUILD)/$(p).stripped) \
		$(patsubst /%,%,$(USER_PIE_INTERP))@../t_ldso

user-host-test: $(USER_ELFS) $(BUILD)/initramfs.cpio
	bash tools/user_host_test.sh $(USER_BUILD)

-include $(patsubst %.o,%.d,$(USER_LIB_OBJS) $(USER_CRT0) \
	$(patsubst %,$(USER_OBJ)/%.o,$(USER_PROG_SRCS)) \
	$(USER_PIE_START) $(USER_OBJ)/pie/t_pie.c.o $(USER_OBJ)/pie/t_ldso.c.o)
