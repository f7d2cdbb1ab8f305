//===- Sequence.cpp - onnx sequence and optional ops to runtime calls -----===//
//
// A sequence, optional or map value is a 64-bit handle of a runtime object
// (lib/Runtime/Values.c): its signless twin is `tensor<i64>` (rank 0), so
// If, Loop, function arguments and results carry it like any scalar, and
// the model ABI passes it as a rank-0 int64 memref. An optional's handle is
// 0 when it holds nothing, else that of the tensor or sequence it holds.
// Each op calls the runtime's onnxc_seq_* / onnxc_value_* functions:
// a tensor goes in as a copy made by onnxc_value_from_memref, and comes out
// as a buffer allocated here (its dynamic dims asked with onnxc_value_dim)
// that onnxc_value_to_memref fills. A memref reaches the runtime as
// (rank, address of its descriptor), the descriptor built on the stack:
// {allocated, aligned, offset, sizes..., strides...}, as MLIR lays out an
// unranked memref's. Objects made during a run live in the run's arena.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/KernelCall.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// Calls the runtime's `name` on `args`, all i64 (handles, integers and
/// addresses), returning an i64 when `returnsValue`.
static Value callRuntime(OpBuilder &b, Location loc, StringRef name,
                         ValueRange args, bool returnsValue = true) {
  ValueRange results =
      callKernel(b, loc, name, args,
                 returnsValue ? TypeRange(b.getI64Type()) : TypeRange());
  return returnsValue ? results.front() : Value();
}

static Value constI64(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIntOp>(loc, value, 64);
}

static Value indexToI64(OpBuilder &b, Location loc, Value index) {
  return b.create<arith::IndexCastOp>(loc, b.getI64Type(), index);
}

/// The handle of a sequence or optional value (a `tensor<i64>` after
/// lowering).
static Value handleOf(OpBuilder &b, Location loc, Value value) {
  return b.create<tensor::ExtractOp>(loc, toSignless(b, loc, value),
                                     ValueRange{});
}

/// The sequence or optional of `type` whose handle is `handle`.
static Value valueOf(OpBuilder &b, Location loc, Value handle, Type type) {
  Value tensor = b.create<tensor::FromElementsOp>(
      loc, RankedTensorType::get({}, b.getI64Type()), handle);
  return fromSignless(b, loc, tensor, type);
}

/// A position input (int32 or int64, one element) as an i64.
static Value positionOf(OpBuilder &b, Location loc, Value position) {
  Value scalar = extractScalar(b, loc, position);
  if (scalar.getType() != b.getI64Type())
    scalar = b.create<arith::ExtSIOp>(loc, b.getI64Type(), scalar);
  return scalar;
}

/// The ONNX data type code of a tensor type's elements (8 for strings).
static int64_t dtypeOf(Type type) {
  return onnx::getONNXDType(getElementTypeOrSelf(type)).value_or(0);
}

/// The address of a NUL-terminated copy of `text` (for messages).
static Value cString(OpBuilder &b, Location loc, StringRef text) {
  return createCString(b, loc, text);
}

/// Calls `name` with `args` followed by (rank, descriptor address) of the
/// memref `buffer`, the descriptor in a stack scope around the call.
static Value callWithMemref(OpBuilder &b, Location loc, StringRef name,
                            ValueRange args, Value buffer, bool returnsValue,
                            ValueRange trailing = {}) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t rank = type.getRank();
  Type i64 = b.getI64Type();
  auto scope = b.create<memref::AllocaScopeOp>(
      loc, returnsValue ? TypeRange(i64) : TypeRange());
  Block *block = new Block();
  scope.getBodyRegion().push_back(block);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  auto descType = MemRefType::get({3 + 2 * rank}, i64);
  Value desc = b.create<memref::AllocaOp>(loc, descType);
  auto metadata = b.create<memref::ExtractStridedMetadataOp>(loc, buffer);
  Value aligned = indexToI64(
      b, loc, b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, buffer));
  SmallVector<Value> fields{aligned, aligned,
                            indexToI64(b, loc, metadata.getOffset())};
  for (Value size : metadata.getSizes())
    fields.push_back(indexToI64(b, loc, size));
  for (Value stride : metadata.getStrides())
    fields.push_back(indexToI64(b, loc, stride));
  for (auto [i, field] : llvm::enumerate(fields))
    b.create<memref::StoreOp>(loc, field, desc,
                              ValueRange{createIndex(b, loc, i)});
  Value address = indexToI64(
      b, loc, b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, desc));
  SmallVector<Value> all(args);
  all.push_back(constI64(b, loc, rank));
  all.push_back(address);
  llvm::append_range(all, trailing);
  Value result = callRuntime(b, loc, name, all, returnsValue);
  b.create<memref::AllocaScopeReturnOp>(loc, returnsValue ? ValueRange(result)
                                                          : ValueRange());
  return returnsValue ? scope.getResult(0) : Value();
}

