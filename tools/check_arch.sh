#!/usr/bin/env bash
# tools/check_arch.sh - the portable/machine split, checked (make check-arch).
#
#  1. kernel/ includes no arch header but arch/x86_64/arch.h; lib/ none.
#  2. kernel/ and lib/ code (comments stripped, strings kept) has no
#     inline assembly and no x86 register, flag or instruction name: the
#     portable kernel calls arch_*() functions (arch/x86_64/arch.h).
#  3. arch/ includes nothing from drivers/, kernel/shell/ or kernel/debug/:
#     the machine layer does not depend on devices, the shell or debugging.
#  4. The mechanisms (kernel/{sched,locking,time,irq,rcu,mm,futex,user},
#     the files at kernel/'s top but main.c, drivers/) include nothing
#     from kernel/workloads/, and from kernel/debug/ only hooks.h, the one
#     hook header (issue 27).  main.c, the boot sequence, starts the
#     instruments as Linux's start_kernel does.
# Prints every offending line and exits 1, or one line per rule and 0.
set -u
cd "$(dirname "$0")/.." || exit 2
fail=0

bad=$(grep -rn '#include "arch/' kernel lib |
	grep -v '^kernel/[^:]*:[0-9]*:#include "arch/x86_64/arch.h"')
if [ -n "$bad" ]; then
	echo "$bad"
	echo "check-arch: kernel/ may include only arch/x86_64/arch.h, lib/ no arch header"
	fail=1
fi

# Word-matched, case-sensitive, in code only (comments blanked, line
# numbers kept).  The list: inline assembly; x86 flag and control-register
# names; the instructions a port would have to hide behind arch_*(); the
# general registers by their 64- and 32-bit names.
bad=$(python3 - kernel lib <<'PY'
import os, re, sys
NAMES = re.compile(r"\b(asm|__asm|__asm__|X86_[A-Z0-9_]+|rflags|eflags|"
                   r"read_rflags|cr[02348]|rdtsc|rdtscp|rdtsc_ordered|rdmsr|"
                   r"wrmsr|cpuid|cli|sti|hlt|invlpg|lfence|mfence|"
                   r"[re](ax|bx|cx|dx|si|di|sp|bp|ip)|r(8|9|1[0-5]))\b")
# a comment (kept as its newlines) or a string/char literal (kept)
TOKEN = re.compile(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'', re.S)
def blank(m):
    t = m.group(0)
    return t if t[0] in "\"'" else re.sub(r"[^\n]", " ", t)
for top in sys.argv[1:]:
    for root, _, files in sorted(os.walk(top)):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            code = TOKEN.sub(blank, open(path, encoding="utf-8").read())
            for n, line in enumerate(code.split("\n"), 1):
                if NAMES.search(line):
                    print("%s:%d:%s" % (path, n, line.strip()))
PY
)
if [ -n "$bad" ]; then
	echo "$bad"
	echo "check-arch: inline assembly or an x86 name in kernel/ or lib/; call an arch_*() function of arch/x86_64/arch.h"
	fail=1
fi

bad=$(grep -rnE '#include "(drivers/|kernel/shell/|kernel/debug/)' arch)
if [ -n "$bad" ]; then
	echo "$bad"
	echo "check-arch: arch/ may not include drivers/, kernel/shell/ or kernel/debug/"
	fail=1
fi

bad=$(grep -nE '#include "kernel/(workloads/|debug/)' \
	kernel/sched/* kernel/locking/* kernel/time/* kernel/irq/* \
	kernel/rcu/* kernel/mm/* kernel/futex/* kernel/user/* \
	$(ls kernel/*.c kernel/*.h | grep -v '^kernel/main.c$') drivers/* |
	grep -v '#include "kernel/debug/hooks.h"')
if [ -n "$bad" ]; then
	echo "$bad"
	echo "check-arch: a mechanism may include kernel/debug/hooks.h only, nothing from kernel/workloads/"
	fail=1
fi

[ $fail = 0 ] && echo "check-arch: kernel/ includes only arch/x86_64/arch.h, lib/ none;" \
	"no inline assembly or x86 names in kernel/ and lib/;" \
	"arch/ includes nothing from drivers/, kernel/shell/, kernel/debug/;" \
	"mechanisms include kernel/debug/hooks.h only, no workload"
exit $fail
