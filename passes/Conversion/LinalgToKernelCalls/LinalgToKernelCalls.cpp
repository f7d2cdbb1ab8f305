//===- LinalgToKernelCalls.cpp - f32 matmul and conv to runtime kernels ---===//
//
// After bufferization, f32 matmuls and convolutions become calls of the
// CPU kernels (lib/Kernels: gemm/, conv/, copy/). Operands are cast to
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
// call that writes each element of the padded buffer once. A depthwise
// convolution reads a zero padding implicitly instead: its kernel takes the
// image and the pads, and the copy goes; so does a plain convolution of
// small planes (a batch of 8x8 digits) on AVX-512, which calls a direct
// kernel rather than one GEMM per image.
//
// A grouped convolution (conv_2d_ngchw_gfchw, on the channel dims split into
// [group, channels / group]) calls a kernel that runs one GEMM per group.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>
#include <type_traits>

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
  kResidual = 16,
  kHardSwish = 32
};

/// What a convolution's kernel does after the sums: start from `bias`, add
/// `residual`, clamp to [lo, hi]; kernels that take `hardSwishArgs` (alpha,
/// beta) may then apply HardSwish, v * clamp(alpha v + beta, 0, 1), and
/// those with `onnxHardSwish` ONNX's (alpha 1/6, beta 1/2) without args.
struct ConvEpilogue {
  Value bias, residual;
  std::optional<double> lo, hi;
  bool hardSwishArgs = false, onnxHardSwish = false;
  std::optional<std::pair<double, double>> hardSwish;
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

/// The bias that the generic right before `conv` broadcasts along the
/// channels into its output, if there is one: 1-D for an NCHW output, [G,
/// M/G] for a grouped one's [N, G, M/G, H, W].
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
  unsigned rank = generic.getNumLoops();
  if (!biasType || rank < 4 || biasType.getRank() != rank - 3 ||
      !biasType.getLayout().isIdentity() ||
      !biasType.getElementType().isF32() ||
      maps[0] != AffineMap::getMultiDimIdentityMap(rank, conv.getContext())
                     .getSliceMap(1, rank - 3) ||
      !maps[1].isIdentity())
    return;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (yield.getNumOperands() != 1 ||
      yield.getOperand(0) != generic.getBody()->getArgument(0))
    return;
  epilogue.bias = bias;
  epilogue.fused.push_back(generic);
}

/// (alpha, beta) when `body` computes HardSwish of its argument `value`:
/// value * max(min(value * alpha + beta, 1), 0) (ONNX's HardSwish as
/// lowered), and nothing else.
static std::optional<std::pair<double, double>> matchHardSwish(Block *body,
                                                               Value value) {
  auto ops = llvm::to_vector(llvm::map_range(
      body->without_terminator(), [](Operation &op) { return &op; }));
  FloatAttr alpha, beta, one, zero;
  auto isOperands = [](Operation *op, Value lhs, Value rhs) {
    return op->getOperand(0) == lhs && op->getOperand(1) == rhs;
  };
  if (ops.size() != 5 || !isa<arith::MulFOp>(ops[0]) ||
      !isa<arith::AddFOp>(ops[1]) || !isa<arith::MinimumFOp>(ops[2]) ||
      !isa<arith::MaximumFOp>(ops[3]) || !isa<arith::MulFOp>(ops[4]) ||
      ops[0]->getOperand(0) != value ||
      !matchPattern(ops[0]->getOperand(1), m_Constant(&alpha)) ||
      ops[1]->getOperand(0) != ops[0]->getResult(0) ||
      !matchPattern(ops[1]->getOperand(1), m_Constant(&beta)) ||
      ops[2]->getOperand(0) != ops[1]->getResult(0) ||
      !matchPattern(ops[2]->getOperand(1), m_Constant(&one)) ||
      one.getValueAsDouble() != 1.0 ||
      ops[3]->getOperand(0) != ops[2]->getResult(0) ||
      !matchPattern(ops[3]->getOperand(1), m_Constant(&zero)) ||
      zero.getValueAsDouble() != 0.0 ||
      !(isOperands(ops[4], value, ops[3]->getResult(0)) ||
        isOperands(ops[4], ops[3]->getResult(0), value)) ||
      body->getTerminator()->getOperand(0) != ops[4]->getResult(0))
    return std::nullopt;
  return std::make_pair(alpha.getValueAsDouble(), beta.getValueAsDouble());
}

