//===- ControlFlow.cpp - onnx If, Loop and Scan to scf --------------------===//
//
// The subgraph regions move into scf ops and their onnx ops are converted in
// place. If becomes scf.if. Loop becomes an scf.while carrying the
// iteration number, the condition, the loop-carried values and one buffer
// per scan output, sized by the trip count and cut to the iterations run.
// Scan becomes an scf.while over the scan axis that extracts the slices of the
// scan inputs and inserts the slices of the scan outputs. A scan output
// buffer whose slice has dynamic dims is allocated in the first iteration,
// when the slice's sizes are known.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// A buffer of type `type` (a slice type with a dim inserted at `axis`) with
/// `length` along `axis`; its other dynamic dims are 0 until the first
/// iteration allocates it (`prepareBuffer`).
static Value createBuffer(OpBuilder &b, Location loc, RankedTensorType type,
                          int64_t axis, Value length) {
  SmallVector<OpFoldResult> sizes;
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    if (static_cast<int64_t>(d) == axis)
      sizes.push_back(length);
    else if (ShapedType::isDynamic(size))
      sizes.push_back(b.getIndexAttr(0));
    else
      sizes.push_back(b.getIndexAttr(size));
  }
  return castTo(b, loc,
                b.create<tensor::EmptyOp>(loc, sizes, type.getElementType()),
                type);
}

/// Inserts `slice` into `buffer` at `index` along `axis`; in the first
/// iteration (`iv` == 0), a buffer with dynamic slice dims is first
/// allocated with the slice's sizes.
static Value insertSlice(OpBuilder &b, Location loc, Value buffer, Value slice,
                         int64_t axis, Value index, Value iv) {
  auto bufferType = cast<RankedTensorType>(buffer.getType());
  SmallVector<OpFoldResult> sliceSizes = getDimSizes(b, loc, slice);
  if (!bufferType.hasStaticShape() &&
      llvm::count_if(bufferType.getShape(), ShapedType::isDynamic) >
          (ShapedType::isDynamic(bufferType.getDimSize(axis)) ? 1 : 0)) {
    Value first = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, iv,
                                          createIndex(b, loc, 0));
    OpFoldResult length = getDimSize(b, loc, buffer, axis);
    auto ifOp = b.create<scf::IfOp>(
        loc, first,
        [&](OpBuilder &tb, Location l) {
          SmallVector<OpFoldResult> sizes(sliceSizes);
          sizes.insert(sizes.begin() + axis, length);
          Value empty =
              tb.create<tensor::EmptyOp>(l, sizes, bufferType.getElementType());
          tb.create<scf::YieldOp>(l, castTo(tb, l, empty, bufferType));
        },
        [&](OpBuilder &eb, Location l) { eb.create<scf::YieldOp>(l, buffer); });
    buffer = ifOp.getResult(0);
  }
  int64_t rank = bufferType.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(sliceSizes);
  sizes.insert(sizes.begin() + axis, b.getIndexAttr(1));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  offsets[axis] = index;
  return b.create<tensor::InsertSliceOp>(loc, slice, buffer, offsets, sizes,
                                         strides);
}

/// The element of `tensor`, a one-element tensor of any rank (ONNX's
/// conditions and trip counts: rank 0, [1], [1, 1]...), or of a rank known
/// only at run time, which is first reshaped to rank 0.
static Value extractOneElement(OpBuilder &b, Location loc, Value tensor) {
  if (auto unranked = dyn_cast<UnrankedTensorType>(tensor.getType())) {
    Value noDims = b.create<arith::ConstantOp>(
        loc,
        DenseIntElementsAttr::get(RankedTensorType::get({0}, b.getIndexType()),
                                  ArrayRef<int64_t>{}));
    tensor = b.create<tensor::ReshapeOp>(
        loc, RankedTensorType::get({}, unranked.getElementType()), tensor,
        noDims);
  }
  return extractScalar(b, loc, tensor);
}

