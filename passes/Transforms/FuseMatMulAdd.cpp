//===- FuseMatMulAdd.cpp - The onnx-fuse-matmul-add pass ------------------===//
//
// Add(MatMul(A, B), C) with 2-D A and B into Gemm(A, B, C).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/GreedyPatternPass.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXFUSEMATMULADDPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// True when `c` broadcasts unidirectionally to `[m, n]`, as Gemm's C must.
static bool isGemmBias(ShapedType c, int64_t m, int64_t n) {
  if (!c.hasRank() || c.getRank() > 2)
    return false;
  ArrayRef<int64_t> shape = c.getShape();
  int64_t target[2] = {m, n};
  int64_t offset = 2 - shape.size();
  for (auto [i, d] : llvm::enumerate(shape)) {
    int64_t t = target[i + offset];
    if (d != 1 && (ShapedType::isDynamic(d) || d != t))
      return false;
  }
  return true;
}

struct FuseMatMulAdd : public OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    Value lhs = add.getA(), rhs = add.getB();
    auto matmul = lhs.getDefiningOp<MatMulOp>();
    if (!matmul) {
      std::swap(lhs, rhs);
      matmul = lhs.getDefiningOp<MatMulOp>();
    }
    if (!matmul || !matmul.getY().hasOneUse())
      return failure();
    auto a = dyn_cast<RankedTensorType>(matmul.getA().getType());
    auto b = dyn_cast<RankedTensorType>(matmul.getB().getType());
    auto y = dyn_cast<RankedTensorType>(matmul.getY().getType());
    auto c = dyn_cast<RankedTensorType>(rhs.getType());
    if (!a || !b || !y || !c || a.getRank() != 2 || b.getRank() != 2 ||
        y.getRank() != 2 || add.getType() != y ||
        !isa<FloatType>(y.getElementType()))
      return failure();
    // The bias must not grow the product, and must fit Gemm's C.
    if (!isGemmBias(c, y.getDimSize(0), y.getDimSize(1)))
      return failure();
    auto gemm = rewriter.create<GemmOp>(
        matmul.getLoc(), y, ValueRange{matmul.getA(), matmul.getB(), rhs},
        ArrayRef<NamedAttribute>{});
    rewriter.replaceOp(add, gemm.getY());
    return success();
  }
};

struct ONNXFuseMatMulAddPass
    : GreedyPatternPass<ONNXFuseMatMulAddPass,
                        onnxc::impl::ONNXFuseMatMulAddPassBase,
                        populateONNXFuseMatMulAddPatterns> {};

} // namespace

void onnxc::populateONNXFuseMatMulAddPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseMatMulAdd>(patterns.getContext());
}
