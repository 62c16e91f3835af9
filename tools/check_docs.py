#!/usr/bin/env python3
"""tools/check_docs.py - the documentation's references, checked (make check-docs).

Checks every Markdown file under docs/ and labs/, README.md and
model/pi/README.md.
Four checks (docs/book/README.md, "How the references are checked" and
"Transcripts", is the writer's side of this):

  1. A repository path: a word that starts with a top-level directory of
     the tree (boot/ arch/ kernel/ lib/ drivers/ tests/ tools/ model/
     docs/ .ci/), in or out of backticks, e.g. kernel/locking/rtmutex.c.
     It must exist.  A ":123" after it is accepted and not checked (the
     book uses no line numbers; docs/primitives.md still does).  A Linux
     file is written linux/kernel/..., which this rule does not match.
  2. A function reference, always in backticks: `path:function`,
     `path:function()`, or a bare file name that names one file in the
     tree, `rtmutex.c:rt_mutex_unlock`.  A line break after the colon is
     allowed (Markdown joins it).  The file must exist and the function
     must be defined in it, which means what a reader's grep finds: the
     name followed by "(" on a line that starts a definition (no leading
     blank, no trailing ";"), a "#define name", an asm label "name:", or
     a "struct name {" / typedef ending in "name;".
  3. A test reference, in backticks or not (one blank after the colon
     allowed, as docs/concurrency.md's tables write them):
     `suite:test_case` for a kernel suite (KTEST_SUITE(suite, ...) in
     tests/kernel/) and `host-name:test_case` for tests/host/test_name.c.  The suite must
     exist and the case be defined in its file.

  4. Each ```rtk-transcript block (docs/book/README.md, "Transcripts")
     names model= and smp=, and each "~ " expected line compiles as a
     regular expression and matches a line of its command's excerpt.
     Replaying the blocks against a booted kernel is
     tools/replay_transcripts.py (make check-transcripts).

Templates are skipped: anything with <, >, *, $, { or "..." in it.
Each stale reference prints as "file:line: what" and the exit status is 1;
otherwise one summary line and 0.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOPDIRS = ("boot", "arch", "kernel", "lib", "drivers", "tests", "tools",
           "model", "docs", "labs", ".ci")
PATH_RX = re.compile(r"(?<![\w./-])((?:%s)/[\w./+-]*[\w/])(?::(\d+))?"
                     % "|".join(re.escape(d) for d in TOPDIRS))
TICK_RX = re.compile(r"`([^`]+)`", re.S)
FUNCREF_RX = re.compile(r"^([\w./+-]+\.(?:c|h|asm|S|py|sh|pml)):\s*"
                        r"([A-Za-z_]\w*)(?:\(\))?$")
TESTREF_RX = re.compile(r"(?<![\w./-])(host-)?([a-z_]\w*): ?(test_\w+)")


def tracked_files():
    try:        # tracked and new files, not build output
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"],
                             cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):   # not a git tree
        out = [os.path.relpath(os.path.join(d, f), ROOT)
               for d, dirs, fs in os.walk(ROOT) for f in fs
               if "/build" not in d and "/.git" not in d]
    files = set(f for f in out if f and os.path.exists(os.path.join(ROOT, f)))
    dirs = set()
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts)):
            dirs.add("/".join(parts[:i]))
    return files, dirs


FILES, DIRS = tracked_files()
BY_BASENAME = {}
for _f in FILES:
    BY_BASENAME.setdefault(os.path.basename(_f), []).append(_f)
_src_cache = {}


def source(path):
    if path not in _src_cache:
        with open(os.path.join(ROOT, path), errors="replace") as fh:
            _src_cache[path] = fh.read()
    return _src_cache[path]


def defines(path, name):
    """True if a definition grep finds name in path (see the header)."""
    n = re.escape(name)
    text = source(path)
    rxs = [
        # C function definition: starts at column 0, "name(" on it, and
        # the line is not a prototype (no trailing ";").
        r"^(?![ \t#/*])[^;\n]*?\b%s\s*\([^\n]*$(?<!;)" % n,
        r"^[ \t]*#[ \t]*define[ \t]+%s\b" % n,     # macro
        r"^[ \t]*%s:" % n,                          # asm label
        r"^[ \t]*(?:global|GLOBAL)[ \t]+%s\b" % n,  # asm export
        r"^(?:typedef[ \t]+)?struct[ \t]+%s\b[^;\n]*(?:\{|$)" % n,
        r"^}[ \t]*%s;" % n,                          # typedef struct {} name;
        r"^typedef\b[^\n]*\b%s;" % n,
        r"^(?:def|class)[ \t]+%s\b" % n,             # python
        r"^%s\(\)[ \t]*\{" % n,                      # shell function
        r"^(?:proctype|inline|active[ \t]+proctype)[ \t]+%s\b" % n,  # Promela
        r"^[A-Z_]+\(%s\b" % n,       # SHELL_COMMAND(name, ...), KTEST_SUITE
    ]
    for rx in rxs:
        for m in re.finditer(rx, text, re.M):
            line = text[m.start():text.find("\n", m.start())]
            if line.rstrip().endswith(";") and "(" in line and \
                    not line.lstrip().startswith(("#", "}", "typedef")):
                continue                              # a prototype
            return True
    return False


def resolve(path):
    """Tree path for a reference's file part, or None (+ why)."""
    if "/" in path:
        return (path, None) if path in FILES else (None, "no such file")
    hits = BY_BASENAME.get(path, [])
    if len(hits) == 1:
        return hits[0], None
    if not hits:
        return None, "no file of that name in the tree"
    return None, "ambiguous file name (%s): spell the path" % ", ".join(hits)


