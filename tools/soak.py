#!/usr/bin/env python3
"""tools/soak.py - the soak of every preemption model (`make soak`).

Boots each model's kernel (built by the Makefile in BUILD-soak-<model>)
with `selftest=soak soak.duration=S` through tools/harness.py, one model
after the other (a 2-core host cannot run two 4-CPU guests fairly), then
reads each log:

  soak-verdict:      the kernel's summary (kernel/workloads/soak.h)
  torture-verdict:   the torture run's (kernel/workloads/torture.h)
  pi_stress-verdict: pi_stress's (kernel/workloads/pi_stress.h)
  soak: pitest ...   how many PI tester scripts ran and failed
  Oops / panic / BUG / WARNING lines, counted here (an oops stops rtk
  before the kernel could count it)

and prints one table, also written to OUT/soak.txt, and under it what a
failed model's log found (the torture errors with their task lines, failed
pitest scripts, warnings, oopses), so a CI log that outlives its machine
says why.  Exit status 0 when
every model's verdict is PASS, its harness run passed and its log shows
no oops, panic or warning; 1 otherwise.

  tools/soak.py --elf rt=build-soak-rt/rtk.elf --elf none=... \\
      --duration 10m [--smp 4] [--out build]

DURATION: seconds, or a number with s, m or h.  cyclictest's maximum is
printed, never judged: on a shared host it measures the host.
Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ktap import CRASH_RE, EXPECTED_BEGIN, EXPECTED_END  # noqa: E402

VERDICT_RE = re.compile(r"(soak|torture|pi_stress)-verdict: (.*)$")
PITEST_RE = re.compile(r"soak: pitest (\d+) runs, (\d+) failed")
WARN_RE = re.compile(r"WARNING: at ")
# a torture error (torture_error), a failed pitest script, the verdicts
ERROR_RE = re.compile(r"torture: \S+: ERROR \d+|soak: pitest [^\d]|"
                      r"-verdict: .*result=FAIL")
FINDING_LINES = 8   # a finding and the lines under it (backtraces)
MAX_FINDINGS = 60   # per model, in the CI log
BOOT_MARGIN = 300   # seconds for boot, teardown and a slow host


def parse_duration(text):
    m = re.fullmatch(r"(\d+)([smh]?)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError("duration %r: N, Ns, Nm or Nh"
                                         % text)
    return int(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def fields(text):
    """'a=1 b=x' -> {'a': '1', 'b': 'x'}"""
    return dict(w.split("=", 1) for w in text.split() if "=" in w)


def read_log(path):
    """What one model's log says: the verdicts, pitest counts, crashes."""
    out = {"soak": None, "torture": None, "pi_stress": None,
           "pitest": None, "oops": 0, "warnings": 0, "findings": []}
    in_expected = False
    keep = 0
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError:
        return out
    for line in lines:
        if EXPECTED_BEGIN in line:
            in_expected = True
        elif EXPECTED_END in line:
            in_expected = False
        m = VERDICT_RE.search(line)
        if m:
            out[m.group(1)] = fields(m.group(2))
            continue
        m = PITEST_RE.search(line)
        if m:
            out["pitest"] = (int(m.group(1)), int(m.group(2)))
        crash = CRASH_RE.search(line) and not in_expected
        if crash:
            out["oops"] += 1
        if WARN_RE.search(line):
            out["warnings"] += 1
        # what a failed run found, for the CI log (the log file itself
        # is gone with the CI machine): the torture errors with the
        # backtrace lines torture_show_task prints under them, the
        # warnings and the oopses
        if crash or WARN_RE.search(line) or ERROR_RE.search(line):
            keep = FINDING_LINES
        if keep > 0 and len(out["findings"]) < MAX_FINDINGS:
            out["findings"].append(line)
            keep -= 1
    return out


def run_model(model, elf, args, seconds):
    log = os.path.join(args.out, "soak-%s.log" % model)
    cmd = [sys.executable, os.path.join(HERE, "harness.py"),
           "--elf", elf, "--qemu", args.qemu, "--smp", str(args.smp),
           "--mem", args.mem, "--accel", args.accel,
           "--append", "soak.duration=%d" % seconds,
           "--selftest", "soak", "--timeout",
           str(2 * seconds + BOOT_MARGIN), "--log", log]
    if args.icount:
        cmd += ["--icount", args.icount]
    print("soak: %s for %d s: %s" % (model, seconds, " ".join(cmd)),
          file=sys.stderr, flush=True)
    t0 = time.monotonic()
    rc = subprocess.call(cmd, stdout=subprocess.DEVNULL)
    res = read_log(log)
    res["rc"] = rc
    res["wall"] = int(time.monotonic() - t0)
    res["log"] = log
    return res


def row(model, r):
    s, t, p = r["soak"] or {}, r["torture"] or {}, r["pi_stress"] or {}
    pit = r["pitest"]
    ok = (r["rc"] == 0 and s.get("result") == "PASS" and r["oops"] == 0
          and r["warnings"] == 0)
    return ok, [
        model, "PASS" if ok else "FAIL", s.get("cpus", "?"),
        s.get("seconds", "?"),
        "%s/%s" % (t.get("ops", "-"), t.get("errors", "-")),
        "%s/%s" % pit if pit else "-/-",
        "%s/%s/%s" % (p.get("inversions", "-"), p.get("unresolved", "-"),
                      p.get("deadlocks", "-")),
        s.get("cyclictest_max_us", "-"), str(r["warnings"]),
        str(r["oops"]), str(r["rc"]), str(r["wall"])]


HEAD = ["model", "result", "cpus", "secs", "torture ops/err",
        "pitest runs/fail", "pi_stress inv/unres/dead", "ct max us",
        "warn", "oops", "harness", "wall s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elf", action="append", required=True,
                    help="MODEL=PATH, once per model")
    ap.add_argument("--duration", type=parse_duration, default=60)
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--smp", type=int, default=4)
    ap.add_argument("--mem", default="256M")
    ap.add_argument("--accel", default="tcg", choices=["tcg", "kvm"])
    ap.add_argument("--icount")
    ap.add_argument("--out", default="build")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows, all_ok, findings = [], True, []
    for spec in args.elf:
        model, _, elf = spec.partition("=")
        res = run_model(model, elf, args, args.duration)
        ok, cells = row(model, res)
        all_ok &= ok
        rows.append(cells)
        if not ok:
            findings += ["soak: %s: %s" % (model, l) for l in res["findings"]]
    widths = [max(len(c[i]) for c in rows + [HEAD]) for i in range(len(HEAD))]
    text = ["make soak: %d s per model, SMP=%d (logs: %s/soak-<model>.log)"
            % (args.duration, args.smp, args.out)]
    for cells in [HEAD] + rows:
        text.append("  ".join(c.ljust(w) for c, w in zip(cells, widths)))
    text += findings
    text.append("soak: %s" % ("PASS" if all_ok else "FAIL"))
    print("\n".join(text))
    with open(os.path.join(args.out, "soak.txt"), "w") as f:
        f.write("\n".join(text) + "\n")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
