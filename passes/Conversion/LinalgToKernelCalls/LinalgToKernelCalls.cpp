//===- LinalgToKernelCalls.cpp - f32 matmul and conv to runtime kernels ---===//
//
// After bufferization, f32 matmuls and convolutions become calls of the
// runtime's packed kernels (lib/Runtime/Kernels.c). Operands are cast to
// fully dynamic strided memrefs, so the call passes each descriptor expanded
// (allocated, aligned, offset, sizes, strides); a transposed operand is a
// memref.transpose view, which the kernels read through its strides.
//
// A convolution takes its epilogue along: the broadcast of a bias that
// initializes its output just before it, and the elementwise op just after
// it that adds a residual and clamps (Relu, Clip) in place on its output.
// The kernel then writes each output once.
//
// A padded copy of an NCHW f32 image (a buffer filled with a constant, or a
// copy of such a buffer, then the image copied into its interior) becomes one
// call that writes each element of the padded buffer once.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

namespace onnxc {
#define GEN_PASS_DEF_CONVERTLINALGTOKERNELCALLSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;

/// Bits of a kernel's flags word: clamp the result (matmuls: max(., 0), not
/// set here yet), the first / second input is a constant (its packed form
/// may be kept across calls), the output starts from a bias, a residual is
/// added.
enum KernelFlags : int64_t {
  kClamp = 1,
  kConstFirst = 2,
  kConstSecond = 4,
  kBias = 8,
  kResidual = 16
};

/// What a convolution's kernel does after the sums: start from `bias`, add
/// `residual`, clamp to [lo, hi].
struct ConvEpilogue {
  Value bias, residual;
  std::optional<double> lo, hi;
  SmallVector<Operation *> fused; // the ops the kernel replaces
};

/// The nearest op before (`forward` false) or after `op` in its block that
/// may touch memory, skipping pure ops and allocations.
static Operation *adjacentEffectful(Operation *op, bool forward) {
  for (Operation *it = forward ? op->getNextNode() : op->getPrevNode(); it;
       it = forward ? it->getNextNode() : it->getPrevNode())
    if (!isMemoryEffectFree(it) && !isa<memref::AllocOp>(it))
      return it;
  return nullptr;
}

/// True when `generic` is all parallel with identity maps on `out` only.
static bool isInPlaceElementwise(linalg::GenericOp generic, Value out) {
  return generic && generic.getNumDpsInits() == 1 &&
         generic.getDpsInits()[0] == out &&
         generic.getNumLoops() == generic.getNumParallelLoops() &&
         llvm::all_of(generic.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); });
}

/// The 1-D bias that the generic right before `conv` broadcasts along the
/// channels into its output, if there is one.
static void matchBias(linalg::LinalgOp conv, ConvEpilogue &epilogue) {
  Value out = conv.getDpsInits()[0];
  auto generic =
      dyn_cast_or_null<linalg::GenericOp>(adjacentEffectful(conv, false));
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || generic.getDpsInits()[0] != out ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return;
  Value bias = generic.getDpsInputs()[0];
  auto biasType = dyn_cast<MemRefType>(bias.getType());
  auto maps = generic.getIndexingMapsArray();
  MLIRContext *ctx = conv.getContext();
  if (!biasType || biasType.getRank() != 1 ||
      !biasType.getLayout().isIdentity() ||
      !biasType.getElementType().isF32() ||
      maps[0] != AffineMap::get(4, 0, getAffineDimExpr(1, ctx)) ||
      !maps[1].isIdentity())
    return;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (yield.getNumOperands() != 1 ||
      yield.getOperand(0) != generic.getBody()->getArgument(0))
    return;
  epilogue.bias = bias;
  epilogue.fused.push_back(generic);
}

