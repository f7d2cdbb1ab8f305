//===- String.cpp - onnx string ops to runtime calls ----------------------===//
//
// A tensor of `!onnx.string` holds one 64-bit handle an element: the address
// of a string record of the runtime (an int64 byte count, the bytes, a NUL,
// 8-byte aligned; handle 0 is ""; lib/Runtime/Strings.c). Its signless twin
// is i64, so the data-movement lowerings (Reshape, Gather, Concat, Where...)
// move handles like any int64. A constant is a byte global of its records
// back to back; its handles are the global's address plus each record's
// offset. The string ops call the runtime's onnxc_string_* functions one
// element at a time; the strings they make live in the running session's
// arena until the session copies the outputs.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The bytes of `values` as the runtime's string records back to back, and
/// the offset of each record.
static std::vector<char> packRecords(ArrayRef<StringRef> values,
                                     SmallVectorImpl<int64_t> &offsets) {
  std::vector<char> bytes;
  for (StringRef v : values) {
    offsets.push_back(static_cast<int64_t>(bytes.size()));
    uint64_t size = v.size();
    for (int i = 0; i < 8; ++i)
      bytes.push_back(static_cast<char>((size >> (8 * i)) & 0xff));
    bytes.insert(bytes.end(), v.begin(), v.end());
    bytes.push_back('\0');
    bytes.resize((bytes.size() + 7) / 8 * 8, '\0');
  }
  if (bytes.empty())
    bytes.assign(8, '\0'); // a global is never empty
  return bytes;
}

/// The address (as i64) of a new constant byte global holding the records
/// of `values`; their offsets in `offsets`.
static Value createRecordGlobal(OpBuilder &b, Location loc,
                                ArrayRef<StringRef> values,
                                SmallVectorImpl<int64_t> &offsets) {
  std::vector<char> bytes = packRecords(values, offsets);
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto type =
      MemRefType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
  auto init = DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get(type.getShape(), b.getI8Type()), bytes);
  // Built detached, then inserted under a unique name.
  OpBuilder detached(b.getContext());
  auto global = detached.create<memref::GlobalOp>(
      loc, "__onnxc_strings", b.getStringAttr("private"), type, init,
      /*constant=*/true, b.getI64IntegerAttr(8));
  SymbolTable(module).insert(global, module.getBody()->begin());
  Value buffer = b.create<memref::GetGlobalOp>(loc, type, global.getName());
  Value address = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, buffer);
  return b.create<arith::IndexCastOp>(loc, b.getI64Type(), address);
}

Value onnxc::tolinalg::createStringConstant(OpBuilder &b, Location loc,
                                            DenseStringElementsAttr value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<StringRef> values(value.getValues<StringRef>());
  SmallVector<int64_t> offsets;
  Value base = createRecordGlobal(b, loc, values, offsets);
  auto offsetType = RankedTensorType::get(type.getShape(), b.getI64Type());
  Value offsetTensor = b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(offsetType, ArrayRef<int64_t>(offsets)));
  return createElementwiseMap(
      b, loc, ValueRange{offsetTensor}, type, {},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value handle = nb.create<arith::AddIOp>(nl, base, args[0]);
        return fromSignless(nb, nl, handle, type.getElementType());
      });
}

/// The handle of the constant string `value`.
static Value createStringScalar(OpBuilder &b, Location loc, StringRef value) {
  SmallVector<int64_t> offsets;
  return createRecordGlobal(b, loc, {value}, offsets);
}

Value onnxc::tolinalg::createCString(OpBuilder &b, Location loc,
                                     StringRef text) {
  // A record's bytes follow its 8-byte size and end in a NUL.
  Value record = createStringScalar(b, loc, text);
  return b.create<arith::AddIOp>(loc, record,
                                 b.create<arith::ConstantIntOp>(loc, 8, 64));
}

/// The runtime's string functions (onnxc_runtime.h): name, argument types
/// and result type, a letter each: l i64 (a string handle or an integer),
/// b i1, d f64.
namespace {
struct StringFunction {
  StringRef name;
  StringRef args;
  char result;
};
} // namespace
static constexpr StringFunction kStringFunctions[] = {
    {"onnxc_string_equal", "ll", 'b'},
    {"onnxc_string_concat", "ll", 'l'},
    {"onnxc_string_split_count", "lll", 'l'},
    {"onnxc_string_split_part", "llll", 'l'},
    {"onnxc_string_in_table", "lllb", 'b'},
    {"onnxc_string_change_case", "ll", 'l'},
    {"onnxc_string_from_float", "dl", 'l'},
    {"onnxc_string_from_int", "ll", 'l'},
    {"onnxc_string_to_float", "l", 'd'},
    {"onnxc_string_to_int", "ll", 'l'},
    {"onnxc_regex_compile", "l", 'l'},
    {"onnxc_regex_full_match", "ll", 'b'}};

