"""run_zoo.py - compile the model zoo with onnx-compile and check it against PyTorch at batch 1 and 4.

For each model of test/models/export_zoo.py: export it once (cached, redone when
the exporter changes), compile it once with its batch dim (with --all-dynamic,
every input dim) dynamic, run the one executable on the batch-1 and the batch-4
references, and compare each output within --scale-tol x max|reference| (default
1e-3). Writes a markdown report (default docs/zoo.md) and exits 1 if any model fails.

    python3 test/models/run_zoo.py [--models resnet50,unet] [--compile-arg=-O3] [-j 2]
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "test", "e2e"))
from compare import compare, load_tensor  # noqa: E402

EXPORTER = os.path.join(HERE, "export_zoo.py")
ZOO = ["resnet50", "mobilenet_v2", "inception_v3", "resnext50_32x4d", "mobilenet_v3_large",
       "bert_encoder", "unet", "lstm_classifier", "gru_classifier"]
BATCHES = [1, 4]


def sh(cmd, timeout):
    """Run cmd; return (ok, seconds, combined output tail)."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, time.time() - t0, f"timed out after {timeout}s"
    out = p.stdout.decode(errors="replace").strip()
    if p.returncode != 0:
        status = f"signal {-p.returncode}" if p.returncode < 0 else f"exit status {p.returncode}"
        return False, time.time() - t0, f"{status}: {out[-2000:]}"
    return True, time.time() - t0, out


def one_line(text, limit=200):
    lines = [l for l in text.splitlines() if l.strip()]
    errors = [l for l in lines if "error" in l.lower()]
    line = (errors or lines or [""])[0].strip()
    return line if len(line) <= limit else line[:limit - 3] + "..."


def export(name, root, python, timeout, extra=()):
    """Export NAME into ROOT/NAME unless a matching export is there; return its dir."""
    d = os.path.join(root, name)
    with open(EXPORTER, "rb") as f:
        stamp = hashlib.sha256(f.read() + repr((BATCHES, *extra)).encode()).hexdigest()
    stamp_path = os.path.join(d, ".stamp")
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        return True, d, "cached"
    ok, _, out = sh([python, EXPORTER, "--model", name, "--out", d, "--batches", *map(str, BATCHES), *extra],
                    timeout)
    if ok:
        with open(stamp_path, "w") as f:
            f.write(stamp)
    return ok, d, out


def numbered_files(d, kind):
    """D/KIND_0.pb, D/KIND_1.pb, ... in order."""
    files = sorted((f for f in os.listdir(d) if f.startswith(kind + "_") and f.endswith(".pb")),
                   key=lambda f: int(f[len(kind) + 1:-3]))
    return [os.path.join(d, f) for f in files]


def batch_files(d, b, kind):
    return numbered_files(d if b == BATCHES[0] else os.path.join(d, f"b{b}"), kind)


def run_case(exe, label, inputs, refs, out_dir, args, row):
    """Run exe on inputs into out_dir and compare its outputs with refs within --scale-tol;
    record the run time (run_LABEL_s) and the worst error (err_LABEL) in row, or the
    failing stage and reason; return whether every output matches."""
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, f))
    row["stage"] = f"run {label}"
    ok, secs, out = sh([exe, "--output-dir", out_dir, *args.run_arg, *inputs], args.timeout)
    row[f"run_{label}_s"] = secs
    if not ok:
        row["reason"] = one_line(out)
        return False
    row["stage"] = f"compare {label}"
    worst = 0.0
    for k, ref_path in enumerate(refs):
        got_path = os.path.join(out_dir, f"output_{k}.pb")
        if not os.path.exists(got_path):
            row["reason"] = f"output_{k} was not written"
            return False
        ref, got = load_tensor(ref_path)[0], load_tensor(got_path)[0]
        good, msg = compare(ref, got, args.scale_tol)
        if not good:
            row["reason"] = f"output_{k}: {msg}"
            return False
        if ref.size:
            scale = float(abs(ref).max()) or 1.0
            worst = max(worst, float(abs(got.astype("float64") - ref).max()) / scale)
    row[f"err_{label}"] = worst
    return True


