"""make_bad_models.py - write malformed/unsupported ONNX models and bad inputs for the importer and runtime tests."""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def tiny_model(op="Relu", domain="", opset=17, opset_domain="", elem_type=TensorProto.FLOAT, node_name="node0"):
    """y = op(x + x) for x [2,3]: an Add feeding a single configurable node."""
    x = helper.make_tensor_value_info("x", elem_type, [2, 3])
    y = helper.make_tensor_value_info("y", elem_type, [2, 3])
    nodes = [helper.make_node("Add", ["x", "x"], ["s"], name="node_add"),
             helper.make_node(op, ["s"], ["y"], name=node_name, domain=domain)]
    graph = helper.make_graph(nodes, "tiny", [x], [y])
    opsets = [helper.make_opsetid(opset_domain, opset)]
    if domain:  # a custom-domain node needs the default domain too for Add
        opsets = [helper.make_opsetid("", 17), helper.make_opsetid(domain, 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="make_bad_models")
    model.ir_version = 8
    return model


def save_tensor(array, name, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out = lambda name: os.path.join(args.out, name)  # noqa: E731

    good = tiny_model()
    onnx.checker.check_model(good, full_check=True)
    onnx.save(good, out("good.onnx"))

    # Corrupt files: written as raw bytes (onnx.save would try to parse them).
    data = good.SerializeToString()
    with open(out("truncated.onnx"), "wb") as f:
        f.write(data[: len(data) // 2])
    with open(out("garbage.onnx"), "wb") as f:
        f.write(np.random.default_rng(0).integers(0, 256, 512, dtype=np.uint8).tobytes())

    # Well-formed protobufs the importer must reject; saved without onnx.checker.
    onnx.save(tiny_model(op="FooBar", node_name="node_foo"), out("unknown_op.onnx"))
    onnx.save(tiny_model(domain="com.example"), out("unknown_domain.onnx"))
    # Several unsupported operators: all are reported in one error, grouped by
    # operator, nodes in graph order (unnamed ones named OP_INDEX).
    bad = tiny_model(op="FooBar", node_name="foo_1")
    bad.opset_import.append(helper.make_opsetid("com.example", 3))
    bad.graph.node[1].output[0] = "f1"
    bad.graph.node.extend([
        helper.make_node("Baz", ["f1"], ["b1"], name="baz_1"),
        helper.make_node("FooBar", ["b1"], ["f2"]),
        helper.make_node("Gelu", ["f2"], ["g"], name="custom_gelu", domain="com.example"),
        helper.make_node("Relu", ["g"], ["y"], name="relu_ok"),
        helper.make_node("FooBar", ["g"], ["f3"], name="foo_3"),
        helper.make_node("FooBar", ["g"], ["f4"], name="foo_4"),
        helper.make_node("Qux", ["g"], ["q"], name="qux", domain="org.unimported"),
    ])
    onnx.save(bad, out("unknown_ops.onnx"))
    onnx.save(tiny_model(opset=28), out("next_opset.onnx"))
    onnx.save(tiny_model(opset=99), out("new_opset.onnx"))
    # Opset 0 is no opset. Opsets 1 to 6 import, but not every old form:
    # BatchNormalization with statistics per activation (spatial = 0) is
    # rejected.
    onnx.save(tiny_model(opset=0), out("opset_zero.onnx"))
    bad = tiny_model(op="BatchNormalization", opset=6, node_name="node_bn")
    bad.graph.node[1].input.extend(["p", "p", "p", "p"])
    bad.graph.node[1].attribute.append(helper.make_attribute("spatial", 0))
    bad.graph.initializer.append(numpy_helper.from_array(np.ones(3, np.float32), "p"))
    onnx.save(bad, out("old_form.onnx"))
    bad = tiny_model()
    bad.graph.input[0].type.tensor_type.elem_type = TensorProto.COMPLEX64
    onnx.save(bad, out("bad_dtype.onnx"))

    # Malformed graphs.
    with open(out("empty.onnx"), "wb"):
        pass
    bad = tiny_model()
    bad.graph.node[1].input[0] = "nowhere"
    onnx.save(bad, out("undefined_input.onnx"))
    bad = tiny_model()
    bad.graph.output[0].name = "missing"
    onnx.save(bad, out("missing_output.onnx"))
    bad = tiny_model()
    bad.graph.node[1].output.append("extra")
    onnx.save(bad, out("too_many_outputs.onnx"))
    bad = tiny_model()
    bad.graph.node[1].attribute.append(helper.make_attribute("foo", 1))
    onnx.save(bad, out("unknown_attribute.onnx"))
    onnx.save(tiny_model(op="LayerNormalization", opset=13, node_name="node_ln"),
              out("op_too_new.onnx"))
    # Shapes the op rejects: Add of [2,3] and [4].
    bad = tiny_model()
    bad.graph.initializer.append(numpy_helper.from_array(np.zeros(4, np.float32), "b"))
    bad.graph.node[0].input[1] = "b"
    onnx.save(bad, out("shape_mismatch.onnx"))
    # An initializer whose raw_data does not match its dims.
    bad = tiny_model()
    w = numpy_helper.from_array(np.zeros((2, 3), np.float32), "w")
    w.raw_data = w.raw_data[:4]
    bad.graph.initializer.append(w)
    bad.graph.node[0].input[1] = "w"
    onnx.save(bad, out("bad_initializer.onnx"))
    # A sequence-typed graph input.
    bad = tiny_model()
    bad.graph.input[0].type.CopyFrom(
        helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [2, 3])))
    onnx.save(bad, out("sequence_input.onnx"))
    # A graph input that is a sequence of sequences (onnxc models sequences
    # of tensors and of maps).
    bad = tiny_model()
    nested = bad.graph.input[0].type
    nested.Clear()
    nested.sequence_type.elem_type.sequence_type.elem_type.CopyFrom(
        helper.make_tensor_type_proto(TensorProto.FLOAT, [2, 3]))
    onnx.save(bad, out("nested_sequence_input.onnx"))

    # Run-time inputs for good.onnx (input "x", float32 [2,3]).
    x = np.arange(-3, 3, dtype=np.float32).reshape(2, 3)
    save_tensor(x, "x", out("good_input.pb"))
    save_tensor(np.maximum(x + x, 0), "y", out("good_output.pb"))
    save_tensor(x.astype(np.int64), "x", out("wrong_dtype.pb"))
    save_tensor(x.reshape(3, 2), "x", out("wrong_shape.pb"))
    with open(out("good_input.pb"), "rb") as f:
        data = f.read()
    with open(out("corrupt_input.pb"), "wb") as f:
        f.write(data[: len(data) // 2])
    print("wrote", " ".join(sorted(os.listdir(args.out))))


if __name__ == "__main__":
    main()