/// The residual add and the clamp of the elementwise op right after `conv`
/// on its output, in place: out = min(max(out [+ other], lo), hi), each part
/// optional; or HardSwish alone where the epilogue takes it.
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
  if ((epilogue.hardSwishArgs || epilogue.onnxHardSwish) && !other) {
    auto hardSwish = matchHardSwish(body, value);
    if (hardSwish && !epilogue.hardSwishArgs &&
        (static_cast<float>(hardSwish->first) != 1.0f / 6.0f ||
         hardSwish->second != 0.5))
      hardSwish.reset();
    if (hardSwish) {
      epilogue.hardSwish = hardSwish;
      epilogue.fused.push_back(generic);
      return;
    }
  }
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
    // A subview at static offsets (a recurrent op's weights of one
    // direction) is one fixed part of the global; at dynamic ones it may be
    // a different part on every call, which is not worth keeping packed.
    if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
      if (!subview.getOffsets().empty())
        return false;
    } else if (!isa<memref::CastOp, memref::CollapseShapeOp,
                    memref::ExpandShapeOp, memref::TransposeOp, memref::ViewOp>(
                   def)) {
      return false;
    }
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
static func::CallOp
replaceByCall(ModuleOp module, SymbolTable &symbols, linalg::LinalgOp op,
              StringRef name, ArrayRef<unsigned> bPermutation,
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
    // The kernels read the bias as one vector (a grouped one is [G, M/G]).
    if (auto type = cast<MemRefType>(bias.getType()); type.getRank() > 1)
      bias = b.create<memref::CollapseShapeOp>(
          loc, bias,
          ArrayRef<ReassociationIndices>{
              llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()))});
    args.push_back(castToDynamic(b, loc, bias));
    args.push_back(castToDynamic(b, loc, residual));
    if (epilogue->bias)
      flags |= kBias;
    if (epilogue->residual)
      flags |= kResidual;
    if (epilogue->lo || epilogue->hi)
      flags |= kClamp;
    if (epilogue->hardSwish)
      flags |= kHardSwish;
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
    SmallVector<double> floats{epilogue->lo.value_or(-inf),
                               epilogue->hi.value_or(inf)};
    if (epilogue->hardSwishArgs)
      floats.append({epilogue->hardSwish ? epilogue->hardSwish->first : 0.0,
                     epilogue->hardSwish ? epilogue->hardSwish->second : 0.0});
    for (double value : floats)
      args.push_back(b.create<arith::ConstantFloatOp>(
          loc, APFloat(static_cast<float>(value)), b.getF32Type()));
  }
  auto type = b.getFunctionType(ValueRange(args).getTypes(), {});
  declareKernel(module, symbols, name, type);
  auto call = b.create<func::CallOp>(loc, name, TypeRange{}, args);
  op->erase();
  if (epilogue)
    for (Operation *fused : epilogue->fused)
      fused->erase();
  return call;
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

/// The epilogue that a convolution `op` can take along (HardSwish: see
/// ConvEpilogue).
static ConvEpilogue matchEpilogue(linalg::LinalgOp op, bool hardSwishArgs,
                                  bool onnxHardSwish) {
  reuseConsumerBuffer(op);
  ConvEpilogue epilogue;
  epilogue.hardSwishArgs = hardSwishArgs;
  epilogue.onnxHardSwish = onnxHardSwish;
  matchBias(op, epilogue);
  matchActivation(op, epilogue);
  return epilogue;
}

/// The zero padding that a convolution can read implicitly: the call of
/// onnxc_kernel_pad_f32 that fills its input X (a local buffer that only
/// that call, the convolution and deallocations use) from `source`, with
/// nothing between the two that writes memory other than the convolution's
/// output (its bias broadcast).
struct ImplicitPad {
  func::CallOp pad;
  Value source, top, left;
  /// The call frees `source` (the convolution's former output).
  bool freeSource;
};

