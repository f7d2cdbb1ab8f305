#!/usr/bin/env python3
"""run_on_gpu.py - check and time the nvptx build on a machine with an NVIDIA GPU.

Needs the NVIDIA driver (libcuda.so.1) and either a built tree (--build) or a
bundle made by make_bundle.sh (--bundle: a statically linked onnx-compile, the
runtime archives and the CPU-passing node tests, for a GPU machine without
LLVM/MLIR). PyTorch (with torchvision and onnx) exports the zoo there and gives
the eager baseline; ONNX Runtime's CUDA execution provider is timed too when
the installed onnxruntime has it. Four steps:

  1. node tests: each --node-set (NAME=DATA_DIR:TESTS_FILE, the tests that pass
     on the CPU build) run through --target nvptx at fp32 and compared with the
     tests' references as on the CPU (run_node_tests.py: rtol 1e-3, atol 1e-5).
     The tests that fail are run again on the CPU build on the same machine, so
     that a difference of the machine (its onnx, numpy) is told apart from one
     of the GPU. Each GPU test is compiled as a library (--emit lib) and run
     by onnxc-node-test-server, one process per runner worker, so that CUDA
     is set up once per worker rather than once per test (--no-server: an
     executable per test).
  2. models: the zoo (test/models/export_zoo.py, exported here with fixed-seed
     random weights at batch 1 with a float64 reference, and batch 32 inputs),
     compiled for the CPU and for the GPU at each --precisions entry (fp32 for
     every zoo model, every precision for --all-precision-models); the GPU
     outputs must be within the precision's tolerance of the CPU build's, as a
     fraction of the output scale (max|CPU output|): fp32 1e-3, tf32 and fp16
     1e-2, bf16 5e-2 (--tolerance P=X). The looser ones allow for the inputs of
     every matmul and convolution rounded to 10 (tf32, fp16) or 7 (bf16)
     mantissa bits, compounded over 50 layers; a wrong mma fragment layout or
     tile offset gives errors of the order of the scale itself.
  3. latency at each batch: the median of `--bench` runs of the executable
     (inputs copied in and outputs out included) next to PyTorch eager on the
     GPU at the same precision (fp32 with TF32 off, tf32 with TF32 matmuls and
     convolutions, fp16 and bf16 under torch.autocast; inputs already on the
     GPU) and ONNX Runtime's CUDA EP (fp32).
  4. profile (--profile, run before step 3): for each named model in fp32 at
     each batch, the latency as run and, under ONNXC_GPU_PROFILE=1 (the host
     waits for each launch and times it), each kernel's time per run; kernels
     are named after their ONNX nodes.

Writes OUT/gpu-report.json, OUT/gpu-report.md and OUT/gpu.md (the text of
docs/gpu.md); --deadline S stops starting work after S seconds and reports
what ran.

  test/gpu/run_on_gpu.py (--build build | --bundle DIR) [--out DIR] [--gpu sm_90]
      [--node-set NAME=DIR:TESTS]... [--zoo m1,m2] [--precisions fp32,tf32,fp16,bf16]
      [--batches 1,32] [--bench N] [--deadline S] [-j N] [--node-jobs N] [--no-server] [--profile m1,m2]

Exit status: 0 all passed, 1 a failure, 77 no usable GPU (nothing ran).
"""
import argparse
import concurrent.futures
import ctypes
import datetime
import glob
import json
import lzma
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time


HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE_DIR, "test", "e2e"))
from compare import compare_dirs, load_tensor  # noqa: E402

ZOO = ("resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_large", "inception_v3",
       "resnext50_32x4d", "bert_encoder", "unet", "lstm_classifier", "gru_classifier")
KEY_MODELS = ("resnet50", "mobilenet_v2", "bert_encoder")
PRECISIONS = ("fp32", "tf32", "fp16", "bf16")
# Fractions of the output scale; see the docstring.
DEFAULT_TOLERANCE = {"fp32": 1e-3, "tf32": 1e-2, "fp16": 1e-2, "bf16": 5e-2}
START = time.time()
LOCK = threading.Lock()


def log(msg):
    with LOCK:
        print(f"[{time.time() - START:6.1f}s] {msg}", flush=True)


def run(cmd, timeout=1800, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"timed out after {timeout} s")
    except OSError as e:
        return subprocess.CompletedProcess(cmd, 127, "", str(e))


def first_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else "?"


class Clock:
    def __init__(self, deadline):
        self.deadline = deadline

    def left(self):
        return self.deadline - (time.time() - START)


# --------------------------------------------------------------------------------------------
# The machine
# --------------------------------------------------------------------------------------------

