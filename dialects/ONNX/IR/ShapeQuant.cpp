//===- ShapeQuant.cpp - Result types of the onnx quantization ops ---------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

/// Checks a scale and its zero point (`none` if absent) against the
/// quantized tensor `x`: both scalars or one-element (per tensor), or 1-D
/// along `axis` (per axis, when `axis` is given).
static LogicalResult checkQuantParams(std::optional<Location> loc,
                                      StringRef opName, Value x, Value scale,
                                      Value zeroPoint,
                                      std::optional<int64_t> axis,
                                      StringRef what, int64_t blockSize = 0) {
  auto scaleType = dyn_cast<RankedTensorType>(scale.getType());
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  // quant_c5
  if (blockSize < 0)
    return opError(loc, opName, "expects a non-negative 'block_size' (got ",
                   blockSize, ")");
  if (blockSize > 0) {
    // Blocked: the scale and zero point have x's shape, but ceil(d / B)
    // along the axis.
    auto zpType = isNoValue(zeroPoint)
                      ? RankedTensorType()
                      : dyn_cast<RankedTensorType>(zeroPoint.getType());
    if (!xType)
      return success();
    std::optional<int64_t> dim = normalizeAxis(*axis, xType.getRank());
    // quant_c2
    if (!dim)
      return opError(loc, opName, "expects 'axis' in [", -xType.getRank(), ", ",
                     xType.getRank(), ") (got ", *axis, ")");
    SmallVector<int64_t> expected(xType.getShape());
    if (!xType.isDynamicDim(*dim))
      expected[*dim] = (expected[*dim] + blockSize - 1) / blockSize;
    std::string shape;
    for (int64_t d : expected)
      shape += (shape.empty() ? "" : ", ") +
               (ShapedType::isDynamic(d) ? "?" : std::to_string(d));
    for (RankedTensorType type : {scaleType, zpType}) {
      auto differs = [&](int64_t d) {
        return dimsDiffer(type.getDimSize(d), expected[d]);
      };
      // quant_c6
      if (type &&
          (type.getRank() != xType.getRank() ||
           llvm::any_of(llvm::seq<int64_t>(0, xType.getRank()), differs)))
        return opError(loc, opName, "expects ", what,
                       "'s blocked scale and zero point of shape [", shape,
                       "] for block_size ", blockSize, " (got ", type, ")");
    }
    return success();
  }
  if (scaleType) {
    // quant_c1
    if (scaleType.getRank() > 1 || (!axis && scaleType.getRank() == 1 &&
                                    dimsDiffer(scaleType.getDimSize(0), 1)))
      return opError(loc, opName, "expects ", what, "'s scale to be ",
                     axis ? "a scalar or 1-D" : "a scalar", " (got ", scaleType,
                     ")");
    if (axis && xType && scaleType.getRank() == 1 &&
        scaleType.getDimSize(0) != 1) {
      std::optional<int64_t> dim = normalizeAxis(*axis, xType.getRank());
      // quant_c2
      if (!dim)
        return opError(loc, opName, "expects 'axis' in [", -xType.getRank(),
                       ", ", xType.getRank(), ") (got ", *axis, ")");
      // quant_c3
      if (dimsDiffer(scaleType.getDimSize(0), xType.getDimSize(*dim)))
        return opError(loc, opName, "expects a per-axis scale of ",
                       xType.getDimSize(*dim), " elements (got ", scaleType,
                       ")");
    }
  }
  if (isNoValue(zeroPoint))
    return success();
  auto zpType = dyn_cast<RankedTensorType>(zeroPoint.getType());
  // One element each is per tensor whatever the ranks (ONNX 1.22's tests
  // pair a scalar scale with a zero point of shape [1], or [?] under
  // dynamic shapes).
  auto isOneElement = [](RankedTensorType type) {
    return type.getRank() == 0 ||
           (type.getRank() == 1 && !dimsDiffer(type.getDimSize(0), 1));
  };
  // quant_c4
  if (scaleType && zpType &&
      !(isOneElement(scaleType) && isOneElement(zpType)) &&
      (scaleType.getRank() != zpType.getRank() ||
       (scaleType.getRank() == 1 &&
        dimsDiffer(scaleType.getDimSize(0), zpType.getDimSize(0)))))
    return opError(loc, opName, "expects ", what,
                   "'s zero point of its scale's shape (got ", zpType, " and ",
                   scaleType, ")");
  return success();
}