/// When the image that `pad` copies is the buffer `out` that the
/// convolution `conv` then writes (bufferization reuses it once the copy is
/// done), gives the convolution and what follows it a new buffer instead,
/// so that the kernel can read the image while it writes (and then frees
/// it). False (and nothing changed) when that cannot be done.
static bool renameOutputAfterPad(func::CallOp pad, linalg::LinalgOp conv,
                                 Value out) {
  auto alloc = out.getDefiningOp<memref::AllocOp>();
  Block *block = conv->getBlock();
  if (!alloc || alloc->getBlock() != block ||
      !isa<func::FuncOp>(conv->getParentOp()))
    return false;
  // The first writer of `out` after the copy overwrites it all, so that
  // nothing after the copy reads what it held.
  Operation *start = nullptr;
  for (Operation *it = pad->getNextNode(); it; it = it->getNextNode())
    if (llvm::is_contained(it->getOperands(), out)) {
      start = it;
      break;
    }
  if (!start || start == conv.getOperation() || !overwrites(start, out))
    return false;
  // `out` is used directly: no view of it made before the copy is used
  // after it, and it is freed only by plain deallocations.
  for (Operation *user : out.getUsers()) {
    Operation *at = block->findAncestorOpInBlock(*user);
    if (!at || (at != user && !isa<memref::DeallocOp>(user) &&
                !at->isBeforeInBlock(pad)))
      return false;
    if (at->isBeforeInBlock(pad) && isa<ViewLikeOpInterface>(user) &&
        llvm::any_of(user->getUsers(), [&](Operation *viewUser) {
          Operation *viewAt = block->findAncestorOpInBlock(*viewUser);
          return !viewAt || !viewAt->isBeforeInBlock(start);
        }))
      return false;
  }
  OpBuilder b(start);
  auto fresh = cast<memref::AllocOp>(b.clone(*alloc));
  // (An op may use `out` more than once: the users are collected first.)
  llvm::SetVector<Operation *> users(out.user_begin(), out.user_end());
  for (Operation *user : users)
    if (Operation *at = block->findAncestorOpInBlock(*user);
        at == start || start->isBeforeInBlock(at))
      user->replaceUsesOfWith(out, fresh);
  return true;
}