def machine_facts():
    facts = {"date": datetime.date.today().isoformat(), "host_cpu": platform.processor() or "?",
             "cpus": os.cpu_count()}
    r = run(["nvidia-smi", "--query-gpu=name,compute_cap,driver_version,memory.total",
             "--format=csv,noheader"], timeout=60)
    if r.returncode == 0 and r.stdout.strip():
        name, cap, driver, memory = [x.strip() for x in r.stdout.splitlines()[0].split(",")]
        facts.update(gpu=name, compute_cap=cap, driver=driver, gpu_memory=memory)
    try:
        import torch
        facts["torch"] = torch.__version__
    except Exception:  # noqa: BLE001
        facts["torch"] = None
    try:
        import onnxruntime as ort
        facts["onnxruntime"] = ort.__version__
        facts["ort_providers"] = ort.get_available_providers()
    except Exception:  # noqa: BLE001
        facts["onnxruntime"] = None
    return facts


# --------------------------------------------------------------------------------------------
# Node tests
# --------------------------------------------------------------------------------------------

def node_test_server(args):
    """The command of the node test server (test/conformance/NodeTestServer.c): the bundle's or
    the build's, else built here with cc; None without one (or with --no-server): the node tests
    then run an executable per test, each of which sets up CUDA again."""
    if args.no_server:
        return None
    if args.bundle:
        found = os.path.join(os.path.abspath(args.bundle), "bin", "onnxc-node-test-server")
    else:
        found = os.path.join(os.path.abspath(args.build), "test", "conformance", "onnxc-node-test-server")
    if os.access(found, os.X_OK):
        return found
    built = os.path.join(args.scratch, "onnxc-node-test-server")
    if not os.access(built, os.X_OK):
        r = run(["cc", "-std=c11", "-O2", "-I", os.path.join(SOURCE_DIR, "lib", "Runtime"), "-o", built,
                 os.path.join(SOURCE_DIR, "test", "conformance", "NodeTestServer.c"), "-ldl"], timeout=120)
        if r.returncode != 0:
            log(f"node test server: cannot build it ({first_line(r.stderr)}); an executable per test")
            return None
    return built


