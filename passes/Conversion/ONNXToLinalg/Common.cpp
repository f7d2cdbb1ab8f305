//===- Common.cpp - Helpers shared by the onnx -> linalg patterns ---------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;

namespace onnxc::tolinalg {

/// a * b, or `?` if either is.
static int64_t productOfTwo(int64_t a, int64_t b) {
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
    return ShapedType::kDynamic;
  return a * b;
}

RankedTensorType getRankedResultType(Operation *op, unsigned index) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(index).getType());
  if (!type)
    op->emitOpError("needs a ranked result type to be lowered (got ")
        << op->getResult(index).getType() << ")";
  return type;
}

LogicalResult checkRankedOperands(Operation *op) {
  for (Value operand : op->getOperands()) {
    if (onnx::isNoValue(operand) || isa<RankedTensorType>(operand.getType()))
      continue;
    return op->emitOpError("needs ranked operands to be lowered (got ")
           << operand.getType() << ")";
  }
  return success();
}

bool isStorageOnlyType(Type type) {
  if (onnx::isLowPrecisionFloat(type))
    return true;
  auto intType = dyn_cast<IntegerType>(type);
  return intType && (intType.getWidth() == 2 || intType.getWidth() == 4);
}

bool isStringType(Type type) { return isa<onnx::StringType>(type); }

bool isArithType(Type type) {
  if (isStorageOnlyType(type))
    return false;
  if (isa<FloatType>(type))
    return true;
  auto intType = dyn_cast<IntegerType>(type);
  return intType && intType.isSignless();
}

LogicalResult unsupportedElementType(Operation *op, Type type) {
  return op->emitOpError("has unsupported element type ") << type;
}

Type getSignlessType(Type type) {
  // Sequences, optionals and maps are handles of runtime objects
  // (Sequence.cpp).
  if (isa<onnx::SeqType, onnx::OptType, onnx::MapType>(type))
    return RankedTensorType::get({}, IntegerType::get(type.getContext(), 64));
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    Type element = getSignlessType(shaped.getElementType());
    return element == shaped.getElementType() ? type : shaped.clone(element);
  }
  if (isStorageOnlyType(type))
    return IntegerType::get(type.getContext(), 8);
  if (isStringType(type))
    return IntegerType::get(type.getContext(), 64);
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType || !intType.isUnsigned())
    return type;
  return IntegerType::get(type.getContext(), intType.getWidth());
}

Value toSignless(OpBuilder &b, Location loc, Value value) {
  Type signless = getSignlessType(value.getType());
  if (signless == value.getType())
    return value;
  return b.create<UnrealizedConversionCastOp>(loc, signless, value)
      .getResult(0);
}

Value fromSignless(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  assert(getSignlessType(type) == value.getType() &&
         "expects the signless twin of the type");
  return b.create<UnrealizedConversionCastOp>(loc, type, value).getResult(0);
}

/// `attr` (an arith.constant's value) with a signless element type.
static TypedAttr getSignlessAttr(TypedAttr attr) {
  Type type = getSignlessType(attr.getType());
  if (type == attr.getType())
    return attr;
  Type element = getElementTypeOrSelf(attr.getType());
  Type signless = getElementTypeOrSelf(type);
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (dense && element.getIntOrFloatBitWidth() < 8) {
    // i4, ui4, i2, ui2: each value extended to its byte.
    bool isUnsigned = element.isUnsignedInteger();
    return dense.mapValues(signless, [&](const APInt &v) {
      return isUnsigned ? v.zext(8) : v.sext(8);
    });
  }
  if (dense)
    return dense.bitcast(signless);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    return DenseResourceElementsAttr::get(cast<ShapedType>(type),
                                          resource.getRawHandle());
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    unsigned width = type.getIntOrFloatBitWidth();
    const APInt &v = integer.getValue();
    return IntegerAttr::get(type, element.isUnsignedInteger() ? v.zext(width)
                                                              : v.sext(width));
  }
  if (auto value = dyn_cast<FloatAttr>(attr)) // a float8 code
    return IntegerAttr::get(type, value.getValue().bitcastToAPInt());
  llvm_unreachable("unexpected unsigned or storage-only constant");
}

void makeIntegersSignless(Operation *root) {
  MLIRContext *ctx = root->getContext();
  auto convert = [](TypeRange types) {
    return llvm::map_to_vector(types,
                               [](Type t) { return getSignlessType(t); });
  };
  SmallVector<UnrealizedConversionCastOp> casts;
  root->walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(getSignlessType(arg.getType()));
    for (OpResult result : op->getResults())
      result.setType(getSignlessType(result.getType()));
    if (auto func = dyn_cast<func::FuncOp>(op))
      func.setFunctionType(
          FunctionType::get(ctx, convert(func.getFunctionType().getInputs()),
                            convert(func.getFunctionType().getResults())));
    else if (auto constant = dyn_cast<arith::ConstantOp>(op))
      constant.setValueAttr(getSignlessAttr(constant.getValue()));
    else if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op))
      casts.push_back(cast);
  });
  for (UnrealizedConversionCastOp cast : casts) {
    if (cast->getNumOperands() != 1 || cast->getNumResults() != 1 ||
        cast.getOperand(0).getType() != cast.getResult(0).getType())
      continue;
    cast.getResult(0).replaceAllUsesWith(cast.getOperand(0));
    cast.erase();
  }
}