namespace {
struct IfLowering : public OpConversionPattern<onnx::IfOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value cond = extractOneElement(rewriter, loc, adaptor.getCond());
    auto ifOp = rewriter.create<scf::IfOp>(loc, op.getResultTypes(), cond,
                                           /*addThenBlock=*/false,
                                           /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenBranch(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseBranch(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// The terminator of a branch of an scf.if made from onnx.If.
struct YieldLowering : public OpConversionPattern<onnx::YieldOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ifOp = dyn_cast<scf::IfOp>(op->getParentOp());
    if (!ifOp)
      return failure();
    SmallVector<Value> values;
    for (auto [value, type] :
         llvm::zip(adaptor.getOutputs(), ifOp.getResultTypes()))
      values.push_back(castTo(rewriter, op.getLoc(), value, type));
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, values);
    return success();
  }
};

struct LoopLowering : public OpConversionPattern<onnx::LoopOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::LoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    size_t numCarried = adaptor.getVInitial().size();
    TypeRange carriedTypes =
        TypeRange(op.getResultTypes()).take_front(numCarried);
    TypeRange scanTypes = TypeRange(op.getResultTypes()).drop_front(numCarried);
    if (!llvm::all_of(scanTypes, llvm::IsaPred<RankedTensorType>))
      return rewriter.notifyMatchFailure(op, "unranked scan output");
    bool hasTripCount = !onnx::isNoValue(adaptor.getM());
    if (!scanTypes.empty() && !hasTripCount)
      return op.emitOpError("with scan outputs needs a trip count 'M'");
    Type i64 = rewriter.getI64Type();
    Value tripCount = hasTripCount
                          ? extractOneElement(rewriter, loc, adaptor.getM())
                          : rewriter.create<arith::ConstantIntOp>(
                                loc, std::numeric_limits<int64_t>::max(), i64);
    Value cond =
        onnx::isNoValue(adaptor.getCond())
            ? rewriter.create<arith::ConstantIntOp>(loc, 1, 1).getResult()
            : extractOneElement(rewriter, loc, adaptor.getCond());
    SmallVector<Value> inits{rewriter.create<arith::ConstantIntOp>(loc, 0, i64),
                             cond};
    for (auto [value, type] : llvm::zip(adaptor.getVInitial(), carriedTypes))
      inits.push_back(castTo(rewriter, loc, value, type));
    if (!scanTypes.empty()) {
      Value length = rewriter.create<arith::IndexCastOp>(
          loc, rewriter.getIndexType(), tripCount);
      // A negative trip count runs no iteration.
      length = rewriter.create<arith::MaxSIOp>(loc, length,
                                               createIndex(rewriter, loc, 0));
      for (Type type : scanTypes)
        inits.push_back(createBuffer(rewriter, loc,
                                     cast<RankedTensorType>(type), 0, length));
    }
    SmallVector<Type> types = llvm::to_vector(ValueRange(inits).getTypes());
    SmallVector<Location> locs(types.size(), loc);
    auto whileOp = rewriter.create<scf::WhileOp>(loc, types, inits);

