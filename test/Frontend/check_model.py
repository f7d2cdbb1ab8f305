"""check_model.py - run onnx.checker (full_check) on a model and print a short summary for FileCheck.

Subgraphs (If's branches, Loop's and Scan's body) are printed after their node, indented, as
`subgraph ATTRIBUTE` with their inputs, initializers, nodes and outputs."""
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
    print_nodes(graph, "")


def print_nodes(graph, indent):
    for n in graph.node:
        attrs = ", ".join(f"{a.name}={attr_value(a)}" for a in n.attribute
                          if a.type not in (onnx.AttributeProto.TENSOR, onnx.AttributeProto.GRAPH))
        print(f"{indent}node", n.op_type, list(n.input), "->", list(n.output), attrs)
        for a in n.attribute:
            if a.type != onnx.AttributeProto.GRAPH:
                continue
            sub = indent + "  "
            print(f"{sub}subgraph {a.name}")
            for v in a.g.input:
                print(f"{sub}input", v.name, onnx.TensorProto.DataType.Name(v.type.tensor_type.elem_type))
            for t in a.g.initializer:
                print(f"{sub}initializer", t.name, onnx.TensorProto.DataType.Name(t.data_type), list(t.dims))
            print_nodes(a.g, sub)
            for v in a.g.output:
                print(f"{sub}output", v.name, onnx.TensorProto.DataType.Name(v.type.tensor_type.elem_type))


if __name__ == "__main__":
    main()
