#!/usr/bin/env python3
"""tools/labs.py - rtk's graded labs (issue 15 item 3; labs/README.md).

  labs.py list                       name, chapter, one-line goal
  labs.py make LAB DIR               write the student tree of LAB at DIR
  labs.py grade [--lab LAB] [--tests DIR] [--ci]
                                     build, run the graded tests, score
  labs.py check [--lab LAB] [--all-wrong] [--wrong NAME]
                                     reference scores 100; each student tree
                                     builds, boots and fails >= 1 graded
                                     test per solution region; each known-
                                     wrong solution (labs/LAB/wrong/*.patch)
                                     scores below 100 (CI subset)

A lab is labs/<name>/lab.conf (what is graded) and labs/<name>/lab.md
(what the student reads).  Its solution regions are in the real source,
between the comment lines

    /* LAB(<name>:<region>) BEGIN */
    ...the reference solution...
    /* LAB(<name>:<region>) END */

and `make` of a student tree replaces each by labs/<name>/skeleton/
<region>.c (indented like the BEGIN line) between TODO markers that name
the chapter and the exercise.  lab.conf lines:

    chapter: docs/book/NN-name.md      the chapter the lab belongs to
    goal: one line
    models: rt none                    models `grade` builds and boots
    smp: 1 4                           CPU counts it boots each with
    ci: rt 4                           the one (model, smp) check runs
    wrong-ci: NAME...                  the known-wrong solutions check runs
                                       (default: every one; --all-wrong: all)
    case SUITE:TEST POINTS REGION...   a kernel test case (tests/kernel)
    pitest NAME POINTS REGION...       a built-in PI script (tests/pi)

A known-wrong solution is labs/<name>/wrong/<mutant>.patch: a first line
"# what mistake it models", then a diff (patch -p1) against the
reference.  check applies each to one copy of the reference tree, whose
build directory starts from the reference's objects and persists across
the lab's mutants (only the patched file recompiles), grades it on the
ci: run, reverts it, and fails unless it scores below 100; it prints the
list "lab mutant score" at the end.

A graded test earns its points when it passes under every (model, smp)
run (a skip with a reason, e.g. "needs 2 CPUs", is neither pass nor
fail) and passes at least once.  The REGIONs say which solution regions
the test checks: check requires each region to have a failing test in
the student tree.  Hidden tests (--tests DIR): each *.tst there is a PI
tester script typed at `pitest`, each test_*.c a kernel suite copied
into tests/kernel for the build; each counts 10 points unless DIR/points
says "NAME POINTS".  DIR/lab.conf (or DIR/<lab>/lab.conf, a teacher's
directory for several labs) may list more: "case SUITE:TEST POINTS" and
"pitest NAME POINTS" lines as in a lab's lab.conf, for suites of DIR's
test_*.c or of the tree (a case listed there is not counted again).
grade prints one line per graded test and then
`score: N/100`; it exits 0 whatever the score, 2 if grading could not
run (no such lab, a build that fails is graded 0 with the error shown).
Python 3 standard library only.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from ktap import parse_ktap  # noqa: E402
from rtk_console import Console, ConsoleError  # noqa: E402

MARK_RX = re.compile(r"^(\s*)/\* LAB\(([\w-]+):([\w-]+)\) (BEGIN|END) \*/\s*$")
STUDENT_FILE = "labs/STUDENT"     # the lab a student tree was made for
WRONG_RX = re.compile(r"^labs/[\w-]+/wrong/")  # not in a student tree
HIDDEN_POINTS = 10
CMD_TIMEOUT = 900                 # seconds for one `test` command


class Graded:
    def __init__(self, kind, name, points, regions, hidden=False):
        self.kind = kind          # "case", "pitest", "script"
        self.name = name          # suite:test, script name, file path
        self.points = points
        self.regions = regions
        self.hidden = hidden
        self.runs = []            # (config, "pass"/"fail"/"skip", diag)

    def verdict(self):
        st = [r[1] for r in self.runs]
        if st and all(s != "fail" for s in st) and "pass" in st:
            return True
        return False


class Lab:
    def __init__(self, name, root=ROOT):
        self.name = name
        self.dir = os.path.join(root, "labs", name)
        conf = os.path.join(self.dir, "lab.conf")
        if not os.path.isfile(conf):
            raise SystemExit("labs: no lab '%s' (%s missing; make lab-list)"
                             % (name, os.path.relpath(conf, root)))
        self.chapter = self.goal = ""
        self.models, self.smp, self.ci = ["rt"], ["1", "4"], ("rt", "4")
        self.tests = []
        self.wrong_ci = None      # None: check runs every mutant
        with open(conf) as f:
            for ln, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                key, _, val = line.partition(":") if re.match(
                    r"^\w+:", line) else ("", "", "")
                if key == "chapter":
                    self.chapter = val.strip()
                elif key == "goal":
                    self.goal = val.strip()
                elif key == "models":
                    self.models = val.split()
                elif key == "smp":
                    self.smp = val.split()
                elif key == "ci":
                    self.ci = tuple(val.split())
                elif key == "wrong-ci" or line.startswith("wrong-ci:"):
                    self.wrong_ci = line.split(":", 1)[1].split()
                else:
                    w = line.split()
                    if w[0] not in ("case", "pitest") or len(w) < 3:
                        raise SystemExit("%s:%d: bad line: %s" %
                                         (conf, ln, line))
                    self.tests.append(Graded(w[0], w[1], int(w[2]), w[3:]))

    def skeleton(self, region):
        return os.path.join(self.dir, "skeleton", region + ".c")

    def wrong(self):
        """[(name, patch path, the mistake it models)], by name."""
        out = []
        for p in sorted(glob.glob(os.path.join(self.dir, "wrong",
                                               "*.patch"))):
            with open(p) as f:
                first = f.readline().strip()
            if not first.startswith("#"):
                raise SystemExit("labs: %s: the first line must be '# the "
                                 "mistake it models'" % p)
            out.append((os.path.basename(p)[:-6], p, first.lstrip("# ")))
        return out


def all_labs(root=ROOT):
    return sorted(os.path.basename(os.path.dirname(p)) for p in
                  glob.glob(os.path.join(root, "labs", "*", "lab.conf")))


def tree_files(root):
    """Tracked and new files (not build output); a plain walk elsewhere."""
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"],
                             cwd=root, capture_output=True, text=True,
                             check=True).stdout.split("\n")
        return [f for f in out if f and os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        skip = re.compile(r"^(build[^/]*|\.git)(/|$)")
        return [os.path.relpath(os.path.join(d, f), root)
                for d, _, fs in os.walk(root) for f in fs
                if not skip.match(os.path.relpath(os.path.join(d, f), root))]


def regions_of(root, lab):
    """{region: [(file, begin line)]} of lab's markers in root's sources."""
    found = {}
    for f in tree_files(root):
        if not f.endswith((".c", ".h")):
            continue
        with open(os.path.join(root, f), errors="replace") as fh:
            for ln, line in enumerate(fh, 1):
                m = MARK_RX.match(line)
                if m and m.group(2) == lab and m.group(4) == "BEGIN":
                    found.setdefault(m.group(3), []).append((f, ln))
    return found


def replace_regions(text, lab, path, only=None):
    """text with lab's regions (or only the one named) replaced by their
    skeletons; (text, n)."""
    out, n, inside = [], 0, None
    for line in text.split("\n"):
        m = MARK_RX.match(line)
        if m and m.group(2) == lab.name and only in (None, m.group(3)):
            indent, region, what = m.group(1), m.group(3), m.group(4)
            if what == "BEGIN":
                if inside:
                    raise SystemExit("%s: LAB(%s:%s) BEGIN inside %s" %
                                     (path, lab.name, region, inside))
                inside = region
                skel = lab.skeleton(region)
                if not os.path.isfile(skel):
                    raise SystemExit("%s: no skeleton %s" % (path, skel))
                out.append("%s/* LAB(%s:%s) TODO BEGIN" %
                           (indent, lab.name, region))
                out.append("%s * exercise of %s: labs/%s/lab.md */" %
                           (indent, lab.chapter, lab.name))
                with open(skel) as f:
                    for s in f.read().rstrip("\n").split("\n"):
                        out.append(indent + s if s.strip() else "")
                out.append("%s/* LAB(%s:%s) TODO END */" %
                           (indent, lab.name, region))
                n += 1
            else:
                if inside != region:
                    raise SystemExit("%s: LAB(%s:%s) END without BEGIN" %
                                     (path, lab.name, region))
                inside = None
            continue
        if inside is None:
            out.append(line)
    if inside:
        raise SystemExit("%s: LAB(%s:%s) has no END" % (path, lab.name,
                                                        inside))
    return "\n".join(out), n


def make_tree(lab, dest, quiet=False, only=None):
    """Write lab's student tree at dest (a git repository); only: replace
    that region alone (a lab handed out region by region)."""
    if os.path.exists(dest) and os.listdir(dest):
        raise SystemExit("labs: %s exists and is not empty" % dest)
    regions = regions_of(ROOT, lab.name)
    want = {r for t in lab.tests for r in t.regions}
    missing = want - set(regions)
    if missing or not regions:
        raise SystemExit("labs: %s: regions %s named in lab.conf have no "
                         "LAB markers in the source" %
                         (lab.name, ", ".join(sorted(missing)) or "(none)"))
    replaced = 0
    for f in tree_files(ROOT):
        if WRONG_RX.match(f):
            continue    # their context lines are the reference solution
        src, dst = os.path.join(ROOT, f), os.path.join(dest, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if f.endswith((".c", ".h")) and any(f == r[0] for rs in
                                            regions.values() for r in rs):
            with open(src) as fh:
                text, n = replace_regions(fh.read(), lab, f, only)
            with open(dst, "w") as fh:
                fh.write(text)
            shutil.copymode(src, dst)
            replaced += n
        else:
            shutil.copy2(src, dst)
    with open(os.path.join(dest, STUDENT_FILE), "w") as fh:
        fh.write(lab.name + "\n")
    git = ["git", "-c", "user.name=rtk labs", "-c", "user.email=labs@rtk",
           "-C", dest]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "rtk lab %s: student tree "
                          "(%s)" % (lab.name, lab.chapter)], check=True)
    if not quiet:
        print("lab %s: %d region(s) replaced (%s); student tree at %s" %
              (lab.name, replaced, ", ".join(sorted(regions)), dest))
        print("read %s and labs/%s/lab.md, then: make -C %s grade" %
              (lab.chapter, lab.name, dest))
    return regions


# ------------------------------------------------------------------ grading

def hidden_tests(tests_dir, lab=None):
    """Graded entries and kernel files of a teacher's hidden test dir
    (for lab: DIR/<lab>/ when the teacher keeps one per lab)."""
    if lab and os.path.isdir(os.path.join(tests_dir, lab)):
        tests_dir = os.path.join(tests_dir, lab)
    points = {}
    pf = os.path.join(tests_dir, "points")
    if os.path.isfile(pf):
        for line in open(pf):
            w = line.split("#", 1)[0].split()
            if len(w) == 2:
                points[w[0]] = int(w[1])
    graded, cfiles = [], []
    for p in sorted(glob.glob(os.path.join(tests_dir, "*.tst"))):
        name = os.path.basename(p)[:-4]
        g = Graded("script", p, points.get(name, HIDDEN_POINTS), [], True)
        graded.append(g)
    for p in sorted(glob.glob(os.path.join(tests_dir, "test_*.c"))):
        text = open(p).read()
        m = re.search(r"KTEST_SUITE\(\s*(\w+)", text)
        if not m:
            raise SystemExit("labs: %s has no KTEST_SUITE" % p)
        cfiles.append(p)
        for case in re.findall(r"KTEST_CASE\(\s*(\w+)\s*\)", text):
            name = "%s:%s" % (m.group(1), case)
            graded.append(Graded("case", name,
                                 points.get(case, HIDDEN_POINTS), [], True))
    conf = os.path.join(tests_dir, "lab.conf")
    if os.path.isfile(conf):
        listed = {}
        with open(conf) as f:
            for ln, line in enumerate(f, 1):
                w = line.split("#", 1)[0].split()
                if not w:
                    continue
                if w[0] not in ("case", "pitest") or len(w) < 3 or \
                        not w[2].isdigit():
                    raise SystemExit("%s:%d: bad line (want 'case SUITE:"
                                     "TEST POINTS' or 'pitest NAME POINTS')"
                                     ": %s" % (conf, ln, line.strip()))
                listed[(w[0], w[1])] = int(w[2])
        graded = [g for g in graded if (g.kind, g.name) not in listed]
        for (kind, name), pts in listed.items():
            graded.append(Graded(kind, name, pts, [], True))
    return graded, cfiles


# The two priority scales a diagnostic may show (labs/README.md, "Reading
# the messages").  A kernel test prints task->prio: 0-99 are SCHED_FIFO/RR
# (kernel prio 99 - rt_priority, lower is more important), 100-139 are
# SCHED_OTHER (120 + nice).  The PI tester (pitest) prints its own scale,
# 99 - kernel prio: the rt_priority for FIFO tasks, negative for OTHER.
PRIO_RX = re.compile(
    r"\b(prio(?:rity)?|want|its own is)( [A-Z]\w*'s)? (-?\d+)\b")


def kernel_prio_name(k):
    if 0 <= k < 100:
        return "kernel scale; FIFO %d" % (99 - k)
    if 100 <= k < 140:
        return "kernel scale; OTHER nice %d" % (k - 120)
    return "kernel scale"


def explain_prios(diag, kind):
    """diag with each priority it shows marked with its scale."""
    def one(m):
        n = int(m.group(3))
        if kind == "case":
            what = kernel_prio_name(n)
        else:
            what = "pitest scale, 99 - kernel prio; %s" % (
                "FIFO %d" % n if n > 0 else "OTHER, kernel prio %d" %
                (99 - n))
        return "%s%s %d (%s)" % (m.group(1), m.group(2) or "", n, what)
    if kind == "case" and not re.search(r"\bprio", diag):
        return diag     # "want N" alone is not always a priority
    if kind != "case":  # the script's own check: "T: prioeq: 0: 80"
        diag = re.sub(r"\b(n?prio(?:eq|lt|gt): \d+: )(-?\d+)\b",
                      lambda m: "%s%s (%s)" % (m.group(1), m.group(2),
                                               "FIFO " + m.group(2)
                                               if int(m.group(2)) > 0 else
                                               "OTHER"), diag)
    return PRIO_RX.sub(one, diag)


def build(model, builddir, log):
    t = time.monotonic()
    with open(log, "w") as f:
        rc = subprocess.run(["make", "-j%d" % (os.cpu_count() or 2),
                             "BUILD=" + builddir, "PREEMPT=" + model,
                             builddir + "/rtk.elf"], cwd=ROOT, stdout=f,
                            stderr=subprocess.STDOUT).returncode
    return rc == 0, time.monotonic() - t


def run_config(tests, model, smp, elf, log):
    """Boot once, run every graded test; appends to each test's runs."""
    cfg = "%s smp=%s" % (model, smp)
    suites = sorted({t.name.split(":")[0] for t in tests if t.kind == "case"})
    con = Console(elf, smp=int(smp), log=log, cmd_timeout=CMD_TIMEOUT)
    done = set()
    try:
        con.boot()
        if suites:
            out = con.run("test " + " ".join(suites))
            rep = parse_ktap(out, host=True)
            seen = {"%s:%s" % (c.suite, c.name): c for c in rep.cases()}
            crash = [l for l in out if re.search(
                r"Kernel panic|\bOops\b|^BUG: |WARNING: at", l)]
            for t in tests:
                if t.kind != "case":
                    continue
                c = seen.get(t.name)
                if c is None:
                    t.runs.append((cfg, "fail", "did not run" + (
                        ": " + crash[0].strip() if crash else "")))
                else:
                    diag = c.diag[0].lstrip("# ").replace("\t", " ") \
                        if c.diag else ""
                    if len(c.diag) > 1:
                        diag += " (+%d more)" % (len(c.diag) - 1)
                    if c.status == "skip":
                        diag = c.reason
                    else:
                        diag = explain_prios(diag, "case")
                    t.runs.append((cfg, c.status, diag))
                done.add(t)
        for t in tests:
            if t.kind == "pitest":
                out = con.run("pitest " + t.name)
            elif t.kind == "script":
                out = con.run_script("pitest script",
                                     open(t.name).read().split("\n"))
            else:
                continue
            res = [l.strip() for l in out if l.strip().startswith("pitest: ")]
            ok = bool(res) and res[-1] == "pitest: PASS"
            t.runs.append((cfg, "pass" if ok else "fail",
                           "" if ok else (explain_prios(
                               re.sub(r"\s+", " ", res[-1]), "pitest")
                               if res else "no 'pitest:' verdict")))
            done.add(t)
    except ConsoleError as e:
        for t in tests:
            if t not in done:
                t.runs.append((cfg, "fail", "kernel: %s (log %s)" % (e, log)))
    finally:
        con.close()


