//===- ShapeTensor.cpp - Result types of the onnx shape and tensor ops ----===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/Traits.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

static constexpr int64_t kDyn = ShapedType::kDynamic;

std::pair<int64_t, int64_t> onnxc::onnx::resolveSlice(int64_t dim, int64_t start,
                                                      int64_t end, int64_t step) {
  auto clamp = [](int64_t v, int64_t lo, int64_t hi) {
    return std::max(lo, std::min(v, hi));
  };
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  if (step > 0) {
    start = clamp(start, 0, dim);
    end = clamp(end, 0, dim);
    return {start, std::max<int64_t>(0, (end - start + step - 1) / step)};
  }
  start = clamp(start, 0, dim - 1);
  end = clamp(end, -1, dim - 1);
  return {start, std::max<int64_t>(0, (start - end - step - 1) / -step)};
}

std::optional<SliceParams>
onnxc::onnx::getConstantSliceParams(Value starts, Value ends, Value axes,
                                    Value steps, int64_t rank) {
  SliceParams p;
  auto s = getConstantIntValues(starts), e = getConstantIntValues(ends);
  if (!s || !e || s->size() != e->size())
    return std::nullopt;
  p.starts = *s;
  p.ends = *e;
  if (isNoValue(axes)) {
    for (size_t i = 0; i < s->size(); ++i)
      p.axes.push_back(i);
  } else if (auto a = getConstantIntValues(axes)) {
    p.axes = *a;
  } else {
    return std::nullopt;
  }
  if (isNoValue(steps)) {
    p.steps.assign(s->size(), 1);
  } else if (auto st = getConstantIntValues(steps)) {
    p.steps = *st;
  } else {
    return std::nullopt;
  }
  if (p.axes.size() != p.starts.size() || p.steps.size() != p.starts.size())
    return std::nullopt;
  for (int64_t &axis : p.axes) {
    auto norm = normalizeAxis(axis, rank);
    if (!norm)
      return std::nullopt;
    axis = *norm;
  }
  if (llvm::is_contained(p.steps, 0))
    return std::nullopt;
  return p;
}

std::optional<SmallVector<int64_t>> onnxc::onnx::getNormalizedAxes(Value axes,
                                                                   int64_t rank) {
  auto values = getConstantIntValues(axes);
  if (!values)
    return std::nullopt;
  for (int64_t &axis : *values) {
    auto norm = normalizeAxis(axis, rank);
    if (!norm)
      return std::nullopt;
    axis = *norm;
  }
  llvm::sort(*values);
  if (std::adjacent_find(values->begin(), values->end()) != values->end())
    return std::nullopt;
  return values;
}

/// A rank-`rank` tensor of `?` dims, or an unranked one if rank is unknown.
static Type dynamicTensor(std::optional<int64_t> rank, Type element) {
  if (!rank)
    return UnrankedTensorType::get(element);
  return RankedTensorType::get(SmallVector<int64_t>(*rank, kDyn), element);
}

/// The static length of a 1-D operand (a shape or axes list), if known.
static std::optional<int64_t> staticLength(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != 1 || type.isDynamicDim(0))
    return std::nullopt;
  return type.getDimSize(0);
}

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           ValueRange, DictionaryAttr attrs,
                                           OpaqueProperties props, RegionRange regions,
                                           SmallVectorImpl<Type> &result) {
  Adaptor op({}, attrs, props, regions);
  // constant_c1
  if (!op.getValueAttr())
    return opError(loc, "Constant", "expects a 'value' attribute");
  result.push_back(op.getValueAttr().getType());
  return success();
}

LogicalResult CastOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                       ValueRange operands, DictionaryAttr attrs,
                                       OpaqueProperties props, RegionRange regions,
                                       SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementType(ctx, op.getTo());
  // cast_c1
  if (!element)
    return opError(loc, "Cast", "has unsupported target data type ", op.getTo());
  result.push_back(cast<TensorType>(operands[0].getType()).clone(element));
  return success();
}

LogicalResult CastLikeOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location>,
                                           ValueRange operands, DictionaryAttr,
                                           OpaqueProperties, RegionRange,
                                           SmallVectorImpl<Type> &result) {
  result.push_back(cast<TensorType>(operands[0].getType())
                       .clone(getElementTypeOrSelf(operands[1])));
  return success();
}

