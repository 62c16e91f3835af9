#!/usr/bin/env python3
"""tools/iso_test.py - boot build/rtk.iso under BIOS and UEFI and talk to
the shell.  `make iso-test` calls this.

For each firmware (SeaBIOS, QEMU's default; OVMF for UEFI) QEMU boots the
ISO with the serial line on a pipe; GRUB's default entry (boot/grub.cfg)
starts the shell.  The test waits for the prompt "rtk> ", sends
"echo iso-ok", expects "iso-ok" alone on a line followed by a new prompt,
then sends "poweroff".  It prints PASS/FAIL per firmware with the time to
the first prompt and exits non-zero if either failed.  QEMU is always
killed at the end.  Python 3 standard library only.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

PROMPT = b"rtk> "
TAIL_LINES = 40


class Serial:
    """QEMU with -serial stdio, read by a thread into one byte buffer."""

    def __init__(self, cmd, logpath):
        self.buf = b""
        self.cond = threading.Condition()
        self.eof = False
        self.log = open(logpath, "wb")
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.t = threading.Thread(target=self._reader, daemon=True)
        self.t.start()

    def _reader(self):
        fd = self.p.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            with self.cond:
                if not chunk:
                    self.eof = True
                    self.cond.notify_all()
                    return
                self.buf += chunk
                self.log.write(chunk)
                self.log.flush()
                self.cond.notify_all()

    def wait_for(self, pattern, start, deadline):
        """Wait until regex `pattern` matches self.buf[start:]; returns the
        match (offsets relative to the whole buffer) or None, at once if
        the kernel panicked or QEMU exited."""
        rx = re.compile(pattern)
        with self.cond:
            while True:
                m = rx.search(self.buf, start)
                if m:
                    return m
                left = deadline - time.monotonic()
                if left <= 0 or self.eof or b"Kernel panic" in self.buf:
                    return None
                self.cond.wait(min(left, 0.5))

    def why_stopped(self, timeout):
        if b"Kernel panic" in self.buf:
            return "kernel panic"
        if self.eof:
            return "QEMU exited"
        return "timeout after %d s" % timeout

    def send(self, text):
        """Type text one byte at a time, as a person would."""
        for ch in text.encode():
            try:
                self.p.stdin.write(bytes([ch]))
                self.p.stdin.flush()
            except (BrokenPipeError, OSError):
                return False
            time.sleep(0.01)
        return True

    def close(self, grace):
        try:
            self.p.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        self.t.join(timeout=5)
        self.log.close()
        return self.p.returncode


def find_ovmf(hint):
    if hint and os.path.exists(hint):
        return hint
    for pat in ("/usr/share/OVMF/OVMF_CODE.fd", "/usr/share/OVMF/OVMF_CODE_4M.fd",
                "/usr/share/ovmf/OVMF.fd", "/usr/share/qemu/OVMF.fd",
                "/usr/share/edk2/ovmf/OVMF_CODE.fd",
                "/usr/share/edk2/x64/OVMF_CODE.fd"):
        hits = glob.glob(pat)
        if hits:
            return hits[0]
    return None


def firmware_args(kind, ovmf, tmpdir):
    """-bios/pflash arguments for `kind` ("bios" or "uefi")."""
    if kind == "bios":
        return []
    base = os.path.basename(ovmf)
    if "CODE" not in base:
        return ["-bios", ovmf]  # a combined image (OVMF.fd)
    # Split image: read-only code plus a private writable copy of the vars.
    vars_src = os.path.join(os.path.dirname(ovmf),
                            base.replace("CODE", "VARS").replace(".secboot", "")
                            .replace(".ms", ""))
    args = ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + ovmf]
    if os.path.exists(vars_src):
        dst = os.path.join(tmpdir, "OVMF_VARS.fd")
        shutil.copyfile(vars_src, dst)
        args += ["-drive", "if=pflash,format=raw,unit=1,file=" + dst]
    return args


def talk(s, args, start, deadline):
    """The conversation with the shell; returns (ok, message)."""
    m = s.wait_for(re.escape(PROMPT), 0, deadline)
    if not m:
        return False, "no 'rtk> ' prompt: " + s.why_stopped(args.timeout)
    t_prompt = time.monotonic() - start
    if not s.send("echo iso-ok\r"):
        return False, "QEMU closed its serial input"
    # the shell echoes the typed line, then prints the output line
    m = s.wait_for(rb"\niso-ok\r?\n(?:.*\n)*?.*?" + re.escape(PROMPT),
                   m.end(), min(deadline, time.monotonic() + 30))
    if not m:
        return False, ("prompt after %.1f s, but no 'iso-ok' line and "
                       "prompt after 'echo iso-ok'" % t_prompt)
    s.send("poweroff\r")
    return True, "prompt after %.1f s, echo answered" % t_prompt


def boot_once(kind, args, tmpdir):
    """Boot the ISO under one firmware; returns (ok, message)."""
    logpath = os.path.join(args.logdir, "iso-test-%s.log" % kind)
    cmd = [args.qemu, "-machine", "q35", "-m", args.mem, "-smp", args.smp,
           "-accel", args.accel,
           "-cdrom", args.iso, "-boot", "d",
           "-serial", "stdio", "-display", "none", "-monitor", "none",
           "-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=4"]
    if args.cpu:
        cmd += ["-cpu", args.cpu]
    cmd += firmware_args(kind, args.ovmf, tmpdir)
    start = time.monotonic()
    s = Serial(cmd, logpath)
    ok, msg = False, "internal error"
    try:
        ok, msg = talk(s, args, start, start + args.timeout)
    finally:
        rc = s.close(grace=10 if ok else 0)
    if ok:
        # isa-debug-exit: status (0 << 1) | 1 = 1; ACPI S5: 0
        msg += (", powered off" if rc in (0, 1) else
                ", but QEMU did not power off (status %s)" % rc)
        ok = rc in (0, 1)
    if not ok:
        print("---- %s: last %d lines of serial output (%s) ----" %
              (kind, TAIL_LINES, logpath))
        text = s.buf.decode("utf-8", "replace").replace("\r", "")
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
        for line in text.splitlines()[-TAIL_LINES:]:
            print(line)
        print("----")
    return ok, msg


def run_firmwares(kinds, args, boot):
    """boot(kind) -> (ok, message) for each firmware in kinds ("bios",
    "uefi"; OVMF looked up first, into args.ovmf); prints PASS/FAIL per
    firmware and returns the exit status.  tools/screen_test.py uses it
    too."""
    results = {}
    for kind in kinds:
        if kind == "uefi":
            args.ovmf = find_ovmf(args.ovmf)
            if not args.ovmf:
                results[kind] = (False, "no OVMF image found (package "
                                 "ovmf; pass --ovmf PATH)")
                continue
        results[kind] = boot(kind)
    bad = 0
    for kind in kinds:
        ok, msg = results[kind]
        bad += not ok
        print("%s %s: %s" % ("PASS" if ok else "FAIL",
                             "BIOS" if kind == "bios" else "UEFI", msg))
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iso", required=True)
    ap.add_argument("--ovmf", default="", help="OVMF code or combined image")
    ap.add_argument("--timeout", type=int, default=120,
                    help="seconds to the prompt, per firmware")
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--mem", default="256M")
    ap.add_argument("--smp", default="2")
    ap.add_argument("--accel", default="tcg", choices=["tcg", "kvm"])
    ap.add_argument("--cpu", default="",
                    help="QEMU -cpu model (default: QEMU's own, qemu64)")
    ap.add_argument("--only", choices=["bios", "uefi"],
                    help="boot under one firmware only")
    args = ap.parse_args(argv)
    if not os.path.exists(args.iso):
        print("iso_test: %s does not exist" % args.iso)
        return 1
    args.logdir = os.path.dirname(os.path.abspath(args.iso))
    kinds = [args.only] if args.only else ["bios", "uefi"]
    with tempfile.TemporaryDirectory(prefix="rtk-iso-") as tmpdir:
        return run_firmwares(kinds, args,
                             lambda kind: boot_once(kind, args, tmpdir))


if __name__ == "__main__":
    sys.exit(main())