Value onnxc::tolinalg::tensorToHandle(OpBuilder &b, Location loc,
                                      Value tensor) {
  Value signless = toSignless(b, loc, tensor);
  Value buffer = readBuffer(b, loc, signless);
  return callWithMemref(b, loc, "onnxc_value_from_memref",
                        constI64(b, loc, dtypeOf(tensor.getType())), buffer,
                        /*returnsValue=*/true);
}

/// The dynamic dims of `type` as index values, dim `d` the i64 that
/// `dimOf(d)` asks of the runtime.
static SmallVector<Value> dynamicSizes(OpBuilder &b, Location loc,
                                       RankedTensorType type,
                                       function_ref<Value(int64_t)> dimOf) {
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(
          b.create<arith::IndexCastOp>(loc, b.getIndexType(), dimOf(d)));
  return sizes;
}

/// A new tensor of `type` (its dynamic dims `dynamic`) that the runtime's
/// `name` fills: called on `args`, the buffer's (rank, descriptor address)
/// and `trailing`.
static Value tensorFilledBy(OpBuilder &b, Location loc, RankedTensorType type,
                            ValueRange dynamic, StringRef name, ValueRange args,
                            ValueRange trailing = {}) {
  auto signless = cast<RankedTensorType>(getSignlessType(type));
  Value buffer = allocBuffer(b, loc, signless, dynamic);
  callWithMemref(b, loc, name, args, buffer, /*returnsValue=*/false, trailing);
  return fromSignless(b, loc, filledTensor(b, loc, signless, buffer), type);
}

Value onnxc::tolinalg::handleToTensor(OpBuilder &b, Location loc, Value handle,
                                      RankedTensorType type, StringRef opName) {
  Value name = cString(b, loc, opName);
  Value rank = constI64(b, loc, type.getRank());
  SmallVector<Value> dynamic = dynamicSizes(b, loc, type, [&](int64_t d) {
    return callRuntime(b, loc, "onnxc_value_dim",
                       {handle, constI64(b, loc, d), rank, name});
  });
  return tensorFilledBy(b, loc, type, dynamic, "onnxc_value_to_memref",
                        {handle, constI64(b, loc, dtypeOf(type))}, name);
}

namespace {

struct SequenceEmptyLowering
    : public OpConversionPattern<onnx::SequenceEmptyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SequenceEmptyOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value seq = callRuntime(rewriter, loc, "onnxc_seq_empty",
                            constI64(rewriter, loc, op.getDtype().value_or(1)));
    rewriter.replaceOp(op, valueOf(rewriter, loc, seq, op.getType()));
    return success();
  }
};

struct SequenceConstructLowering
    : public OpConversionPattern<onnx::SequenceConstructOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SequenceConstructOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value zero = constI64(rewriter, loc, 0);
    Value seq = callRuntime(
        rewriter, loc, "onnxc_seq_empty",
        constI64(rewriter, loc, dtypeOf(op.getInputs()[0].getType())));
    for (Value input : adaptor.getInputs())
      seq =
          callRuntime(rewriter, loc, "onnxc_seq_insert",
                      {seq, tensorToHandle(rewriter, loc, input), zero, zero});
    rewriter.replaceOp(op, valueOf(rewriter, loc, seq, op.getType()));
    return success();
  }
};

/// `position` as (pos, has_pos) for the runtime.
static std::pair<Value, Value> optionalPosition(OpBuilder &b, Location loc,
                                                Value position) {
  if (onnx::isNoValue(position))
    return {constI64(b, loc, 0), constI64(b, loc, 0)};
  return {positionOf(b, loc, position), constI64(b, loc, 1)};
}

