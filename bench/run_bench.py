"""run_bench.py - onnxc against ONNX Runtime: latency, thread scaling, compile time, memory and size per model, plus the FMA peak and GEMM/conv microbenchmarks; writes docs/performance.md.

For each model: export it once (cached under BUILD/bench/models), compile it with
`onnx-compile -O3` (timed), run it once with onnxc and with ONNX Runtime and check the
outputs agree (max|onnxc - ORT| <= 1e-3 x max|ORT|, else the model is marked MISMATCH),
then for each thread count T interleave the two engines (onnxc, ORT, onnxc, ORT, ...) for
R rounds of N timed runs each; a round reports the median of its runs, and the result is
the median of the round medians.

Models come from:
  * every exporter test/models/export_*.py that takes `--model NAME --out DIR` with a fixed
    set of choices and writes DIR/NAME.onnx and DIR/input_K.pb (today export_zoo.py:
    the zoo of test/models). A model added to such an exporter (resnet50, mobilenet_v3,
    a BERT-like encoder in a new export_*.py) is benchmarked by name with no change here;
  * `digits`, the CNN of examples/digits/make_digits.py, on its 360 test images;
  * the microbenchmarks `gemm` and `conv` of bench/make_micro.py, reported against the
    FMA peak measured by bench/peak/peak.c.

With `--baseline BUILD2` every model is also compiled by BUILD2's onnx-compile (another
checkout's build, e.g. the commit before a refactoring) and that executable joins the
interleaving (onnxc, base, ORT, onnxc, base, ORT, ...): the report then gains, per model and T,
onnxc/base (the change's own effect, measured under the same load as both ORT ratios), and
BUILD/bench/ab.md gets that table alone.

  usage: run_bench.py [--models a,b] [--micro gemm,conv] [--threads 1,2] [--rounds 5] ...
"""
import argparse
import ast
import datetime
import glob
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import make_micro  # noqa: E402

FAIL_NAMES = {"onnxc": "RUN", "base": "BASE RUN", "ort": "ORT"}
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
NODE = shutil.which("node") or "node"
MISMATCH_TOL = 1e-3  # of the output scale max|ORT|


# ---- Models ---------------------------------------------------------------------------------

class Model:
    """A benchmark model: how to make it, and what one run costs (flops, for microbenchmarks)."""

    def __init__(self, name, make, source, flops=None, about=""):
        self.name, self.make, self.source, self.flops, self.about = name, make, source, flops, about

    def prepare(self, work, fresh=False):
        """Return (model path, input paths), making them once (again with fresh)."""
        out = os.path.join(work, "models", self.name)
        if fresh:
            shutil.rmtree(out, ignore_errors=True)
        path = os.path.join(out, f"{self.name}.onnx")
        inputs = self.inputs(out)
        if not (os.path.exists(path) and inputs):
            os.makedirs(out, exist_ok=True)
            log(f"  exporting {self.name} ({self.source})")
            check_call(self.make(out))
            inputs = self.inputs(out)
        if not (os.path.exists(path) and inputs):
            raise RuntimeError(f"{self.source} wrote no {path} or inputs")
        return path, inputs

    def inputs(self, out):
        if self.name == "digits":
            p = os.path.join(out, "test_images.pb")
            return [p] if os.path.exists(p) else []
        # export_dynamic.py writes one folder per set of sizes; its first.
        found = (glob.glob(os.path.join(out, "input_*.pb"))
                 or glob.glob(os.path.join(out, "case0", "input_*.pb")))
        return sorted(found, key=lambda p: int(re.search(r"input_(\d+)\.pb$", p).group(1)))


def exporter_choices(script):
    """The --model choices of an exporter script: a literal list in its source, else its --help."""
    with open(script) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument"
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "--model"):
            for kw in node.keywords:
                if kw.arg == "choices":
                    try:
                        return list(ast.literal_eval(kw.value))
                    except ValueError:
                        break
            else:
                return []
    try:
        help_text = subprocess.run([PYTHON, script, "--help"], capture_output=True, text=True, timeout=120).stdout
    except subprocess.TimeoutExpired:
        return []
    m = re.search(r"--model \{([^}]*)\}", help_text)
    return m.group(1).split(",") if m else []


def model_registry():
    """name -> Model for every model this harness knows how to make, in report order."""
    models = {}
    for script in sorted(glob.glob(os.path.join(REPO, "test", "models", "export_*.py"))):
        rel = os.path.relpath(script, REPO)
        for name in exporter_choices(script):
            models.setdefault(name, Model(
                name, lambda out, s=script, n=name: [PYTHON, s, "--model", n, "--out", out], rel))
    digits = os.path.join(REPO, "examples", "digits", "make_digits.py")
    models["digits"] = Model("digits", lambda out: [PYTHON, digits, "--out", out],
                             os.path.relpath(digits, REPO), about="batch of 360 8x8 images")
    return models


