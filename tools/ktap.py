#!/usr/bin/env python3
"""tools/ktap.py - the KTAP version 1 parser of rtk's test output.

parse_ktap() reads one stream (the kernel's serial output or a host test
binary's stdout) into a Report: suites, cases with their diagnostics and
context, the kernel's own summary, and everything wrong with the stream
(crashes, unexpected validator or might_sleep reports, plans that do not
match).  write_ktap() writes the suites back as one KTAP file.
Users: tools/harness.py (make test), tools/bochs.py, tools/labs.py,
tools/soak.py and tools/rtk_console.py.  Moved out of harness.py
unchanged, so that each file is one concept.
Linux counterpart: tools/testing/kunit/kunit_parser.py.
Python 3 standard library only.
"""
import re

DONE_LINE = "rtk: selftest done, powering off"
SUMMARY_RE = re.compile(
    r"# rtk-selftest: (\d+) passed, (\d+) failed, (\d+) skipped")
RESULT_RE = re.compile(r"^( *)(not )?ok (\d+)(?: (.*?))?\s*$")
PLAN_RE = re.compile(r"^( *)1\.\.(\d+)(.*)$")
SUBTEST_RE = re.compile(r"^( *)# Subtest: (.*?)\s*$")
DIAG_RE = re.compile(r"^( *)#(?: (.*))?$")
SKIP_RE = re.compile(r"^(.*?)\s*#\s*SKIP\b\s*(.*)$", re.IGNORECASE)
# Crash markers: panic() and the exception oops (and Linux-style BUG:),
# and a memory-debugging report nobody expected (kernel/mm/mm_report.h:
# "BUG: slab: ..." / "BUG: page: ..."; a test that injects the bug on
# purpose gets "slab: ... (expected)" instead, which is no crash).
# "oops=" is a count in a verdict line (soak-verdict: ... oops=0), not one.
# DEBUG_PREEMPT's report (kernel/sched/smp_processor_id.c) is a bug too.
CRASH_RE = re.compile(
    r"Kernel panic|\b[Oo]ops\b(?!=)|\bOOPS\b|^BUG: |\bBUG: (slab|page): |"
    r"\bBUG: using smp_processor_id\(\)")
PANIC_END = "---[ end Kernel panic"
# The lock validator (kernel/locking/lockdep.h): every report line starts
# "lockdep: "; reports a test provokes on purpose print as
# "lockdep-expected: " instead.  Any unexpected report fails the run (its
# headline is quoted), as does the validator switching itself off.
LOCKDEP_RE = re.compile(r"lockdep: (WARNING: .*|.*validator turned off.*)$")
# might_sleep (kernel/sched/core.c __might_sleep) and schedule() in
# atomic context print "BUG: sleeping function called from invalid
# context at ..." / "BUG: scheduling while atomic: ..." after a printk
# timestamp, so CRASH_RE's "^BUG: " misses them; a test that provokes the
# warning on purpose brackets it with might_sleep_expect_begin/end and it
# prints "might_sleep-expected: sleeping function ..." instead.  Any
# unexpected one fails the run, quoted with the suite and case.
MIGHT_SLEEP_RE = re.compile(
    r"\bBUG: (sleeping function called from invalid context.*|"
    r"scheduling while atomic.*)$")
# A test that raises a fault on purpose brackets the oops with these
# (arch/x86_64/traps.c, tests/kernel/test_exceptions.c); any other oops
# is a crash.
EXPECTED_BEGIN = "-- expected oops begin --"
EXPECTED_END = "-- expected oops end --"


class Case:
    def __init__(self, suite, number, name, status, diag, reason="",
                 context=None):
        self.suite = suite          # suite name
        self.number = number
        self.name = name
        self.status = status        # "pass", "fail" or "skip"
        self.diag = diag            # the "# " lines just before the result
        self.reason = reason        # SKIP reason
        self.context = context or []  # other lines printed by the test


class Suite:
    def __init__(self, name):
        self.name = name
        self.plan = None            # the suite's "1..M", None if not seen
        self.cases = []
        self.result = None          # "pass"/"fail"/"skip" from "ok N name"
        self.skip_reason = ""
        self.lines = []             # the suite's KTAP lines, indent 4
        self.problems = []


class Report:
    """What one KTAP stream said, plus everything wrong with it."""

    def __init__(self):
        self.suites = []
        self.plan = None            # top-level "1..N"
        self.summary = None         # (passed, failed, skipped) if printed
        self.done = False           # the DONE_LINE was seen
        self.crashes = []           # (line number, line, suite/test or None)
        self.expected_oopses = 0    # oopses between the expected markers
        self.problems = []          # stream-level inconsistencies

    def cases(self):
        return [c for s in self.suites for c in s.cases]

    def counts(self):
        res = {"pass": 0, "fail": 0, "skip": 0}
        for c in self.cases():
            res[c.status] += 1
        return res["pass"], res["fail"], res["skip"]


def clean_line(line):
    """Strip CR, ANSI escape sequences and other control bytes."""
    line = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line)
    return "".join(ch for ch in line if ch == "\t" or ch >= " ")


def running_case(suite):
    """Where a report line came from: " (in suite, after case)", or ""
    between suites.  The case named is the last one finished; the report
    belongs to the one running after it."""
    if suite is None or suite.result is not None:
        return ""
    return " (in %s, after %s)" % (suite.name, suite.cases[-1].name
                                   if suite.cases else "its plan")