/// The implicit padding of `conv`, if it can take one (giving it a new
/// output buffer where renameOutputAfterPad must).
static std::optional<ImplicitPad> takeImplicitPad(linalg::LinalgOp conv) {
  Value x = conv.getDpsInputs()[0];
  if (!x.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  func::CallOp pad;
  for (Operation *user : x.getUsers()) {
    if (user == conv.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    auto cast = dyn_cast<memref::CastOp>(user);
    auto call = cast && cast->hasOneUse()
                    ? dyn_cast<func::CallOp>(*cast->user_begin())
                    : func::CallOp();
    if (pad || !call || call.getCallee() != "onnxc_kernel_pad_f32" ||
        call.getOperand(1) != cast.getResult())
      return std::nullopt;
    pad = call;
  }
  FloatAttr value;
  if (!pad || pad->getBlock() != conv->getBlock() ||
      !pad->isBeforeInBlock(conv) ||
      !matchPattern(pad.getOperand(4), m_Constant(&value)) ||
      !value.getValue().isZero())
    return std::nullopt;
  Value out = conv.getDpsInits()[0];
  for (Operation *it = pad->getNextNode(); it != conv.getOperation();
       it = it->getNextNode()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(it);
    if (isMemoryEffectFree(it) || isa<memref::AllocOp>(it) ||
        (linalgOp && linalgOp.hasPureBufferSemantics() &&
         llvm::all_of(linalgOp.getDpsInits(),
                      [&](Value init) { return init == out; }) &&
         !llvm::is_contained(linalgOp.getDpsInputs(), out)))
      continue;
    return std::nullopt;
  }
  Value source = pad.getOperand(0);
  if (auto cast = source.getDefiningOp<memref::CastOp>())
    source = cast.getSource();
  bool renamed = source == out;
  if (renamed && !renameOutputAfterPad(pad, conv, out))
    return std::nullopt;
  if (source != out && !isa<BlockArgument>(source) &&
      !isa_and_nonnull<memref::AllocOp, memref::GetGlobalOp>(
          source.getDefiningOp()))
    return std::nullopt;
  return ImplicitPad{pad, source, pad.getOperand(2), pad.getOperand(3),
                     renamed};
}

/// How a plain convolution of small planes reads its image, when
/// onnxc_kernel_conv2d_small_nchw_fchw_f32 suits it: stride and dilation 1,
/// static shapes but the batch, an output plane of 16 to 64 pixels (one to
/// four vectors, mostly full) the size of the image before any zero
/// padding, and at most 2^18 multiply-adds per image (beyond that the
/// GEMM's tiles pay for their packing). True: through a padded copy (which
/// must be read implicitly); false: as it is (no padding).
static std::optional<bool> smallPlaneConv(linalg::Conv2DNchwFchwOp conv) {
  auto outType = cast<MemRefType>(conv.getDpsInits()[0].getType());
  auto wType = cast<MemRefType>(conv.getDpsInputs()[1].getType());
  auto isOne = [](int64_t v) { return v == 1; };
  if (llvm::any_of(outType.getShape().drop_front(), ShapedType::isDynamic) ||
      !wType.hasStaticShape() ||
      !llvm::all_of(conv.getStrides().getValues<int64_t>(), isOne) ||
      !llvm::all_of(conv.getDilations().getValues<int64_t>(), isOne))
    return std::nullopt;
  int64_t plane = outType.getDimSize(2) * outType.getDimSize(3);
  if (plane < 16 || plane > 64 ||
      wType.getNumElements() * plane > (int64_t{1} << 18))
    return std::nullopt;
  // The image: the source of the padded copy that fills the input, if any.
  Value image = conv.getDpsInputs()[0];
  bool padded = false;
  for (Operation *user : image.getUsers()) {
    auto cast = dyn_cast<memref::CastOp>(user);
    auto call = cast && cast->hasOneUse()
                    ? dyn_cast<func::CallOp>(*cast->user_begin())
                    : func::CallOp();
    if (call && call.getCallee() == "onnxc_kernel_pad_f32" &&
        call.getOperand(1) == cast.getResult()) {
      image = call.getOperand(0);
      padded = true;
      break;
    }
  }
  if (auto cast = image.getDefiningOp<memref::CastOp>())
    image = cast.getSource();
  auto imageType = dyn_cast<MemRefType>(image.getType());
  if (!imageType || imageType.getRank() != 4 ||
      imageType.getShape().drop_front(2) != outType.getShape().drop_front(2))
    return std::nullopt;
  return padded;
}

/// Replaces the 2-D convolution `conv` by a call of `name` that takes its
/// epilogue along, then its strides and dilations; a `depthwise` kernel
/// then takes the rows and columns of zeros that it reads before its input
/// (those of a padded copy it can read implicitly, which then goes, or
/// none), and after the clamp's bounds HardSwish's alpha and beta. With a
/// `smallName`, a plain convolution of small planes (smallPlaneConv) calls
/// that kernel instead, which takes the zeros too (but no alpha or beta),
/// unless its padded copy cannot be read implicitly.
template <typename ConvOp>
static void
replaceConvByCall(ModuleOp module, SymbolTable &symbols, ConvOp conv,
                  StringRef name, bool depthwise = false,
                  bool onnxHardSwish = false, StringRef smallName = {}) {
  bool padArgs = depthwise;
  std::optional<ImplicitPad> pad;
  Value padded = conv.getDpsInputs()[0];
  if (padArgs && (pad = takeImplicitPad(conv)))
    // The call reads the unpadded image; the op goes right after.
    conv->setOperand(0, pad->source);
  std::optional<bool> small;
  if constexpr (std::is_same_v<ConvOp, linalg::Conv2DNchwFchwOp>)
    if (!smallName.empty())
      small = smallPlaneConv(conv);
  if (small && (!*small || (pad = takeImplicitPad(conv)))) {
    if (pad)
      conv->setOperand(0, pad->source);
    name = smallName;
    padArgs = true;
  }
  ConvEpilogue epilogue = matchEpilogue(conv, depthwise, onnxHardSwish);
  func::CallOp call = replaceByCall(
      module, symbols, conv, name, {},
      [&](OpBuilder &b) {
        SmallVector<Value> args = windowArgs(
            b, conv.getLoc(), conv.getStrides(), conv.getDilations());
        if (pad) {
          args.append({pad->top, pad->left});
        } else if (padArgs) {
          Value zero = b.create<arith::ConstantIntOp>(conv.getLoc(), 0, 64);
          args.append({zero, zero});
        }
        return args;
      },
      &epilogue);
  if (!pad)
    return;
  if (pad->freeSource)
    OpBuilder(call->getBlock(), std::next(call->getIterator()))
        .create<memref::DeallocOp>(call.getLoc(), pad->source);
  Operation *cast = pad->pad.getOperand(1).getDefiningOp();
  pad->pad->erase();
  cast->erase();
  for (Operation *user : llvm::make_early_inc_range(padded.getUsers()))
    user->erase();
  padded.getDefiningOp()->erase();
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
/// changed) where B is not a constant the packer can read or A has at most
/// ONNXC_GEMV_MAX_ROWS rows.
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
  // A few rows (batch-1 fully connected layers, recurrent steps) run in the
  // runtime's GEMV, which packs B in its own layout.
  if (!ShapedType::isDynamic(m) && m <= ONNXC_GEMV_MAX_ROWS)
    return false;
  OnnxcGemmTile tile =
      onnxcGemmPrefersWide(isa, ShapedType::isDynamic(m) ? 0 : m, n)
          ? onnxcGemmWideTile()
          : onnxcGemmDefaultTile(isa);
  int64_t kcBlock = onnxcGemmBlockK(tile.kc, k);
  memref::GlobalOp packed = getPackedMatrix(
      module, symbols, *matrix, k, n, transposed, tile.nr, kcBlock, cache);
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
              linalg::Conv2DNchwFchwOp, linalg::Conv2DNgchwGfchwOp,
              linalg::DepthwiseConv2DNchwChwOp>(op.getOperation()) &&
          onnxc::isF32OnBuffers(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      llvm::TypeSwitch<Operation *>(op.getOperation())
          .Case([&](linalg::MatmulOp) {
            if (!gemmIsa || !replaceByPackedCall(module, symbols, op, false,
                                                 *gemmIsa, packed))
              replaceByCall(module, symbols, op, "onnxc_kernel_matmul_f32", {},
                            nullptr);
          })
          .Case([&](linalg::MatmulTransposeBOp) {
            if (!gemmIsa || !replaceByPackedCall(module, symbols, op, true,
                                                 *gemmIsa, packed))
              replaceByCall(module, symbols, op, "onnxc_kernel_matmul_f32",
                            {1, 0}, nullptr);
          })
          .Case([&](linalg::BatchMatmulOp) {
            replaceByCall(module, symbols, op, "onnxc_kernel_batch_matmul_f32",
                          {}, nullptr);
          })
          .Case([&](linalg::BatchMatmulTransposeBOp) {
            replaceByCall(module, symbols, op, "onnxc_kernel_batch_matmul_f32",
                          {0, 2, 1}, nullptr);
          })
          .Case([&](linalg::Conv2DNchwFchwOp conv) {
            // (The small-plane kernel is AVX-512 only; elsewhere it would
            // run its plain loop.)
            replaceConvByCall(module, symbols, conv,
                              "onnxc_kernel_conv2d_nchw_fchw_f32",
                              /*depthwise=*/false, /*onnxHardSwish=*/true,
                              gemmIsa == ONNXC_GEMM_ISA_AVX512
                                  ? "onnxc_kernel_conv2d_small_nchw_fchw_f32"
                                  : "");
          })
          .Case([&](linalg::Conv2DNgchwGfchwOp conv) {
            replaceConvByCall(module, symbols, conv,
                              "onnxc_kernel_conv2d_ngchw_gfchw_f32");
          })
          .Case([&](linalg::DepthwiseConv2DNchwChwOp conv) {
            replaceConvByCall(module, symbols, conv,
                              "onnxc_kernel_depthwise_conv2d_nchw_chw_f32",
                              /*depthwise=*/true);
          });
    }
  }
};
} // namespace
