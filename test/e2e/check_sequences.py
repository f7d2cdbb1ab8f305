"""check_sequences.py - a model of the sequence ops that ONNX's node tests
leave out (SequenceConstruct, SequenceErase, ConcatFromSequence, SequenceAt
with negative positions, Optional of a tensor), its inputs, and a check of
its outputs against numpy.

  check_sequences.py write DIR        writes DIR/sequences.onnx and DIR/{a,b,c}.pb
  check_sequences.py check DIR OUT    checks OUT/output_K.pb
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

A = np.arange(6, dtype=np.float32).reshape(2, 3)
B = np.arange(12, dtype=np.float32).reshape(4, 3) * 0.5 - 2
C = np.array([[7, 8, 9]], dtype=np.float32)


def const(name, values):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.array(values, np.int64), name))


def write(directory):
    nodes = [
        helper.make_node("SequenceConstruct", ["a", "b", "c"], ["s"]),
        const("minus1", -1), const("one", 1), const("sizes", [1, 3]),
        # [a, b, a, c], then without b: [a, a, c]
        helper.make_node("SequenceInsert", ["s", "a", "minus1"], ["s2"]),
        helper.make_node("SequenceErase", ["s2", "one"], ["s3"]),
        helper.make_node("SequenceLength", ["s3"], ["length"]),
        helper.make_node("ConcatFromSequence", ["s3"], ["joined"], axis=0),
        helper.make_node("SequenceAt", ["s3", "minus1"], ["last"]),
        # [a, b] (the last erased), stacked on a new last axis after a copy of a
        helper.make_node("SequenceErase", ["s"], ["s4"]),
        helper.make_node("SequenceAt", ["s4", "minus1"], ["b_again"]),
        helper.make_node("SequenceConstruct", ["a", "a"], ["pair"]),
        helper.make_node("ConcatFromSequence", ["pair"], ["stacked"], axis=-1, new_axis=1),
        # b's rows as pieces of 1 and 3; the second
        helper.make_node("SplitToSequence", ["b", "sizes"], ["pieces"], axis=0),
        helper.make_node("SequenceAt", ["pieces", "one"], ["rest"]),
        helper.make_node("Optional", ["c"], ["maybe_c"]),
        helper.make_node("OptionalGetElement", ["maybe_c"], ["c_again"]),
    ]
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["R" + n, 3]) for n in "abc"]
    outputs = [helper.make_tensor_value_info("length", TensorProto.INT64, []),
               helper.make_tensor_value_info("joined", TensorProto.FLOAT, None),
               helper.make_tensor_value_info("last", TensorProto.FLOAT, None),
               helper.make_tensor_value_info("b_again", TensorProto.FLOAT, None),
               helper.make_tensor_value_info("stacked", TensorProto.FLOAT, None),
               helper.make_tensor_value_info("rest", TensorProto.FLOAT, None),
               helper.make_tensor_value_info("c_again", TensorProto.FLOAT, None)]
    model = helper.make_model(helper.make_graph(nodes, "sequences", inputs, outputs),
                              opset_imports=[helper.make_opsetid("", 18)])
    onnx.save(model, f"{directory}/sequences.onnx")
    for name, value in zip("abc", (A, B, C)):
        with open(f"{directory}/{name}.pb", "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())


def check(out):
    expected = [np.array(3, np.int64), np.concatenate([A, A, C]), C, B, np.stack([A, A], -1), B[1:], C]
    for k, want in enumerate(expected):
        got = numpy_helper.to_array(onnx.load_tensor(f"{out}/output_{k}.pb"))
        if got.dtype != want.dtype or got.shape != want.shape or not (got == want).all():
            sys.exit(f"output {k}: got {got.dtype} {got.tolist()}, expected {want.dtype} {want.tolist()}")
    print(f"sequences: all {len(expected)} outputs match")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        check(sys.argv[3])
