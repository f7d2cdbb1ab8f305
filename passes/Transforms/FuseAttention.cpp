//===- FuseAttention.cpp - The onnx-fuse-attention pass -------------------===//
//
// Multi-head scaled dot-product attention, as PyTorch exports it in onnx ops,
// into one fused.attention.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ConstantTensor.h"
#include "passes/Transforms/GreedyPatternPass.h"
#include "passes/Transforms/Passes.h"

#include "dialects/Fused/IR/FusedOps.h"
#include "dialects/ONNX/IR/ONNXOps.h"
#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXFUSEATTENTIONPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// One of Q, K and V split into heads: `source [B, S, H * D]` reshaped to
/// `[B, S, H, D]`, then permuted so that dim `i` of the result is dim
/// `perm[i]` of the reshaped tensor, each head repeated `group` times
/// (grouped-query attention's K and V; 1 otherwise).
struct Heads {
  Value source;
  int64_t heads, headDim;
  SmallVector<int64_t, 4> perm;
  int64_t group = 1;
};

/// The value of a one-element float constant.
static std::optional<double> scalarConstant(Value value) {
  std::optional<ConstantTensor> t = readConstant(value, 1);
  if (!t || t->size() != 1 || !t->isFloat())
    return std::nullopt;
  return t->getDouble(0);
}

/// True when `op` only scales `operand` by a scalar (the result has the
/// operand's type); `factor` is multiplied by the scale.
static bool matchScale(Operation *op, Value &operand, double &factor) {
  if (!op->hasOneUse() || op->getNumOperands() != 2)
    return false;
  Value a = op->getOperand(0), b = op->getOperand(1);
  if (isa<MulOp>(op)) {
    if (std::optional<double> c = scalarConstant(b)) {
      operand = a;
      factor *= *c;
    } else if (std::optional<double> c = scalarConstant(a)) {
      operand = b;
      factor *= *c;
    } else {
      return false;
    }
  } else if (isa<DivOp>(op)) {
    std::optional<double> c = scalarConstant(b);
    if (!c || *c == 0.0)
      return false;
    operand = a;
    factor /= *c;
  } else {
    return false;
  }
  return operand.getType() == op->getResult(0).getType();
}

/// True when dims 0 and 1 of `reshape`'s result are those of its input: the
/// same static sizes, a target of 0 (copy) or, for dim 0, -1 when the other
/// dims are kept or fixed (`trailingFixed`: the product of the trailing dims
/// is static and the same before and after).
static bool keepsLeadingDims(ReshapeOp reshape, bool trailingFixed) {
  auto in = cast<RankedTensorType>(reshape.getData().getType());
  auto out = cast<RankedTensorType>(reshape.getType());
  std::optional<ConstantTensor> target = readConstant(reshape.getShape(), 8);
  auto kept = [&](int64_t i) {
    if (!in.isDynamicDim(i) && out.getDimSize(i) == in.getDimSize(i))
      return true;
    if (!target)
      return false;
    int64_t c = target->getInt(i);
    return (c == 0 && reshape.getAllowzero() == 0) ||
           (!in.isDynamicDim(i) && c == in.getDimSize(i));
  };
  if (!kept(1))
    return false;
  return kept(0) || (target && target->getInt(0) == -1 && trailingFixed);
}

/// The repeat of each of K's or V's heads for grouped-query attention, as
/// the Attention-23 expansion writes it (lib/Frontend/Expansion.h,
/// repeatKVHeads): `x [B, G, T, D]` unsqueezed at axis 2, expanded by
/// `[1, 1, g, 1, 1]` and reshaped by `[0, G * g, -1, D]`. Returns `x` and
/// `g` (static, as are G and D).
static std::optional<std::pair<Value, int64_t>>
matchRepeatedHeads(ReshapeOp reshape) {
  auto out = dyn_cast<RankedTensorType>(reshape.getType());
  auto expand = reshape.getData().getDefiningOp<ExpandOp>();
  auto unsqueeze =
      expand ? expand.getInput().getDefiningOp<UnsqueezeOp>() : UnsqueezeOp();
  if (!out || out.getRank() != 4 || !unsqueeze || !reshape->hasOneUse() ||
      !expand->hasOneUse() || !unsqueeze->hasOneUse())
    return std::nullopt;
  auto x = dyn_cast<RankedTensorType>(unsqueeze.getData().getType());
  std::optional<ConstantTensor> axes = readConstant(unsqueeze.getAxes(), 1);
  std::optional<ConstantTensor> by = readConstant(expand.getShape(), 5);
  std::optional<ConstantTensor> target = readConstant(reshape.getShape(), 4);
  if (!x || x.getRank() != 4 || !axes || axes->size() != 1 ||
      axes->getInt(0) != 2 || !by || by->size() != 5 || !target ||
      target->size() != 4 || reshape.getAllowzero() != 0)
    return std::nullopt;
  int64_t group = by->getInt(2);
  for (int64_t i : {0, 1, 3, 4})
    if (by->getInt(i) != 1)
      return std::nullopt;
  if (group < 1 || x.isDynamicDim(1) || x.isDynamicDim(3) ||
      target->getInt(0) != 0 || target->getInt(1) != x.getDimSize(1) * group ||
      target->getInt(2) != -1 || target->getInt(3) != x.getDimSize(3))
    return std::nullopt;
  return std::make_pair(unsqueeze.getData(), group);
}

