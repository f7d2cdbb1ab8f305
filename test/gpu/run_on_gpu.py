#!/usr/bin/env python3
"""run_on_gpu.py - check and time the nvptx build on a machine with an NVIDIA GPU.

Needs a built tree (make build), the NVIDIA driver (libcuda.so.1) and, for the
latency baseline, PyTorch with CUDA. Three steps, each reported in OUT:

  1. node tests: the ONNX backend node tests that pass on the CPU build
     (run_node_tests.py), run again through --target nvptx; the GPU results
     are checked against the same references (rtol 1e-3).
  2. models: the e2e models (digits, resnet18), the zoo's resnet50,
     mobilenet_v2 and bert_encoder (exported by test/models/export_zoo.py if
     ctest zoo has not) and every MODEL.onnx given with --model or found
     under --models-dir (a model's inputs are input_K.pb beside it), compiled
     for the CPU and, for each --precisions entry, for the GPU with
     --gpu-precision P; the GPU outputs must be within the precision's
     tolerance of the CPU outputs, as a fraction of the output scale
     (max|CPU output|): fp32 1e-3 (--scale-tol), tf32 and fp16 1e-2, bf16
     5e-2 (--tolerance P=X). The looser ones allow for the inputs of every
     matmul and convolution rounded to 10 (tf32, fp16) or 7 (bf16) mantissa
     bits, compounded over 50 layers; a wrong mma fragment layout or tile
     offset gives errors of the order of the scale itself.
  3. latency: --bench N of the executables (median ms) next to PyTorch eager
     on the GPU (the zoo's and torchvision's models) at the same precision:
     fp32 with TF32 off, tf32 with TF32 matmuls and convolutions, fp16 and
     bf16 under torch.autocast.

With --write-doc docs/performance.md the models table replaces the text
between the "gpu-results" markers of that file.

  test/gpu/run_on_gpu.py [--build build] [--gpu sm_90] [--out DIR]
      [--models-dir DIR]... [--model FILE]... [--skip-node-tests] [--bench N]
      [--precisions fp32,tf32,fp16,bf16] [--write-doc docs/performance.md]

Exit status: 0 all passed, 1 a failure, 77 no usable GPU (nothing ran).
"""
import argparse
import ctypes
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE_DIR, "test", "e2e"))
from compare import compare, load_tensor  # noqa: E402

ZOO_MODELS = ("resnet50", "mobilenet_v2", "bert_encoder")
PRECISIONS = ("fp32", "tf32", "fp16", "bf16")
# Fractions of the output scale; see the docstring.
DEFAULT_TOLERANCE = {"fp32": 1e-3, "tf32": 1e-2, "fp16": 1e-2, "bf16": 5e-2}
DOC_BEGIN, DOC_END = "<!-- gpu-results:begin -->", "<!-- gpu-results:end -->"


def log(msg):
    print(msg, flush=True)


