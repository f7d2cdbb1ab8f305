//===- Passes.td - Dialect conversion passes of onnxc ------*- tablegen -*-===//

#ifndef ONNXC_PASSES_CONVERSION_PASSES_TD
#define ONNXC_PASSES_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertONNXToLinalgPass : Pass<"convert-onnx-to-linalg", "mlir::ModuleOp"> {
  let summary = "lower onnx ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every onnx op into destination-style linalg ops (named ops where
    one fits: matmul, batch_matmul, conv_2d_nchw_fchw, pooling; linalg.generic
    with broadcasting maps otherwise) plus tensor, arith and math ops, all on
    tensors, so that tiling, fusion and vectorization can follow. onnx.Constant
    becomes arith.constant. An op that cannot be lowered (an unsupported
    element type, a dynamic dim that must be static) is reported with its node
    name and the pass fails.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect",
    "mlir::func::FuncDialect", "mlir::scf::SCFDialect"
  ];
}

#endif // ONNXC_PASSES_CONVERSION_PASSES_TD
