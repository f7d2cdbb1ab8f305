"""check_export.py - onnx-opt writes valid ONNX: checker, ONNX Runtime and the references agree.

For each ONNX node test (a directory holding model.onnx and test_data_set_*/):
  1. onnx-opt model.onnx -O LEVEL -o OUT.onnx;
  2. the output passes onnx.checker.check_model(full_check=True) (its opset's rules for
     required and optional inputs, subgraphs, types, shape inference);
  3. ONNX Runtime (bench/ort_run.js) loads and runs it on test_data_set_0, and its outputs match
     the test's references (rtol 1e-3, atol 1e-5; integers and bools exactly).
A test that onnx-opt refuses (exit 1, a diagnostic) is counted as refused, not failed; one
whose original ORT cannot run either skips step 3. A crash of onnx-opt, an invalid output, or an
output that ORT rejects or computes differently fails. --min-exported N fails the run when
fewer tests were exported (so that refusing everything cannot pass).
The last line printed is `N passed, M failed` (refusals and skips listed before it).
Exit status: 0, 1 on a failure, 77 when ORT (node + onnxruntime-node) is missing.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys

import numpy as np

# onnx 1.12 still uses the aliases that numpy 1.24 removed.
np.float, np.int, np.bool, np.object = float, int, bool, object
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "conformance"))
from run_node_tests import generate_data  # noqa: E402


def load_tensor(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def ort_outputs(args, model, inputs, out_dir):
    """Runs ORT; returns the outputs, or the error text."""
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    proc = subprocess.run([args.node, args.ort_run, model, "--output-dir", out_dir, "--level",
                           "disabled"] + inputs, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return (proc.stderr.strip().splitlines() or ["ORT failed"])[-1]
    return [load_tensor(p) for p in sorted(glob.glob(os.path.join(out_dir, "output_*.pb")),
                                           key=lambda p: int(p.rsplit("_", 1)[1][:-3]))]


def mismatch(got, want):
    """Why `got` differs from `want`, or None."""
    if len(got) != len(want):
        return f"{len(got)} outputs, expected {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape:
            return f"output {i}: shape {g.shape}, expected {w.shape}"
        if w.dtype.kind in "fc":
            g64, w64 = g.astype(np.float64), w.astype(np.float64)
            if not np.allclose(g64, w64, rtol=1e-3, atol=1e-5, equal_nan=True):
                return f"output {i}: max diff {np.nanmax(np.abs(g64 - w64)):.3g}"
        elif not np.array_equal(g, w):
            return f"output {i}: values differ"
    return None


def check_test(args, test_dir):
    """(status, detail): status is pass, refused, failed or skipped-ort."""
    name = os.path.basename(test_dir)
    work = os.path.join(args.workdir, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "opt.onnx")
    proc = subprocess.run([args.onnx_opt, os.path.join(test_dir, "model.onnx"), f"-O{args.level}",
                           "-o", out], capture_output=True, text=True, timeout=300)
    if proc.returncode == 1:
        return "refused", (proc.stderr.strip().splitlines() or ["?"])[0]
    if proc.returncode != 0:
        return "failed", f"onnx-opt exit code {proc.returncode}: {proc.stderr.strip()[-300:]}"
    try:
        onnx.checker.check_model(onnx.load(out), full_check=True)
    except Exception as e:  # the checker's own exception types vary by version
        return "failed", f"onnx.checker: {str(e).splitlines()[0]}"
    data = os.path.join(test_dir, "test_data_set_0")
    inputs = sorted(glob.glob(os.path.join(data, "input_*.pb")),
                    key=lambda p: int(p.rsplit("_", 1)[1][:-3]))
    refs = [load_tensor(p) for p in sorted(glob.glob(os.path.join(data, "output_*.pb")),
                                           key=lambda p: int(p.rsplit("_", 1)[1][:-3]))]
    got = ort_outputs(args, out, inputs, os.path.join(work, "ort"))
    if isinstance(got, str):
        original = ort_outputs(args, os.path.join(test_dir, "model.onnx"), inputs,
                               os.path.join(work, "ort-original"))
        if isinstance(original, str):
            return "skipped-ort", f"ORT fails on the original too: {original}"
        return "failed", f"ORT rejects the output: {got}"
    why = mismatch(got, refs)
    if why:
        original = ort_outputs(args, os.path.join(test_dir, "model.onnx"), inputs,
                               os.path.join(work, "ort-original"))
        if isinstance(original, str) or mismatch(original, refs):
            return "skipped-ort", f"ORT differs from the references on the original too: {why}"
        return "failed", f"ORT on the output: {why}"
    return "pass", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--onnx-opt", required=True)
    ap.add_argument("--data-dir", required=True,
                    help="ONNX's backend test data (generated there unless present, as "
                         "test/conformance/run_node_tests.py does)")
    ap.add_argument("--tests", help="file listing the tests to run (default: every test)")
    ap.add_argument("--also", help="regex: the tests it matches run too")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--level", default="2", help="onnx-opt -O level (default 2)")
    ap.add_argument("--min-exported", type=int, default=0)
    ap.add_argument("--node", default="node")
    ap.add_argument("--ort-run", default=os.path.join(ROOT, "bench", "ort_run.js"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    if not shutil.which(args.node) or subprocess.run(
            [args.node, args.ort_run, "--version"], capture_output=True).returncode != 0:
        print("ONNX Runtime (node + onnxruntime-node) not found: skipped")
        return 77
    node_dir = generate_data(args.data_dir)
    every = sorted(os.listdir(node_dir))
    if args.tests:
        with open(args.tests) as f:
            names = {line.split()[0] for line in f if line.startswith("test_")}
        if args.also:
            names |= {n for n in every if re.search(args.also, n)}
        names = sorted(names)
    else:
        names = every
    tests = [os.path.join(node_dir, n) for n in names]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda t: check_test(args, t), tests))
    counts = {}
    for name, (status, detail) in zip(names, results):
        counts[status] = counts.get(status, 0) + 1
        if status != "pass":
            print(f"{status}: {name}: {detail}")
    exported = counts.get("pass", 0) + counts.get("failed", 0) + counts.get("skipped-ort", 0)
    print(f"{len(tests)} tests: {counts.get('refused', 0)} refused by onnx-opt, "
          f"{counts.get('skipped-ort', 0)} exported but not checkable in ORT, {exported} exported")
    failed = counts.get("failed", 0)
    if exported < args.min_exported:
        print(f"only {exported} exported, expected at least {args.min_exported}")
        failed += 1
    print(f"{counts.get('pass', 0)} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