/// Declares the runtime's string functions in the module of `op` (a body
/// builder of a linalg.generic has no module to find yet).
static void declareStringFunctions(Operation *op, OpBuilder &b) {
  auto module = op->getParentOfType<ModuleOp>();
  auto typeOf = [&](char code) -> Type {
    return code == 'b'   ? b.getI1Type()
           : code == 'd' ? Type(b.getF64Type())
                         : Type(b.getI64Type());
  };
  for (const StringFunction &f : kStringFunctions) {
    if (module.lookupSymbol(f.name))
      continue;
    SmallVector<Type> args = llvm::map_to_vector(f.args, typeOf);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    b.create<func::FuncOp>(module.getLoc(), f.name,
                           b.getFunctionType(args, typeOf(f.result)))
        .setPrivate();
  }
}

/// Calls the runtime's `name` (declared by declareStringFunctions) on the
/// signless scalars `args`.
static Value callString(OpBuilder &b, Location loc, StringRef name,
                        ValueRange args, Type result) {
  SmallVector<Value> signless = llvm::map_to_vector(
      args, [&](Value arg) { return toSignless(b, loc, arg); });
  return b.create<func::CallOp>(loc, name, result, signless).getResult(0);
}

static bool isStringTensor(Value value) {
  return isa<onnx::StringType>(getElementTypeOrSelf(value.getType()));
}

/// The string of the number `x` (of element type `from`, signless).
static Value numberToString(OpBuilder &b, Location loc, Value x, Type from) {
  Type i64 = b.getI64Type();
  auto flag = [&](bool v) {
    return b.create<arith::ConstantIntOp>(loc, v ? 1 : 0, 64).getResult();
  };
  if (auto floatType = dyn_cast<FloatType>(from)) {
    if (!floatType.isF64())
      x = b.create<arith::ExtFOp>(loc, b.getF64Type(), x);
    return b
        .create<func::CallOp>(loc, "onnxc_string_from_float", i64,
                              ValueRange{x, flag(floatType.isF32())})
        .getResult(0);
  }
  bool isUnsigned = from.isUnsignedInteger();
  if (from.getIntOrFloatBitWidth() < 64)
    x = isUnsigned ? b.create<arith::ExtUIOp>(loc, i64, x).getResult()
                   : b.create<arith::ExtSIOp>(loc, i64, x).getResult();
  return b
      .create<func::CallOp>(loc, "onnxc_string_from_int", i64,
                            ValueRange{x, flag(isUnsigned)})
      .getResult(0);
}

/// The number (signless, of element type `to`) that the string `s` reads as.
static Value stringToNumber(OpBuilder &b, Location loc, Value s, Type to) {
  if (auto floatType = dyn_cast<FloatType>(to)) {
    Value x =
        b.create<func::CallOp>(loc, "onnxc_string_to_float", b.getF64Type(), s)
            .getResult(0);
    return floatType.isF64() ? x : b.create<arith::TruncFOp>(loc, floatType, x);
  }
  bool isUnsigned = to.isUnsignedInteger();
  Value x =
      b.create<func::CallOp>(loc, "onnxc_string_to_int", b.getI64Type(),
                             ValueRange{s, b.create<arith::ConstantIntOp>(
                                               loc, isUnsigned ? 1 : 0, 64)})
          .getResult(0);
  unsigned width = to.getIntOrFloatBitWidth();
  return width == 64
             ? x
             : b.create<arith::TruncIOp>(loc, b.getIntegerType(width), x);
}

