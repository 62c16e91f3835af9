#!/usr/bin/env python3
"""tools/lpptest.py - LPPTEST's host side: interrupt latency from outside.

    tools/lpptest.py --elf rt=build-lpp-rt/rtk.elf --elf none=build-lpp-none/rtk.elf \
        --load "" --load "cpu 2; hackbench 2" --samples 2000 --out build

The article's configuration options name LPPTEST: a driver plus a user
program on a second machine that raises an interrupt and times the
answer (the -rt patch's scripts/testlpp.c).  Here the second machine is
this host and the interrupt line is the guest's COM2 (drivers/lpptest.c):

 1. the host floor first: the same ping loop against an echo thread on
    the other end of a socketpair, in this process: what Python, the
    host scheduler and a socket round trip cost with no guest at all;
 2. for each --elf MODEL=ELF and each --load: boot QEMU with COM1 on a
    pipe (the shell) and COM2 on a unix socket, wait for the prompt,
    type `load ...` (several loads separated by ";"), connect to COM2;
 3. SAMPLES times: write one byte (bit 7 clear) at a host time t0 taken
    just before the write, read the answer (the byte with bit 7 set),
    t1 just after; the sample is t1 - t0 in whole microseconds.
    Stimuli are spaced 0.5-1.5 ms apart (random: no beat with the
    guest's tick); a missing or wrong answer is counted, not timed;
 4. type an in-guest cyclictest (-S -p99 -i1000 -l LOOPS -q -h HIST),
    `load stop`, power off;
 5. write <out>/lpptest-<model>-<load>.txt: the round-trip histogram in
    the rt-tests format (one column; # Total/Min/Avg/Max lines) with the
    in-guest cyclictest's summary lines after it, a .png of the
    histogram (tools/latency.py's plotter), and one table of all runs in
    <out>/lpptest.txt, printed too.

What the figure contains: QEMU's character-device path twice (socket
read by the I/O thread, the UART model, the interrupt injected into a
vCPU; the THR write going back out), the guest's interrupt entry and
handler (plus the irq thread's wake-up with lpptest.mode=thread), and
the host floor of step 1.  Under TCG every guest instruction is
translated code sharing the host's CPUs with other work, so the
absolute figures are those of the emulator on this host, not of a PC.
Python 3 standard library only.
"""
import argparse
import os
import random
import re
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency import (PROMPT, Serial, boot_and_load, parse_output,  # noqa: E402
                     plot, qemu_cmd)

ANSWER_BIT = 0x80		# drivers/lpptest.h LPPTEST_ANSWER_BIT


