"""run_dynamic.py - compile the models of export_dynamic.py once, all dims dynamic, and check each case.

For each model (default: all of test/models/export_dynamic.py): export it with its
reference cases, compile it once with onnx-compile (no --input-shape), run the one
executable on every case (each with other batch, sequence, past, height or width
sizes) and compare each output within --scale-tol x max|reference| (default 1e-3).
Exits 1 if any model fails.

    python3 test/models/run_dynamic.py --compiler build/bin/onnx-compile --work /tmp/dynamic
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
from export_dynamic import MODELS  # noqa: E402
from run_zoo import REPO, numbered_files, one_line, run_case, sh  # noqa: E402

EXPORTER = os.path.join(HERE, "export_dynamic.py")


def check_model(name, args):
    """Export, compile once, run and compare every case of one model; return its result row."""
    row = {"model": name, "ok": False, "stage": "export", "reason": ""}
    d = os.path.join(args.work, name)
    ok, _, out = sh([args.python, EXPORTER, "--model", name, "--out", d], args.timeout)
    if not ok:
        row["reason"] = one_line(out)
        return row
    exe = os.path.join(d, "model")
    if os.path.exists(exe):
        os.remove(exe)
    row["stage"] = "compile"
    ok, row["compile_s"], out = sh([args.compiler, os.path.join(d, f"{name}.onnx"), "-o", exe,
                                    *args.compile_arg], args.timeout)
    if not ok:
        row["reason"] = one_line(out)
        return row
    cases = sorted(c for c in os.listdir(d) if c.startswith("case"))
    for case in cases:
        c = os.path.join(d, case)
        if not run_case(exe, case, numbered_files(c, "input"), numbered_files(c, "output"),
                        os.path.join(c, "out"), args, row):
            return row
    row.update(ok=True, stage="", reason="", cases=cases)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler", default=os.path.join(REPO, "build", "bin", "onnx-compile"))
    ap.add_argument("--work", required=True, help="exports and executables")
    ap.add_argument("--models", default=",".join(MODELS),
                    help=f"comma-separated (default: {','.join(MODELS)})")
    ap.add_argument("--compile-arg", action="append", default=[], metavar="ARG",
                    help="extra onnx-compile argument, repeatable (write --compile-arg=-O3)")
    ap.add_argument("--run-arg", action="append", default=[], metavar="ARG",
                    help="extra executable argument, repeatable (e.g. --run-arg=--threads=2)")
    ap.add_argument("--scale-tol", type=float, default=1e-3)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per step")
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    models = [m for m in args.models.split(",") if m]
    unknown = sorted(set(models) - set(MODELS))
    if unknown:
        sys.exit(f"error: unknown model(s) {', '.join(unknown)} (known: {', '.join(MODELS)})")

    rows = [check_model(m, args) for m in models]
    for r in rows:
        if not r["ok"]:
            print(f"{r['model']}: FAIL at {r['stage']}: {r['reason']}", flush=True)
            continue
        errs = " ".join(f"{c} err {r[f'err_{c}']:.1e}" for c in r["cases"])
        print(f"{r['model']}: PASS (compile {r['compile_s']:.1f}s) {errs}", flush=True)
    passed = sum(r["ok"] for r in rows)
    print(f"{passed} of {len(rows)} models pass")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