struct SequenceInsertLowering
    : public OpConversionPattern<onnx::SequenceInsertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SequenceInsertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!isa<RankedTensorType>(adaptor.getTensor().getType()))
      return op.emitOpError("needs a ranked tensor to be lowered");
    Value seq = handleOf(rewriter, loc, adaptor.getInputSequence());
    Value item = tensorToHandle(rewriter, loc, adaptor.getTensor());
    auto [pos, hasPos] = optionalPosition(rewriter, loc, adaptor.getPosition());
    Value result = callRuntime(rewriter, loc, "onnxc_seq_insert",
                               {seq, item, pos, hasPos});
    rewriter.replaceOp(op, valueOf(rewriter, loc, result, op.getType()));
    return success();
  }
};

struct SequenceEraseLowering
    : public OpConversionPattern<onnx::SequenceEraseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SequenceEraseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value seq = handleOf(rewriter, loc, adaptor.getInputSequence());
    auto [pos, hasPos] = optionalPosition(rewriter, loc, adaptor.getPosition());
    Value result =
        callRuntime(rewriter, loc, "onnxc_seq_erase", {seq, pos, hasPos});
    rewriter.replaceOp(op, valueOf(rewriter, loc, result, op.getType()));
    return success();
  }
};

struct SequenceAtLowering : public OpConversionPattern<onnx::SequenceAtOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SequenceAtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getRankedResultType(op);
    if (!type)
      return failure();
    Location loc = op.getLoc();
    Value seq = handleOf(rewriter, loc, adaptor.getInputSequence());
    Value item =
        callRuntime(rewriter, loc, "onnxc_seq_at",
                    {seq, positionOf(rewriter, loc, adaptor.getPosition())});
    rewriter.replaceOp(op,
                       handleToTensor(rewriter, loc, item, type, "SequenceAt"));
    return success();
  }
};

struct SequenceLengthLowering
    : public OpConversionPattern<onnx::SequenceLengthOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SequenceLengthOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value seq = handleOf(rewriter, loc, adaptor.getInputSequence());
    Value length = callRuntime(rewriter, loc, "onnxc_seq_length", seq);
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, RankedTensorType::get({}, rewriter.getI64Type()), length);
    return success();
  }
};

struct SplitToSequenceLowering
    : public OpConversionPattern<onnx::SplitToSequenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SplitToSequenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!isa<RankedTensorType>(adaptor.getInput().getType()) ||
        (!onnx::isNoValue(adaptor.getSplit()) &&
         !isa<RankedTensorType>(adaptor.getSplit().getType())))
      return op.emitOpError("needs ranked inputs to be lowered");
    Value input = tensorToHandle(rewriter, loc, adaptor.getInput());
    Value split = onnx::isNoValue(adaptor.getSplit())
                      ? constI64(rewriter, loc, 0)
                      : tensorToHandle(rewriter, loc, adaptor.getSplit());
    Value seq =
        callRuntime(rewriter, loc, "onnxc_seq_split",
                    {input, split, constI64(rewriter, loc, op.getAxis()),
                     constI64(rewriter, loc, op.getKeepdims())});
    rewriter.replaceOp(op, valueOf(rewriter, loc, seq, op.getType()));
    return success();
  }
};

struct ConcatFromSequenceLowering
    : public OpConversionPattern<onnx::ConcatFromSequenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ConcatFromSequenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getRankedResultType(op);
    if (!type)
      return failure();
    Location loc = op.getLoc();
    Value seq = handleOf(rewriter, loc, adaptor.getInputSequence());
    Value axis = constI64(rewriter, loc, op.getAxis());
    Value newAxis = constI64(rewriter, loc, op.getNewAxis());
    SmallVector<Value> dynamic =
        dynamicSizes(rewriter, loc, type, [&](int64_t d) {
          return callRuntime(rewriter, loc, "onnxc_seq_concat_dim",
                             {seq, axis, newAxis, constI64(rewriter, loc, d)});
        });
    rewriter.replaceOp(
        op, tensorFilledBy(
                rewriter, loc, type, dynamic, "onnxc_seq_concat",
                {seq, axis, newAxis, constI64(rewriter, loc, dtypeOf(type))}));
    return success();
  }
};

struct OptionalLowering : public OpConversionPattern<onnx::OptionalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::OptionalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value handle;
    if (onnx::isNoValue(input))
      handle = constI64(rewriter, loc, 0);
    else if (isa<onnx::SeqType>(input.getType()))
      handle = handleOf(rewriter, loc, input);
    else if (isa<RankedTensorType>(input.getType()))
      handle = tensorToHandle(rewriter, loc, input);
    else
      return op.emitOpError("needs a ranked tensor to be lowered");
    rewriter.replaceOp(op, valueOf(rewriter, loc, handle, op.getType()));
    return success();
  }
};

