//===- ShapeNN.cpp - Result types of the onnx neural-network ops ----------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

LogicalResult onnxc::onnx::resolveWindow(
    std::optional<Location> loc, StringRef opName, ArrayRef<int64_t> inputSpatial,
    ArrayRef<int64_t> kernel, std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> dilations,
    std::optional<ArrayRef<int64_t>> pads, StringRef autoPad, bool ceilMode,
    WindowGeometry &g) {
  size_t n = inputSpatial.size();
  auto orDefault = [&](std::optional<ArrayRef<int64_t>> v, int64_t fill,
                       size_t size, StringRef what,
                       SmallVectorImpl<int64_t> &out) -> LogicalResult {
    if (!v) {
      out.assign(size, fill);
      return success();
    }
    // window_c1
    if (v->size() != size)
      return opError(loc, opName, "expects '", what, "' to have ", size,
                     " values (got ", v->size(), ")");
    out.assign(v->begin(), v->end());
    return success();
  };
  // window_c2
  if (kernel.size() != n)
    return opError(loc, opName, "expects 'kernel_shape' to have ", n,
                   " values (got ", kernel.size(), ")");
  g.kernel.assign(kernel.begin(), kernel.end());
  SmallVector<int64_t> allPads;
  if (failed(orDefault(strides, 1, n, "strides", g.strides)) ||
      failed(orDefault(dilations, 1, n, "dilations", g.dilations)) ||
      failed(orDefault(pads, 0, 2 * n, "pads", allPads)))
    return failure();
  for (size_t i = 0; i < n; ++i) {
    // window_c3
    if (g.kernel[i] <= 0 || g.strides[i] <= 0 || g.dilations[i] <= 0)
      return opError(loc, opName,
                     "expects positive kernel_shape, strides and dilations");
    // window_c4
    if (allPads[i] < 0 || allPads[i + n] < 0)
      return opError(loc, opName, "expects non-negative pads");
  }
  g.padsBegin.assign(allPads.begin(), allPads.begin() + n);
  g.padsEnd.assign(allPads.begin() + n, allPads.end());
  g.outputSpatial.clear();
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  // window_c5
  if (!same && autoPad != "VALID" && autoPad != "NOTSET")
    return opError(loc, opName, "has unknown auto_pad '", autoPad, "'");
  for (size_t i = 0; i < n; ++i) {
    int64_t in = inputSpatial[i];
    int64_t extent = (g.kernel[i] - 1) * g.dilations[i] + 1;
    if (autoPad == "VALID")
      g.padsBegin[i] = g.padsEnd[i] = 0;
    if (ShapedType::isDynamic(in)) {
      g.outputSpatial.push_back(ShapedType::kDynamic);
      continue;
    }
    if (same) {
      int64_t out = ceilDiv(in, g.strides[i]);
      int64_t total = std::max<int64_t>((out - 1) * g.strides[i] + extent - in, 0);
      int64_t small = total / 2;
      g.padsBegin[i] = autoPad == "SAME_UPPER" ? small : total - small;
      g.padsEnd[i] = total - g.padsBegin[i];
      g.outputSpatial.push_back(out);
      continue;
    }
    int64_t span = in + g.padsBegin[i] + g.padsEnd[i] - extent;
    // window_c6
    if (span < 0)
      return opError(loc, opName, "has a window larger than the padded input (",
                     extent, " > ", in + g.padsBegin[i] + g.padsEnd[i], ")");
    int64_t out = (ceilMode ? ceilDiv(span, g.strides[i]) : span / g.strides[i]) + 1;
    // The last window must start inside the input or its begin padding.
    if (ceilMode && (out - 1) * g.strides[i] >= in + g.padsBegin[i])
      --out;
    g.outputSpatial.push_back(out);
  }
  return success();
}

