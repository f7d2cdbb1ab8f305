"""run_int8.py - compiled int8 latency against compiled fp32 (docs/performance.md, "int8").

Quantizes resnet50 statically (onnx-opt --quantize int8, calibrated on the
zoo's input) and the BERT encoder dynamically (onnx-opt --quantize dynamic),
compiles the four models with onnx-compile, checks the int8 outputs against
the fp32 ones (SQNR, top-1), and times each pair at one thread, the two
binaries taking turns: wall-clock median of `--bench N`, and CPU time per
inference ((CPU time of --bench N+1) - (CPU time of --bench 1)) / N from
getrusage, which a loaded machine disturbs less. Prints a Markdown table.

    /usr/bin/python3 bench/run_int8.py --build build \
        --zoo /work/main/build/test/models/models --work /tmp/int8-bench
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess

import numpy as np
import onnx
from onnx import numpy_helper


def load(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def cpu_seconds(cmd):
    """CPU time (user + sys) of running `cmd` to completion, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), out


def measure(exe, inputs, workdir, runs, rounds):
    """Per round: (wall median ms of --bench runs, CPU ms per inference)."""
    base = [exe, *inputs, "--output-dir", workdir, "--threads", "1"]
    one, _ = cpu_seconds(base + ["--bench", "1"])
    many, out = cpu_seconds(base + ["--bench", str(runs + 1)])
    wall = json.loads(out.decode().strip().splitlines()[-1])["median_ms"]
    return wall, (many - one) * 1000.0 / runs


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--zoo", required=True, help="directory of the zoo's exported models")
    ap.add_argument("--work", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    opt, compiler = os.path.join(bin_dir, "onnx-opt"), os.path.join(bin_dir, "onnx-compile")
    os.makedirs(args.work, exist_ok=True)
    w = lambda *p: os.path.join(args.work, *p)  # noqa: E731

    r50 = os.path.join(args.zoo, "resnet50")
    bert = os.path.join(args.zoo, "bert_encoder")
    calib = w("calib", "test_data_set_0")
    os.makedirs(calib, exist_ok=True)
    shutil.copy(os.path.join(r50, "input_0.pb"), calib)
    run([opt, os.path.join(r50, "resnet50.onnx"), "--quantize", "int8", "--calibration",
         w("calib"), "-o", w("resnet50.int8.onnx")])
    run([opt, os.path.join(bert, "bert_encoder.onnx"), "--quantize", "dynamic",
         "-o", w("bert.dyn.onnx")])
    pairs = [
        ("resnet50", "static int8 (QDQ)", os.path.join(r50, "resnet50.onnx"),
         w("resnet50.int8.onnx"), [os.path.join(r50, "input_0.pb")], 20, 0.6),
        ("bert", "dynamic int8", os.path.join(bert, "bert_encoder.onnx"), w("bert.dyn.onnx"),
         [os.path.join(bert, "input_0.pb"), os.path.join(bert, "input_1.pb")], 5, 0.7),
    ]
    rows = []
    for name, kind, fp32, int8, inputs, runs, target in pairs:
        exes = {}
        for tag, model in (("fp32", fp32), ("int8", int8)):
            exes[tag] = w(f"{name}_{tag}")
            run([compiler, model, "-o", exes[tag]])
            run([exes[tag], *inputs, "--output-dir", w(f"{name}_{tag}_out")])
        a = load(w(f"{name}_fp32_out", "output_0.pb"))
        b = load(w(f"{name}_int8_out", "output_0.pb"))
        sqnr = 10 * np.log10((a ** 2).sum() / ((a - b) ** 2).sum())
        check = f"SQNR {sqnr:.1f} dB"
        if name == "resnet50":
            check += ", top-1 " + ("same" if a.argmax() == b.argmax() else "differs")
        walls = {"fp32": [], "int8": []}
        cpus = {"fp32": [], "int8": []}
        for _ in range(args.rounds):
            for tag in ("fp32", "int8"):
                wall, cpu = measure(exes[tag], inputs, w(f"{name}_{tag}_out"), runs, args.rounds)
                walls[tag].append(wall)
                cpus[tag].append(cpu)
        f_wall, i_wall = statistics.median(walls["fp32"]), statistics.median(walls["int8"])
        f_cpu, i_cpu = min(cpus["fp32"]), min(cpus["int8"])
        rows.append(f"| {name} | {kind} | {f_wall:.1f} | {i_wall:.1f} | {i_wall / f_wall:.2f} | "
                    f"{f_cpu:.1f} | {i_cpu:.1f} | {i_cpu / f_cpu:.2f} | <= {target} | {check} |")
    with open("/proc/loadavg") as f:
        load_avg = f.read().split()[0]
    print("| model | int8 form | fp32 ms | int8 ms | int8/fp32 | fp32 ms CPU | int8 ms CPU "
          "| int8/fp32 CPU | target | check |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|---|")
    print("\n".join(rows))
    print(f"\nLoad average (1 min) at the end: {load_avg}")


if __name__ == "__main__":
    main()
