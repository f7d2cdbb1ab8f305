//===- Passes.h - Dialect conversion passes of onnxc ------------*- C++ -*-===//

#ifndef ONNXC_PASSES_CONVERSION_PASSES_H
#define ONNXC_PASSES_CONVERSION_PASSES_H

#include "dialects/Fused/IR/FusedOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace onnxc {

#define GEN_PASS_DECL
#include "passes/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Conversion/Passes.h.inc"

/// The module attribute naming the vector ISA whose GEMM micro-kernel the
/// compiled code will run ("avx512", "avx2", "neon", "generic"); constant
/// matmul operands are packed for it. Absent: nothing is packed ahead.
constexpr llvm::StringLiteral kGemmIsaAttrName = "onnxc.gemm_isa";

/// The reassociation of a rank-`rank` shape that folds away its dims for
/// which `isDropped` holds (unit dims): each joins the group of the kept dim
/// before it, and those before the first kept dim join its group. Empty
/// when every dim is dropped (a reshape to or from rank 0).
inline llvm::SmallVector<mlir::ReassociationIndices>
reassociationDropping(int64_t rank,
                      llvm::function_ref<bool(int64_t)> isDropped) {
  llvm::SmallVector<mlir::ReassociationIndices> groups;
  mlir::ReassociationIndices leading;
  for (int64_t i = 0; i < rank; ++i) {
    if (isDropped(i)) {
      (groups.empty() ? leading : groups.back()).push_back(i);
      continue;
    }
    mlir::ReassociationIndices group = leading;
    leading.clear();
    group.push_back(i);
    groups.push_back(group);
  }
  return groups;
}

/// True when every operand of `op` is an f32 memref: the ops that
/// convert-linalg-to-kernel-calls and onnx-gpu-gemm-kernels replace.
bool isF32OnBuffers(mlir::linalg::LinalgOp op);

/// f32 (and f32 vector) math.exp and math.tanh as arithmetic that vectorizes
/// (Cephes' expf and tanhf, about 1e-7 relative error): the patterns of
/// onnxc-approximate-math besides MLIR's erf.
void populateApproximateExpTanhPatterns(mlir::RewritePatternSet &patterns);

/// f32 (and f32 vector) math.asin and math.acos as Cephes' asinf and acosf
/// (about 2.5e-7 relative error, full precision near +-1; NaN beyond): for
/// onnxc-approximate-math and, at a higher `benefit` than MLIR's polynomial
/// approximations, the GPU's kernels.
void populateApproximateAsinAcosPatterns(mlir::RewritePatternSet &patterns,
                                         mlir::PatternBenefit benefit = 1);

/// memref.copy ops outside kernels and parallel loops as linalg.copy (the
/// pattern of onnx-gpu-copy-kernels).
void populateGPUCopyKernelPatterns(mlir::RewritePatternSet &patterns);

/// Runs every outermost scf.parallel of `module` (on the host, without
/// reductions or calls) whose work is at least `minWork` scalar ops on the
/// runtime's thread pool: see convert-parallel-loops-to-thread-pool.
void shareParallelLoops(mlir::ModuleOp module, int64_t minWork);

} // namespace onnxc

#endif // ONNXC_PASSES_CONVERSION_PASSES_H