namespace {
/// Equal on strings: byte-for-byte equality (the numeric form is the
/// elementwise lowering's).
struct StringEqualLowering : public OpConversionPattern<onnx::EqualOp> {
  StringEqualLowering(MLIRContext *ctx)
      : OpConversionPattern(ctx, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(onnx::EqualOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isStringTensor(op.getA()))
      return rewriter.notifyMatchFailure(op, "not strings");
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    declareStringFunctions(op, rewriter);
    Value result = createElementwise(
        rewriter, op.getLoc(), adaptor.getOperands(), resultType,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return callString(b, loc, "onnxc_string_equal", args, b.getI1Type());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Cast and CastLike to or from strings: each element formatted or parsed
/// by the runtime (the numeric casts are the elementwise lowering's).
template <typename OpT>
struct StringCastLowering : public OpConversionPattern<OpT> {
  StringCastLowering(MLIRContext *ctx)
      : OpConversionPattern<OpT>(ctx, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op->getOperand(0).getType());
    Type to = getElementTypeOrSelf(op->getResult(0).getType());
    if (!isStringType(from) && !isStringType(to))
      return rewriter.notifyMatchFailure(op, "no strings");
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    declareStringFunctions(op, rewriter);
    Value result = createElementwise(
        rewriter, op.getLoc(), ValueRange{adaptor.getOperands()[0]}, resultType,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          if (isStringType(from) && isStringType(to))
            return args[0];
          Value x = toSignless(b, loc, args[0]);
          Value y = isStringType(to) ? numberToString(b, loc, x, from)
                                     : stringToNumber(b, loc, x, to);
          return fromSignless(b, loc, y, to);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct StringConcatLowering : public ONNXToLinalgPattern<onnx::StringConcatOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::StringConcatOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type string = resultType.getElementType();
    declareStringFunctions(op, rewriter);
    Value result = createElementwise(
        rewriter, loc, adaptor.getOperands(), resultType,
        [&](OpBuilder &b, Location nl, ValueRange args) {
          Value handle =
              callString(b, nl, "onnxc_string_concat", args, b.getI64Type());
          return fromSignless(b, nl, handle, string);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// RegexFullMatch: the pattern compiled once per run (the runtime keeps
/// each pattern's regex for the process), then each string matched.
struct RegexFullMatchLowering
    : public ONNXToLinalgPattern<onnx::RegexFullMatchOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::RegexFullMatchOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    declareStringFunctions(op, rewriter);
    Value pattern = createStringScalar(rewriter, loc, op.getPattern());
    Value regex = callString(rewriter, loc, "onnxc_regex_compile",
                             ValueRange{pattern}, rewriter.getI64Type());
    Value result = createElementwise(
        rewriter, loc, ValueRange{adaptor.getX()}, resultType,
        [&](OpBuilder &b, Location nl, ValueRange args) {
          return callString(b, nl, "onnxc_regex_full_match",
                            ValueRange{regex, args[0]}, b.getI1Type());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// StringSplit: the part counts (Z) first, their maximum sizes the new dim
/// of Y, then each part of Y asked for by its index.
struct StringSplitLowering
    : public ONNXToLinalgMultiResultPattern<onnx::StringSplitOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::StringSplitOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    Type i64 = rewriter.getI64Type();
    declareStringFunctions(op, rewriter);
    Value delimiter =
        createStringScalar(rewriter, loc, op.getDelimiter().value_or(""));
    Value maxsplit = rewriter.create<arith::ConstantIntOp>(
        loc, op.getMaxsplit().value_or(-1), 64);
    SmallVector<OpFoldResult> xSizes = getDimSizes(rewriter, loc, x);

    Value counts = createElementwiseMap(
        rewriter, loc, ValueRange{x}, resultTypes[1], xSizes,
        [&](OpBuilder &b, Location nl, ValueRange args) {
          return callString(b, nl, "onnxc_string_split_count",
                            {args[0], delimiter, maxsplit}, i64);
        });

    // The most parts of any string (0 for no string).
    auto scalarType = RankedTensorType::get({}, i64);
    Value zero = createFilled(rewriter, loc, scalarType, {},
                              createScalar(rewriter, loc, i64, 0));
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   AffineMap::get(rank, 0, getContext())};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::reduction);
    Value most = rewriter
                     .create<linalg::GenericOp>(
                         loc, TypeRange{scalarType}, ValueRange{counts},
                         ValueRange{zero}, maps, iterators,
                         [&](OpBuilder &b, Location nl, ValueRange args) {
                           b.create<linalg::YieldOp>(
                               nl, ValueRange{b.create<arith::MaxSIOp>(
                                       nl, args[0], args[1])});
                         })
                     .getResult(0);
    Value width = rewriter.create<arith::IndexCastOp>(
        loc, rewriter.getIndexType(),
        rewriter.create<tensor::ExtractOp>(loc, most, ValueRange{}));

    RankedTensorType yType = resultTypes[0];
    SmallVector<OpFoldResult> ySizes = xSizes;
    ySizes.push_back(width);
    Value empty = createEmpty(rewriter, loc, yType, ySizes);
    SmallVector<AffineExpr> xExprs;
    for (int64_t d = 0; d < rank; ++d)
      xExprs.push_back(rewriter.getAffineDimExpr(d));
    SmallVector<AffineMap> partMaps = {
        AffineMap::get(rank + 1, 0, xExprs, getContext()),
        rewriter.getMultiDimIdentityMap(rank + 1)};
    Type string = yType.getElementType();
    Value parts = rewriter
                      .create<linalg::GenericOp>(
                          loc, TypeRange{yType}, ValueRange{x},
                          ValueRange{empty}, partMaps, getParallel(rank + 1),
                          [&](OpBuilder &b, Location nl, ValueRange args) {
                            Value index = b.create<arith::IndexCastOp>(
                                nl, i64, b.create<linalg::IndexOp>(nl, rank));
                            Value handle = callString(
                                b, nl, "onnxc_string_split_part",
                                {args[0], delimiter, maxsplit, index}, i64);
                            b.create<linalg::YieldOp>(
                                nl, fromSignless(b, nl, handle, string));
                          })
                      .getResult(0);
    rewriter.replaceOp(op, {parts, counts});
    return success();
  }
};

/// StringNormalizer: one loop over the strings that keeps those not in the
/// stop-word table (changing their case) at the next free position of a
/// result as long as the input (at least one string, all ""), then the
/// kept ones sliced out (at least one).
struct StringNormalizerLowering
    : public ONNXToLinalgPattern<onnx::StringNormalizerOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::StringNormalizerOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    Type i64 = rewriter.getI64Type(), string = resultType.getElementType();
    declareStringFunctions(op, rewriter);
    SmallVector<StringRef> stopwords;
    if (ArrayAttr words = op.getStopwordsAttr())
      for (Attribute word : words)
        stopwords.push_back(cast<StringAttr>(word).getValue());
    Value table;
    if (!stopwords.empty()) {
      SmallVector<int64_t> offsets;
      table = createRecordGlobal(rewriter, loc, stopwords, offsets);
    }
    Value numStopwords = rewriter.create<arith::ConstantIntOp>(
        loc, static_cast<int64_t>(stopwords.size()), 64);
    Value caseSensitive = rewriter.create<arith::ConstantIntOp>(
        loc, op.getIsCaseSensitive() != 0, 1);
    StringRef action = op.getCaseChangeAction();
    Value upper = rewriter.create<arith::ConstantIntOp>(
        loc, action == "UPPER" ? 1 : 0, 64);

    Value zero = createIndex(rewriter, loc, 0);
    Value one = createIndex(rewriter, loc, 1);
    Value count =
        toValue(rewriter, loc, getDimSize(rewriter, loc, x, rank - 1));
    Value capacity = rewriter.create<arith::MaxSIOp>(loc, count, one);
    SmallVector<OpFoldResult> sizes(rank, rewriter.getIndexAttr(1));
    sizes.back() = capacity;
    auto fullType = resultType.clone(
        rank == 1 ? SmallVector<int64_t>{ShapedType::kDynamic}
                  : SmallVector<int64_t>{1, ShapedType::kDynamic});
    Value empty =
        fromSignless(rewriter, loc,
                     rewriter.create<arith::ConstantIntOp>(loc, 0, 64), string);
    Value init = createFilled(rewriter, loc, fullType, sizes, empty);

    auto loop = rewriter.create<scf::ForOp>(
        loc, zero, count, one, ValueRange{init, zero},
        [&](OpBuilder &b, Location nl, Value i, ValueRange state) {
          SmallVector<Value> at(rank, zero);
          at.back() = i;
          Value s = b.create<tensor::ExtractOp>(nl, x, at);
          Value stop = b.create<arith::ConstantIntOp>(nl, 0, 1);
          if (table)
            stop = callString(b, nl, "onnxc_string_in_table",
                              {s, table, numStopwords, caseSensitive},
                              b.getI1Type());
          auto keep = b.create<scf::IfOp>(
              nl, stop,
              [&](OpBuilder &tb, Location tl) {
                tb.create<scf::YieldOp>(tl, state);
              },
              [&](OpBuilder &eb, Location el) {
                Value kept = s;
                if (action != "NONE")
                  kept = fromSignless(eb, el,
                                      callString(eb, el,
                                                 "onnxc_string_change_case",
                                                 {s, upper}, i64),
                                      string);
                SmallVector<Value> to(rank, zero);
                to.back() = state[1];
                Value next =
                    eb.create<tensor::InsertOp>(el, kept, state[0], to);
                Value position = eb.create<arith::AddIOp>(el, state[1], one);
                eb.create<scf::YieldOp>(el, ValueRange{next, position});
              });
          b.create<scf::YieldOp>(nl, keep.getResults());
        });
    Value kept = rewriter.create<arith::MaxSIOp>(loc, loop.getResult(1), one);
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> keptSizes(rank, rewriter.getIndexAttr(1));
    keptSizes.back() = kept;
    Value result = rewriter.create<tensor::ExtractSliceOp>(
        loc, loop.getResult(0), offsets, keptSizes, strides);
    rewriter.replaceOp(op, castTo(rewriter, loc, result, resultType));
    return success();
  }
};
} // namespace

void onnxc::populateONNXStringToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<StringEqualLowering, StringConcatLowering, StringSplitLowering,
               StringNormalizerLowering, RegexFullMatchLowering,
               StringCastLowering<onnx::CastOp>,
               StringCastLowering<onnx::CastLikeOp>>(patterns.getContext());
}
