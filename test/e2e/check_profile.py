"""check_profile.py TRACE RUNS NODE... - a profile written by a compiled model
(lib/Runtime/Profile.c) holds, as Chrome trace JSON, RUNS complete events of
each NODE (a site named "NODE (...)"), and its table (TRACE.txt) a row per
NODE with RUNS calls, rows by decreasing total time, and the total row."""
import json
import sys

trace, runs, nodes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
with open(trace) as f:
    events = json.load(f)["traceEvents"]
for node in nodes:
    mine = [e for e in events if e["name"].startswith(node + " (")]
    assert len(mine) == runs, f"{node}: {len(mine)} events, expected {runs}"
    assert all(e["ph"] == "X" and e["dur"] >= 0 and e["ts"] >= 0 for e in mine), mine
with open(trace + ".txt") as f:
    lines = f.read().splitlines()[1:]
assert lines[-1].endswith(" all profiled sites"), lines[-1]
rows = [line.split(None, 4) for line in lines[:-1]]
totals = [float(r[0]) for r in rows]
assert totals == sorted(totals, reverse=True), totals
for node in nodes:
    row = [r for r in rows if r[-1].startswith(node + " (")]
    assert len(row) == 1 and int(row[0][1]) == runs, (node, row)
print(f"{trace}: {len(events)} events, {len(rows)} sites; {', '.join(nodes)} {runs} times each")
