#!/usr/bin/env python3
"""tools/trace2json.py - turn rtk's `trace dump` (kernel/debug/sched_trace.h)
from a captured serial log into Chrome/Perfetto trace-event JSON.

    python3 tools/trace2json.py serial.log -o build/trace.json

Open the file in ui.perfetto.dev or chrome://tracing: one track per CPU
("CPU n") with the tasks that ran there as complete ("X") slices, IRQ
thread runs in category "irq", wake-ups, lock contention and PI boosts /
deboosts as instant events, and one "prio <comm>" counter per boosted
task.  Only the last dump in the log is used.  Python 3 standard library.
Format reference: the Trace Event Format document (Google), "Complete
events", "Instant events", "Counter events", "Metadata events".
"""
import argparse
import json
import re
import sys

LINE = re.compile(r"ST (\d+) (\d+) (\w+)((?: \w+=\S*)*)\s*$")


def parse(lines):
    """The events of the last dump: (ns, cpu, type, {key: value})."""
    events, inside = [], False
    for raw in lines:
        line = raw.strip().replace("\r", "")
        if line.startswith("# sched_trace dump begin"):
            events, inside = [], True
            continue
        if line.startswith("# sched_trace dump end"):
            inside = False
            continue
        m = LINE.search(line) if inside else None
        if m:
            kv = dict(f.split("=", 1) for f in m.group(4).split())
            events.append((int(m.group(1)), int(m.group(2)), m.group(3), kv))
    events.sort(key=lambda e: e[0])
    return events


def convert(events):
    """The trace-event list for events."""
    out, cpus = [], set()
    if not events:
        return out
    t0 = events[0][0]
    running = {}            # cpu -> (start_us, pid, comm, prio)

    def us(ns):
        return (ns - t0) / 1000.0

    def close(cpu, end_us):
        if cpu in running:
            start, pid, comm, prio = running.pop(cpu)
            out.append({"name": comm, "cat": "irq" if comm.startswith("irq/")
                        else "task", "ph": "X", "ts": start,
                        "dur": max(end_us - start, 0.001), "pid": 0,
                        "tid": cpu, "args": {"pid": pid, "prio": prio}})

    for ns, cpu, typ, kv in events:
        cpus.add(cpu)
        t = us(ns)
        if typ == "switch":
            if cpu not in running:      # what ran before the first switch
                running[cpu] = (0.0, kv["prev_pid"], kv["prev_comm"],
                                kv["prev_prio"])
            close(cpu, t)
            running[cpu] = (t, kv["next_pid"], kv["next_comm"],
                            kv["next_prio"])
        elif typ in ("boost", "deboost"):
            out.append({"name": "%s %s %s->%s" % (typ, kv["comm"],
                        kv["old_prio"], kv["new_prio"]), "cat": "pi",
                        "ph": "i", "s": "g", "ts": t, "pid": 0, "tid": cpu,
                        "args": kv})
            out.append({"name": "prio " + kv["comm"], "ph": "C", "ts": t,
                        "pid": 0, "args": {"prio": int(kv["new_prio"])}})
        elif typ in ("wakeup", "contend", "irqrun"):
            name = "%s %s" % (typ, kv.get("comm", "?"))
            out.append({"name": name, "cat": typ, "ph": "i", "s": "t",
                        "ts": t, "pid": 0, "tid": cpu, "args": kv})
    end = us(events[-1][0])
    for cpu in list(running):
        close(cpu, end)
    out.append({"name": "process_name", "ph": "M", "pid": 0,
                "args": {"name": "rtk"}})
    for cpu in sorted(cpus):
        out.append({"name": "thread_name", "ph": "M", "pid": 0, "tid": cpu,
                    "args": {"name": "CPU %d" % cpu}})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", help="serial log holding a `trace dump`")
    ap.add_argument("-o", "--output", default="-", help="JSON file (- stdout)")
    a = ap.parse_args()
    with open(a.log, errors="replace") as f:
        events = parse(f)
    if not events:
        sys.exit("trace2json: no '# sched_trace dump begin' ... events in "
                 + a.log)
    doc = {"traceEvents": convert(events), "displayTimeUnit": "ns"}
    if a.output == "-":
        json.dump(doc, sys.stdout)
    else:
        with open(a.output, "w") as f:
            json.dump(doc, f)
        print("trace2json: %d events -> %s" % (len(events), a.output))


if __name__ == "__main__":
    main()