def micro_registry():
    script = os.path.join(HERE, "make_micro.py")
    return {name: Model(name, lambda out, n=name: [PYTHON, script, "--model", n, "--out", out],
                        "bench/make_micro.py", flops=flops, about=about)
            for name, (about, flops) in make_micro.MICRO.items()}


# ---- Processes ------------------------------------------------------------------------------

def log(msg):
    print(msg, flush=True)


def check_call(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-2000:]}")


class Child:
    """A finished child process: exit code, output, wall seconds and peak RSS (MiB)."""

    def __init__(self, cmd, timeout):
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            p = subprocess.Popen(cmd, stdout=out, stderr=err)
            timer = threading.Timer(timeout, p.kill)
            timer.start()
            _, status, usage = os.wait4(p.pid, 0)
            timer.cancel()
            self.wall_s = time.perf_counter() - start
            p.returncode = self.returncode = os.waitstatus_to_exitcode(status)
            self.rss_mib = usage.ru_maxrss / 1024.0  # ru_maxrss is in KiB on Linux
            out.seek(0)
            err.seek(0)
            self.stdout = out.read().decode(errors="replace")
            self.stderr = err.read().decode(errors="replace")
        self.cmd = cmd

    def ok(self):
        return self.returncode == 0

    def json(self):
        lines = [l for l in self.stdout.splitlines() if l.strip().startswith("{")]
        if not lines:
            raise RuntimeError(f"no JSON line from {' '.join(self.cmd)}:\n{self.stdout[-1000:]}")
        return json.loads(lines[-1])

    def error(self):
        text = (self.stderr.strip() or self.stdout.strip()).splitlines()
        first = next((l for l in text if "error" in l.lower()), text[0] if text else "")
        return f"exit {self.returncode}: {first[:200]}"


class Engines:
    """The engines under one command-line shape: ENGINE [--output-dir D] --threads T --bench N INPUT...
    `exe` maps a compiled engine ("onnxc", and "base" with --baseline) to its executable."""

    def __init__(self, timeout):
        self.timeout = timeout

    def command(self, engine, exe, model, inputs, threads, bench, output_dir=None):
        if engine == "ort":
            cmd = [NODE, os.path.join(HERE, "ort_run.js"), model]
        else:
            cmd = [exe[engine]]
        if output_dir:
            cmd += ["--output-dir", output_dir]
        return cmd + ["--threads", str(threads), "--bench", str(bench)] + inputs

    def run(self, engine, exe, model, inputs, threads, bench, output_dir=None):
        return Child(self.command(engine, exe, model, inputs, threads, bench, output_dir), self.timeout)


# ---- Checks ---------------------------------------------------------------------------------

def load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def compare_dirs(ours_dir, ref_dir):
    """Return (ok, worst relative error, message) over every output_K.pb of the reference."""
    refs = sorted(glob.glob(os.path.join(ref_dir, "output_*.pb")))
    if not refs:
        return False, math.inf, "ORT wrote no outputs"
    worst = 0.0
    for ref_path in refs:
        k = os.path.basename(ref_path)
        got_path = os.path.join(ours_dir, k)
        if not os.path.exists(got_path):
            return False, math.inf, f"onnxc wrote no {k}"
        ref, got = load_pb(ref_path), load_pb(got_path)
        if ref.shape != got.shape:
            return False, math.inf, f"{k}: shape {list(got.shape)}, ORT {list(ref.shape)}"
        r, g = ref.astype(np.float64), got.astype(np.float64)
        if not np.isfinite(g).all():
            return False, math.inf, f"{k}: non-finite values"
        scale = float(np.abs(r).max()) if r.size else 1.0
        err = float(np.abs(g - r).max()) / (scale or 1.0) if r.size else 0.0
        worst = max(worst, err)
    ok = worst <= MISMATCH_TOL
    return ok, worst, f"max|onnxc-ORT|/max|ORT| = {worst:.2e}"


# ---- Benchmark ------------------------------------------------------------------------------

def iterations_for(estimate_ms, args):
    if args.iterations:
        return args.iterations
    n = int(round(args.round_ms / max(estimate_ms, 1e-3)))
    return max(args.min_iterations, min(args.max_iterations, n))


def compile_model(compiler, path, exe, timeout):
    """onnx-compile -O3 PATH -o EXE; the finished Child (its wall time is the compile time)."""
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    if os.path.exists(exe):
        os.unlink(exe)
    # --no-cache: compile time is the compiler's, never a copy from onnx-compile's output cache.
    return Child([compiler, path, "-o", exe, "-O3", "--no-cache"], timeout)