/// Walks up from an operand of the attention's MatMuls through Transposes
/// (composing their permutations), scalar Muls and Divs (into `scale`) and
/// at most one repeat of the heads (matchRepeatedHeads) to the Reshape that
/// splits `[B, S, H * D]` into `[B, S, H, D]`.
static std::optional<Heads> matchHeads(Value value, double &scale) {
  SmallVector<int64_t, 4> perm = {0, 1, 2, 3};
  // The permutation where the heads were repeated (their dim 1 there).
  std::optional<SmallVector<int64_t, 4>> repeatedAt;
  int64_t group = 1;
  while (Operation *def = value.getDefiningOp()) {
    if (auto transpose = dyn_cast<TransposeOp>(def)) {
      if (!transpose->hasOneUse())
        return std::nullopt;
      auto type = dyn_cast<RankedTensorType>(transpose.getData().getType());
      if (!type || type.getRank() != 4)
        return std::nullopt;
      SmallVector<int64_t, 4> p = {3, 2, 1, 0};
      if (std::optional<ArrayRef<int64_t>> attr = transpose.getPerm())
        p.assign(attr->begin(), attr->end());
      for (int64_t &d : perm)
        d = p[d];
      value = transpose.getData();
      continue;
    }
    if (isa<MulOp, DivOp>(def)) {
      if (!matchScale(def, value, scale))
        return std::nullopt;
      continue;
    }
    auto reshape = dyn_cast<ReshapeOp>(def);
    if (!reshape)
      return std::nullopt;
    if (std::optional<std::pair<Value, int64_t>> repeat =
            matchRepeatedHeads(reshape)) {
      if (repeatedAt)
        return std::nullopt;
      repeatedAt = perm;
      std::tie(value, group) = *repeat;
      continue;
    }
    auto in = dyn_cast<RankedTensorType>(reshape.getData().getType());
    auto out = dyn_cast<RankedTensorType>(reshape.getType());
    if (!in || !out || in.getRank() != 3 || out.getRank() != 4 ||
        in.isDynamicDim(2) || out.isDynamicDim(2) || out.isDynamicDim(3) ||
        in.getDimSize(2) != out.getDimSize(2) * out.getDimSize(3) ||
        !keepsLeadingDims(reshape, /*trailingFixed=*/true))
      return std::nullopt;
    // The repeated dim is the heads (dim 2 of this Reshape's result): the
    // Transposes between the two took dim 1 there to it.
    if (repeatedAt) {
      auto at = llvm::find(*repeatedAt, 1);
      if (at == repeatedAt->end() || perm[at - repeatedAt->begin()] != 2)
        return std::nullopt;
    }
    return Heads{reshape.getData(), out.getDimSize(2), out.getDimSize(3), perm,
                 group};
  }
  return std::nullopt;
}

