//===- Pattern.h - Base classes of the onnx -> linalg patterns --*- C++ -*-===//
//
// Every onnx -> linalg lowering needs ranked operands (or `none`) and a ranked
// result, and reports when it does not get them. The base classes run these
// checks in a final matchAndRewrite and hand the checked result type and the
// op's location to lower(), so that a pattern is only its lowering:
//
//   struct ReluLowering : public ONNXToLinalgPattern<onnx::ReluOp> {
//     using ONNXToLinalgPattern::ONNXToLinalgPattern;
//
//     LogicalResult lower(onnx::ReluOp op, OpAdaptor adaptor,
//                         RankedTensorType resultType, Location loc,
//                         ConversionPatternRewriter &rewriter) const override;
//   };
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_PATTERN_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_PATTERN_H

#include "passes/Conversion/ONNXToLinalg/Common.h"

#include "mlir/Transforms/DialectConversion.h"

namespace onnxc::tolinalg {

/// What an ONNXToLinalgPattern checks before lower(). A failed check reports
/// (checkRankedOperands, getRankedResultType) and fails the match.
enum class RankCheck {
  /// Every operand ranked or `none`, and result 0 ranked: nearly every op.
  OperandsAndResult,
  /// The operands only, for a lowering that builds its result type (Shape,
  /// Size): lower() gets a null result type.
  Operands,
  /// Result 0 only, for a lowering that reads no operand as a ranked tensor
  /// (ConstantOfShape's shape).
  Result,
};

/// A conversion pattern of `OpT` that checks ranked operands and a ranked
/// result 0 (as `check` says), then lowers through lower(). Results after the
/// first are the lowering's business (MaxPool's Indices, BatchNormalization's
/// running statistics).
template <typename OpT>
class ONNXToLinalgPattern : public mlir::OpConversionPattern<OpT> {
public:
  using OpAdaptor = typename OpT::Adaptor;

  ONNXToLinalgPattern(mlir::MLIRContext *ctx,
                      RankCheck check = RankCheck::OperandsAndResult,
                      mlir::PatternBenefit benefit = 1)
      : mlir::OpConversionPattern<OpT>(ctx, benefit), check(check) {}

  mlir::LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const final {
    if (check != RankCheck::Result && mlir::failed(checkRankedOperands(op)))
      return mlir::failure();
    mlir::RankedTensorType resultType;
    if (check != RankCheck::Operands) {
      resultType = getRankedResultType(op);
      if (!resultType)
        return mlir::failure();
    }
    return lower(op, adaptor, resultType, op.getLoc(), rewriter);
  }

  /// Replaces `op`, whose result 0 has the ranked type `resultType` (null
  /// under RankCheck::Operands), with IR built at `loc`; or reports why it
  /// cannot and fails.
  virtual mlir::LogicalResult
  lower(OpT op, OpAdaptor adaptor, mlir::RankedTensorType resultType,
        mlir::Location loc,
        mlir::ConversionPatternRewriter &rewriter) const = 0;

private:
  RankCheck check;
};

/// As ONNXToLinalgPattern for ops whose results must all be ranked (TopK,
/// Split, LSTM, the optimizers): lower() gets the type of each result.
template <typename OpT>
class ONNXToLinalgMultiResultPattern : public mlir::OpConversionPattern<OpT> {
public:
  using OpAdaptor = typename OpT::Adaptor;
  using mlir::OpConversionPattern<OpT>::OpConversionPattern;

  mlir::LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const final {
    if (mlir::failed(checkRankedOperands(op)))
      return mlir::failure();
    llvm::SmallVector<mlir::RankedTensorType> resultTypes;
    for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
      resultTypes.push_back(getRankedResultType(op, i));
      if (!resultTypes.back())
        return mlir::failure();
    }
    return lower(op, adaptor, resultTypes, op.getLoc(), rewriter);
  }

  /// Replaces `op`, whose results have the ranked types `resultTypes`, with
  /// IR built at `loc`; or reports why it cannot and fails.
  virtual mlir::LogicalResult
  lower(OpT op, OpAdaptor adaptor,
        llvm::ArrayRef<mlir::RankedTensorType> resultTypes, mlir::Location loc,
        mlir::ConversionPatternRewriter &rewriter) const = 0;
};

} // namespace onnxc::tolinalg

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_PATTERN_H
