//===- Passes.h - onnx to onnx passes ---------------------------*- C++ -*-===//

#ifndef ONNXC_PASSES_TRANSFORMS_PASSES_H
#define ONNXC_PASSES_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace onnxc {

#define GEN_PASS_DECL
#include "passes/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Transforms/Passes.h.inc"

} // namespace onnxc

#endif // ONNXC_PASSES_TRANSFORMS_PASSES_H
