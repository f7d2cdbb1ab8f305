#!/usr/bin/env python3
"""merge-reports.py - merge the reports of a sharded onnx-compile run into one.

  merge-reports.py SHARD_DIR [--json REPORT.json] [--junit JUNIT.xml]

SHARD_DIR holds each shard's report-I.json and junit-I.xml (I = 1..N: what
--report and --junit wrote for --shard I/N; run-matrix-locally.sh's shards/
folder, or the CI jobs' artifacts downloaded into one folder). The merged
JSON report has the shards' models in path order and their summary summed
("time_ms" is the longest shard's: the shards ran at once) with "shards": N;
the merged JUnit XML has one testsuite per shard. Prints the summary line.
Exits 1 when a shard's report is missing or unreadable, or the shards were
converted by different compilers.
"""
import argparse
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

SUMS = ["models", "ok", "failed", "skipped", "internal_errors", "cached", "jobs"]


def shard_files(folder, stem, ext):
    """{I: path} of folder/stem-I.ext."""
    found = {}
    for path in glob.glob(os.path.join(folder, f"{stem}-*.{ext}")):
        m = re.fullmatch(rf"{stem}-([0-9]+)\.{ext}", os.path.basename(path))
        if m:
            found[int(m.group(1))] = path
    return found


def fail(message):
    sys.exit(f"merge-reports: {message}")


def merge_json(reports):
    merged = {"tool": None, "version": None, "shards": len(reports), "summary": {}, "models": []}
    summary = dict.fromkeys(SUMS, 0)
    summary["time_ms"] = 0.0
    for index in sorted(reports):
        with open(reports[index]) as f:
            report = json.load(f)
        for key in ("tool", "version"):
            if merged[key] not in (None, report[key]):
                fail(f"shard {index} was converted by {report[key]}, not {merged[key]}")
            merged[key] = report[key]
        for key in SUMS:
            summary[key] += report["summary"][key]
        summary["time_ms"] = max(summary["time_ms"], report["summary"]["time_ms"])
        merged["models"] += report["models"]
    merged["summary"] = summary
    merged["models"].sort(key=lambda m: m["model"])
    return merged


def merge_junit(junits, count):
    root = ET.Element("testsuites")
    totals = dict.fromkeys(["tests", "failures", "errors", "skipped"], 0)
    longest = 0.0
    for index in sorted(junits):
        shard = ET.parse(junits[index]).getroot()
        root.set("name", shard.get("name", ""))
        for suite in shard.iter("testsuite"):
            suite.set("name", f"{suite.get('name')} shard {index}/{count}")
            for key in totals:
                totals[key] += int(suite.get(key, "0"))
            longest = max(longest, float(suite.get("time", "0")))
            root.append(suite)
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{longest:.3f}")
    ET.indent(root)
    return ET.ElementTree(root)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shard_dir", help="folder of report-I.json and junit-I.xml")
    ap.add_argument("--json", help="merged JSON report to write")
    ap.add_argument("--junit", help="merged JUnit XML to write")
    args = ap.parse_args()

    reports = shard_files(args.shard_dir, "report", "json")
    if not reports:
        fail(f"no report-I.json in {args.shard_dir}")
    count = max(reports)
    missing = sorted(set(range(1, count + 1)) - set(reports))
    if missing:
        fail(f"no report of shard {', '.join(map(str, missing))} of {count} in {args.shard_dir}")
    try:
        merged = merge_json(reports)
    except (OSError, ValueError, KeyError) as e:
        fail(f"cannot read the shards' reports: {e}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(merged, f, indent=2)
            f.write("\n")
    if args.junit:
        junits = shard_files(args.shard_dir, "junit", "xml")
        if sorted(junits) != sorted(reports):
            fail(f"junit-I.xml of shards {sorted(junits)}, reports of {sorted(reports)}")
        try:
            tree = merge_junit(junits, count)
        except (OSError, ET.ParseError) as e:
            fail(f"cannot read the shards' JUnit XML: {e}")
        tree.write(args.junit, encoding="UTF-8", xml_declaration=True)
    s = merged["summary"]
    print(f"{s['models']} models in {count} shards: {s['ok']} ok ({s['cached']} cached), "
          f"{s['failed'] + s['internal_errors']} failed, {s['skipped']} skipped "
          f"in {s['time_ms'] / 1000:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
