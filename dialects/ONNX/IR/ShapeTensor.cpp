//===- ShapeTensor.cpp - Result types of the onnx shape and tensor ops ----===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/Traits.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

static constexpr int64_t kDyn = ShapedType::kDynamic;

std::pair<int64_t, int64_t> onnxc::onnx::resolveSlice(int64_t dim,
                                                      int64_t start,
                                                      int64_t end,
                                                      int64_t step) {
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

std::optional<SmallVector<int64_t>>
onnxc::onnx::getNormalizedAxes(Value axes, int64_t rank) {
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

/// A rank-`rank` tensor of `?` dims, or an unranked one if the rank is
/// unknown or not one a tensor can have: ranks come from the static lengths
/// of shape and axes operands, which a bad model makes negative or huge
/// (the op's later checks then report it).
static Type dynamicTensor(std::optional<int64_t> rank, Type element) {
  constexpr int64_t kMaxInferredRank = 1024;
  if (!rank || *rank < 0 || *rank > kMaxInferredRank)
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

/// The dims `[start, end)` that a Shape of a rank-`rank` tensor reads: its
/// `start` and `end` (the rank when absent), negative ones counted from the
/// back, clamped to `[0, rank]`.
static std::pair<int64_t, int64_t>
getShapeRange(int64_t start, std::optional<int64_t> end, int64_t rank) {
  auto clampIndex = [&](int64_t v) {
    if (v < 0)
      v += rank;
    return std::max<int64_t>(0, std::min<int64_t>(v, rank));
  };
  return {clampIndex(start), clampIndex(end.value_or(rank))};
}

/// The values of the 1-D integer operand `value` (a shape that Expand,
/// Reshape or ConstantOfShape reads) as far as they are known before run
/// time, `?` for each value that only run time gives; nullopt when not even
/// the length is known. Beyond a constant's values this reads through what
/// models build shapes from (ONNX's shape inference calls it data
/// propagation): a Concat joins its pieces' values, and a Shape of a ranked
/// tensor gives that tensor's dims, so that `Concat(Split(size)[0], [2, 3])`
/// is `[?, 2, 3]`. `depth` bounds the walk up a chain of Concats.
static std::optional<SmallVector<int64_t>> getShapeValues(Value value,
                                                          unsigned depth = 0) {
  if (auto constant = getConstantIntValues(value))
    return constant;
  std::optional<int64_t> length = staticLength(value);
  if (!length)
    return std::nullopt;
  SmallVector<int64_t> unknown(*length, kDyn);
  constexpr unsigned kMaxDepth = 8;
  Operation *def = value.getDefiningOp();
  if (!def || depth >= kMaxDepth)
    return unknown;
  SmallVector<int64_t> values;
  if (auto concat = dyn_cast<ConcatOp>(def)) {
    for (Value piece : concat.getInputs()) {
      std::optional<SmallVector<int64_t>> part =
          getShapeValues(piece, depth + 1);
      if (!part)
        return unknown;
      llvm::append_range(values, *part);
    }
  } else if (auto shape = dyn_cast<ShapeOp>(def)) {
    auto x = dyn_cast<RankedTensorType>(shape.getData().getType());
    if (!x)
      return unknown;
    auto [start, end] =
        getShapeRange(shape.getStart(), shape.getEnd(), x.getRank());
    for (int64_t i = start; i < end; ++i)
      values.push_back(x.getDimSize(i));
  } else {
    return unknown;
  }
  if (static_cast<int64_t>(values.size()) != *length)
    return unknown;
  return values;
}

/// The number of axes that the `axes` operand of Squeeze or Unsqueeze
/// holds: its static length, or 1 for a 0-D tensor (a single axis, as ONNX's
/// own function bodies pass it, AffineGrid's among them).
static std::optional<int64_t> axesCount(Value axes) {
  auto type = dyn_cast<RankedTensorType>(axes.getType());
  if (type && type.getRank() == 0)
    return 1;
  return staticLength(axes);
}

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           ValueRange, DictionaryAttr attrs,
                                           OpaqueProperties props,
                                           RegionRange regions,
                                           SmallVectorImpl<Type> &result) {
  Adaptor op({}, attrs, props, regions);
  // constant_c1
  if (!op.getValueAttr())
    return opError(loc, "Constant", "expects a 'value' attribute");
  result.push_back(op.getValueAttr().getType());
  return success();
}

/// The rounding modes of Cast's `round_mode` (opset 24).
static bool isRoundMode(StringRef mode) {
  return mode == "up" || mode == "down" || mode == "nearest";
}

/// Strings convert only to and from integers of 8 bits and more, float and
/// double (and to strings): what the runtime formats and parses.
static LogicalResult checkStringCast(std::optional<Location> loc,
                                     StringRef opName, Type from, Type to) {
  auto numeric = [](Type t) {
    if (isa<StringType>(t) || t.isF32() || t.isF64())
      return true;
    auto i = dyn_cast<IntegerType>(t);
    return i && i.getWidth() >= 8;
  };
  if ((isa<StringType>(from) || isa<StringType>(to)) &&
      (!numeric(from) || !numeric(to)))
    return opError(loc, opName,
                   "converts strings only to and from integers (8 bits and "
                   "more), f32 and f64, not ",
                   from, " to ", to);
  return success();
}

LogicalResult
CastOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attrs,
                         OpaqueProperties props, RegionRange regions,
                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getValueElementType(ctx, op.getTo());
  // cast_c1
  if (!element)
    return opError(loc, "Cast", "has unsupported target data type ",
                   op.getTo());
  // cast_c2
  if (!isRoundMode(op.getRoundMode()))
    return opError(loc, "Cast",
                   "expects 'round_mode' up, down or nearest (got '",
                   op.getRoundMode(), "')");
  // cast_c3
  if (failed(checkStringCast(loc, "Cast", getElementTypeOrSelf(operands[0]),
                             element)))
    return failure();
  result.push_back(cast<TensorType>(operands[0].getType()).clone(element));
  return success();
}

LogicalResult
CastLikeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                             ValueRange operands, DictionaryAttr attrs,
                             OpaqueProperties props, RegionRange regions,
                             SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // castlike_c1
  if (!isRoundMode(op.getRoundMode()))
    return opError(loc, "CastLike",
                   "expects 'round_mode' up, down or nearest (got '",
                   op.getRoundMode(), "')");
  // castlike_c2
  if (failed(checkStringCast(loc, "CastLike", getElementTypeOrSelf(operands[0]),
                             getElementTypeOrSelf(operands[1]))))
    return failure();
  result.push_back(cast<TensorType>(operands[0].getType())
                       .clone(getElementTypeOrSelf(operands[1])));
  return success();
}