    Block *before = rewriter.createBlock(&whileOp.getBefore(), {}, types, locs);
    Value inRange = rewriter.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::slt, before->getArgument(0), tripCount);
    Value go =
        rewriter.create<arith::AndIOp>(loc, inRange, before->getArgument(1));
    rewriter.create<scf::ConditionOp>(loc, go, before->getArguments());

    Block *after = rewriter.createBlock(&whileOp.getAfter(), {}, types, locs);
    Value iter = after->getArgument(0);
    SmallVector<Value> bodyArgs{
        rewriter.create<tensor::FromElementsOp>(
            loc, RankedTensorType::get({}, i64), iter),
        rewriter.create<tensor::FromElementsOp>(
            loc, RankedTensorType::get({}, rewriter.getI1Type()),
            after->getArgument(1))};
    llvm::append_range(bodyArgs, after->getArguments().slice(2, numCarried));
    Block &body = op.getBody().front();
    auto yield = cast<onnx::YieldOp>(body.getTerminator());
    rewriter.mergeBlocks(&body, after, bodyArgs);

    rewriter.setInsertionPoint(yield);
    ValueRange outputs = yield.getOutputs();
    Value index =
        rewriter.create<arith::IndexCastOp>(loc, rewriter.getIndexType(), iter);
    SmallVector<Value> next{
        rewriter.create<arith::AddIOp>(
            loc, iter, rewriter.create<arith::ConstantIntOp>(loc, 1, i64)),
        extractOneElement(rewriter, loc, outputs[0])};
    for (auto [value, type] :
         llvm::zip(outputs.slice(1, numCarried), carriedTypes))
      next.push_back(castTo(rewriter, loc, value, type));
    for (auto [slice, buffer] :
         llvm::zip(outputs.drop_front(1 + numCarried),
                   after->getArguments().drop_front(2 + numCarried)))
      next.push_back(
          insertSlice(rewriter, loc, buffer, slice, 0, index, index));
    rewriter.create<scf::YieldOp>(loc, next);
    rewriter.eraseOp(yield);

    rewriter.setInsertionPointAfter(whileOp);
    SmallVector<Value> results(whileOp.getResults().slice(2, numCarried));
    Value count = rewriter.create<arith::IndexCastOp>(
        loc, rewriter.getIndexType(), whileOp.getResult(0));
    for (auto [buffer, type] : llvm::zip(
             whileOp.getResults().drop_front(2 + numCarried), scanTypes)) {
      auto bufferType = cast<RankedTensorType>(buffer.getType());
      SmallVector<OpFoldResult> offsets(bufferType.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, buffer);
      sizes[0] = count;
      SmallVector<OpFoldResult> strides(bufferType.getRank(),
                                        rewriter.getIndexAttr(1));
      Value used = rewriter.create<tensor::ExtractSliceOp>(loc, buffer, offsets,
                                                           sizes, strides);
      results.push_back(castTo(rewriter, loc, used, type));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ScanLowering : public OpConversionPattern<onnx::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t numScanInputs = static_cast<int64_t>(op.getNumScanInputs());
    ValueRange operands = adaptor.getInitialStateAndScanInputs();
    int64_t numStates = operands.size() - numScanInputs;
    ValueRange scanInputs = operands.drop_front(numStates);
    TypeRange stateTypes = TypeRange(op.getResultTypes()).take_front(numStates);
    TypeRange scanTypes = TypeRange(op.getResultTypes()).drop_front(numStates);
    if (!llvm::all_of(scanTypes, llvm::IsaPred<RankedTensorType>) ||
        !llvm::all_of(scanInputs.getTypes(), llvm::IsaPred<RankedTensorType>))
      return rewriter.notifyMatchFailure(op, "unranked scan input or output");
    auto axisOf = [](std::optional<ArrayRef<int64_t>> axes, int64_t index,
                     int64_t rank) {
      int64_t axis = axes ? (*axes)[index] : 0;
      return axis < 0 ? axis + rank : axis;
    };
    auto reversed = [](std::optional<ArrayRef<int64_t>> directions,
                       int64_t index) {
      return directions && (*directions)[index] == 1;
    };
    auto inAxes = op.getScanInputAxes(), inDirs = op.getScanInputDirections();
    auto outAxes = op.getScanOutputAxes(),
         outDirs = op.getScanOutputDirections();
    int64_t firstAxis = axisOf(
        inAxes, 0, cast<RankedTensorType>(scanInputs[0].getType()).getRank());
    Value length = toValue(rewriter, loc,
                           getDimSize(rewriter, loc, scanInputs[0], firstAxis));

    SmallVector<Value> inits;
    for (auto [value, type] :
         llvm::zip(operands.take_front(numStates), stateTypes))
      inits.push_back(castTo(rewriter, loc, value, type));
    for (auto [index, type] : llvm::enumerate(scanTypes)) {
      auto ranked = cast<RankedTensorType>(type);
      inits.push_back(createBuffer(rewriter, loc, ranked,
                                   axisOf(outAxes, index, ranked.getRank()),
                                   length));
    }
    Value zero = createIndex(rewriter, loc, 0);
    Value one = createIndex(rewriter, loc, 1);
    Value last = rewriter.create<arith::SubIOp>(loc, length, one);
    // An scf.while rather than an scf.for: the canonicalizer would fold the
    // cast of a buffer's initial (empty) value into an scf.for's iter_args
    // type and so wrongly fix the slice dims that the first iteration sets.
    inits.insert(inits.begin(), zero);
    SmallVector<Type> types = llvm::to_vector(ValueRange(inits).getTypes());
    SmallVector<Location> locs(types.size(), loc);
    auto whileOp = rewriter.create<scf::WhileOp>(loc, types, inits);
    Block *before = rewriter.createBlock(&whileOp.getBefore(), {}, types, locs);
    Value inRange = rewriter.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::slt, before->getArgument(0), length);
    rewriter.create<scf::ConditionOp>(loc, inRange, before->getArguments());
    Block *loopBody =
        rewriter.createBlock(&whileOp.getAfter(), {}, types, locs);
    Value iv = loopBody->getArgument(0);
    ValueRange iterArgs = loopBody->getArguments().drop_front();
    Value reverseIv = rewriter.create<arith::SubIOp>(loc, last, iv);

    Block &body = op.getBody().front();
    SmallVector<Value> bodyArgs(iterArgs.take_front(numStates));
    for (auto [index, input] : llvm::enumerate(scanInputs)) {
      auto inputType = cast<RankedTensorType>(input.getType());
      int64_t rank = inputType.getRank();
      int64_t axis = axisOf(inAxes, index, rank);
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, input);
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = reversed(inDirs, index) ? reverseIv : iv;
      sizes[axis] = rewriter.getIndexAttr(1);
      auto sliceType =
          cast<RankedTensorType>(body.getArgument(numStates + index).getType());
      bodyArgs.push_back(rewriter.create<tensor::ExtractSliceOp>(
          loc, sliceType, input, offsets, sizes, strides));
    }
    auto yield = cast<onnx::YieldOp>(body.getTerminator());
    rewriter.mergeBlocks(&body, loopBody, bodyArgs);

    rewriter.setInsertionPoint(yield);
    ValueRange outputs = yield.getOutputs();
    SmallVector<Value> next{rewriter.create<arith::AddIOp>(loc, iv, one)};
    for (auto [value, type] :
         llvm::zip(outputs.take_front(numStates), stateTypes))
      next.push_back(castTo(rewriter, loc, value, type));
    for (auto [index, pair] : llvm::enumerate(llvm::zip(
             outputs.drop_front(numStates), iterArgs.drop_front(numStates)))) {
      auto [slice, buffer] = pair;
      int64_t rank = cast<RankedTensorType>(buffer.getType()).getRank();
      next.push_back(insertSlice(
          rewriter, loc, buffer, slice, axisOf(outAxes, index, rank),
          reversed(outDirs, index) ? reverseIv : iv, iv));
    }
    rewriter.create<scf::YieldOp>(loc, next);
    rewriter.eraseOp(yield);

    rewriter.setInsertionPointAfter(whileOp);
    SmallVector<Value> results;
    for (auto [value, type] :
         llvm::zip(whileOp.getResults().drop_front(), op.getResultTypes()))
      results.push_back(castTo(rewriter, loc, value, type));
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void onnxc::populateONNXControlFlowToSCFPatterns(RewritePatternSet &patterns) {
  patterns.add<IfLowering, YieldLowering, LoopLowering, ScanLowering>(
      patterns.getContext());
}