/// The residual add and the clamp of the elementwise op right after `conv`
/// on its output, in place: out = min(max(out [+ other], lo), hi), each part
/// optional.
static void matchActivation(linalg::LinalgOp conv, ConvEpilogue &epilogue) {
  Value out = conv.getDpsInits()[0];
  auto generic =
      dyn_cast_or_null<linalg::GenericOp>(adjacentEffectful(conv, true));
  if (!isInPlaceElementwise(generic, out) || generic.getNumDpsInputs() > 2)
    return;
  Block *body = generic.getBody();
  Value value, other;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    Value arg = body->getArgument(input->getOperandNumber());
    if (input->get() == out && !value)
      value = arg;
    else if (input->get() != out && !other &&
             input->get().getType() == out.getType() &&
             cast<MemRefType>(out.getType()).getLayout().isIdentity())
      other = arg;
    else
      return;
  }
  if (!value)
    return;
  Value residual;
  std::optional<double> lo, hi;
  for (Operation &op : body->without_terminator()) {
    FloatAttr constant;
    if (auto add = dyn_cast<arith::AddFOp>(op);
        add && other && !residual && !lo && !hi &&
        ((add.getLhs() == value && add.getRhs() == other) ||
         (add.getRhs() == value && add.getLhs() == other))) {
      residual = other;
    } else if (auto max = dyn_cast<arith::MaximumFOp>(op);
               max && !lo && !hi && max.getLhs() == value &&
               matchPattern(max.getRhs(), m_Constant(&constant))) {
      lo = constant.getValueAsDouble();
    } else if (auto min = dyn_cast<arith::MinimumFOp>(op);
               min && !hi && min.getLhs() == value &&
               matchPattern(min.getRhs(), m_Constant(&constant))) {
      hi = constant.getValueAsDouble();
    } else {
      return;
    }
    value = op.getResult(0);
  }
  if (body->getTerminator()->getOperand(0) != value || (other && !residual))
    return;
  if (residual)
    epilogue.residual =
        generic.getDpsInputs()[cast<BlockArgument>(residual).getArgNumber()];
  epilogue.lo = lo;
  epilogue.hi = hi;
  epilogue.fused.push_back(generic);
}

bool onnxc::isConstantBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto global = dyn_cast<memref::GetGlobalOp>(def)) {
      auto module = def->getParentOfType<ModuleOp>();
      auto op = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          module, global.getNameAttr());
      return op && op.getConstant();
    }
    if (!isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
             memref::TransposeOp, memref::ViewOp>(def))
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

bool onnxc::isF32OnBuffers(linalg::LinalgOp op) {
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

/// A one-element constant global that stands for an absent bias.
static Value getNoBias(OpBuilder &b, Location loc, ModuleOp module,
                       SymbolTable &symbols) {
  StringRef name = "__onnxc_no_bias";
  auto type = MemRefType::get({1}, b.getF32Type());
  if (!symbols.lookup(name)) {
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    auto global = top.create<memref::GlobalOp>(
        loc, name, top.getStringAttr("private"), type,
        DenseElementsAttr::get(RankedTensorType::get({1}, b.getF32Type()),
                               0.0f),
        /*constant=*/true, /*alignment=*/nullptr);
    symbols.insert(global);
  }
  return b.create<memref::GetGlobalOp>(loc, type, name);
}

/// Replaces `op` by a call of `name` on its operands (the second one
/// permuted by `bPermutation` if given), then with an `epilogue` its bias
/// and residual, then `extra` i64 arguments and the flags word, then with
/// an `epilogue` the clamp's bounds (f32). The ops of the epilogue go.
static void replaceByCall(ModuleOp module, SymbolTable &symbols,
                          linalg::LinalgOp op, StringRef name,
                          ArrayRef<unsigned> bPermutation,
                          function_ref<SmallVector<Value>(OpBuilder &)> extra,
                          const ConvEpilogue *epilogue = nullptr) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> args;
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    args.push_back(castToDynamic(b, loc, operand,
                                 i == 1 ? bPermutation : ArrayRef<unsigned>{}));
  int64_t flags = 0;
  if (epilogue) {
    Value bias =
        epilogue->bias ? epilogue->bias : getNoBias(b, loc, module, symbols);
    Value residual =
        epilogue->residual ? epilogue->residual : op.getDpsInits()[0];
    args.push_back(castToDynamic(b, loc, bias));
    args.push_back(castToDynamic(b, loc, residual));
    if (epilogue->bias)
      flags |= kBias;
    if (epilogue->residual)
      flags |= kResidual;
    if (epilogue->lo || epilogue->hi)
      flags |= kClamp;
  }
  if (extra)
    llvm::append_range(args, extra(b));
  if (isConstantBuffer(op->getOperand(0)))
    flags |= kConstFirst;
  if (isConstantBuffer(op->getOperand(1)))
    flags |= kConstSecond;
  args.push_back(b.create<arith::ConstantIntOp>(loc, flags, 64));
  if (epilogue) {
    double inf = std::numeric_limits<double>::infinity();
    for (double bound :
         {epilogue->lo.value_or(-inf), epilogue->hi.value_or(inf)})
      args.push_back(b.create<arith::ConstantFloatOp>(
          loc, APFloat(static_cast<float>(bound)), b.getF32Type()));
  }
  auto type = b.getFunctionType(ValueRange(args).getTypes(), {});
  declareKernel(module, symbols, name, type);
  b.create<func::CallOp>(loc, name, TypeRange{}, args);
  op->erase();
  if (epilogue)
    for (Operation *fused : epilogue->fused)
      fused->erase();
}

