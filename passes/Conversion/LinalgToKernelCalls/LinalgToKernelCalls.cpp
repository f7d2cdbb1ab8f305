//===- LinalgToKernelCalls.cpp - f32 matmul and conv to runtime kernels ---===//
//
// After bufferization, f32 matmuls and convolutions become calls of the
// runtime's packed kernels (lib/Runtime/Kernels.c). Operands are cast to
// fully dynamic strided memrefs, so the call passes each descriptor expanded
// (allocated, aligned, offset, sizes, strides); a transposed operand is a
// memref.transpose view, which the kernels read through its strides.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

namespace onnxc {
#define GEN_PASS_DEF_CONVERTLINALGTOKERNELCALLSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;

/// Bits of a kernel's flags word: max(., 0) on the result (not set here
/// yet), the first / second input is a constant (its packed form may be
/// kept across calls).
enum KernelFlags : int64_t { kConstFirst = 2, kConstSecond = 4 };

bool onnxc::isConstantBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto global = dyn_cast<memref::GetGlobalOp>(def)) {
      auto module = def->getParentOfType<ModuleOp>();
      auto op = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          module, global.getNameAttr());
      return op && op.getConstant();
    }
    if (!isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
             memref::TransposeOp>(def))
      return false;
    value = def->getOperand(0);
  }
  return false;
}

Value onnxc::castToDynamic(OpBuilder &b, Location loc, Value value,
                           ArrayRef<unsigned> permutation) {
  MLIRContext *ctx = b.getContext();
  if (!permutation.empty())
    value = b.create<memref::TransposeOp>(
        loc, value,
        AffineMapAttr::get(AffineMap::getPermutationMap(permutation, ctx)));
  auto type = cast<MemRefType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides);
  auto dynamic = MemRefType::get(shape, type.getElementType(), layout,
                                 type.getMemorySpace());
  return b.create<memref::CastOp>(loc, dynamic, value);
}

/// True when every operand of `op` is an f32 memref.
static bool isF32OnBuffers(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return false;
  return llvm::all_of(op->getOperands(), [](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    return type && type.getElementType().isF32();
  });
}

void onnxc::declareKernel(ModuleOp module, SymbolTable &symbols, StringRef name,
                          FunctionType type) {
  if (symbols.lookup(name))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto func = b.create<func::FuncOp>(module.getLoc(), name, type);
  func.setPrivate();
  symbols.insert(func);
}

/// The window attributes of a convolution as i64 constants: strides, then
/// dilations.
static SmallVector<Value> windowArgs(OpBuilder &b, Location loc,
                                     DenseIntElementsAttr strides,
                                     DenseIntElementsAttr dilations) {
  SmallVector<Value> args;
  for (DenseIntElementsAttr attr : {strides, dilations})
    for (int64_t v : attr.getValues<int64_t>())
      args.push_back(b.create<arith::ConstantIntOp>(loc, v, 64));
  return args;
}

/// Replaces `op` by a call of `name` on its operands (the second one
/// permuted by `bPermutation` if given) followed by `extra` i64 arguments
/// and the flags word.
static void replaceByCall(ModuleOp module, SymbolTable &symbols,
                          linalg::LinalgOp op, StringRef name,
                          ArrayRef<unsigned> bPermutation,
                          function_ref<SmallVector<Value>(OpBuilder &)> extra) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> args;
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    args.push_back(castToDynamic(b, loc, operand,
                                 i == 1 ? bPermutation : ArrayRef<unsigned>{}));
  if (extra)
    llvm::append_range(args, extra(b));
  int64_t flags = 0;
  if (isConstantBuffer(op->getOperand(0)))
    flags |= kConstFirst;
  if (isConstantBuffer(op->getOperand(1)))
    flags |= kConstSecond;
  args.push_back(b.create<arith::ConstantIntOp>(loc, flags, 64));
  auto type = b.getFunctionType(ValueRange(args).getTypes(), {});
  declareKernel(module, symbols, name, type);
  b.create<func::CallOp>(loc, name, TypeRange{}, args);
  op->erase();
}

namespace {
struct ConvertLinalgToKernelCallsPass
    : public onnxc::impl::ConvertLinalgToKernelCallsPassBase<
          ConvertLinalgToKernelCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<linalg::LinalgOp> ops;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::MatmulTransposeBOp,
              linalg::BatchMatmulOp, linalg::BatchMatmulTransposeBOp,
              linalg::Conv2DNchwFchwOp, linalg::DepthwiseConv2DNchwChwOp>(
              op.getOperation()) &&
          isF32OnBuffers(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      llvm::TypeSwitch<Operation *>(op.getOperation())
          .Case([&](linalg::MatmulOp) {
            replaceByCall(module, symbols, op, "onnxc_kernel_matmul_f32", {},
                          nullptr);
          })
          .Case([&](linalg::MatmulTransposeBOp) {
            replaceByCall(module, symbols, op, "onnxc_kernel_matmul_f32",
                          {1, 0}, nullptr);
          })
          .Case([&](linalg::BatchMatmulOp) {
            replaceByCall(module, symbols, op,
                          "onnxc_kernel_batch_matmul_f32", {}, nullptr);
          })
          .Case([&](linalg::BatchMatmulTransposeBOp) {
            replaceByCall(module, symbols, op,
                          "onnxc_kernel_batch_matmul_f32", {0, 2, 1},
                          nullptr);
          })
          .Case([&](linalg::Conv2DNchwFchwOp conv) {
            replaceByCall(module, symbols, op,
                          "onnxc_kernel_conv2d_nchw_fchw_f32", {},
                          [&](OpBuilder &b) {
                            return windowArgs(b, conv.getLoc(),
                                              conv.getStrides(),
                                              conv.getDilations());
                          });
          })
          .Case([&](linalg::DepthwiseConv2DNchwChwOp conv) {
            replaceByCall(module, symbols, op,
                          "onnxc_kernel_depthwise_conv2d_nchw_chw_f32", {},
                          [&](OpBuilder &b) {
                            return windowArgs(b, conv.getLoc(),
                                              conv.getStrides(),
                                              conv.getDilations());
                          });
          });
    }
  }
};
} // namespace