LogicalResult
ShapeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
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
  auto [start, end] = getShapeRange(op.getStart(), op.getEnd(), x.getRank());
  result.push_back(
      RankedTensorType::get({std::max<int64_t>(0, end - start)}, i64));
  return success();
}

LogicalResult
ReshapeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                            ValueRange operands, DictionaryAttr attrs,
                            OpaqueProperties props, RegionRange regions,
                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto data = cast<TensorType>(op.getData().getType());
  Type element = data.getElementType();
  auto shape = getShapeValues(op.getShape());
  if (!shape) {
    result.push_back(dynamicTensor(staticLength(op.getShape()), element));
    return success();
  }
  SmallVector<int64_t> dims;
  int64_t inferred = -1;
  for (auto [i, s] : llvm::enumerate(*shape)) {
    if (ShapedType::isDynamic(s)) {
      // Known at run time only (a -1 or a 0 among them): the dim too.
      dims.push_back(kDyn);
    } else if (s == -1) {
      // reshape_c1
      if (inferred >= 0)
        return opError(loc, "Reshape", "expects at most one -1 in 'shape'");
      inferred = i;
      dims.push_back(kDyn);
    } else if (s == 0 && op.getAllowzero() == 0) {
      // reshape_c2
      if (data.hasRank() && static_cast<int64_t>(i) >= data.getRank())
        return opError(loc, "Reshape", "copies dim ", i,
                       " (a 0 in 'shape') "
                       "that the input of rank ",
                       data.getRank(), " lacks");
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
  } else if (inferred >= 0 && data.hasRank() && op.getAllowzero() == 0) {
    // Every dynamic input dim copied (a 0 at its index): those cancel, and
    // the -1 is the rest of the input over the rest of 'shape' ([B, S, H *
    // D] to [0, 0, H, -1] gives D whatever B is).
    auto copied = [&](int64_t i) {
      return i < static_cast<int64_t>(shape->size()) && (*shape)[i] == 0;
    };
    int64_t rest = 1, known = 1;
    for (int64_t i = 0; i < data.getRank() && rest != kDyn; ++i)
      if (!copied(i))
        rest = data.isDynamicDim(i) ? kDyn : rest * data.getDimSize(i);
    for (auto [i, d] : llvm::enumerate(dims))
      if (static_cast<int64_t>(i) != inferred && !copied(i))
        known = ShapedType::isDynamic(d) || known == kDyn ? kDyn : known * d;
    if (rest != kDyn && known != kDyn && known != 0 && rest % known == 0)
      dims[inferred] = rest / known;
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

LogicalResult
FlattenOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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
  result.push_back(
      RankedTensorType::get({productOfDims(x.getShape().take_front(axis)),
                             productOfDims(x.getShape().drop_front(axis))},
                            element));
  return success();
}

LogicalResult
TransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                              ValueRange operands, DictionaryAttr attrs,
                              OpaqueProperties props, RegionRange regions,
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
    return opError(loc, "Transpose",
                   "expects 'perm' to be a permutation of [0, ", x.getRank(),
                   ")");
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(x.getDimSize(p));
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult
ConcatOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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
                       t.getRank(), ") (got ",
                       static_cast<int64_t>(op.getAxis()), ")");
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
        d = ShapedType::isDynamic(d) || t.isDynamicDim(i) ? kDyn
                                                          : d + t.getDimSize(i);
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

LogicalResult
SliceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                          ValueRange operands, DictionaryAttr attrs,
                          OpaqueProperties props, RegionRange regions,
                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!x) {
    result.push_back(op.getData().getType());
    return success();
  }
  auto params = getConstantSliceParams(
      op.getStarts(), op.getEnds(), op.getAxes(), op.getSteps(), x.getRank());
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