LogicalResult ShapeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                        ValueRange operands, DictionaryAttr attrs,
                                        OpaqueProperties props, RegionRange regions,
                                        SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type i64 = IntegerType::get(ctx, 64);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!x) {
    result.push_back(RankedTensorType::get({kDyn}, i64));
    return success();
  }
  auto clampIndex = [&](int64_t v) {
    if (v < 0)
      v += x.getRank();
    return std::max<int64_t>(0, std::min<int64_t>(v, x.getRank()));
  };
  int64_t start = clampIndex(op.getStart());
  int64_t end = clampIndex(op.getEnd().value_or(x.getRank()));
  result.push_back(RankedTensorType::get({std::max<int64_t>(0, end - start)}, i64));
  return success();
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          ValueRange operands, DictionaryAttr attrs,
                                          OpaqueProperties props, RegionRange regions,
                                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto data = cast<TensorType>(op.getData().getType());
  Type element = data.getElementType();
  auto shape = getConstantIntValues(op.getShape());
  if (!shape) {
    result.push_back(dynamicTensor(staticLength(op.getShape()), element));
    return success();
  }
  SmallVector<int64_t> dims;
  int64_t inferred = -1;
  for (auto [i, s] : llvm::enumerate(*shape)) {
    if (s == -1) {
      // reshape_c1
      if (inferred >= 0)
        return opError(loc, "Reshape", "expects at most one -1 in 'shape'");
      inferred = i;
      dims.push_back(kDyn);
    } else if (s == 0 && op.getAllowzero() == 0) {
      // reshape_c2
      if (data.hasRank() && static_cast<int64_t>(i) >= data.getRank())
        return opError(loc, "Reshape", "copies dim ", i, " (a 0 in 'shape') "
                       "that the input of rank ", data.getRank(), " lacks");
      dims.push_back(data.hasRank() ? data.getDimSize(i) : kDyn);
    } else if (s < 0) {
      // reshape_c3
      return opError(loc, "Reshape", "has an invalid size ", s, " in 'shape'");
    } else {
      dims.push_back(s);
    }
  }
  if (inferred >= 0 && data.hasStaticShape()) {
    int64_t known = 1;
    for (auto [i, d] : llvm::enumerate(dims))
      if (static_cast<int64_t>(i) != inferred)
        known = ShapedType::isDynamic(d) || known == kDyn ? kDyn : known * d;
    if (known != kDyn && known != 0) {
      // reshape_c4
      if (data.getNumElements() % known != 0)
        return opError(loc, "Reshape", "cannot reshape ", data, " to 'shape' [",
                       llvm::make_range(shape->begin(), shape->end()), "]");
      dims[inferred] = data.getNumElements() / known;
    }
  }
  // reshape_c5
  if (data.hasStaticShape() && llvm::none_of(dims, ShapedType::isDynamic) &&
      productOfDims(dims) != data.getNumElements())
    return opError(loc, "Reshape", "cannot reshape ", data, " (",
                   data.getNumElements(), " elements) to ", productOfDims(dims),
                   " elements");
  result.push_back(RankedTensorType::get(dims, element));
  return success();
}