def ping_loop(sock, samples, timeout):
    """Steps 3: returns (list of round trips in us, lost answers)."""
    rtts, lost = [], 0
    sock.settimeout(timeout)
    for i in range(samples):
        b = 0x20 + i % 0x5f			# printable, bit 7 clear
        t0 = time.perf_counter_ns()
        sock.sendall(bytes([b]))
        try:
            got = sock.recv(1)
        except socket.timeout:
            got = b""
        t1 = time.perf_counter_ns()
        if got != bytes([b | ANSWER_BIT]):
            lost += 1
            drain(sock)
        else:
            rtts.append((t1 - t0) // 1000)
        time.sleep(random.uniform(0.0005, 0.0015))
    return rtts, lost


def drain(sock):
    """Throw away late answers so that the next sample pairs up."""
    sock.settimeout(0.2)
    try:
        while sock.recv(64):
            pass
    except (socket.timeout, BlockingIOError):
        pass


def host_floor(samples):
    """Step 1: the same loop against an echo thread (socketpair)."""
    a, b = socket.socketpair()

    def echo():
        while True:
            c = b.recv(1)
            if not c:
                return
            b.sendall(bytes([c[0] | ANSWER_BIT]))
    th = threading.Thread(target=echo, daemon=True)
    th.start()
    rtts, lost = ping_loop(a, samples, 5)
    a.close()
    th.join(5)
    b.close()
    return rtts, lost


def histogram(rtts, size):
    """rt-tests buckets of 1 us, overflows counted apart."""
    hist = [0] * size
    over = 0
    for v in rtts:
        if v < size:
            hist[v] += 1
        else:
            over += 1
    return hist, over


def hist_text(rtts, lost, size):
    """The histogram block in cyclictest -h's format, one column."""
    hist, over = histogram(rtts, size)
    out = ["# Histogram"]
    last = max([i for i, c in enumerate(hist) if c] + [0])
    for i in range(last + 1):
        out.append("%06d %06d" % (i, hist[i]))
    n = len(rtts)
    out.append("# Total: %09d" % (n - over))
    out.append("# Min Latencies: %05d" % (min(rtts) if n else 0))
    out.append("# Avg Latencies: %05d" % (sum(rtts) // n if n else 0))
    out.append("# Max Latencies: %05d" % (max(rtts) if n else 0))
    out.append("# Histogram Overflows: %05d" % over)
    out.append("# Lost answers: %05d" % lost)
    return "\n".join(out) + "\n"


def connect(path, timeout):
    end = time.time() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.time() > end:
                raise
            time.sleep(0.1)


def run_guest(a, model, elf, load, sockdir):
    """Steps 2-4 for one model and load; returns (rtts, lost, ct_out)."""
    path = os.path.join(sockdir, "com2-%s.sock" % model)
    q = argparse.Namespace(qemu=a.qemu, smp=a.smp, mem=a.mem, elf=elf,
                           append=a.append, icount=None)
    cmd = qemu_cmd(q) + ["-serial", "unix:%s,server=on,wait=off" % path]
    loads = [x.strip() for x in load.split(";") if x.strip()]
    tag = "+".join("-".join(x.split()) for x in loads) or "idle"
    log = open(os.path.join(a.out, "lpptest-%s-%s.serial.log" %
                            (model, tag)), "wb")
    ser = Serial(cmd, log)
    try:
        boot_and_load(ser, loads)
        sock = connect(path, 30)
        ping_loop(sock, 20, 10)			# warm-up: translate the path
        rtts, lost = ping_loop(sock, a.samples, 10)
        sock.close()
        mark = ser.pos
        ser.type("cyclictest -S -p99 -i1000 -l%d -q -h %d" %
                 (a.loops, a.hist))
        ser.read_until(rb"# Histogram Overflows:[^\n]*\n", 3600)
        ser.read_until(re.escape(PROMPT), 120)
        ct_out = ser.buf[mark:].decode(errors="replace")
        if loads:
            ser.type("load stop")
            ser.read_until(rb"stopped|nothing", 120)
        ser.type("poweroff")
        time.sleep(1)
    finally:
        ser.close()
        log.close()
    return tag, cmd, rtts, lost, ct_out


def ct_summary(ct_out):
    """Min/avg/max over the in-guest cyclictest's threads."""
    _, _, extra = parse_output(ct_out)
    try:
        mins = [int(x) for x in extra["Min Latencies"]]
        avgs = [int(x) for x in extra["Avg Latencies"]]
        maxs = [int(x) for x in extra["Max Latencies"]]
    except (KeyError, ValueError):
        return "cyclictest: no summary"
    return "cyclictest Min %d Avg %d Max %d (worst CPU)" % (
        min(mins), max(avgs), max(maxs))


def row(name, load, rtts, lost, extra=""):
    n = len(rtts)
    srt = sorted(rtts)
    p99 = srt[min(n - 1, int(n * 0.99))] if n else 0
    return ("%-10s %-20s N %5d lost %3d  Min %6d Avg %6d P99 %6d Max %7d us"
            "  %s" % (name, load or "idle", n, lost, min(rtts) if n else 0,
                      sum(rtts) // n if n else 0, p99,
                      max(rtts) if n else 0, extra)).rstrip()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elf", action="append", default=[],
                    help="MODEL=ELF, repeatable")
    ap.add_argument("--load", action="append", default=None,
                    help='`load` arguments, "" for idle; repeatable')
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--loops", type=int, default=5000,
                    help="in-guest cyclictest loops")
    ap.add_argument("--hist", type=int, default=10000,
                    help="histogram buckets (us); cyclictest takes at most 10000")
    ap.add_argument("--smp", type=int, default=2)
    ap.add_argument("--mem", default="256M")
    ap.add_argument("--append", default="")
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--out", default="build")
    a = ap.parse_args(argv)
    loads = a.load if a.load is not None else ["", "cpu 2; hackbench 2"]
    os.makedirs(a.out, exist_ok=True)
    table = []

    rtts, lost = host_floor(a.samples)		# [1]
    with open(os.path.join(a.out, "lpptest-host-floor.txt"), "w") as f:
        f.write("# lpptest: host floor, socketpair echo thread\n")
        f.write(hist_text(rtts, lost, a.hist))
    table.append(row("host-floor", "", rtts, lost))
    print(table[-1], flush=True)

    with tempfile.TemporaryDirectory() as sockdir:
        for spec in a.elf:
            model, elf = spec.split("=", 1)
            for load in loads:
                t0 = time.time()
                tag, cmd, rtts, lost, ct = run_guest(a, model, elf, load,
                                                     sockdir)
                base = os.path.join(a.out, "lpptest-%s-%s" % (model, tag))
                summ = ct_summary(ct)
                with open(base + ".txt", "w") as f:
                    f.write("# lpptest: PREEMPT=%s SMP=%d load=%r, %d "
                            "samples, %.0f s\n" % (model, a.smp, load,
                                                   a.samples,
                                                   time.time() - t0))
                    f.write("# qemu: %s\n" % " ".join(cmd))
                    f.write("# round trip host -> COM2 irq -> answer "
                            "(us):\n")
                    f.write(hist_text(rtts, lost, a.hist))
                    f.write("# in-guest %s\n" % summ)
                    for line in ct.replace("\r", "").splitlines():
                        if line.startswith("# ") and "Latencies" in line:
                            f.write("# in-guest %s\n" % line[2:])
                hist, _ = histogram(rtts, a.hist)
                last = max([i for i, c in enumerate(hist) if c] + [0])
                plot([[i, hist[i]] for i in range(last + 1)],
                     "lpptest PREEMPT=%s load=%s round trip" %
                     (model, load or "none"), base + ".png")
                table.append(row(model, load, rtts, lost, summ))
                print(table[-1], flush=True)
    with open(os.path.join(a.out, "lpptest.txt"), "w") as f:
        f.write("\n".join(table) + "\n")
    print("lpptest: wrote %s/lpptest.txt and lpptest-*.txt/.png" % a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