OpFoldResult getDimSize(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  return b.create<tensor::DimOp>(loc, tensor, dim).getResult();
}

SmallVector<OpFoldResult> getDimSizes(OpBuilder &b, Location loc,
                                      Value tensor) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0, e = cast<RankedTensorType>(tensor.getType()).getRank();
       i < e; ++i)
    sizes.push_back(getDimSize(b, loc, tensor, i));
  return sizes;
}

Value toValue(OpBuilder &b, Location loc, OpFoldResult ofr) {
  return getValueOrCreateConstantIndexOp(b, loc, ofr);
}

Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> dynamic;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dynamic.push_back(toValue(b, loc, sizes[i]));
  return b.create<tensor::EmptyOp>(loc, type, dynamic);
}

Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   ArrayRef<OpFoldResult> sizes, Value value) {
  Value empty = createEmpty(b, loc, type, sizes);
  return b.create<linalg::FillOp>(loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

Value createScalar(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType>(type))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, value));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value createLowest(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(
        loc, b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                                  /*Negative=*/true)));
  unsigned width = type.getIntOrFloatBitWidth();
  return b.create<arith::ConstantOp>(
      loc,
      b.getIntegerAttr(type, width == 1 ? APInt(1, 0)
                                        : APInt::getSignedMinValue(width)));
}

Value createIndex(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIndexOp>(loc, value);
}

Value createAdd(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::AddFOp>(loc, lhs, rhs);
  return b.create<arith::AddIOp>(loc, lhs, rhs);
}

Value createSub(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::SubFOp>(loc, lhs, rhs);
  return b.create<arith::SubIOp>(loc, lhs, rhs);
}

Value createMul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::MulFOp>(loc, lhs, rhs);
  return b.create<arith::MulIOp>(loc, lhs, rhs);
}

Value createDiv(OpBuilder &b, Location loc, Value lhs, Value rhs,
                bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::DivFOp>(loc, lhs, rhs);
  if (isUnsigned)
    return b.create<arith::DivUIOp>(loc, lhs, rhs);
  return b.create<arith::DivSIOp>(loc, lhs, rhs);
}

Value createMax(OpBuilder &b, Location loc, Value lhs, Value rhs,
                bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::MaximumFOp>(loc, lhs, rhs);
  if (lhs.getType().isInteger(1))
    return b.create<arith::OrIOp>(loc, lhs, rhs);
  if (isUnsigned)
    return b.create<arith::MaxUIOp>(loc, lhs, rhs);
  return b.create<arith::MaxSIOp>(loc, lhs, rhs);
}

Value createMin(OpBuilder &b, Location loc, Value lhs, Value rhs,
                bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::MinimumFOp>(loc, lhs, rhs);
  if (lhs.getType().isInteger(1))
    return b.create<arith::AndIOp>(loc, lhs, rhs);
  if (isUnsigned)
    return b.create<arith::MinUIOp>(loc, lhs, rhs);
  return b.create<arith::MinSIOp>(loc, lhs, rhs);
}

Value indexToElement(OpBuilder &b, Location loc, Value index, Type type) {
  if (isa<FloatType>(type)) {
    Value i64 = b.create<arith::IndexCastOp>(loc, b.getI64Type(), index);
    return b.create<arith::SIToFPOp>(loc, type, i64);
  }
  return b.create<arith::IndexCastOp>(loc, type, index);
}

Value createProduct(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes) {
  int64_t constant = 1;
  Value dynamic;
  for (OpFoldResult size : sizes) {
    if (std::optional<int64_t> c = getConstantIntValue(size)) {
      // Wrapping, as the run-time product (arith.muli on index) would.
      constant = static_cast<int64_t>(static_cast<uint64_t>(constant) *
                                      static_cast<uint64_t>(*c));
      continue;
    }
    Value v = cast<Value>(size);
    dynamic = dynamic ? b.create<arith::MulIOp>(loc, dynamic, v) : v;
  }
  if (!dynamic)
    return createIndex(b, loc, constant);
  if (constant == 1)
    return dynamic;
  return b.create<arith::MulIOp>(loc, dynamic, createIndex(b, loc, constant));
}

Value extractScalar(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> indices(type.getRank(), createIndex(b, loc, 0));
  return b.create<tensor::ExtractOp>(loc, tensor, indices);
}

SmallVector<utils::IteratorType> getParallel(unsigned count) {
  return SmallVector<utils::IteratorType>(count, utils::IteratorType::parallel);
}