LogicalResult
GatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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
                   x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()),
                   ")");
  SmallVector<int64_t> shape(x.getShape().take_front(*axis));
  shape.append(idx.getShape().begin(), idx.getShape().end());
  shape.append(x.getShape().begin() + *axis + 1, x.getShape().end());
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
SqueezeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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
    // Every dim of size 1 goes: a dynamic dim may be one, so the rank is
    // known only when every dim is static.
    if (!x.hasStaticShape()) {
      result.push_back(UnrankedTensorType::get(x.getElementType()));
      return success();
    }
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
      return opError(loc, "Squeeze", "has invalid 'axes' for rank ",
                     x.getRank());
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

LogicalResult
UnsqueezeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                              ValueRange operands, DictionaryAttr attrs,
                              OpaqueProperties props, RegionRange regions,
                              SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  auto length = axesCount(op.getAxes());
  if (!x || !length) {
    result.push_back(
        UnrankedTensorType::get(getElementTypeOrSelf(operands[0])));
    return success();
  }
  int64_t rank = x.getRank() + *length;
  auto axes = getNormalizedAxes(op.getAxes(), rank);
  if (!axes) {
    // unsqueeze_c1
    if (getConstantIntValues(op.getAxes()))
      return opError(loc, "Unsqueeze", "has invalid 'axes' for output rank ",
                     rank);
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

LogicalResult
ExpandOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  Type element = getElementTypeOrSelf(operands[0]);
  auto shape = getShapeValues(op.getShape());
  if (!x || !shape) {
    auto length = staticLength(op.getShape());
    result.push_back(
        x && length ? dynamicTensor(std::max(*length, x.getRank()), element)
                    : UnrankedTensorType::get(element));
    return success();
  }
  SmallVector<int64_t> out;
  // expand_c1 (a `?` of the shape broadcasts as a `?` dim: to the input's
  // dim where that is not 1)
  if (!OpTrait::util::getBroadcastedShape(x.getShape(), *shape, out)) {
    SmallVector<std::string> values;
    for (int64_t d : *shape)
      values.push_back(ShapedType::isDynamic(d) ? "?" : std::to_string(d));
    return opError(loc, "Expand", "cannot broadcast ", x, " to shape [",
                   llvm::make_range(values.begin(), values.end()), "]");
  }
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
  auto shape = getShapeValues(op.getInput());
  if (!shape) {
    result.push_back(dynamicTensor(staticLength(op.getInput()), element));
    return success();
  }
  // constantofshape_c2
  if (llvm::any_of(
          *shape, [](int64_t d) { return d < 0 && !ShapedType::isDynamic(d); }))
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
  if (isNoValue(op.getAxes()) || (staticLength(op.getAxes()) == 0)) {
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
    // Axes known at run time: any dim but a 1 may become 1, or go.
    if (op.getKeepdims()) {
      SmallVector<int64_t> shape;
      for (int64_t d : x.getShape())
        shape.push_back(d == 1 ? 1 : kDyn);
      result.push_back(RankedTensorType::get(shape, x.getElementType()));
      return success();
    }
    std::optional<int64_t> length = staticLength(op.getAxes());
    // reduce_c2
    if (length && *length > x.getRank())
      return opError(loc, opName, "has more 'axes' (", *length,
                     ") than its input has dims");
    result.push_back(
        length ? dynamicTensor(x.getRank() - *length, x.getElementType())
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
ONNX_REDUCE(ReduceMinOp)
ONNX_REDUCE(ReduceProdOp)
ONNX_REDUCE(ReduceL1Op)
ONNX_REDUCE(ReduceL2Op)
ONNX_REDUCE(ReduceLogSumOp)
ONNX_REDUCE(ReduceLogSumExpOp)
ONNX_REDUCE(ReduceSumSquareOp)
#undef ONNX_REDUCE

/// Result type of ArgMax and ArgMin.
template <typename AdaptorT>
static LogicalResult
inferArgReduce(MLIRContext *ctx, std::optional<Location> loc, StringRef opName,
               AdaptorT op, SmallVectorImpl<Type> &result) {
  Type i64 = IntegerType::get(ctx, 64);
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!x) {
    result.push_back(UnrankedTensorType::get(i64));
    return success();
  }
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), x.getRank());
  // argreduce_c1
  if (!axis)
    return opError(loc, opName, "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()),
                   ")");
  SmallVector<int64_t> shape(x.getShape());
  if (op.getKeepdims())
    shape[*axis] = 1;
  else
    shape.erase(shape.begin() + *axis);
  result.push_back(RankedTensorType::get(shape, i64));
  return success();
}

LogicalResult
ArgMaxOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  return inferArgReduce(ctx, loc, "ArgMax",
                        Adaptor(operands, attrs, props, regions), result);
}

LogicalResult
ArgMinOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  return inferArgReduce(ctx, loc, "ArgMin",
                        Adaptor(operands, attrs, props, regions), result);
}