/// True when `op` writes all of `buffer` without reading it first: a fill,
/// or an elementwise generic whose only output it is, that reads neither it
/// nor its own output.
static bool overwrites(Operation *op, Value buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getDpsInits()[0] == buffer;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumDpsInits() == 1 &&
         generic.getDpsInits()[0] == buffer &&
         !llvm::is_contained(generic.getDpsInputs(), buffer) &&
         generic.getNumLoops() == generic.getNumParallelLoops() &&
         generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
             .isPermutation() &&
         generic.getMatchingBlockArgument(generic.getDpsInitOperand(0))
             .use_empty();
}

/// When the elementwise op right after `conv` reads its output X (a local
/// allocation) into a new buffer Z of the same type, makes the convolution
/// (and the bias before it) write Z instead, so that the op works in place
/// and can join the epilogue; X goes if nothing else uses it.
static void reuseConsumerBuffer(linalg::LinalgOp conv) {
  Value x = conv.getDpsInits()[0];
  auto xAlloc = x.getDefiningOp<memref::AllocOp>();
  auto generic =
      dyn_cast_or_null<linalg::GenericOp>(adjacentEffectful(conv, true));
  // Straight-line code only: in a loop, X's earlier users would run again
  // after the convolution.
  if (!xAlloc || !generic || generic.getNumDpsInits() != 1 ||
      !llvm::is_contained(generic.getDpsInputs(), x) ||
      !isa<func::FuncOp>(conv->getParentOp()))
    return;
  Value z = generic.getDpsInits()[0];
  auto zAlloc = z.getDefiningOp<memref::AllocOp>();
  Block *block = conv->getBlock();
  if (!zAlloc || z.getType() != x.getType() || zAlloc->getBlock() != block ||
      llvm::is_contained(generic.getDpsInputs(), z) ||
      !generic.getMatchingBlockArgument(generic.getDpsInitOperand(0))
           .use_empty())
    return;
  // Where the writes of X begin: the bias broadcast (or zero fill) right
  // before the convolution, which overwrites it; Z's sizes must be known
  // there.
  Operation *start = adjacentEffectful(conv, false);
  if (!start || !overwrites(start, x))
    return;
  for (Value size : zAlloc.getOperands())
    if (Operation *def = size.getDefiningOp();
        def && (def->getBlock() != block || !def->isBeforeInBlock(start)))
      return;
  // Z, if it exists before, must not be touched from there to the op.
  for (Operation *user : z.getUsers()) {
    Operation *at = block->findAncestorOpInBlock(*user);
    if (!at || (at != generic && !at->isBeforeInBlock(start) &&
                at->isBeforeInBlock(generic)))
      return;
  }
  // X may be a buffer that other convolutions reuse: its users before
  // `start` are done with it, and its next user after `generic` must free or
  // overwrite it; nothing else may touch it in between.
  Operation *next = nullptr;
  bool onlyFreed = true;
  for (Operation *user : x.getUsers()) {
    Operation *at = block->findAncestorOpInBlock(*user);
    if (!at)
      return;
    if (at == start || at == conv || at == generic)
      continue;
    onlyFreed &= isa<memref::DeallocOp>(user);
    if (at->isBeforeInBlock(start))
      continue;
    if (at->isBeforeInBlock(generic))
      return;
    if (!next || at->isBeforeInBlock(next))
      next = at;
  }
  if (next && !isa<memref::DeallocOp>(next) && !overwrites(next, x))
    return;
  if (start->isBeforeInBlock(zAlloc))
    zAlloc->moveBefore(start);
  for (Operation *op : {start, static_cast<Operation *>(conv),
                        static_cast<Operation *>(generic)})
    op->replaceUsesOfWith(x, z);
  if (!onlyFreed)
    return;
  for (Operation *user : llvm::make_early_inc_range(x.getUsers()))
    user->erase();
  xAlloc->erase();
}

