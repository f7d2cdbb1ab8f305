"""evaluate.py - check a compiled digits model against PyTorch: accuracy, logit error and latency."""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"error: {shlex.join(cmd)} failed with status {p.returncode}\n{p.stderr}{p.stdout}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", required=True, help="directory written by make_digits.py")
    ap.add_argument("--exe", required=True, help="compiled digits executable")
    ap.add_argument("--runner", default="", help="command prefix, e.g. 'qemu-aarch64 -L /usr/aarch64-linux-gnu'")
    ap.add_argument("--threads", type=int, help="pass --threads to the executable")
    ap.add_argument("--bench", type=int, default=20, help="benchmark iterations (0: skip)")
    ap.add_argument("--logit-tol", type=float, default=1e-4, help="allowed max |logit - PyTorch logit|")
    ap.add_argument("--acc-tol", type=float, default=0.0, help="allowed |accuracy - PyTorch accuracy|")
    args = ap.parse_args()

    images = os.path.join(args.data, "test_images.pb")
    labels = np.load(os.path.join(args.data, "test_labels.npy"))
    ref = np.load(os.path.join(args.data, "ref_logits.npy"))
    base = shlex.split(args.runner) + [os.path.abspath(args.exe)]
    if args.threads:
        base += ["--threads", str(args.threads)]

    with tempfile.TemporaryDirectory(prefix="digits_eval_") as out_dir:
        run(base + ["--output-dir", out_dir, images])
        t = onnx.TensorProto()
        with open(os.path.join(out_dir, "output_0.pb"), "rb") as f:
            t.ParseFromString(f.read())
        logits = numpy_helper.to_array(t)
        latency = None
        if args.bench > 0:
            lines = run(base + ["--output-dir", out_dir, "--bench", str(args.bench), images]).splitlines()
            latency = json.loads([l for l in lines if l.strip().startswith("{")][-1])

    if logits.shape != ref.shape:
        sys.exit(f"error: logits shape {list(logits.shape)}, expected {list(ref.shape)}")
    acc = float((logits.argmax(1) == labels).mean())
    ref_acc = float((ref.argmax(1) == labels).mean())
    diff = float(np.abs(logits.astype(np.float64) - ref).max())
    print(f"test images:          {len(labels)}")
    print(f"compiled accuracy:    {acc:.4f}")
    print(f"PyTorch accuracy:     {ref_acc:.4f}")
    print(f"max |logit diff|:     {diff:.3g}")
    if latency:
        print(f"median latency:       {latency['median_ms']:.3f} ms per batch of {len(labels)} "
              f"(min {latency['min_ms']:.3f} ms, {latency['iterations']} iterations, "
              f"{latency['threads']} threads)")
    ok = abs(acc - ref_acc) <= args.acc_tol and diff <= args.logit_tol
    print("PASS" if ok else f"FAIL (acc tol {args.acc_tol:g}, logit tol {args.logit_tol:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