LogicalResult SizeOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location>, ValueRange,
                                       DictionaryAttr, OpaqueProperties,
                                       RegionRange,
                                       SmallVectorImpl<Type> &result) {
  result.push_back(RankedTensorType::get({}, IntegerType::get(ctx, 64)));
  return success();
}

LogicalResult
GatherElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   ValueRange operands, DictionaryAttr attrs,
                                   OpaqueProperties props, RegionRange regions,
                                   SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementTypeOrSelf(op.getData());
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  auto idx = dyn_cast<RankedTensorType>(op.getIndices().getType());
  if (x && idx) {
    // gatherelements_c1
    if (x.getRank() != idx.getRank())
      return opError(loc, "GatherElements",
                     "expects data and indices of one "
                     "rank (got ",
                     x, " and ", idx, ")");
    // gatherelements_c2
    if (!normalizeAxis(op.getAxis(), x.getRank()))
      return opError(loc, "GatherElements", "expects 'axis' in [", -x.getRank(),
                     ", ", x.getRank(), ") (got ",
                     static_cast<int64_t>(op.getAxis()), ")");
  }
  result.push_back(cast<TensorType>(op.getIndices().getType()).clone(element));
  return success();
}

/// Checks a scatter op's `reduction`.
static LogicalResult checkScatterReduction(std::optional<Location> loc,
                                           StringRef opName,
                                           StringRef reduction) {
  if (llvm::is_contained({"none", "add", "mul", "max", "min"}, reduction))
    return success();
  return opError(loc, opName, "has unknown reduction '", reduction, "'");
}

LogicalResult
ScatterElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    ValueRange operands, DictionaryAttr attrs,
                                    OpaqueProperties props, RegionRange regions,
                                    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // scatterelements_c1
  if (failed(checkScatterReduction(loc, "ScatterElements", op.getReduction())))
    return failure();
  // scatterelements_c2
  if (getElementTypeOrSelf(op.getUpdates()) !=
      getElementTypeOrSelf(op.getData()))
    return opError(loc, "ScatterElements",
                   "expects data and updates of one "
                   "element type");
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  auto idx = dyn_cast<RankedTensorType>(op.getIndices().getType());
  auto upd = dyn_cast<RankedTensorType>(op.getUpdates().getType());
  if (x && idx && upd) {
    // scatterelements_c3
    if (idx.getRank() != x.getRank() || failed(verifyCompatibleShape(idx, upd)))
      return opError(loc, "ScatterElements",
                     "expects indices and updates of one "
                     "shape and of data's rank (got ",
                     x, ", ", idx, " and ", upd, ")");
    // scatterelements_c4
    if (!normalizeAxis(op.getAxis(), x.getRank()))
      return opError(loc, "ScatterElements", "expects 'axis' in [",
                     -x.getRank(), ", ", x.getRank(), ") (got ",
                     static_cast<int64_t>(op.getAxis()), ")");
  }
  result.push_back(op.getData().getType());
  return success();
}

LogicalResult
GatherNDOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                             ValueRange operands, DictionaryAttr attrs,
                             OpaqueProperties props, RegionRange regions,
                             SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementTypeOrSelf(op.getData());
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  auto idx = dyn_cast<RankedTensorType>(op.getIndices().getType());
  if (!x || !idx) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  int64_t b = op.getBatchDims();
  // gathernd_c1
  if (b < 0 || b >= std::min(x.getRank(), idx.getRank()))
    return opError(loc, "GatherND",
                   "expects batch_dims < rank(indices) and "
                   "rank(data) (got ",
                   b, " for ", x, " and ", idx, ")");
  // The tuple length sets the result rank.
  int64_t k = idx.getDimSize(idx.getRank() - 1);
  if (ShapedType::isDynamic(k)) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  // gathernd_c2
  if (b + k > x.getRank())
    return opError(loc, "GatherND",
                   "expects batch_dims + indices.shape[-1] <= "
                   "rank(data) (got ",
                   b, " and ", k, " for ", x, " and ", idx, ")");
  for (int64_t i = 0; i < b; ++i)
    // gathernd_c3
    if (dimsDiffer(x.getDimSize(i), idx.getDimSize(i)))
      return opError(loc, "GatherND",
                     "expects data and indices to agree on the "
                     "batch dims (got ",
                     x, " and ", idx, ")");
  SmallVector<int64_t> shape(idx.getShape().drop_back());
  shape.append(x.getShape().begin() + b + k, x.getShape().end());
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
ScatterNDOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                              ValueRange operands, DictionaryAttr attrs,
                              OpaqueProperties props, RegionRange regions,
                              SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // scatternd_c1
  if (failed(checkScatterReduction(loc, "ScatterND", op.getReduction())))
    return failure();
  // scatternd_c2
  if (getElementTypeOrSelf(op.getUpdates()) !=
      getElementTypeOrSelf(op.getData()))
    return opError(loc, "ScatterND",
                   "expects data and updates of one element "
                   "type");
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  auto idx = dyn_cast<RankedTensorType>(op.getIndices().getType());
  auto upd = dyn_cast<RankedTensorType>(op.getUpdates().getType());
  if (x && idx && upd) {
    // The tuple length, from the indices or else the ranks.
    int64_t k = idx.getRank() < 1 ? kDyn : idx.getDimSize(idx.getRank() - 1);
    if (ShapedType::isDynamic(k))
      k = idx.getRank() - 1 + x.getRank() - upd.getRank();
    // scatternd_c3
    if (idx.getRank() < 1 || k < 1 || k > x.getRank() ||
        dimsDiffer(idx.getDimSize(idx.getRank() - 1), k))
      return opError(loc, "ScatterND",
                     "expects indices with a last dim of at "
                     "most rank(data) (got ",
                     idx, ")");
    SmallVector<int64_t> expected(idx.getShape().drop_back());
    expected.append(x.getShape().begin() + k, x.getShape().end());
    // scatternd_c4
    if (failed(verifyCompatibleShape(expected, upd.getShape())))
      return opError(loc, "ScatterND",
                     "expects updates of shape indices.shape[:-1]"
                     " + data.shape[indices.shape[-1]:] (got ",
                     upd, ")");
  }
  result.push_back(op.getData().getType());
  return success();
}