/// The ranked type of operand `value`, or an error naming `what`.
static FailureOr<RankedTensorType> rankedOperand(std::optional<Location> loc,
                                                 StringRef opName, Value value,
                                                 StringRef what, int64_t rank) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return failure();
  if (rank >= 0 && type.getRank() != rank)
    return opError(loc, opName, "expects ", what, " of rank ", rank, " (got ",
                   type, ")");
  return type;
}

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         ValueRange operands, DictionaryAttr,
                                         OpaqueProperties, RegionRange,
                                         SmallVectorImpl<Type> &result) {
  Type element = getElementTypeOrSelf(operands[0]);
  // matmul_c1
  if (getElementTypeOrSelf(operands[1]) != element)
    return opError(loc, "MatMul", "expects operands of one element type");
  auto a = dyn_cast<RankedTensorType>(operands[0].getType());
  auto b = dyn_cast<RankedTensorType>(operands[1].getType());
  if (!a || !b) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  // matmul_c2
  if (a.getRank() == 0 || b.getRank() == 0)
    return opError(loc, "MatMul", "expects operands of rank 1 or more");
  SmallVector<int64_t> aShape(a.getShape()), bShape(b.getShape());
  if (a.getRank() == 1)
    aShape.insert(aShape.begin(), 1);
  if (b.getRank() == 1)
    bShape.push_back(1);
  int64_t k1 = aShape.back(), k2 = bShape[bShape.size() - 2];
  // matmul_c3
  if (dimsDiffer(k1, k2))
    return opError(loc, "MatMul", "expects matching contraction dims (got ", a,
                   " and ", b, ")");
  SmallVector<int64_t> batch;
  // matmul_c4
  if (!OpTrait::util::getBroadcastedShape(ArrayRef(aShape).drop_back(2),
                                          ArrayRef(bShape).drop_back(2), batch))
    return opError(loc, "MatMul", "expects broadcastable batch dims (got ", a,
                   " and ", b, ")");
  if (a.getRank() != 1)
    batch.push_back(aShape[aShape.size() - 2]);
  if (b.getRank() != 1)
    batch.push_back(bShape.back());
  result.push_back(RankedTensorType::get(batch, element));
  return success();
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       ValueRange operands, DictionaryAttr attrs,
                                       OpaqueProperties props, RegionRange regions,
                                       SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementTypeOrSelf(operands[0]);
  // gemm_c1
  if (getElementTypeOrSelf(operands[1]) != element)
    return opError(loc, "Gemm", "expects A and B of one element type");
  auto a = rankedOperand(loc, "Gemm", op.getA(), "A", 2);
  auto b = rankedOperand(loc, "Gemm", op.getB(), "B", 2);
  if (failed(a) || failed(b)) {
    // gemm_c2
    if ((succeeded(a) || isa<UnrankedTensorType>(op.getA().getType())) &&
        (succeeded(b) || isa<UnrankedTensorType>(op.getB().getType()))) {
      result.push_back(RankedTensorType::get(
          {ShapedType::kDynamic, ShapedType::kDynamic}, element));
      return success();
    }
    return failure();
  }
  int64_t m = a->getDimSize(op.getTransA() ? 1 : 0);
  int64_t ka = a->getDimSize(op.getTransA() ? 0 : 1);
  int64_t kb = b->getDimSize(op.getTransB() ? 1 : 0);
  int64_t n = b->getDimSize(op.getTransB() ? 0 : 1);
  // gemm_c3
  if (dimsDiffer(ka, kb))
    return opError(loc, "Gemm", "expects matching contraction dims (got ", ka,
                   " and ", kb, ")");
  if (!isNoValue(op.getC())) {
    auto c = dyn_cast<RankedTensorType>(op.getC().getType());
    SmallVector<int64_t> out;
    // gemm_c4
    if (c && (c.getRank() > 2 ||
              !OpTrait::util::getBroadcastedShape(c.getShape(), {m, n}, out) ||
              (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(n) &&
               out != SmallVector<int64_t>{m, n})))
      return opError(loc, "Gemm", "expects C to broadcast to [M, N] (got ", c,
                     ")");
  }
  result.push_back(RankedTensorType::get({m, n}, element));
  return success();
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       ValueRange operands, DictionaryAttr attrs,
                                       OpaqueProperties props, RegionRange regions,
                                       SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementTypeOrSelf(operands[0]);
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  auto w = dyn_cast<RankedTensorType>(op.getW().getType());
  if (!x || !w) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  // conv_c1
  if (x.getRank() < 3 || w.getRank() != x.getRank())
    return opError(loc, "Conv", "expects X and W of one rank, at least 3 (got ",
                   x, " and ", w, ")");
  int64_t group = op.getGroup();
  int64_t channels = x.getDimSize(1), filters = w.getDimSize(0);
  // conv_c2
  if (group <= 0 ||
      (!ShapedType::isDynamic(channels) && channels % group != 0) ||
      (!ShapedType::isDynamic(filters) && filters % group != 0))
    return opError(loc, "Conv", "expects 'group' to divide input channels and "
                   "filters (got ", group, ", ", channels, " and ", filters, ")");
  // conv_c3
  if (!ShapedType::isDynamic(channels) && dimsDiffer(channels / group, w.getDimSize(1)))
    return opError(loc, "Conv", "expects W dim 1 to be channels / group (got ",
                   w.getDimSize(1), ", expected ", channels / group, ")");
  SmallVector<int64_t> kernel(w.getShape().drop_front(2));
  if (auto ks = op.getKernelShape()) {
    // conv_c4
    if (ks->size() != kernel.size() ||
        llvm::any_of(llvm::zip(*ks, kernel), [](auto p) {
          return dimsDiffer(std::get<0>(p), std::get<1>(p));
        }))
      return opError(loc, "Conv", "expects 'kernel_shape' to match W's spatial dims");
    kernel.assign(ks->begin(), ks->end());
  }
  // conv_c5
  if (llvm::any_of(kernel, ShapedType::isDynamic))
    return opError(loc, "Conv", "expects static kernel dims");
  if (!isNoValue(op.getB())) {
    auto b = dyn_cast<RankedTensorType>(op.getB().getType());
    // conv_c6
    if (b && (b.getRank() != 1 || dimsDiffer(b.getDimSize(0), filters)))
      return opError(loc, "Conv", "expects B of shape [", filters, "] (got ", b, ")");
  }
  WindowGeometry g;
  if (failed(resolveWindow(loc, "Conv", x.getShape().drop_front(2), kernel,
                           op.getStrides(), op.getDilations(), op.getPads(),
                           op.getAutoPad(), /*ceilMode=*/false, g)))
    return failure();
  SmallVector<int64_t> shape{x.getDimSize(0), filters};
  shape.append(g.outputSpatial);
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

/// Result type of MaxPool and AveragePool.
template <typename AdaptorT>
static LogicalResult inferPool(std::optional<Location> loc, StringRef opName,
                               AdaptorT op, SmallVectorImpl<Type> &result) {
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  if (!x) {
    result.push_back(op.getX().getType());
    return success();
  }
  // pool_c1
  if (x.getRank() < 3)
    return opError(loc, opName, "expects X of rank 3 or more (got ", x, ")");
  WindowGeometry g;
  if (failed(resolveWindow(loc, opName, x.getShape().drop_front(2),
                           op.getKernelShape(), op.getStrides(),
                           op.getDilations(), op.getPads(), op.getAutoPad(),
                           op.getCeilMode() != 0, g)))
    return failure();
  SmallVector<int64_t> shape(x.getShape().take_front(2));
  shape.append(g.outputSpatial);
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult MaxPoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          ValueRange operands, DictionaryAttr attrs,
                                          OpaqueProperties props, RegionRange regions,
                                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // maxpool_c1
  if (op.getStorageOrder() != 0)
    return opError(loc, "MaxPool", "supports only storage_order 0");
  return inferPool(loc, "MaxPool", op, result);
}

LogicalResult AveragePoolOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  return inferPool(loc, "AveragePool", Adaptor(operands, attrs, props, regions),
                   result);
}