def bench_model(model, args, work, engines, compilers):
    """Compile, check and time one model; returns its result dictionary. `compilers` maps each
    compiled engine ("onnxc", optionally "base") to its onnx-compile."""
    res = {"name": model.name, "source": model.source, "about": model.about, "flops": model.flops,
           "status": "OK", "threads": {}}
    try:
        path, inputs = model.prepare(work, args.reexport)
    except RuntimeError as e:
        res.update(status="EXPORT FAIL", detail=str(e)[-500:])
        log(f"  {res['status']}: {e}")
        return res
    res["model_mib"] = os.path.getsize(path) / 2**20

    # Each compiled engine: its compiler, its binaries' folder, its result keys' prefix.
    exe = {}
    for engine, folder, prefix in (("onnxc", "bin", ""), ("base", "bin-base", "base_")):
        if engine not in compilers:
            continue
        exe[engine] = os.path.join(work, folder, model.name)
        comp = compile_model(compilers[engine], path, exe[engine], args.timeout)
        res[prefix + "compile_s"], res[prefix + "compile_rss_mib"] = comp.wall_s, comp.rss_mib
        if not comp.ok():
            res.update(status=f"{prefix.replace('_', ' ').upper()}COMPILE FAIL", detail=comp.error())
            log(f"  {res['status']}: {res['detail']}")
            return res
        res[prefix + "binary_mib"] = os.path.getsize(exe[engine]) / 2**20
        log(f"  {engine} compiled in {comp.wall_s:.1f}s ({comp.rss_mib:.0f} MiB), "
            f"binary {size(res[prefix + 'binary_mib'])}")

    out = os.path.join(work, "out", model.name)
    estimate = {}
    order = ["onnxc"] + (["base"] if "base" in compilers else []) + ["ort"]
    for engine in order:
        d = os.path.join(out, engine)
        shutil.rmtree(d, ignore_errors=True)
        cmd = engines.command(engine, exe, path, inputs, 1, 1, output_dir=d)
        if engine == "ort" and args.save_ort_optimized:
            os.makedirs(os.path.join(work, "ort-optimized"), exist_ok=True)
            cmd[3:3] = ["--save-optimized", os.path.join(work, "ort-optimized", f"{model.name}.onnx")]
        run = Child(cmd, args.timeout)
        if not run.ok():
            res.update(status=f"{FAIL_NAMES[engine]} FAIL", detail=run.error())
            log(f"  {res['status']}: {res['detail']}")
            return res
        estimate[engine] = run.json()["median_ms"]
    ok, err, msg = compare_dirs(os.path.join(out, "onnxc"), os.path.join(out, "ort"))
    res["rel_err"] = err
    if not ok:
        res.update(status="MISMATCH", detail=msg)
    log(f"  check: {msg} -> {'OK' if ok else 'MISMATCH'}")
    if "base" in compilers:
        base_ok, res["base_rel_err"], base_msg = compare_dirs(os.path.join(out, "base"), os.path.join(out, "ort"))
        log(f"  baseline check: {base_msg} -> {'OK' if base_ok else 'MISMATCH'}")

    iters = {e: iterations_for(estimate[e], args) for e in estimate}
    res["iterations"] = iters
    for t in args.threads:
        rounds = {e: [] for e in order}
        mins = {e: [] for e in order}
        rss = {e: 0.0 for e in order}
        for _ in range(args.rounds):
            for engine in order:  # interleaved: onnxc, [base,] ORT, onnxc, [base,] ORT, ...
                # A compiled model always writes its outputs (after the timed runs): keep them out of the cwd.
                scratch = os.path.join(out, "timed") if engine != "ort" else None
                run = engines.run(engine, exe, path, inputs, t, iters[engine], output_dir=scratch)
                if not run.ok():
                    res.update(status=f"{FAIL_NAMES[engine]} FAIL", detail=run.error())
                    log(f"  {res['status']}: {res['detail']}")
                    return res
                j = run.json()
                if j.get("threads") != t:
                    log(f"  warning: {engine} ran with {j.get('threads')} threads, not {t}")
                rounds[engine].append(j["median_ms"])
                mins[engine].append(j["min_ms"])
                rss[engine] = max(rss[engine], run.rss_mib)
        row = {}
        for engine in rounds:
            med = statistics.median(rounds[engine])
            row[engine] = {"median_ms": med, "min_ms": min(mins[engine]), "round_medians_ms": rounds[engine],
                           "spread": (max(rounds[engine]) - min(rounds[engine])) / 2 / med,
                           "peak_rss_mib": rss[engine]}
            if model.flops:
                row[engine]["gflops"] = model.flops / (row[engine]["median_ms"] * 1e-3) / 1e9
        row["ratio"] = row["onnxc"]["median_ms"] / row["ort"]["median_ms"]
        base = ""
        if "base" in row:
            row["base_ratio"] = row["base"]["median_ms"] / row["ort"]["median_ms"]
            row["vs_base"] = row["onnxc"]["median_ms"] / row["base"]["median_ms"]
            # Paired: the round-by-round ratio, each round's two runs a few seconds apart.
            row["vs_base_rounds"] = [a / b for a, b in zip(rounds["onnxc"], rounds["base"])]
            base = f", base {row['base']['median_ms']:.3f} ms, onnxc/base {row['vs_base']:.2f}"
        res["threads"][t] = row
        log(f"  T={t}: onnxc {row['onnxc']['median_ms']:.3f} ms{base}, ORT {row['ort']['median_ms']:.3f} ms, "
            f"ratio {row['ratio']:.2f} (rounds {args.rounds} x N {iters['onnxc']}/{iters['ort']})")
    ts = sorted(res["threads"])
    if len(ts) >= 2:
        lo, hi = res["threads"][ts[0]], res["threads"][ts[-1]]
        res["speedup"] = {e: lo[e]["median_ms"] / hi[e]["median_ms"] for e in ("onnxc", "ort")}
    return res


