#!/usr/bin/env python3
"""tools/replay_transcripts.py - replay the book's transcripts against a
booted kernel (make check-transcripts; issue 15 item 2).

Every ```rtk-transcript model=M smp=N block of docs/ and README.md
(docs/book/README.md, "Transcripts") is replayed: the kernel built for
model M (--elf M=path, one per model) is booted once per (M, N) pair, each
`rtk> ` command of every block of that pair is typed in document order,
and each `~ REGEX` line after a command must match (re.search) some line
that command printed.  A mismatch prints

    docs/book/07-irq-handlers.md:123: `irqs` (rt, smp=2): no output line
    matches '32 +\\d+ timer +hardirq'; it printed: ...

and the exit status is 1.  Blocks whose model has no --elf are reported
as skipped (and fail the run unless --allow-missing).  The total seconds
and boots are printed at the end.

A block whose info string adds retry=N (a snapshot of a load that is
still starting: `locks`, `ps`) types a command again, up to N times,
while one of its expected lines is missing.
Commands that would end the session (poweroff, reboot) are not typed.
Python 3 standard library only.
"""
import argparse
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_docs  # noqa: E402
from rtk_console import Console, ConsoleError  # noqa: E402

SKIP_COMMANDS = ("poweroff", "reboot")
SHOW_LINES = 12     # output lines quoted for a mismatch


def collect(docs):
    """{(model, smp): [(doc, command line no, command, [(ln, regex)])]}"""
    pairs = {}
    for doc in docs:
        for start, info, groups in check_docs.transcript_blocks(doc):
            key = (info.get("model"), info.get("smp"))
            retry = int(info.get("retry", "0"))
            for g in groups:
                if not g or not g[0][1].startswith("rtk> "):
                    continue
                ln, text = g[0]
                expects = [(l, t[2:]) for l, t in g if t.startswith("~ ")]
                pairs.setdefault(key, []).append(
                    (doc, ln, text[len("rtk> "):].strip(), expects, retry))
    return pairs


def matches(rx, out):
    return any(re.search(rx, line) for line in out)


def replay_pair(model, smp, cmds, elf, logdir, timeout):
    """Boot once, type every command; returns the list of error lines."""
    errors = []
    log = os.path.join(logdir, "replay-%s-smp%s.log" % (model, smp))
    con = Console(elf, smp=int(smp), log=log, cmd_timeout=timeout)
    try:
        con.boot()
        for doc, ln, command, expects, retry in cmds:
            if command.split()[0] in SKIP_COMMANDS:
                continue
            out = con.run(command)
            for _ in range(retry):
                if all(matches(rx, out) for _, rx in expects):
                    break
                out = con.run(command)
            for eln, rx in expects:
                if matches(rx, out):
                    continue
                shown = [l for l in out if l.strip()][:SHOW_LINES]
                errors.append("%s:%d: `%s` (%s, smp=%s): no output line "
                              "matches %r; it printed:\n      %s" %
                              (doc, eln, command, model, smp, rx,
                               "\n      ".join(shown) or "(nothing)"))
    except ConsoleError as e:
        errors.append("%s:%d: %s (%s, smp=%s; log %s)" %
                      (cmds[0][0], cmds[0][1], e, model, smp, log))
    finally:
        con.close()
    return errors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elf", action="append", default=[],
                    help="MODEL=path of that model's rtk.elf")
    ap.add_argument("--logdir", default="build")
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds for one command")
    ap.add_argument("--allow-missing", action="store_true",
                    help="a model without --elf is skipped, not an error")
    ap.add_argument("docs", nargs="*")
    args = ap.parse_args(argv)
    elfs = dict(e.split("=", 1) for e in args.elf)
    docs = args.docs or sorted(
        f for f in check_docs.FILES
        if f.startswith("docs/") and f.endswith(".md")) + ["README.md"]
    os.makedirs(args.logdir, exist_ok=True)
    os.chdir(check_docs.ROOT)
    t0 = time.monotonic()
    pairs = collect(docs)
    errors, boots, ncmd, nexp = [], 0, 0, 0
    for (model, smp), cmds in sorted(pairs.items()):
        if model not in elfs:
            msg = "transcripts for model=%s smp=%s: no --elf %s=..." % (
                model, smp, model)
            print("replay: skipped " + msg)
            if not args.allow_missing:
                errors.append(msg)
            continue
        t = time.monotonic()
        e = replay_pair(model, smp, cmds, elfs[model], args.logdir,
                        args.timeout)
        boots += 1
        ncmd += len(cmds)
        nexp += sum(len(c[3]) for c in cmds)
        print("replay: %s smp=%s: %d commands, %d expected lines, %s "
              "(%.0f s)" % (model, smp, len(cmds), sum(len(c[3]) for c in cmds),
                            "ok" if not e else "%d mismatch(es)" % len(e),
                            time.monotonic() - t))
        errors += e
    for e in errors:
        print(e)
    print("check-transcripts: %d boots, %d commands, %d expected lines, "
          "%d error(s) in %.0f s" % (boots, ncmd, nexp, len(errors),
                                     time.monotonic() - t0))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
