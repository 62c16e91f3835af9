#!/usr/bin/env python3
"""tools/bochs.py - boot rtk's GRUB ISO in Bochs, headless.

  make bochs       tools/bochs.py --iso build/rtk.iso
                   the serial console on this terminal (COM1 is a pty that
                   this script bridges to the terminal in raw mode); the
                   shell's `poweroff` ends Bochs, ctrl-] kills it.
  make test-bochs  tools/bochs.py --iso build/rtk-selftest.iso --selftest
                   the ISO's GRUB default entry is "rtk selftest"; COM1 goes
                   to a file, the KTAP in it is judged exactly as
                   tools/harness.py judges a QEMU run (same parser), with the
                   same summary line and exit status.

Bochs has no isa-debug-exit: rtk ends the run by ACPI S5 (or Bochs's
0x8900 shutdown port), which Bochs reports as a "soft power off" panic and
exits non-zero; the run is judged by the printed lines, not the status.
Configuration: tools/bochsrc.txt (+ tools/bochs-rc.txt for the debugger).
Python 3 standard library only.
"""
import argparse
import os
import re
import select
import shutil
import subprocess
import sys
import termios
import time
import tty

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402  (tools/harness.py: the serial watch and judge)
import ktap  # noqa: E402  (tools/ktap.py: the KTAP parser)

TOOLS = os.path.dirname(os.path.abspath(__file__))
BOCHSRC = os.path.join(TOOLS, "bochsrc.txt")
BOCHS_RC = os.path.join(TOOLS, "bochs-rc.txt")
QUIT_KEY = b"\x1d"  # ctrl-]


def bochs_env(iso, mode, dev, outdir):
    env = dict(os.environ)
    env.update(RTK_ISO=os.path.abspath(iso), RTK_SERIAL_MODE=mode,
               RTK_SERIAL_DEV=dev,
               RTK_BOCHS_LOG=os.path.join(outdir, "bochs.log"))
    return env


def start_bochs(env, outdir):
    bochs = shutil.which("bochs")
    if not bochs:
        sys.exit("bochs.py: bochs is not installed (tools/deps.sh)")
    out = open(os.path.join(outdir, "bochs-stdout.log"), "wb")
    # stdin /dev/null: the built-in debugger must never read the terminal.
    return subprocess.Popen([bochs, "-q", "-f", BOCHSRC, "-rc", BOCHS_RC],
                            stdin=subprocess.DEVNULL, stdout=out,
                            stderr=subprocess.STDOUT, env=env,
                            start_new_session=True), out


def stop_bochs(p, grace):
    try:
        p.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        p.terminate()
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    return p.returncode


def exit_message(outdir):
    """The reason Bochs printed for exiting, e.g. "ACPI control: soft
    power off" or a triple-fault panic."""
    try:
        with open(os.path.join(outdir, "bochs-stdout.log"), "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    m = re.search(r"Bochs is exiting with the following message:\s*\n"
                  r"(.*)\n", text)
    return m.group(1).strip() if m else ""


def run_selftest(args, outdir):
    serial = os.path.join(outdir, "bochs-serial.log")
    if os.path.exists(serial):
        os.unlink(serial)
    p, out = start_bochs(bochs_env(args.iso, "file", serial, outdir), outdir)
    watch = harness.SerialWatch(args.timeout, "Bochs", echo=args.verbose)
    why, pos = None, 0
    try:
        while why is None:
            exited = p.poll() is not None
            try:
                with open(serial, "rb") as f:
                    f.seek(pos)
                    data = f.read()
            except FileNotFoundError:
                data = b""
            pos += len(data)
            watch.feed(data)
            if exited:
                break
            why = watch.must_stop()
            time.sleep(0.2)
    finally:
        rc = stop_bochs(p, 0)
        out.close()
    secs = watch.finish()
    lines = watch.lines
    msg = exit_message(outdir)
    print("bochs: %d lines of serial output in %.1f s (serial: %s); Bochs "
          "exit status %s%s" % (len(lines), secs, serial, rc,
                                ": " + msg if msg else ""))
    if why is None:
        why = watch.exited_why(msg or "status %s" % rc)
    rep = ktap.parse_ktap(lines)
    ktap.write_ktap(os.path.join(outdir, "results-bochs.ktap"), [rep])
    status = harness.judge([], [], rep, why)
    if status and lines:
        harness.print_tail(lines)
    return status


def run_interactive(args, outdir):
    master, slave = os.openpty()
    tty.setraw(slave)  # Bochs talks to the slave; no line discipline
    p, out = start_bochs(bochs_env(args.iso, "term", os.ttyname(slave),
                                   outdir), outdir)
    stdin = sys.stdin.fileno()
    is_tty = os.isatty(stdin)
    saved = termios.tcgetattr(stdin) if is_tty else None
    print("bochs: booting %s; serial console here, ctrl-] quits "
          "(Bochs log: %s/bochs.log)" % (args.iso, outdir), flush=True)
    deadline = time.monotonic() + args.timeout if args.timeout else None
    try:
        if is_tty:
            tty.setraw(stdin)
        fds = [master, stdin]
        while p.poll() is None:
            if deadline and time.monotonic() > deadline:
                break
            r, _, _ = select.select(fds, [], [], 0.2)
            if master in r:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    data = b""
                os.write(sys.stdout.fileno(), data)
            if stdin in r:
                data = os.read(stdin, 1024)
                if not data:
                    fds = [master]  # stdin closed: keep showing output
                    continue
                if QUIT_KEY in data:
                    break
                os.write(master, data)
    finally:
        if is_tty:
            termios.tcsetattr(stdin, termios.TCSADRAIN, saved)
        rc = stop_bochs(p, 0 if p.poll() is None else 1)
        out.close()
        os.close(master)
        os.close(slave)
    msg = exit_message(outdir)
    print("\nbochs: exited (status %s)%s" % (rc, ": " + msg if msg else ""))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iso", required=True)
    ap.add_argument("--selftest", action="store_true",
                    help="judge the KTAP of an ISO that boots 'rtk selftest'")
    ap.add_argument("--timeout", type=int, default=0,
                    help="seconds (default: 600 with --selftest, else none)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the serial output as it comes (selftest)")
    args = ap.parse_args(argv)
    if not os.path.exists(args.iso):
        print("bochs.py: %s does not exist" % args.iso)
        return 1
    outdir = os.path.dirname(os.path.abspath(args.iso))
    if args.selftest:
        args.timeout = args.timeout or 600
        return run_selftest(args, outdir)
    return run_interactive(args, outdir)


if __name__ == "__main__":
    sys.exit(main())