/// The epilogue that a convolution `op` can take along.
static ConvEpilogue matchEpilogue(linalg::LinalgOp op) {
  reuseConsumerBuffer(op);
  ConvEpilogue epilogue;
  matchBias(op, epilogue);
  matchActivation(op, epilogue);
  return epilogue;
}

/// The constant that `buffer` is filled with by `op`, a linalg.fill of the
/// whole buffer.
static std::optional<double> fillValue(Operation *op, Value buffer) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  FloatAttr value;
  if (!fill || fill.getDpsInits()[0] != buffer ||
      !matchPattern(fill.getDpsInputs()[0], m_Constant(&value)))
    return std::nullopt;
  return value.getValueAsDouble();
}

/// The op before `op` in its block that uses `buffer` other than for its
/// sizes, or null.
static Operation *previousUse(Operation *op, Value buffer) {
  for (Operation *it = op->getPrevNode(); it; it = it->getPrevNode())
    if (!isa<memref::DimOp>(it) &&
        llvm::is_contained(it->getOperands(), buffer))
      return it;
  return nullptr;
}

/// Rewrites `copy` of an f32 image into the interior of a rank-4 buffer X
/// whose contents are a constant (filled, or copied from a filled buffer,
/// with no use of X in between but the interior's view) as a call of
/// onnxc_kernel_pad_f32(image, X, top, left, value); the fill or the copy
/// that made X goes, and so does a filled buffer that nothing reads any
/// more.
static void rewritePaddedCopy(ModuleOp module, SymbolTable &symbols,
                              memref::CopyOp copy) {
  auto view = copy.getTarget().getDefiningOp<memref::SubViewOp>();
  if (!view || !view->hasOneUse())
    return;
  Value x = view.getSource();
  auto type = dyn_cast<MemRefType>(x.getType());
  auto srcType = dyn_cast<MemRefType>(copy.getSource().getType());
  if (!type || !srcType || type.getRank() != 4 ||
      !type.getElementType().isF32() || !type.getLayout().isIdentity() ||
      !x.getDefiningOp<memref::AllocOp>() ||
      view->getBlock() != copy->getBlock())
    return;
  ArrayRef<int64_t> offsets = view.getStaticOffsets();
  if (offsets[0] != 0 || offsets[1] != 0 ||
      llvm::any_of(offsets, ShapedType::isDynamic) ||
      !llvm::all_of(view.getStaticStrides(),
                    [](int64_t stride) { return stride == 1; }) ||
      view.getStaticSizes()[1] != type.getDimSize(1))
    return;
  // What X holds before: the op before the view that uses X.
  Operation *maker = previousUse(view, x);
  std::optional<double> value = fillValue(maker, x);
  Value filled;
  if (!value) {
    auto made = dyn_cast_or_null<memref::CopyOp>(maker);
    if (!made || made.getTarget() != x)
      return;
    filled = made.getSource();
    value = fillValue(previousUse(made, filled), filled);
    if (!value || !filled.getDefiningOp<memref::AllocOp>())
      return;
  }
  // No use of X between the maker and the copy but the view.
  for (Operation *it = maker->getNextNode(); it != copy; it = it->getNextNode())
    if (it != view && !isa<memref::DimOp>(it) &&
        llvm::is_contained(it->getOperands(), x))
      return;

  OpBuilder b(copy);
  Location loc = copy.getLoc();
  SmallVector<Value> args = {castToDynamic(b, loc, copy.getSource()),
                             castToDynamic(b, loc, x)};
  for (int64_t offset : offsets.drop_front(2))
    args.push_back(b.create<arith::ConstantIntOp>(loc, offset, 64));
  args.push_back(b.create<arith::ConstantFloatOp>(
      loc, APFloat(static_cast<float>(*value)), b.getF32Type()));
  StringRef name = "onnxc_kernel_pad_f32";
  declareKernel(module, symbols, name,
                b.getFunctionType(ValueRange(args).getTypes(), {}));
  b.create<func::CallOp>(loc, name, TypeRange{}, args);
  copy->erase();
  view->erase();
  maker->erase();
  // A filled buffer now only filled, measured and freed goes too.
  if (!filled || !llvm::all_of(filled.getUsers(), [](Operation *user) {
        auto dim = dyn_cast<memref::DimOp>(user);
        return isa<linalg::FillOp, memref::DeallocOp>(user) ||
               (dim && dim.getConstantIndex());
      }))
    return;
  auto alloc = filled.getDefiningOp<memref::AllocOp>();
  for (Operation *user : llvm::make_early_inc_range(filled.getUsers())) {
    if (auto dim = dyn_cast<memref::DimOp>(user)) {
      OpBuilder at(dim);
      dim.replaceAllUsesWith(getValueOrCreateConstantIndexOp(
          at, dim.getLoc(), alloc.getMixedSizes()[*dim.getConstantIndex()]));
    }
    user->erase();
  }
  alloc->erase();
}

