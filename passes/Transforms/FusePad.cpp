//===- FusePad.cpp - The onnx-fuse-pad pass -------------------------------===//
//
// A constant zero Pad of the spatial dims folded into the `pads` of the Conv
// or AveragePool (count_include_pad = 1) that reads it.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ConstantTensor.h"
#include "passes/Transforms/GreedyPatternPass.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXFUSEPADPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// The begin and end pads of the spatial dims (from dim 2) of a zero,
/// constant-mode Pad of non-negative counts that pads nothing else; the
/// begins then the ends, like a Conv's `pads`.
static std::optional<SmallVector<int64_t>> spatialZeroPads(PadOp pad) {
  auto type = dyn_cast<RankedTensorType>(pad.getData().getType());
  auto counts = getConstantIntValues(pad.getPads());
  if (!type || !counts || pad.getMode() != "constant" || type.getRank() < 3)
    return std::nullopt;
  if (!isNoValue(pad.getConstantValue())) {
    auto value = readConstant(pad.getConstantValue(), 1);
    if (!value || value->getDouble(0) != 0.0)
      return std::nullopt;
  }
  int64_t rank = type.getRank();
  SmallVector<int64_t> axes;
  if (isNoValue(pad.getAxes())) {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  } else {
    auto a = getConstantIntValues(pad.getAxes());
    if (!a)
      return std::nullopt;
    for (int64_t axis : *a) {
      auto norm = normalizeAxis(axis, rank);
      if (!norm)
        return std::nullopt;
      axes.push_back(*norm);
    }
  }
  int64_t n = axes.size();
  if (static_cast<int64_t>(counts->size()) != 2 * n)
    return std::nullopt;
  SmallVector<int64_t> result(2 * (rank - 2), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t begin = (*counts)[i], end = (*counts)[i + n], axis = axes[i];
    if (begin < 0 || end < 0)
      return std::nullopt;
    if (axis < 2) {
      if (begin != 0 || end != 0)
        return std::nullopt;
      continue;
    }
    result[axis - 2] += begin;
    result[axis - 2 + rank - 2] += end;
  }
  return result;
}

/// Conv or AveragePool reading a zero Pad: the pads move into the op.
template <typename OpT> struct FusePadInto : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    auto pad = op->getOperand(0).template getDefiningOp<PadOp>();
    if (!pad || op.getAutoPad() != "NOTSET")
      return failure();
    auto added = spatialZeroPads(pad);
    if (!added)
      return failure();
    SmallVector<int64_t> pads(added->size(), 0);
    if (auto existing = op.getPads()) {
      if (existing->size() != added->size())
        return failure();
      pads.assign(existing->begin(), existing->end());
    }
    // The Pad's zeros are real elements that every average counts. An
    // AveragePool that excludes padding from its counts can take them only
    // if it has no padding of its own and no ceil-mode windows past the
    // end, and then counts all of its (now only the Pad's) padding.
    bool countPadding = false;
    if constexpr (std::is_same_v<OpT, AveragePoolOp>) {
      if (op.getCountIncludePad() == 0) {
        if (op.getCeilMode() != 0 ||
            llvm::any_of(pads, [](int64_t p) { return p != 0; }))
          return failure();
        countPadding = true;
      }
    }
    for (auto [p, a] : llvm::zip(pads, *added))
      p += a;
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperand(0, pad.getData());
      op.setPadsAttr(rewriter.getDenseI64ArrayAttr(pads));
      if constexpr (std::is_same_v<OpT, AveragePoolOp>) {
        if (countPadding)
          op.setCountIncludePad(1);
      }
    });
    return success();
  }
};

struct ONNXFusePadPass
    : GreedyPatternPass<ONNXFusePadPass, onnxc::impl::ONNXFusePadPassBase,
                        populateONNXFusePadPatterns> {};

} // namespace

void onnxc::populateONNXFusePadPatterns(RewritePatternSet &patterns) {
  patterns.add<FusePadInto<ConvOp>, FusePadInto<AveragePoolOp>>(
      patterns.getContext());
}
