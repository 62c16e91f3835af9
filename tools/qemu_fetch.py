#!/usr/bin/env python3
"""tools/qemu_fetch.py - QEMU 10 from Debian bookworm-backports, unpacked
into the build cache (`make qemu-fetch`; issue 31 item 4).

    tools/qemu_fetch.py --cache build/qemu10

Debian 12's QEMU 7.2 has two limits rtk's measurements run into: its
-icount mode does not share the instruction budget fairly between vCPUs
(fixed upstream in 8.1), and its TCG has no x2APIC.  bookworm-backports
carries QEMU 10.0 built for Debian 12.  This fetches it without touching
the machine's apt configuration or installing anything:

  1. CACHE/apt/ holds a private apt configuration: a sources.list naming
     only bookworm-backports, and its own state (package lists, an empty
     dpkg status) and cache directories; `apt-get update` runs on it
     once (it needs the archive keyring, which Debian 12 has);
  2. compare_linux.fetch (the way `make compare-linux` fetches Debian's
     kernels) `apt-get download`s the packages under that configuration
     into CACHE/debs/ and unpacks them with `dpkg-deb -x` into
     CACHE/root/;
  3. CACHE/qemu-system-x86_64 is a wrapper script that runs
     CACHE/root/usr/bin/qemu-system-x86_64 with LD_LIBRARY_PATH at the
     unpacked libraries (none are needed on Debian 12 today: the check
     below says which are, should a later build want newer ones) and
     `-L` at the unpacked option ROMs (linuxboot_dma.bin, multiboot,
     ...) and SeaBIOS, so that `make test QEMU=CACHE/qemu-system-x86_64`
     (or `make test QEMU10=1`) just works.

The packages: qemu-system-x86 (the binary), qemu-system-data (its ROMs
and keymaps) and seabios (the BIOS built with it).  At start QEMU 10
still finds the host's QEMU 7.2 modules (audio, OpenGL) in its compiled-in
module directory and refuses them ("Only modules from the same build
can be loaded"): harmless warnings, TCG is built into the binary.  A second run finds
everything in place and only prints the version.  Python 3 standard
library only, plus apt-get, dpkg-deb and ldd.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_linux import fetch  # noqa: E402  (apt-get download + dpkg-deb)

SOURCE = ("deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
          "http://deb.debian.org/debian bookworm-backports main")
PACKAGES = ["qemu-system-x86", "qemu-system-data", "seabios"]
LIBDIR = "usr/lib/x86_64-linux-gnu"

WRAPPER = """#!/bin/sh
# QEMU 10 from bookworm-backports, unpacked by tools/qemu_fetch.py: its
# own libraries first, its own option ROMs and SeaBIOS before the
# host's (-L), so QEMU 7.2's files in /usr/share/qemu are not mixed in.
d=$(dirname "$(readlink -f "$0")")/root
LD_LIBRARY_PATH=$d/%(libdir)s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
exec "$d/usr/bin/qemu-system-x86_64" -L "$d/usr/share/qemu" \\
	-L "$d/usr/share/seabios" "$@"
"""


def private_apt(cache):
    """Write CACHE/apt's configuration, `apt-get update` it once; return
    the -o options that select it (absolute paths: fetch runs apt-get
    download in CACHE/debs)."""
    apt = os.path.abspath(os.path.join(cache, "apt"))
    for d in ("state/lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(apt, d), exist_ok=True)
    sources = os.path.join(apt, "sources.list")
    with open(sources, "w") as f:
        f.write(SOURCE + "\n")
    status = os.path.join(apt, "state", "status")
    if not os.path.exists(status):
        open(status, "w").close()  # no packages "installed" here
    opts = ["-o", "Dir::Etc::sourcelist=" + sources,
            "-o", "Dir::Etc::sourceparts=-",  # not /etc/apt/sources.list.d
            "-o", "Dir::State=" + os.path.join(apt, "state"),
            "-o", "Dir::State::status=" + status,
            "-o", "Dir::Cache=" + os.path.join(apt, "cache"),
            "-o", "Debug::NoLocking=1",  # nor the host's dpkg/apt locks
            "-o", "APT::Sandbox::User=root"]  # CACHE is not _apt's
    lists = os.path.join(apt, "state", "lists")
    if not any(n.endswith("_Packages") for n in os.listdir(lists)):
        print("qemu-fetch: apt-get update (%s only)" % SOURCE.split("] ")[1])
        subprocess.run(["apt-get"] + opts + ["-q", "update"], check=True)
    return opts


def missing_libs(binary):
    """The shared libraries ldd finds nowhere, with the unpacked ones on
    the path (what a package list here would have to add)."""
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(binary))), LIBDIR))
    out = subprocess.run(["ldd", binary], capture_output=True, text=True,
                         env=env).stdout
    return [line.split()[0] for line in out.splitlines()
            if "not found" in line]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", default="build/qemu10")
    a = ap.parse_args(argv)
    os.makedirs(a.cache, exist_ok=True)
    root = os.path.join(a.cache, "root")
    binary = os.path.join(root, "usr", "bin", "qemu-system-x86_64")
    if not os.path.exists(binary):
        fetch(a.cache, PACKAGES, "root", private_apt(a.cache))
    missing = missing_libs(binary)
    if missing:
        sys.exit("qemu-fetch: %s needs %s, which this host lacks: add "
                 "their packages to PACKAGES in %s and remove %s" % (
                     binary, ", ".join(missing), __file__, root))
    wrapper = os.path.join(a.cache, "qemu-system-x86_64")
    with open(wrapper + ".tmp", "w") as f:
        f.write(WRAPPER % {"libdir": LIBDIR})
    os.chmod(wrapper + ".tmp", 0o755)
    os.replace(wrapper + ".tmp", wrapper)  # make's target: written last
    version = subprocess.run([wrapper, "--version"], capture_output=True,
                             text=True, check=True).stdout.splitlines()[0]
    print("qemu-fetch: %s: %s" % (wrapper, version))
    return 0


if __name__ == "__main__":
    sys.exit(main())