/// Replaces the matmul `op` (its B transposed with `transposed`) whose B is
/// a constant matrix by a call of onnxc_kernel_matmul_packed_f32 on B packed
/// for the kernel of `isa` that suits the product's shape; false (nothing
/// changed) where B is not a constant the packer can read.
static bool replaceByPackedCall(ModuleOp module, SymbolTable &symbols,
                                linalg::LinalgOp op, bool transposed,
                                OnnxcGemmIsa isa, PackedGlobals &cache) {
  std::optional<ConstantMatrix> matrix = matchConstantMatrix(op->getOperand(1));
  if (!matrix)
    return false;
  auto aType = cast<MemRefType>(op->getOperand(0).getType());
  auto bType = cast<MemRefType>(op->getOperand(1).getType());
  int64_t k = bType.getDimSize(transposed ? 1 : 0);
  int64_t n = bType.getDimSize(transposed ? 0 : 1);
  int64_t m = aType.getDimSize(0);
  if (k == 0 || n == 0)
    return false;
  OnnxcGemmTile tile =
      onnxcGemmPrefersWide(isa, ShapedType::isDynamic(m) ? 0 : m, n)
          ? onnxcGemmWideTile()
          : onnxcGemmDefaultTile(isa);
  int64_t kcBlock = onnxcGemmBlockK(tile.kc, k);
  memref::GlobalOp packed = getPackedMatrix(module, symbols, *matrix, k, n,
                                            transposed, tile.nr, kcBlock, cache);
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value raw =
      b.create<memref::GetGlobalOp>(loc, packed.getType(), packed.getSymName());
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  auto floatsType =
      MemRefType::get({onnxcGemmPackedBSize(k, n, tile.nr)}, b.getF32Type());
  Value floats =
      b.create<memref::ViewOp>(loc, floatsType, raw, zero, ValueRange{});
  SmallVector<Value> args = {castToDynamic(b, loc, op->getOperand(0)),
                             castToDynamic(b, loc, floats),
                             castToDynamic(b, loc, op.getDpsInits()[0])};
  int64_t flags = isConstantBuffer(op->getOperand(0)) ? kConstFirst : 0;
  for (int64_t v : {n, static_cast<int64_t>(tile.nr), kcBlock, flags})
    args.push_back(b.create<arith::ConstantIntOp>(loc, v, 64));
  StringRef name = "onnxc_kernel_matmul_packed_f32";
  declareKernel(module, symbols, name,
                b.getFunctionType(ValueRange(args).getTypes(), {}));
  b.create<func::CallOp>(loc, name, TypeRange{}, args);
  op->erase();
  eraseDeadViews(matrix->views, symbols, module);
  return true;
}