LogicalResult FlattenOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          ValueRange operands, DictionaryAttr attrs,
                                          OpaqueProperties props, RegionRange regions,
                                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  Type element = getElementTypeOrSelf(operands[0]);
  if (!x) {
    result.push_back(dynamicTensor(2, element));
    return success();
  }
  int64_t axis = op.getAxis();
  // flatten_c1
  if (axis < -x.getRank() || axis > x.getRank())
    return opError(loc, "Flatten", "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), "] (got ", axis, ")");
  if (axis < 0)
    axis += x.getRank();
  result.push_back(RankedTensorType::get(
      {productOfDims(x.getShape().take_front(axis)),
       productOfDims(x.getShape().drop_front(axis))},
      element));
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            ValueRange operands, DictionaryAttr attrs,
                                            OpaqueProperties props,
                                            RegionRange regions,
                                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!x) {
    result.push_back(op.getData().getType());
    return success();
  }
  SmallVector<int64_t> perm;
  if (auto p = op.getPerm())
    perm.assign(p->begin(), p->end());
  else
    for (int64_t i = x.getRank() - 1; i >= 0; --i)
      perm.push_back(i);
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  // transpose_c1
  if (static_cast<int64_t>(perm.size()) != x.getRank() ||
      llvm::any_of(llvm::enumerate(sorted),
                   [](auto it) { return it.value() != (int64_t)it.index(); }))
    return opError(loc, "Transpose", "expects 'perm' to be a permutation of [0, ",
                   x.getRank(), ")");
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(x.getDimSize(p));
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         ValueRange operands, DictionaryAttr attrs,
                                         OpaqueProperties props, RegionRange regions,
                                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // concat_c1
  if (operands.empty())
    return opError(loc, "Concat", "expects at least one input");
  Type element = getElementTypeOrSelf(operands[0]);
  std::optional<SmallVector<int64_t>> shape;
  int64_t axis = 0;
  for (Value v : operands) {
    // concat_c2
    if (getElementTypeOrSelf(v) != element)
      return opError(loc, "Concat", "expects inputs of one element type");
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t) {
      result.push_back(UnrankedTensorType::get(element));
      return success();
    }
    if (!shape) {
      auto norm = normalizeAxis(op.getAxis(), t.getRank());
      // concat_c3
      if (!norm)
        return opError(loc, "Concat", "expects 'axis' in [", -t.getRank(), ", ",
                       t.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()), ")");
      axis = *norm;
      shape.emplace(t.getShape());
      continue;
    }
    // concat_c4
    if (t.getRank() != static_cast<int64_t>(shape->size()))
      return opError(loc, "Concat", "expects inputs of one rank");
    for (int64_t i = 0; i < t.getRank(); ++i) {
      int64_t &d = (*shape)[i];
      if (i == axis) {
        d = ShapedType::isDynamic(d) || t.isDynamicDim(i) ? kDyn : d + t.getDimSize(i);
        continue;
      }
      // concat_c5
      if (dimsDiffer(d, t.getDimSize(i)))
        return opError(loc, "Concat", "expects inputs to agree on dim ", i,
                       " (got ", d, " and ", t.getDimSize(i), ")");
      if (ShapedType::isDynamic(d))
        d = t.getDimSize(i);
    }
  }
  result.push_back(RankedTensorType::get(*shape, element));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        ValueRange operands, DictionaryAttr attrs,
                                        OpaqueProperties props, RegionRange regions,
                                        SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!x) {
    result.push_back(op.getData().getType());
    return success();
  }
  auto params = getConstantSliceParams(op.getStarts(), op.getEnds(), op.getAxes(),
                                       op.getSteps(), x.getRank());
  SmallVector<int64_t> shape(x.getShape());
  if (!params) {
    // Without constant axes any dim may change.
    auto axes = isNoValue(op.getAxes()) ? std::nullopt
                                        : getConstantIntValues(op.getAxes());
    if (!axes) {
      result.push_back(dynamicTensor(x.getRank(), x.getElementType()));
      return success();
    }
    for (int64_t a : *axes)
      if (auto norm = normalizeAxis(a, x.getRank()))
        shape[*norm] = kDyn;
    result.push_back(RankedTensorType::get(shape, x.getElementType()));
    return success();
  }
  for (size_t i = 0; i < params->axes.size(); ++i) {
    int64_t axis = params->axes[i];
    if (x.isDynamicDim(axis)) {
      shape[axis] = kDyn;
      continue;
    }
    shape[axis] = resolveSlice(x.getDimSize(axis), params->starts[i],
                               params->ends[i], params->steps[i])
                      .second;
  }
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         ValueRange operands, DictionaryAttr attrs,
                                         OpaqueProperties props, RegionRange regions,
                                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  auto idx = dyn_cast<RankedTensorType>(op.getIndices().getType());
  Type element = getElementTypeOrSelf(operands[0]);
  if (!x || !idx) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  auto axis = normalizeAxis(op.getAxis(), x.getRank());
  // gather_c1
  if (!axis)
    return opError(loc, "Gather", "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()), ")");
  SmallVector<int64_t> shape(x.getShape().take_front(*axis));
  shape.append(idx.getShape().begin(), idx.getShape().end());
  shape.append(x.getShape().begin() + *axis + 1, x.getShape().end());
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          ValueRange operands, DictionaryAttr attrs,
                                          OpaqueProperties props, RegionRange regions,
                                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!x) {
    result.push_back(op.getData().getType());
    return success();
  }
  SmallVector<int64_t> shape;
  if (isNoValue(op.getAxes())) {
    for (int64_t d : x.getShape())
      if (d != 1)
        shape.push_back(d);
    result.push_back(RankedTensorType::get(shape, x.getElementType()));
    return success();
  }
  auto axes = getNormalizedAxes(op.getAxes(), x.getRank());
  if (!axes) {
    // squeeze_c1
    if (getConstantIntValues(op.getAxes()))
      return opError(loc, "Squeeze", "has invalid 'axes' for rank ", x.getRank());
    result.push_back(UnrankedTensorType::get(x.getElementType()));
    return success();
  }
  for (int64_t i = 0; i < x.getRank(); ++i) {
    if (!llvm::is_contained(*axes, i)) {
      shape.push_back(x.getDimSize(i));
      continue;
    }
    // squeeze_c2
    if (dimsDiffer(x.getDimSize(i), 1))
      return opError(loc, "Squeeze", "cannot squeeze dim ", i, " of size ",
                     x.getDimSize(i));
  }
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult UnsqueezeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            ValueRange operands, DictionaryAttr attrs,
                                            OpaqueProperties props,
                                            RegionRange regions,
                                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  auto length = staticLength(op.getAxes());
  if (!x || !length) {
    result.push_back(UnrankedTensorType::get(getElementTypeOrSelf(operands[0])));
    return success();
  }
  int64_t rank = x.getRank() + *length;
  auto axes = getNormalizedAxes(op.getAxes(), rank);
  if (!axes) {
    // unsqueeze_c1
    if (getConstantIntValues(op.getAxes()))
      return opError(loc, "Unsqueeze", "has invalid 'axes' for output rank ", rank);
    result.push_back(dynamicTensor(rank, x.getElementType()));
    return success();
  }
  SmallVector<int64_t> shape;
  auto in = x.getShape().begin();
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(llvm::is_contained(*axes, i) ? 1 : *in++);
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult ExpandOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         ValueRange operands, DictionaryAttr attrs,
                                         OpaqueProperties props, RegionRange regions,
                                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  Type element = getElementTypeOrSelf(operands[0]);
  auto shape = getConstantIntValues(op.getShape());
  if (!x || !shape) {
    auto length = staticLength(op.getShape());
    result.push_back(x && length
                         ? dynamicTensor(std::max(*length, x.getRank()), element)
                         : UnrankedTensorType::get(element));
    return success();
  }
  SmallVector<int64_t> out;
  // expand_c1
  if (!OpTrait::util::getBroadcastedShape(x.getShape(), *shape, out))
    return opError(loc, "Expand", "cannot broadcast ", x, " to shape [",
                   llvm::make_range(shape->begin(), shape->end()), "]");
  result.push_back(RankedTensorType::get(out, element));
  return success();
}