def grade(lab, tests_dir=None, ci=False, out=sys.stdout):
    """Grade the tree at ROOT for lab; returns (score, tests)."""
    tests = list(lab.tests)
    cfiles = []
    if tests_dir:
        hidden, cfiles = hidden_tests(tests_dir, lab.name)
        tests += hidden
    configs = [lab.ci] if ci else [(m, s) for m in lab.models
                                   for s in lab.smp]
    copied = []
    for p in cfiles:
        dst = os.path.join(ROOT, "tests", "kernel", os.path.basename(p))
        if os.path.exists(dst):
            raise SystemExit("labs: hidden %s would overwrite %s" % (p, dst))
        shutil.copy(p, dst)
        copied.append(dst)
    try:
        for model in sorted({m for m, _ in configs}):
            bdir = "build-grade" + ("-hidden" if copied else "") + "-" + model
            os.makedirs(os.path.join(ROOT, bdir), exist_ok=True)
            log = os.path.join(ROOT, bdir, "build.log")
            ok, secs = build(model, bdir, log)
            print("grade: built PREEMPT=%s in %s (%.0f s)%s" %
                  (model, bdir, secs, "" if ok else ": BUILD FAILED"),
                  file=out, flush=True)
            if not ok:
                for line in [l for l in open(log) if "error" in l][:5]:
                    print("grade:   " + line.rstrip(), file=out)
            for m, smp in configs:
                if m != model:
                    continue
                if not ok:
                    for t in tests:
                        t.runs.append(("%s smp=%s" % (m, smp), "fail",
                                       "build failed"))
                    continue
                t0 = time.monotonic()
                run_config(tests, m, smp,
                           os.path.join(ROOT, bdir, "rtk.elf"),
                           os.path.join(ROOT, bdir,
                                        "grade-%s-smp%s.log" % (m, smp)))
                print("grade: ran %s smp=%s (%.0f s)" %
                      (m, smp, time.monotonic() - t0), file=out, flush=True)
    finally:
        for dst in copied:
            os.remove(dst)
    total = sum(t.points for t in tests)
    got = sum(t.points for t in tests if t.verdict())
    for t in tests:
        ok = t.verdict()
        why = ""
        if not ok:
            bad = [r for r in t.runs if r[1] == "fail"] or t.runs
            why = "  -- never ran"
            if bad:
                diag = re.sub(r"^test_\w+: ", "", bad[0][2] or bad[0][1])
                why = "  -- %s: %s%s" % (bad[0][0], diag, (
                    " (also %s)" % ", ".join(r[0] for r in bad[1:]))
                    if len(bad) > 1 else "")
        skips = [r[0] for r in t.runs if r[1] == "skip"]
        print("%-4s %3d/%-3d %s%s%s%s" % (
            "PASS" if ok else "FAIL", t.points if ok else 0, t.points,
            "hidden " if t.hidden else "",
            t.name if t.kind != "script" else os.path.basename(t.name),
            " (skipped: %s)" % ", ".join(skips) if ok and skips else "",
            why), file=out)
    score = 100 if got == total else int(100 * got / total) if total else 0
    print("score: %d/100" % score, file=out, flush=True)
    return score, tests


