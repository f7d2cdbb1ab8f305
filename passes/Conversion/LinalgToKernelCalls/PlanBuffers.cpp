//===- PlanBuffers.cpp - A function's temporary buffers in one arena ------===//
//
// Every temporary buffer of a function body (a static memref.alloc with its
// memref.dealloc in the same block) becomes a view at a fixed offset of one
// arena, placed so that buffers alive at the same time never overlap; the
// arena comes from the runtime once per call (see the pass description in
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "KernelCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace onnxc {
#define GEN_PASS_DEF_PLANBUFFERSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
/// The offsets of the arena are multiples of this (the alignment the
/// bufferization asks for and the kernels' vector loads like).
constexpr int64_t kArenaAlignment = 64;

/// A temporary buffer: its alloc and dealloc, its size (rounded up to the
/// alignment; per unit of the scale for a scaled one), when it lives
/// (positions in the block, both ends included) and its place in the arena.
struct Temporary {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t bytes, first, last, offset = 0;
};
} // namespace

/// The size in bytes of what `alloc` allocates, when it can live in an
/// arena: a static shape or one dynamic dim (then the size per unit of it),
/// the identity layout, the default memory space, whole-byte ints or
/// floats, no alignment beyond the arena's.
static std::optional<int64_t> arenaBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  Type element = type.getElementType();
  if (type.getNumDynamicDims() > 1 || !alloc.getSymbolOperands().empty() ||
      !type.getLayout().isIdentity() || type.getMemorySpace() ||
      !(isa<FloatType>(element) || element.isSignlessInteger()) ||
      element.getIntOrFloatBitWidth() % 8 != 0 ||
      alloc.getAlignment().value_or(1) > kArenaAlignment)
    return std::nullopt;
  // Past 1 TiB (a model's absurd dims; the product may not even fit in 64
  // bits) a buffer is no arena's: it stays an alloc, which fails at run
  // time with a message, and the arena's offsets cannot overflow.
  constexpr int64_t kMaxArenaBytes = int64_t(1) << 40;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  for (int64_t dim : type.getShape())
    if (!ShapedType::isDynamic(dim) &&
        (llvm::MulOverflow(bytes, dim, bytes) || bytes > kMaxArenaBytes))
      return std::nullopt;
  return (std::max<int64_t>(bytes, 1) + kArenaAlignment - 1) / kArenaAlignment *
         kArenaAlignment;
}

/// The position (in `position`, of the ops of `block`) of the last op of
/// `block` that uses `alloc` through any of its views, the op itself or one
/// nested in it; none when a view escapes into something other than a view
/// (yielded to a region's results, a call's result): then the buffer lives
/// to its dealloc.
/// (The deallocation pipeline frees most buffers at the end of the block,
/// not after their last use.)
static std::optional<int64_t>
lastUse(memref::AllocOp alloc, memref::DeallocOp dealloc, Block &block,
        const llvm::DenseMap<Operation *, int64_t> &position) {
  int64_t last = position.lookup(alloc);
  SmallVector<Value> aliases = {alloc.getResult()};
  while (!aliases.empty()) {
    Value alias = aliases.pop_back_val();
    for (Operation *user : alias.getUsers()) {
      if (user == dealloc.getOperation())
        continue;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == alias) {
        aliases.push_back(user->getResult(0));
      } else if (user->hasTrait<OpTrait::IsTerminator>() ||
                 llvm::any_of(user->getResultTypes(),
                              llvm::IsaPred<BaseMemRefType>)) {
        return std::nullopt;
      }
      Operation *top = block.findAncestorOpInBlock(*user);
      if (!top)
        return std::nullopt;
      last = std::max(last, position.lookup(top));
    }
  }
  return last;
}

