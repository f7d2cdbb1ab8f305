"""check_matrix.py - examples/ci: the local shard matrix and the CI files.

  1. run-matrix-locally.sh -n 3 over 8 small models and a corrupt one, --emit
     lib: exit code 1; the merged report.json and junit.xml list every model
     once (the corrupt one failed, the others ok and not cached), their
     summaries add up the three shards', every good model's library is in
     out/;
  2. again with -n 2: every good model restored from the shared cache;
  3. usage errors (no models, -n 0) exit with 2;
  4. github-actions.yml and gitlab-ci.yml parse, install the package from
     $ONNXC_DEB_URL with apt-get, build nothing, and convert with the shard
     options the script uses.
Exits non-zero on the first failed check.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_MODELS = os.path.join(HERE, "..", "..", "batch", "make_batch_models.py")


def check(cond, message):
    if not cond:
        print(f"FAIL: {message}")
        sys.exit(1)


def matrix(script, env, args, expect_rc):
    proc = subprocess.run([script] + args, env=env, capture_output=True, text=True)
    print(proc.stdout, end="")
    check(proc.returncode == expect_rc,
          f"run-matrix-locally.sh {' '.join(args)}: exit code {proc.returncode}, "
          f"expected {expect_rc}\n{proc.stdout}{proc.stderr}")
    return proc


def check_reports(out, shards, models, corrupt, cached):
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    names = [os.path.basename(m["model"]) for m in report["models"]]
    check(names == sorted(models), f"merged report lists {names}, expected {sorted(models)}")
    check(report["shards"] == shards, f"merged report of {report['shards']} shards, expected {shards}")
    for m in report["models"]:
        bad = os.path.basename(m["model"]) == corrupt
        check(m["status"] == ("failed" if bad else "ok"), f"{m['model']}: status {m['status']}")
        check(m["cached"] == (cached and not bad), f"{m['model']}: cached {m['cached']}")
    summary = report["summary"]
    good = len(models) - (1 if corrupt else 0)
    check((summary["models"], summary["ok"], summary["failed"], summary["cached"])
          == (len(models), good, 1 if corrupt else 0, good if cached else 0),
          f"merged summary {summary}")
    # The shards' own reports add up to the merged one.
    parts = []
    for i in range(1, shards + 1):
        with open(os.path.join(out, "shards", f"report-{i}.json")) as f:
            parts.append(json.load(f))
    check(sum(p["summary"]["models"] for p in parts) == len(models), "shard summaries do not add up")
    check(all(p["summary"]["models"] > 0 for p in parts), "a shard converted nothing")
    junit = ET.parse(os.path.join(out, "junit.xml")).getroot()
    suites = junit.findall("testsuite")
    check(len(suites) == shards, f"merged JUnit has {len(suites)} testsuites, expected {shards}")
    cases = sorted(os.path.basename(c.get("name")) for c in junit.iter("testcase"))
    check(cases == sorted(models), f"merged JUnit cases {cases}")
    check(junit.get("tests") == str(len(models)) and junit.get("failures") == str(1 if corrupt else 0),
          f"merged JUnit totals tests={junit.get('tests')} failures={junit.get('failures')}")


def check_ci_files(examples):
    for name in ("github-actions.yml", "gitlab-ci.yml"):
        path = os.path.join(examples, name)
        with open(path) as f:
            doc = yaml.safe_load(f)
        check(isinstance(doc, dict), f"{name}: not a YAML mapping")
        with open(path) as f:
            text = "\n".join(line for line in f if not line.lstrip().startswith("#"))
        check("ONNXC_DEB_URL" in text and "apt-get install -y -q --no-install-recommends /tmp/onnxc.deb" in text,
              f"{name}: does not install the package from $ONNXC_DEB_URL")
        check("make " not in text and "git clone" not in text and "cmake" not in text,
              f"{name}: builds onnxc")
        for option in ("--shard", "--cache-dir", "--report", "--junit"):
            check(option in text, f"{name}: converts without {option}")
    gitlab = yaml.safe_load(open(os.path.join(examples, "gitlab-ci.yml")))
    check(gitlab["convert-onnx-models"]["parallel"] == 4, "gitlab-ci.yml: not 4 parallel jobs")
    github = yaml.safe_load(open(os.path.join(examples, "github-actions.yml")))
    check(github["jobs"]["convert"]["strategy"]["matrix"]["shard"] == [1, 2, 3, 4],
          "github-actions.yml: not a matrix of 4 shards")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin", required=True, help="directory of onnx-compile")
    ap.add_argument("--examples", required=True, help="examples/ci")
    ap.add_argument("--work", required=True, help="scratch directory (emptied)")
    args = ap.parse_args()

    shutil.rmtree(args.work, ignore_errors=True)
    models_dir = os.path.join(args.work, "models")
    corrupt = "m_corrupt.onnx"
    subprocess.run([sys.executable, MAKE_MODELS, "--out", models_dir, "--count", "8",
                    "--corrupt", corrupt], check=True, capture_output=True)
    models = sorted(f for f in os.listdir(models_dir) if f.endswith(".onnx"))
    check(corrupt in models and len(models) == 9, f"models: {models}")
    script = os.path.join(args.examples, "run-matrix-locally.sh")
    env = dict(os.environ, ONNX_COMPILE=os.path.join(args.bin, "onnx-compile"), JOBS="1")
    out = os.path.join(args.work, "out")

    matrix(script, env, ["-n", "3", models_dir, out, "--emit", "lib"], 1)
    check_reports(out, 3, models, corrupt, cached=False)
    libs = sorted(f for f in os.listdir(os.path.join(out, "out")) if f.endswith(".so"))
    want = sorted(f"lib{m[:-len('.onnx')]}.so" for m in models if m != corrupt)
    check(libs == want, f"out/ holds {libs}, expected {want}")

    matrix(script, env, ["-n", "2", models_dir, out, "--emit", "lib"], 1)
    check_reports(out, 2, models, corrupt, cached=True)

    empty = os.path.join(args.work, "empty")
    os.makedirs(empty)
    matrix(script, env, [empty, os.path.join(args.work, "none")], 2)
    matrix(script, env, ["-n", "0", models_dir, os.path.join(args.work, "none")], 2)

    check_ci_files(args.examples)
    print("examples/ci: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
