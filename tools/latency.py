#!/usr/bin/env python3
"""tools/latency.py - boot rtk, start a load, run cyclictest, keep the result.

    tools/latency.py --elf build/rtk.elf --model rt --load "lockhog 2 2000" \
        --smp 2 --icount 3 --loops 20000 --hist 3000 --out build

boots the kernel under QEMU (-kernel, serial on a pipe), waits for the
shell prompt, types `load <LOAD>` and then
`cyclictest -S -p99 -i1000 -l<LOOPS> -q -h <HIST>`, captures the output
(the rt-tests format: T: lines and the # Histogram block) and writes

    <out>/latency-<model>-<load>.txt   the commands, the summary, the histogram
    <out>/latency-<model>-<load>.png   the histogram: log-scale counts, one
                                       series per CPU (PNG written with the
                                       standard library only: zlib + struct)

A histogram file can also be plotted alone: --plot FILE.txt --png OUT.png.
--before CMD / --after CMD type extra shell commands around the run (e.g.
--before "latency reset" --after latency --after "latency trace": the
worst sections of the run go into the .txt); --expect-below US and
--expect-atleast US make the exit status check the worst Max.
Python 3 standard library only.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import time
import zlib

PROMPT = b"rtk> "


# ---------------------------------------------------------------- QEMU
class Serial:
    """The guest's serial line on QEMU's stdin/stdout."""

    def __init__(self, cmd, log):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        os.set_blocking(self.p.stdout.fileno(), False)
        self.buf = b""
        self.pos = 0		# output before this was matched already
        self.log = log

    def read_until(self, pattern, timeout):
        """Read until regex pattern (bytes) matches the new output."""
        end = time.time() + timeout
        rx = re.compile(pattern)
        while time.time() < end:
            m = rx.search(self.buf, self.pos)
            if m:
                self.pos = m.end()
                return m
            try:
                chunk = self.p.stdout.read(65536)
            except BlockingIOError:
                chunk = None
            if chunk:
                self.buf += chunk
                self.log.write(chunk)
                self.log.flush()
            elif self.p.poll() is not None:
                break
            else:
                time.sleep(0.02)
        raise TimeoutError("no %r within %ds" % (pattern, timeout))

    def type(self, line):
        # one byte at a time, like a person: the UART's FIFO is small
        for b in line.encode() + b"\r":
            self.p.stdin.write(bytes([b]))
            self.p.stdin.flush()
            time.sleep(0.003)

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()


def boot_and_load(ser, loads):
    """Wait for the shell prompt, then type `load L` for each L of loads
    (tools/lpptest.py uses it too)."""
    ser.read_until(re.escape(PROMPT), 300)
    for ld in loads:
        ser.type("load " + ld)
        ser.read_until(rb"load \d+: .* started|failed|usage", 120)
        ser.read_until(re.escape(PROMPT), 120)


def qemu_cmd(a):
    cmd = [a.qemu, "-machine", a.machine, "-cpu", a.cpu, "-smp", str(a.smp),
           "-m", a.mem, "-no-reboot", "-display", "none",
           "-serial", "stdio", "-monitor", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
           "-accel", a.accel, "-kernel", a.elf, "-append", a.append]
    if a.icount is not None and a.icount != "":
        cmd += ["-icount", "shift=%s,sleep=off" % a.icount]
    return cmd


def host_threads(pid):
    """{tid: (comm, run_ns, wait_ns, slices)} of QEMU's host threads, from
    /proc/PID/task/TID/schedstat (time on a CPU, time runnable but waiting
    for one, timeslices): the host's side of an emulated interrupt.  The
    vCPU threads are "CPU n/TCG"; QEMU's timers (the LAPIC timer is a
    QEMUTimer) run in the main-loop thread, named after the binary."""
    res = {}
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return res
    for tid in tids:
        try:
            comm = open("/proc/%d/task/%s/comm" % (pid, tid)).read().strip()
            run, wait, slices = (int(x) for x in open(
                "/proc/%d/task/%s/schedstat" % (pid, tid)).read().split())
        except (OSError, ValueError):
            continue
        res[tid] = (comm, run, wait, slices)
    return res


def host_thread_lines(before, after, wall):
    """One line per host thread busy during the run: CPU share, runnable-
    but-waiting share, and the mean wait per timeslice."""
    lines = []
    for tid, (comm, run, wait, slices) in sorted(after.items()):
        c0, r0, w0, s0 = before.get(tid, (comm, 0, 0, 0))
        dr, dw, ds = run - r0, wait - w0, slices - s0
        if dr < wall * 1e9 * 0.001:
            continue			# idle helper threads
        lines.append("# host thread %-18s cpu %5.1f%%  waiting %5.1f%%  "
                     "%7d slices  %6.0f us wait/slice" %
                     (comm, 100.0 * dr / (wall * 1e9),
                      100.0 * dw / (wall * 1e9), ds,
                      dw / max(ds, 1) / 1000.0))
    return lines


# ---------------------------------------------------------------- parsing
def parse_output(text):
    """Summary lines and histogram rows from cyclictest -h output."""
    threads, hist, extra = [], [], {}
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"T:\s*(\d+)\s+\(\s*(\d+)\)\s+P:\s*(\d+)\s+I:\s*(\d+)"
                     r"\s+C:\s*(\d+)\s+Min:\s*(\d+)\s+Act:\s*(\d+)\s+"
                     r"Avg:\s*(\d+)\s+Max:\s*(\d+)", line)
        if m:
            v = [int(x) for x in m.groups()]
            threads.append(dict(t=v[0], tid=v[1], prio=v[2], interval=v[3],
                                count=v[4], min=v[5], act=v[6], avg=v[7],
                                max=v[8]))
            continue
        m = re.match(r"^(\d{3,})((?:\s+\d+)+)$", line)
        if m:
            hist.append([int(m.group(1))] +
                        [int(x) for x in m.group(2).split()])
            continue
        m = re.match(r"^# (Total|Min Latencies|Avg Latencies|Max Latencies|"
                     r"Histogram Overflows):(.*)$", line)
        if m:
            extra[m.group(1)] = m.group(2).split()
    return threads, hist, extra


def percentile(hist, col, total, q):
    """The smallest bucket (us) holding a q share of thread col's samples;
    None if it lies beyond the histogram (among the overflows).  Under
    plain TCG the maxima are host noise; a high percentile shows where
    the bulk of the wake-ups lies."""
    need, seen = q * total, 0
    for row in hist:
        seen += row[1 + col] if 1 + col < len(row) else 0
        if total and seen >= need:
            return row[0]
    return None


# ---------------------------------------------------------------- PNG
# A 3x5 font for the axis labels: digits and the few letters we need.
FONT = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001001001001", "8": "111101111101111",
    "9": "111101111001111", "u": "000000101101111", "s": "000011010001110",
    "C": "111100100100111", "P": "111101111100100", "U": "101101101101111",
    "e": "000111111100111", "c": "000111100100111", "n": "000110101101101",
    "o": "000111101101111", "t": "010111010010011", "l": "110010010010111",
    "a": "000011101101011", "y": "000101111001111", "m": "000111111101101",
    "p": "000111101111100", "r": "000111100100100", "i": "010000010010010",
    "d": "001001111101111", "h": "100100111101101", "g": "000111101111001",
    "x": "000101010010101", "k": "100101110101101", "b": "100100111101111",
    "-": "000000111000000", " ": "000000000000000", ":": "000010000010000",
    "=": "000111000111000", "(": "001010010010001", ")": "100010010010100",
    "/": "001001010100100", ".": "000000000000010", ",": "000000000010100",
}
COLORS = [(220, 40, 40), (40, 90, 220), (30, 160, 60), (200, 130, 0),
          (150, 50, 180), (0, 160, 170), (120, 120, 120), (0, 0, 0)]


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(b"\xff" * (w * h * 3))

    def dot(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = (y * self.w + x) * 3
            self.px[i:i + 3] = bytes(c)

    def line(self, x0, y0, x1, y1, c):
        n = max(abs(x1 - x0), abs(y1 - y0), 1)
        for k in range(n + 1):
            self.dot(round(x0 + (x1 - x0) * k / n),
                     round(y0 + (y1 - y0) * k / n), c)

    def text(self, x, y, s, c=(0, 0, 0), scale=2):
        for ch in s:
            g = FONT.get(ch) or FONT.get(ch.lower()) or FONT.get(ch.upper(), FONT[" "])
            for r in range(5):
                for col in range(3):
                    if g[r * 3 + col] == "1":
                        for dy in range(scale):
                            for dx in range(scale):
                                self.dot(x + col * scale + dx,
                                         y + r * scale + dy, c)
            x += 4 * scale

    def png(self, path):
        raw = b"".join(b"\x00" + bytes(self.px[y * self.w * 3:
                                              (y + 1) * self.w * 3])
                       for y in range(self.h))

        def chunk(tag, data):
            return (struct.pack(">I", len(data)) + tag + data +
                    struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff))
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
            f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h,
                                               8, 2, 0, 0, 0)))
            f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
            f.write(chunk(b"IEND", b""))


def plot(hist, title, path):
    """Log-scale counts against latency (µs), one series per thread."""
    W, H, L, R, T, B = 900, 520, 80, 20, 40, 60
    cv = Canvas(W, H)
    nser = max((len(r) - 1 for r in hist), default=0)
    rows = [r for r in hist if any(r[1:])]
    xmax = max([r[0] for r in rows] + [10])
    xmax = int(xmax * 1.05) + 1
    ymax = max([max(r[1:]) for r in rows] + [10])
    decades = max(1, len(str(ymax)))
    import math

    def X(us):
        return L + round((W - L - R) * us / xmax)

    def Y(cnt):
        v = math.log10(cnt) if cnt > 0 else -0.3
        return H - B - round((H - T - B) * (v + 0.3) / (decades + 0.3))
    cv.line(L, H - B, W - R, H - B, (0, 0, 0))
    cv.line(L, T, L, H - B, (0, 0, 0))
    for d in range(decades + 1):
        y = Y(10 ** d)
        cv.line(L - 5, y, L, y, (0, 0, 0))
        for x in range(L, W - R, 6):
            cv.dot(x, y, (200, 200, 200))
        cv.text(8, y - 5, "1" + "0" * d if d < 6 else "1e%d" % d)
    step = max(1, xmax // 8)
    mag = 10 ** (len(str(step)) - 1)
    step = (step + mag - 1) // mag * mag
    for us in range(0, xmax + 1, step):
        cv.line(X(us), H - B, X(us), H - B + 5, (0, 0, 0))
        cv.text(X(us) - 8, H - B + 10, str(us))
    cv.text(W // 2 - 80, H - 24, "latency (us)")
    cv.text(L, 10, title)
    for s in range(nser):
        c = COLORS[s % len(COLORS)]
        prev = None
        for r in hist:
            if r[s + 1] <= 0:
                prev = None
                continue
            pt = (X(r[0]), Y(r[s + 1]))
            if prev:
                cv.line(prev[0], prev[1], pt[0], pt[1], c)
            else:
                cv.line(pt[0], Y(0), pt[0], pt[1], c)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    cv.dot(pt[0] + dx, pt[1] + dy, c)
            prev = pt
        cv.text(W - R - 100, T + 14 * s, "CPU%d" % s, c)
    cv.png(path)


# ---------------------------------------------------------------- run
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elf", default="build/rtk.elf")
    ap.add_argument("--model", default="rt")
    ap.add_argument("--load", default="lockhog 2 2000",
                    help='the `load` arguments, "" for none; several loads'
                    ' run together when separated by ";", e.g.'
                    ' "lockhog 2 2000; hackbench 2"')
    ap.add_argument("--smp", type=int, default=2)
    ap.add_argument("--mem", default="256M")
    ap.add_argument("--icount", default=None, help="icount shift")
    ap.add_argument("--loops", type=int, default=20000)
    ap.add_argument("--interval", type=int, default=1000)
    ap.add_argument("--hist", type=int, default=3000)
    ap.add_argument("--append", default="")
    ap.add_argument("--before", action="append", default=[],
                    help="shell command typed before cyclictest (repeatable),"
                    " e.g. 'latency reset'")
    ap.add_argument("--after", action="append", default=[],
                    help="shell command typed after cyclictest (repeatable),"
                    " e.g. 'latency' or 'latency trace'; its output goes"
                    " into the .txt")
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--machine", default="q35")
    ap.add_argument("--cpu", default="max")
    ap.add_argument("--accel", default="tcg",
                    help='-accel value, e.g. "tcg,thread=single" or '
                    '"tcg,tb-size=64" (the emulator knobs of docs/latency.md)')
    ap.add_argument("--out", default="build")
    ap.add_argument("--timeout", type=int, default=3600)
    ap.add_argument("--expect-below", type=int, metavar="US",
                    help="exit 2 unless every thread's Max is below US")
    ap.add_argument("--expect-atleast", type=int, metavar="US",
                    help="exit 2 unless some thread's Max is at least US")
    ap.add_argument("--plot", help="only plot this saved .txt")
    ap.add_argument("--png", help="with --plot: the PNG to write")
    a = ap.parse_args(argv)

    if a.plot:
        _, hist, _ = parse_output(open(a.plot).read())
        plot(hist, os.path.basename(a.plot), a.png or
             os.path.splitext(a.plot)[0] + ".png")
        return 0

    os.makedirs(a.out, exist_ok=True)
    loads = [x.strip() for x in a.load.split(";") if x.strip()]
    loadtag = "+".join("-".join(x.split()) for x in loads) or "idle"
    mode = "icount%s" % a.icount if a.icount not in (None, "") else "tcg"
    base = os.path.join(a.out, "latency-%s-%s" % (a.model, loadtag))
    ct = "cyclictest -S -p99 -i%d -l%d -q -h %d" % (a.interval, a.loops,
                                                    a.hist)
    cmd = qemu_cmd(a)
    log = open(base + ".serial.log", "wb")
    ser = Serial(cmd, log)
    t0 = time.time()
    try:
        boot_and_load(ser, loads)
        for c in a.before:
            ser.type(c)
            ser.read_until(re.escape(PROMPT), 120)
        mark = ser.pos
        hs0, ht0 = host_threads(ser.p.pid), time.time()
        load0 = open("/proc/loadavg").read().split()[0]
        ser.type(ct)
        ser.read_until(rb"# Histogram Overflows:[^\n]*\n", a.timeout)
        hostlines = host_thread_lines(hs0, host_threads(ser.p.pid),
                                      time.time() - ht0)
        hostlines.append("# host load average at the start: %s" % load0)
        ser.read_until(re.escape(PROMPT), 120)
        for c in a.after:		# e.g. `latency`: the worst sections
            ser.type(c)
            ser.read_until(re.escape(PROMPT), 600)
        out = ser.buf[mark:].decode(errors="replace")
        if loads:
            ser.type("load")
            ser.read_until(re.escape(PROMPT), 120)
            ser.type("load stop")
            ser.read_until(rb"stopped|nothing", 120)
    finally:
        wall = time.time() - t0
        ser.close()
        log.close()
    threads, hist, extra = parse_output(out)
    if not threads and "Max Latencies" in extra:
        # -q -h without T: lines: take the figures from the histogram's
        # "# Min/Avg/Max Latencies:" and "# Total:" lines
        def col(key, i):
            v = extra.get(key, [])
            return int(v[i]) if i < len(v) else -1
        threads = [dict(t=i, tid=-1, prio=-1, interval=a.interval,
                        # rt-tests' Total counts the buckets only
                        count=col("Total", i) +
                        max(col("Histogram Overflows", i), 0),
                        min=col("Min Latencies", i),
                        act=-1, avg=col("Avg Latencies", i),
                        max=col("Max Latencies", i))
                   for i in range(len(extra["Max Latencies"]))]
    if not threads:
        print("latency: no cyclictest summary in the output", file=sys.stderr)
        return 1
    with open(base + ".txt", "w") as f:
        f.write("# rtk latency: PREEMPT=%s SMP=%d mode=%s load=%r\n" %
                (a.model, a.smp, mode, a.load))
        f.write("# qemu: %s\n" % " ".join(cmd))
        for ld in loads:
            f.write("# shell: load %s\n" % ld)
        f.write("# shell: %s\n" % ct)
        f.write("# wall time %.0f s\n" % wall)
        for line in hostlines:
            f.write(line + "\n")
        f.write(out.replace("\r", ""))
    title = "rtk PREEMPT=%s load=%s %s SMP=%d" % (a.model, a.load or "none",
                                                  mode, a.smp)
    plot(hist, title, base + ".png")
    def pct(t, q):
        v = percentile(hist, t["t"], t["count"], q)
        return "%d" % v if v is not None else ">%d" % a.hist
    summary = []
    for t in threads:
        summary.append("%-5s %-8s %-18s T:%d C:%6d Min:%5d Avg:%5d "
                       "P99:%5s P99.9:%5s Max:%6d" %
                       (a.model, mode, a.load or "none", t["t"], t["count"],
                        t["min"], t["avg"], pct(t, 0.99), pct(t, 0.999),
                        t["max"]))
    with open(base + ".txt", "a") as f:
        f.write("\n")			# after the last prompt
        for line in summary:
            f.write("# summary: %s\n" % line)
    for line in summary:
        print(line)
    print("latency: wrote %s.txt and %s.png (%.0f s)" % (base, base, wall))
    worst = max(t["max"] for t in threads)
    if a.expect_below is not None and worst >= a.expect_below:
        print("latency: FAIL: max %d us, expected below %d us" %
              (worst, a.expect_below), file=sys.stderr)
        return 2
    if a.expect_atleast is not None and worst < a.expect_atleast:
        print("latency: FAIL: max %d us, expected at least %d us" %
              (worst, a.expect_atleast), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