def build_peak(work):
    """Compile bench/peak/peak.c with the host's cc and measure the FMA peak for each thread count."""
    exe = os.path.join(work, "bin", "peak")
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cc = os.environ.get("CC", "cc")
    check_call([cc, "-O2", "-march=native", "-pthread", os.path.join(HERE, "peak", "peak.c"), "-o", exe])
    return exe


def measure_peak(exe, threads):
    run = Child([exe, "--threads", str(threads)], 120)
    if not run.ok():
        raise RuntimeError(f"peak failed: {run.error()}")
    return run.json()


# ---- Report ---------------------------------------------------------------------------------

def sh(cmd, default=""):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return default


def machine_info():
    lscpu = sh(["lscpu"])
    field = lambda k: next((l.split(":", 1)[1].strip() for l in lscpu.splitlines()
                            if l.split(":", 1)[0].strip() == k), "?")
    flags = set(field("Flags").split())
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = f"{kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return {
        "model": field("Model name"), "family": field("CPU family"), "model_id": field("Model"),
        "cpus": field("CPU(s)"), "cores_per_socket": field("Core(s) per socket"),
        "threads_per_core": field("Thread(s) per core"), "hypervisor": field("Hypervisor vendor"),
        "flags": {f: f in flags for f in ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_tile")},
        "memory": mem, "kernel": platform.release(),
    }


