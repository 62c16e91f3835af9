#!/usr/bin/env python3
"""tools/test_machines.py - boot rtk on the machines real PCs differ by.
`make test-machines` calls this (outside CI: it is a few dozen boots).

Issue 16 item 4: the firmware and hardware differences of real PCs, each
under QEMU TCG: no HPET (the TSC is then calibrated against the ACPI PM
timer; with ACPI off, against the PIT), the i440FX (`pc`) and Q35
chipsets, CPU models from qemu64 to EPYC, 1 to 32 CPUs, 64 MiB to 8 GiB
of memory, and x2APIC asked for (QEMU 8.1 or later: `make qemu-fetch`,
QEMU10=1; on an older QEMU those rows say SKIP).  For each configuration
QEMU boots
build/rtk.elf (multiboot, the serial line on a pipe; tools/iso_test.py's
Serial reader) - or, with --loader bios|uefi, GRUB from build/rtk.iso
under SeaBIOS or OVMF - and the test

  1. waits for the prompt "rtk> " (the boot time printed is to it),
  2. checks the boot log's "time: TSC ... calibrated against the X" line
     names the reference the machine should give,
  3. types `smp` and checks "N of M CPUs online" shows every CPU,
  4. types `mem` and checks "RAM: N KiB usable" is near -m,
  5. checks the boot log has no "WARNING", "BUG" or "Kernel panic",
  6. types `poweroff` and checks QEMU leaves.

It prints one PASS/FAIL line per configuration and a summary; the exit
status is non-zero when any failed.  --only picks configurations by a
substring of their names, --list prints them, --ci keeps the subset
.ci/run boots (`make test-machines-ci`: one each of no HPET, no ACPI,
disabled MADT entries, 8 GiB, and the two AP bring-up failures; about
half a minute).  Python 3 stdlib only.
"""
import argparse
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import tty

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iso_test import PROMPT, Serial, find_ovmf, firmware_args  # noqa: E402
from screen_test import make_iso  # noqa: E402  (an ISO copy with --append)
import bochs  # noqa: E402  (tools/bochs.py: Bochs headless, tools/bochsrc.txt)

TAIL_LINES = 30
X2APIC_TCG = (8, 1)  # the first QEMU whose TCG emulates an x2APIC
SKIP = "skip"  # check()'s verdict for a configuration this host cannot run
MIB = 1024


def cfg(name, machine="q35", cpu="max", smp=2, mem=256, ref="HPET",
        cpus=None, maxcpus=None, extra=(), append="", expect_log=None,
        reject_log=r".*(WARNING|BUG|Kernel panic).*", ci=False,
        no_uefi=None, min_qemu=None):
    """One configuration: what QEMU gets and what the boot must show.
    ci: in the subset --ci runs (.ci/run: a few seconds each);
    no_uefi: why it cannot boot under OVMF (SKIP with --loader uefi);
    ref: the calibration reference the machine offers (None: any);
    cpus: the CPUs rtk must bring online (default smp);
    maxcpus: QEMU's hot-pluggable CPUs, MADT entries marked disabled;
    expect_log: a regex the boot log must match (e.g. the APIC mode);
    reject_log: a regex it must not match;
    min_qemu: (major, minor), the oldest QEMU that can run it (SKIP on
    an older one, before booting)."""
    return dict(name=name, machine=machine, cpu=cpu, smp=smp, mem=mem,
                ref=ref, cpus=smp if cpus is None else cpus,
                smp_arg=str(smp) + (",maxcpus=%d" % maxcpus if maxcpus else ""),
                extra=list(extra), append=append, expect_log=expect_log,
                reject_log=reject_log, ci=ci, no_uefi=no_uefi,
                min_qemu=min_qemu)