def node_set(args, out, name, data_dir, tests_file, clock):
    """GPU results of one set of CPU-passing node tests: a dict for the report."""
    runner = os.path.join(SOURCE_DIR, "test", "conformance", "run_node_tests.py")
    work = os.path.join(args.scratch, f"node-{name}")
    os.makedirs(work, exist_ok=True)
    # run_node_tests.py reads DATA/node/test_*.
    data = os.path.join(work, "data")
    os.makedirs(data, exist_ok=True)
    if not os.path.exists(os.path.join(data, "node")):
        os.symlink(os.path.abspath(data_dir), os.path.join(data, "node"))
    tests = [l.strip() for l in open(tests_file) if l.strip() and not l.startswith("#")]
    result = {"set": name, "cpu_passing": len(tests), "passed": 0, "failures": [], "cpu_here": {},
              "server": bool(args.node_server)}

    def run_set(label, tests_path, extra, timeout):
        report_json = os.path.join(work, f"{label}.json")
        r = run([sys.executable, runner, "--compiler", args.compiler, "--cache-dir", os.path.join(work, "cache"),
                 "--data-dir", data, "--work-dir", os.path.join(work, "work-" + label), "--tests", tests_path,
                 "--report", os.path.join(work, f"{label}.md"), "--json", report_json,
                 "-j", str(args.node_jobs or args.jobs),
                 "--skips", os.devnull, "--run-timeout", "120"] + extra,
                timeout=timeout)
        if not os.path.exists(report_json):
            log(f"node tests {name} {label}: the runner failed: {r.stdout[-2000:]} {r.stderr[-2000:]}")
            result["error"] = ("stopped at the deadline" if r.returncode == 124 else "the runner failed") + \
                f" ({first_line(r.stderr)})"
            return None
        return json.load(open(report_json))["tests"]

    log(f"node tests {name}: {len(tests)} CPU-passing tests through --target nvptx, "
        + (f"run by {args.node_server} (one process per worker)" if args.node_server else "an executable each"))
    # One process per worker runs every test's library (run_node_tests.py --server): CUDA is set
    # up once per worker and chunk rather than once per test.
    server = ["--server", args.node_server] if args.node_server else []
    # In chunks, each a stride through the list, so that a run the deadline
    # cuts short still covers every kind of test and keeps what it ran.
    chunks = max(1, (len(tests) + args.node_chunk - 1) // args.node_chunk)
    gpu = []
    for i in range(chunks):
        left = clock.left() - args.model_time
        if left < 30:
            result["error"] = "stopped at the deadline"
            break
        chunk_file = os.path.join(work, f"chunk-{i}.txt")
        with open(chunk_file, "w") as f:
            f.write("".join(t + "\n" for t in tests[i::chunks]))
        t0 = time.time()
        got = run_set(f"gpu-{i}", chunk_file, ["--compile-arg=--target", "--compile-arg=nvptx",
                                               "--compile-arg=--gpu", f"--compile-arg={args.gpu}"] + server,
                      left)
        if got is None:
            break
        gpu += got
        slowest = ", ".join(f"{t['name']} {t.get('seconds', 0)} s"
                            for t in sorted(got, key=lambda t: -t.get("seconds", 0))[:3])
        passed = sum(t["result"] == "pass" for t in got)
        log(f"node tests {name}: chunk {i + 1}/{chunks}: {passed} of {len(got)} pass in "
            f"{time.time() - t0:.0f} s (slowest: {slowest})")
    if not gpu:
        return result
    failed = [t for t in gpu if t["result"] != "pass"]
    result["passed"] = len(gpu) - len(failed)
    result["ran"] = len(gpu)
    if failed and clock.left() > 60:
        again = os.path.join(work, "failed.txt")
        with open(again, "w") as f:
            f.write("".join(t["name"] + "\n" for t in failed))
        cpu = run_set("cpu", again, [], max(30, clock.left() - 30)) or []
        result["cpu_here"] = {t["name"]: t["result"] for t in cpu}
    for t in failed:
        result["failures"].append({"name": t["name"], "stage": t["result"], "reason": t.get("reason", ""),
                                   "cpu_here": result["cpu_here"].get(t["name"], "not run")})
    log(f"node tests {name}: {result['passed']} of {len(tests)} pass on the GPU")
    return result


# --------------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------------

def export_model(args, name):
    d = os.path.join(args.scratch, "models", name)
    path = os.path.join(d, f"{name}.onnx")
    if not os.path.exists(path):
        extra = [str(b) for b in args.batches if b != 1]
        cmd = [sys.executable, os.path.join(SOURCE_DIR, "test", "models", "export_zoo.py"),
               "--model", name, "--out", d, "--batches", "1"]
        if extra:
            cmd += ["--input-batches"] + extra
        r = run(cmd, timeout=1800)
        if r.returncode != 0 or not os.path.exists(path):
            return None, f"export failed: {first_line(r.stderr or r.stdout)}"
    return path, None


def compile_model(args, name, path, kind, precision):
    exe = os.path.join(args.scratch, "models", name, f"model-{kind}")
    if os.path.exists(exe):
        return exe, None, 0.0
    flags = [] if kind == "cpu" else ["--target", "nvptx", "--gpu", args.gpu, "--gpu-precision", precision]
    t0 = time.time()
    r = run([args.compiler, path, "-o", exe] + flags, timeout=1800)
    if r.returncode != 0:
        return None, f"{kind} compile failed: {first_line(r.stderr)}", time.time() - t0
    return exe, None, time.time() - t0


def batch_inputs(args, name, batch):
    d = os.path.join(args.scratch, "models", name)
    if batch != 1:
        d = os.path.join(d, f"b{batch}")
    return sorted(glob.glob(os.path.join(d, "input_*.pb")))


def run_exe(exe, inputs, out_dir, timeout=180, env=None):
    shutil.rmtree(out_dir, ignore_errors=True)
    r = run([exe, "--output-dir", out_dir] + inputs, timeout=timeout, env=env)
    if r.returncode != 0:
        return f"run failed (exit {r.returncode}): {first_line(r.stderr)}"
    return None


def bench_exe(exe, inputs, budget_s, max_runs, env=None):
    """Median ms of the executable's --bench, with as many runs as the budget
    allows; `env`: variables to set for it."""
    env = dict(os.environ, **(env or {}))
    t0 = time.time()
    if run_exe(exe, inputs, exe + ".warm", env=env) is not None:
        return None
    one = time.time() - t0
    n = int(max(3, min(max_runs, budget_s / max(one, 1e-3))))
    r = run([exe, "--bench", str(n), "--output-dir", exe + ".bench-out"] + inputs, timeout=180, env=env)
    for line in r.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)["median_ms"]
    return None


def torch_model(name):
    sys.path.insert(0, os.path.join(SOURCE_DIR, "test", "models"))
    import export_zoo  # noqa: E402
    return export_zoo.ZOO[name][0]()


def median_ms(fn, n, warm=3):
    import torch
    times = []
    for i in range(n + warm):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        if i >= warm:
            times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2]


