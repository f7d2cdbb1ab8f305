//===- KernelCalls.h - Helpers of the passes that call runtime kernels -*- C++
//-*-===//
//
// Shared by convert-linalg-to-kernel-calls (f32) and
// convert-fused-to-kernel-calls (int8); defined in LinalgToKernelCalls.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_LINALGTOKERNELCALLS_KERNELCALLS_H
#define ONNXC_PASSES_CONVERSION_LINALGTOKERNELCALLS_KERNELCALLS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace onnxc {

/// True when `value` is a view of a constant global (a model's weight).
bool isConstantBuffer(mlir::Value value);

/// `value` as a memref with dynamic sizes, strides and offset, after
/// permuting its dims by `permutation` if one is given.
mlir::Value castToDynamic(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value,
                          llvm::ArrayRef<unsigned> permutation = {});

/// Declares `name` in `module` as a private function of `type`, once.
void declareKernel(mlir::ModuleOp module, mlir::SymbolTable &symbols,
                   llvm::StringRef name, mlir::FunctionType type);

} // namespace onnxc

#endif // ONNXC_PASSES_CONVERSION_LINALGTOKERNELCALLS_KERNELCALLS_H
