//===- ConvertONNXToLinalg.cpp - The convert-onnx-to-linalg pass ----------===//

#include "dialects/Fused/IR/FusedOps.h"
#include "dialects/ONNX/IR/ONNXOps.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_CONVERTONNXTOLINALGPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

void onnxc::populateONNXToLinalgConversionPatterns(RewritePatternSet &patterns,
                                                   bool int8Kernels,
                                                   bool cpuKernels) {
  populateONNXElementwiseToLinalgPatterns(patterns);
  populateONNXMatMulToLinalgPatterns(patterns);
  populateONNXConvToLinalgPatterns(patterns);
  populateONNXConvTransposeToLinalgPatterns(patterns);
  populateONNXPoolToLinalgPatterns(patterns, cpuKernels);
  populateONNXNormalizationToLinalgPatterns(patterns, cpuKernels);
  populateONNXReduceToLinalgPatterns(patterns);
  populateONNXTensorToLinalgPatterns(patterns);
  populateONNXIndexingToLinalgPatterns(patterns);
  populateONNXResizeToLinalgPatterns(patterns);
  populateONNXImageToLinalgPatterns(patterns);
  populateONNXQuantToLinalgPatterns(patterns, int8Kernels);
  populateONNXRNNToLinalgPatterns(patterns);
  populateONNXSelectionToLinalgPatterns(patterns);
  populateONNXSignalToLinalgPatterns(patterns);
  populateONNXRandomToLinalgPatterns(patterns);
  populateONNXMiscToLinalgPatterns(patterns);
  populateONNXTrainingToLinalgPatterns(patterns);
  populateONNXUnpoolToLinalgPatterns(patterns);
  populateONNXControlFlowToSCFPatterns(patterns);
  populateONNXStringToLinalgPatterns(patterns);
  populateONNXSequenceToLinalgPatterns(patterns);
}

namespace {
struct ConvertONNXToLinalgPass
    : public onnxc::impl::ConvertONNXToLinalgPassBase<ConvertONNXToLinalgPass> {
  using ConvertONNXToLinalgPassBase::ConvertONNXToLinalgPassBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<onnxc::onnx::ONNXDialect>();
    target.addLegalDialect<
        arith::ArithDialect, linalg::LinalgDialect, math::MathDialect,
        tensor::TensorDialect, scf::SCFDialect, func::FuncDialect,
        bufferization::BufferizationDialect, memref::MemRefDialect>();
    target.addIllegalOp<onnxc::fused::AttentionOp, onnxc::fused::TreeEnsembleOp,
                        onnxc::fused::MatMulNBitsOp>();
    // The casts between unsigned integers and their signless twins.
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addLegalOp<onnxc::fused::QMatMulOp, onnxc::fused::QConvOp>();
    RewritePatternSet patterns(ctx);
    onnxc::populateONNXToLinalgConversionPatterns(patterns, int8Kernels,
                                                  cpuKernels);
    onnxc::populateFusedAttentionToKernelCallPatterns(patterns);
    onnxc::populateFusedTreeEnsembleToKernelCallPatterns(patterns);
    onnxc::populateFusedMatMulNBitsToKernelCallPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // Padding as empty + fill + insert_slice: MLIR 19's bufferization of
    // tensor.pad with dynamic dims reads the padded size before defining it.
    RewritePatternSet padPatterns(ctx);
    padPatterns.add<linalg::GeneralizePadOpPattern>(ctx);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(padPatterns))))
      return signalPassFailure();
    // Unsigned integers computed on as signless ones (Common.h): arith and
    // the passes after this one need signless types throughout.
    onnxc::tolinalg::makeIntegersSignless(getOperation());
  }
};
} // namespace