AffineMap getBroadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                          ArrayRef<int64_t> resultShape) {
  int64_t offset = resultShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(operandShape)) {
    int64_t j = i + offset;
    if (dim == 1 && resultShape[j] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(j, ctx));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

SmallVector<OpFoldResult> getBroadcastSizes(OpBuilder &b, Location loc,
                                            ValueRange operands,
                                            RankedTensorType resultType) {
  SmallVector<OpFoldResult> sizes;
  int64_t rank = resultType.getRank();
  for (int64_t j = 0; j < rank; ++j) {
    if (!resultType.isDynamicDim(j)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(j)));
      continue;
    }
    // The largest of the operands' sizes: a `?` may be 1 at run time.
    Value size;
    for (Value operand : operands) {
      auto type = cast<RankedTensorType>(operand.getType());
      int64_t i = j - (rank - type.getRank());
      if (i < 0 || type.getDimSize(i) == 1)
        continue;
      Value dim = toValue(b, loc, getDimSize(b, loc, operand, i));
      size = size ? b.create<arith::MaxUIOp>(loc, size, dim).getResult() : dim;
    }
    sizes.push_back(size ? OpFoldResult(size)
                         : OpFoldResult(b.getIndexAttr(1)));
  }
  return sizes;
}

Value createElementwiseMap(OpBuilder &b, Location loc, ValueRange inputs,
                           RankedTensorType resultType,
                           ArrayRef<OpFoldResult> sizes, ScalarBuilder body) {
  MLIRContext *ctx = b.getContext();
  Value init = createEmpty(b, loc, resultType, sizes);
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(
        getBroadcastMap(ctx, cast<RankedTensorType>(input.getType()).getShape(),
                        resultType.getShape()));
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
      getParallel(resultType.getRank()),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        nested.create<linalg::YieldOp>(nestedLoc, result);
      });
  return generic.getResult(0);
}

/// The elementwise generic that reads inputs with `?` dims through
/// tensor.extract at `dim == 1 ? 0 : i`, so a run-time size 1 broadcasts.
static Value createRuntimeBroadcastElementwise(OpBuilder &b, Location loc,
                                               ValueRange inputs,
                                               ArrayRef<bool> gathered,
                                               RankedTensorType resultType,
                                               ArrayRef<OpFoldResult> sizes,
                                               ScalarBuilder body) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = resultType.getRank();
  Value init = createEmpty(b, loc, resultType, sizes);
  SmallVector<Value> direct;
  SmallVector<AffineMap> maps;
  for (auto [input, gather] : llvm::zip(inputs, gathered)) {
    if (gather)
      continue;
    direct.push_back(input);
    maps.push_back(
        getBroadcastMap(ctx, cast<RankedTensorType>(input.getType()).getShape(),
                        resultType.getShape()));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  // Whether each `?` dim of a gathered input is 1, computed outside the loop.
  SmallVector<SmallVector<Value>> isOne(inputs.size());
  Value c0 = b.create<arith::ConstantIndexOp>(loc, 0);
  Value c1 = b.create<arith::ConstantIndexOp>(loc, 1);
  for (auto [k, input] : llvm::enumerate(inputs)) {
    if (!gathered[k])
      continue;
    auto type = cast<RankedTensorType>(input.getType());
    for (int64_t i = 0; i < type.getRank(); ++i)
      isOne[k].push_back(type.isDynamicDim(i)
                             ? b.create<arith::CmpIOp>(
                                    loc, arith::CmpIPredicate::eq,
                                    b.create<tensor::DimOp>(loc, input, i), c1)
                                   .getResult()
                             : Value());
  }
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{resultType}, direct, ValueRange{init}, maps,
      getParallel(rank),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> scalars;
        auto directArg = args.begin();
        for (auto [k, input] : llvm::enumerate(inputs)) {
          if (!gathered[k]) {
            scalars.push_back(*directArg++);
            continue;
          }
          auto type = cast<RankedTensorType>(input.getType());
          SmallVector<Value> indices;
          for (int64_t i = 0; i < type.getRank(); ++i) {
            int64_t j = i + rank - type.getRank();
            Value index = nested.create<linalg::IndexOp>(nestedLoc, j);
            if (type.getDimSize(i) == 1 && resultType.getDimSize(j) != 1)
              index = c0;
            else if (isOne[k][i])
              index = nested.create<arith::SelectOp>(nestedLoc, isOne[k][i], c0,
                                                     index);
            indices.push_back(index);
          }
          scalars.push_back(
              nested.create<tensor::ExtractOp>(nestedLoc, input, indices));
        }
        nested.create<linalg::YieldOp>(nestedLoc,
                                       body(nested, nestedLoc, scalars));
      });
  return generic.getResult(0);
}

/// True if `size` is `tensor.dim %value, i`.
static bool isDimOf(OpFoldResult size, Value value, int64_t i) {
  auto dim = dyn_cast_if_present<Value>(size);
  auto dimOp = dim ? dim.getDefiningOp<tensor::DimOp>() : nullptr;
  return dimOp && dimOp.getSource() == value &&
         dimOp.getConstantIndex() == std::optional<int64_t>(i);
}