LogicalResult
TriluOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                          ValueRange operands, DictionaryAttr attrs,
                          OpaqueProperties props, RegionRange regions,
                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  // trilu_c1
  if (x && x.getRank() < 2)
    return opError(loc, "Trilu", "expects an input of rank 2 or more (got ", x,
                   ")");
  if (!isNoValue(op.getK())) {
    auto k = dyn_cast<RankedTensorType>(op.getK().getType());
    // trilu_c2
    if (k && k.getRank() != 0 && k.getNumElements() != 1)
      return opError(loc, "Trilu", "expects a scalar 'k' (got ", k, ")");
  }
  result.push_back(op.getInput().getType());
  return success();
}

/// The one value of a constant scalar, as a double.
static std::optional<double> getConstantScalar(Value value) {
  DenseElementsAttr dense = getDenseConstant(value);
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  if (auto ints = dyn_cast<DenseIntElementsAttr>(dense))
    return static_cast<double>(
        (*ints.getValues<APInt>().begin()).getSExtValue());
  if (auto floats = dyn_cast<DenseFPElementsAttr>(dense))
    return (*floats.getValues<APFloat>().begin()).convertToDouble();
  return std::nullopt;
}

LogicalResult
RangeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                          ValueRange operands, DictionaryAttr attrs,
                          OpaqueProperties props, RegionRange regions,
                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementTypeOrSelf(op.getStart());
  for (Value v : operands) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    // range_c1
    if (getElementTypeOrSelf(v) != element ||
        (t && t.hasStaticShape() && t.getNumElements() != 1))
      return opError(loc, "Range",
                     "expects start, limit and delta to be "
                     "scalars of one element type");
  }
  int64_t size = kDyn;
  auto start = getConstantScalar(op.getStart());
  auto limit = getConstantScalar(op.getLimit());
  auto delta = getConstantScalar(op.getDelta());
  if (start && limit && delta) {
    // range_c2
    if (*delta == 0)
      return opError(loc, "Range", "has a zero delta");
    size = std::max<int64_t>(
        0, static_cast<int64_t>(std::ceil((*limit - *start) / *delta)));
  }
  result.push_back(RankedTensorType::get({size}, element));
  return success();
}

/// The result type of CumSum or CumProd: the type of `x`, once `axis` is a
/// scalar within its rank.
template <typename OpT>
static LogicalResult
inferCumulative(std::optional<Location> loc, ValueRange operands,
                DictionaryAttr attrs, OpaqueProperties props,
                RegionRange regions, SmallVectorImpl<Type> &result) {
  typename OpT::Adaptor op(operands, attrs, props, regions);
  StringRef name = OpT::getOperationName().drop_front(5);
  auto axisType = dyn_cast<RankedTensorType>(op.getAxis().getType());
  // cumulative_c1
  if (axisType && (axisType.getRank() > 1 || (axisType.hasStaticShape() &&
                                              axisType.getNumElements() != 1)))
    return opError(loc, name, "expects a scalar 'axis' (got ", axisType, ")");
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  if (auto axis = getConstantIntValues(op.getAxis());
      axis && x && axis->size() == 1)
    // cumulative_c2
    if (!normalizeAxis((*axis)[0], x.getRank()))
      return opError(loc, name, "expects 'axis' in [", -x.getRank(), ", ",
                     x.getRank(), ") (got ", (*axis)[0], ")");
  result.push_back(op.getX().getType());
  return success();
}

#define ONNX_CUMULATIVE(OP)                                                    \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, ValueRange operands,         \
      DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,       \
      SmallVectorImpl<Type> &result) {                                         \
    return inferCumulative<OP>(loc, operands, attrs, props, regions, result);  \
  }
ONNX_CUMULATIVE(CumSumOp)
ONNX_CUMULATIVE(CumProdOp)
#undef ONNX_CUMULATIVE

