//===- KernelCall.h - Runtime kernel calls on tensors -----------*- C++ -*-===//
//
// What the lowerings that call a runtime kernel before bufferization share:
// operands as read-only buffers, a new result buffer that the call fills,
// all passed as memrefs of dynamic layout (the kernels receive expanded
// descriptors; onnxc::castToDynamic of LinalgToKernelCalls/KernelCalls.h
// makes them), and the kernel's declaration.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_KERNELCALL_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_KERNELCALL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace onnxc::tolinalg {

/// A read-only buffer of the ranked `tensor`, of dynamic layout.
mlir::Value readBuffer(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value tensor);

/// A new 64-byte aligned buffer of `type` whose dynamic dims are
/// `dynamicSizes`.
mlir::Value allocBuffer(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        mlir::ValueRange dynamicSizes);

/// Calls `name` (declared private in the module of the insertion point once,
/// taking `args`' types and returning `results`) on `args`; its results.
mlir::ValueRange callKernel(mlir::OpBuilder &b, mlir::Location loc,
                            llvm::StringRef name, mlir::ValueRange args,
                            mlir::TypeRange results = {});

/// The tensor of `buffer`, which a kernel call filled.
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value buffer);

} // namespace onnxc::tolinalg

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_KERNELCALL_H
