//===- ParallelLoopsToThreadPool.cpp - scf.parallel on the runtime's pool -===//
//
// The loops the compiler generates itself (elementwise ops, pooling,
// reductions over inner dims, copies, Resize...) come out of
// convert-linalg-to-parallel-loops as scf.parallel nests. Each outermost one
// that is worth sharing becomes a function of a range of its outer
// iterations, `void body(ptr ctx, i64 begin, i64 end)`, plus a context
// struct of the values it captures, run by the runtime's
// `onnxc_parallel_for(onnxc_current_threadpool(), n, body, ctx)`.
//
// The context struct holds each captured value as the LLVM type it will have
// after the lowering (a memref as its descriptor struct), so the body
// function reads it with llvm.load + llvm.extractvalue and an
// unrealized_conversion_cast back to the memref, which
// reconcile-unrealized-casts removes at the end of the lowering. Constants
// and views of globals are rematerialized in the body rather than captured,
// so static shapes and trip counts stay visible to LLVM there.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace onnxc {
#define GEN_PASS_DEF_CONVERTPARALLELLOOPSTOTHREADPOOLPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;

/// Iterations assumed for a loop whose trip count is not a constant.
static constexpr double kDynamicTrips = 8;
/// The outer dims taken for the shared range stop growing at this many
/// iterations (enough chunks for a pool; the rest stays one serial nest).
static constexpr int64_t kMinChunks = 64;

/// The constant trip count of a loop dim, if its bounds are constants.
static std::optional<int64_t> staticTrips(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb);
  std::optional<int64_t> u = getConstantIntValue(ub);
  std::optional<int64_t> s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0)
    return std::nullopt;
  return *u <= *l ? 0 : llvm::divideCeil(*u - *l, *s);
}

static double tripsOrGuess(Value lb, Value ub, Value step) {
  std::optional<int64_t> trips = staticTrips(lb, ub, step);
  return trips ? static_cast<double>(*trips) : kDynamicTrips;
}

/// Scalar ops that one run of `block` executes, nested loops multiplied out.
static double estimateCost(Block &block) {
  double cost = 0;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::ConstantLike>() ||
        op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      cost += tripsOrGuess(loop.getLowerBound(), loop.getUpperBound(),
                           loop.getStep()) *
              estimateCost(*loop.getBody());
      continue;
    }
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      double trips = 1;
      for (auto [lb, ub, step] : llvm::zip(
               loop.getLowerBound(), loop.getUpperBound(), loop.getStep()))
        trips *= tripsOrGuess(lb, ub, step);
      cost += trips * estimateCost(*loop.getBody());
      continue;
    }
    double nested = 0;
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        nested = std::max(nested, estimateCost(inner));
    cost += 1 + nested;
  }
  return cost;
}

/// True when `value` can be recomputed in the outlined body from constants
/// and globals alone (so it need not be captured).
static bool isRematerializable(Value value, unsigned depth = 0) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 8 || def->getNumRegions() != 0)
    return false;
  if (def->hasTrait<OpTrait::ConstantLike>() || isa<memref::GetGlobalOp>(def))
    return true;
  return isPure(def) && llvm::all_of(def->getOperands(), [&](Value operand) {
           return isRematerializable(operand, depth + 1);
         });
}

/// Clones the ops that compute `value` (see isRematerializable) at `b`.
static Value rematerialize(OpBuilder &b, Value value, IRMapping &map) {
  if (Value known = map.lookupOrNull(value))
    return known;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    rematerialize(b, operand, map);
  b.clone(*def, map);
  return map.lookup(value);
}

/// Types a context field can carry.
static bool isCapturable(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return isa<IntegerType, FloatType, IndexType, VectorType>(
        memref.getElementType());
  return isa<IntegerType, FloatType, IndexType, VectorType,
             LLVM::LLVMPointerType>(type);
}

/// ceil((ub - lb) / step), or 0 when ub <= lb, as index.
static Value buildTrips(OpBuilder &b, Location loc, Value lb, Value ub,
                        Value step) {
  Value diff = b.createOrFold<arith::SubIOp>(loc, ub, lb);
  Value trips = b.createOrFold<arith::CeilDivSIOp>(loc, diff, step);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  return b.createOrFold<arith::MaxSIOp>(loc, trips, zero);
}