LogicalResult
SplitOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                          ValueRange operands, DictionaryAttr attrs,
                          OpaqueProperties props, RegionRange regions,
                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  Type element = getElementTypeOrSelf(op.getInput());
  bool hasSplit = !isNoValue(op.getSplit());
  std::optional<uint64_t> numOutputs = op.getNumOutputs();
  // split_c1
  if (hasSplit == numOutputs.has_value())
    return opError(loc, "Split", "expects either 'split' or 'num_outputs'");
  std::optional<int64_t> count =
      hasSplit ? staticLength(op.getSplit())
               : std::optional<int64_t>(static_cast<int64_t>(*numOutputs));
  // split_c2
  if (!count || *count < 1)
    return opError(loc, "Split",
                   "needs a 'split' of static length or a positive "
                   "'num_outputs' to know its outputs");
  // split_c5: one result per output; a count no model has (a corrupt
  // attribute) is refused before results are made for it.
  constexpr int64_t kMaxSplitOutputs = 1 << 16;
  if (*count > kMaxSplitOutputs)
    return opError(loc, "Split", "has ", *count,
                   " outputs, more than onnxc supports (", kMaxSplitOutputs,
                   ")");
  if (!x) {
    result.append(*count, UnrankedTensorType::get(element));
    return success();
  }
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), x.getRank());
  // split_c3
  if (!axis)
    return opError(loc, "Split", "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()),
                   ")");
  int64_t dim = x.getDimSize(*axis);
  SmallVector<int64_t> sizes(*count, kDyn);
  if (hasSplit) {
    if (auto split = getConstantIntValues(op.getSplit())) {
      int64_t total = 0;
      for (int64_t s : *split)
        total += s;
      // split_c4
      if (llvm::any_of(*split, [](int64_t s) { return s < 0; }) ||
          (!ShapedType::isDynamic(dim) && total != dim))
        return opError(loc, "Split",
                       "expects non-negative 'split' sizes that "
                       "add up to ",
                       dim, " (got ", total, ")");
      sizes.assign(split->begin(), split->end());
    }
  } else if (!ShapedType::isDynamic(dim)) {
    int64_t chunk = (dim + *count - 1) / *count;
    for (int64_t i = 0; i < *count; ++i)
      sizes[i] = std::max<int64_t>(0, std::min(chunk, dim - i * chunk));
  }
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(x.getShape());
    shape[*axis] = size;
    result.push_back(RankedTensorType::get(shape, element));
  }
  return success();
}

LogicalResult
TileOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attrs,
                         OpaqueProperties props, RegionRange regions,
                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!x) {
    result.push_back(op.getInput().getType());
    return success();
  }
  std::optional<int64_t> length = staticLength(op.getRepeats());
  // tile_c1
  if (length && *length != x.getRank())
    return opError(loc, "Tile", "expects one repeat per dim (got ", *length,
                   " for rank ", x.getRank(), ")");
  SmallVector<int64_t> shape(x.getRank(), kDyn);
  if (auto repeats = getConstantIntValues(op.getRepeats())) {
    for (int64_t i = 0; i < x.getRank(); ++i) {
      // tile_c2
      if ((*repeats)[i] < 0)
        return opError(loc, "Tile", "expects non-negative repeats");
      shape[i] = x.isDynamicDim(i) ? kDyn : x.getDimSize(i) * (*repeats)[i];
    }
  }
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      ValueRange operands, DictionaryAttr attrs,
                                      OpaqueProperties props,
                                      RegionRange regions,
                                      SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // pad_c1
  if (!llvm::is_contained({"constant", "reflect", "edge", "wrap"},
                          op.getMode()))
    return opError(loc, "Pad", "has unsupported mode '", op.getMode(), "'");
  Type element = getElementTypeOrSelf(op.getData());
  if (!isNoValue(op.getConstantValue())) {
    auto v = cast<TensorType>(op.getConstantValue().getType());
    // pad_c2
    if (v.getElementType() != element ||
        (v.hasStaticShape() && v.getNumElements() != 1))
      return opError(loc, "Pad",
                     "expects a one-element 'constant_value' of the "
                     "data's element type (got ",
                     v, ")");
  }
  auto x = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!x) {
    result.push_back(op.getData().getType());
    return success();
  }
  int64_t rank = x.getRank();
  std::optional<SmallVector<int64_t>> axes;
  if (isNoValue(op.getAxes())) {
    axes.emplace();
    for (int64_t i = 0; i < rank; ++i)
      axes->push_back(i);
  } else if ((axes = getConstantIntValues(op.getAxes()))) {
    for (int64_t &a : *axes) {
      std::optional<int64_t> norm = normalizeAxis(a, rank);
      // pad_c3
      if (!norm)
        return opError(loc, "Pad", "has an axis out of range for rank ", rank);
      a = *norm;
    }
  }
  std::optional<int64_t> numAxes =
      axes ? std::optional<int64_t>(axes->size()) : staticLength(op.getAxes());
  std::optional<int64_t> length = staticLength(op.getPads());
  // pad_c4
  if (numAxes && length && *length != 2 * *numAxes)
    return opError(loc, "Pad", "expects 2 pads per padded axis (got ", *length,
                   " for ", *numAxes, " axes)");
  SmallVector<int64_t> shape(x.getShape());
  auto pads = getConstantIntValues(op.getPads());
  if (!axes) {
    shape.assign(rank, kDyn);
  } else {
    for (auto [i, a] : llvm::enumerate(*axes)) {
      if (!pads || x.isDynamicDim(a)) {
        shape[a] = kDyn;
        continue;
      }
      shape[a] = x.getDimSize(a) + (*pads)[i] + (*pads)[i + axes->size()];
      // pad_c5
      if (shape[a] < 0)
        return opError(loc, "Pad", "crops dim ", a, " below zero");
    }
  }
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
OneHotOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementTypeOrSelf(op.getValues());
  auto depthType = dyn_cast<RankedTensorType>(op.getDepth().getType());
  auto valuesType = dyn_cast<RankedTensorType>(op.getValues().getType());
  // onehot_c1
  if ((depthType && depthType.hasStaticShape() &&
       depthType.getNumElements() != 1) ||
      (valuesType &&
       (valuesType.getRank() != 1 || dimsDiffer(valuesType.getDimSize(0), 2))))
    return opError(loc, "OneHot",
                   "expects a one-element 'depth' and two "
                   "'values'");
  auto idx = dyn_cast<RankedTensorType>(op.getIndices().getType());
  if (!idx) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), idx.getRank() + 1);
  // onehot_c2
  if (!axis)
    return opError(loc, "OneHot", "expects 'axis' in [", -idx.getRank() - 1,
                   ", ", idx.getRank(), "] (got ",
                   static_cast<int64_t>(op.getAxis()), ")");
  int64_t depth = kDyn;
  if (std::optional<double> d = getConstantScalar(op.getDepth())) {
    // onehot_c3
    if (*d < 1)
      return opError(loc, "OneHot", "expects a positive 'depth' (got ", *d,
                     ")");
    depth = static_cast<int64_t>(*d);
  }
  SmallVector<int64_t> shape(idx.getShape());
  shape.insert(shape.begin() + *axis, depth);
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
EyeLikeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                            ValueRange operands, DictionaryAttr attrs,
                            OpaqueProperties props, RegionRange regions,
                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = cast<TensorType>(op.getInput().getType());
  // eyelike_c1
  if (x.hasRank() && x.getRank() != 2)
    return opError(loc, "EyeLike", "expects a 2-D input (got ", x, ")");
  Type element = x.getElementType();
  if (std::optional<uint64_t> dtype = op.getDtype()) {
    element = getElementType(ctx, *dtype);
    // eyelike_c2
    if (!element)
      return opError(loc, "EyeLike", "has unsupported 'dtype' ",
                     static_cast<int64_t>(*dtype));
  }
  result.push_back(x.clone(element));
  return success();
}