LogicalResult QuantizeLinearOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  if (failed(checkQuantParams(loc, "QuantizeLinear", op.getX(), op.getYScale(),
                              op.getYZeroPoint(),
                              static_cast<int64_t>(op.getAxis()), "y",
                              static_cast<int64_t>(op.getBlockSize()))))
    return failure();
  Type element = isNoValue(op.getYZeroPoint())
                     ? IntegerType::get(ctx, 8, IntegerType::Unsigned)
                     : getElementTypeOrSelf(op.getYZeroPoint());
  result.push_back(cast<TensorType>(op.getX().getType()).clone(element));
  return success();
}

LogicalResult DequantizeLinearOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // dequant_c1
  if (!isNoValue(op.getXZeroPoint()) &&
      getElementTypeOrSelf(op.getXZeroPoint()) !=
          getElementTypeOrSelf(op.getX()))
    return opError(loc, "DequantizeLinear",
                   "expects x and x_zero_point of one element type");
  if (failed(checkQuantParams(loc, "DequantizeLinear", op.getX(),
                              op.getXScale(), op.getXZeroPoint(),
                              static_cast<int64_t>(op.getAxis()), "x",
                              static_cast<int64_t>(op.getBlockSize()))))
    return failure();
  result.push_back(cast<TensorType>(op.getX().getType())
                       .clone(getElementTypeOrSelf(op.getXScale())));
  return success();
}

LogicalResult DynamicQuantizeLinearOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &result) {
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  result.push_back(cast<TensorType>(operands[0].getType()).clone(u8));
  result.push_back(RankedTensorType::get({}, Float32Type::get(ctx)));
  result.push_back(RankedTensorType::get({}, u8));
  return success();
}

/// The shape of MatMul of `a` and `b` (numpy semantics) with `element`.
static LogicalResult inferMatMulShape(std::optional<Location> loc,
                                      StringRef opName, Value aValue,
                                      Value bValue, Type element,
                                      SmallVectorImpl<Type> &result) {
  auto a = dyn_cast<RankedTensorType>(aValue.getType());
  auto b = dyn_cast<RankedTensorType>(bValue.getType());
  if (!a || !b) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  // qmatmul_c1
  if (a.getRank() < 2 || b.getRank() < 2)
    return opError(loc, opName, "expects operands of rank 2 or more (got ", a,
                   " and ", b, ")");
  // qmatmul_c2
  if (dimsDiffer(a.getDimSize(a.getRank() - 1), b.getDimSize(b.getRank() - 2)))
    return opError(loc, opName, "expects matching contraction dims (got ", a,
                   " and ", b, ")");
  SmallVector<int64_t> shape;
  // qmatmul_c3
  if (!OpTrait::util::getBroadcastedShape(a.getShape().drop_back(2),
                                          b.getShape().drop_back(2), shape))
    return opError(loc, opName, "expects broadcastable batch dims (got ", a,
                   " and ", b, ")");
  shape.push_back(a.getDimSize(a.getRank() - 2));
  shape.push_back(b.getDimSize(b.getRank() - 1));
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

/// Checks a zero point of a matmul operand: a scalar, one element, or 1-D of
/// `size` elements (per row of A or per column of B).
static LogicalResult checkMatMulZeroPoint(std::optional<Location> loc,
                                          StringRef opName, Value zeroPoint,
                                          Value operand, int64_t dim,
                                          StringRef what) {
  if (isNoValue(zeroPoint))
    return success();
  // qmatmul_c4
  if (getElementTypeOrSelf(zeroPoint) != getElementTypeOrSelf(operand))
    return opError(loc, opName, "expects ", what,
                   " of its operand's element type");
  auto zp = dyn_cast<RankedTensorType>(zeroPoint.getType());
  auto type = dyn_cast<RankedTensorType>(operand.getType());
  if (!zp || zp.getRank() == 0)
    return success();
  int64_t size = type && type.getRank() >= 2
                     ? type.getDimSize(type.getRank() + dim)
                     : ShapedType::kDynamic;
  // qmatmul_c5
  if (zp.getRank() != 1 ||
      (zp.getDimSize(0) != 1 && dimsDiffer(zp.getDimSize(0), size)))
    return opError(loc, opName, "expects ", what, " to be a scalar or 1-D of ",
                   size, " elements (got ", zp, ")");
  return success();
}

LogicalResult
MatMulIntegerOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                  ValueRange operands, DictionaryAttr attrs,
                                  OpaqueProperties props, RegionRange regions,
                                  SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  if (failed(checkMatMulZeroPoint(loc, "MatMulInteger", op.getAZeroPoint(),
                                  op.getA(), -2, "a_zero_point")) ||
      failed(checkMatMulZeroPoint(loc, "MatMulInteger", op.getBZeroPoint(),
                                  op.getB(), -1, "b_zero_point")))
    return failure();
  return inferMatMulShape(loc, "MatMulInteger", op.getA(), op.getB(),
                          IntegerType::get(ctx, 32), result);
}