Value createElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                        RankedTensorType resultType,
                        ArrayRef<OpFoldResult> sizes, ScalarBuilder body) {
  // A `?` dim of an input may be 1 at run time where the result is larger.
  // Version the loop: the affine one when every such dim has the result's
  // size (the common case), the gathering one otherwise.
  int64_t rank = resultType.getRank();
  SmallVector<bool> gathered;
  Value allEqual;
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    bool mayBroadcast = false;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t j = i + rank - type.getRank();
      if (!type.isDynamicDim(i) || resultType.getDimSize(j) == 1 ||
          isDimOf(sizes[j], input, i))
        continue;
      mayBroadcast = true;
      Value eq = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                         b.create<tensor::DimOp>(loc, input, i),
                                         toValue(b, loc, sizes[j]));
      allEqual = allEqual
                     ? b.create<arith::AndIOp>(loc, allEqual, eq).getResult()
                     : eq;
    }
    gathered.push_back(mayBroadcast);
  }
  if (!allEqual)
    return createElementwiseMap(b, loc, inputs, resultType, sizes, body);
  auto ifOp = b.create<scf::IfOp>(
      loc, allEqual,
      [&](OpBuilder &then, Location thenLoc) {
        Value fast = createElementwiseMap(then, thenLoc, inputs, resultType,
                                          sizes, body);
        then.create<scf::YieldOp>(thenLoc, fast);
      },
      [&](OpBuilder &otherwise, Location elseLoc) {
        Value slow = createRuntimeBroadcastElementwise(
            otherwise, elseLoc, inputs, gathered, resultType, sizes, body);
        otherwise.create<scf::YieldOp>(elseLoc, slow);
      });
  return ifOp.getResult(0);
}

Value createElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                        RankedTensorType resultType, ScalarBuilder body) {
  return createElementwise(b, loc, inputs, resultType,
                           getBroadcastSizes(b, loc, inputs, resultType), body);
}

Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  // Sequences and optionals of other element shapes: the same handle.
  if (isa<onnx::SeqType, onnx::OptType, onnx::MapType>(type))
    return b.create<UnrealizedConversionCastOp>(loc, type, value).getResult(0);
  return b.create<tensor::CastOp>(loc, type, value);
}

SmallVector<ReassociationIndices> collapseAll(int64_t rank) {
  SmallVector<ReassociationIndices> reassociation;
  if (rank == 0)
    return reassociation;
  reassociation.emplace_back();
  for (int64_t i = 0; i < rank; ++i)
    reassociation.back().push_back(i);
  return reassociation;
}

/// True when a group of `reassociation` holds several dynamic dims of
/// `expanded` (a batch and a sequence folded into one dim). MLIR 19
/// mishandles an expand_shape of that kind: one-shot bufferization builds its
/// memref.expand_shape by inferring the output shape, which fails (SIGSEGV or
/// "Allocation failed"), and the canonicalizer folds tensor.dim of it to a
/// size divided by the kDynamic marker.
static bool
hasGroupOfDynamicDims(RankedTensorType expanded,
                      ArrayRef<ReassociationIndices> reassociation) {
  return llvm::any_of(reassociation, [&](const ReassociationIndices &group) {
    return llvm::count_if(
               group, [&](int64_t i) { return expanded.isDynamicDim(i); }) > 1;
  });
}

Value createShapedReshape(OpBuilder &b, Location loc, Value value,
                          RankedTensorType type, ArrayRef<OpFoldResult> sizes) {
  assert(static_cast<int64_t>(sizes.size()) == type.getRank() &&
         "one size per result dim");
  SmallVector<Value> dims;
  for (int64_t i = 0; i < type.getRank(); ++i)
    dims.push_back(type.isDynamicDim(i)
                       ? toValue(b, loc, sizes[i])
                       : createIndex(b, loc, type.getDimSize(i)));
  Value shape = b.create<tensor::FromElementsOp>(
      loc, RankedTensorType::get({type.getRank()}, b.getIndexType()), dims);
  return b.create<tensor::ReshapeOp>(loc, type, value, shape);
}

Value createExpandShape(OpBuilder &b, Location loc, Value value,
                        RankedTensorType type,
                        ArrayRef<ReassociationIndices> reassociation,
                        ArrayRef<OpFoldResult> sizes) {
  // No elements: an empty tensor, without an expand_shape, whose
  // bufferization in MLIR 19 crashes on a group of static size 0.
  if (llvm::is_contained(type.getShape(), 0))
    return createEmpty(b, loc, type, sizes);
  if (hasGroupOfDynamicDims(type, reassociation))
    return createShapedReshape(b, loc, value, type, sizes);
  SmallVector<OpFoldResult> outputShape;
  for (int64_t i = 0; i < type.getRank(); ++i)
    outputShape.push_back(
        type.isDynamicDim(i)
            ? OpFoldResult(toValue(b, loc, sizes[i]))
            : OpFoldResult(b.getIndexAttr(type.getDimSize(i))));
  return b.create<tensor::ExpandShapeOp>(loc, type, value, reassociation,
                                         outputShape);
}