/// True when the address of `alloc`'s memory is taken (through any of its
/// views) as an integer: what the runtime calls of sequence and string
/// lowerings receive. Such a buffer stays out of the arena: its lifetime
/// follows that of the integer, which the liveness above cannot see, and
/// MLIR 19 folds the aligned pointer of a memref.view to its source's,
/// dropping the view's offset.
static bool addressIsTaken(memref::AllocOp alloc) {
  SmallVector<Value> aliases = {alloc.getResult()};
  while (!aliases.empty()) {
    Value alias = aliases.pop_back_val();
    for (Operation *user : alias.getUsers()) {
      if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
        return true;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == alias)
        aliases.push_back(user->getResult(0));
    }
  }
  return false;
}

/// The temporaries of `block`: its allocs that one dealloc of the same
/// block frees (the others, such as returned buffers, are left alone), in
/// block order; each lives from its alloc to its last use.
static SmallVector<Temporary> findTemporaries(Block &block) {
  llvm::DenseMap<Operation *, int64_t> position;
  int64_t next = 0;
  for (Operation &op : block)
    position[&op] = next++;
  SmallVector<Temporary> temporaries;
  for (auto alloc : block.getOps<memref::AllocOp>()) {
    std::optional<int64_t> bytes = arenaBytes(alloc);
    if (!bytes || addressIsTaken(alloc))
      continue;
    memref::DeallocOp dealloc;
    int deallocs = 0;
    for (Operation *user : alloc->getUsers())
      if (auto d = dyn_cast<memref::DeallocOp>(user)) {
        dealloc = d;
        ++deallocs;
      }
    if (deallocs != 1 || dealloc->getBlock() != &block)
      continue;
    int64_t last =
        lastUse(alloc, dealloc, block, position).value_or(position[dealloc]);
    temporaries.push_back({alloc, dealloc, *bytes, position[alloc], last});
  }
  return temporaries;
}

/// The dynamic size that most of `temporaries` (in block order) have as
/// their one dynamic dim (a batch size), when it is known before the first
/// of them, where the arena is acquired; null otherwise.
static Value commonDynamicSize(MutableArrayRef<Temporary> temporaries) {
  llvm::MapVector<Value, int> counts;
  for (Temporary &t : temporaries)
    if (t.alloc.getDynamicSizes().size() == 1)
      ++counts[t.alloc.getDynamicSizes()[0]];
  Value best;
  int most = 0;
  for (auto [value, count] : counts)
    if (count > most) {
      best = value;
      most = count;
    }
  if (!best)
    return best;
  Operation *first = temporaries.front().alloc;
  Operation *def = best.getDefiningOp();
  if (!def)
    return best.getParentBlock() == first->getBlock() ? best : Value();
  return def->getBlock() == first->getBlock() && def->isBeforeInBlock(first)
             ? best
             : Value();
}

/// Places the temporaries, largest first, each at the lowest offset where
/// it overlaps no temporary placed before it that is alive at the same time
/// (TFLite's greedy-by-size arena plan); returns the arena's size.
static int64_t placeTemporaries(MutableArrayRef<Temporary> temporaries) {
  SmallVector<Temporary *> order;
  for (Temporary &t : temporaries)
    order.push_back(&t);
  llvm::sort(order, [](const Temporary *a, const Temporary *b) {
    return std::make_pair(-a->bytes, a->first) <
           std::make_pair(-b->bytes, b->first);
  });
  int64_t size = 0;
  SmallVector<Temporary *> placed;
  for (Temporary *t : order) {
    SmallVector<Temporary *> alive;
    for (Temporary *p : placed)
      if (p->first <= t->last && t->first <= p->last)
        alive.push_back(p);
    llvm::sort(alive, [](const Temporary *a, const Temporary *b) {
      return a->offset < b->offset;
    });
    int64_t offset = 0;
    for (Temporary *p : alive) {
      if (offset + t->bytes <= p->offset)
        break;
      offset = std::max(offset, p->offset + p->bytes);
    }
    t->offset = offset;
    size = std::max(size, offset + t->bytes);
    placed.push_back(t);
  }
  return size;
}

