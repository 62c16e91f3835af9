#!/usr/bin/env python3
"""tools/rtk_console.py - boot rtk in QEMU and type commands at its prompt.

The shell driver shared by the transcript replay (tools/replay_transcripts.py,
`make check-transcripts`) and the lab grader (tools/labs.py, `make grade`):

    con = Console(elf, smp=2, log="build/replay-rt-2.log")
    con.boot()                        # waits for the first "rtk> "
    lines = con.run("irqs")           # what the command printed
    lines = con.run_script("pitest script", script_lines)  # ... end
    con.close()                       # poweroff, or kill

A command's output is every line between the echo of the command and the
next prompt, with CR and escape sequences removed.  The serial line is
QEMU's -serial stdio (iso_test.Serial reads it in a thread); QEMU reads
stdin only when the UART has room, so a whole line can be written at once.
Python 3 standard library only.
"""
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from iso_test import Serial, PROMPT  # noqa: E402
from ktap import clean_line  # noqa: E402

BOOT_TIMEOUT = 180   # seconds to the first prompt on a busy 2-core host
POWEROFF_GRACE = 15


class ConsoleError(Exception):
    pass


class Console:
    def __init__(self, elf, smp=2, mem="256M", qemu="qemu-system-x86_64",
                 append="", log=None, cmd_timeout=300):
        self.cmd = [qemu, "-machine", "q35", "-cpu", "max", "-smp", str(smp),
                    "-m", mem, "-accel", "tcg", "-kernel", elf,
                    "-append", append, "-serial", "stdio", "-display", "none",
                    "-monitor", "none", "-no-reboot",
                    "-device", "isa-debug-exit,iobase=0xf4,iosize=4"]
        self.log = log or os.devnull
        self.cmd_timeout = cmd_timeout
        self.s = None
        self.pos = 0          # where the next command's output starts
        self.boot_secs = None

    def boot(self):
        """Start QEMU and wait for the first prompt."""
        start = time.monotonic()
        self.s = Serial(self.cmd, self.log)
        m = self.s.wait_for(re.escape(PROMPT), 0, start + BOOT_TIMEOUT)
        if not m:
            raise ConsoleError("no prompt: " + self.s.why_stopped(BOOT_TIMEOUT))
        self.pos = m.end()
        self.boot_secs = time.monotonic() - start
        return self.boot_secs

    def _type(self, line):
        try:
            self.s.p.stdin.write(line.encode() + b"\r")
            self.s.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ConsoleError("QEMU is gone (typing %r)" % line)

    def _wait_prompt(self, what, timeout):
        m = self.s.wait_for(re.escape(PROMPT), self.pos,
                            time.monotonic() + timeout)
        if not m:
            raise ConsoleError("%s: no prompt after it (%s)" %
                               (what, self.s.why_stopped(timeout)))
        text = self.s.buf[self.pos:m.start()].decode("utf-8", "replace")
        self.pos = m.end()
        return [clean_line(l) for l in text.replace("\r", "").split("\n")]

    def run(self, command, timeout=None):
        """Type one command; returns the lines it printed (its echo left
        out)."""
        self._type(command)
        lines = self._wait_prompt("`%s`" % command,
                                  timeout or self.cmd_timeout)
        if lines and lines[0].strip() == command.strip():
            lines = lines[1:]
        return lines

    def run_script(self, command, script, end="end", timeout=None):
        """Type command, then each line of script and the end line (the
        `pitest` console form); returns what was printed meanwhile."""
        self._type(command)
        time.sleep(0.2)
        for line in script:
            self._type(line)
            time.sleep(0.02)
        self._type(end)
        return self._wait_prompt("`%s` script" % command,
                                 timeout or self.cmd_timeout)

    def output_since_boot(self):
        return self.s.buf.decode("utf-8", "replace") if self.s else ""

    def close(self):
        if not self.s:
            return None
        if self.s.p.poll() is None:
            try:
                self._type("poweroff")
            except ConsoleError:
                pass
        rc = self.s.close(POWEROFF_GRACE)
        self.s = None
        return rc
