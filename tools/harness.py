#!/usr/bin/env python3
"""tools/harness.py - run rtk's host unit tests and in-kernel self-tests.

`make test` calls this.  It runs every tests/host binary (each prints one
KTAP version 1 suite), then boots build/rtk.elf in QEMU with `selftest`
(QEMU's -kernel loader, serial line on a pipe), parses the KTAP the kernel
prints, prints every failed test with its diagnostic, and ends with the
plain line `N passed, N failed, N skipped` over host and kernel tests.

Exit status: 0 when everything passed; 1 on any failed test, a kernel
crash (panic, oops outside a test that expected it, QEMU gone before the
done line: a triple fault with -no-reboot), a missing or inconsistent
summary, a timeout, or a host binary that crashed or tripped a sanitizer.

The KTAP parser is tools/ktap.py (also used by bochs.py and labs.py).
Linux counterpart: tools/testing/kunit/kunit_parser.py (much smaller).
Python 3 standard library only.
"""
import argparse
import concurrent.futures
import os
import re
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ktap import (DONE_LINE, Case, clean_line, parse_ktap,  # noqa: E402
                  write_ktap)

SANITIZER_RE = re.compile(
    r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
    r"SUMMARY: (Address|Undefined|Leak)Sanitizer")
HOST_TIMEOUT = 60
POWEROFF_GRACE = 15  # seconds QEMU may take to exit after the done line
PANIC_GRACE = 3     # seconds of output kept after "Kernel panic"
TAIL_LINES = 40


# ---------------------------------------------------------------- host side

def run_host_binary(path):
    """Run one host test; returns (Report, synthetic failure Case or None)."""
    name = os.path.basename(path)
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "halt_on_error=1:abort_on_error=0")
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    start = time.monotonic()
    try:
        p = subprocess.run([path], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=HOST_TIMEOUT, env=env)
        out, err, rc = p.stdout, p.stderr, p.returncode
        why = None
    except subprocess.TimeoutExpired as e:
        out, err, rc = e.stdout or b"", e.stderr or b"", None
        why = "timed out after %d s" % HOST_TIMEOUT
    out = out.decode("utf-8", "replace")
    err = err.decode("utf-8", "replace")
    rep = parse_ktap(out.splitlines(), host=True)
    rep.raw = out
    rep.err = err
    rep.binary = name
    rep.elapsed = time.monotonic() - start
    if why is None and rc != 0:
        why = ("killed by signal %d" % -rc) if rc < 0 else \
            "exit status %d" % rc
    if why is None and SANITIZER_RE.search(err + out):
        why = "sanitizer report"
    if why is None and rep.problems:
        why = "; ".join(rep.problems)
    if why is None and not rep.suites:
        why = "printed no KTAP suite"
    if why is None:
        return rep, None
    failed_already = any(c.status == "fail" for c in rep.cases())
    if failed_already and not SANITIZER_RE.search(err) and rc is not None \
            and rc > 0 and not rep.problems:
        return rep, None  # the KTAP already shows the failure
    diag = ["# %s: %s" % (name, why)] + \
        ["# stderr: " + l for l in sanitizer_excerpt(err)]
    return rep, Case("host-" + name.replace("test_", "", 1), 0, "run",
                     "fail", diag)


def sanitizer_excerpt(err):
    """The useful part of stderr: each sanitizer report's head and its
    SUMMARY line (not ASan's shadow-byte legend), else the last lines."""
    lines = [l for l in err.splitlines() if l.strip()]
    out = []
    for i, l in enumerate(lines):
        if SANITIZER_RE.search(l) and not l.startswith("SUMMARY"):
            out += lines[i:i + 8]
        elif l.startswith("SUMMARY:"):
            out.append(l)
    out = list(dict.fromkeys(out))  # drop repeats, keep the order
    return out[:30] if out else lines[-15:]