/// Result type of GlobalAveragePool and GlobalMaxPool: size-1 spatial dims.
static LogicalResult inferGlobalPool(std::optional<Location> loc,
                                     StringRef name, ValueRange operands,
                                     SmallVectorImpl<Type> &result) {
  auto x = dyn_cast<RankedTensorType>(operands[0].getType());
  if (!x) {
    result.push_back(operands[0].getType());
    return success();
  }
  // globalpool_c1
  if (x.getRank() < 3)
    return opError(loc, name, "expects X of rank 3 or more (got ", x, ")");
  SmallVector<int64_t> shape(x.getShape().take_front(2));
  shape.append(x.getRank() - 2, 1);
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult GlobalAveragePoolOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &result) {
  return inferGlobalPool(loc, "GlobalAveragePool", operands, result);
}

LogicalResult GlobalMaxPoolOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                ValueRange operands,
                                                DictionaryAttr,
                                                OpaqueProperties, RegionRange,
                                                SmallVectorImpl<Type> &result) {
  return inferGlobalPool(loc, "GlobalMaxPool", operands, result);
}

LogicalResult InstanceNormalizationOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &result) {
  auto x = dyn_cast<RankedTensorType>(operands[0].getType());
  // instancenorm_c1
  if (x && x.getRank() < 3)
    return opError(loc, "InstanceNormalization",
                   "expects an input of rank 3 or more (got ", x, ")");
  for (Value param : operands.drop_front()) {
    auto p = dyn_cast<RankedTensorType>(param.getType());
    // instancenorm_c2
    if (p && (p.getRank() != 1 ||
              (x && dimsDiffer(p.getDimSize(0), x.getDimSize(1)))))
      return opError(loc, "InstanceNormalization",
                     "expects scale and B of shape [C] (got ", p, ")");
    // instancenorm_c3
    if (getElementTypeOrSelf(param) != getElementTypeOrSelf(operands[0]))
      return opError(loc, "InstanceNormalization",
                     "expects scale and B of the input's element type (got ",
                     getElementTypeOrSelf(param), ")");
  }
  result.push_back(operands[0].getType());
  return success();
}