_suites = None


def suites():
    """suite name -> file, from KTEST_SUITE(name, ...) in tests/kernel/."""
    global _suites
    if _suites is None:
        _suites = {}
        for f in FILES:
            if f.startswith("tests/kernel/") and f.endswith(".c"):
                for m in re.finditer(r"^KTEST_SUITE(?:_INIT)?\(\s*(\w+)", source(f),
                                     re.M):
                    _suites[m.group(1)] = f
    return _suites


def is_template(s):
    return any(c in s for c in "<>*${") or "..." in s


COUNTS = {"path": 0, "function": 0, "test": 0, "transcript": 0}


def check_file(doc):
    errors = []
    text = source(doc)
    # Fenced code blocks are shell transcripts and examples: their paths
    # are checked, their backticks are not inline code.
    lines = text.split("\n")
    in_fence = False
    prose = []
    for ln in lines:
        if ln.lstrip().startswith("```"):
            in_fence = not in_fence
            prose.append("")
            continue
        prose.append("" if in_fence else ln)
    prose_text = "\n".join(prose)

    def lineno(off):
        return text.count("\n", 0, off) + 1

    def err(off, msg):
        errors.append("%s:%d: %s" % (doc, lineno(off), msg))

    # [2], [3]: backticked references (prose only).
    for m in TICK_RX.finditer(prose_text):
        inner = re.sub(r"\s*\n\s*", "", m.group(1)).strip()
        if is_template(inner):
            continue
        fm = FUNCREF_RX.match(inner)
        if fm:
            path, fn = fm.group(1), fm.group(2)
            COUNTS["function"] += 1
            real, why = resolve(path)
            if real is None:
                err(m.start(), "`%s`: %s" % (inner, why))
            elif not defines(real, fn):
                err(m.start(), "`%s`: %s is not defined in %s"
                    % (inner, fn, real))
            continue
    # [3]: test references, in or out of backticks (the tables of
    # docs/primitives.md list them bare).
    for m in TESTREF_RX.finditer(prose_text):
        host, suite, case = m.groups()
        COUNTS["test"] += 1
        if host:
            f = "tests/host/test_%s.c" % suite
            if f not in FILES:
                err(m.start(), "%s: no host test file %s" % (m.group(0), f))
                continue
        else:
            f = suites().get(suite)
            if f is None:
                err(m.start(), "%s: no KTEST_SUITE(%s, ...) in tests/kernel/"
                    % (m.group(0), suite))
                continue
        if not defines(f, case):
            err(m.start(), "%s: %s is not defined in %s"
                % (m.group(0), case, f))
    # [1]: repository paths anywhere (prose and fences).
    for m in PATH_RX.finditer(text):
        p = m.group(1).rstrip(".")
        if is_template(text[m.start():m.end() + 1]) or \
                text[m.end():m.end() + 1] in "<*{$":
            continue
        COUNTS["path"] += 1
        if p.rstrip("/") in DIRS or p in FILES:
            continue
        # "kernel/irq/manage.c" followed by prose punctuation is fine; a
        # directory named without its slash is fine; anything else is stale.
        err(m.start(), "%s: no such file or directory" % p)
    return errors