LogicalResult
TopKOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attrs,
                         OpaqueProperties props, RegionRange regions,
                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type i64 = IntegerType::get(ctx, 64);
  auto kType = dyn_cast<RankedTensorType>(op.getK().getType());
  // topk_c1
  if (kType && (kType.getRank() > 1 ||
                (kType.hasStaticShape() && kType.getNumElements() != 1)))
    return opError(loc, "TopK", "expects a one-element 'K' (got ", kType, ")");
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  if (!x) {
    result.push_back(op.getX().getType());
    result.push_back(UnrankedTensorType::get(i64));
    return success();
  }
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), x.getRank());
  // topk_c2
  if (!axis)
    return opError(loc, "TopK", "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()),
                   ")");
  SmallVector<int64_t> shape(x.getShape());
  shape[*axis] = kDyn;
  if (auto k = getConstantIntValues(op.getK()); k && k->size() == 1) {
    // topk_c3
    if ((*k)[0] < 0 ||
        (!x.isDynamicDim(*axis) && (*k)[0] > x.getDimSize(*axis)))
      return opError(loc, "TopK", "expects 'K' in [0, ", x.getDimSize(*axis),
                     "] (got ", (*k)[0], ")");
    shape[*axis] = (*k)[0];
  }
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  result.push_back(RankedTensorType::get(shape, i64));
  return success();
}