def torch_eager_ms(name, inputs, n, precision, cache={}):
    """Median latency of PyTorch eager on the GPU at `precision`, or None."""
    try:
        import torch
        if not torch.cuda.is_available():
            return None
        if name not in cache:
            cache.clear()  # one model on the GPU at a time
            torch.manual_seed(0)
            cache[name] = torch_model(name).eval().cuda()
        model = cache[name]
        xs = [torch.from_numpy(load_tensor(p)[0]).cuda() for p in inputs]
        tf32 = precision == "tf32"
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32
        dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)
        with torch.no_grad(), torch.autocast("cuda", dtype=dtype or torch.float16, enabled=dtype is not None):
            return median_ms(lambda: model(*xs), n)
    except Exception as e:  # noqa: BLE001 - no torch, no CUDA build, a model torch cannot run
        log(f"PyTorch eager baseline unavailable for {name} {precision}: {e}")
        return None


def ort_cuda_ms(path, inputs, n):
    """Median latency of ONNX Runtime's CUDA EP (fp32), or None without it."""
    try:
        import onnxruntime as ort
        if "CUDAExecutionProvider" not in ort.get_available_providers():
            return None
        sess = ort.InferenceSession(path, providers=["CUDAExecutionProvider"])
        feeds = {i.name: load_tensor(p)[0] for i, p in zip(sess.get_inputs(), inputs)}
        times = []
        for i in range(n + 3):
            t0 = time.perf_counter()
            sess.run(None, feeds)
            if i >= 3:
                times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        return times[len(times) // 2]
    except Exception as e:  # noqa: BLE001
        log(f"ONNX Runtime CUDA EP unavailable for {path}: {e}")
        return None


def start_builds(args):
    """Exports and compiles the zoo in the background: {model: future of
    {kind: (exe, why, seconds)}}, and the exports' futures."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    exports = {m: pool.submit(export_model, args, m) for m in args.zoo}

    def compile_all(m):
        path, why = exports[m].result()
        if not path:
            return {k: (None, why, 0.0) for k in ["cpu"] + [f"gpu-{p}" for p in args.model_precisions[m]]}
        jobs = {"cpu": pool.submit(compile_model, args, m, path, "cpu", "fp32")}
        for p in args.model_precisions[m]:
            jobs[f"gpu-{p}"] = pool.submit(compile_model, args, m, path, f"gpu-{p}", p)
        return {k: j.result() for k, j in jobs.items()}

    driver = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(args.zoo)))
    return {m: driver.submit(compile_all, m) for m in args.zoo}, exports


def model_rows(args, clock, compiles, exports):
    """Checks and times each model on the GPU, one at a time, once every
    compile is done (so that no compile competes with a timed run)."""
    concurrent.futures.wait(list(compiles.values()), timeout=max(1.0, clock.left() - 120))
    precisions = args.model_precisions
    rows = []
    for m in args.zoo:
        if not compiles[m].done():
            rows += [{"model": m, "batch": b, "precision": p, "tolerance": args.tolerance[p], "ok": False,
                      "error": None, "detail": "not built in time", "gpu_ms": None, "torch_ms": None,
                      "ort_cuda_ms": None, "cpu_vs_float64": None, "compile_s": None}
                     for b in args.batches for p in precisions[m]]
            continue
        built = compiles[m].result()
        path = exports[m].result()[0]
        cpu_exe, cpu_why, _ = built["cpu"]
        log(f"{m}: built ({', '.join(f'{k} {v[2]:.0f}s' for k, v in built.items())})")
        for batch in args.batches:
            inputs = batch_inputs(args, m, batch)
            if not inputs:
                continue
            ref_dir = os.path.join(args.scratch, "models", m, f"out-cpu-b{batch}")
            ref_why = cpu_why or (run_exe(cpu_exe, inputs, ref_dir) if clock.left() > 30 else "out of time")
            # The float64 PyTorch reference at batch 1: how far the CPU build is.
            cpu_vs_f64 = None
            if batch == 1 and not ref_why:
                cpu_vs_f64 = compare_dirs(os.path.join(args.scratch, "models", m), ref_dir, 1.0)[1]
            for p in precisions[m]:
                row = {"model": m, "batch": batch, "precision": p, "tolerance": args.tolerance[p],
                       "ok": False, "error": None, "detail": "", "gpu_ms": None, "torch_ms": None,
                       "ort_cuda_ms": None, "cpu_vs_float64": cpu_vs_f64, "compile_s": built[f"gpu-{p}"][2]}
                rows.append(row)
                exe, why, _ = built[f"gpu-{p}"]
                if ref_why or not exe:
                    row["detail"] = ref_why or why
                    continue
                if clock.left() < 20:
                    row["detail"] = "out of time"
                    continue
                got_dir = os.path.join(args.scratch, "models", m, f"out-gpu-{p}-b{batch}")
                why = run_exe(exe, inputs, got_dir)
                if why:
                    row["detail"] = why
                    log(f"{m} b{batch} {p}: {why}")
                    continue
                ok, err, why = compare_dirs(ref_dir, got_dir, row["tolerance"])
                row["error"], row["ok"], row["detail"] = err, ok, why
                budget = min(args.bench_budget, max(1.0, clock.left() / 20))
                row["gpu_ms"] = bench_exe(exe, inputs, budget, args.bench)
                if m in args.all_precision_models or p == "fp32":
                    row["torch_ms"] = torch_eager_ms(m, inputs, args.bench, p)
                if p == "fp32" and m in args.all_precision_models:
                    row["ort_cuda_ms"] = ort_cuda_ms(path, inputs, args.bench)
                log(f"{m} b{batch} {p}: error {err if err is None else f'{err:.2g}'} "
                    f"{'ok' if row['ok'] else 'FAIL ' + row['detail']}; onnxc {fmt(row['gpu_ms'])} ms, "
                    f"PyTorch {fmt(row['torch_ms'])} ms")
    return rows


PROFILE_LINE = re.compile(r"^onnxc GPU profile: ([0-9.]+) ([0-9.]+) ([0-9]+) ([0-9]+) (\S+)$")
PROFILE_HEAD = re.compile(r"^onnxc GPU profile: ([0-9]+) runs, per run ([0-9.]+) ms, kernels ([0-9.]+) ms in ([0-9]+) kernels$")


def profile_rows(args, clock, compiles):
    """Where the fp32 runs of each --profile model go, at each batch: the
    latency as run, and under ONNXC_GPU_PROFILE=1 (the host waits for each
    launch and times it) the run's time, the kernels' sum and each kernel's
    time per run (kernels are named after their ONNX nodes)."""
    rows = []
    for m in args.profile:
        for batch in args.batches:
            row = {"model": m, "batch": batch, "async_ms": None, "profiled_ms": None, "kernels": None,
                   "kernel_ms": None, "top": [], "detail": ""}
            rows.append(row)
            inputs = batch_inputs(args, m, batch)
            built = compiles[m].result() if m in compiles and compiles[m].done() else {}
            exe = built.get("gpu-fp32", (None,))[0]
            if not exe or not inputs or clock.left() < 40:
                row["detail"] = "not built" if not exe or not inputs else "out of time"
                continue
            row["async_ms"] = bench_exe(exe, inputs, 1.5, args.bench)
            r = run([exe, "--bench", "5", "--output-dir", exe + ".profile-out"] + inputs, timeout=180,
                    env=dict(os.environ, ONNXC_GPU_PROFILE="1"))
            for line in r.stderr.splitlines():
                head, kernel = PROFILE_HEAD.match(line), PROFILE_LINE.match(line)
                if head:
                    row["profiled_ms"], row["kernel_ms"] = float(head[2]), float(head[3])
                    row["kernels"] = int(head[4])
                elif kernel:
                    row["top"].append([kernel[5], float(kernel[2]), float(kernel[1]), int(kernel[3]),
                                       int(kernel[4])])
            if row["kernels"] is None:
                row["detail"] = f"no profile (exit {r.returncode}): {first_line(r.stderr)}"
            log(f"profile {m} b{batch}: {fmt(row['async_ms'])} ms as run, {fmt(row['profiled_ms'])} ms profiled, "
                f"{row['kernels']} kernels take {fmt(row['kernel_ms'])} ms; costliest: "
                + "; ".join(f"{k} {t:.3f}" for k, _, t, _, _ in row["top"][:5]))
    return rows


# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------

def fmt(ms):
    return "n/a" if ms is None else f"{ms:.3f}"


def markdown(report):
    facts, node, rows = report["machine"], report["node_tests"], report["models"]
    gpu = facts.get("gpu", "unknown GPU")
    lines = [
        "# onnxc on an NVIDIA GPU",
        "",
        "Written by `test/gpu/run_on_gpu.py` (see docs/user-guide.md, \"GPU\"); do not edit by hand.",
        "",
        f"- Machine: {gpu} ({facts.get('gpu_memory', '?')}, compute capability "
        f"{facts.get('compute_cap', '?')}, driver {facts.get('driver', '?')}), {facts.get('cpus')} CPU cores",
        f"- Date: {facts['date']}; {report['compiler']}; `--target nvptx --gpu {report['gpu']}`",
        f"- Baselines: PyTorch {facts.get('torch') or 'n/a'} eager; ONNX Runtime "
        f"{facts.get('onnxruntime') or 'n/a'} "
        f"({'CUDA EP' if 'CUDAExecutionProvider' in (facts.get('ort_providers') or []) else 'no CUDA EP installed'})",
        f"- {report['runs']} run(s) of the script took {report['seconds']:.0f} s; where they measured "
        "the same thing, the later run's result is the one shown.",
        "",
        "## Node tests (fp32)",
        "",
        "The ONNX backend node tests that pass on the CPU build, compiled with `--target nvptx` and "
        "compared with the tests' references as on the CPU (rtol 1e-3, atol 1e-5).",
        "",
        "| set | CPU-passing | run | pass on the GPU | share |",
        "|---|---|---|---|---|",
    ]
    for s in node:
        ran = s.get("ran", 0)
        share = f"{100.0 * s['passed'] / ran:.1f}%" if ran else f"not run: {s.get('error', '?')}"
        if ran and ran < s["cpu_passing"]:
            share += f" of those run ({s['cpu_passing'] - ran} not run: {s.get('error', '?')})"
        lines.append(f"| ONNX {s['set']} | {s['cpu_passing']} | {ran} | {s['passed'] if ran else 'n/a'} | "
                     f"{share} |")
    lines.append("")
    for s in node:
        if s["failures"]:
            lines += [f"Failures of ONNX {s['set']} on the GPU (and the same test on this machine's CPU build):", ""]
            lines += [f"- {f['name']}: {f['stage']}: {f['reason']} (CPU here: {f['cpu_here']})"
                      for f in s["failures"]]
            lines.append("")
    lines += [
        "## Models",
        "",
        "The zoo of test/models/export_zoo.py (fixed-seed random weights, exported on this machine), "
        "GPU outputs against the CPU build's outputs as a fraction of the output scale. Latency: median "
        "ms; onnxc's includes copying the inputs in and the outputs out, PyTorch eager's starts with the "
        "inputs on the GPU. fp32 is without TF32 on both sides; fp16 and bf16 are torch.autocast.",
        "",
        "| model | batch | precision | error / scale | tolerance | match | onnxc GPU ms | PyTorch eager ms "
        "| onnxc / PyTorch | ORT CUDA ms |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        err = "n/a" if r["error"] is None else f"{r['error']:.2g}"
        ratio = (f"{r['gpu_ms'] / r['torch_ms']:.2f}" if r["gpu_ms"] and r["torch_ms"] else "n/a")
        lines.append(f"| {r['model']} | {r['batch']} | {r['precision']} | {err} | {r['tolerance']:g} | "
                     f"{'yes' if r['ok'] else 'NO' if r['error'] is not None else 'not run'} | {fmt(r['gpu_ms'])} | {fmt(r['torch_ms'])} | {ratio} | "
                     f"{fmt(r['ort_cuda_ms'])} |")
    problems = [r for r in rows if not r["ok"]]
    if problems:
        lines += ["", "Rows that did not match or did not run:", ""]
        lines += [f"- {r['model']} batch {r['batch']} {r['precision']}: {r['detail'] or 'error above tolerance'}"
                  for r in problems]
    profile = report.get("profile") or []
    if profile:
        lines += [
            "",
            "## Where the time goes (fp32)",
            "",
            "Latency as run (kernels chained on one stream), then under `ONNXC_GPU_PROFILE=1`, where the "
            "host waits for each launch and times it: the run's time, the sum of its kernels' times "
            "(launch included) and the costliest kernels, named after their ONNX nodes. The rest of "
            "a profiled run is the host's (copies in and out, allocation, host loops).",
            "",
            "| model | batch | onnxc ms | profiled ms | kernels | their time ms | costliest kernels (launches per run, ms per run) |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in profile:
            top = "; ".join(f"`{k}` ({n:g}, {t:.3f})" for k, n, t, _, _ in r["top"][:5]) or r["detail"] or "n/a"
            lines.append(f"| {r['model']} | {r.get('batch', 1)} | {fmt(r['async_ms'])} | {fmt(r.get('profiled_ms'))} | "
                         f"{r['kernels'] if r['kernels'] is not None else 'n/a'} | {fmt(r['kernel_ms'])} | {top} |")
    return "\n".join(lines) + "\n"


def merge_reports(paths):
    """One report of several runs of the same compiler on the same machine
    (a device call is at most 10 minutes): each node test set and each model
    row (model, batch, precision) from the last run that measured it."""
    reports = [json.load(open(p)) for p in paths]
    for r in reports[1:]:
        for key in ("compiler", "gpu"):
            if r[key] != reports[0][key]:
                raise SystemExit(f"error: the reports differ in {key}: {reports[0][key]} and {r[key]}")
        if r["machine"].get("gpu") != reports[0]["machine"].get("gpu"):
            raise SystemExit("error: the reports come from different GPUs")
    sets, rows = {}, {}
    for r in reports:
        for s in r["node_tests"]:
            if s.get("ran") or s["set"] not in sets:
                sets[s["set"]] = s
        for row in r["models"]:
            key = (row["model"], row["batch"], row["precision"])
            if row["error"] is not None or key not in rows:
                rows[key] = row
    order = {m: i for i, m in enumerate(ZOO)}
    profile = next((r["profile"] for r in reversed(reports) if r.get("profile")), [])
    return {"profile": profile, "machine": reports[-1]["machine"], "compiler": reports[0]["compiler"], "gpu": reports[0]["gpu"],
            "seconds": sum(r["seconds"] for r in reports), "runs": sum(r.get("runs", 1) for r in reports),
            "node_tests": [sets[k] for k in sorted(sets)],
            "models": [rows[k] for k in sorted(rows, key=lambda k: (order.get(k[0], 99), k[1],
                                                                      PRECISIONS.index(k[2])))]}


def unpack_bundle(args):
    bundle = os.path.abspath(args.bundle)
    exe = os.path.join(bundle, "bin", "onnx-compile")
    if not os.path.exists(exe):
        with lzma.open(exe + ".xz") as src, open(exe + ".tmp", "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 24)
        os.chmod(exe + ".tmp", 0o755)
        os.replace(exe + ".tmp", exe)
    args.compiler = exe
    # The libraries of the models that use RegexFullMatch or ImageDecoder:
    # cc links them from LIBRARY_PATH, and the models load them from
    # LD_LIBRARY_PATH.
    models = os.path.join(bundle, "lib", "models")
    for var in ("LIBRARY_PATH", "LD_LIBRARY_PATH"):
        os.environ[var] = os.pathsep.join(p for p in (models, os.environ.get(var)) if p)
    sets = []
    for tar in sorted(glob.glob(os.path.join(bundle, "node-*.tar.xz"))):
        name = os.path.basename(tar)[len("node-"):-len(".tar.xz")]
        d = os.path.join(args.scratch, f"data-{name}")
        if not os.path.isdir(d):
            os.makedirs(d)
            with tarfile.open(tar) as t:
                t.extractall(d)
        sets.append((name, d, os.path.join(bundle, f"node-{name}.txt")))
    return sets


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", help="a built tree (its bin/onnx-compile)")
    ap.add_argument("--bundle", help="a directory made by make_bundle.sh")
    ap.add_argument("--gpu", help="sm_XY to compile for (default: the GPU's, from nvidia-smi)")
    ap.add_argument("--out", required=True, help="report directory")
    ap.add_argument("--scratch", help="work directory (default: OUT/work)")
    ap.add_argument("--node-set", action="append", default=[], metavar="NAME=DIR:TESTS",
                    help="node tests: a directory of test_* and the file of its CPU-passing tests")
    ap.add_argument("--zoo", default=",".join(ZOO), help="zoo models (default: all; '' for none)")
    ap.add_argument("--all-precision-models", default=",".join(KEY_MODELS),
                    help="zoo models checked and timed at every precision (the others at fp32)")
    ap.add_argument("--precisions", default=",".join(PRECISIONS))
    ap.add_argument("--batches", default="1,32")
    ap.add_argument("--tolerance", action="append", default=[], help="P=X: the tolerance of precision P")
    ap.add_argument("--bench", type=int, default=50, help="most timed runs per measurement (default 50)")
    ap.add_argument("--bench-budget", type=float, default=4.0, help="seconds per onnxc measurement (default 4)")
    ap.add_argument("--deadline", type=float, default=86400, help="seconds after which no new work starts")
    ap.add_argument("--model-time", type=float, default=180,
                    help="seconds before the deadline that the node tests leave to the models (default 180)")
    ap.add_argument("--version", dest="version", default=None, help=argparse.SUPPRESS)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--node-jobs", type=int, default=None,
                    help="node tests run at once (default: -j); each waits mostly on the GPU's start")
    ap.add_argument("--no-server", action="store_true",
                    help="run each GPU node test as its own executable, not through onnxc-node-test-server")
    ap.add_argument("--node-chunk", type=int, default=500,
                    help="node tests per runner call (default 500; each starts its servers afresh); the deadline stops between chunks")
    ap.add_argument("--profile", default="",
                    help="zoo models whose fp32 runs are profiled (ONNXC_GPU_PROFILE=1) before the rest")
    ap.add_argument("--merge", nargs="+", metavar="REPORT",
                    help="write OUT/gpu.md and OUT/gpu-report.json of these runs' gpu-report.json and stop")
    args = ap.parse_args()
    if args.merge:
        report = merge_reports(args.merge)
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "gpu.md"), "w") as f:
            f.write(markdown(report))
        with open(os.path.join(args.out, "gpu-report.json"), "w") as f:
            json.dump(report, f, indent=1)
        return 0
    if bool(args.build) == bool(args.bundle):
        ap.error("give one of --build and --bundle")
    args.precisions = [p for p in args.precisions.split(",") if p]
    if any(p not in PRECISIONS for p in args.precisions):
        ap.error(f"--precisions: each of {', '.join(PRECISIONS)}")
    args.zoo = [m for m in args.zoo.split(",") if m]
    if any(m not in ZOO for m in args.zoo):
        ap.error(f"--zoo: each of {', '.join(ZOO)}")
    args.profile = [m for m in args.profile.split(",") if m]
    if any(m not in args.zoo for m in args.profile):
        ap.error("--profile: models of --zoo")
    args.all_precision_models = [m for m in args.all_precision_models.split(",") if m]
    args.batches = [int(b) for b in args.batches.split(",") if b]
    args.tolerance_items, args.tolerance = args.tolerance, dict(DEFAULT_TOLERANCE)
    for item in args.tolerance_items:
        key, _, value = item.partition("=")
        if key not in PRECISIONS:
            ap.error(f"--tolerance {item}: expected P=X with P one of {', '.join(PRECISIONS)}")
        args.tolerance[key] = float(value)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    args.scratch = os.path.abspath(args.scratch or os.path.join(out, "work"))
    os.makedirs(args.scratch, exist_ok=True)
    clock = Clock(args.deadline)

    driver = os.environ.get("ONNXC_CUDA_DRIVER") or "libcuda.so.1"
    try:
        ctypes.CDLL(driver)
    except OSError:
        log(f"SKIP: no usable NVIDIA GPU: cannot load the CUDA driver ({driver})")
        return 77
    facts = machine_facts()
    log(f"machine: {json.dumps(facts)}")
    sets = []
    if args.bundle:
        sets = unpack_bundle(args)
    else:
        args.compiler = os.path.join(os.path.abspath(args.build), "bin", "onnx-compile")
    for spec in args.node_set:
        name, _, rest = spec.partition("=")
        d, _, tests = rest.partition(":")
        sets.append((name, d, tests))
    args.version = first_line(run([args.compiler, "--version"]).stdout)
    args.node_server = node_test_server(args) if sets else None
    cap = facts.get("compute_cap", "8.0").replace(".", "")
    args.gpu = args.gpu or ("sm_90" if int(cap) >= 90 else f"sm_{cap}")
    log(f"compiler: {args.version}; --gpu {args.gpu}")

    # The models' exports and compiles run on the CPUs while the node tests
    # run; the models' timed runs come after both.
    args.model_precisions = {m: (args.precisions if m in args.all_precision_models else ["fp32"])
                             for m in args.zoo}
    compiles, exports = start_builds(args)
    node = []
    for name, d, tests in sets:
        if clock.left() < 120:
            node.append({"set": name, "cpu_passing": 0, "passed": 0, "failures": [], "error": "out of time"})
            continue
        node.append(node_set(args, out, name, d, tests, clock))
    # The profile first: it says where the time goes, which matters more
    # than the last rows when the deadline cuts the run short.
    if args.profile:
        concurrent.futures.wait([compiles[m] for m in args.profile], timeout=max(1.0, clock.left() - 120))
    profile = profile_rows(args, clock, compiles)
    rows = model_rows(args, clock, compiles, exports)

    report = {"machine": facts, "compiler": args.version, "gpu": args.gpu, "seconds": time.time() - START,
              "runs": 1, "node_tests": node, "models": rows, "profile": profile}
    md = markdown(report)
    with open(os.path.join(out, "gpu.md"), "w") as f:
        f.write(md)
    with open(os.path.join(out, "gpu-report.json"), "w") as f:
        json.dump(report, f, indent=1)
    print(md, flush=True)
    failed = any(s["passed"] != s["cpu_passing"] for s in node) or any(not r["ok"] for r in rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