def tree_info(compiler, repo=REPO):
    rev = sh(["git", "-C", repo, "rev-parse", "--short", "HEAD"], "?")
    try:  # --no-optional-locks: reading the status must not rewrite the index
        status = subprocess.run(["git", "--no-optional-locks", "-C", repo, "status", "--porcelain",
                                 "--untracked-files=no"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        status = ""
    changed = [l[3:] for l in status.splitlines() if len(l) > 3]
    built = datetime.datetime.fromtimestamp(os.path.getmtime(compiler), datetime.timezone.utc)
    return {"commit": rev, "dirty": bool(changed), "changed": changed, "compiler": os.path.relpath(compiler, repo),
            "compiler_built": built.strftime("%Y-%m-%d %H:%M UTC")}


def fmt(x, digits=2, suffix=""):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    if isinstance(x, float) and digits is None:
        return f"{x:.3g}{suffix}"
    return f"{x:.{digits}f}{suffix}"


def size(mib):
    if mib is None:
        return "—"
    return f"{mib * 1024:.0f} KiB" if mib < 1 else f"{mib:.1f} MiB"


def ms(x, spread=None):
    if x is None:
        return "—"
    text = f"{x:.1f}" if x >= 100 else f"{x:.3g}"
    return text if spread is None else f"{text} ±{100 * spread:.0f}%"


def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def model_table(results, threads):
    lines = ["| model | T | onnxc ms | ORT ms | onnxc/ORT | T{1}/T{0} onnxc | T{1}/T{0} ORT | compile s | "
             "peak RSS onnxc / ORT MiB | binary | check |".format(threads[0], threads[-1]),
             "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    for r in results:
        check = r["status"] if r["status"] != "OK" else f"OK ({r['rel_err']:.0e})"
        if not r["threads"]:
            lines.append(f"| {r['name']} | — | — | — | — | — | — | {fmt(r.get('compile_s'), 1)} | — | "
                         f"{size(r.get('binary_mib'))} | {check}: {r.get('detail', '')[:120]} |")
            continue
        for t in threads:
            row = r["threads"].get(t)
            if not row:
                continue
            last = t == threads[-1] and "speedup" in r
            sp = r.get("speedup", {})
            lines.append(
                f"| {r['name']} | {t} | {ms(row['onnxc']['median_ms'], row['onnxc'].get('spread'))} | "
                f"{ms(row['ort']['median_ms'], row['ort'].get('spread'))} | "
                f"{row['ratio']:.2f} | {fmt(sp.get('onnxc')) if last else ''} | {fmt(sp.get('ort')) if last else ''} | "
                f"{fmt(r['compile_s'], 1)} | {row['onnxc']['peak_rss_mib']:.0f} / {row['ort']['peak_rss_mib']:.0f} | "
                f"{size(r['binary_mib'])} | {check} |")
    ok = [r for r in results if r["status"] == "OK" and r["threads"]]
    for t in threads:
        g = geomean([r["threads"][t]["ratio"] for r in ok if t in r["threads"]])
        last = t == threads[-1] and len(threads) > 1
        gs = {e: geomean([r["speedup"][e] for r in ok if "speedup" in r]) for e in ("onnxc", "ort")}
        lines.append(f"| **geomean** ({len(ok)} model{'s' if len(ok) != 1 else ''}) | {t} | | | **{fmt(g)}** | "
                     f"{fmt(gs['onnxc']) if last else ''} | {fmt(gs['ort']) if last else ''} | | | | |")
    return lines


def ab_lines(summary):
    """The --baseline report: per model and T, both onnxc builds against ORT and against each other.
    onnxc/base is the ratio of the medians of the round medians; "rounds" gives the spread of the
    per-round ratios (each round's two runs seconds apart, so the machine's load is shared)."""
    tree, base = summary["tree"], summary["base_tree"]
    threads = summary["args"]["threads"]
    lines = [f"# A/B: onnxc {tree['commit']}{'+dirty' if tree['dirty'] else ''} against baseline "
             f"{base['commit']}{'+dirty' if base['dirty'] else ''}", "",
             f"{summary['date'][:16]} UTC, {summary['machine']['model']}, {summary['args']['rounds']} interleaved "
             f"rounds (onnxc, base, ORT), load average {', '.join(f'{l:.1f}' for l in summary['load_avg'])}.", "",
             "| model | T | onnxc ms | base ms | ORT ms | onnxc/ORT | base/ORT | onnxc/base | per-round onnxc/base |",
             "|---|--:|--:|--:|--:|--:|--:|--:|---|"]
    ok = [r for r in summary["models"] + summary["micro"] if r["status"] == "OK" and r["threads"]]
    for r in summary["models"] + summary["micro"]:
        if r not in ok:
            lines.append(f"| {r['name']} | — | | | | | | | {r['status']}: {r.get('detail', '')[:100]} |")
            continue
        for t in threads:
            row = r["threads"].get(t) or r["threads"].get(str(t))
            if not row or "vs_base" not in row:
                continue
            per = row["vs_base_rounds"]
            lines.append(f"| {r['name']} | {t} | {ms(row['onnxc']['median_ms'])} | {ms(row['base']['median_ms'])} | "
                         f"{ms(row['ort']['median_ms'])} | {row['ratio']:.2f} | {row['base_ratio']:.2f} | "
                         f"**{row['vs_base']:.2f}** | {min(per):.2f}..{max(per):.2f} |")
    for t in threads:
        rows = [r["threads"].get(t) or r["threads"].get(str(t)) for r in ok]
        rows = [row for row in rows if row and "vs_base" in row]
        if rows:
            lines.append(f"| **geomean** ({len(rows)}) | {t} | | | | {fmt(geomean([x['ratio'] for x in rows]))} | "
                         f"{fmt(geomean([x['base_ratio'] for x in rows]))} | "
                         f"**{fmt(geomean([x['vs_base'] for x in rows]))}** | |")
    return lines


def peak_at(peaks, t):
    """The fp32 peak of t cores: t times the measured single-core peak (other work on the
    machine can lower a measurement on several cores at once, but not the hardware's peak)."""
    return t * peaks[1]["peak_gflops"]


def micro_table(results, threads, peaks):
    lines = ["| kernel | T | peak GFLOP/s | onnxc ms | onnxc GFLOP/s | onnxc % of peak | "
             "ORT ms | ORT GFLOP/s | ORT % of peak | onnxc/ORT | check |",
             "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    for r in results:
        check = r["status"] if r["status"] != "OK" else f"OK ({r['rel_err']:.0e})"
        if not r["threads"]:
            lines.append(f"| {r['name']} | — | | | | | | | | | {check}: {r.get('detail', '')[:120]} |")
            continue
        for t in threads:
            row = r["threads"].get(t)
            if not row:
                continue
            peak = peak_at(peaks, t)
            o, e = row["onnxc"], row["ort"]
            lines.append(f"| {r['name']} | {t} | {peak:.0f} | {ms(o['median_ms'], o.get('spread'))} | {o['gflops']:.1f} | "
                         f"{100 * o['gflops'] / peak:.2f}% | {ms(e['median_ms'], e.get('spread'))} | {e['gflops']:.1f} | "
                         f"{100 * e['gflops'] / peak:.1f}% | {row['ratio']:.1f} | {check} |")
    return lines


def summary_lines(results, micro, peaks, threads):
    ok = [r for r in results if r["status"] == "OK" and r["threads"]]
    t = threads[0]
    parts = []
    g = geomean([r["threads"][t]["ratio"] for r in ok if t in r["threads"]])
    if g:
        parts.append(f"onnxc takes {g:.1f}x ORT's time (geomean of {len(ok)} models, T={t}: "
                     + ", ".join(f"{r['name']} {r['threads'][t]['ratio']:.1f}x" for r in ok) + ")")
    for r in micro:
        row = r["threads"].get(t)
        if row and peaks:
            peak = peak_at(peaks, t)
            parts.append(f"{r['name']} runs at {row['onnxc']['gflops']:.1f} GFLOP/s = "
                         f"{100 * row['onnxc']['gflops'] / peak:.2g}% of the {peak:.0f} GFLOP/s "
                         f"{'single-core ' if t == 1 else ''}peak (ORT {100 * row['ort']['gflops'] / peak:.0f}%)")
    bad = [f"{r['name']} {r['status']}" for r in results + micro if r["status"] != "OK"]
    if bad:
        parts.append("not OK: " + ", ".join(bad))
    return ["Summary: " + "; ".join(parts) + ".", ""] if parts else []


KEPT_BEGIN, KEPT_END = "<!-- kept:begin -->", "<!-- kept:end -->"


def kept_sections(path):
    """The blocks of the report at `path` between KEPT_BEGIN and KEPT_END lines, markers included:
    what other tools write there (test/gpu/run_on_gpu.py's GPU table) and dated hand-measured
    sections survive a new run, placed before "## Method"."""
    if not os.path.exists(path):
        return []
    kept, inside = [], False
    with open(path) as f:
        for line in f.read().splitlines():
            if line.strip() == KEPT_BEGIN:
                inside = True
                kept.append("")
            if inside:
                kept.append(line)
            if line.strip() == KEPT_END:
                inside = False
    return kept


def write_doc(path, summary):
    """Write the report from a results dictionary (as saved in results.json)."""
    info, results, micro, peaks = summary, summary["models"], summary["micro"], summary["peak"]
    args = argparse.Namespace(**summary["args"])
    started = datetime.datetime.fromisoformat(summary["date"])
    elapsed_s, loads, node_rss = summary["elapsed_s"], summary["load_avg"], summary.get("node_rss_mib", 0)
    m, tree = info["machine"], info["tree"]
    flags = ", ".join(f"{k} {'yes' if v else 'no'}" for k, v in m["flags"].items())
    threads = args.threads
    lines = [
        "# Performance",
        "",
        "Generated by `bench/run_bench.py` (`make bench`); do not edit by hand, except between `kept` markers (kept across runs). onnxc against",
        f"ONNX Runtime {info['ort_version']} (CPU execution provider, through onnxruntime-node) on the same inputs.",
        "",
    ] + summary_lines(results, micro, peaks, threads) + [
        "## Setup",
        "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')} (run took {elapsed_s / 60:.1f} min)",
        f"- Machine: {m['model']} (family {m['family']}, model {m['model_id']}), {m['cpus']} CPUs ({m['cores_per_socket']} cores per socket, "
        f"{m['threads_per_core']} thread(s) per core), {m['memory']} memory"
        + (f", {m['hypervisor']} guest" if m["hypervisor"] != "?" else "") + f", Linux {m['kernel']}",
        f"- CPU flags: {flags}",
        f"- onnxc: commit {tree['commit']}"
        + (f" + uncommitted changes ({', '.join(tree['changed'][:6])}{', ...' if len(tree['changed']) > 6 else ''})"
           if tree["dirty"] else " (clean tree)") + ", "
        f"`{tree['compiler']}` built {tree['compiler_built']}, models compiled with `-O3` for the host CPU",
        f"- ONNX Runtime {info['ort_version']}: graphOptimizationLevel `all`, intraOpNumThreads T, "
        "interOpNumThreads 1, sequential execution",
        f"- Load average (1 min, {m['cpus']} CPUs): {loads[0]:.2f} at the start, up to {max(loads):.2f} "
        f"between models, {loads[-1]:.2f} at the end",
        "",
        "## Models",
        "",
        f"Median latency of one inference, T threads. onnxc/ORT above 1 means onnxc is slower. "
        f"T{threads[-1]}/T{threads[0]} is each engine's speed-up from {threads[0]} to {threads[-1]} threads. "
        "Peak RSS is the whole process's (ORT's includes Node.js, "
        f"{node_rss:.0f} MiB with onnxruntime-node loaded and no session). The binary embeds the weights.",
        "",
    ]
    lines += model_table(results, threads)
    lines += [""]
    for r in results:
        extra = f", {r['about']}" if r["about"] else ""
        lines.append(f"- {r['name']}: from `{r['source']}`{extra}"
                     + (f", {size(r['model_mib'])} ONNX" if "model_mib" in r else "")
                     + (f"; compiler peak RSS {r['compile_rss_mib']:.0f} MiB" if "compile_rss_mib" in r else ""))
    if micro:
        p1 = peaks[1]
        multi = [f"{p['peak_gflops']:.0f} GFLOP/s on {t}" for t, p in sorted(peaks.items()) if t > 1]
        lines += [
            "",
            "## Microbenchmarks",
            "",
            f"Single-core fp32 FMA peak measured by `bench/peak/peak.c` (cc -O2 -march=native): "
            f"AVX-512 {fmt(p1.get('avx512_gflops'), 1)} GFLOP/s, AVX2 {fmt(p1.get('avx2_gflops'), 1)} GFLOP/s; "
            "the peak at T threads is T times that"
            + (f" (measured with all T running at once: {', '.join(multi)})" if multi else "") + ". "
            + "; ".join(f"{r['name']}: {r['about']} ({r['flops'] / 1e9:.3f} GFLOP)" for r in micro) + ".",
            "",
        ]
        lines += micro_table(micro, threads, peaks)
    lines += kept_sections(path)
    lines += [
        "",
        "## Method",
        "",
        "- Each model is exported once (cached in `build/bench/models`) and compiled on every run (`--no-cache`), "
        "so compile time and binary size follow the current compiler.",
        f"- Before timing, both engines run the same input once and their outputs must agree: "
        f"max|onnxc - ORT| <= {MISMATCH_TOL:g} x max|ORT| for every output, else the row says MISMATCH "
        "(still timed, left out of the geomean). The check column shows the relative error.",
        "- Each timed process loads the model, runs it once (warm-up, not timed) and then N times, "
        "timing each run on its own clock (onnxc: `--bench N`; ORT: `bench/ort_run.js --bench N`, "
        "around `session.run`), and reports the median of the N.",
        f"- For each T the engines alternate, onnxc then ORT, for {args.rounds} rounds, so a slow patch "
        "of the machine hits both; the result is the median of the round medians, and ±x% is half the range of the round "
        "medians over that median (how much the rounds disagreed). "
        + (f"N is fixed at {args.iterations}." if args.iterations else
           f"N is chosen per engine from a first run so that a round takes about {args.round_ms:.0f} ms "
           f"(at least {args.min_iterations}, at most {args.max_iterations}); the N used are in "
           "`build/bench/results.json`."),
        "- Peak RSS is `ru_maxrss` of the benchmark process (wait4), the largest over the rounds.",
        ("- This run shared the machine with other work, builds among them (see the load average): "
         f"numbers are indicative, T > 1 on {m['cpus']} CPUs most of all; the ratios, measured "
         "interleaved, are the more robust figure. "
         if max(loads) > 0.5 else "- The machine was otherwise idle during this run (see the load average). ")
        + "Rerun with `make bench` (options: `BENCH_ARGS='--rounds 5 --models resnet18'`).",
        "- A model added to an exporter in `test/models/export_*.py` (same `--model NAME --out DIR` "
        "contract) is picked up by name: `bench/run_bench.py --models resnet50,mobilenet_v3`.",
        "",
    ]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def load_summary(path):
    """results.json as run_bench wrote it, with the thread counts (JSON keys) as integers again."""
    with open(path) as f:
        summary = json.load(f)
    summary["peak"] = {int(k): v for k, v in summary["peak"].items()}
    for r in summary["models"] + summary["micro"]:
        r["threads"] = {int(k): v for k, v in r["threads"].items()}
        for row in r["threads"].values():
            for e in ("onnxc", "ort"):
                rounds = row[e]["round_medians_ms"]
                row[e].setdefault("spread", (max(rounds) - min(rounds)) / 2 / row[e]["median_ms"])
    return summary


# ---- Main -----------------------------------------------------------------------------------

def names(value, known, what):
    chosen = [n for n in value.split(",") if n] if value is not None else list(known)
    unknown = [n for n in chosen if n not in known]
    if unknown:
        sys.exit(f"error: unknown {what} {', '.join(unknown)} (known: {', '.join(known)}; models come from "
                 "the --model choices of test/models/export_*.py, plus digits)")
    return [known[n] for n in chosen]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="build directory (default: build)")
    ap.add_argument("--models", help="comma-separated models (default: all known; '' for none)")
    ap.add_argument("--micro", help="comma-separated microbenchmarks (default: gemm,conv; '' for none)")
    ap.add_argument("--threads", default="1,2", help="thread counts (default: 1,2)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds per model and T (default: 5)")
    ap.add_argument("--iterations", type=int, help="timed runs per round (default: chosen from --round-ms)")
    ap.add_argument("--round-ms", type=float, default=1000, help="target time of one round's runs (default: 1000)")
    ap.add_argument("--min-iterations", type=int, default=1)
    ap.add_argument("--max-iterations", type=int, default=200)
    ap.add_argument("--timeout", type=float, default=900, help="seconds allowed to one process (default: 900)")
    ap.add_argument("--baseline", metavar="BUILD2",
                    help="also compile and time every model with BUILD2/bin/onnx-compile (another checkout's "
                         "build), interleaved; writes BUILD/bench/ab.md")
    ap.add_argument("--reexport", action="store_true", help="export the models again instead of using the cache")
    ap.add_argument("--save-ort-optimized", action="store_true",
                    help="also write ORT's optimized models to BUILD/bench/ort-optimized/NAME.onnx")
    ap.add_argument("--report-only", action="store_true",
                    help="measure nothing: rewrite the report from BUILD/bench/results.json")
    ap.add_argument("--doc", default=os.path.join(REPO, "docs", "performance.md"),
                    help="report to write (default: docs/performance.md; '' for none)")
    args = ap.parse_args()
    args.threads = sorted({int(t) for t in args.threads.split(",") if t})
    if not args.threads or min(args.threads) < 1 or args.rounds < 1:
        sys.exit("error: --threads and --rounds must be positive")

    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.perf_counter()
    loads = [os.getloadavg()[0]]
    compiler = os.path.abspath(os.path.join(args.build, "bin", "onnx-compile"))
    if not os.path.exists(compiler) and not args.report_only:
        sys.exit(f"error: no {compiler}: build first (make build)")
    compilers = {"onnxc": compiler}
    if args.baseline:
        compilers["base"] = os.path.abspath(os.path.join(args.baseline, "bin", "onnx-compile"))
        if not os.path.exists(compilers["base"]):
            sys.exit(f"error: no {compilers['base']}: build the baseline checkout first")
    work = os.path.abspath(os.path.join(args.build, "bench"))
    os.makedirs(work, exist_ok=True)
    results_path = os.path.join(work, "results.json")
    if args.report_only:
        write_doc(args.doc, load_summary(results_path))
        log(f"wrote {os.path.relpath(args.doc, os.getcwd())} from {results_path}")
        return 0
    check_call([os.path.join(HERE, "setup.sh")])
    ort_version = sh([NODE, os.path.join(HERE, "ort_run.js"), "--version"], "?")
    node_rss = Child([NODE, "-e", "require('onnxruntime-node')"], 60).rss_mib
    engines = Engines(args.timeout)

    models = names(args.models, model_registry(), "model")
    micros = names(args.micro, micro_registry(), "microbenchmark")
    info = {"machine": machine_info(), "tree": tree_info(compiler), "ort_version": ort_version}
    if args.baseline:
        info["base_tree"] = tree_info(compilers["base"], os.path.dirname(compilers["base"]))
        log(f"baseline: {compilers['base']} at {info['base_tree']['commit']}")
    log(f"onnxc {info['tree']['commit']}{'+dirty' if info['tree']['dirty'] else ''} vs ORT {ort_version} "
        f"on {info['machine']['model']}; threads {args.threads}, {args.rounds} rounds")

    peaks = {}
    if micros:
        peak_exe = build_peak(work)
        for t in sorted({1, *args.threads}):
            peaks[t] = measure_peak(peak_exe, t)
            log(f"FMA peak, {t} thread(s): {peaks[t]}")

    results, micro_results = [], []
    for model in models:
        log(f"{model.name}:")
        results.append(bench_model(model, args, work, engines, compilers))
        loads.append(os.getloadavg()[0])
    for model in micros:
        log(f"{model.name}:")
        micro_results.append(bench_model(model, args, work, engines, compilers))
        loads.append(os.getloadavg()[0])
    elapsed = time.perf_counter() - t0

    summary = {"date": started.isoformat(), "elapsed_s": elapsed, "load_avg": loads, **info,
               "node_rss_mib": node_rss, "peak": peaks,
               "args": {k: v for k, v in vars(args).items() if k not in ("report_only", "doc")},
               "models": results, "micro": micro_results}
    with open(results_path, "w") as f:
        json.dump(summary, f, indent=1, default=str)
    if args.doc:
        write_doc(args.doc, summary)
        log(f"wrote {os.path.relpath(args.doc, os.getcwd())} and {os.path.join(work, 'results.json')} "
            f"in {elapsed / 60:.1f} min")
    if args.baseline:
        ab = os.path.join(work, "ab.md")
        with open(ab, "w") as f:
            f.write("\n".join(ab_lines(summary)) + "\n")
        log(f"wrote {ab}")
    bad = [r["name"] for r in results + micro_results if r["status"] != "OK"]
    if bad:
        log(f"not OK: {', '.join(bad)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