def student_lab():
    p = os.path.join(ROOT, STUDENT_FILE)
    return open(p).read().strip() if os.path.isfile(p) else None


def copy_reference(dest, model):
    """dest: a copy of the tree at ROOT with the reference's build
    directory of model (its objects are up to date there)."""
    shutil.rmtree(dest, ignore_errors=True)
    for f in tree_files(ROOT):
        dst = os.path.join(dest, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, f), dst)
    src = os.path.join(ROOT, "build-grade-" + model)
    if os.path.isdir(src):
        shutil.copytree(src, os.path.join(dest, "build-grade-" + model),
                        symlinks=True)


def patch(dest, path, reverse=False):
    """Apply (or revert) the patch at path to the tree at dest; the
    error text, or "" when it applied."""
    r = subprocess.run(["patch", "-p1", "-s", "-f", "--no-backup-if-mismatch"]
                       + (["-R"] if reverse else []) + ["-i", path],
                       cwd=dest, capture_output=True, text=True)
    return "" if r.returncode == 0 else (r.stdout + r.stderr).strip()[-300:]


def check_wrong(lab, only, bad, keep):
    """Grade lab's known-wrong solutions named in only (None: every one)
    on the lab's ci: run, each applied to one copy of the reference whose
    build directory persists from mutant to mutant; [(mutant, score,
    seconds, mistake)] with score None when it could not be graded."""
    muts = [m for m in lab.wrong() if only is None or m[0] in only]
    unknown = set(only or ()) - {m[0] for m in lab.wrong()}
    for u in sorted(unknown):
        bad.append("%s: no known-wrong solution %s (labs/%s/wrong/%s.patch)"
                   % (lab.name, u, lab.name, u))
    if not muts:
        return []
    dest = os.path.join(ROOT, "build-labs", lab.name + "-wrong")
    copy_reference(dest, lab.ci[0])
    rows = []
    for name, path, mistake in muts:
        t0 = time.monotonic()
        print("==== lab %s: known-wrong %s (%s)" % (lab.name, name, mistake),
              flush=True)
        err = patch(dest, path)
        if err:
            bad.append("%s: known-wrong %s does not apply to the reference: "
                       "%s" % (lab.name, name, err))
            rows.append((name, None, 0, mistake))
            continue
        try:
            r = subprocess.run([sys.executable, os.path.join(
                dest, "tools", "labs.py"), "grade", "--ci", "--lab",
                lab.name], cwd=dest, capture_output=True, text=True)
        finally:
            err = patch(dest, path, reverse=True)
        sys.stdout.write(r.stdout)
        m = re.search(r"^score: (\d+)/100", r.stdout, re.M)
        score = int(m.group(1)) if m and r.returncode == 0 else None
        if err:
            bad.append("%s: known-wrong %s does not revert: %s" %
                       (lab.name, name, err))
        if score is None:
            bad.append("%s: grading known-wrong %s failed: %s" %
                       (lab.name, name, r.stderr.strip()[-300:]))
        elif score >= 100:
            bad.append("%s: known-wrong %s scores %d: no graded test "
                       "catches it (%s)" % (lab.name, name, score, mistake))
        rows.append((name, score, time.monotonic() - t0, mistake))
    if not keep:
        shutil.rmtree(dest, ignore_errors=True)
    return rows