def check_model(name, args):
    """Export, compile, run and compare one model; return its report row as a dict."""
    row = {"model": name, "ok": False, "stage": "export", "reason": ""}
    extra = ["--all-dynamic"] if args.all_dynamic else []
    models = "models-dynamic" if args.all_dynamic else "models"
    ok, d, out = export(name, os.path.join(args.work, models), args.python, args.timeout, extra)
    if not ok:
        row["reason"] = one_line(out)
        return row
    onnx_path = os.path.join(d, f"{name}.onnx")
    row["onnx_mb"] = os.path.getsize(onnx_path) / 1e6
    work = os.path.join(args.work, "run-dynamic" if args.all_dynamic else "run", name)
    os.makedirs(work, exist_ok=True)
    exe = os.path.join(work, "model")
    if os.path.exists(exe):
        os.remove(exe)
    row["stage"] = "compile"
    ok, secs, out = sh([args.compiler, onnx_path, "-o", exe, *args.compile_arg], args.timeout)
    row["compile_s"] = secs
    if not ok:
        row["reason"] = one_line(out)
        return row
    row["exe_mb"] = os.path.getsize(exe) / 1e6
    for b in BATCHES:
        if not run_case(exe, f"b{b}", batch_files(d, b, "input"), batch_files(d, b, "output"),
                        os.path.join(work, f"out_b{b}"), args, row):
            return row
    row.update(ok=True, stage="", reason="")
    return row


def write_report(path, rows, args, wall):
    passed = sum(r["ok"] for r in rows)
    fmt = lambda r, key, f: (f % r[key]) if key in r else ""  # noqa: E731
    lines = [
        "# Model zoo" + (" (all input dims dynamic)" if args.all_dynamic else ""),
        "",
        "<!-- Generated by test/models/run_zoo.py; do not edit. -->",
        "",
        "Models from `test/models/export_zoo.py` (PyTorch, opset 17, fixed-seed random weights, "
        f"{'every input dim' if args.all_dynamic else 'batch dim'} dynamic), each compiled once with "
        "`onnx-compile` and run through the same executable at batch 1 "
        f"and batch 4. An output matches when max|ours - PyTorch| <= {args.scale_tol:g} x max|PyTorch| "
        "(the error column gives max|ours - PyTorch| / max|PyTorch|). Regenerate with "
        f"`cmake --build build --target {'zoo-dynamic' if args.all_dynamic else 'zoo'}`.",
        "",
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; machine: "
        f"{platform.machine()}, {os.cpu_count()} cores",
        f"- command: `python3 test/models/run_zoo.py{''.join(' ' + a for a in sys.argv[1:])}`",
        f"- wall time: {wall:.0f} s",
        "",
        "| model | ONNX MB | compile s | executable MB | batch 1: error, run s | batch 4: error, run s | result |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        result = "pass" if r["ok"] else f"fail at {r['stage']}: {r['reason'].replace('|', '/')}"
        b1 = f"{fmt(r, 'err_b1', '%.1e')}, {fmt(r, 'run_b1_s', '%.2f')}" if "err_b1" in r else ""
        b4 = f"{fmt(r, 'err_b4', '%.1e')}, {fmt(r, 'run_b4_s', '%.2f')}" if "err_b4" in r else ""
        lines.append(f"| {r['model']} | {fmt(r, 'onnx_mb', '%.1f')} | {fmt(r, 'compile_s', '%.1f')} | "
                     f"{fmt(r, 'exe_mb', '%.1f')} | {b1} | {b4} | {result} |")
    lines += ["", f"**{passed} of {len(rows)} models pass.**", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler", default=os.path.join(REPO, "build", "bin", "onnx-compile"))
    ap.add_argument("--work", default=os.path.join(REPO, "build", "zoo"), help="exports and executables")
    ap.add_argument("--models", default=",".join(ZOO), help=f"comma-separated (default: {','.join(ZOO)})")
    ap.add_argument("--compile-arg", action="append", default=[], metavar="ARG",
                    help="extra onnx-compile argument, repeatable (write --compile-arg=-O3)")
    ap.add_argument("--run-arg", action="append", default=[], metavar="ARG",
                    help="extra executable argument, repeatable (e.g. --run-arg=--threads=2)")
    ap.add_argument("--all-dynamic", action="store_true",
                    help="make every input dim dynamic (sequence, height, width too), not only the batch")
    ap.add_argument("--scale-tol", type=float, default=1e-3)
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per step")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="models in parallel (compiles take GBs)")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--report", default=os.path.join(REPO, "docs", "zoo.md"))
    args = ap.parse_args()
    models = [m for m in args.models.split(",") if m]
    unknown = sorted(set(models) - set(ZOO) - {"resnet18"})
    if unknown:
        sys.exit(f"error: unknown model(s) {', '.join(unknown)} (known: {', '.join(ZOO)})")

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda m: check_model(m, args), models))
    for r in rows:
        status = "PASS" if r["ok"] else f"FAIL at {r['stage']}: {r['reason']}"
        errs = " ".join(f"b{b} err {r[f'err_b{b}']:.1e}" for b in BATCHES if f"err_b{b}" in r)
        print(f"{r['model']}: {status} {errs}".rstrip(), flush=True)
    write_report(args.report, rows, args, time.time() - t0)
    passed = sum(r["ok"] for r in rows)
    print(f"{passed} of {len(rows)} models pass; report: {args.report}")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
