"""make_micro.py - write the microbenchmark models (a 1024^3 fp32 MatMul and a 3x3 64->64 conv on 56x56) with random inputs."""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# name -> (description, flops per run)
GEMM_M = GEMM_N = GEMM_K = 1024
CONV_C, CONV_K, CONV_H, CONV_W, CONV_R = 64, 64, 56, 56, 3
MICRO = {
    "gemm": (f"MatMul {GEMM_M}x{GEMM_K} @ {GEMM_K}x{GEMM_N} fp32 (B a constant)",
             2 * GEMM_M * GEMM_N * GEMM_K),
    "conv": (f"Conv {CONV_R}x{CONV_R} {CONV_C}->{CONV_K} on 1x{CONV_C}x{CONV_H}x{CONV_W}, pad 1, bias, fp32",
             2 * CONV_K * CONV_C * CONV_R * CONV_R * CONV_H * CONV_W),
}


def gemm_model(rng):
    b = rng.standard_normal((GEMM_K, GEMM_N), dtype=np.float32) / np.sqrt(GEMM_K)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["A", "B"], ["Y"])], "gemm",
        [helper.make_tensor_value_info("A", TensorProto.FLOAT, [GEMM_M, GEMM_K])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [GEMM_M, GEMM_N])],
        [numpy_helper.from_array(b, "B")])
    x = rng.standard_normal((GEMM_M, GEMM_K), dtype=np.float32)
    return graph, x


def conv_model(rng):
    fan_in = CONV_C * CONV_R * CONV_R
    w = rng.standard_normal((CONV_K, CONV_C, CONV_R, CONV_R), dtype=np.float32) / np.sqrt(fan_in)
    bias = 0.1 * rng.standard_normal(CONV_K, dtype=np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["X", "W", "Bias"], ["Y"], kernel_shape=[CONV_R, CONV_R],
                          pads=[1, 1, 1, 1], strides=[1, 1])], "conv",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, CONV_C, CONV_H, CONV_W])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, CONV_K, CONV_H, CONV_W])],
        [numpy_helper.from_array(w, "W"), numpy_helper.from_array(bias, "Bias")])
    x = rng.standard_normal((1, CONV_C, CONV_H, CONV_W), dtype=np.float32)
    return graph, x


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True, choices=sorted(MICRO))
    ap.add_argument("--out", required=True, help="output directory: writes MODEL.onnx and input_0.pb")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(0)
    graph, x = {"gemm": gemm_model, "conv": conv_model}[args.model](rng)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="onnxc-bench")
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = os.path.join(args.out, f"{args.model}.onnx")
    onnx.save(model, path)
    with open(os.path.join(args.out, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, graph.input[0].name).SerializeToString())
    print(f"wrote {path}: {MICRO[args.model][0]}")


if __name__ == "__main__":
    main()