namespace {
struct PlanBuffersPass
    : public onnxc::impl::PlanBuffersPassBase<PlanBuffersPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    MLIRContext *context = module.getContext();
    auto arenaType =
        MemRefType::get({ShapedType::kDynamic}, IntegerType::get(context, 8));
    auto indexType = IndexType::get(context);
    bool declared = false;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      // Bodies of one block (the pass runs before control flow is lowered).
      if (func.isExternal() || !func.getBody().hasOneBlock())
        continue;
      Block &block = func.getBody().front();
      SmallVector<Temporary> temporaries = findTemporaries(block);
      if (temporaries.empty())
        continue;
      // Static ones, and those of the most common dynamic size; the rest
      // stay allocs.
      Value scale = commonDynamicSize(temporaries);
      SmallVector<Temporary> fixed, scaled;
      for (Temporary &t : temporaries) {
        ValueRange dynamic = t.alloc.getDynamicSizes();
        if (dynamic.empty())
          fixed.push_back(t);
        else if (scale && dynamic[0] == scale)
          scaled.push_back(t);
      }
      if (fixed.empty() && scaled.empty())
        continue;
      // The arena: the fixed temporaries, then the scaled ones at offsets
      // and sizes that scale with `scale` (so that they never overlap,
      // whatever it is at run time).
      int64_t fixedSize = placeTemporaries(fixed);
      int64_t scaledSize = placeTemporaries(scaled);
      if (!declared) {
        auto acquire = FunctionType::get(context, {indexType}, {arenaType});
        auto release = FunctionType::get(context, {arenaType}, {});
        onnxc::declareKernel(module, symbols, "onnxc_arena_acquire", acquire);
        onnxc::declareKernel(module, symbols, "onnxc_arena_release", release);
        // The runtime defines them with C's memref descriptors.
        for (StringRef name : {"onnxc_arena_acquire", "onnxc_arena_release"})
          symbols.lookup(name)->setAttr(
              LLVM::LLVMDialect::getEmitCWrapperAttrName(),
              UnitAttr::get(context));
        declared = true;
      }
      // Acquired before the first temporary (after `scale` is known).
      Operation *start = nullptr;
      for (Temporary &t : llvm::concat<Temporary>(fixed, scaled))
        if (!start || t.alloc->isBeforeInBlock(start))
          start = t.alloc;
      Location loc = func.getLoc();
      OpBuilder b(start);
      Value fixedBytes = b.create<arith::ConstantIndexOp>(loc, fixedSize);
      Value bytes = fixedBytes;
      if (!scaled.empty())
        bytes = b.create<arith::AddIOp>(
            loc, fixedBytes,
            b.create<arith::MulIOp>(
                loc, scale, b.create<arith::ConstantIndexOp>(loc, scaledSize)));
      Value arena =
          b.create<func::CallOp>(loc, "onnxc_arena_acquire", arenaType, bytes)
              .getResult(0);
      for (Temporary &t : llvm::concat<Temporary>(fixed, scaled)) {
        bool isScaled = !t.alloc.getDynamicSizes().empty();
        Location at = t.alloc.getLoc();
        b.setInsertionPoint(t.alloc);
        Value offset = b.create<arith::ConstantIndexOp>(at, t.offset);
        if (isScaled)
          offset = b.create<arith::AddIOp>(
              at, fixedBytes, b.create<arith::MulIOp>(at, scale, offset));
        Value view = b.create<memref::ViewOp>(
            at, t.alloc.getType(), arena, offset, t.alloc.getDynamicSizes());
        t.alloc.replaceAllUsesWith(view);
        t.dealloc.erase();
        t.alloc.erase();
      }
      b.setInsertionPoint(block.getTerminator());
      b.create<func::CallOp>(loc, "onnxc_arena_release", TypeRange{}, arena);
    }
  }
};
} // namespace
