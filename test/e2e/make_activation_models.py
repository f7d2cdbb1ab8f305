"""make_activation_models.py - models for ops without an ONNX 1.12 node test (Gelu, Mish), Exp/Tanh/Sigmoid and Asin/Acos on a dense grid, an opset 6 broadcast and unsigned integer arithmetic, with inputs and numpy references."""
import argparse
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(path, array, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def model(nodes, inputs, outputs, opset):
    graph = helper.make_graph(
        nodes, "m", [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs])
    # Written without onnx.checker: Debian's onnx 1.12 knows opsets up to 17.
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out = lambda name: os.path.join(args.out, name)  # noqa: E731
    f32, u8 = TensorProto.FLOAT, TensorProto.UINT8

    # Gelu (opset 20, both forms) and Mish (opset 18).
    onnx.save(model([helper.make_node("Gelu", ["x"], ["gelu"]),
                     helper.make_node("Gelu", ["x"], ["gelu_tanh"], approximate="tanh"),
                     helper.make_node("Mish", ["x"], ["mish"])],
                    [("x", f32, ["n", 7])], [("gelu", f32), ("gelu_tanh", f32), ("mish", f32)],
                    20), out("activations.onnx"))
    x = np.linspace(-6, 6, 35, dtype=np.float32).reshape(5, 7)
    erf = np.vectorize(math.erf)
    save(out("x.pb"), x, "x")
    save(out("gelu.pb"), (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(np.float32), "gelu")
    inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
    save(out("gelu_tanh.pb"), (0.5 * x * (1 + np.tanh(inner))).astype(np.float32), "gelu_tanh")
    save(out("mish.pb"), (x * np.tanh(np.log1p(np.exp(x)))).astype(np.float32), "mish")

    # Exp, Tanh and Sigmoid (onnxc-approximate-math's expansions) on a dense
    # grid, over exp's whole range and at its special values; references in
    # float64 rounded once.
    onnx.save(model([helper.make_node("Exp", ["t"], ["exp"]),
                     helper.make_node("Tanh", ["t"], ["tanh"]),
                     helper.make_node("Sigmoid", ["t"], ["sigmoid"])],
                    [("t", f32, ["n"])], [("exp", f32), ("tanh", f32), ("sigmoid", f32)],
                    13), out("transcendental.onnx"))
    special = [0.0, -0.0, 1e-30, -1e-30, 1e-8, -1e-8, 0.625, -0.625, 88.72, 88.7228, 88.73,
               -87.33, -103.9, -104.0, -120.0, 200.0, np.inf, -np.inf, np.nan]
    t = np.concatenate([np.linspace(-20, 20, 1 << 20), np.linspace(-110, 100, 1 << 16),
                        special]).astype(np.float32)
    t64 = t.astype(np.float64)
    save(out("t.pb"), t, "t")
    with np.errstate(over="ignore"):
        save(out("exp.pb"), np.exp(t64).astype(np.float32), "exp")
        save(out("tanh.pb"), np.tanh(t64).astype(np.float32), "tanh")
        save(out("sigmoid.pb"), (1 / (1 + np.exp(-t64))).astype(np.float32), "sigmoid")

    # Asin and Acos (Cephes' asinf and acosf, on the CPU and in the GPU's
    # kernels) over [-1, 1], densest near +-1 where asin's slope is unbounded,
    # and beyond 1 (NaN).
    onnx.save(model([helper.make_node("Asin", ["s"], ["asin"]),
                     helper.make_node("Acos", ["s"], ["acos"])],
                    [("s", f32, ["n"])], [("asin", f32), ("acos", f32)], 7), out("inverse_trig.onnx"))
    near_one = 1 - np.logspace(-7, -1, 1 << 14)
    s = np.concatenate([np.linspace(-1, 1, 1 << 20), near_one, -near_one,
                        [0.0, -0.0, 0.5, -0.5, 0.5000001, 1.0, -1.0, 1.0000001, -1.5, np.nan]]
                       ).astype(np.float32)
    save(out("s.pb"), s, "s")
    with np.errstate(invalid="ignore"):
        save(out("asin.pb"), np.arcsin(s.astype(np.float64)).astype(np.float32), "asin")
        save(out("acos.pb"), np.arccos(s.astype(np.float64)).astype(np.float32), "acos")

    # Opset 6: B of Add matches A's dims 1 and 2 (`broadcast = 1`, `axis = 1`).
    onnx.save(model([helper.make_node("Add", ["a", "b"], ["sum"], broadcast=1, axis=1)],
                    [("a", f32, [2, 3, 4, 5]), ("b", f32, [3, 4])], [("sum", f32)], 6),
              out("legacy.onnx"))
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b = rng.standard_normal((3, 4)).astype(np.float32)
    save(out("a.pb"), a, "a")
    save(out("b.pb"), b, "b")
    save(out("sum.pb"), a + b[None, :, :, None], "sum")

    # uint8 wraps around and divides, compares and takes maxima unsigned.
    onnx.save(model([helper.make_node("Sub", ["u", "v"], ["diff"]),
                     helper.make_node("Div", ["u", "v"], ["quot"]),
                     helper.make_node("Less", ["u", "v"], ["less"]),
                     helper.make_node("Max", ["u", "v"], ["max"]),
                     helper.make_node("Cast", ["u"], ["float"], to=f32)],
                    [("u", u8, [6]), ("v", u8, [6])],
                    [("diff", u8), ("quot", u8), ("less", TensorProto.BOOL),
                     ("max", u8), ("float", f32)], 13),
              out("unsigned.onnx"))
    u = np.array([0, 1, 127, 128, 200, 255], np.uint8)
    v = np.array([1, 255, 128, 127, 3, 2], np.uint8)
    save(out("u.pb"), u, "u")
    save(out("v.pb"), v, "v")
    save(out("diff.pb"), u - v, "diff")
    save(out("quot.pb"), u // v, "quot")
    save(out("less.pb"), u < v, "less")
    save(out("max.pb"), np.maximum(u, v), "max")
    save(out("float.pb"), u.astype(np.float32), "float")


if __name__ == "__main__":
    main()
