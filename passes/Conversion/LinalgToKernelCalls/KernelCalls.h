//===- KernelCalls.h - Helpers of the passes that call runtime kernels ----===//
//
// Shared by convert-linalg-to-kernel-calls (f32) and
// convert-fused-to-kernel-calls (int8); defined in LinalgToKernelCalls.cpp
// and (constant operands packed at compile time) PackedWeights.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_LINALGTOKERNELCALLS_KERNELCALLS_H
#define ONNXC_PASSES_CONVERSION_LINALGTOKERNELCALLS_KERNELCALLS_H

#include "dialects/Kernel/KernelABI.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <map>
#include <optional>
#include <tuple>

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

/// The ISA named `name` (a value of kGemmIsaAttrName), if it is one.
std::optional<OnnxcGemmIsa> parseGemmIsa(llvm::StringRef name);

/// A constant f32 matrix: element (i, j) of the view at
/// bytes[(offset + i * strides[0] + j * strides[1]) * 4] of `global`'s
/// initial value; `views` are the ops from the view back to its
/// memref.get_global.
struct ConstantMatrix {
  mlir::memref::GlobalOp global;
  llvm::ArrayRef<char> bytes;
  int64_t offset;
  int64_t strides[2];
  llvm::SmallVector<mlir::Operation *> views;
};

/// `value` as a constant matrix: a static 2-D f32 view (get_global, then
/// zero-shift view, casts, reshapes, transposes) of a constant global with an
/// initial value; none otherwise.
std::optional<ConstantMatrix> matchConstantMatrix(mlir::Value value);

/// The packed globals made so far, by source global, offset, row and column
/// strides, k, n, nr and kcBlock.
using PackedKey = std::tuple<llvm::StringRef, int64_t, int64_t, int64_t,
                             int64_t, int64_t, int, int64_t>;
using PackedGlobals = std::map<PackedKey, mlir::memref::GlobalOp>;

/// The global holding the k x n B of `matrix` (its transpose with
/// `transposed`) in the packed layout (nr, kcBlock) of KernelABI.h, made
/// once per layout.
mlir::memref::GlobalOp getPackedMatrix(mlir::ModuleOp module,
                                       mlir::SymbolTable &symbols,
                                       const ConstantMatrix &matrix, int64_t k,
                                       int64_t n, bool transposed, int nr,
                                       int64_t kcBlock, PackedGlobals &cache);

/// Erases the `views` (a matrix's, view first) that nothing uses any more,
/// and then their global if nothing else reads it.
void eraseDeadViews(llvm::ArrayRef<mlir::Operation *> views,
                    mlir::SymbolTable &symbols, mlir::ModuleOp module);

} // namespace onnxc

#endif // ONNXC_PASSES_CONVERSION_LINALGTOKERNELCALLS_KERNELCALLS_H