namespace {
/// How an outermost scf.parallel is shared: its outer dims `shared` are
/// linearized into the range [0, n) that the pool splits.
struct SharePlan {
  SmallVector<unsigned> shared;
  SmallVector<unsigned> rest;
  /// Scalar ops of the whole nest; nullopt when a trip count is dynamic.
  std::optional<double> work;
  /// Scalar ops of one iteration of all dims.
  double bodyCost = 0;
};
} // namespace

/// The outer dims to share: from the outside, skipping constant unit dims,
/// until they make kMinChunks iterations (a dynamic dim counts as one: it is
/// most often a batch of one); the innermost dim only when it is the first
/// one taken (a linear index then needs no division per element).
static SharePlan planSharing(scf::ParallelOp loop) {
  SharePlan plan;
  unsigned rank = loop.getNumLoops();
  int64_t chunks = 1;
  bool done = false;
  double work = 1;
  bool dynamic = false;
  for (unsigned d = 0; d < rank; ++d) {
    std::optional<int64_t> trips = staticTrips(
        loop.getLowerBound()[d], loop.getUpperBound()[d], loop.getStep()[d]);
    if (trips)
      work *= static_cast<double>(*trips);
    else
      dynamic = true;
    bool take = !done && !(trips && *trips == 1) &&
                (plan.shared.empty() || d + 1 < rank);
    if (!take) {
      plan.rest.push_back(d);
      continue;
    }
    plan.shared.push_back(d);
    if (!trips)
      continue;
    if (*trips >= kMinChunks / chunks) {
      done = true;
      continue;
    }
    chunks *= *trips;
  }
  plan.bodyCost = std::max(1.0, estimateCost(*loop.getBody()));
  if (!dynamic)
    plan.work = work * plan.bodyCost;
  return plan;
}

/// True when `loop` may run its iterations on several threads: an outermost
/// scf.parallel on the host without reductions, calls or captured values
/// that a context struct cannot carry.
static bool canShare(scf::ParallelOp loop) {
  if (loop.getNumResults() != 0 || !loop.getInitVals().empty())
    return false;
  for (Operation *parent = loop->getParentOp();;
       parent = parent->getParentOp()) {
    if (!parent || isa<scf::ParallelOp, gpu::LaunchOp>(parent))
      return false;
    if (isa<func::FuncOp>(parent))
      break;
  }
  WalkResult calls = loop.getBody()->walk([](Operation *op) {
    return isa<CallOpInterface>(op) ? WalkResult::interrupt()
                                    : WalkResult::advance();
  });
  if (calls.wasInterrupted())
    return false;
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(loop.getRegion(), captured);
  return llvm::all_of(captured, [](Value v) {
    return isRematerializable(v) || isCapturable(v.getType());
  });
}

