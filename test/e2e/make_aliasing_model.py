"""make_aliasing_model.py - a model whose outputs alias an input, an initializer and each other, with its input."""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    c = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "c")
    nodes = [helper.make_node("Identity", ["x"], ["y"], name="id_input"),
             helper.make_node("Identity", ["c"], ["z"], name="id_const"),
             helper.make_node("Add", ["x", "c"], ["w"], name="add")]
    outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
               for n in ("y", "z", "w", "x", "w")]
    graph = helper.make_graph(
        nodes, "aliasing",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])],
        outputs, [c])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, os.path.join(args.out, "aliasing.onnx"))
    x = np.ones((2, 3), np.float32)
    with open(os.path.join(args.out, "x.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())


if __name__ == "__main__":
    main()