def parse_ktap(lines, host=False):
    """parse_ktap - parse one KTAP version 1 stream (kernel or host).

    Test cases are the result lines at nesting level 1 (4 spaces); a
    suite starts at "# Subtest: name" and ends at its level-0 "ok N name".
    A case's diagnostics are the "# " lines at the same indent since the
    previous result line; other lines printed meanwhile (printk output,
    oopses) are kept as its context.  An oops between the lines
    EXPECTED_BEGIN and EXPECTED_END was raised on purpose by a test;
    any other oops, and every panic, is a crash.
    """
    rep = Report()
    suite = None
    diag, context = [], []
    in_expected = False
    for lineno, raw in enumerate(lines, 1):
        line = clean_line(raw.rstrip("\r\n"))
        stripped = line.strip()
        if EXPECTED_BEGIN in line or EXPECTED_END in line:
            in_expected = EXPECTED_BEGIN in line
            continue
        m = SUMMARY_RE.search(line)
        if m:
            rep.summary = tuple(int(x) for x in m.groups())
            continue
        if DONE_LINE in line:
            rep.done = True
            continue
        is_ktap = RESULT_RE.match(line) or (DIAG_RE.match(line) and
                                             line.startswith("    #"))
        m = None if is_ktap else LOCKDEP_RE.search(line)
        if m:
            rep.problems.append("unexpected lockdep report at serial line "
                                "%d%s: %s" % (lineno, running_case(suite),
                                              m.group(1)))
        m = None if is_ktap else MIGHT_SLEEP_RE.search(line)
        if m:
            rep.problems.append("unexpected might_sleep report at serial "
                                "line %d%s: BUG: %s" % (
                                    lineno, running_case(suite), m.group(1)))
        if not is_ktap and CRASH_RE.search(line) and PANIC_END not in line:
            if in_expected and "Kernel panic" not in line:
                rep.expected_oopses += 1
            else:
                where = None
                if suite is not None and suite.result is None:
                    where = suite.name + ", after " + (
                        suite.cases[-1].name if suite.cases else "its plan")
                rep.crashes.append((lineno, line, where))
            context.append(line)
            continue
        indent = len(line) - len(line.lstrip(" "))
        m = SUBTEST_RE.match(line)
        if m:
            if suite is not None and suite.result is None:
                suite.problems.append("suite ended without its result line")
            suite = Suite(m.group(2))
            rep.suites.append(suite)
            diag, context = [], []
            suite.lines.append("    # Subtest: " + suite.name)
            continue
        if stripped == "KTAP version 1":
            continue
        m = PLAN_RE.match(line)
        if m:
            n = int(m.group(2))
            if indent == 0 and not host:
                rep.plan = n
            elif suite is not None:
                suite.plan = n
                sk = SKIP_RE.match(line)
                if sk:
                    suite.skip_reason = sk.group(2)
                suite.lines.append("    " + stripped)
            continue
        m = RESULT_RE.match(line)
        if m and suite is not None:
            ok = m.group(2) is None
            number = int(m.group(3))
            desc = m.group(4) or ""
            reason = ""
            sk = SKIP_RE.match(desc)
            if sk:
                desc, reason = sk.group(1), sk.group(2)
            if indent >= 4 and suite.result is None:
                status = "skip" if (ok and sk) else ("pass" if ok else "fail")
                case = Case(suite.name, number, desc, status, diag, reason,
                            context)
                suite.cases.append(case)
                suite.lines.append("    " + stripped)
                diag, context = [], []
                continue
            if indent == 0:
                suite.result = "skip" if (ok and sk) else (
                    "pass" if ok else "fail")
                if suite.skip_reason == "" and sk:
                    suite.skip_reason = reason
                diag, context = [], []
                continue
        m = DIAG_RE.match(line)
        if m and suite is not None and suite.result is None and indent >= 4:
            diag.append(stripped)
            suite.lines.append("    " + stripped)
            continue
        if suite is not None and suite.result is None and stripped:
            context.append(line)
    if suite is not None and suite.result is None:
        suite.problems.append("output ends inside this suite")
    check_consistency(rep, host)
    return rep


def check_consistency(rep, host):
    """Plans against what was seen; the kernel's own count against ours."""
    for s in rep.suites:
        if s.plan is not None and s.plan != len(s.cases):
            s.problems.append("plan 1..%d but %d results" %
                              (s.plan, len(s.cases)))
        if s.plan is None:
            s.problems.append("no plan line")
        if s.result == "pass" and any(c.status == "fail" for c in s.cases):
            s.problems.append("suite says ok but a test failed")
        if s.result == "fail" and not any(c.status == "fail"
                                          for c in s.cases):
            s.problems.append("suite says not ok but no test failed")
        rep.problems.extend("suite %s: %s" % (s.name, p) for p in s.problems)
    if host:
        return
    if rep.plan is None:
        rep.problems.append("no top-level KTAP plan (1..N)")
    elif rep.plan != len(rep.suites):
        rep.problems.append("plan 1..%d but %d suites ran" %
                            (rep.plan, len(rep.suites)))
    if rep.summary is None:
        rep.problems.append("no '# rtk-selftest: ...' summary line")
    elif rep.summary != rep.counts():
        rep.problems.append(
            "kernel summary says %d passed, %d failed, %d skipped but the "
            "KTAP shows %d passed, %d failed, %d skipped" %
            (rep.summary + rep.counts()))
    if not rep.done:
        rep.problems.append("no '%s' line" % DONE_LINE)


def write_ktap(path, reports):
    suites = [s for r in reports for s in r.suites]
    with open(path, "w") as f:
        f.write("KTAP version 1\n1..%d\n" % len(suites))
        for i, s in enumerate(suites, 1):
            f.write("    KTAP version 1\n")
            for line in s.lines:
                f.write(line + "\n")
            res = s.result or ("fail" if s.problems else "pass")
            if any(c.status == "fail" for c in s.cases) or s.problems:
                res = "fail"
            f.write("%sok %d %s%s\n" % ("not " if res == "fail" else "", i,
                                        s.name,
                                        " # SKIP" if res == "skip" else ""))
