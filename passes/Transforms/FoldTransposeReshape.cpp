//===- FoldTransposeReshape.cpp - The onnx-fold-transpose-reshape pass ----===//
//
// Chains of Transposes become one Transpose; chains of Reshape, Flatten,
// Squeeze and Unsqueeze ending in a static shape become one Reshape; a
// Transpose that moves only size-1 dims becomes a Reshape; a Gather of one
// index that leaves a Transpose's other dims in order reads the
// Transpose's input instead.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ConstantTensor.h"
#include "passes/Transforms/GreedyPatternPass.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXFOLDTRANSPOSERESHAPEPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// The permutation of a Transpose (the reversal when absent), or nullopt
/// when the input's rank is unknown.
static std::optional<SmallVector<int64_t>> permutationOf(TransposeOp op) {
  if (auto perm = op.getPerm())
    return SmallVector<int64_t>(perm->begin(), perm->end());
  auto type = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!type)
    return std::nullopt;
  SmallVector<int64_t> perm;
  for (int64_t d = type.getRank() - 1; d >= 0; --d)
    perm.push_back(d);
  return perm;
}

struct ComposeTransposes : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getData().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    auto p = permutationOf(inner), q = permutationOf(op);
    if (!p || !q || p->size() != q->size())
      return failure();
    // y[i] = t[q[i]] = x[p[q[i]]].
    SmallVector<int64_t> composed;
    for (int64_t i : *q)
      composed.push_back((*p)[i]);
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, op.getType(), inner.getData(),
        rewriter.getDenseI64ArrayAttr(composed));
    return success();
  }
};

/// A new Reshape of `input` to the static `type`.
static Value createReshape(PatternRewriter &rewriter, Location loc, Value input,
                           RankedTensorType type) {
  ConstantTensor shape = ConstantTensor::zeros(
      RankedTensorType::get({type.getRank()}, rewriter.getI64Type()));
  shape.ints.assign(type.getShape().begin(), type.getShape().end());
  Value shapeValue = createConstant(rewriter, loc, shape);
  return rewriter.create<ReshapeOp>(loc, type, ValueRange{input, shapeValue},
                                    ArrayRef<NamedAttribute>{});
}

static bool isReshapeLike(Operation *op) {
  return isa_and_nonnull<ReshapeOp, FlattenOp, SqueezeOp, UnsqueezeOp>(op);
}

/// A reshape-like op of a reshape-like op, to a static shape.
struct CollapseReshapes : public RewritePattern {
  CollapseReshapes(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isReshapeLike(op))
      return failure();
    Operation *inner = op->getOperand(0).getDefiningOp();
    if (!isReshapeLike(inner))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return failure();
    rewriter.replaceOp(
        op, createReshape(rewriter, op->getLoc(), inner->getOperand(0), type));
    return success();
  }
};

/// A Transpose whose non-unit dims keep their order is a Reshape.
struct TransposeOfUnitDims : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getData().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    auto perm = permutationOf(op);
    if (!inType || !outType || !inType.hasStaticShape() ||
        !outType.hasStaticShape() || !perm)
      return failure();
    int64_t last = -1;
    for (int64_t p : *perm) {
      if (inType.getDimSize(p) == 1)
        continue;
      if (p < last)
        return failure();
      last = p;
    }
    rewriter.replaceOp(
        op, createReshape(rewriter, op.getLoc(), op.getData(), outType));
    return success();
  }
};