def run_host_tests(bindir):
    bins = sorted(os.path.join(bindir, f) for f in os.listdir(bindir)
                  if f.startswith("test_") and
                  os.access(os.path.join(bindir, f), os.X_OK) and
                  os.path.isfile(os.path.join(bindir, f)))
    if not bins:
        return [], [Case("host", 1, "host-tests", "fail",
                         ["# no test_* executables in %s" % bindir])]
    workers = max(1, min(len(bins), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as ex:
        results = list(ex.map(run_host_binary, bins))
    reports = [r for r, _ in results]
    extra = [c for _, c in results if c is not None]
    return reports, extra


# -------------------------------------------------------------- kernel side

def kvm_usable():
    try:
        fd = os.open("/dev/kvm", os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return False
    os.close(fd)
    return True


def qemu_command(args):
    accel = args.accel
    if accel == "kvm" and not kvm_usable():
        print("harness: warning: ACCEL=kvm but /dev/kvm cannot be opened; "
              "using TCG", file=sys.stderr)
        accel = "tcg"
    cpu = args.cpu
    if accel == "kvm" and cpu == "max":
        # Nested KVM (seen on Debian 12's QEMU 7.2) aborts at start with
        # "failed to set MSR 0x10a" (IA32_ARCH_CAPABILITIES) for -cpu
        # max/host; rtk never reads that MSR, so hide it.
        cpu = "max,-arch-capabilities"
    append = "selftest" + ("=" + args.selftest if args.selftest else "")
    if args.append:
        append += " " + args.append
    cmd = [args.qemu, "-machine", args.machine, "-cpu", cpu,
           "-smp", str(args.smp), "-m", args.mem,
           "-kernel", args.elf, "-append", append,
           "-serial", "stdio", "-display", "none", "-monitor", "none",
           "-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
           # COM2, LPPTEST's stimulus line (tests/kernel/test_lpptest.c)
           "-serial", "null"]
    # the user programs (kernel/user/initramfs.c): only when built, so a
    # tree without user/ programs still boots and tests; a comma list is
    # one boot module each (QEMU's multiboot -initrd), those that exist
    initrds = [p for p in (getattr(args, "initrd", None) or "").split(",")
               if p and os.path.exists(p)]
    if initrds:
        cmd += ["-initrd", ",".join(initrds)]
    if args.icount is not None:
        cmd += ["-accel", "tcg,thread=single",
                "-icount", "shift=%s,sleep=off" % args.icount]
        if accel == "kvm":
            print("harness: warning: --icount needs TCG; ignoring kvm",
                  file=sys.stderr)
    else:
        cmd += ["-accel", accel]
    return cmd


class SerialWatch:
    """Split an emulator's serial bytes into lines (logging them) and say
    when the run must stop: timeout, a panic, or no exit after the done
    line.  Used for QEMU here and for Bochs by tools/bochs.py."""

    def __init__(self, timeout, emulator, log=None, echo=False):
        self.start = time.monotonic()
        self.deadline = self.start + timeout
        self.timeout = timeout
        self.emulator = emulator
        self.log = log
        self.echo = echo
        self.lines = []
        self.partial = b""
        self.done_at = self.panic_at = None

    def _add(self, line):
        self.lines.append(line)
        if self.log:
            self.log.write(line + "\n")
        if self.echo:
            print(line, flush=True)
        if self.done_at is None and DONE_LINE in line:
            self.done_at = time.monotonic()
        if self.panic_at is None and "Kernel panic" in line:
            self.panic_at = time.monotonic()

    def feed(self, data):
        *complete, self.partial = (self.partial + data).split(b"\n")
        for b in complete:
            self._add(b.decode("utf-8", "replace").rstrip("\r"))
        if self.log:
            self.log.flush()

    def finish(self):
        if self.partial:
            self._add(self.partial.decode("utf-8", "replace").rstrip("\r"))
            self.partial = b""
        return time.monotonic() - self.start

    def must_stop(self):
        """A reason to stop the emulator now, or None."""
        now = time.monotonic()
        if now > self.deadline:
            return "timeout: no end of run after %d s" % self.timeout
        if self.done_at is not None and now > self.done_at + POWEROFF_GRACE:
            return ("the kernel printed the done line but %s did not exit "
                    "within %d s (poweroff broken?)" %
                    (self.emulator, POWEROFF_GRACE))
        if self.panic_at is not None and now > self.panic_at + PANIC_GRACE:
            return "kernel panic (%s stopped %d s after it)" % (
                self.emulator, PANIC_GRACE)
        return None

    def exited_why(self, status):
        """Why the run is bad when the emulator exited by itself."""
        if self.done_at is None:
            return ("%s exited (%s) before the done line: crash, triple "
                    "fault or reboot" % (self.emulator, status))
        return None


def run_kernel(args, log):
    """Boot the kernel once; returns (lines, why-not-clean or None, secs)."""
    cmd = qemu_command(args)
    log.write("# " + " ".join(cmd) + "\n")
    log.flush()
    watch = SerialWatch(args.timeout, "QEMU", log)
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    fd = p.stdout.fileno()
    why = None
    try:
        while why is None:
            why = watch.must_stop()
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break  # QEMU exited (poweroff, crash, triple fault)
                watch.feed(chunk)
    finally:
        if p.poll() is None:
            p.kill()
        rc = p.wait()
        secs = watch.finish()
        log.write("# qemu exit status %s\n" % rc)
        log.flush()
    # isa-debug-exit exits with (value << 1) | 1; ACPI S5 exits with 0.
    if why is None:
        why = watch.exited_why("status %s" % rc)
    return watch.lines, why, secs


def print_tail(lines, what="serial output"):
    print("---- last %d lines of %s ----" % (TAIL_LINES, what))
    for line in lines[-TAIL_LINES:]:
        print(clean_line(line))
    print("----")


# ------------------------------------------------------------------- output

def print_failure(c):
    print("FAIL %s.%s" % (c.suite, c.name))
    for d in c.diag:
        print("    " + d)
    if not c.diag:
        for ctx in c.context[-10:]:
            print("    | " + ctx)
        if not c.context:
            print("    (no diagnostic printed)")


def judge(host_reports, host_extra, kernel_rep, kernel_why):
    """Print failures and the summary line; return the exit status."""
    bad = False
    cases = [c for r in host_reports for c in r.cases()] + host_extra
    if kernel_rep is not None:
        cases += kernel_rep.cases()
    for c in cases:
        if c.status == "fail":
            print_failure(c)
            bad = True
    if kernel_rep is not None:
        for s in kernel_rep.suites:
            if s.result == "skip" or (s.plan == 0 and s.skip_reason):
                print("SKIP suite %s: %s" % (s.name, s.skip_reason))
        if kernel_rep.expected_oopses:
            print("note: %d expected oops(es) (faults raised on purpose)"
                  % kernel_rep.expected_oopses)
    # A crash, a timeout or a broken summary counts as one failed test,
    # "kernel.run", so the summary line can never read "0 failed" then.
    run_diag = []
    if kernel_rep is not None:
        run_diag += ["# crash at serial line %d%s: %s" %
                     (lineno, " (in %s)" % where if where else "",
                      line.strip())
                     for lineno, line, where in kernel_rep.crashes]
        run_diag += ["# " + p for p in kernel_rep.problems]
    if kernel_why:
        run_diag.insert(0, "# " + kernel_why)
    if run_diag:
        run = Case("kernel", 1, "run", "fail", run_diag)
        print_failure(run)
        cases.append(run)
    passed = sum(c.status == "pass" for c in cases)
    failed = sum(c.status == "fail" for c in cases)
    skipped = sum(c.status == "skip" for c in cases)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if bad or failed else 0


def check_requested(rep, selftest):
    if not selftest:
        return
    ran = {s.name for s in rep.suites}
    for name in selftest.split(","):
        if name and name not in ran:
            rep.problems.append("suite '%s' was requested but did not run"
                                % name)


def source_suites():
    """The suite names of tests/kernel/*.c (what a kernel built from this
    tree has), or None when the sources are not beside this script."""
    d = os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "tests", "kernel")
    if not os.path.isdir(d):
        return None
    names = set()
    for f in os.listdir(d):
        if f.endswith(".c"):
            with open(os.path.join(d, f), errors="replace") as fh:
                names.update(re.findall(
                    r"^KTEST_SUITE(?:_INIT)?\(\s*(\w+)", fh.read(), re.M))
    return names


def unknown_suites(selftest):
    """Print why SELFTEST= names a suite no source defines, with the list
    of suites; True when it does (nothing is booted then)."""
    have = source_suites()
    if not selftest or not have:
        return False
    bad = [n for n in selftest.split(",") if n and n not in have]
    if not bad:
        return False
    for n in bad:
        print("harness: SELFTEST=%s: no suite '%s' in tests/kernel" %
              (selftest, n))
    print("harness: the suites are:")
    names = sorted(have)
    for i in range(0, len(names), 6):
        print("    " + " ".join(names[i:i + 6]))
    print("0 passed, %d failed, 0 skipped" % len(bad))
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host-bin", help="directory of test_* host binaries")
    ap.add_argument("--elf", help="kernel image to boot with selftest")
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--smp", default="4")
    ap.add_argument("--mem", default="256M")
    ap.add_argument("--accel", default="tcg", choices=["tcg", "kvm"])
    ap.add_argument("--machine", default="q35")
    ap.add_argument("--cpu", default="max")
    ap.add_argument("--append", default="", help="extra kernel arguments")
    ap.add_argument("--initrd", help="initramfs (cpio) passed as -initrd "
                    "when the file exists; a comma list: one boot module "
                    "each")
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds for the whole kernel run")
    ap.add_argument("--selftest", default="",
                    help="comma-separated suites (default: all)")
    ap.add_argument("--icount", help="icount shift (single-threaded TCG)")
    ap.add_argument("--log", help="serial log file (host outputs when "
                    "there is no --elf; else they go to HOST_BIN/output.log)")
    ap.add_argument("--ktap", help="merged KTAP output (default: "
                    "results.ktap next to --log, HOST_BIN/results.ktap "
                    "for host tests alone)")
    ap.add_argument("--parse", metavar="FILE",
                    help="only parse a saved serial log (no QEMU)")
    args = ap.parse_args(argv)
    if not (args.host_bin or args.elf or args.parse):
        ap.error("nothing to do: give --host-bin, --elf or --parse")
    if args.elf and not args.parse and unknown_suites(args.selftest):
        return 1

    host_reports, host_extra = [], []
    if args.host_bin:
        if os.path.isdir(args.host_bin):
            host_reports, host_extra = run_host_tests(args.host_bin)
        else:
            host_extra = [Case("host", 1, "host-tests", "fail",
                               ["# %s is not a directory" % args.host_bin])]
        n = sum(len(r.cases()) for r in host_reports)
        print("harness: host: %d binaries, %d tests" % (len(host_reports), n))

    kernel_rep, kernel_why, lines = None, None, []
    if args.parse:
        with open(args.parse, errors="replace") as f:
            lines = f.read().splitlines()
        kernel_rep = parse_ktap(lines)
    elif args.elf:
        logpath = args.log or os.path.join(os.path.dirname(args.elf) or ".",
                                           "kernel-test.log")
        os.makedirs(os.path.dirname(logpath) or ".", exist_ok=True)
        with open(logpath, "w") as log:
            lines, kernel_why, secs = run_kernel(args, log)
        print("harness: kernel: %d lines of serial output in %.1f s "
              "(log: %s)" % (len(lines), secs, logpath))
        kernel_rep = parse_ktap(lines)
    if kernel_rep is not None:
        check_requested(kernel_rep, args.selftest)

    if host_reports:
        # every host binary's stdout and stderr, for a closer look
        hostlog = args.log if (args.log and not args.elf) else \
            os.path.join(args.host_bin, "output.log")
        with open(hostlog, "w") as f:
            for r in host_reports:
                f.write("#### %s (%.1f s)\n%s%s" % (r.binary, r.elapsed,
                                                   r.raw, r.err))
    ktap = args.ktap
    if not ktap:
        if args.host_bin and not args.elf:
            ktap = os.path.join(args.host_bin, "results.ktap")
        elif args.log:
            ktap = os.path.join(os.path.dirname(args.log) or ".",
                                "results.ktap")
        elif args.elf:
            ktap = os.path.join(os.path.dirname(args.elf) or ".",
                                "results.ktap")
    reports = host_reports + ([kernel_rep] if kernel_rep else [])
    if ktap:
        write_ktap(ktap, reports)

    status = judge(host_reports, host_extra, kernel_rep, kernel_why)
    if status and lines and (kernel_why or kernel_rep.crashes or
                             kernel_rep.problems):
        print_tail(lines)
    return status


if __name__ == "__main__":
    sys.exit(main())
