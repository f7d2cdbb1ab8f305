#!/usr/bin/env python3
"""check_ptx.py - compile models with --target nvptx and check that ptxas accepts the PTX.

For each model and each --gpu, runs `onnx-compile MODEL --target nvptx --gpu
SM [--gpu-precision P] --emit asm` and `ptxas -arch=SM` on the result, and
checks that the PTX contains every --expect string (say the mma.sync
instruction of a tensor-core precision). Exits 0 when every model that must
compile did, ptxas accepted all the PTX and every expected string was there;
prints one line per failure and a summary. Without ptxas (not on PATH, not under $CUDA_HOME/bin
or /usr/local/cuda/bin) it prints why and exits with --skip-code (77 by
default, ctest's SKIP_RETURN_CODE).

  check_ptx.py --compiler build/bin/onnx-compile --gpu sm_80 --gpu sm_90 \
      [--gpu-precision fp16 --expect mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32] \
      [--models-dir DIR] MODEL.onnx...
"""
import argparse
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import tempfile


def find_ptxas():
    found = shutil.which("ptxas")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            return os.path.join(root, "bin", "ptxas")
    return None


def check(compiler, ptxas, model, gpu, work, precision, expect):
    """Returns (stage, message) of the failure, or None."""
    stem = os.path.basename(os.path.dirname(model)) if os.path.basename(model) == "model.onnx" \
        else os.path.splitext(os.path.basename(model))[0]
    ptx = os.path.join(work, f"{stem}.{gpu}.ptx")
    flags = ["--gpu-precision", precision] if precision else []
    r = subprocess.run([compiler, model, "--target", "nvptx", "--gpu", gpu, "--emit", "asm", "-o", ptx]
                       + flags, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return "compile", (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
    r = subprocess.run([ptxas, f"-arch={gpu}", ptx, "-o", os.devnull],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return "ptxas", (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
    with open(ptx) as f:
        text = f.read()
    for wanted in expect:
        if wanted not in text:
            return "expect", f"the PTX has no '{wanted}'"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", help="ONNX models")
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--gpu", action="append", default=[], help="sm_80, sm_90 ... (repeatable)")
    ap.add_argument("--models-dir", action="append", default=[],
                    help="also every */model.onnx under DIR (ONNX backend node tests)")
    ap.add_argument("--gpu-precision", help="fp32, tf32, fp16 or bf16 (onnx-compile's default if unset)")
    ap.add_argument("--expect", action="append", default=[],
                    help="a string every PTX file must contain (repeatable)")
    ap.add_argument("--allow-compile-failures", action="store_true",
                    help="models that do not compile are counted, not failures "
                         "(node tests onnxc does not support on any target)")
    ap.add_argument("--skip-code", type=int, default=77)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    gpus = args.gpu or ["sm_80", "sm_90"]
    ptxas = find_ptxas()
    if not ptxas:
        print("SKIP: ptxas not found (install the CUDA toolkit or set CUDA_HOME)")
        return args.skip_code
    models = list(args.models)
    for d in args.models_dir:
        models += sorted(glob.glob(os.path.join(d, "*", "model.onnx")))
    if not models:
        print("error: no models")
        return 2
    failures, compile_failures, ok = [], [], 0
    with tempfile.TemporaryDirectory(prefix="onnxc-ptx-") as work:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            jobs = {pool.submit(check, args.compiler, ptxas, m, g, work, args.gpu_precision,
                                args.expect): (m, g)
                    for m in models for g in gpus}
            for job in concurrent.futures.as_completed(jobs):
                model, gpu = jobs[job]
                result = job.result()
                if result is None:
                    ok += 1
                elif result[0] == "compile" and args.allow_compile_failures:
                    compile_failures.append((model, gpu, result[1]))
                else:
                    failures.append((model, gpu) + result)
    for model, gpu, stage, message in sorted(failures):
        print(f"FAIL {model} [{gpu}] {stage}: {message}")
    print(f"ptxas ({ptxas}) accepted {ok} of {ok + len(failures)} PTX files "
          f"({len(models)} models x {', '.join(gpus)}"
          f"{', precision ' + args.gpu_precision if args.gpu_precision else ''}"
          f"{', each with ' + ' and '.join(args.expect) if args.expect else ''}); "
          f"{len(compile_failures)} did not compile for nvptx")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
