//===- Pipelines.h - The named pass pipelines of onnxc ----------*- C++ -*-===//

#ifndef ONNXC_PASSES_PIPELINES_PIPELINES_H
#define ONNXC_PASSES_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace onnxc {

/// onnx -> onnx clean-up that `onnx-opt` runs by default: shape inference,
/// folding and canonicalization, CSE.
void buildONNXOptimizePipeline(mlir::OpPassManager &pm);

/// onnx (on tensors) -> the LLVM dialect: lowering to linalg, elementwise
/// fusion, bufferization with deallocation, loops, and conversion to LLVM.
void buildONNXLowerToLLVMPipeline(mlir::OpPassManager &pm);

/// Registers `onnx-optimize` and `onnx-lower-to-llvm` for onnx-opt.
void registerONNXCPipelines();

} // namespace onnxc

#endif // ONNXC_PASSES_PIPELINES_PIPELINES_H
