"""check_batch.py - batch mode's acceptance checks on a folder of small synthetic models.

  1. onnx-compile models/*.onnx -o out/ -j 2 with one corrupt model among 20: exit code 1,
     every other model compiled, a valid JSON report and JUnit XML naming the corrupt one;
  2. the same again: every good model served from the cache (the time ratio is printed,
     not asserted);
  3. -j 1 --no-cache into another folder, and every --emit kind at -j 2 and -j 1: the
     outputs are byte-identical;
  4. --shard I/3 splits the models into disjoint shards that cover them all;
  5. --fail-fast skips what it did not start; a manifest's per-model options apply;
  6. onnx-opt does the same batch with its cache.
Prints what it measured; exits non-zero on the first failed check.
"""
import argparse
import filecmp
import glob
import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
STAGES = ["import", "optimize", "lower", "codegen", "link"]


def check(cond, message):
    if not cond:
        print(f"FAIL: {message}")
        sys.exit(1)


def run(cmd, expect_rc):
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    check(proc.returncode == expect_rc,
          f"{' '.join(cmd)}: exit code {proc.returncode}, expected {expect_rc}\n{proc.stderr}")
    return proc, seconds


def files(folder):
    """Output files by name (the cache folder left out)."""
    return sorted(f for f in os.listdir(folder) if not f.startswith("."))