# Cheapest first: the firmware differences at 2 CPUs / 256 MiB, then the
# CPU models, then CPU counts, then memory sizes.
CONFIGS = [
    cfg("q35"),
    cfg("q35-no-hpet", machine="q35,hpet=off", ref="ACPI PM timer",
        ci=True),
    cfg("pc", machine="pc"),
    cfg("pc-no-hpet", machine="pc,hpet=off", ref="ACPI PM timer"),
    # No ACPI at all: the PIT is the only reference left, and without an
    # MADT rtk boots on the boot CPU alone (it does not read the Intel MP
    # table SeaBIOS also provides).
    cfg("pc-no-acpi", machine="pc,acpi=off", ref="PIT", cpus=1, ci=True,
        no_uefi="OVMF prints nothing and never starts GRUB without ACPI"),
    cfg("cpu-qemu64", cpu="qemu64"),
    cfg("cpu-Nehalem", cpu="Nehalem"),
    cfg("cpu-Skylake-Client", cpu="Skylake-Client"),
    cfg("cpu-EPYC", cpu="EPYC"),
    cfg("smp-1", smp=1),
    cfg("smp-4", smp=4),
    cfg("smp-8", smp=8),
    cfg("smp-16", smp=16),
    cfg("smp-32", smp=32),
    # MADT quirks QEMU can make: 78 disabled (hot-pluggable) CPU entries
    # beside 2 enabled; 66 enabled CPUs, more than NR_CPUS (64): rtk
    # warns and runs on the first 64.
    cfg("madt-disabled-cpus", maxcpus=80, ci=True),
    cfg("madt-66-cpus", smp=66, cpus=64,
        expect_log=r"more CPUs than RTK_MAX_CPUS"),
    # Every AP given up while it still starts (timeout below the INIT
    # delay): each must stay parked, never wake into the next CPU's
    # trampoline parameters nor be INITed once online - found at 66 CPUs.
    cfg("smp-ap-given-up", smp=4, cpus=0, append="smp.ap_timeout_ms=1",
        reject_log=r".*(WARNING|BUG|Kernel panic).*", ci=True),
    # An AP woken with another APIC ID's trampoline parameters (CPU 1's
    # block names a wrong one): the trampoline parks it before it takes
    # the stack, the boot CPU reports it and goes on without it.
    cfg("smp-stray-ap", smp=2, cpus=0, append="smp.stray_test",
        expect_log=r"APIC ID 1 woke with CPU 1's parameters .* parked",
        ci=True),
    # CPU 1 online but parked before its scheduler starts while the
    # boot CPU wakes ksoftirqd/1 onto it (kernel/sched/idle.c idle_init):
    # a NULL rq->curr there oopsed in check_preempt.
    cfg("smp-ap-startup-race", smp=2, append="sched.ap_startup_race",
        reject_log=r".*(Oops|BUG|Kernel panic).*", ci=True),
    cfg("mem-64M", mem=64),
    cfg("mem-1G", mem=1024),
    cfg("mem-8G", mem=8192, ci=True),
    # x2APIC: QEMU's TCG emulates it from 8.1 on (QEMU 10: make
    # qemu-fetch, QEMU10=1), where -cpu max has it too, so every other
    # row there boots rtk in x2APIC mode and xapic-max keeps the MMIO
    # path covered.  An older QEMU (Debian 12's 7.2) drops +x2apic with a
    # warning: SKIP, and the x2APIC check is Bochs (BOCHS=1,
    # bochs-x2apic) plus the host test lapic_encoding.
    cfg("x2apic", cpu="max,+x2apic", expect_log=r"lapic: x2APIC mode",
        min_qemu=X2APIC_TCG),
    cfg("x2apic-qemu64", cpu="qemu64,+x2apic",
        expect_log=r"lapic: x2APIC mode", min_qemu=X2APIC_TCG),
    cfg("xapic-max", cpu="max,-x2apic", expect_log=r"lapic: xAPIC mode"),
]


def iso_for(args, append):
    """The ISO whose GRUB entries pass `append` (made once per string)."""
    if not append:
        return args.iso
    if append not in args.isos:
        d = tempfile.mkdtemp(prefix="append-", dir=args.tmpdir)
        args.isos[append] = make_iso(argparse.Namespace(
            append=append, iso=args.iso, elf=args.elf, tmpdir=d,
            grub_cfg=args.grub_cfg))
    return args.isos[append]