namespace {
struct ConvertLinalgToKernelCallsPass
    : public onnxc::impl::ConvertLinalgToKernelCallsPassBase<
          ConvertLinalgToKernelCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<OnnxcGemmIsa> gemmIsa;
    if (Attribute attr = module->getAttr(kGemmIsaAttrName)) {
      auto name = dyn_cast<StringAttr>(attr);
      gemmIsa = name ? parseGemmIsa(name.getValue()) : std::nullopt;
      if (!gemmIsa) {
        module.emitError() << "expects '" << kGemmIsaAttrName
                           << "' to be one of \"avx512\", \"avx2\", "
                              "\"neon\", \"generic\" (got "
                           << attr << ")";
        return signalPassFailure();
      }
    }
    PackedGlobals packed;
    SymbolTable symbols(module);
    SmallVector<memref::CopyOp> copies;
    module.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies)
      rewritePaddedCopy(module, symbols, copy);
    SmallVector<linalg::LinalgOp> ops;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::MatmulTransposeBOp,
              linalg::BatchMatmulOp, linalg::BatchMatmulTransposeBOp,
              linalg::Conv2DNchwFchwOp, linalg::DepthwiseConv2DNchwChwOp>(
              op.getOperation()) &&
          onnxc::isF32OnBuffers(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      llvm::TypeSwitch<Operation *>(op.getOperation())
          .Case([&](linalg::MatmulOp) {
            if (!gemmIsa || !replaceByPackedCall(module, symbols, op, false,
                                                 *gemmIsa,
                                             packed))
              replaceByCall(module, symbols, op, "onnxc_kernel_matmul_f32",
                            {}, nullptr);
          })
          .Case([&](linalg::MatmulTransposeBOp) {
            if (!gemmIsa || !replaceByPackedCall(module, symbols, op, true,
                                                 *gemmIsa,
                                             packed))
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
            ConvEpilogue epilogue = matchEpilogue(op);
            replaceByCall(
                module, symbols, op, "onnxc_kernel_conv2d_nchw_fchw_f32", {},
                [&](OpBuilder &b) {
                  return windowArgs(b, conv.getLoc(), conv.getStrides(),
                                    conv.getDilations());
                },
                &epilogue);
          })
          .Case([&](linalg::DepthwiseConv2DNchwChwOp conv) {
            ConvEpilogue epilogue = matchEpilogue(op);
            replaceByCall(
                module, symbols, op,
                "onnxc_kernel_depthwise_conv2d_nchw_chw_f32", {},
                [&](OpBuilder &b) {
                  return windowArgs(b, conv.getLoc(), conv.getStrides(),
                                    conv.getDilations());
                },
                &epilogue);
          });
    }
  }
};
} // namespace