LogicalResult ConstantOfShapeOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = Float32Type::get(ctx);
  if (auto value = op.getValueAttr()) {
    // constantofshape_c1
    if (value.getNumElements() != 1)
      return opError(loc, "ConstantOfShape", "expects a one-element 'value'");
    element = value.getElementType();
  }
  auto shape = getConstantIntValues(op.getInput());
  if (!shape) {
    result.push_back(dynamicTensor(staticLength(op.getInput()), element));
    return success();
  }
  // constantofshape_c2
  if (llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
    return opError(loc, "ConstantOfShape", "expects non-negative dims");
  result.push_back(RankedTensorType::get(*shape, element));
  return success();
}

/// Result type of the reductions.
template <typename AdaptorT>
static LogicalResult inferReduce(std::optional<Location> loc, StringRef opName,
                                 AdaptorT op, SmallVectorImpl<Type> &result) {
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!x) {
    result.push_back(op.getData().getType());
    return success();
  }
  std::optional<SmallVector<int64_t>> axes;
  if (isNoValue(op.getAxes()) ||
      (staticLength(op.getAxes()) == 0)) {
    axes.emplace();
    if (op.getNoopWithEmptyAxes() == 0)
      for (int64_t i = 0; i < x.getRank(); ++i)
        axes->push_back(i);
  } else {
    axes = getNormalizedAxes(op.getAxes(), x.getRank());
  }
  if (!axes) {
    // reduce_c1
    if (getConstantIntValues(op.getAxes()))
      return opError(loc, opName, "has invalid 'axes' for rank ", x.getRank());
    result.push_back(op.getKeepdims()
                         ? dynamicTensor(x.getRank(), x.getElementType())
                         : UnrankedTensorType::get(x.getElementType()));
    return success();
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < x.getRank(); ++i) {
    if (!llvm::is_contained(*axes, i))
      shape.push_back(x.getDimSize(i));
    else if (op.getKeepdims())
      shape.push_back(1);
  }
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

#define ONNX_REDUCE(OP)                                                        \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, ValueRange operands,         \
      DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,       \
      SmallVectorImpl<Type> &result) {                                         \
    return inferReduce(loc, getOperationName().drop_front(5),                  \
                       Adaptor(operands, attrs, props, regions), result);      \
  }
ONNX_REDUCE(ReduceMeanOp)
ONNX_REDUCE(ReduceSumOp)
ONNX_REDUCE(ReduceMaxOp)
#undef ONNX_REDUCE