def same_files(a, b, what):
    names = files(a)
    check(names == files(b), f"{what}: {a} and {b} hold different files")
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    check(not mismatch and not errors, f"{what}: files differ: {mismatch + errors}")
    return len(names)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin", required=True, help="directory of onnx-compile and onnx-opt")
    ap.add_argument("--work", required=True, help="scratch directory (emptied)")
    args = ap.parse_args()
    compiler = os.path.join(args.bin, "onnx-compile")
    optimizer = os.path.join(args.bin, "onnx-opt")
    shutil.rmtree(args.work, ignore_errors=True)
    models_dir = os.path.join(args.work, "models")
    subprocess.run([sys.executable, os.path.join(HERE, "make_batch_models.py"), "--out", models_dir,
                    "--count", "19", "--corrupt", "corrupt.onnx", "--dynamic", "dynamic.onnxmodel"],
                   check=True, stdout=subprocess.DEVNULL)
    # The dynamic model is for the manifest only (its extension keeps it out of the glob).
    models = sorted(glob.glob(os.path.join(models_dir, "*.onnx")))
    check(len(models) == 20, f"expected 20 models, found {len(models)}")
    w = lambda *p: os.path.join(args.work, *p)  # noqa: E731

    # 1. A folder with a corrupt model: the others compile, exit code 1.
    out1 = w("out1")
    cmd = [compiler, *models, "-o", out1 + "/", "-j", "2", "--report", w("r1.json"), "--junit", w("j1.xml")]
    proc, first = run(cmd, 1)
    report = json.load(open(w("r1.json")))
    entries = {os.path.basename(m["model"]): m for m in report["models"]}
    check(len(report["models"]) == 20, "the report lists every model")
    check(report["summary"]["ok"] == 19 and report["summary"]["failed"] == 1, f"summary {report['summary']}")
    bad = entries["corrupt.onnx"]
    check(bad["status"] == "failed" and bad["error"].startswith("error: ")
          and "not a valid ONNX model" in bad["error"] and "\n" not in bad["error"],
          f"corrupt model's entry: {bad}")
    check("FAILED" in proc.stderr and "corrupt.onnx" in proc.stderr, "a status line names the failure")
    for name, m in entries.items():
        if name == "corrupt.onnx":
            continue
        check(m["status"] == "ok" and m["error"] is None and not m["cached"], f"{name}: {m}")
        check(list(m["stages_ms"]) == STAGES, f"{name}: stages {list(m['stages_ms'])}")
        check(m["op_counts"] and all(v > 0 for v in m["op_counts"].values()), f"{name}: op counts")
        check(len(m["outputs"]) == 1, f"{name}: outputs {m['outputs']}")
        for out in m["outputs"]:
            check(os.path.getsize(out["path"]) == out["bytes"], f"{name}: size of {out['path']}")
            check(os.access(out["path"], os.X_OK), f"{name}: {out['path']} is not executable")
    check(len(files(out1)) == 19, f"out1 holds {len(files(out1))} outputs")
    suites = ET.parse(w("j1.xml")).getroot()
    cases = suites.findall("./testsuite/testcase")
    failures = [c for c in cases if c.find("failure") is not None]
    check(len(cases) == 20 and len(failures) == 1, f"JUnit: {len(cases)} cases, {len(failures)} failures")
    check("corrupt.onnx" in failures[0].get("name")
          and "not a valid ONNX model" in failures[0].find("failure").get("message"), "JUnit failure message")
    check(suites.get("tests") == "20" and suites.get("failures") == "1", "JUnit totals")
    print(f"first run: 19 of 20 compiled, corrupt model reported, exit 1, {first:.2f} s")

    # 2. Nothing changed: the cache serves every good model.
    _, second = run(cmd[:-4] + ["--report", w("r2.json")], 1)
    report2 = json.load(open(w("r2.json")))
    check(report2["summary"]["cached"] == 19, f"second run: {report2['summary']}")
    check(all(m["cached"] for m in report2["models"] if m["status"] == "ok"), "cached entries")
    check(next(m for m in report2["models"] if m["model"].endswith("corrupt.onnx"))["status"] == "failed",
          "the corrupt model fails again")
    same = report2["models"][0]
    check(list(same["stages_ms"]) == STAGES and same["outputs"], "a cached entry keeps stats and outputs")
    print(f"second run: 19 of 19 from the cache, {second:.2f} s ({100 * second / first:.1f}% of the first)")

    # 3. Byte-identical outputs across runs and -j values, for every --emit kind.
    out2 = w("out2")
    run([compiler, *models, "-o", out2 + "/", "-j", "1", "--no-cache", "-q"], 1)
    check(not os.path.exists(os.path.join(out2, ".onnxc-cache")), "--no-cache writes no cache")
    n = same_files(out1, out2, "exe, -j 2 vs -j 1")
    few = [m for m in models if "corrupt" not in m][:5]
    for emit in ["lib", "obj", "asm", "llvm", "mlir"]:
        a, b = w(f"emit-{emit}-j2"), w(f"emit-{emit}-j1")
        run([compiler, *few, "-o", a + "/", "-j", "2", "--emit", emit, "--no-cache", "-q"], 0)
        run([compiler, *few, "-o", b + "/", "-j", "1", "--emit", emit, "--no-cache", "-q"], 0)
        n += same_files(a, b, f"--emit {emit}")
    print(f"reproducible: {n} output files byte-identical across -j 2 and -j 1")

    # 4. Shards: disjoint, together every model, assigned by sorted path.
    seen = []
    for i in (1, 2, 3):
        expected = sorted(models)[i - 1::3]
        run([compiler, *reversed(models), "-o", w("shards") + "/", "--emit", "mlir", "--no-cache", "-q",
             "--shard", f"{i}/3", "--report", w(f"shard{i}.json")],
            1 if any("corrupt" in m for m in expected) else 0)
        shard = [m["model"] for m in json.load(open(w(f"shard{i}.json")))["models"]]
        check(shard == expected, f"shard {i}/3: {shard}")
        seen += shard
    check(sorted(seen) == sorted(models), "the shards cover every model once")
    print("shards: 3 disjoint shards cover all 20 models")

    # 5. --fail-fast, and a manifest with per-model options.
    ordered = [os.path.join(models_dir, "corrupt.onnx")] + few
    run([compiler, *ordered, "-o", w("failfast") + "/", "-j", "1", "--fail-fast", "--no-cache", "-q",
         "--report", w("failfast.json"), "--junit", w("failfast.xml")], 1)
    statuses = [m["status"] for m in json.load(open(w("failfast.json")))["models"]]
    check(statuses == ["failed"] + ["skipped"] * len(few), f"--fail-fast statuses {statuses}")
    check(len(ET.parse(w("failfast.xml")).getroot().findall(".//skipped")) == len(few), "JUnit skipped")
    manifest = {
        "output_dir": "manifest-out",
        "defaults": {"emit": "obj", "opt_level": 1},
        "models": [
            os.path.relpath(few[0], args.work),
            {"model": os.path.relpath(few[1], args.work), "emit": "lib", "name": "second"},
            {"model": "models/dynamic.onnxmodel", "emit": "mlir", "input_shapes": {"x": [3, 8]},
             "output": "sub/pinned.mlir"},
            {"model": os.path.relpath(few[2], args.work), "target": "aarch64", "cpu": "generic",
             "output": "arm.o"},
        ],
    }
    with open(w("manifest.json"), "w") as f:
        json.dump(manifest, f)
    run([compiler, "--manifest", w("manifest.json"), "-j", "2", "-q"], 0)
    mo = w("manifest-out")
    stem = lambda p: os.path.splitext(os.path.basename(p))[0]  # noqa: E731
    check(open(os.path.join(mo, stem(few[0]) + ".o"), "rb").read(20)[18] == 62, "default emit obj, x86-64")
    check("extern const onnxc_model_desc second_model;" in open(os.path.join(mo, f"lib{stem(few[1])}.h")).read(),
          "per-model emit lib and name")
    check("tensor<3x8xf32>" in open(os.path.join(mo, "sub", "pinned.mlir")).read(), "per-model input_shapes")
    check(open(os.path.join(mo, "arm.o"), "rb").read(20)[18] == 183, "per-model target aarch64")
    print("--fail-fast skipped 5 of 6; the manifest's per-model emit, name, input_shapes, target applied")

    # 6. onnx-opt: the same batch, cached on the second run.
    cmd = [optimizer, *models, "-o", w("opt") + "/", "-j", "2", "-q", "--report", w("opt.json")]
    run(cmd, 1)
    run(cmd, 1)
    opt = json.load(open(w("opt.json")))
    check(opt["summary"]["ok"] == 19 and opt["summary"]["cached"] == 19, f"onnx-opt: {opt['summary']}")
    check(list(opt["models"][0]["stages_ms"]) == ["import", "optimize", "export"], "onnx-opt stages")
    check(len([f for f in files(w("opt")) if f.endswith(".onnx")]) == 19, "onnx-opt outputs")
    print("onnx-opt: 19 of 20 optimized, all 19 from the cache on the second run")
    print("OK")


if __name__ == "__main__":
    main()