Value reshapeThroughFlat(OpBuilder &b, Location loc, Value value,
                         RankedTensorType type, ArrayRef<OpFoldResult> sizes) {
  auto srcType = cast<RankedTensorType>(value.getType());
  Type element = srcType.getElementType();
  // No elements: an empty tensor (see createExpandShape).
  if (llvm::is_contained(type.getShape(), 0))
    return createEmpty(b, loc, type, sizes);
  // Straight to `type` without an expand_shape that MLIR 19 mishandles.
  if (llvm::count_if(type.getShape(), ShapedType::isDynamic) > 1)
    return createShapedReshape(b, loc, value, type, sizes);
  // To 1-D.
  Value flat = value;
  if (srcType.getRank() == 0) {
    flat = b.create<tensor::ExpandShapeOp>(
        loc, RankedTensorType::get({1}, element), value,
        ArrayRef<ReassociationIndices>{},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  } else if (srcType.getRank() > 1) {
    int64_t count = srcType.hasStaticShape() ? srcType.getNumElements()
                                             : ShapedType::kDynamic;
    flat = b.create<tensor::CollapseShapeOp>(
        loc, RankedTensorType::get({count}, element), value,
        collapseAll(srcType.getRank()));
  }
  // From 1-D.
  if (type.getRank() == 0) {
    flat = castTo(b, loc, flat, RankedTensorType::get({1}, element));
    return b.create<tensor::CollapseShapeOp>(loc, type, flat,
                                             ArrayRef<ReassociationIndices>{});
  }
  if (type.getRank() == 1)
    return castTo(b, loc, flat, type);
  int64_t count =
      type.hasStaticShape() ? type.getNumElements() : ShapedType::kDynamic;
  flat = castTo(b, loc, flat, RankedTensorType::get({count}, element));
  return createExpandShape(b, loc, flat, type, collapseAll(type.getRank()),
                           sizes);
}

Value collapseUnitDims(OpBuilder &b, Location loc, Value value,
                       ArrayRef<int64_t> unitDims, RankedTensorType type) {
  if (unitDims.empty())
    return castTo(b, loc, value, type);
  auto srcType = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(srcType.getShape());
  for (int64_t d : unitDims)
    shape[d] = 1;
  value = castTo(b, loc, value,
                 RankedTensorType::get(shape, srcType.getElementType()));
  auto isUnit = [&](int64_t i) { return llvm::is_contained(unitDims, i); };
  SmallVector<ReassociationIndices> reassociation =
      reassociationDropping(srcType.getRank(), isUnit);
  SmallVector<int64_t> collapsedShape;
  for (int64_t i = 0; i < srcType.getRank(); ++i)
    if (!isUnit(i))
      collapsedShape.push_back(shape[i]);
  Value collapsed = b.create<tensor::CollapseShapeOp>(
      loc, RankedTensorType::get(collapsedShape, srcType.getElementType()),
      value, reassociation);
  return castTo(b, loc, collapsed, type);
}

Value expandUnitDims(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> unitDims, RankedTensorType type) {
  if (unitDims.empty())
    return castTo(b, loc, value, type);
  auto srcType = cast<RankedTensorType>(value.getType());
  int64_t rank = srcType.getRank() + unitDims.size();
  auto isUnit = [&](int64_t j) { return llvm::is_contained(unitDims, j); };
  SmallVector<ReassociationIndices> reassociation =
      reassociationDropping(rank, isUnit);
  SmallVector<int64_t> expandedShape;
  SmallVector<OpFoldResult> outputShape;
  int64_t srcDim = 0;
  for (int64_t j = 0; j < rank; ++j) {
    if (isUnit(j)) {
      expandedShape.push_back(1);
      outputShape.push_back(b.getIndexAttr(1));
      continue;
    }
    expandedShape.push_back(srcType.getDimSize(srcDim));
    OpFoldResult size = getDimSize(b, loc, value, srcDim);
    if (srcType.isDynamicDim(srcDim))
      size = toValue(b, loc, size);
    outputShape.push_back(size);
    ++srcDim;
  }
  Value expanded = b.create<tensor::ExpandShapeOp>(
      loc, RankedTensorType::get(expandedShape, srcType.getElementType()),
      value, reassociation, outputShape);
  return castTo(b, loc, expanded, type);
}

Value createReduction(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> axes, Value init, Combiner combine) {
  auto srcType = cast<RankedTensorType>(input.getType());
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < srcType.getRank(); ++i) {
    if (llvm::is_contained(axes, i)) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    shape.push_back(srcType.getDimSize(i));
    sizes.push_back(getDimSize(b, loc, input, i));
    outExprs.push_back(getAffineDimExpr(i, ctx));
  }
  auto type = RankedTensorType::get(shape, srcType.getElementType());
  Value filled = createFilled(b, loc, type, sizes, init);
  SmallVector<AffineMap> maps{
      b.getMultiDimIdentityMap(srcType.getRank()),
      AffineMap::get(srcType.getRank(), 0, outExprs, ctx)};
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{type}, ValueRange{input}, ValueRange{filled}, maps,
      iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        nested.create<linalg::YieldOp>(
            nestedLoc, combine(nested, nestedLoc, args[0], args[1]));
      });
  return generic.getResult(0);
}