LogicalResult
QLinearMatMulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                  ValueRange operands, DictionaryAttr attrs,
                                  OpaqueProperties props, RegionRange regions,
                                  SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  StringRef name = "QLinearMatMul";
  if (failed(checkMatMulZeroPoint(loc, name, op.getAZeroPoint(), op.getA(), -2,
                                  "a_zero_point")) ||
      failed(checkMatMulZeroPoint(loc, name, op.getBZeroPoint(), op.getB(), -1,
                                  "b_zero_point")))
    return failure();
  for (Value scale : {op.getAScale(), op.getBScale(), op.getYScale()}) {
    auto type = dyn_cast<RankedTensorType>(scale.getType());
    // qlinearmatmul_c1
    if (type && type.getRank() > 1)
      return opError(loc, name, "expects scales of rank 0 or 1 (got ", type,
                     ")");
  }
  return inferMatMulShape(loc, name, op.getA(), op.getB(),
                          getElementTypeOrSelf(op.getYZeroPoint()), result);
}

/// The result type of a quantized 2-D convolution with `element`.
template <typename AdaptorT>
static LogicalResult inferIntegerConv(std::optional<Location> loc,
                                      StringRef opName, AdaptorT op,
                                      Value wZeroPoint, Type element,
                                      SmallVectorImpl<Type> &result) {
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  auto w = dyn_cast<RankedTensorType>(op.getW().getType());
  if (!x || !w) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  // qconv_c1
  if (x.getRank() != 4 || w.getRank() != 4)
    return opError(loc, opName, "expects X and W of rank 4 (got ", x, " and ",
                   w, ")");
  int64_t group = op.getGroup();
  int64_t channels = x.getDimSize(1), filters = w.getDimSize(0);
  // qconv_c2
  if (group <= 0 ||
      (!ShapedType::isDynamic(channels) && channels % group != 0) ||
      (!ShapedType::isDynamic(filters) && filters % group != 0) ||
      (!ShapedType::isDynamic(channels) &&
       dimsDiffer(channels / group, w.getDimSize(1))))
    return opError(loc, opName,
                   "expects 'group' to divide input channels and "
                   "filters into W's dim 1 (got ",
                   group, ", ", x, " and ", w, ")");
  SmallVector<int64_t> kernel(w.getShape().drop_front(2));
  if (auto ks = op.getKernelShape()) {
    // qconv_c3
    if (ks->size() != 2 || dimsDiffer((*ks)[0], kernel[0]) ||
        dimsDiffer((*ks)[1], kernel[1]))
      return opError(loc, opName,
                     "expects 'kernel_shape' to match W's spatial dims");
    kernel.assign(ks->begin(), ks->end());
  }
  // qconv_c4
  if (llvm::any_of(kernel, ShapedType::isDynamic) &&
      op.getAutoPad() != "NOTSET" && op.getAutoPad() != "VALID")
    return opError(loc, opName, "expects static kernel dims with auto_pad ",
                   op.getAutoPad());
  if (!isNoValue(wZeroPoint)) {
    auto zp = dyn_cast<RankedTensorType>(wZeroPoint.getType());
    // qconv_c5
    if (zp && zp.getRank() > 1)
      return opError(loc, opName,
                     "expects w_zero_point to be a scalar or 1-D (got ", zp,
                     ")");
    // qconv_c6
    if (zp && zp.getRank() == 1 && zp.getDimSize(0) != 1 &&
        dimsDiffer(zp.getDimSize(0), filters))
      return opError(loc, opName, "expects a per-channel w_zero_point of ",
                     filters, " elements (got ", zp, ")");
  }
  if (llvm::any_of(kernel, ShapedType::isDynamic)) {
    // The window's extent is known at run time only.
    result.push_back(RankedTensorType::get(
        {x.getDimSize(0), filters, ShapedType::kDynamic, ShapedType::kDynamic},
        element));
    return success();
  }
  WindowGeometry g;
  if (failed(resolveWindow(loc, opName, x.getShape().drop_front(2), kernel,
                           op.getStrides(), op.getDilations(), op.getPads(),
                           op.getAutoPad(), /*ceilMode=*/false, g)))
    return failure();
  SmallVector<int64_t> shape{x.getDimSize(0), filters};
  shape.append(g.outputSpatial);
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
ConvIntegerOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                ValueRange operands, DictionaryAttr attrs,
                                OpaqueProperties props, RegionRange regions,
                                SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  if (!isNoValue(op.getXZeroPoint())) {
    auto zp = dyn_cast<RankedTensorType>(op.getXZeroPoint().getType());
    // convinteger_c1
    if (zp && zp.getNumElements() != 1)
      return opError(loc, "ConvInteger", "expects a scalar x_zero_point (got ",
                     zp, ")");
  }
  return inferIntegerConv(loc, "ConvInteger", op, op.getWZeroPoint(),
                          IntegerType::get(ctx, 32), result);
}