def detect_gpu():
    """sm_XY of the first GPU, from nvidia-smi; None if it cannot tell."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap,name", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout
        cap, name = out.splitlines()[0].split(",", 1)
        major, minor = cap.strip().split(".")
        return f"sm_{major}{minor}", name.strip()
    except Exception:
        return None, "unknown GPU"


def run(cmd, timeout=1800, **kw):
    log("  $ " + " ".join(cmd))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def node_tests(args, compiler, out):
    """Runs the CPU-passing node tests through the GPU build; returns (passed, total, failures)."""
    runner = os.path.join(SOURCE_DIR, "test", "conformance", "run_node_tests.py")
    cache = os.path.join(args.build, "conformance")
    cpu_json = os.path.join(out, "node-cpu.json")
    r = run([sys.executable, runner, "--compiler", compiler, "--cache-dir", cache,
             "--report", os.path.join(out, "node-cpu.md"), "--json", cpu_json, "-j", str(args.jobs)],
            timeout=7200)
    if not os.path.exists(cpu_json):
        log(r.stdout[-4000:] + r.stderr[-4000:])
        return 0, 0, ["the CPU node test run failed"]
    passing = [t["name"] for t in json.load(open(cpu_json))["tests"] if t["result"] == "pass"]
    tests_file = os.path.join(out, "cpu-passing.txt")
    with open(tests_file, "w") as f:
        f.write("# node tests that pass on the CPU build\n" + "\n".join(passing) + "\n")
    gpu_json = os.path.join(out, "node-gpu.json")
    run([sys.executable, runner, "--compiler", compiler, "--cache-dir", cache,
         "--work-dir", os.path.join(cache, "work-nvptx-" + args.gpu), "--tests", tests_file,
         "--compile-arg=--target", "--compile-arg=nvptx", f"--compile-arg=--gpu", f"--compile-arg={args.gpu}",
         "--report", os.path.join(out, "node-gpu.md"), "--json", gpu_json, "-j", str(args.jobs)],
        timeout=7200)
    if not os.path.exists(gpu_json):
        return 0, len(passing), ["the GPU node test run failed"]
    results = json.load(open(gpu_json))["tests"]
    failures = [f"{t['name']}: {t['result']}: {t.get('reason', '')}" for t in results if t["result"] != "pass"]
    return sum(t["result"] == "pass" for t in results), len(passing), failures


def bench(exe, inputs, n):
    # The outputs of --bench go beside the executable, not into the cwd.
    r = run([exe, "--bench", str(n), "--output-dir", exe + ".bench-out"] + inputs)
    if r.returncode != 0:
        return None
    for line in r.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)["median_ms"]
    return None


def torch_model(name):
    """The PyTorch module of a zoo or torchvision model (random weights: only
    the latency counts), or None."""
    sys.path.insert(0, os.path.join(SOURCE_DIR, "test", "models"))
    import export_zoo  # noqa: E402  (needs torch, torchvision, onnx)
    if name in export_zoo.ZOO:
        return export_zoo.ZOO[name][0]()
    import torchvision
    return getattr(torchvision.models, name)(weights=None) if hasattr(torchvision.models, name) else None


def torch_eager_ms(name, inputs, n, precision):
    """Median latency of PyTorch eager on the GPU at `precision`, or None."""
    try:
        import torch
        if not torch.cuda.is_available():
            return None
        model = torch_model(name)
        if model is None:
            return None
        model = model.eval().cuda()
        xs = [torch.from_numpy(load_tensor(p)[0]).cuda() for p in inputs]
        tf32 = precision == "tf32"
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32
        dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)
        times = []
        with torch.no_grad(), torch.autocast("cuda", dtype=dtype or torch.float16,
                                             enabled=dtype is not None):
            for i in range(n + 5):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                model(*xs)
                torch.cuda.synchronize()
                if i >= 5:
                    times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        return times[len(times) // 2]
    except Exception as e:  # no torch, no torchvision, no CUDA build
        log(f"  (PyTorch eager baseline unavailable for {name} {precision}: {e})")
        return None


def model_list(args, out):
    e2e = os.path.join(args.build, "test", "e2e")
    models = []
    digits = os.path.join(e2e, "digits", "digits.onnx")
    if os.path.exists(digits):
        models.append(("digits", digits, [os.path.join(e2e, "digits", "test_images.pb")]))
    for name in ZOO_MODELS:
        d = os.path.join(args.build, "test", "models", "models", name)
        path = os.path.join(d, f"{name}.onnx")
        if not os.path.exists(path):
            d = os.path.join(out, "models", name)
            path = os.path.join(d, f"{name}.onnx")
            if not os.path.exists(path):
                run([sys.executable, os.path.join(SOURCE_DIR, "test", "models", "export_zoo.py"),
                     "--model", name, "--out", d], timeout=3600)
        if os.path.exists(path):
            models.append((name, path, sorted(glob.glob(os.path.join(d, "input_*.pb")))))
    for name in ("resnet18",):
        path = os.path.join(e2e, name, f"{name}.onnx")
        if not os.path.exists(path):
            gen = os.path.join(out, "models", name)
            path = os.path.join(gen, f"{name}.onnx")
            if not os.path.exists(path):
                run([sys.executable, os.path.join(SOURCE_DIR, "test", "models", "export_torchvision.py"),
                     "--model", name, "--out", gen])
        if os.path.exists(path):
            models.append((name, path, [os.path.join(os.path.dirname(path), "input_0.pb")]))
    extra = list(args.model)
    for d in args.models_dir:
        extra += sorted(glob.glob(os.path.join(d, "**", "*.onnx"), recursive=True))
    for path in extra:
        inputs = sorted(glob.glob(os.path.join(os.path.dirname(path), "input_*.pb")))
        name = os.path.splitext(os.path.basename(path))[0]
        if name == "model":
            name = os.path.basename(os.path.dirname(path))
        models.append((name, path, inputs))
    return models


def check_model(args, compiler, out, name, path, inputs):
    """Returns one result row (dict) per precision."""
    work = os.path.join(out, "models", name)
    os.makedirs(work, exist_ok=True)

    def build_and_run(kind, flags):
        """(executable, None) or (None, why it failed)."""
        exe = os.path.join(work, f"model-{kind}")
        r = run([compiler, path, "-o", exe] + flags)
        if r.returncode != 0:
            return None, f"{kind} compile failed: {(r.stderr.strip().splitlines() or ['?'])[0]}"
        out_dir = os.path.join(work, f"out-{kind}")
        shutil.rmtree(out_dir, ignore_errors=True)
        r = run([exe, "--output-dir", out_dir] + inputs)
        if r.returncode != 0:
            return None, f"{kind} run failed: {(r.stderr.strip().splitlines() or ['?'])[0]}"
        return exe, None

    rows = []
    cpu_exe, why = build_and_run("cpu", [])
    cpu_ms = bench(cpu_exe, inputs, args.bench) if cpu_exe else None
    for precision in args.precisions:
        tol = args.tolerance[precision]
        row = {"model": name, "precision": precision, "tolerance": tol, "ok": False, "error": None,
               "detail": why or "", "cpu_ms": cpu_ms, "gpu_ms": None, "torch_ms": None}
        rows.append(row)
        if not cpu_exe:
            continue
        kind = f"gpu-{precision}"
        exe, why_gpu = build_and_run(kind, ["--target", "nvptx", "--gpu", args.gpu,
                                            "--gpu-precision", precision])
        if not exe:
            row["detail"] = why_gpu
            continue
        worst, ok, rel = [], True, 0.0
        for ref_path in sorted(glob.glob(os.path.join(work, "out-cpu", "output_*.pb"))):
            got_path = os.path.join(work, f"out-{kind}", os.path.basename(ref_path))
            ref, got = load_tensor(ref_path)[0], load_tensor(got_path)[0]
            good, msg = compare(ref, got, tol)
            ok &= good
            worst.append(f"{os.path.basename(ref_path)}: {msg}")
            if ref.shape == got.shape and ref.size and np.issubdtype(ref.dtype, np.floating):
                scale = float(np.nanmax(np.abs(ref))) or 1.0
                rel = max(rel, float(np.nanmax(np.abs(got.astype(np.float64) - ref))) / scale)
        row["ok"], row["detail"], row["error"] = ok, "; ".join(worst), rel
        row["gpu_ms"] = bench(exe, inputs, args.bench)
        row["torch_ms"] = torch_eager_ms(name, inputs, args.bench, precision)
    return rows


def fmt(ms):
    return "n/a" if ms is None else f"{ms:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(SOURCE_DIR, "build"))
    ap.add_argument("--gpu", help="sm_XY to compile for (default: the GPU's, from nvidia-smi)")
    ap.add_argument("--out", help="report directory (default: BUILD/gpu-report)")
    ap.add_argument("--models-dir", action="append", default=[], help="more models (*.onnx, recursively)")
    ap.add_argument("--model", action="append", default=[], help="one more model")
    ap.add_argument("--skip-node-tests", action="store_true")
    ap.add_argument("--bench", type=int, default=50, help="timed runs per model (default 50)")
    ap.add_argument("--scale-tol", type=float, default=DEFAULT_TOLERANCE["fp32"],
                    help="fp32 tolerance, a fraction of the output scale (default 1e-3)")
    ap.add_argument("--precisions", default=",".join(PRECISIONS),
                    help="--gpu-precision values to check (default: all four)")
    ap.add_argument("--tolerance", action="append", default=[],
                    help="P=X: the tolerance of precision P (default tf32 and fp16 1e-2, bf16 5e-2)")
    ap.add_argument("--write-doc", help="put the models table into this markdown file "
                    f"(between {DOC_BEGIN} and {DOC_END})")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.precisions = [p for p in args.precisions.split(",") if p]
    if any(p not in PRECISIONS for p in args.precisions):
        ap.error(f"--precisions: each of {', '.join(PRECISIONS)}")
    tolerance = dict(DEFAULT_TOLERANCE, fp32=args.scale_tol)
    for item in args.tolerance:
        key, _, value = item.partition("=")
        if key not in PRECISIONS:
            ap.error(f"--tolerance {item}: expected P=X with P one of {', '.join(PRECISIONS)}")
        tolerance[key] = float(value)
    args.tolerance = tolerance
    out = os.path.abspath(args.out or os.path.join(args.build, "gpu-report"))
    os.makedirs(out, exist_ok=True)
    compiler = os.path.join(args.build, "bin", "onnx-compile")
    # ONNXC_CUDA_DRIVER, as in the runtime: another driver library (the
    # tests' stand-in runs this script's machinery without a GPU).
    driver = os.environ.get("ONNXC_CUDA_DRIVER") or "libcuda.so.1"
    try:
        ctypes.CDLL(driver)
    except OSError:
        log(f"SKIP: no usable NVIDIA GPU: cannot load the CUDA driver ({driver})")
        return 77
    detected, gpu_name = detect_gpu()
    args.gpu = args.gpu or detected or "sm_80"
    supported = ("sm_75", "sm_80", "sm_86", "sm_89", "sm_90")
    if args.gpu not in supported:
        # PTX is forward compatible: the newest supported target at or below.
        older = [g for g in supported if int(g[3:]) <= int(args.gpu[3:])]
        args.gpu = older[-1] if older else "sm_80"
    log(f"GPU: {gpu_name}; compiling for {args.gpu}; report in {out}")

    lines = [f"# onnxc on {gpu_name} (--target nvptx --gpu {args.gpu})", ""]
    failed = False
    if not args.skip_node_tests:
        log("[1/2] node tests")
        passed, total, failures = node_tests(args, compiler, out)
        failed |= passed != total
        lines += [f"## Node tests", "", f"{passed} of {total} CPU-passing node tests pass on the GPU "
                  f"(details: node-gpu.md).", ""]
        lines += [f"- {f}" for f in failures[:200]] + [""]
    log("[2/2] models")
    rows = [row for m in model_list(args, out) for row in check_model(args, compiler, out, *m)]
    table = [f"onnxc `--target nvptx --gpu {args.gpu}` on {gpu_name}, "
             f"{time.strftime('%Y-%m-%d')}, `test/gpu/run_on_gpu.sh` (median of {args.bench} runs, ms; "
             "GPU outputs against the CPU build's, tolerance as a fraction of the output scale):", "",
             "| model | precision | max error / scale | within tolerance | onnxc CPU | onnxc GPU | "
             "PyTorch eager GPU |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        failed |= not r["ok"]
        error = "n/a" if r["error"] is None else f"{r['error']:.2g}"
        table.append(f"| {r['model']} | {r['precision']} | {error} | {r['tolerance']:g}: "
                     f"{'yes' if r['ok'] else 'NO'} | {fmt(r['cpu_ms'])} | {fmt(r['gpu_ms'])} | "
                     f"{fmt(r['torch_ms'])} |")
    lines += ["## Models", ""] + table + ["", "Details:", ""]
    lines += [f"- {r['model']} {r['precision']}: {r['detail']}" for r in rows]
    if args.write_doc:
        with open(args.write_doc) as f:
            doc = f.read()
        if DOC_BEGIN not in doc or DOC_END not in doc:
            log(f"error: {args.write_doc} has no {DOC_BEGIN} ... {DOC_END} section")
            failed = True
        else:
            doc = re.sub(re.escape(DOC_BEGIN) + ".*?" + re.escape(DOC_END),
                         lambda _: DOC_BEGIN + "\n" + "\n".join(table) + "\n" + DOC_END, doc, flags=re.S)
            with open(args.write_doc, "w") as f:
                f.write(doc)
            log(f"updated {args.write_doc}")
    report = os.path.join(out, "gpu-report.md")
    with open(report, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "models.json"), "w") as f:
        json.dump(rows, f, indent=1)
    log("\n".join(lines))
    log(f"wrote {report}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