def qemu_cmd(args, c):
    """QEMU for configuration c under args.loader: QEMU's own multiboot
    loader (-kernel), or GRUB from the ISO under SeaBIOS or OVMF."""
    if args.loader == "kernel":
        boot = ["-kernel", args.elf, "-append", c["append"]]
    else:
        boot = (["-cdrom", iso_for(args, c["append"]), "-boot", "d"] +
                firmware_args(args.loader, args.ovmf, args.tmpdir))
    return [args.qemu, "-machine", c["machine"], "-cpu", c["cpu"],
            "-smp", c["smp_arg"], "-m", "%dM" % c["mem"],
            "-accel", "tcg"] + boot + [
            "-serial", "stdio", "-display", "none", "-monitor", "none",
            "-no-reboot",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=4"] + c["extra"]


def command(s, line, pattern, deadline):
    """Type `line`, wait for `pattern` then the next prompt; the match."""
    start = len(s.buf)
    if not s.send(line + "\r"):
        return None
    m = s.wait_for(pattern, start, deadline)
    if m and not s.wait_for(re.escape(PROMPT), m.end(), deadline):
        return None
    return m


def check(s, args, c, start):
    """Steps [1]..[5]; returns (ok, message, seconds to the prompt); ok
    is True, False or SKIP."""
    deadline = start + args.timeout
    m = s.wait_for(re.escape(PROMPT), 0, deadline)  # [1]
    if not m:
        return False, "no prompt: " + s.why_stopped(args.timeout), None
    t = time.monotonic() - start
    log = s.buf[:m.start()].decode("utf-8", "replace")
    notes = []
    cal = re.search(r"calibrated against the ([A-Za-z ]+?) \(", log)  # [2]
    if not cal:
        return False, "no 'time: TSC ... calibrated' line", t
    notes.append("ref " + cal.group(1))
    if c["ref"] and cal.group(1) != c["ref"]:
        return False, "TSC calibrated against the %s, expected the %s" % (
            cal.group(1), c["ref"]), t
    if c["expect_log"] and not re.search(c["expect_log"], log):
        lap = re.search(r"lapic: .*", log)
        return False, "boot log lacks /%s/ (saw '%s')" % (
            c["expect_log"], lap.group(0).strip() if lap else "-"), t
    cmd_deadline = min(deadline, time.monotonic() + 60)
    m = command(s, "smp", rb"(\d+) of (\d+) CPUs online", cmd_deadline)  # [3]
    if not m:
        return False, "`smp` did not answer", t
    online, found = int(m.group(1)), int(m.group(2))
    notes.append("%d/%d CPUs" % (online, found))
    if c["cpus"] == 0:
        pass  # any number may come up in time
    elif online != c["cpus"] or found != c["cpus"]:
        return False, "`smp`: %d of %d CPUs online, expected %d of %d" % (
            online, found, c["cpus"], c["cpus"]), t
    m = command(s, "mem", rb"RAM: +(\d+) KiB usable", cmd_deadline)  # [4]
    if not m:
        return False, "`mem` did not answer", t
    kib = int(m.group(1))
    want = c["mem"] * MIB
    notes.append("%d MiB usable" % (kib // MIB))
    # Usable RAM is -m less the firmware's share: the BIOS area below
    # 1 MiB, ACPI tables and SeaBIOS's reservations at the top of low RAM
    # (well under a MiB); 8% or 8 MiB, whichever is more, leaves room for
    # OVMF's (about 6 MiB: 58 MiB of -m 64M under LOADER=uefi).
    if not want - max(want * 0.08, 8 * MIB) <= kib <= want:
        return False, "`mem`: %d KiB usable, expected about %d KiB" % (
            kib, want), t
    bad = re.search(c["reject_log"], log)  # [5]
    if bad:
        return False, "boot log: " + bad.group(0).strip(), t
    s.send("poweroff\r")  # [6]
    return True, ", ".join(notes), t


def qemu_version(qemu):
    """(major, minor) from `QEMU --version`; (0, 0) if it says none."""
    out = subprocess.run([qemu, "--version"], capture_output=True,
                         text=True).stdout
    m = re.search(r"version (\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def run_one(args, c):
    logpath = os.path.join(args.logdir, "machines-%s%s.log" % (
        c["name"], "" if args.loader == "kernel" else "-" + args.loader))
    start = time.monotonic()
    s = Serial(qemu_cmd(args, c), logpath)
    ok, msg, t = False, "internal error", None
    try:
        ok, msg, t = check(s, args, c, start)
    finally:
        rc = s.close(grace=15 if ok is True else 0)
    if ok is True and rc not in (0, 1):
        ok, msg = False, msg + "; QEMU did not power off (status %s)" % rc
    if ok is False and args.verbose:
        text = s.buf.decode("utf-8", "replace").replace("\r", "")
        print("---- %s: last %d lines (%s) ----" % (c["name"], TAIL_LINES,
                                                    logpath))
        for line in text.splitlines()[-TAIL_LINES:]:
            print(line)
        print("----")
    return ok, msg, t


def run_bochs(args):
    """Bochs (tools/bochsrc.txt: 2 CPUs, `cpuid: apic=x2apic`) booting
    --bochs-iso, whose default GRUB entry must be the text-mode one
    (Makefile: build/rtk-text.iso): the boot log must say x2APIC mode and
    2 CPUs online, and `smp` typed on COM1 (a pty) must answer.
    Returns (ok, message, seconds to the prompt)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    outdir = tempfile.mkdtemp(prefix="rtk-bochs-", dir=args.logdir)
    p, out = bochs.start_bochs(bochs.bochs_env(
        args.bochs_iso, "term", os.ttyname(slave), outdir), outdir)
    start = time.monotonic()
    buf, t, stage = b"", None, 0
    try:
        while p.poll() is None and time.monotonic() < start + args.timeout:
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                buf += os.read(master, 4096)
            if stage == 0 and PROMPT in buf:
                t, stage = time.monotonic() - start, 1
                os.write(master, b"smp\r")
            elif stage == 1 and re.search(rb"\d+ of \d+ CPUs online.*\n"
                                          rb"(?:.*\n)*.*rtk> ", buf):
                stage = 2
                break
    finally:
        bochs.stop_bochs(p, 0)
        out.close()
        os.close(master)
        os.close(slave)
    log = buf.decode("utf-8", "replace").replace("\r", "")
    with open(os.path.join(args.logdir, "machines-bochs-x2apic.log"),
              "w") as f:
        f.write(log)
    if stage == 0:
        msg = bochs.exit_message(outdir)
        return False, "no prompt (Bochs: %s; log in %s)" % (
            msg or "timeout after %d s" % args.timeout, outdir), None
    lap = re.search(r"lapic: (\S+) mode", log)
    if not lap or lap.group(1) != "x2APIC":
        return False, "lapic: %s mode, expected x2APIC" % (
            lap.group(1) if lap else "?"), t
    m = re.search(r"(\d+) of (\d+) CPUs online", log)
    if not m:
        return False, "`smp` did not answer", t
    if m.group(1) != "2" or m.group(2) != "2":
        return False, "`smp`: %s of %s CPUs online, expected 2 of 2" % (
            m.group(1), m.group(2)), t
    return True, "x2APIC mode, 2/2 CPUs, smp answered", t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elf", default="build/rtk.elf")
    ap.add_argument("--loader", default="kernel",
                    choices=["kernel", "bios", "uefi"],
                    help="QEMU -kernel, or GRUB from --iso under SeaBIOS "
                    "or OVMF")
    ap.add_argument("--iso", default="build/rtk.iso")
    ap.add_argument("--grub-cfg", default="boot/grub.cfg")
    ap.add_argument("--ovmf", default="")
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds to the prompt, per configuration")
    ap.add_argument("--only", default="",
                    help="comma-separated substrings of configuration names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--ci", action="store_true",
                    help="only the configurations marked ci (CI's subset)")
    ap.add_argument("--bochs-iso", default="",
                    help="also boot this text-mode ISO in Bochs with an "
                    "x2APIC (minutes)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the serial tail of each failure")
    args = ap.parse_args(argv)
    pick = [w for w in args.only.split(",") if w]
    configs = [c for c in CONFIGS
               if (not pick or any(w in c["name"] for w in pick))
               and (c["ci"] or not args.ci)]
    if args.list:
        for c in configs:
            print("%-20s -machine %s -cpu %s -smp %s -m %dM" % (
                c["name"], c["machine"], c["cpu"], c["smp_arg"], c["mem"]))
        return 0
    if not os.path.exists(args.elf):
        print("test_machines: %s does not exist" % args.elf)
        return 1
    args.logdir = os.path.dirname(os.path.abspath(args.elf))
    if args.loader != "kernel" and not os.path.exists(args.iso):
        print("test_machines: %s does not exist" % args.iso)
        return 1
    if args.loader == "uefi":
        args.ovmf = find_ovmf(args.ovmf)
        if not args.ovmf:
            print("test_machines: no OVMF image (package ovmf; --ovmf)")
            return 1
    args.version = qemu_version(args.qemu)
    args.tmpdir = tempfile.mkdtemp(prefix="rtk-machines-")
    args.isos = {}
    try:
        return run_all(args, configs, pick)
    finally:
        shutil.rmtree(args.tmpdir, ignore_errors=True)


def run_all(args, configs, pick):
    results = []
    for c in configs:
        if args.loader == "uefi" and c["no_uefi"]:
            ok, msg, t = SKIP, c["no_uefi"], None
        elif c["min_qemu"] and args.version < c["min_qemu"]:
            ok, msg, t = SKIP, ("QEMU %d.%d's TCG has no x2APIC (%d.%d has: "
                                "make qemu-fetch, QEMU10=1; BOCHS=1 runs "
                                "bochs-x2apic)" % (args.version +
                                                   c["min_qemu"])), None
        else:
            ok, msg, t = run_one(args, c)
        results.append(ok)
        report(ok, c["name"], t, msg)
    if args.bochs_iso and (not pick or any(w in "bochs-x2apic"
                                           for w in pick)):
        ok, msg, t = run_bochs(args)
        results.append(ok)
        report(ok, "bochs-x2apic", t, msg)
    failed = results.count(False)
    print("test-machines: %d passed, %d failed, %d skipped (logs: "
          "%s/machines-*.log)" % (results.count(True), failed,
                                  results.count(SKIP), args.logdir))
    return 1 if failed else 0


def report(ok, name, t, msg):
    word = "SKIP" if ok == SKIP else "PASS" if ok else "FAIL"
    print("%s %-20s %7s  %s" % (word, name,
                                "%.1fs" % t if t is not None else "-", msg),
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
