"""check_internal_error.py - an internal error is contained: reported, exit 3, the batch goes on.

Forces internal errors with $ONNXC_FORCE_INTERNAL_ERROR=KIND:WHERE[:FILE]
(lib/Driver/CrashGuard.h) and checks:
  1. onnx-compile and onnx-opt on one model, for every kind (a SIGSEGV, an abort, an LLVM
     fatal error, a C++ exception, a stack overflow) at a stage: exit code 3, the one-line
     report naming the model, the stage and what happened, and nothing at the output path;
  2. a crash inside a pass names the pass and the node whose op it was rewriting, one in
     the importer the node it was importing;
  3. a batch of five models, -j 2, one of which crashes: exit code 3, the other four
     compiled, the JSON report and JUnit XML written, the crashed model in them as an
     internal error;
  4. without the variable, the same batch compiles every model (exit 0).
Exits non-zero on the first failed check.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = re.compile(r"^error: internal error while compiling (\S+) at stage (\S+)"
                    r"(?: \((.*)\))?: (.*); please report$", re.M)


def check(cond, message):
    if not cond:
        print(f"FAIL: {message}")
        sys.exit(1)


def run(cmd, force=None):
    env = dict(os.environ)
    env.pop("ONNXC_FORCE_INTERNAL_ERROR", None)
    if force:
        env["ONNXC_FORCE_INTERNAL_ERROR"] = force
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)


def expect_report(proc, what, model, stage, cause):
    check(proc.returncode == 3, f"{what}: exit code {proc.returncode}, expected 3\n{proc.stderr}")
    match = REPORT.search(proc.stderr)
    check(match, f"{what}: no internal-error report in\n{proc.stderr}")
    check(match.group(1).endswith(model), f"{what}: report names {match.group(1)}")
    check(match.group(2) == stage, f"{what}: stage {match.group(2)}, expected {stage}")
    check(re.search(cause, match.group(4)), f"{what}: cause '{match.group(4)}' !~ {cause}")
    return match


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin", required=True, help="directory of onnx-compile and onnx-opt")
    ap.add_argument("--work", required=True, help="scratch directory (recreated)")
    args = ap.parse_args()
    compiler = os.path.join(args.bin, "onnx-compile")
    optimizer = os.path.join(args.bin, "onnx-opt")
    shutil.rmtree(args.work, ignore_errors=True)
    models = os.path.join(args.work, "models")
    subprocess.run([sys.executable, os.path.join(HERE, "make_batch_models.py"), "--out", models,
                    "--count", "5"], check=True, stdout=subprocess.DEVNULL)
    names = sorted(f for f in os.listdir(models) if f.endswith(".onnx"))
    check(len(names) == 5, f"expected 5 models, got {names}")
    model = os.path.join(models, names[0])

    # 1. Every kind, at a stage, in both tools.
    causes = {"segv": r"signal 11 \(Segmentation fault\)", "abort": r"signal 6 \(Abort",
              "fatal": r"LLVM fatal error: forced internal error",
              "exception": r"uncaught exception: forced internal error",
              "overflow": r"signal 11 \(Segmentation fault\)"}
    for kind, cause in causes.items():
        out = os.path.join(args.work, f"single-{kind}")
        proc = run([compiler, model, "-o", out], f"{kind}:lower")
        expect_report(proc, f"onnx-compile {kind}", names[0], "lower", cause)
        check(not os.path.exists(out), f"onnx-compile {kind}: left {out}")
        print(f"onnx-compile {kind}: exit 3, reported")
    proc = run([optimizer, model, "-o", os.path.join(args.work, "opt.onnx")], "segv:optimize")
    expect_report(proc, "onnx-opt segv", names[0], "optimize", causes["segv"])
    print("onnx-opt segv: exit 3, reported")

    # 2. Inside a pass: the pass and the node.
    proc = run([compiler, model, "-o", os.path.join(args.work, "in-pass")],
               "segv:convert-onnx-to-linalg")
    match = expect_report(proc, "crash in a pass", names[0], "lower", causes["segv"])
    check(match.group(3) and re.fullmatch(r"pass convert-onnx-to-linalg, node '[^']+'",
                                          match.group(3)),
          f"crash in a pass: details '{match.group(3)}'")
    print(f"crash in a pass: ({match.group(3)})")
    proc = run([compiler, model, "-o", os.path.join(args.work, "in-import")], "abort:import-node")
    match = expect_report(proc, "crash importing a node", names[0], "import", causes["abort"])
    check(match.group(3) and re.fullmatch(r"node '[^']+'", match.group(3)),
          f"crash importing a node: details '{match.group(3)}'")
    print(f"crash importing a node: ({match.group(3)})")

    # 3. A batch with one crashing model.
    out = os.path.join(args.work, "out")
    report, junit = os.path.join(args.work, "r.json"), os.path.join(args.work, "j.xml")
    batch = [compiler] + [os.path.join(models, n) for n in names] + [
        "-o", out + "/", "-j", "2", "--no-cache", "--emit", "obj", "--report", report,
        "--junit", junit]
    proc = run(batch, f"segv:codegen:{names[2]}")
    check(proc.returncode == 3, f"batch: exit code {proc.returncode}, expected 3\n{proc.stderr}")
    check(re.search(r"5 models: 4 ok \(0 cached\), 1 failed \(1 by an internal error\)",
                    proc.stderr), f"batch: summary in\n{proc.stderr}")
    with open(report) as f:
        entries = {os.path.basename(m["model"]): m for m in json.load(f)["models"]}
    for name in names:
        status = entries[name]["status"]
        if name == names[2]:
            check(status == "internal-error", f"batch: {name} is {status}")
            check("at stage codegen" in entries[name]["error"], f"batch: {entries[name]['error']}")
        else:
            check(status == "ok", f"batch: {name} is {status}")
            check(os.path.exists(os.path.join(out, name[:-5] + ".o")), f"batch: no output of {name}")
    suite = ET.parse(junit).getroot().find("testsuite")
    check(suite.get("errors") == "1" and suite.get("failures") == "0",
          f"junit: errors {suite.get('errors')} failures {suite.get('failures')}")
    print("batch: exit 3, 4 of 5 compiled, report and JUnit name the internal error")

    # 4. The same batch without the forced error.
    proc = run(batch)
    check(proc.returncode == 0, f"clean batch: exit code {proc.returncode}\n{proc.stderr}")
    print("clean batch: exit 0")
    print("all internal-error checks passed")


if __name__ == "__main__":
    main()
