#!/usr/bin/env python3
"""tools/screen_test.py - look at rtk's screen.  `make screen-test` calls it.

For each firmware (SeaBIOS, OVMF) QEMU boots the ISO headless with the
serial line on a pipe and its monitor on a socket.  Once the serial line
shows the prompt, the test types on the emulated PS/2 keyboard with the
monitor's `sendkey`:
  1. bad input first: keys rtk does not map (F1, F5, arrows, Tab, Insert,
     Alt, the keypad's *) and key-repeat floods (FLOODS x REPEAT presses
     of 'a', each dropped by ctrl-U) - the shell must still answer;
  2. `help` and Enter.
The serial line must then show `rtk> help` echoed and help's output
(the keyboard feeds the same input as the serial line, and printk/shell
output goes to both consoles), with a known line of it ("help ... list
every command") and the next prompt.  Those lines, laid out on the text
grid as drivers/fbcon.c lays them out (columns = width / font width,
wrapping), are rendered here with the same PSF font (tools/psf2c.py's
load_psf on the Makefile's FBCON_FONT) and compared pixel for pixel with
QEMU's `screendump`: the rows above the prompt row, which must read
"rtk> " with the cursor block after it.  Each glyph pixel must be the
shell's colour (VGA palette 15), every other pixel of the row black.  No
OCR: a cell either matches the rendered glyph exactly or the test fails
and names the row and what it expected.  The screen is sampled until it
matches or --screen-timeout passes (the fbcon kthread draws up to 20 ms
after the serial line; a busy host stretches that).

--usb boots the image as a USB mass-storage stick on an xHCI controller
instead of a CD (`make screen-test USB=1`, the `make usb` image).
--append ARGS boots a copy of the ISO whose GRUB entry passes ARGS:
`make screen-test APPEND=fbcon=off` must FAIL (the screen console is
switched off after boot, so help's output never reaches the screen).
Python 3 standard library only.
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iso_test import Serial, firmware_args, run_firmwares  # noqa: E402
from psf2c import load_psf  # noqa: E402

PROMPT = b"rtk> "
SHELL_RGB = (255, 255, 255)   # drivers/fbcon.c: SHELL_COLOUR, palette 15
CURSOR_RGB = (170, 170, 170)  # CURSOR_COLOUR, palette 7
BLACK = (0, 0, 0)
UNMAPPED = ["f1", "f5", "up", "down", "left", "tab", "insert", "alt",
            "kp_multiply", "ctrl-1", "pgup", "menu"]
BATCH = 16  # keys per batch: 32 events, under QEMU's queue limit
KNOWN_LINE = re.compile(r"^\s+help\s+list every command")


class Monitor:
    """QEMU's human monitor on a unix socket."""

    def __init__(self, path, deadline):
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        self.s.settimeout(30)
        self.read_until(b"(qemu) ")

    def read_until(self, token):
        buf = b""
        while not buf.endswith(token):
            chunk = self.s.recv(65536)
            if not chunk:
                break
            buf += chunk
        return buf

    def cmd(self, line):
        self.s.sendall(line.encode() + b"\n")
        return self.read_until(b"(qemu) ")

    def type(self, keys):
        # QEMU queues the keys and holds each for the given ms (100 by
        # default): 10 ms keeps a flood short, the guest sees every one.
        for k in keys:
            self.cmd("sendkey %s 10" % k)

    def close(self):
        self.s.close()


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if not m:
        raise ValueError("%s: not a binary PPM" % path)
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():]


def layout(lines, cols):
    """Text lines -> screen rows, wrapping as fbcon does."""
    rows = []
    for line in lines:
        if not line:
            rows.append("")
        while line:
            rows.append(line[:cols])
            line = line[cols:]
    return rows


def check_row(font, px, w, row, text, cursor_col=None):
    """None if screen row `row` shows exactly `text` (then blanks), else a
    description of the first differing cell."""
    fw, fh = font.width, font.height
    cols = w // fw
    for col in range(cols):
        ch = text[col] if col < len(text) else " "
        for y in range(fh):
            base = ((row * fh + y) * w + col * fw) * 3
            for x in range(fw):
                if col == cursor_col:
                    want = CURSOR_RGB
                else:
                    want = SHELL_RGB if font.pixel(ord(ch), x, y) else BLACK
                got = tuple(px[base + 3 * x: base + 3 * x + 3])
                if got != want:
                    return ("row %d col %d: want %r (pixel %d,%d %s), "
                            "screen has %s" % (row, col, ch, x, y, want,
                                               got))
    return None


