#!/usr/bin/env python3
"""Boot rtk with init=PATH and check the first process ran and powered off.

make init-test boots build/rtk.elf with the user initramfs and
`init=/t_init` (user/tests/t_init.c): the program checks it is pid 1,
its fds, mount/umount2/sync/reboot's answers, prints "t_init: ok",
reaps an orphan ("t_init: orphans ok") and
powers the machine off with reboot(LINUX_REBOOT_CMD_POWER_OFF); QEMU must
then exit by itself.  A second boot with a missing init= program must
print Linux's "Failed to execute ... (error -2)" and reach rtk's shell.
With --busybox-initrd (compare-linux's initramfs), a third boot runs its
busybox /init script as Linux runs it (init=/init ct.mode=loaded): the
shell forks the hackbench loop and one busy loop per CPU, Debian's
cyclictest runs its loops, the script prints "compare-linux: done" and
busybox's poweroff -f powers the machine off.  cyclictest must not warn
that high-resolution timers are missing (clock_getres).  A fourth boot
runs busybox's interactive shell as init=/bin/sh and types commands on
the serial line (a pipeline, a child's exit code, `read`, exit 5): the
console's line discipline (kernel/fs/tty_console.c) end to end.
Exit status 0 when every boot did what it should; each failed check
prints what was expected and the tail of the serial output.
"""
import argparse
import subprocess
import sys


def boot(args, append, want, until=None, initrd=None, never=(), typed=None,
         when=None):
    # `timeout` bounds a boot that never ends (a hang guard, not a
    # measurement: a boot takes seconds under TCG)
    cmd = ["timeout", str(args.timeout), args.qemu, "-machine", "q35", "-cpu", "max", "-smp", "2",
           "-m", "256M", "-kernel", args.elf, "-initrd", initrd or args.initrd,
           "-append", append, "-serial", "stdio", "-display", "none",
           "-monitor", "none", "-no-reboot",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=4"]
    # typed: bytes for the serial line once a line containing `when` is
    # out (the console's ring holds them until the program reads)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.PIPE if typed else None)
    lines, ok = [], False
    try:
        for raw in p.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            lines.append(line)
            if typed and when in line:
                p.stdin.write(typed)
                p.stdin.flush()
                typed = None
            if until and until in line:
                ok = True
                break
        else:
            # stdout closed: QEMU exited; by itself (powered off) only
            # if `timeout` did not kill it (status 124)
            ok = until is None and p.wait() != 124
    finally:
        if p.poll() is None:
            # SIGTERM, which `timeout` passes on to QEMU (a SIGKILL
            # would leave QEMU running without its parent)
            p.terminate()
            p.wait()
    out = "\n".join(lines)
    missing = [w for w in want if w not in out]
    missing += ["no %r" % w for w in never if w in out]
    if not ok or missing:
        print("init-test: FAIL append=%r: expected %s%s, saw:" %
              (append, missing or want,
               "" if ok else " and " + (repr(until) if until else
                                        "QEMU to exit by itself")))
        for l in lines[-25:]:
            print("    " + l)
        return False
    print("init-test: ok append=%r" % append)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--busybox-initrd",
                    help="compare-linux's initramfs (busybox /init)")
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    good = boot(args, "init=/t_init",
                ["Run /t_init as init process", "t_init: ok",
                 "t_init: orphans ok",
                 "reboot: Power down"])
    bad = boot(args, "init=/no_such_init",
               ["Failed to execute /no_such_init (error -2)"],
               until="boot complete, shell on the console")
    busy = True
    if args.busybox_initrd:
        busy = boot(args, "init=/init ct.mode=loaded ct.loops=300 ct.hist=1000",
                    ["Run /init as init process",
                     "compare-linux: 6.1.0-rtk", "mode=loaded cpus=2",
                     "# Max Latencies:", "compare-linux: done",
                     "reboot: Power down"],
                    initrd=args.initrd + "," + args.busybox_initrd,
                    never=["High resolution timers not available",
                           "Attempted to kill init", "BUG:", "panic"])
        # busybox's interactive shell as pid 1 reads its commands from
        # /dev/console (kernel/fs/tty_console.c): a line, a pipeline, a
        # child's exit code, `read`, then exit 5 -> init's wait status
        busy = boot(args, "init=/bin/sh",
                    ["got:typed line", "rc=3", "piped:hello",
                     "Attempted to kill init! exitcode=0x00000500"],
                    until="boot complete, shell on the console",
                    initrd=args.initrd + "," + args.busybox_initrd,
                    typed=b"echo piped:$(echo hello | cat)\r"
                          b"sh -c 'exit 3'; echo rc=$?\r"
                          b"read x; echo got:$x\rtyped line\r"
                          b"exit 5\r",
                    when="Run /bin/sh as init process") and busy
    return 0 if good and bad and busy else 1


if __name__ == "__main__":
    sys.exit(main())
