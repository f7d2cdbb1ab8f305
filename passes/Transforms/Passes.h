//===- Passes.h - onnx to onnx passes ---------------------------*- C++ -*-===//

#ifndef ONNXC_PASSES_TRANSFORMS_PASSES_H
#define ONNXC_PASSES_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace onnxc {

#define GEN_PASS_DECL
#include "passes/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Transforms/Passes.h.inc"

/// One sweep of onnx result type inference over `func` (and its signature);
/// true when a type changed, failure when an op's inference failed.
mlir::FailureOr<bool> refineShapes(mlir::func::FuncOp func);

/// Evaluation of onnx ops on constant inputs (results of at most
/// `maxElements` elements, and no larger than their constant inputs past
/// 1024) and partial folds of Shape reads.
void populateONNXConstantFoldingPatterns(mlir::RewritePatternSet &patterns,
                                         int64_t maxElements);

/// Removal of ops that return their input unchanged.
void populateONNXEliminateNoOpsPatterns(mlir::RewritePatternSet &patterns);

/// BatchNormalization, per-channel Mul and Add folded into Conv weights.
void populateONNXFuseConvBNPatterns(mlir::RewritePatternSet &patterns);

/// Conv, Gemm and 2-D MatMul with their activation into fused.conv and
/// fused.gemm (only ONNX Runtime's forms when `ortCompatible`).
void populateONNXFuseActivationPatterns(mlir::RewritePatternSet &patterns,
                                        bool ortCompatible);

/// Multi-head attention (split into heads, Q K^T, scale, mask, Softmax, V,
/// heads merged) into fused.attention.
void populateONNXFuseAttentionPatterns(mlir::RewritePatternSet &patterns);

/// Float16 and bfloat16 MatMul, Gemm, Conv and ConvTranspose computed in
/// float between Casts.
void populateONNXWidenFloat16Patterns(mlir::RewritePatternSet &patterns);

/// 2-D MatMul + bias Add into Gemm.
void populateONNXFuseMatMulAddPatterns(mlir::RewritePatternSet &patterns);

/// QDQ islands around Conv, MatMul and Gemm into integer ops (onnx-fuse-qdq).
void populateONNXFuseQDQPatterns(mlir::RewritePatternSet &patterns);

/// Transpose-Transpose and reshape chains collapsed.
void populateONNXFoldTransposeReshapePatterns(
    mlir::RewritePatternSet &patterns);

/// Zero Pads folded into Conv and pooling.
void populateONNXFusePadPatterns(mlir::RewritePatternSet &patterns);

/// LayerNormalization, Gelu and Softmax from their decomposed forms, for a
/// model of opset `opset` (forms newer than it are not created).
void populateONNXRecognizePatterns(mlir::RewritePatternSet &patterns,
                                   int64_t opset);

/// The float activations that static quantization reads as quantized (the
/// operands of Conv, Gemm, MatMul, Add, Mul, Concat and pooling that can
/// carry a range), in program order, each once.
llvm::SmallVector<mlir::Value>
getQuantizableActivations(mlir::func::FuncOp func);

/// Records the calibrated range of `value` (one of
/// getQuantizableActivations) for quantizeQDQ.
void setActivationRange(mlir::Value value, double lo, double hi);

/// The onnx-quantize-qdq rewrite of every function of `module`.
void quantizeQDQ(mlir::ModuleOp module, bool int8Activations, bool perChannel);

/// The onnx-quantize-dynamic rewrite of every function of `module`.
void quantizeDynamic(mlir::ModuleOp module, bool perChannel);

} // namespace onnxc

#endif // ONNXC_PASSES_TRANSFORMS_PASSES_H