LogicalResult BatchNormalizationOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // batchnorm_c1
  if (op.getTrainingMode() != 0)
    return opError(loc, "BatchNormalization", "supports only inference mode "
                   "(training_mode = 0)");
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  // batchnorm_c2
  if (x && x.getRank() < 2)
    return opError(loc, "BatchNormalization", "expects X of rank 2 or more");
  for (Value param : operands.drop_front()) {
    auto p = dyn_cast<RankedTensorType>(param.getType());
    // batchnorm_c3
    if (p && (p.getRank() != 1 || (x && dimsDiffer(p.getDimSize(0), x.getDimSize(1)))))
      return opError(loc, "BatchNormalization",
                     "expects 1-D parameters of size C (got ", p, ")");
  }
  result.push_back(operands[0].getType());
  return success();
}

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          ValueRange operands, DictionaryAttr attrs,
                                          OpaqueProperties props, RegionRange regions,
                                          SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(operands[0].getType());
  // softmax_c1
  if (x && !normalizeAxis(op.getAxis(), x.getRank()))
    return opError(loc, "Softmax", "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()), ")");
  result.push_back(operands[0].getType());
  return success();
}

LogicalResult LayerNormalizationOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(operands[0].getType());
  // layernorm_c1
  if (x && !normalizeAxis(op.getAxis(), x.getRank()))
    return opError(loc, "LayerNormalization", "expects 'axis' in [", -x.getRank(),
                   ", ", x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()), ")");
  result.push_back(operands[0].getType());
  return success();
}

LogicalResult DropoutOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                          ValueRange operands, DictionaryAttr,
                                          OpaqueProperties, RegionRange,
                                          SmallVectorImpl<Type> &result) {
  auto type = cast<TensorType>(operands[0].getType());
  result.push_back(type);
  result.push_back(type.clone(IntegerType::get(ctx, 1)));
  return success();
}