def check(names, keep, all_wrong=False, wrong=None):
    """The CI check: reference 100, each student tree below 100 with a
    failing test per region, each known-wrong solution below 100."""
    bad = []
    start = time.monotonic()
    wrong_rows = []
    for name in names:
        lab = Lab(name)
        t0 = time.monotonic()
        # a lab's hidden-example/ (labs/README.md, "Hidden tests") is
        # graded with the reference: the HIDDEN= path stays working
        example = os.path.join(lab.dir, "hidden-example")
        example = example if os.path.isdir(example) else None
        print("==== lab %s: reference (%s smp=%s)%s" % ((name,) + lab.ci + (
            " with %s" % os.path.relpath(example, ROOT) if example else "",)),
            flush=True)
        score, graded = grade(lab, example, ci=True)
        if score != 100:
            bad.append("%s: the reference scores %d, not 100" % (name, score))
        if example and not any(t.hidden for t in graded):
            bad.append("%s: %s graded no hidden test" % (name, example))
        dest = os.path.join(ROOT, "build-labs", name)
        shutil.rmtree(dest, ignore_errors=True)
        regions = make_tree(lab, dest, quiet=True)
        # the reference objects: only the files the lab changed rebuild
        for m in {lab.ci[0]}:
            src = os.path.join(ROOT, "build-grade-" + m)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(dest, "build-grade-" + m),
                                symlinks=True)
        print("==== lab %s: student tree %s" % (name, dest), flush=True)
        r = subprocess.run([sys.executable, os.path.join(
            dest, "tools", "labs.py"), "grade", "--ci"], cwd=dest,
            capture_output=True, text=True)
        sys.stdout.write(r.stdout)
        if r.returncode != 0:
            bad.append("%s: grading the student tree failed: %s" %
                       (name, r.stderr.strip()[-300:]))
            continue
        m = re.search(r"^score: (\d+)/100", r.stdout, re.M)
        if not m or int(m.group(1)) >= 100:
            bad.append("%s: the student tree scores %s, not below 100" %
                       (name, m.group(1) if m else "nothing"))
        if re.search(r"^FAIL .*(build failed|kernel: )", r.stdout, re.M):
            bad.append("%s: the student tree does not build or boot" % name)
        failed = set(re.findall(r"^FAIL +\d+/\d+\s+(\S+)", r.stdout, re.M))
        for region in sorted(regions):
            names_ = {t.name for t in lab.tests if region in t.regions}
            if not names_ & failed:
                bad.append("%s: region %s: no graded test of it fails in "
                           "the student tree (graded by: %s)" %
                           (name, region, ", ".join(sorted(names_)) or
                            "nothing"))
        if not keep:
            shutil.rmtree(dest, ignore_errors=True)
        only = wrong if wrong is not None else (
            None if all_wrong else lab.wrong_ci)
        for row in check_wrong(lab, only, bad, keep):
            wrong_rows.append((name,) + row)
        print("==== lab %s: %.0f s" % (name, time.monotonic() - t0),
              flush=True)
    if wrong_rows:
        print("check-labs: known-wrong solutions (each must score below "
              "100):")
        print("check-labs:   %-14s %-26s %5s %5s  %s" % (
            "lab", "mutant", "score", "secs", "the mistake"))
        for lab_, name, score, secs, mistake in wrong_rows:
            print("check-labs:   %-14s %-26s %5s %5.0f  %s" % (
                lab_, name, "-" if score is None else score, secs,
                mistake))
    for b in bad:
        print("check-labs: " + b)
    print("check-labs: %d lab(s), %s in %.0f s" % (
        len(names), "ok" if not bad else "%d problem(s)" % len(bad),
        time.monotonic() - start))
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    p = sub.add_parser("make")
    p.add_argument("lab")
    p.add_argument("dir")
    p.add_argument("--only", metavar="REGION",
                   help="replace this region alone")
    p = sub.add_parser("grade")
    p.add_argument("--lab")
    p.add_argument("--tests", help="a teacher's hidden tests")
    p.add_argument("--ci", action="store_true",
                   help="only the lab's ci: (model, smp)")
    p = sub.add_parser("check")
    p.add_argument("--lab", help="one lab (default: all)")
    p.add_argument("--keep", action="store_true",
                   help="keep the student trees in build-labs/")
    p.add_argument("--all-wrong", action="store_true",
                   help="every known-wrong solution, not only wrong-ci:")
    p.add_argument("--wrong", action="append", metavar="MUTANT",
                   help="only this known-wrong solution (repeatable)")
    args = ap.parse_args(argv)
    os.chdir(ROOT)
    if args.cmd == "list":
        for name in all_labs():
            lab = Lab(name)
            print("%-14s %-34s %s" % (name, lab.chapter, lab.goal))
        return 0
    if args.cmd == "make":
        make_tree(Lab(args.lab), os.path.abspath(args.dir), only=args.only)
        return 0
    if args.cmd == "grade":
        name = args.lab or student_lab()
        if not name:
            print("grade: which lab? make grade LAB=<name> (make lab-list)")
            return 2
        tests = os.path.abspath(args.tests) if args.tests else None
        if tests and not os.path.isdir(tests):
            print("grade: TESTS=%s is not a directory" % args.tests)
            return 2
        grade(Lab(name), tests, args.ci)
        return 0
    return check([args.lab] if args.lab else all_labs(), args.keep,
                 args.all_wrong, args.wrong)


if __name__ == "__main__":
    sys.exit(main())
