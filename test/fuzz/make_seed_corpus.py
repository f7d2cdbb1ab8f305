"""make_seed_corpus.py - binary ModelProtos for the importer fuzzer's seed corpus.

Converts the checked-in text models (test/Frontend/*.onnxtxt, test/Tools/Inputs/*.onnxtxt)
to binary, and adds the bad models of test/Frontend/make_bad_models.py and a few small
synthetic models of test/batch/make_batch_models.py. Every file is named by its source.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import onnx
from google.protobuf import text_format


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, help="corpus directory")
    args = ap.parse_args()
    test = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.makedirs(args.out, exist_ok=True)
    count = 0
    for path in sorted(glob.glob(os.path.join(test, "Frontend", "*.onnxtxt")) +
                       glob.glob(os.path.join(test, "Tools", "Inputs", "*.onnxtxt"))):
        model = onnx.ModelProto()
        text_format.Parse(open(path).read(), model)
        name = "text-" + os.path.splitext(os.path.basename(path))[0] + ".onnx"
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(model.SerializeToString())
        count += 1
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(test, "Frontend", "make_bad_models.py"),
                        "--out", os.path.join(tmp, "bad")], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, os.path.join(test, "batch", "make_batch_models.py"),
                        "--out", os.path.join(tmp, "batch"), "--count", "10",
                        "--dynamic", "dynamic.onnx"], check=True, stdout=subprocess.DEVNULL)
        for sub in ("bad", "batch"):
            for path in sorted(glob.glob(os.path.join(tmp, sub, "*.onnx"))):
                with open(path, "rb") as src, \
                        open(os.path.join(args.out, f"{sub}-{os.path.basename(path)}"), "wb") as dst:
                    dst.write(src.read())
                count += 1
    print(f"wrote {count} seeds to {args.out}")


if __name__ == "__main__":
    main()
