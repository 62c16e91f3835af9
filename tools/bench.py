#!/usr/bin/env python3
"""tools/bench.py - the bench figures of the four preemption models, side by side.

    tools/bench.py --elf none=build-bench-none/rtk.elf \\
        --elf voluntary=build-bench-voluntary/rtk.elf ... \\
        --smp 2 [--icount 5] [--out build/bench.txt]

boots each kernel under QEMU TCG with `selftest=bench` (the same machine
and CPU count for every model, one after the other so they do not compete
for the host), collects the suite's KTAP diagnostics

    # bench: <name> median <ns> ns (<cyc> cyc) max <ns> ns (<cyc> cyc)
    # bench: <name> n/a: <why>

and prints two tables, rows = figures, columns = models, each cell
median/max: one in nanoseconds, one in TSC cycles.  A model whose boot
fails or whose suite reports `not ok` is said so under the table (its
figures still show).  `make bench` builds the four models and runs this.
Python 3 standard library only.
"""
import argparse
import re
import subprocess
import sys

LINE = re.compile(r"# bench: (\S+) median (\d+) ns \((\d+) cyc\) "
                  r"max (\d+) ns \((\d+) cyc\)")
NA = re.compile(r"# bench: (\S+) (n/a: .*|failed: .*)$")


def boot(elf, args):
    """Run one kernel's bench suite; return (figures, problems, log)."""
    cmd = [args.qemu, "-machine", args.machine, "-cpu", args.cpu,
           "-smp", str(args.smp), "-m", args.mem, "-accel", "tcg",
           "-no-reboot", "-display", "none", "-serial", "stdio",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
           "-kernel", elf, "-append", "selftest=bench"]
    if args.icount is not None:
        cmd += ["-icount", "shift=%d,sleep=off" % args.icount]
    problems = []
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=args.timeout)
        log = p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        log = (e.stdout or b"").decode("utf-8", "replace")
        problems.append("timed out after %d s" % args.timeout)
    figures = {}
    order = []
    for line in log.splitlines():
        line = line.rstrip("\r")
        m = LINE.search(line)
        if m:
            name = m.group(1)
            figures[name] = tuple(int(x) for x in m.group(2, 3, 4, 5))
            order.append(name)
            continue
        m = NA.search(line)
        if m:
            figures[m.group(1)] = m.group(2)
            order.append(m.group(1))
            continue
        if re.match(r"\s*not ok ", line):
            problems.append(line.strip())
    if not figures:
        problems.append("no '# bench:' lines in the output")
    return figures, order, problems, log


def cell(fig, unit):
    if fig is None:
        return "-"
    if isinstance(fig, str):
        return fig.split(":")[0]        # "n/a" or "failed"
    med, mx = (fig[0], fig[2]) if unit == "ns" else (fig[1], fig[3])
    return "%d/%d" % (med, mx)


def table(models, results, rows, unit):
    head = ["figure (%s, median/max)" % unit] + models
    body = [[r] + [cell(results[m][0].get(r), unit) for m in models]
            for r in rows]
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    out = []
    fmt = lambda xs: "  ".join(
        (x.ljust(w) if i == 0 else x.rjust(w))
        for i, (x, w) in enumerate(zip(xs, widths)))
    out.append(fmt(head))
    out.append("  ".join("-" * w for w in widths))
    out += [fmt(b) for b in body]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elf", action="append", required=True,
                    metavar="MODEL=PATH", help="one per model, in column order")
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--machine", default="q35")
    ap.add_argument("--cpu", default="max")
    ap.add_argument("--smp", type=int, default=2)
    ap.add_argument("--mem", default="256M")
    ap.add_argument("--icount", type=int, default=None)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--out", help="also write the tables here (and each model.s log next to it)")
    args = ap.parse_args()

    models, results, rows = [], {}, []
    for spec in args.elf:
        model, _, elf = spec.partition("=")
        print("bench: booting %s (%s) ..." % (model, elf), file=sys.stderr,
              flush=True)
        figures, order, problems, log = boot(elf, args)
        models.append(model)
        results[model] = (figures, problems, log)
        rows += [r for r in order if r not in rows]

    mode = "TCG, -icount shift=%d,sleep=off" % args.icount \
        if args.icount is not None else "plain TCG"
    text = ["make bench: %s, SMP=%d; each cell the median/max of the "
            "figure's samples" % (mode, args.smp), "",
            table(models, results, rows, "ns"), "",
            table(models, results, rows, "cyc")]
    for m in models:
        for p in results[m][1]:
            text.append("%s: %s" % (m, p))
    text = "\n".join(text) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
        for m in models:
            with open("%s.%s.log" % (args.out, m), "w") as f:
                f.write(results[m][2])
    return 1 if any(results[m][1] for m in models) else 0


if __name__ == "__main__":
    sys.exit(main())