Value createBroadcastInDims(OpBuilder &b, Location loc, Value value,
                            RankedTensorType type, ArrayRef<OpFoldResult> sizes,
                            ArrayRef<int64_t> dims) {
  MLIRContext *ctx = b.getContext();
  auto srcType = cast<RankedTensorType>(value.getType());
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (srcType.getDimSize(i) == 1 && type.getDimSize(dim) != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(dim, ctx));
  }
  Value init = createEmpty(b, loc, type, sizes);
  SmallVector<AffineMap> maps{AffineMap::get(type.getRank(), 0, exprs, ctx),
                              b.getMultiDimIdentityMap(type.getRank())};
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{type}, ValueRange{value}, ValueRange{init}, maps,
      getParallel(type.getRank()),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        nested.create<linalg::YieldOp>(nestedLoc, args[0]);
      });
  return generic.getResult(0);
}

DenseIntElementsAttr getI64Pair(OpBuilder &b, ArrayRef<int64_t> values) {
  return b.getI64TensorAttr(values);
}

Value createPad(OpBuilder &b, Location loc, Value value,
                ArrayRef<OpFoldResult> low, ArrayRef<OpFoldResult> high,
                Value padValue) {
  auto isZero = [](OpFoldResult ofr) {
    std::optional<int64_t> c = getConstantIntValue(ofr);
    return c && *c == 0;
  };
  if (llvm::all_of(low, isZero) && llvm::all_of(high, isZero))
    return value;
  // A filled tensor with `value` inserted (tensor.pad with dynamic dims does
  // not bufferize correctly in MLIR 19).
  auto srcType = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes, srcSizes = getDimSizes(b, loc, value);
  for (int64_t i = 0; i < srcType.getRank(); ++i) {
    std::optional<int64_t> l = getConstantIntValue(low[i]);
    std::optional<int64_t> h = getConstantIntValue(high[i]);
    if (!srcType.isDynamicDim(i) && l && h) {
      shape.push_back(srcType.getDimSize(i) + *l + *h);
      sizes.push_back(b.getIndexAttr(shape.back()));
      continue;
    }
    shape.push_back(ShapedType::kDynamic);
    Value size = b.create<arith::AddIOp>(loc, toValue(b, loc, srcSizes[i]),
                                         toValue(b, loc, low[i]));
    sizes.push_back(b.create<arith::AddIOp>(loc, size, toValue(b, loc, high[i]))
                        .getResult());
  }
  auto type = RankedTensorType::get(shape, srcType.getElementType());
  Value filled = createFilled(b, loc, type, sizes, padValue);
  SmallVector<OpFoldResult> strides(srcType.getRank(), b.getIndexAttr(1));
  return b.create<tensor::InsertSliceOp>(loc, value, filled, low, srcSizes,
                                         strides);
}

Value createWindowOutputSize(OpBuilder &b, Location loc, Value inSize,
                             int64_t padBegin, int64_t padEnd,
                             OpFoldResult extent, int64_t stride,
                             bool ceilMode) {
  Value span;
  if (std::optional<int64_t> known = getConstantIntValue(extent)) {
    span = b.create<arith::AddIOp>(
        loc, inSize, createIndex(b, loc, padBegin + padEnd - *known));
  } else {
    // A kernel dim known at run time only.
    span = b.create<arith::SubIOp>(
        loc,
        b.create<arith::AddIOp>(loc, inSize,
                                createIndex(b, loc, padBegin + padEnd)),
        toValue(b, loc, extent));
  }
  Value strideValue = createIndex(b, loc, stride);
  Value one = createIndex(b, loc, 1);
  if (!ceilMode) {
    Value quotient = b.create<arith::DivSIOp>(loc, span, strideValue);
    return b.create<arith::AddIOp>(loc, quotient, one);
  }
  Value rounded =
      b.create<arith::AddIOp>(loc, span, createIndex(b, loc, stride - 1));
  Value quotient = b.create<arith::DivSIOp>(loc, rounded, strideValue);
  // The last window starts at quotient * stride; it must start before
  // in + padBegin.
  Value lastStart = b.create<arith::MulIOp>(loc, quotient, strideValue);
  Value limit =
      b.create<arith::AddIOp>(loc, inSize, createIndex(b, loc, padBegin));
  Value outside =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, lastStart, limit);
  Value out = b.create<arith::AddIOp>(loc, quotient, one);
  return b.create<arith::SelectOp>(loc, outside, quotient, out);
}

