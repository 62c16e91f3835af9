#!/usr/bin/env python3
"""tools/mkcpio.py - write a cpio archive in the "newc" format (the one
Linux's initramfs reads: Documentation/driver-api/early-userspace/
buffer-format.rst), from NAME=FILE pairs: each FILE is stored at the
archive's root as NAME, a regular file of mode 0755; a LINK@TARGET pair
is a symlink LINK (it may name a directory path: "lib64/ld.so@../x";
each missing directory on the way is an entry of mode 0755 before it).

newc, per entry: the ASCII magic "070701", then 13 fields of 8 hex
digits (ino, mode, uid, gid, nlink, mtime, filesize, devmajor,
devminor, rdevmajor, rdevminor, namesize with its NUL, check = 0), the
name and its NUL padded to a multiple of 4 bytes (counting the 110-byte
header), the data padded to 4.  The archive ends with an entry named
"TRAILER!!!".  Reproducible: mtime, uid and gid are 0, inodes count
from 1 in argument order.

    tools/mkcpio.py -o build/initramfs.cpio hello=build/user/hello.elf \
        lib64/ld-rtk-test.so@../t_ldso ...
    tools/mkcpio.py --list build/initramfs.cpio      (names and sizes)
"""
import argparse
import sys

MAGIC = b"070701"
TRAILER = "TRAILER!!!"
MODE_FILE = 0o100755
MODE_DIR = 0o040755
MODE_LINK = 0o120777


def pad4(n):
    return (4 - n % 4) % 4


def entry(ino, name, mode, data):
    nameb = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(nameb), 0]
    head = MAGIC + b"".join(b"%08X" % f for f in fields)
    out = head + nameb + b"\0" * pad4(len(head) + len(nameb))
    return out + data + b"\0" * pad4(len(data))


def build(pairs):
    out = []
    seen = set()
    ino = 0
    for pair in pairs:
        if "@" in pair and "=" not in pair:
            name, _, target = pair.partition("@")
            parts = name.split("/")
            if not target or any(not p for p in parts):
                sys.exit("mkcpio: %r: expected LINK@TARGET" % pair)
            for i in range(1, len(parts)):
                d = "/".join(parts[:i])
                if d not in seen:
                    seen.add(d)
                    ino += 1
                    out.append(entry(ino, d, MODE_DIR, b""))
            mode, data = MODE_LINK, target.encode()
        else:
            name, sep, path = pair.partition("=")
            if not sep or not name or "/" in name:
                sys.exit("mkcpio: %r: expected NAME=FILE, NAME without '/'"
                         % pair)
            with open(path, "rb") as f:
                mode, data = MODE_FILE, f.read()
        if name in seen:
            sys.exit("mkcpio: %s given twice" % name)
        seen.add(name)
        ino += 1
        out.append(entry(ino, name, mode, data))
    out.append(entry(0, TRAILER, 0, b""))
    return b"".join(out)


def parse(blob):
    """Yield (name, mode, data) of each entry up to the trailer."""
    off = 0
    while True:
        if blob[off:off + 6] != MAGIC:
            raise ValueError("bad magic at offset %d" % off)
        f = [int(blob[off + 6 + 8 * i:off + 14 + 8 * i], 16) for i in range(13)]
        mode, size, namesize = f[1], f[6], f[11]
        off += 110
        name = blob[off:off + namesize - 1].decode()
        off += namesize
        off += pad4(off)
        if name == TRAILER:
            return
        yield name, mode, blob[off:off + size]
        off += size + pad4(size)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output")
    ap.add_argument("--list", metavar="ARCHIVE")
    ap.add_argument("files", nargs="*", metavar="NAME=FILE|LINK@TARGET")
    a = ap.parse_args()
    if a.list:
        with open(a.list, "rb") as f:
            for name, mode, data in parse(f.read()):
                print("%06o %8d %s" % (mode, len(data), name))
        return
    if not a.output:
        ap.error("-o ARCHIVE is needed to write one")
    blob = build(a.files)
    with open(a.output, "wb") as f:
        f.write(blob)


if __name__ == "__main__":
    main()