/// Outlines `loop` into a function of a range of its shared iterations and
/// replaces it by a call of onnxc_parallel_for (or, when its trip counts are
/// dynamic and the work turns out small, a direct call of that function).
static void shareLoop(scf::ParallelOp loop, const SharePlan &plan,
                      int64_t minWork, SymbolTable &symbols,
                      const LLVMTypeConverter &converter) {
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  auto parent = loop->getParentOfType<func::FuncOp>();
  auto module = parent->getParentOfType<ModuleOp>();
  Type indexType = IndexType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto bodyType = FunctionType::get(ctx, {ptrType, i64, i64}, {});

  // Trip counts of the shared dims, and the size of the shared range.
  OpBuilder b(loop);
  SmallVector<Value> trips;
  Value n = b.create<arith::ConstantIndexOp>(loc, 1);
  for (unsigned d : plan.shared) {
    trips.push_back(buildTrips(b, loc, loop.getLowerBound()[d],
                               loop.getUpperBound()[d], loop.getStep()[d]));
    n = b.createOrFold<arith::MulIOp>(loc, n, trips.back());
  }

  // What the body needs from outside: the loop's own bounds, the trip
  // counts it delinearizes by, and the values its region uses.
  SetVector<Value> needed;
  for (unsigned d : plan.shared) {
    needed.insert(loop.getLowerBound()[d]);
    needed.insert(loop.getStep()[d]);
  }
  for (size_t i = 1; i < trips.size(); ++i)
    needed.insert(trips[i]);
  for (unsigned d : plan.rest) {
    needed.insert(loop.getLowerBound()[d]);
    needed.insert(loop.getUpperBound()[d]);
    needed.insert(loop.getStep()[d]);
  }
  getUsedValuesDefinedAbove(loop.getRegion(), needed);
  SmallVector<Value> fields;
  SmallVector<Type> fieldTypes;
  for (Value v : needed) {
    if (isRematerializable(v))
      continue;
    fields.push_back(v);
    fieldTypes.push_back(converter.convertType(v.getType()));
  }
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fieldTypes);

  // The body function.
  OpBuilder mb(ctx);
  mb.setInsertionPointAfter(parent);
  auto body = mb.create<func::FuncOp>(
      loc, (parent.getSymName() + "_parallel").str(), bodyType);
  body.setPrivate();
  body->setAttr("llvm.linkage",
                LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  symbols.insert(body);
  Block *entry = body.addEntryBlock();
  OpBuilder fb = OpBuilder::atBlockEnd(entry);
  IRMapping map;
  if (!fields.empty()) {
    Value s = fb.create<LLVM::LoadOp>(loc, structType, entry->getArgument(0));
    for (auto [i, v] : llvm::enumerate(fields)) {
      int64_t position = i;
      Value field = fb.create<LLVM::ExtractValueOp>(loc, s, position);
      if (field.getType() != v.getType())
        field = fb.create<UnrealizedConversionCastOp>(loc, v.getType(), field)
                    .getResult(0);
      map.map(v, field);
    }
  }
  for (Value v : needed)
    if (!map.contains(v))
      rematerialize(fb, v, map);
  Value begin =
      fb.create<arith::IndexCastOp>(loc, indexType, entry->getArgument(1));
  Value end =
      fb.create<arith::IndexCastOp>(loc, indexType, entry->getArgument(2));
  Value one = fb.create<arith::ConstantIndexOp>(loc, 1);
  auto range = fb.create<scf::ForOp>(loc, begin, end, one);
  fb.create<func::ReturnOp>(loc);

  // Shared dims from the linear index, innermost first.
  fb.setInsertionPoint(range.getBody()->getTerminator());
  Value rest = range.getInductionVar();
  for (size_t i = plan.shared.size(); i-- > 0;) {
    unsigned d = plan.shared[i];
    Value index = rest;
    if (i > 0) {
      Value count = map.lookup(trips[i]);
      index = fb.create<arith::RemUIOp>(loc, rest, count);
      rest = fb.create<arith::DivUIOp>(loc, rest, count);
    }
    Value scaled = fb.createOrFold<arith::MulIOp>(
        loc, index, map.lookup(loop.getStep()[d]));
    Value iv = fb.createOrFold<arith::AddIOp>(
        loc, scaled, map.lookup(loop.getLowerBound()[d]));
    map.map(loop.getInductionVars()[d], iv);
  }
  auto cloneBody = [&](OpBuilder &cb) {
    for (Operation &op : loop.getBody()->without_terminator())
      cb.clone(op, map);
  };
  if (plan.rest.empty()) {
    cloneBody(fb);
  } else {
    SmallVector<Value> lbs, ubs, steps;
    for (unsigned d : plan.rest) {
      lbs.push_back(map.lookup(loop.getLowerBound()[d]));
      ubs.push_back(map.lookup(loop.getUpperBound()[d]));
      steps.push_back(map.lookup(loop.getStep()[d]));
    }
    fb.create<scf::ParallelOp>(loc, lbs, ubs, steps,
                               [&](OpBuilder &pb, Location, ValueRange ivs) {
                                 for (auto [d, iv] : llvm::zip(plan.rest, ivs))
                                   map.map(loop.getInductionVars()[d], iv);
                                 cloneBody(pb);
                               });
  }

  // The call site: the context in a stack slot of the function's entry.
  Value context;
  if (fields.empty()) {
    context = b.create<LLVM::ZeroOp>(loc, ptrType);
  } else {
    OpBuilder eb = OpBuilder::atBlockBegin(&parent.getBody().front());
    Value count = eb.create<LLVM::ConstantOp>(loc, i64, 1);
    context = eb.create<LLVM::AllocaOp>(loc, ptrType, structType, count);
    Value s = b.create<LLVM::UndefOp>(loc, structType);
    for (auto [i, v] : llvm::enumerate(fields)) {
      Value field = v;
      if (v.getType() != fieldTypes[i])
        field = b.create<UnrealizedConversionCastOp>(loc, fieldTypes[i], v)
                    .getResult(0);
      int64_t position = i;
      s = b.create<LLVM::InsertValueOp>(loc, s, field, position);
    }
    b.create<LLVM::StoreOp>(loc, s, context);
  }
  Value count = b.create<arith::IndexCastOp>(loc, i64, n);
  declareKernel(module, symbols, "onnxc_current_threadpool",
                FunctionType::get(ctx, {}, {ptrType}));
  declareKernel(module, symbols, "onnxc_parallel_for",
                FunctionType::get(ctx, {ptrType, i64, bodyType, ptrType}, {}));
  auto runOnPool = [&](OpBuilder &pb, Location l) {
    Value fn =
        pb.create<func::ConstantOp>(l, bodyType, FlatSymbolRefAttr::get(body));
    Value pool = pb.create<func::CallOp>(l, "onnxc_current_threadpool", ptrType)
                     .getResult(0);
    pb.create<func::CallOp>(l, "onnxc_parallel_for", TypeRange{},
                            ValueRange{pool, count, fn, context});
  };
  if (plan.work) {
    runOnPool(b, loc);
  } else {
    // Dynamic trip counts: the whole nest's iterations times the body's ops
    // decide at run time.
    Value iterations = b.create<arith::ConstantIndexOp>(loc, 1);
    for (auto [lb, ub, step] :
         llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep()))
      iterations = b.createOrFold<arith::MulIOp>(
          loc, iterations, buildTrips(b, loc, lb, ub, step));
    Value perIteration = b.create<arith::ConstantIndexOp>(
        loc, static_cast<int64_t>(std::min(plan.bodyCost, 1e9)));
    Value work = b.create<arith::MulIOp>(loc, iterations, perIteration);
    Value threshold = b.create<arith::ConstantIndexOp>(loc, minWork);
    Value worth = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, work,
                                          threshold);
    b.create<scf::IfOp>(
        loc, worth,
        [&](OpBuilder &tb, Location l) {
          runOnPool(tb, l);
          tb.create<scf::YieldOp>(l);
        },
        [&](OpBuilder &eb, Location l) {
          Value zero = eb.create<LLVM::ConstantOp>(l, i64, 0);
          eb.create<func::CallOp>(l, body, ValueRange{context, zero, count});
          eb.create<scf::YieldOp>(l);
        });
  }
  loop.erase();
}

void onnxc::shareParallelLoops(ModuleOp module, int64_t minWork) {
  SymbolTable symbols(module);
  LLVMTypeConverter converter(module.getContext());
  SmallVector<std::pair<scf::ParallelOp, SharePlan>> loops;
  module.walk([&](scf::ParallelOp loop) {
    if (!canShare(loop))
      return;
    SharePlan plan = planSharing(loop);
    if (plan.shared.empty() || (plan.work && *plan.work < minWork))
      return;
    loops.push_back({loop, std::move(plan)});
  });
  for (auto &[loop, plan] : loops)
    shareLoop(loop, plan, minWork, symbols, converter);
}

namespace {
struct ConvertParallelLoopsToThreadPoolPass
    : public onnxc::impl::ConvertParallelLoopsToThreadPoolPassBase<
          ConvertParallelLoopsToThreadPoolPass> {
  using Base::Base;

  void runOnOperation() override {
    shareParallelLoops(getOperation(), minWork);
  }
};
} // namespace
