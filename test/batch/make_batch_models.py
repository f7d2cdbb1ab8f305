"""make_batch_models.py - write a folder of small synthetic ONNX models for batch-mode tests.

Models cycle through a few graph families (MLP, CNN, elementwise chains, attention-like
blocks, reductions), each with its own sizes and seeded random weights, so every model is
different but the folder is the same on every run. --corrupt NAME adds a model whose
protobuf is cut short, --dynamic NAME one with a symbolic batch dim.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def weight(rng, name, *shape):
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.2).astype(np.float32), name)


def mlp(rng, k):
    width, hidden = 8 + 4 * k, 16 + 8 * k
    nodes = [helper.make_node("MatMul", ["x", "w0"], ["h0"]),
             helper.make_node("Add", ["h0", "b0"], ["h1"]),
             helper.make_node("Relu", ["h1"], ["h2"]),
             helper.make_node("Gemm", ["h2", "w1", "b1"], ["y"], transB=1)]
    inits = [weight(rng, "w0", width, hidden), weight(rng, "b0", hidden),
             weight(rng, "w1", 10, hidden), weight(rng, "b1", 10)]
    return nodes, inits, [("x", [4, width])], [("y", [4, 10])]


def cnn(rng, k):
    c, hw = 4 + 2 * k, 8 + 2 * (k % 3)
    nodes = [helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c0"], ["r0"]),
             helper.make_node("MaxPool", ["r0"], ["p0"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("GlobalAveragePool", ["p0"], ["g0"]),
             helper.make_node("Flatten", ["g0"], ["f0"]),
             helper.make_node("Gemm", ["f0", "w1", "b1"], ["y"], transB=1)]
    inits = [weight(rng, "w0", c, 3, 3, 3), weight(rng, "b0", c),
             weight(rng, "w1", 5, c), weight(rng, "b1", 5)]
    return nodes, inits, [("x", [1, 3, hw, hw])], [("y", [1, 5])]


def elementwise(rng, k):
    n = 16 + 16 * k
    nodes = [helper.make_node("Mul", ["a", "s"], ["m"]),
             helper.make_node("Add", ["m", "b"], ["t"]),
             helper.make_node("Sigmoid", ["t"], ["u"]),
             helper.make_node("Tanh", ["b"], ["v"]),
             helper.make_node("Sub", ["u", "v"], ["y"])]
    inits = [weight(rng, "s", n)]
    return nodes, inits, [("a", [2, n]), ("b", [2, n])], [("y", [2, n])]


def attention(rng, k):
    seq, dim = 4 + k, 8
    nodes = [helper.make_node("MatMul", ["x", "wq"], ["q"]),
             helper.make_node("MatMul", ["x", "wk"], ["kk"]),
             helper.make_node("Transpose", ["kk"], ["kt"], perm=[1, 0]),
             helper.make_node("MatMul", ["q", "kt"], ["s"]),
             helper.make_node("Softmax", ["s"], ["p"], axis=-1),
             helper.make_node("MatMul", ["p", "x"], ["y"])]
    inits = [weight(rng, "wq", dim, dim), weight(rng, "wk", dim, dim)]
    return nodes, inits, [("x", [seq, dim])], [("y", [seq, dim])]


def reduction(rng, k):
    n = 6 + 2 * k
    nodes = [helper.make_node("Abs", ["x"], ["a"]),
             helper.make_node("ReduceSum", ["a", "axes"], ["s"], keepdims=1),
             helper.make_node("Div", ["x", "s"], ["d"]),
             helper.make_node("Concat", ["d", "x"], ["c"], axis=1),
             helper.make_node("Reshape", ["c", "shape"], ["y"])]
    inits = [numpy_helper.from_array(np.array([1], dtype=np.int64), "axes"),
             numpy_helper.from_array(np.array([-1], dtype=np.int64), "shape")]
    return nodes, inits, [("x", [3, n])], [("y", [6 * n])]


FAMILIES = [mlp, cnn, elementwise, attention, reduction]


def make_model(index, batch_dim=None):
    rng = np.random.default_rng(index)
    family = FAMILIES[index % len(FAMILIES)]
    nodes, inits, inputs, outputs = family(rng, index // len(FAMILIES))

    def info(name, shape):
        if batch_dim is not None:
            shape = [batch_dim] + shape[1:]
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)
    graph = helper.make_graph(nodes, f"{family.__name__}{index}",
                              [info(n, s) for n, s in inputs],
                              [info(n, s) for n, s in outputs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="make_batch_models")
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=batch_dim is None)
    return model, family.__name__


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--count", type=int, default=20, help="synthetic models to write")
    ap.add_argument("--corrupt", help="also write this model name with a truncated protobuf")
    ap.add_argument("--dynamic", help="also write this model name (an MLP) with batch dim 'N'")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        model, family = make_model(i)
        onnx.save(model, os.path.join(args.out, f"{family}_{i:02d}.onnx"))
    if args.corrupt:
        data = make_model(0)[0].SerializeToString()
        with open(os.path.join(args.out, args.corrupt), "wb") as f:
            f.write(data[: len(data) // 2])
    if args.dynamic:
        onnx.save(make_model(0, batch_dim="N")[0], os.path.join(args.out, args.dynamic))
    print(f"wrote {args.count} models to {args.out}")


if __name__ == "__main__":
    main()