SameWindow createSameWindow(OpBuilder &b, Location loc, Value inSize,
                            OpFoldResult extent, int64_t stride, bool upper) {
  Value strideValue = createIndex(b, loc, stride);
  Value out = b.create<arith::DivSIOp>(
      loc,
      b.create<arith::AddIOp>(loc, inSize, createIndex(b, loc, stride - 1)),
      strideValue);
  Value span = b.create<arith::AddIOp>(
      loc,
      b.create<arith::MulIOp>(
          loc, b.create<arith::SubIOp>(loc, out, createIndex(b, loc, 1)),
          strideValue),
      toValue(b, loc, extent));
  Value total = b.create<arith::MaxSIOp>(
      loc, b.create<arith::SubIOp>(loc, span, inSize), createIndex(b, loc, 0));
  Value half = b.create<arith::DivSIOp>(loc, total, createIndex(b, loc, 2));
  Value rest = b.create<arith::SubIOp>(loc, total, half);
  return upper ? SameWindow{out, half, rest} : SameWindow{out, rest, half};
}

Value splitDim(OpBuilder &b, Location loc, Value value, int64_t dim,
               int64_t outer) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> outputShape;
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    int64_t j = shape.size();
    OpFoldResult size = getDimSize(b, loc, value, i);
    if (type.isDynamicDim(i))
      size = toValue(b, loc, size);
    if (i != dim) {
      shape.push_back(type.getDimSize(i));
      outputShape.push_back(size);
      reassociation.push_back({j});
      continue;
    }
    shape.push_back(outer);
    outputShape.push_back(b.getIndexAttr(outer));
    if (type.isDynamicDim(i)) {
      shape.push_back(ShapedType::kDynamic);
      outputShape.push_back(b.create<arith::DivUIOp>(loc, toValue(b, loc, size),
                                                     createIndex(b, loc, outer))
                                .getResult());
    } else {
      shape.push_back(type.getDimSize(i) / outer);
      outputShape.push_back(b.getIndexAttr(type.getDimSize(i) / outer));
    }
    reassociation.push_back({j, j + 1});
  }
  return b.create<tensor::ExpandShapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), value,
      reassociation, outputShape);
}

Value mergeDims(OpBuilder &b, Location loc, Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (i == dim + 1) {
      reassociation.back().push_back(i);
      shape.back() = productOfTwo(shape.back(), type.getDimSize(i));
      continue;
    }
    reassociation.push_back({i});
    shape.push_back(type.getDimSize(i));
  }
  return b.create<tensor::CollapseShapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), value,
      reassociation);
}

Value createHighest(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(
        loc, b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                                  /*Negative=*/false)));
  unsigned width = type.getIntOrFloatBitWidth();
  return b.create<arith::ConstantOp>(
      loc,
      b.getIntegerAttr(type, width == 1 ? APInt(1, 1)
                                        : APInt::getSignedMaxValue(width)));
}

std::optional<int64_t> getStaticLength(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != 1 || type.isDynamicDim(0))
    return std::nullopt;
  return type.getDimSize(0);
}

SmallVector<Value> getIndexValues(OpBuilder &b, Location loc, Value tensor,
                                  Value original, int64_t count) {
  SmallVector<Value> values;
  if (std::optional<SmallVector<int64_t>> constant =
          onnx::getConstantIntValues(original)) {
    for (int64_t v : *constant)
      values.push_back(createIndex(b, loc, v));
    return values;
  }
  for (int64_t i = 0; i < count; ++i) {
    Value element = b.create<tensor::ExtractOp>(
        loc, tensor, ValueRange{createIndex(b, loc, i)});
    values.push_back(
        b.create<arith::IndexCastOp>(loc, b.getIndexType(), element));
  }
  return values;
}

Value getIndexScalar(OpBuilder &b, Location loc, Value tensor, Value original) {
  if (std::optional<SmallVector<int64_t>> constant =
          onnx::getConstantIntValues(original);
      constant && constant->size() == 1)
    return createIndex(b, loc, (*constant)[0]);
  return b.create<arith::IndexCastOp>(loc, b.getIndexType(),
                                      extractScalar(b, loc, tensor));
}

Value normalizeIndex(OpBuilder &b, Location loc, Value index, Value size) {
  Value negative = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt,
                                                 index, createIndex(b, loc, 0));
  return b.createOrFold<arith::SelectOp>(
      loc, negative, b.createOrFold<arith::AddIOp>(loc, index, size), index);
}

