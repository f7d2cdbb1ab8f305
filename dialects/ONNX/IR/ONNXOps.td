//===- ONNXOps.td - The onnx dialect's ops -----------------*- tablegen -*-===//

#ifndef ONNXC_DIALECTS_ONNX_IR_ONNXOPS_TD
#define ONNXC_DIALECTS_ONNX_IR_ONNXOPS_TD

include "dialects/ONNX/IR/ONNXDialect.td"
include "dialects/ONNX/IR/ops/ControlFlow.td"
include "dialects/ONNX/IR/ops/Math.td"
include "dialects/ONNX/IR/ops/Misc.td"
include "dialects/ONNX/IR/ops/NN.td"
include "dialects/ONNX/IR/ops/Quant.td"
include "dialects/ONNX/IR/ops/Reduce.td"
include "dialects/ONNX/IR/ops/RNN.td"
include "dialects/ONNX/IR/ops/Sequence.td"
include "dialects/ONNX/IR/ops/String.td"
include "dialects/ONNX/IR/ops/Tensor.td"
include "dialects/ONNX/IR/ops/Training.td"
include "dialects/ONNX/IR/ops/Unpool.td"

#endif // ONNXC_DIALECTS_ONNX_IR_ONNXOPS_TD