/// Result type of DepthToSpace (`toSpace`) and SpaceToDepth.
static LogicalResult inferBlockMove(std::optional<Location> loc,
                                    StringRef opName, Value input,
                                    int64_t blocksize, bool toSpace,
                                    SmallVectorImpl<Type> &result) {
  // blocks_c1
  if (blocksize < 1)
    return opError(loc, opName, "expects a positive 'blocksize' (got ",
                   blocksize, ")");
  auto x = dyn_cast<RankedTensorType>(input.getType());
  if (!x) {
    result.push_back(input.getType());
    return success();
  }
  // blocks_c2
  if (x.getRank() != 4)
    return opError(loc, opName, "expects a 4-D input (got ", x, ")");
  auto scaled = [](int64_t d, int64_t f) {
    return ShapedType::isDynamic(d) ? kDyn : d * f;
  };
  int64_t b = blocksize, c = x.getDimSize(1), h = x.getDimSize(2),
          w = x.getDimSize(3);
  auto divides = [](int64_t d, int64_t f) {
    return ShapedType::isDynamic(d) || d % f == 0;
  };
  SmallVector<int64_t> shape{x.getDimSize(0)};
  if (toSpace) {
    // blocks_c3
    if (!divides(c, b * b))
      return opError(loc, opName,
                     "expects channels divisible by blocksize^2 (got ", c,
                     " and ", b, ")");
    shape.append({ShapedType::isDynamic(c) ? kDyn : c / (b * b), scaled(h, b),
                  scaled(w, b)});
  } else {
    // blocks_c4
    if (!divides(h, b) || !divides(w, b))
      return opError(loc, opName,
                     "expects height and width divisible by "
                     "blocksize (got ",
                     h, ", ", w, " and ", b, ")");
    shape.append({scaled(c, b * b), ShapedType::isDynamic(h) ? kDyn : h / b,
                  ShapedType::isDynamic(w) ? kDyn : w / b});
  }
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult
DepthToSpaceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                 ValueRange operands, DictionaryAttr attrs,
                                 OpaqueProperties props, RegionRange regions,
                                 SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // depthtospace_c1
  if (op.getMode() != "DCR" && op.getMode() != "CRD")
    return opError(loc, "DepthToSpace", "has unknown mode '", op.getMode(),
                   "'");
  return inferBlockMove(loc, "DepthToSpace", op.getInput(),
                        static_cast<int64_t>(op.getBlocksize()),
                        /*toSpace=*/true, result);
}

LogicalResult
SpaceToDepthOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                 ValueRange operands, DictionaryAttr attrs,
                                 OpaqueProperties props, RegionRange regions,
                                 SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  return inferBlockMove(loc, "SpaceToDepth", op.getInput(),
                        static_cast<int64_t>(op.getBlocksize()),
                        /*toSpace=*/false, result);
}

/// The width in bits that an element of `type` takes in memory (bool a byte).
static unsigned getStorageBits(Type type) {
  return type.isInteger(1) ? 8 : type.getIntOrFloatBitWidth();
}

LogicalResult
BitCastOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                            ValueRange operands, DictionaryAttr attrs,
                            OpaqueProperties props, RegionRange regions,
                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementType(ctx, op.getTo());
  // bitcast_c1
  if (!element)
    return opError(loc, "BitCast", "has unsupported target data type ",
                   op.getTo());
  Type input = getElementTypeOrSelf(op.getInput());
  // bitcast_c2
  if (getStorageBits(input) != getStorageBits(element))
    return opError(loc, "BitCast", "expects types of one bit width (got ",
                   input, " and ", element, ")");
  result.push_back(cast<TensorType>(op.getInput().getType()).clone(element));
  return success();
}

LogicalResult
TensorScatterOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                  ValueRange operands, DictionaryAttr attrs,
                                  OpaqueProperties props, RegionRange regions,
                                  SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // tensorscatter_c1
  if (op.getMode() != "linear" && op.getMode() != "circular")
    return opError(loc, "TensorScatter",
                   "expects 'mode' to be \"linear\" or \"circular\" (got \"",
                   op.getMode(), "\")");
  Type cacheType = op.getPastCache().getType();
  Type updateElement = getElementTypeOrSelf(op.getUpdate());
  // tensorscatter_c2
  if (getElementTypeOrSelf(cacheType) != updateElement)
    return opError(loc, "TensorScatter",
                   "expects past_cache and update of one element type (got ",
                   getElementTypeOrSelf(cacheType), " and ", updateElement,
                   ")");
  auto cache = dyn_cast<RankedTensorType>(cacheType);
  auto update = dyn_cast<RankedTensorType>(op.getUpdate().getType());
  if (cache) {
    int64_t rank = cache.getRank();
    auto rawAxis = static_cast<int64_t>(op.getAxis());
    std::optional<int64_t> axis = normalizeAxis(rawAxis, rank);
    // tensorscatter_c3
    if (!axis || *axis == 0)
      return opError(loc, "TensorScatter", "expects 'axis' in [", 1 - rank,
                     ", 0) or [1, ", rank, ") (got ", rawAxis, ")");
    if (update) {
      // tensorscatter_c4
      if (update.getRank() != rank)
        return opError(loc, "TensorScatter",
                       "expects update of the rank of past_cache (got ", update,
                       " and ", cache, ")");
      for (int64_t d = 0; d < rank; ++d) {
        int64_t u = update.getDimSize(d), c = cache.getDimSize(d);
        // tensorscatter_c5
        if (d == *axis ? !ShapedType::isDynamic(u) &&
                             !ShapedType::isDynamic(c) && u > c
                       : dimsDiffer(u, c))
          return opError(loc, "TensorScatter", "expects update ", update,
                         " to fit past_cache ", cache, " at dim ", d);
      }
    }
    if (!isNoValue(op.getWriteIndices())) {
      auto indices = dyn_cast<RankedTensorType>(op.getWriteIndices().getType());
      // tensorscatter_c6
      if (indices && (indices.getRank() != 1 ||
                      dimsDiffer(indices.getDimSize(0), cache.getDimSize(0))))
        return opError(loc, "TensorScatter",
                       "expects write_indices of one index per batch entry "
                       "(got ",
                       indices, " for ", cache, ")");
    }
  }
  result.push_back(cacheType);
  return success();
}