def check_screen(font, ppm, expect_lines):
    """Find the prompt row (\"rtk> \" + cursor) and the expected lines
    (laid out on this screen's grid) above it.  Returns (ok, message)."""
    w, h, px = read_ppm(ppm)
    expect_rows = layout(expect_lines, w // font.width)
    rows = h // font.height
    prompt = None
    for r in range(rows - 1, -1, -1):
        if check_row(font, px, w, r, "rtk> ", cursor_col=5) is None:
            prompt = r
            break
    if prompt is None:
        return False, ("%dx%d screen: no row shows the prompt 'rtk> ' with "
                       "the cursor" % (w, h))
    first = max(0, prompt - len(expect_rows))
    shown = expect_rows[len(expect_rows) - (prompt - first):]
    for i, text in enumerate(shown):
        bad = check_row(font, px, w, first + i, text)
        if bad:
            return False, "%dx%d screen: %s" % (w, h, bad)
    return True, ("%dx%d screen: prompt on row %d, the %d rows above it "
                  "match pixel for pixel" % (w, h, prompt, len(shown)))


def serial_lines(s, start):
    text = s.buf[start:].decode("utf-8", "replace").replace("\r", "")
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    return text.split("\n")


def talk(s, mon, args, kind, t0, deadline):
    m = s.wait_for(re.escape(PROMPT), 0, deadline)
    if not m:
        return False, "no 'rtk> ' prompt: " + s.why_stopped(args.timeout)
    t_prompt = time.monotonic() - t0
    # 1. bad input, then a clean line.  QEMU drops queued key events
    # past about 50 (ui/input.c's queue limit), so keys go in batches
    # and each batch waits for its echo on the serial line.
    def typed(keys, echo):
        start = len(s.buf)
        mon.type(keys)
        return s.wait_for(re.escape(echo), start,
                          time.monotonic() + args.timeout) is not None

    line = 1
    if not typed(UNMAPPED + ["z"], b"z"):
        return False, "unmapped keys then 'z': no 'z' echoed"
    for _ in range(args.floods):
        for n in range(0, args.repeat, BATCH):
            k = min(BATCH, args.repeat - n)
            if not typed(["a"] * k, b"a" * k):
                return False, "key flood: %d 'a' not echoed" % k
        line += args.repeat
        if not typed(["ctrl-u"], b"\b \b" * line):
            return False, "ctrl-U did not erase the %d characters" % line
        line = 0
    after_junk = len(s.buf)
    # 2. help
    mon.type(["h", "e", "l", "p", "ret"])
    # The keys are delivered at QEMU's pace: wait for the content.
    m = s.wait_for(rb"help\r?\n(?:.*\n)*?" + re.escape(PROMPT), after_junk,
                   time.monotonic() + args.timeout)
    if not m:
        return False, ("prompt after %.1f s; no help output and prompt on "
                       "the serial line after typing 'help' on the "
                       "keyboard" % t_prompt)
    lines = serial_lines(s, after_junk)
    # The echo "help" follows whatever the flood left on the prompt line
    # (erased by ctrl-U with backspaces): the screen shows "rtk> help".
    try:
        i = next(n for n, l in enumerate(lines) if l.endswith("help"))
    except StopIteration:
        return False, "serial line: no 'help' echo"
    out = []
    for line in lines[i + 1:]:
        if line.startswith("rtk>"):
            break
        out.append(line)
    if not any(KNOWN_LINE.match(l) for l in out):
        return False, "serial line: help's output lacks its own line"
    expect = ["rtk> help"] + out
    ppm = os.path.join(args.tmpdir, "screen-%s.ppm" % kind)
    end = time.monotonic() + args.screen_timeout
    while True:
        mon.cmd("screendump " + ppm)
        ok, msg = check_screen(args.font, ppm, expect)
        if ok or time.monotonic() > end:
            break
        time.sleep(0.5)
    keep = os.path.join(args.logdir, "screen-test-%s.ppm" % kind)
    shutil.copyfile(ppm, keep)
    msg = ("prompt after %.1f s; serial shows help (%d lines) typed on the "
           "keyboard after %d unmapped keys and %d x %d repeats; %s (%s)" %
           (t_prompt, len(out), len(UNMAPPED), args.floods, args.repeat,
            msg, keep))
    return ok, msg


def boot_once(kind, args, iso):
    logpath = os.path.join(args.logdir, "screen-test-%s.log" % kind)
    sock = os.path.join(args.tmpdir, "mon-%s.sock" % kind)
    if args.usb:
        # The image as a USB stick (make usb): what a PC boots from.
        media = ["-drive", "if=none,id=stick,format=raw,snapshot=on,file=" +
                 iso, "-device", "qemu-xhci",
                 "-device", "usb-storage,drive=stick,bootindex=0"]
    else:
        media = ["-cdrom", iso, "-boot", "d"]
    cmd = [args.qemu, "-machine", "q35", "-m", args.mem, "-smp", args.smp,
           "-accel", args.accel] + media + [
           "-serial", "stdio", "-display", "none",
           "-monitor", "unix:%s,server,nowait" % sock,
           "-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=4"]
    cmd += firmware_args(kind, args.ovmf, args.tmpdir)
    t0 = time.monotonic()
    s = Serial(cmd, logpath)
    mon = None
    ok, msg = False, "internal error"
    try:
        mon = Monitor(sock, t0 + 30)
        ok, msg = talk(s, mon, args, kind, t0, t0 + args.timeout)
    except (OSError, ValueError) as e:
        msg = "monitor: %s" % e
    finally:
        if mon:
            try:
                mon.cmd("quit")
            except OSError:
                pass
            mon.close()
        s.close(grace=5)
    if not ok:
        print("---- %s: serial output in %s ----" % (kind, logpath))
    return ok, msg


def make_iso(args):
    """The ISO, or a copy whose GRUB entries pass --append."""
    if not args.append:
        return args.iso
    d = os.path.join(args.tmpdir, "iso")
    os.makedirs(os.path.join(d, "boot", "grub"))
    shutil.copyfile(args.elf, os.path.join(d, "boot", "rtk.elf"))
    with open(args.grub_cfg) as f:
        cfg = f.read()
    cfg = re.sub(r"(multiboot2 /boot/rtk.elf)", r"\1 " + args.append, cfg)
    with open(os.path.join(d, "boot", "grub", "grub.cfg"), "w") as f:
        f.write(cfg)
    iso = os.path.join(args.tmpdir, "rtk-append.iso")
    subprocess.run(["grub-mkrescue", "-o", iso, d], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return iso


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iso", required=True)
    ap.add_argument("--font", required=True, help="the PSF font fbcon uses")
    ap.add_argument("--ovmf", default="")
    ap.add_argument("--timeout", type=int, default=180,
                    help="seconds to the prompt, per firmware")
    ap.add_argument("--screen-timeout", type=int, default=60)
    ap.add_argument("--qemu", default="qemu-system-x86_64")
    ap.add_argument("--mem", default="256M")
    ap.add_argument("--smp", default="2")
    ap.add_argument("--accel", default="tcg", choices=["tcg", "kvm"])
    # 100 presses fit the prompt row of an 800-pixel-wide screen, so
    # ctrl-U's backspaces (which do not cross a wrapped row, on the
    # screen as on a terminal) leave "rtk> " behind.
    ap.add_argument("--repeat", type=int, default=90,
                    help="key-repeat flood: presses of 'a' per flood")
    ap.add_argument("--floods", type=int, default=3)
    ap.add_argument("--only", choices=["bios", "uefi"])
    ap.add_argument("--append", default="", help="kernel arguments")
    ap.add_argument("--elf", default="", help="for --append")
    ap.add_argument("--grub-cfg", default="boot/grub.cfg")
    ap.add_argument("--usb", action="store_true",
                    help="boot --iso as a USB stick (the make usb image)")
    args = ap.parse_args(argv)
    args.font = load_psf(args.font)
    args.logdir = os.path.dirname(os.path.abspath(args.iso))
    kinds = [args.only] if args.only else ["bios", "uefi"]
    with tempfile.TemporaryDirectory(prefix="rtk-screen-") as tmpdir:
        args.tmpdir = tmpdir
        iso = make_iso(args)
        return run_firmwares(kinds, args,
                             lambda kind: boot_once(kind, args, iso))


if __name__ == "__main__":
    sys.exit(main())
