"""make_broadcast_model.py - Add and Where over all-dynamic inputs whose run-time sizes broadcast (a 1 against 4), with inputs and numpy references."""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(path, array, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    dyn = lambda name, rank: helper.make_tensor_value_info(
        name, TensorProto.FLOAT, [f"{name}{i}" for i in range(rank)])
    graph = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["sum"], name="add"),
         helper.make_node("Greater", ["sum", "b"], ["mask"], name="gt"),
         helper.make_node("Where", ["mask", "sum", "a"], ["out"], name="where")],
        "runtime_broadcast", [dyn("a", 2), dyn("b", 2)],
        [helper.make_tensor_value_info("sum", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, os.path.join(args.out, "broadcast.onnx"))
    rng = np.random.default_rng(0)
    # Run 1 broadcasts a's rows, run 2 b's columns, run 3 nothing.
    for run, (sa, sb) in enumerate([((1, 3), (4, 3)), ((4, 3), (4, 1)), ((2, 5), (2, 5))]):
        a = rng.standard_normal(sa).astype(np.float32)
        b = rng.standard_normal(sb).astype(np.float32)
        s = a + b
        out = np.where(s > b, s, a)
        d = os.path.join(args.out, f"run{run}")
        os.makedirs(d, exist_ok=True)
        save(os.path.join(d, "a.pb"), a, "a")
        save(os.path.join(d, "b.pb"), b, "b")
        save(os.path.join(d, "ref_0.pb"), s, "sum")
        save(os.path.join(d, "ref_1.pb"), out, "out")


if __name__ == "__main__":
    main()