SmallVector<Value> getAxesMask(OpBuilder &b, Location loc, Value axes,
                               int64_t rank) {
  Value rankValue = createIndex(b, loc, rank);
  Value falseValue = b.create<arith::ConstantOp>(loc, b.getBoolAttr(false));
  SmallVector<Value> mask(rank, falseValue);
  auto update = [&](OpBuilder &nb, Location l, Value axis,
                    SmallVectorImpl<Value> &bits) {
    axis = normalizeIndex(nb, l, axis, rankValue);
    for (int64_t i = 0; i < rank; ++i) {
      Value hit = nb.createOrFold<arith::CmpIOp>(l, arith::CmpIPredicate::eq,
                                                 axis, createIndex(nb, l, i));
      bits[i] = nb.createOrFold<arith::OrIOp>(l, bits[i], hit);
    }
  };
  auto readAxis = [&](OpBuilder &nb, Location l, Value i) -> Value {
    Value element = nb.create<tensor::ExtractOp>(l, axes, ValueRange{i});
    return nb.create<arith::IndexCastOp>(l, nb.getIndexType(), element);
  };
  // Unrolled when short (valid axes number at most `rank`); a loop past
  // that, so that a declared length of 2^63 - 1 (a fuzzed model) does not
  // unroll forever.
  std::optional<int64_t> length = getStaticLength(axes);
  if (length && *length <= std::max<int64_t>(rank, 8)) {
    for (int64_t i = 0; i < *length; ++i)
      update(b, loc, readAxis(b, loc, createIndex(b, loc, i)), mask);
    return mask;
  }
  Value count = b.create<tensor::DimOp>(loc, axes, 0);
  auto loop = b.create<scf::ForOp>(
      loc, createIndex(b, loc, 0), count, createIndex(b, loc, 1), mask,
      [&](OpBuilder &nb, Location l, Value i, ValueRange bits) {
        SmallVector<Value> next(bits);
        update(nb, l, readAxis(nb, l, i), next);
        nb.create<scf::YieldOp>(l, next);
      });
  return SmallVector<Value>(loop.getResults());
}

SmallVector<OpFoldResult> compactSizes(OpBuilder &b, Location loc,
                                       ArrayRef<Value> keep,
                                       ArrayRef<OpFoldResult> sizes,
                                       int64_t count) {
  // Dim i lands at position (number of kept dims before it).
  Value zero = createIndex(b, loc, 0), one = createIndex(b, loc, 1);
  SmallVector<Value> result(count, one);
  Value position = zero;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    Value sizeValue = toValue(b, loc, size);
    for (int64_t j = 0; j < count; ++j) {
      Value here = b.createOrFold<arith::AndIOp>(
          loc, keep[i],
          b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, position,
                                        createIndex(b, loc, j)));
      result[j] =
          b.createOrFold<arith::SelectOp>(loc, here, sizeValue, result[j]);
    }
    position = b.createOrFold<arith::AddIOp>(
        loc, position,
        b.createOrFold<arith::SelectOp>(loc, keep[i], one, zero));
  }
  return getAsOpFoldResult(result);
}

Value createArgReduction(OpBuilder &b, Location loc, Value input, int64_t axis,
                         bool max, bool last) {
  auto srcType = cast<RankedTensorType>(input.getType());
  Type element = srcType.getElementType();
  MLIRContext *ctx = b.getContext();
  int64_t rank = srcType.getRank();
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators[axis] = utils::IteratorType::reduction;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == axis)
      continue;
    shape.push_back(srcType.getDimSize(i));
    sizes.push_back(getDimSize(b, loc, input, i));
    outExprs.push_back(getAffineDimExpr(i, ctx));
  }
  auto valueType = RankedTensorType::get(shape, element);
  auto indexType = RankedTensorType::get(shape, b.getI64Type());
  Value values = createFilled(b, loc, valueType, sizes,
                              max ? createLowest(b, loc, element)
                                  : createHighest(b, loc, element));
  Value indices = createFilled(b, loc, indexType, sizes,
                               createScalar(b, loc, b.getI64Type(), 0));
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{valueType, indexType}, ValueRange{input},
      ValueRange{values, indices},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank), outMap, outMap},
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value in = args[0], best = args[1], bestIndex = args[2];
        Value better;
        if (isa<FloatType>(element)) {
          auto pred = max ? (last ? arith::CmpFPredicate::OGE
                                  : arith::CmpFPredicate::OGT)
                          : (last ? arith::CmpFPredicate::OLE
                                  : arith::CmpFPredicate::OLT);
          better = nb.create<arith::CmpFOp>(l, pred, in, best);
        } else {
          auto pred = max ? (last ? arith::CmpIPredicate::sge
                                  : arith::CmpIPredicate::sgt)
                          : (last ? arith::CmpIPredicate::sle
                                  : arith::CmpIPredicate::slt);
          better = nb.create<arith::CmpIOp>(l, pred, in, best);
        }
        Value index = nb.create<arith::IndexCastOp>(
            l, nb.getI64Type(), nb.create<linalg::IndexOp>(l, axis));
        // The first element always wins (an all -inf or NaN row picks 0).
        Value first =
            nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, index,
                                     createScalar(nb, l, nb.getI64Type(), 0));
        better = nb.create<arith::OrIOp>(l, better, first);
        nb.create<linalg::YieldOp>(
            l, ValueRange{
                   nb.create<arith::SelectOp>(l, better, in, best),
                   nb.create<arith::SelectOp>(l, better, index, bestIndex)});
      });
  return generic.getResult(1);
}

Value createCopy(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  Value init = createEmpty(b, loc, type, getDimSizes(b, loc, value));
  return b.create<linalg::CopyOp>(loc, value, init).getResult(0);
}

} // namespace onnxc::tolinalg