LogicalResult
QLinearConvOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                ValueRange operands, DictionaryAttr attrs,
                                OpaqueProperties props, RegionRange regions,
                                SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  for (Value v : {op.getXScale(), op.getXZeroPoint(), op.getYScale(),
                  op.getYZeroPoint()}) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    // qlinearconv_c1
    if (type && type.getNumElements() != 1)
      return opError(loc, "QLinearConv",
                     "expects scalar x and y scales and zero points (got ",
                     type, ")");
  }
  auto wScale = dyn_cast<RankedTensorType>(op.getWScale().getType());
  auto w = dyn_cast<RankedTensorType>(op.getW().getType());
  // qlinearconv_c2
  if (wScale && (wScale.getRank() > 1 ||
                 (wScale.getRank() == 1 && wScale.getDimSize(0) != 1 && w &&
                  dimsDiffer(wScale.getDimSize(0), w.getDimSize(0)))))
    return opError(loc, "QLinearConv",
                   "expects w_scale to be a scalar or per output channel (got ",
                   wScale, ")");
  if (!isNoValue(op.getB())) {
    auto b = dyn_cast<RankedTensorType>(op.getB().getType());
    // qlinearconv_c3
    if (b && (b.getRank() != 1 ||
              (w && dimsDiffer(b.getDimSize(0), w.getDimSize(0)))))
      return opError(loc, "QLinearConv", "expects B of shape [M] (got ", b,
                     ")");
  }
  return inferIntegerConv(loc, "QLinearConv", op, op.getWZeroPoint(),
                          getElementTypeOrSelf(op.getYZeroPoint()), result);
}