/// Gather(Transpose(x, perm), i) with a scalar index i along `axis` picks
/// one slice along x's dim perm[axis]; when the Transpose keeps the other
/// dims in order, that is Gather(x, i) along perm[axis] and the Transpose
/// goes (PyTorch's last-step read of a batch-first RNN output).
struct GatherOfTranspose : public OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getData().getDefiningOp<TransposeOp>();
    auto indexType = dyn_cast<RankedTensorType>(op.getIndices().getType());
    if (!transpose || !transpose->hasOneUse() || !indexType ||
        indexType.getRank() != 0)
      return failure();
    auto perm = permutationOf(transpose);
    if (!perm)
      return failure();
    int64_t rank = perm->size();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < -rank || axis >= rank)
      return failure();
    if (axis < 0)
      axis += rank;
    int64_t source = (*perm)[axis];
    int64_t expected = 0;
    for (auto [position, p] : llvm::enumerate(*perm)) {
      if (static_cast<int64_t>(position) == axis)
        continue;
      if (p - (p > source ? 1 : 0) != expected++)
        return failure();
    }
    rewriter.replaceOpWithNewOp<GatherOp>(op, op.getType(), transpose.getData(),
                                          op.getIndices(),
                                          rewriter.getI64IntegerAttr(source));
    return success();
  }
};

/// The dim of `data` that a 1-element shape piece copies: Unsqueeze (or
/// Reshape) of a Gather of `Shape(data)` by a constant index.
static std::optional<int64_t> copiedDim(Value piece, Value data) {
  Operation *def = piece.getDefiningOp();
  if (!isa_and_nonnull<UnsqueezeOp, ReshapeOp>(def))
    return std::nullopt;
  auto gather = def->getOperand(0).getDefiningOp<GatherOp>();
  auto shape = gather ? gather.getData().getDefiningOp<ShapeOp>() : nullptr;
  if (!shape || shape.getData() != data || shape.getStart() != 0 ||
      shape.getEnd())
    return std::nullopt;
  auto index = getConstantIntValues(gather.getIndices());
  auto rank = cast<ShapedType>(data.getType()).getRank();
  if (!index || index->size() != 1)
    return std::nullopt;
  int64_t i = (*index)[0] < 0 ? (*index)[0] + rank : (*index)[0];
  return i;
}

/// Reshape(x, Concat(pieces)) where each 1-element piece is a constant, a
/// read of x's own dim at the same position (becomes 0, "copy"), or, for
/// at most one piece, anything (becomes -1): the target is a constant and
/// the shape arithmetic dies. ONNX Runtime's reshape fusion.
struct ConstantReshapeTarget : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto concat = op.getShape().getDefiningOp<ConcatOp>();
    auto dataType = dyn_cast<RankedTensorType>(op.getData().getType());
    if (!concat || !dataType || op.getAllowzero() != 0)
      return failure();
    SmallVector<int64_t> target;
    bool inferred = false;
    for (Value piece : concat.getInputs()) {
      auto type = dyn_cast<RankedTensorType>(piece.getType());
      if (!type || !type.hasStaticShape() || type.getNumElements() != 1)
        return failure();
      int64_t position = target.size();
      if (auto values = getConstantIntValues(piece)) {
        // A 0 copies the input dim at its position; a -1 is the inferred dim.
        if ((*values)[0] == -1) {
          if (inferred)
            return failure();
          inferred = true;
        }
        target.push_back((*values)[0]);
        continue;
      }
      if (copiedDim(piece, op.getData()) == position &&
          position < dataType.getRank()) {
        target.push_back(0);
        continue;
      }
      if (inferred)
        return failure();
      inferred = true;
      target.push_back(-1);
    }
    ConstantTensor shape = ConstantTensor::zeros(RankedTensorType::get(
        {static_cast<int64_t>(target.size())}, rewriter.getI64Type()));
    shape.ints.assign(target.begin(), target.end());
    Value shapeValue = createConstant(rewriter, op.getLoc(), shape);
    rewriter.modifyOpInPlace(op, [&] { op->setOperand(1, shapeValue); });
    return success();
  }
};

struct ONNXFoldTransposeReshapePass
    : GreedyPatternPass<ONNXFoldTransposeReshapePass,
                        onnxc::impl::ONNXFoldTransposeReshapePassBase,
                        populateONNXFoldTransposeReshapePatterns> {};

} // namespace

void onnxc::populateONNXFoldTransposeReshapePatterns(
    RewritePatternSet &patterns) {
  patterns.add<ComposeTransposes, CollapseReshapes, TransposeOfUnitDims,
               ConstantReshapeTarget, GatherOfTranspose>(patterns.getContext());
}
