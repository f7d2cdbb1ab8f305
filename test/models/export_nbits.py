#!/usr/bin/env python3
"""export_nbits.py --model NAME --out DIR - 4-bit weight products for bench/ (issue 19).

One com.microsoft MatMulNBits as an LLM's projection holds it: K = N = 4096,
4-bit weights in blocks of 32 along K with packed zero points (ORT's
quantizer's default), as initializers; A [M, 4096] with a dynamic M, plus
`input_0.pb`: M rows.

  nbits_m1    M = 1, a decoding step
  nbits_m128  M = 128, a prompt
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_contrib_ops import quantize_blocks  # noqa: E402

K = N = 4096
BLOCK = 32
CHOICES = ["nbits_m1", "nbits_m128"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, choices=CHOICES)
    ap.add_argument("--out", required=True, help="output directory: writes MODEL.onnx and input_0.pb")
    args = ap.parse_args()
    rows = int(args.model.split("_m")[1])
    rng = np.random.default_rng(19)
    w = (rng.standard_normal((K, N)) / np.sqrt(K)).astype(np.float32)
    b, scales, zero_points, _ = quantize_blocks(w, 4, BLOCK)
    node = helper.make_node("MatMulNBits", ["A", "B", "scales", "zero_points"], ["Y"], domain="com.microsoft",
                            K=K, N=N, bits=4, block_size=BLOCK)
    graph = helper.make_graph(
        [node], args.model, [helper.make_tensor_value_info("A", TensorProto.FLOAT, ["M", K])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["M", N])],
        [numpy_helper.from_array(b, "B"), numpy_helper.from_array(scales, "scales"),
         numpy_helper.from_array(zero_points.reshape(-1), "zero_points")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)],
                              producer_name="onnxc-bench")
    model.ir_version = 8
    os.makedirs(args.out, exist_ok=True)
    onnx.save(model, os.path.join(args.out, f"{args.model}.onnx"))
    a = rng.standard_normal((rows, K)).astype(np.float32)
    with open(os.path.join(args.out, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(a, "A").SerializeToString())


if __name__ == "__main__":
    main()
