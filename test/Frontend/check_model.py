"""check_model.py - run onnx.checker (full_check) on a model and print a short summary for FileCheck."""
import sys

import onnx
from onnx import helper


def dims(value_info):
    t = value_info.type.tensor_type
    if not t.HasField("shape"):
        return "*"
    return "x".join(d.dim_param or (str(d.dim_value) if d.HasField("dim_value") else "?")
                    for d in t.shape.dim)


def attr_value(attr):
    value = helper.get_attribute_value(attr)
    return value.decode() if isinstance(value, bytes) else value


def main():
    model = onnx.load(sys.argv[1])
    onnx.checker.check_model(model, full_check=True)
    print("ir_version", model.ir_version)
    print("producer", model.producer_name)
    for entry in model.opset_import:
        print("opset", entry.domain or "ai.onnx", entry.version)
    graph = model.graph
    print("graph", graph.name)
    for v in graph.input:
        print("input", v.name, onnx.TensorProto.DataType.Name(v.type.tensor_type.elem_type), dims(v))
    for v in graph.output:
        print("output", v.name, onnx.TensorProto.DataType.Name(v.type.tensor_type.elem_type), dims(v))
    for t in graph.initializer:
        print("initializer", t.name, onnx.TensorProto.DataType.Name(t.data_type), list(t.dims))
    for n in graph.node:
        attrs = ", ".join(f"{a.name}={attr_value(a)}" for a in n.attribute
                          if a.type != onnx.AttributeProto.TENSOR)
        print("node", n.op_type, list(n.input), "->", list(n.output), attrs)


if __name__ == "__main__":
    main()