FENCE_RX = re.compile(r"^(\s*)```(.*)$")
MODELS = ("none", "voluntary", "desktop", "rt")


def transcript_blocks(doc):
    """Each ```rtk-transcript block of doc: (info-string line number, info
    dict, groups), a group being one command's [(line number, text)], its
    first entry the `rtk> ` line (the first group holds what comes before
    any command).  tools/replay_transcripts.py replays these."""
    lines = source(doc).split("\n")
    i = 0
    while i < len(lines):
        m = FENCE_RX.match(lines[i])
        if not m or not m.group(2).startswith("rtk-transcript"):
            i += 1
            continue
        start = i + 1
        info = dict(kv.split("=", 1) for kv in m.group(2).split()[1:]
                    if "=" in kv)
        j = start
        groups = [[]]            # [(lineno, text)] per command
        while j < len(lines) and not FENCE_RX.match(lines[j]):
            text = lines[j][len(m.group(1)):]
            if text.startswith("rtk> "):
                groups.append([])
            groups[-1].append((j + 1, text))
            j += 1
        yield start, info, groups
        i = j + 1


def check_transcripts(doc):
    """[4] Each ```rtk-transcript block is well formed, so that a replay
    can run it: the info string names model= and smp=, every "~ " line
    is a regular expression that compiles, and it matches a line of the
    excerpt shown for the same command (an expected line the reader
    cannot see in the excerpt is a typo or a stale excerpt)."""
    errors = []
    for start, info, groups in transcript_blocks(doc):
        COUNTS["transcript"] += 1
        if info.get("model") not in MODELS or \
                not info.get("smp", "").isdigit():
            errors.append("%s:%d: rtk-transcript needs model=%s and smp=N"
                          % (doc, start, "|".join(MODELS)))
        for g in groups:
            shown = [t for _, t in g if not t.startswith(("~ ", "rtk> "))]
            for ln, t in g:
                if not t.startswith("~ "):
                    continue
                try:
                    rx = re.compile(t[2:])
                except re.error as e:
                    errors.append("%s:%d: bad expected-line regex: %s"
                                  % (doc, ln, e))
                    continue
                if not any(rx.search(x) for x in shown):
                    errors.append("%s:%d: expected line %r matches no line "
                                  "of the excerpt above it" % (doc, ln, t))
    return errors


def main(argv):
    docs = argv[1:] or sorted(
        [f for f in FILES if f.startswith(("docs/", "labs/")) and
         f.endswith(".md")] +
        ["README.md", "model/pi/README.md"])
    errors = []
    for d in docs:
        errors += check_file(d)
        errors += check_transcripts(d)
    for e in errors:
        print(e)
    if errors:
        print("check-docs: %d stale reference(s) or transcript error(s) in %d file(s)"
              % (len(errors), len(docs)))
        return 1
    print("check-docs: %d files; %d paths, %d file:function and %d suite:case "
          "references resolve; %d transcripts well formed"
          % (len(docs), COUNTS["path"], COUNTS["function"], COUNTS["test"],
             COUNTS["transcript"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
