#!/usr/bin/env python3
"""tools/fbcon_latency.py - what the screen console adds to the longest
preempt-off and irqs-off sections while `dmesg` scrolls the screen.
`make fbcon-latency` calls it with a LATENCY_TIMING=1 build.

For each ISO given (the same kernel with the screen console on, and with
fbcon=off) QEMU boots it under SeaBIOS with ONE CPU and -icount (virtual
time counts instructions, so a busy host does not stretch the figures;
with two CPUs icount runs them round-robin and a section on one CPU
would be charged the other's slice).  On the serial shell it runs
`latency reset`, then `dmesg` DMESG times (every run scrolls the whole
screen), then `latency` (the article's preempt-off / irqs-off / wakeup
maxima) and `fbcon` (fbcon's own sections under the console lock, which
the irqs-off timing does not see: the console lock disables interrupts
with the bare arch call).  It prints both outputs side by side.
"""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iso_test import Serial  # noqa: E402

PROMPT = rb"\nrtk> "


def run(s, line, timeout):
    start = len(s.buf)
    if not s.send(line + "\r"):
        raise RuntimeError("QEMU closed its serial input")
    if not s.wait_for(PROMPT, start, time.monotonic() + timeout):
        raise RuntimeError("no prompt after '%s'" % line)
    out = s.buf[start:].decode("utf-8", "replace").replace("\r", "")
    return "\n".join(out.split("\n")[1:-1])


def measure(iso, args, name):
    log = os.path.join(args.out, "fbcon-latency-%s.log" % name)
    cmd = [args.qemu, "-machine", "q35", "-smp", "1", "-m", "256M",
           "-cdrom", iso, "-boot", "d", "-display", "none",
           "-serial", "stdio", "-monitor", "none", "-no-reboot",
           "-icount", "shift=%d,sleep=off" % args.icount]
    s = Serial(cmd, log)
    try:
        if not s.wait_for(rb"rtk> ", 0, time.monotonic() + args.timeout):
            raise RuntimeError("no prompt: " + s.why_stopped(args.timeout))
        run(s, "latency reset", 60)
        for _ in range(args.dmesg):
            run(s, "dmesg", 120)
        return run(s, "latency", 60) + "\n" + run(s, "fbcon", 60)
    finally:
        s.p.kill()
        s.close(grace=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iso", required=True, help="screen console on")
    ap.add_argument("--iso-off", required=True, help="the same, fbcon=off")
    ap.add_argument("--dmesg", type=int, default=30)
    ap.add_argument("--icount", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--out", default="build")
    args = ap.parse_args()
    bad = 0
    for name, iso in (("fbcon", args.iso), ("fbcon=off", args.iso_off)):
        try:
            text = measure(iso, args, name.replace("=", "-"))
        except RuntimeError as e:
            text, bad = "FAILED: %s" % e, 1
        print("==== %s: %d x dmesg, SMP=1, -icount shift=%d ====" %
              (name, args.dmesg, args.icount))
        print(re.sub(r"\n+", "\n", text).strip())
    return bad


if __name__ == "__main__":
    sys.exit(main())
