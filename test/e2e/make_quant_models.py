"""make_quant_models.py - integer ONNX models (QLinearConv, ConvInteger, QLinearMatMul, MatMulInteger with the dynamic-quantization rescale) and a QDQ network, with inputs and numpy references.

The references evaluate the ONNX definitions as onnxc does: the integer
accumulation exactly, the requantization in float32 as
rint(float32(acc + bias) * float32(float32(x_scale * w_scale) / y_scale)) + zero
point, saturated, so that the compiled models must match them bit for bit.
The QDQ network's reference is its float evaluation (dequantize, compute in
float32, quantize); the fused integer form may differ from it by 1 in the
last place of a quantized value, so its output is compared with a tolerance
of one output scale step.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from make_activation_models import save


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def model(nodes, inputs, outputs, inits, opset=13):
    graph = helper.make_graph(
        nodes, "m", [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def conv_acc(x, w, stride, pads, dilation=(1, 1)):
    """The i64 convolution of integer NCHW x and FCHW w (already zero-point shifted)."""
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh = (h - (kh - 1) * dilation[0] - 1) // stride[0] + 1
    ow = (wd - (kw - 1) * dilation[1] - 1) // stride[1] + 1
    y = np.zeros((n, f, oh, ow), np.int64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dilation[0]:i * dilation[0] + stride[0] * oh:stride[0],
                      j * dilation[1]:j * dilation[1] + stride[1] * ow:stride[1]]
            y += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return y


def requantize(acc, multiplier, zero, dtype, relu=False):
    info = np.iinfo(dtype)
    v = np.rint(acc.astype(np.float32) * multiplier) + np.float32(zero)
    lo = max(info.min, zero) if relu else info.min
    return np.clip(v, lo, info.max).astype(dtype)


def quantize(x, scale, zero, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.rint(x / np.float32(scale)) + zero, info.min, info.max).astype(dtype)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out = lambda name: os.path.join(args.out, name)  # noqa: E731
    rng = np.random.default_rng(1)
    f32, u8, i8 = TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT8

    # 1. QLinearConv (pads, stride 2, per-channel scales, bias) with a
    # quantized Relu (Max with the output zero point); ConvInteger of uint8
    # weights with per-channel zero points; QLinearMatMul of int8 activations
    # with per-column scales; MatMulInteger with the rescale of dynamic
    # quantization (Cast, Mul, Add, Relu).
    xq = rng.integers(0, 256, (2, 5, 9, 9), dtype=np.uint8)
    wq = rng.integers(-127, 128, (6, 5, 3, 3), dtype=np.int8)
    xs, xz = np.float32(0.02), np.uint8(120)
    ws = rng.uniform(0.002, 0.01, 6).astype(np.float32)
    ys, yz = np.float32(0.05), np.uint8(20)
    bias = rng.integers(-2000, 2000, 6, dtype=np.int32)
    w2 = rng.integers(0, 256, (4, 5, 2, 2), dtype=np.uint8)
    w2z = rng.integers(100, 156, 4, dtype=np.uint8)
    a = rng.integers(-128, 128, (3, 7, 33), dtype=np.int8)
    b = rng.integers(-128, 128, (33, 17), dtype=np.int8)
    as_, az = np.float32(0.03), np.int8(-5)
    bs = rng.uniform(0.001, 0.02, 17).astype(np.float32)
    bz = np.zeros(17, np.int8)
    cs, cz = np.float32(0.1), np.int8(3)
    d = rng.integers(0, 256, (10, 40), dtype=np.uint8)
    dz = np.uint8(128)
    e = rng.integers(-127, 128, (40, 24), dtype=np.int8)
    scale = rng.uniform(0.001, 0.003, 24).astype(np.float32)
    shift = rng.uniform(-1, 1, 24).astype(np.float32)
    nodes = [
        helper.make_node("QLinearConv", ["xq", "xs", "xz", "wq", "ws", "wz", "ys", "yz", "bias"],
                         ["conv"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Max", ["conv", "yz"], ["conv_relu"]),
        helper.make_node("ConvInteger", ["xq", "w2", "xz", "w2z"], ["conv_int"]),
        helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "cs", "cz"], ["mm"]),
        helper.make_node("MatMulInteger", ["d", "e", "dz"], ["mmi"]),
        helper.make_node("Cast", ["mmi"], ["mmf"], to=f32),
        helper.make_node("Mul", ["mmf", "scale"], ["mms"]),
        helper.make_node("Add", ["mms", "shift"], ["mmb"]),
        helper.make_node("Relu", ["mmb"], ["dyn"]),
    ]
    inits = [const("xs", xs), const("xz", xz), const("wq", wq), const("ws", ws),
             const("wz", np.zeros(6, np.int8)), const("ys", ys), const("yz", yz),
             const("bias", bias), const("w2", w2), const("w2z", w2z), const("as", as_),
             const("az", az), const("b", b), const("bs", bs), const("bz", bz),
             const("cs", cs), const("cz", cz), const("dz", dz), const("e", e),
             const("scale", scale), const("shift", shift)]
    onnx.save(model(nodes, [("xq", u8, list(xq.shape)), ("a", i8, list(a.shape)),
                            ("d", u8, list(d.shape))],
                    [("conv_relu", u8), ("conv_int", TensorProto.INT32), ("mm", i8),
                     ("dyn", f32)], inits), out("integer.onnx"))
    save(out("xq.pb"), xq, "xq")
    save(out("a.pb"), a, "a")
    save(out("d.pb"), d, "d")
    x0 = xq.astype(np.int64) - int(xz)
    acc = conv_acc(x0, wq.astype(np.int64), (2, 2), (1, 1, 1, 1)) + bias[None, :, None, None]
    mult = (xs * ws) / ys
    save(out("conv_relu.pb"), requantize(acc, mult[None, :, None, None], int(yz), np.uint8, True),
         "conv_relu")
    acc2 = conv_acc(x0, w2.astype(np.int64) - w2z.astype(np.int64)[:, None, None, None],
                    (1, 1), (0, 0, 0, 0))
    save(out("conv_int.pb"), acc2.astype(np.int32), "conv_int")
    acc3 = (a.astype(np.int64) - int(az)) @ b.astype(np.int64)
    save(out("mm.pb"), requantize(acc3, (as_ * bs) / cs, int(cz), np.int8), "mm")
    acc4 = (d.astype(np.int64) - int(dz)) @ e.astype(np.int64)
    dyn = np.maximum(acc4.astype(np.float32) * scale + shift, np.float32(0))
    save(out("dyn.pb"), dyn.astype(np.float32), "dyn")

    # 2. A QDQ network as ONNX Runtime's quantizer writes it: per-channel
    # int8 weights, int32 biases of scale x_scale * w_scale, QuantizeLinear ->
    # DequantizeLinear on activations; Conv -> Relu -> Conv, a residual Add,
    # a global pool and a Gemm with transB.
    x = rng.uniform(-1, 1, (1, 8, 12, 12)).astype(np.float32)
    s_in, z_in = np.float32(2 / 255), np.uint8(128)
    nodes, inits = [], []

    def qdq(name, scale, zero):
        inits.extend([const(name + "_s", np.float32(scale)), const(name + "_z", np.uint8(zero))])
        nodes.append(helper.make_node("QuantizeLinear", [name, name + "_s", name + "_z"], [name + "_q"]))
        nodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_s", name + "_z"],
                                      [name + "_dq"]))
        return name + "_dq"

    def weight(name, w, x_scale, bias):
        axis_scale = np.abs(w).reshape(w.shape[0], -1).max(1).astype(np.float32) / 127
        wq_ = np.clip(np.rint(w / axis_scale.reshape((-1,) + (1,) * (w.ndim - 1))), -127, 127)
        inits.extend([const(name + "_q", wq_.astype(np.int8)), const(name + "_s", axis_scale),
                      const(name + "_z", np.zeros(w.shape[0], np.int8))])
        nodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_s", name + "_z"],
                                      [name + "_dq"], axis=0))
        bs_ = (np.float32(x_scale) * axis_scale).astype(np.float32)
        inits.extend([const(name + "_b", np.rint(bias / bs_).astype(np.int32)),
                      const(name + "_bs", bs_)])
        nodes.append(helper.make_node("DequantizeLinear", [name + "_b", name + "_bs"],
                                      [name + "_bdq"], axis=0))
        return name + "_dq", name + "_bdq"

    h = qdq("x", s_in, z_in)
    w_a, b_a = weight("wa", rng.normal(0, 0.2, (8, 8, 3, 3)).astype(np.float32), s_in,
                      rng.normal(0, 0.1, 8).astype(np.float32))
    nodes.append(helper.make_node("Conv", [h, w_a, b_a], ["c1"], pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("Relu", ["c1"], ["r1"]))
    s_r1 = np.float32(4 / 255)
    h1 = qdq("r1", s_r1, 0)
    w_b, b_b = weight("wb", rng.normal(0, 0.2, (8, 8, 1, 1)).astype(np.float32), s_r1,
                      rng.normal(0, 0.1, 8).astype(np.float32))
    nodes.append(helper.make_node("Conv", [h1, w_b, b_b], ["c2"]))
    h2 = qdq("c2", np.float32(6 / 255), 128)
    nodes.append(helper.make_node("Add", [h2, h], ["sum"]))
    h3 = qdq("sum", np.float32(8 / 255), 128)
    nodes.append(helper.make_node("GlobalAveragePool", [h3], ["pool"]))
    nodes.append(helper.make_node("Flatten", ["pool"], ["flat"]))
    h4 = qdq("flat", np.float32(2 / 255), 128)
    w_g, b_g = weight("wg", rng.normal(0, 0.3, (10, 8)).astype(np.float32), np.float32(2 / 255),
                      rng.normal(0, 0.1, 10).astype(np.float32))
    nodes.append(helper.make_node("Gemm", [h4, w_g, b_g], ["logits"], transB=1))
    onnx.save(model(nodes, [("x", f32, list(x.shape))], [("logits", f32)], inits), out("qdq.onnx"))
    save(out("x.pb"), x, "x")
    # The float reference of the QDQ graph, with numpy.
    values = {i.name: numpy_helper.to_array(i) for i in inits}
    values["x"] = x
    for node in nodes:
        ins = [values[n] for n in node.input]
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "QuantizeLinear":
            r = quantize(ins[0], ins[1], ins[2].astype(np.int64), np.uint8)
        elif node.op_type == "DequantizeLinear":
            shape = (-1,) + (1,) * (ins[0].ndim - 1) if ins[1].ndim else ()
            zero = ins[2].astype(np.float32).reshape(shape) if len(ins) > 2 else np.float32(0)
            r = ((ins[0].astype(np.float32) - zero) * ins[1].reshape(shape)).astype(np.float32)
        elif node.op_type == "Conv":
            pads = attrs.get("pads", [0, 0, 0, 0])
            xpad = np.pad(ins[0], ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
            kh, kw = ins[1].shape[2:]
            oh, ow = xpad.shape[2] - kh + 1, xpad.shape[3] - kw + 1
            r = np.zeros((1, ins[1].shape[0], oh, ow), np.float32)
            for i in range(kh):
                for j in range(kw):
                    r += np.einsum("nchw,fc->nfhw", xpad[:, :, i:i + oh, j:j + ow],
                                   ins[1][:, :, i, j]).astype(np.float32)
            r = r + ins[2][None, :, None, None]
        elif node.op_type == "Relu":
            r = np.maximum(ins[0], 0)
        elif node.op_type == "Add":
            r = ins[0] + ins[1]
        elif node.op_type == "GlobalAveragePool":
            r = ins[0].mean(axis=(2, 3), keepdims=True)
        elif node.op_type == "Flatten":
            r = ins[0].reshape(ins[0].shape[0], -1)
        elif node.op_type == "Gemm":
            r = ins[0] @ ins[1].T + ins[2]
        values[node.output[0]] = np.asarray(r)
    save(out("logits.pb"), values["logits"].astype(np.float32), "logits")
    # One step of the last quantized activation, scaled through the Gemm.
    step = np.float32(2 / 255) * np.abs(values["wg_q"].astype(np.float32) *
                                        values["wg_s"][:, None]).sum(1).max()
    with open(out("logits_tol.txt"), "w") as f:
        f.write(f"{float(step):.6g}\n")


if __name__ == "__main__":
    main()