struct OptionalHasElementLowering
    : public OpConversionPattern<onnx::OptionalHasElementOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::OptionalHasElementOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value has;
    if (isa<onnx::OptType>(input.getType()))
      has = rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                           handleOf(rewriter, loc, input),
                                           constI64(rewriter, loc, 0));
    else
      has = rewriter.create<arith::ConstantIntOp>(
          loc, onnx::isNoValue(input) ? 0 : 1, 1);
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, RankedTensorType::get({}, rewriter.getI1Type()), has);
    return success();
  }
};

struct OptionalGetElementLowering
    : public OpConversionPattern<onnx::OptionalGetElementOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::OptionalGetElementOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type type = op.getType();
    if (!isa<onnx::OptType>(input.getType())) {
      rewriter.replaceOp(op, input);
      return success();
    }
    Value handle = handleOf(rewriter, loc, input);
    if (isa<onnx::SeqType>(type)) {
      // An empty optional has no sequence to give.
      Value name = cString(rewriter, loc, "OptionalGetElement");
      handle =
          callRuntime(rewriter, loc, "onnxc_optional_value", {handle, name});
      rewriter.replaceOp(op, valueOf(rewriter, loc, handle, type));
      return success();
    }
    RankedTensorType ranked = getRankedResultType(op);
    if (!ranked)
      return failure();
    rewriter.replaceOp(op, handleToTensor(rewriter, loc, handle, ranked,
                                          "OptionalGetElement"));
    return success();
  }
};

/// A constant 1-D tensor of `ints`, or of the strings of `strings`.
static Value labelConstant(OpBuilder &b, Location loc,
                           std::optional<ArrayRef<int64_t>> ints,
                           std::optional<ArrayAttr> strings) {
  if (ints) {
    auto type = RankedTensorType::get({static_cast<int64_t>(ints->size())},
                                      b.getI64Type());
    return b.create<arith::ConstantOp>(loc,
                                       DenseElementsAttr::get(type, *ints));
  }
  SmallVector<StringRef> values;
  for (Attribute a : *strings)
    values.push_back(cast<StringAttr>(a).getValue());
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    onnx::StringType::get(b.getContext()));
  return createStringConstant(b, loc,
                              DenseStringElementsAttr::get(type, values));
}

struct ZipMapLowering : public OpConversionPattern<onnx::ZipMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ZipMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!isa<RankedTensorType>(adaptor.getX().getType()))
      return op.emitOpError("needs a ranked input to be lowered");
    Value labels = labelConstant(rewriter, loc, op.getClasslabelsInt64s(),
                                 op.getClasslabelsStrings());
    Value maps = callRuntime(rewriter, loc, "onnxc_zipmap",
                             {tensorToHandle(rewriter, loc, adaptor.getX()),
                              tensorToHandle(rewriter, loc, labels)});
    rewriter.replaceOp(op, valueOf(rewriter, loc, maps, op.getType()));
    return success();
  }
};

struct DictVectorizerLowering
    : public OpConversionPattern<onnx::DictVectorizerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::DictVectorizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getRankedResultType(op);
    if (!type)
      return failure();
    Location loc = op.getLoc();
    Value x = handleOf(rewriter, loc, adaptor.getX());
    Value vocabulary =
        tensorToHandle(rewriter, loc,
                       labelConstant(rewriter, loc, op.getInt64Vocabulary(),
                                     op.getStringVocabulary()));
    // A sequence gives a row a map.
    SmallVector<Value> dynamic =
        dynamicSizes(rewriter, loc, type, [&](int64_t) {
          return callRuntime(rewriter, loc, "onnxc_seq_length", x);
        });
    rewriter.replaceOp(
        op, tensorFilledBy(
                rewriter, loc, type, dynamic, "onnxc_dict_vectorize",
                {x, vocabulary, constI64(rewriter, loc, dtypeOf(type))}));
    return success();
  }
};

} // namespace

void onnxc::populateONNXSequenceToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<
      SequenceEmptyLowering, SequenceConstructLowering, SequenceInsertLowering,
      SequenceEraseLowering, SequenceAtLowering, SequenceLengthLowering,
      SplitToSequenceLowering, ConcatFromSequenceLowering, OptionalLowering,
      OptionalHasElementLowering, OptionalGetElementLowering, ZipMapLowering,
      DictVectorizerLowering>(patterns.getContext());
}