/// `softmax(scale * Q K^T + mask) V` with the heads split from and merged
/// back into `[B, S, H * D]` tensors, rooted at the MatMul by V.
struct FuseAttention : public OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatMulOp pv,
                                PatternRewriter &rewriter) const override {
    auto softmax = pv.getA().getDefiningOp<SoftmaxOp>();
    auto scoresType = dyn_cast<RankedTensorType>(pv.getA().getType());
    if (!softmax || !softmax->hasOneUse() || !scoresType ||
        scoresType.getRank() != 4 || !scoresType.getElementType().isF32() ||
        normalizeAxis(softmax.getAxis(), 4) != 3)
      return rewriter.notifyMatchFailure(pv, "not a softmax of 4-D f32 scores");

    // The result: Transpose back to [B, S, H, D], Reshape to [B, S, H * D].
    if (!pv->hasOneUse())
      return failure();
    auto merge = dyn_cast<TransposeOp>(*pv->user_begin());
    if (!merge || !merge->hasOneUse() || !merge.getPerm() ||
        *merge.getPerm() != ArrayRef<int64_t>{0, 2, 1, 3})
      return rewriter.notifyMatchFailure(pv, "heads are not merged back");
    auto flatten = dyn_cast<ReshapeOp>(*merge->user_begin());
    if (!flatten)
      return failure();
    auto merged = dyn_cast<RankedTensorType>(merge.getType());
    auto flat = dyn_cast<RankedTensorType>(flatten.getType());
    if (!merged || !flat || flat.getRank() != 3 || flat.isDynamicDim(2) ||
        merged.isDynamicDim(2) || merged.isDynamicDim(3) ||
        flat.getDimSize(2) != merged.getDimSize(2) * merged.getDimSize(3) ||
        !keepsLeadingDims(flatten, /*trailingFixed=*/true))
      return rewriter.notifyMatchFailure(pv, "heads are not merged back");

    // The scores: an optional mask Add over scaled Q K^T.
    Value scores = softmax.getInput(), mask;
    if (auto add = scores.getDefiningOp<AddOp>()) {
      if (!add->hasOneUse())
        return failure();
      for (auto [s, m] : {std::pair{add.getA(), add.getB()},
                          std::pair{add.getB(), add.getA()}}) {
        Operation *def = s.getDefiningOp();
        if (s.getType() == add.getType() && def &&
            isa<MatMulOp, MulOp, DivOp>(def)) {
          scores = s;
          mask = m;
          break;
        }
      }
      auto maskType = mask ? dyn_cast<RankedTensorType>(mask.getType())
                           : RankedTensorType();
      if (!maskType || maskType.getRank() > 4)
        return rewriter.notifyMatchFailure(pv, "no mask of rank 4 or less");
    }
    double scale = 1.0;
    while (Operation *def = scores.getDefiningOp()) {
      if (!isa<MulOp, DivOp>(def))
        break;
      if (!matchScale(def, scores, scale))
        return failure();
    }
    auto qk = scores.getDefiningOp<MatMulOp>();
    if (!qk || !qk->hasOneUse())
      return rewriter.notifyMatchFailure(pv, "no Q K^T MatMul");

    double unit = 1.0;
    std::optional<Heads> q = matchHeads(qk.getA(), scale);
    std::optional<Heads> k = matchHeads(qk.getB(), scale);
    std::optional<Heads> v = matchHeads(pv.getB(), unit);
    if (!q || !k || !v || unit != 1.0 ||
        q->perm != ArrayRef<int64_t>{0, 2, 1, 3} ||
        k->perm != ArrayRef<int64_t>{0, 2, 3, 1} ||
        v->perm != ArrayRef<int64_t>{0, 2, 1, 3})
      return rewriter.notifyMatchFailure(pv, "Q, K or V not split into heads");
    // K and V may have fewer heads, each repeated for a group of Q's.
    if (q->group != 1 || k->heads != v->heads || k->group != v->group ||
        q->heads != k->heads * k->group || q->headDim != k->headDim ||
        q->heads != merged.getDimSize(2) || v->headDim != merged.getDimSize(3))
      return rewriter.notifyMatchFailure(pv, "heads do not agree");

    // Self-attention: Q, K and V share their batch (a `?` is one input's).
    auto batch = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getDimSize(0);
    };
    if (batch(q->source) != batch(k->source) ||
        batch(q->source) != batch(v->source))
      return rewriter.notifyMatchFailure(pv, "Q, K and V batches differ");

    Value maskOrNone = mask;
    if (!maskOrNone)
      maskOrNone =
          rewriter.create<NoValueOp>(pv.getLoc(), rewriter.getNoneType());
    auto fused = rewriter.create<fused::AttentionOp>(
        flatten.getLoc(), flat, q->source, k->source, v->source, maskOrNone,
        rewriter.getI64IntegerAttr(q->heads),
        k->group == 1 ? IntegerAttr() : rewriter.getI64IntegerAttr(k->heads),
        rewriter.getF32FloatAttr(float(scale)));
    rewriter.replaceOp(flatten, fused.getY());
    return success();
  }
};

struct ONNXFuseAttentionPass
    : GreedyPatternPass<ONNXFuseAttentionPass,
                        onnxc::impl::ONNXFuseAttentionPassBase,
                        populateONNXFuseAttentionPatterns> {};

} // namespace

void onnxc::populateONNXFuseAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseAttention>(patterns.getContext());
}
