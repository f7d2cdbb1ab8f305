//===- ONNXToLinalg.h - Patterns lowering onnx to linalg --------*- C++ -*-===//
//
// The onnx -> linalg/tensor/arith/math patterns, exported apart from the
// pass so that pipelines can reuse them. One populate function per op family.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H

#include "mlir/IR/PatternMatch.h"

namespace onnxc {

void populateONNXElementwiseToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXMatMulToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXConvToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// ConvTranspose whose windows do not overlap, as a 1x1 Conv (tried before
/// the general lowering of populateONNXConvToLinalgPatterns).
void populateONNXConvTransposeToLinalgPatterns(
    mlir::RewritePatternSet &patterns);
/// `cpuKernels`: 2-D f32 MaxPool and AveragePool become calls of the CPU
/// runtime's pooling kernel.
void populateONNXPoolToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                      bool cpuKernels = true);
/// `cpuKernels`: f32 LayerNormalization over the last axis becomes a call of
/// the CPU runtime's kernel where it fits.
void populateONNXNormalizationToLinalgPatterns(
    mlir::RewritePatternSet &patterns, bool cpuKernels = true);
void populateONNXReduceToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXTensorToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXIndexingToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXResizeToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// Col2Im, DeformConv and AffineGrid.
void populateONNXImageToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// `int8Kernels`: the integer matmuls and convolutions become fused.qmatmul
/// and fused.qconv (the runtime's int8 GEMM) where they fit.
void populateONNXQuantToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                       bool int8Kernels = true);
void populateONNXRNNToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXSelectionToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXSignalToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXRandomToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXMiscToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXTrainingToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXUnpoolToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXControlFlowToSCFPatterns(mlir::RewritePatternSet &patterns);
void populateONNXStringToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateONNXSequenceToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// fused.attention (f32) to a call of the runtime's attention kernel.
void populateFusedAttentionToKernelCallPatterns(
    mlir::RewritePatternSet &patterns);
/// fused.tree_ensemble to a call of the runtime's tree kernel on tables
/// packed at compile time.
void populateFusedTreeEnsembleToKernelCallPatterns(
    mlir::RewritePatternSet &patterns);
/// fused.matmul_nbits to a call of the runtime's kernel on the packed 4-bit
/// weights.
void populateFusedMatMulNBitsToKernelCallPatterns(
    mlir::RewritePatternSet &patterns);

/// All of the above, but fused.attention.
void populateONNXToLinalgConversionPatterns(mlir::RewritePatternSet &patterns,
                                            bool int8Kernels = true,
                                            bool cpuKernels = true);

} // namespace onnxc

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
