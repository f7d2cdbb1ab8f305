//===- ShapeNN.cpp - Result types of the onnx neural-network ops ----------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include <cmath>

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// A window attribute (strides, dilations, pads, output_padding) with
/// `size` values, or `size` copies of `fill` when absent.
static LogicalResult readWindowAttr(std::optional<Location> loc,
                                    StringRef opName,
                                    std::optional<ArrayRef<int64_t>> v,
                                    int64_t fill, size_t size, StringRef what,
                                    SmallVectorImpl<int64_t> &out) {
  if (!v) {
    out.assign(size, fill);
    return success();
  }
  if (v->size() != size)
    return opError(loc, opName, "expects '", what, "' to have ", size,
                   " values (got ", v->size(), ")");
  out.assign(v->begin(), v->end());
  return success();
}

LogicalResult onnxc::onnx::resolveWindow(
    std::optional<Location> loc, StringRef opName,
    ArrayRef<int64_t> inputSpatial, ArrayRef<int64_t> kernel,
    std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> dilations,
    std::optional<ArrayRef<int64_t>> pads, StringRef autoPad, bool ceilMode,
    WindowGeometry &g) {
  size_t n = inputSpatial.size();
  // window_c1
  auto orDefault = [&](std::optional<ArrayRef<int64_t>> v, int64_t fill,
                       size_t size, StringRef what,
                       SmallVectorImpl<int64_t> &out) {
    return readWindowAttr(loc, opName, v, fill, size, what, out);
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
    if ((!ShapedType::isDynamic(g.kernel[i]) && g.kernel[i] <= 0) ||
        g.strides[i] <= 0 || g.dilations[i] <= 0)
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
    if (ShapedType::isDynamic(g.kernel[i])) {
      // The pads of SAME and the output of explicit pads are known at run
      // time only.
      g.outputSpatial.push_back(same ? ceilDiv(in, g.strides[i])
                                     : ShapedType::kDynamic);
      continue;
    }
    if (same) {
      int64_t out = ceilDiv(in, g.strides[i]);
      int64_t total =
          std::max<int64_t>((out - 1) * g.strides[i] + extent - in, 0);
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
    int64_t out =
        (ceilMode ? ceilDiv(span, g.strides[i]) : span / g.strides[i]) + 1;
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

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
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

LogicalResult
GemmOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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

LogicalResult
ConvOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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
    return opError(loc, "Conv",
                   "expects 'group' to divide input channels and "
                   "filters (got ",
                   group, ", ", channels, " and ", filters, ")");
  // conv_c3
  if (!ShapedType::isDynamic(channels) &&
      dimsDiffer(channels / group, w.getDimSize(1)))
    return opError(loc, "Conv", "expects W dim 1 to be channels / group (got ",
                   w.getDimSize(1), ", expected ", channels / group, ")");
  SmallVector<int64_t> kernel(w.getShape().drop_front(2));
  if (auto ks = op.getKernelShape()) {
    // conv_c4
    if (ks->size() != kernel.size() ||
        llvm::any_of(llvm::zip(*ks, kernel), [](auto p) {
          return dimsDiffer(std::get<0>(p), std::get<1>(p));
        }))
      return opError(loc, "Conv",
                     "expects 'kernel_shape' to match W's spatial dims");
    kernel.assign(ks->begin(), ks->end());
  }
  if (!isNoValue(op.getB())) {
    auto b = dyn_cast<RankedTensorType>(op.getB().getType());
    // conv_c6
    if (b && (b.getRank() != 1 || dimsDiffer(b.getDimSize(0), filters)))
      return opError(loc, "Conv", "expects B of shape [", filters, "] (got ", b,
                     ")");
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

LogicalResult onnxc::onnx::resolveTransposedWindow(
    std::optional<Location> loc, ArrayRef<int64_t> inputSpatial,
    ArrayRef<int64_t> kernel, std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> dilations,
    std::optional<ArrayRef<int64_t>> pads,
    std::optional<ArrayRef<int64_t>> outputPadding,
    std::optional<ArrayRef<int64_t>> outputShape, StringRef autoPad,
    TransposedWindow &w) {
  StringRef opName = "ConvTranspose";
  size_t n = inputSpatial.size();
  // convtranspose_c1
  auto orDefault = [&](std::optional<ArrayRef<int64_t>> v, int64_t fill,
                       size_t size, StringRef what,
                       SmallVectorImpl<int64_t> &out) {
    return readWindowAttr(loc, opName, v, fill, size, what, out);
  };
  // convtranspose_c1
  if (kernel.size() != n)
    return opError(loc, opName, "expects 'kernel_shape' to have ", n,
                   " values (got ", kernel.size(), ")");
  w.kernel.assign(kernel.begin(), kernel.end());
  SmallVector<int64_t> allPads, shape;
  if (failed(orDefault(strides, 1, n, "strides", w.strides)) ||
      failed(orDefault(dilations, 1, n, "dilations", w.dilations)) ||
      failed(orDefault(pads, 0, 2 * n, "pads", allPads)) ||
      failed(orDefault(outputPadding, 0, n, "output_padding", w.outputPadding)))
    return failure();
  // The spatial sizes; a full [N, C, ...] shape is accepted too.
  if (outputShape && outputShape->size() == n + 2)
    outputShape = outputShape->drop_front(2);
  if (outputShape &&
      failed(orDefault(outputShape, 0, n, "output_shape", shape)))
    return failure();
  for (size_t i = 0; i < n; ++i) {
    // convtranspose_c2
    if ((!ShapedType::isDynamic(w.kernel[i]) && w.kernel[i] <= 0) ||
        w.strides[i] <= 0 || w.dilations[i] <= 0)
      return opError(loc, opName,
                     "expects positive kernel_shape, strides and dilations");
    // convtranspose_c3
    if (allPads[i] < 0 || allPads[i + n] < 0 || w.outputPadding[i] < 0 ||
        (outputShape && shape[i] <= 0))
      return opError(loc, opName,
                     "expects non-negative pads and output_padding, and a "
                     "positive output_shape");
  }
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  // convtranspose_c4
  if (!same && autoPad != "VALID" && autoPad != "NOTSET")
    return opError(loc, opName, "has unknown auto_pad '", autoPad, "'");
  w.padsBegin.assign(allPads.begin(), allPads.begin() + n);
  w.padsEnd.assign(allPads.begin() + n, allPads.end());
  w.outputSpatial.clear();
  // Splits `total` removed elements between the begin and the end.
  auto split = [&](size_t i, int64_t total) {
    if (total < 0) {
      w.padsBegin[i] = 0;
      w.padsEnd[i] = total;
      return;
    }
    w.padsBegin[i] = autoPad == "SAME_LOWER" ? total - total / 2 : total / 2;
    w.padsEnd[i] = total - w.padsBegin[i];
  };
  for (size_t i = 0; i < n; ++i) {
    int64_t in = inputSpatial[i];
    int64_t extent = (w.kernel[i] - 1) * w.dilations[i] + 1;
    if (autoPad == "VALID")
      w.padsBegin[i] = w.padsEnd[i] = 0;
    int64_t out = ShapedType::kDynamic;
    if (ShapedType::isDynamic(w.kernel[i])) {
      // A `?` kernel dim: the output is known only from output_shape, or
      // from SAME and a static input dim; derived pads are `?`.
      if (outputShape || same)
        w.padsBegin[i] = w.padsEnd[i] = ShapedType::kDynamic;
      if (outputShape)
        out = shape[i];
      else if (same && !ShapedType::isDynamic(in))
        out = in * w.strides[i];
    } else if (outputShape) {
      out = shape[i];
      if (ShapedType::isDynamic(in))
        w.padsBegin[i] = w.padsEnd[i] = ShapedType::kDynamic;
      else
        split(i, w.strides[i] * (in - 1) + w.outputPadding[i] + extent - out);
    } else if (same) {
      // The full size less `in * stride` does not depend on `in`.
      split(i, w.outputPadding[i] + extent - w.strides[i]);
      if (!ShapedType::isDynamic(in))
        out = in * w.strides[i];
    } else if (!ShapedType::isDynamic(in)) {
      out = w.strides[i] * (in - 1) + w.outputPadding[i] + extent -
            w.padsBegin[i] - w.padsEnd[i];
      // convtranspose_c5
      if (out <= 0)
        return opError(loc, opName, "has pads that leave no output (",
                       w.padsBegin[i] + w.padsEnd[i], " pads for ",
                       out + w.padsBegin[i] + w.padsEnd[i], " elements)");
    }
    w.outputSpatial.push_back(out);
  }
  return success();
}

LogicalResult
ConvTransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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
  StringRef name = "ConvTranspose";
  // convtranspose_c6
  if (x.getRank() < 3 || w.getRank() != x.getRank())
    return opError(loc, name, "expects X and W of one rank, at least 3 (got ",
                   x, " and ", w, ")");
  int64_t group = op.getGroup();
  int64_t channels = x.getDimSize(1);
  // convtranspose_c7
  if (group <= 0 ||
      (!ShapedType::isDynamic(channels) && channels % group != 0) ||
      dimsDiffer(channels, w.getDimSize(0)))
    return opError(loc, name,
                   "expects W dim 0 to be the input channels and "
                   "'group' to divide them (got ",
                   w.getDimSize(0), ", ", channels, " and group ", group, ")");
  SmallVector<int64_t> kernel(w.getShape().drop_front(2));
  if (auto ks = op.getKernelShape()) {
    // convtranspose_c8
    if (ks->size() != kernel.size() ||
        llvm::any_of(llvm::zip(*ks, kernel), [](auto p) {
          return dimsDiffer(std::get<0>(p), std::get<1>(p));
        }))
      return opError(loc, name,
                     "expects 'kernel_shape' to match W's spatial dims");
    kernel.assign(ks->begin(), ks->end());
  }
  int64_t filters = ShapedType::isDynamic(w.getDimSize(1))
                        ? ShapedType::kDynamic
                        : w.getDimSize(1) * group;
  if (!isNoValue(op.getB())) {
    auto b = dyn_cast<RankedTensorType>(op.getB().getType());
    // convtranspose_c9
    if (b && (b.getRank() != 1 || dimsDiffer(b.getDimSize(0), filters)))
      return opError(loc, name, "expects B of shape [", filters, "] (got ", b,
                     ")");
  }
  TransposedWindow window;
  if (failed(resolveTransposedWindow(
          loc, x.getShape().drop_front(2), kernel, op.getStrides(),
          op.getDilations(), op.getPads(), op.getOutputPadding(),
          op.getOutputShape(), op.getAutoPad(), window)))
    return failure();
  SmallVector<int64_t> shape{x.getDimSize(0), filters};
  shape.append(window.outputSpatial);
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

LogicalResult
MaxPoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                            ValueRange operands, DictionaryAttr attrs,
                            OpaqueProperties props, RegionRange regions,
                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // maxpool_c1
  if (op.getStorageOrder() > 1)
    return opError(loc, "MaxPool", "expects 'storage_order' 0 or 1 (got ",
                   static_cast<int64_t>(op.getStorageOrder()), ")");
  if (failed(inferPool(loc, "MaxPool", op, result)))
    return failure();
  // Indices: Y's shape, i64.
  auto y = cast<TensorType>(result.front());
  result.push_back(y.clone(IntegerType::get(op.getX().getContext(), 64)));
  return success();
}

LogicalResult
AveragePoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                ValueRange operands, DictionaryAttr attrs,
                                OpaqueProperties props, RegionRange regions,
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
  if (op.getTrainingMode() > 1)
    return opError(loc, "BatchNormalization",
                   "expects 'training_mode' 0 or 1 (got ",
                   static_cast<int64_t>(op.getTrainingMode()), ")");
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  // batchnorm_c2
  if (x && x.getRank() < 2)
    return opError(loc, "BatchNormalization", "expects X of rank 2 or more");
  for (Value param : operands.drop_front()) {
    auto p = dyn_cast<RankedTensorType>(param.getType());
    // batchnorm_c3
    if (p && (p.getRank() != 1 ||
              (x && dimsDiffer(p.getDimSize(0), x.getDimSize(1)))))
      return opError(loc, "BatchNormalization",
                     "expects 1-D parameters of size C (got ", p, ")");
  }
  result.push_back(operands[0].getType());
  if (op.getTrainingMode() != 0) {
    result.push_back(op.getInputMean().getType());
    result.push_back(op.getInputVar().getType());
  }
  return success();
}

LogicalResult
SoftmaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                            ValueRange operands, DictionaryAttr attrs,
                            OpaqueProperties props, RegionRange regions,
                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(operands[0].getType());
  // softmax_c1
  if (x && !normalizeAxis(op.getAxis(), x.getRank()))
    return opError(loc, "Softmax", "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()),
                   ")");
  result.push_back(operands[0].getType());
  return success();
}

LogicalResult LayerNormalizationOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(operands[0].getType());
  // layernorm_c1
  if (x && !normalizeAxis(op.getAxis(), x.getRank()))
    return opError(loc, "LayerNormalization", "expects 'axis' in [",
                   -x.getRank(), ", ", x.getRank(), ") (got ",
                   static_cast<int64_t>(op.getAxis()), ")");
  Type stash = getElementType(ctx, op.getStashType());
  // layernorm_c2
  if (!isa_and_nonnull<FloatType>(stash))
    return opError(loc, "LayerNormalization",
                   "expects a float 'stash_type' (got ",
                   static_cast<int64_t>(op.getStashType()), ")");
  result.push_back(operands[0].getType());
  if (!x) {
    result.append(2, UnrankedTensorType::get(stash));
    return success();
  }
  int64_t axis = *normalizeAxis(op.getAxis(), x.getRank());
  SmallVector<int64_t> shape(x.getShape().take_front(axis));
  shape.append(x.getRank() - axis, 1);
  result.append(2, RankedTensorType::get(shape, stash));
  return success();
}

/// Result type of the ops of Softmax's form: the input's, with a valid axis.
template <typename AdaptorT>
static LogicalResult inferSoftmaxLike(std::optional<Location> loc,
                                      StringRef opName, AdaptorT op,
                                      SmallVectorImpl<Type> &result) {
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (x && !normalizeAxis(op.getAxis(), x.getRank()))
    return opError(loc, opName, "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), ") (got ", static_cast<int64_t>(op.getAxis()),
                   ")");
  result.push_back(op.getInput().getType());
  return success();
}

LogicalResult
LogSoftmaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                               ValueRange operands, DictionaryAttr attrs,
                               OpaqueProperties props, RegionRange regions,
                               SmallVectorImpl<Type> &result) {
  // logsoftmax_c1
  return inferSoftmaxLike(loc, "LogSoftmax",
                          Adaptor(operands, attrs, props, regions), result);
}

LogicalResult
HardmaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                            ValueRange operands, DictionaryAttr attrs,
                            OpaqueProperties props, RegionRange regions,
                            SmallVectorImpl<Type> &result) {
  // hardmax_c1
  return inferSoftmaxLike(loc, "Hardmax",
                          Adaptor(operands, attrs, props, regions), result);
}

LogicalResult
LpNormalizationOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    ValueRange operands, DictionaryAttr attrs,
                                    OpaqueProperties props, RegionRange regions,
                                    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  // lpnorm_c1
  if (x && !normalizeAxis(op.getAxis(), x.getRank()))
    return opError(loc, "LpNormalization", "expects 'axis' in [", -x.getRank(),
                   ", ", x.getRank(), ") (got ",
                   static_cast<int64_t>(op.getAxis()), ")");
  // lpnorm_c2
  if (op.getP() != 1 && op.getP() != 2)
    return opError(loc, "LpNormalization", "expects 'p' to be 1 or 2 (got ",
                   static_cast<int64_t>(op.getP()), ")");
  result.push_back(op.getInput().getType());
  return success();
}

LogicalResult MeanVarianceNormalizationOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  if (auto x = dyn_cast<RankedTensorType>(op.getX().getType())) {
    SmallVector<int64_t> seen;
    for (int64_t axis : op.getAxes()) {
      std::optional<int64_t> norm = normalizeAxis(axis, x.getRank());
      // mvn_c1
      if (!norm || llvm::is_contained(seen, *norm))
        return opError(loc, "MeanVarianceNormalization",
                       "has invalid 'axes' for rank ", x.getRank());
      seen.push_back(*norm);
    }
  }
  result.push_back(op.getX().getType());
  return success();
}

/// Checks the operands of NegativeLogLikelihoodLoss (and of
/// SoftmaxCrossEntropyLoss) and adds the loss type.
static LogicalResult inferLoss(std::optional<Location> loc, StringRef opName,
                               Value input, Value target, Value weight,
                               StringRef reduction,
                               SmallVectorImpl<Type> &result) {
  Type element = getElementTypeOrSelf(input);
  // loss_c1
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return opError(loc, opName, "has unknown reduction '", reduction, "'");
  auto x = dyn_cast<RankedTensorType>(input.getType());
  auto t = dyn_cast<RankedTensorType>(target.getType());
  if (x && t) {
    // loss_c2
    if (x.getRank() < 2 || t.getRank() != x.getRank() - 1)
      return opError(loc, opName,
                     "expects an input [N, C, d1, ..., dk] and a "
                     "target [N, d1, ..., dk] (got ",
                     x, " and ", t, ")");
    for (int64_t i = 0; i < t.getRank(); ++i) {
      int64_t xi = i == 0 ? 0 : i + 1;
      // loss_c3
      if (dimsDiffer(t.getDimSize(i), x.getDimSize(xi)))
        return opError(loc, opName,
                       "expects the target's dims to match the "
                       "input's (got ",
                       x, " and ", t, ")");
    }
  }
  if (!isNoValue(weight)) {
    auto w = dyn_cast<RankedTensorType>(weight.getType());
    // loss_c4
    if (w && (w.getRank() != 1 ||
              (x && dimsDiffer(w.getDimSize(0), x.getDimSize(1))) ||
              w.getElementType() != element))
      return opError(loc, opName, "expects a 1-D weight of size C (got ", w,
                     ")");
  }
  if (reduction != "none") {
    result.push_back(RankedTensorType::get({}, element));
    return success();
  }
  result.push_back(t ? Type(RankedTensorType::get(t.getShape(), element))
                     : Type(UnrankedTensorType::get(element)));
  return success();
}

LogicalResult NegativeLogLikelihoodLossOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  return inferLoss(loc, "NegativeLogLikelihoodLoss", op.getInput(),
                   op.getTarget(), op.getWeight(), op.getReduction(), result);
}

LogicalResult SoftmaxCrossEntropyLossOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  if (failed(inferLoss(loc, "SoftmaxCrossEntropyLoss", op.getScores(),
                       op.getLabels(), op.getWeights(), op.getReduction(),
                       result)))
    return failure();
  result.push_back(op.getScores().getType());
  return success();
}

FailureOr<EinsumEquation> onnxc::onnx::parseEinsumEquation(
    StringRef equation, ArrayRef<int64_t> inputRanks, std::string &error) {
  std::string text;
  for (char c : equation)
    if (!isspace(static_cast<unsigned char>(c)))
      text.push_back(c);
  StringRef lhs = text, rhs;
  bool explicitOutput = false;
  if (size_t arrow = lhs.find("->"); arrow != StringRef::npos) {
    rhs = lhs.drop_front(arrow + 2);
    lhs = lhs.take_front(arrow);
    explicitOutput = true;
  }
  // A term: letters and at most one `...` (-1 in `labels`).
  auto parseTerm = [&](StringRef term, SmallVectorImpl<int> &labels) {
    bool ellipsis = false;
    for (size_t i = 0; i < term.size(); ++i) {
      if (term.substr(i).starts_with("...")) {
        if (ellipsis)
          return false;
        ellipsis = true;
        labels.push_back(-1);
        i += 2;
        continue;
      }
      if (!isalpha(static_cast<unsigned char>(term[i])))
        return false;
      labels.push_back(term[i]);
    }
    return true;
  };
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != inputRanks.size()) {
    error = "has " + std::to_string(terms.size()) + " terms for " +
            std::to_string(inputRanks.size()) + " inputs";
    return failure();
  }
  EinsumEquation eq;
  llvm::SmallDenseMap<int, int64_t> letterLoop;
  SmallVector<int> letters;
  SmallVector<SmallVector<int>> inputLabels(terms.size());
  SmallVector<int64_t> ellipsisRanks;
  int64_t maxEllipsis = 0;
  for (auto [i, term] : llvm::enumerate(terms)) {
    if (!parseTerm(term, inputLabels[i])) {
      error = "has a malformed term '" + term.str() + "'";
      return failure();
    }
    int64_t named =
        llvm::count_if(inputLabels[i], [](int l) { return l >= 0; });
    bool hasEllipsis = llvm::is_contained(inputLabels[i], -1);
    int64_t rest = inputRanks[i] - named;
    if (rest < 0 || (!hasEllipsis && rest != 0)) {
      error = "has a term '" + term.str() + "' for an input of rank " +
              std::to_string(inputRanks[i]);
      return failure();
    }
    ellipsisRanks.push_back(rest);
    maxEllipsis = std::max(maxEllipsis, rest);
    for (int l : inputLabels[i])
      if (l >= 0 && letterLoop.try_emplace(l, letters.size()).second)
        letters.push_back(l);
  }
  int64_t numLetters = letters.size();
  eq.numLetters = numLetters;
  eq.numLoops = numLetters + maxEllipsis;
  for (auto [i, labels] : llvm::enumerate(inputLabels)) {
    SmallVector<int64_t> &dims = eq.inputs.emplace_back();
    for (int l : labels) {
      if (l >= 0) {
        dims.push_back(letterLoop[l]);
        continue;
      }
      for (int64_t j = maxEllipsis - ellipsisRanks[i]; j < maxEllipsis; ++j)
        dims.push_back(numLetters + j);
    }
  }
  if (explicitOutput) {
    SmallVector<int> labels;
    if (!parseTerm(rhs, labels)) {
      error = "has a malformed output term '" + rhs.str() + "'";
      return failure();
    }
    for (int l : labels) {
      if (l < 0) {
        for (int64_t j = 0; j < maxEllipsis; ++j)
          eq.output.push_back(numLetters + j);
        continue;
      }
      auto it = letterLoop.find(l);
      if (it == letterLoop.end() || llvm::is_contained(eq.output, it->second)) {
        error = "has an output letter '" + std::string(1, char(l)) +
                "' that is repeated or in no input";
        return failure();
      }
      eq.output.push_back(it->second);
    }
    return eq;
  }
  // Implicit output: the broadcast dims, then the letters seen once, sorted.
  for (int64_t j = 0; j < maxEllipsis; ++j)
    eq.output.push_back(numLetters + j);
  SmallVector<int> once;
  for (int l : letters) {
    int64_t count = 0;
    for (const SmallVector<int> &labels : inputLabels)
      count += llvm::count(labels, l);
    if (count == 1)
      once.push_back(l);
  }
  llvm::sort(once);
  for (int l : once)
    eq.output.push_back(letterLoop[l]);
  return eq;
}

LogicalResult
EinsumOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // einsum_c1
  if (operands.empty())
    return opError(loc, "Einsum", "expects at least one input");
  Type element = getElementTypeOrSelf(operands[0]);
  SmallVector<int64_t> ranks;
  for (Value v : operands) {
    // einsum_c2
    if (getElementTypeOrSelf(v) != element)
      return opError(loc, "Einsum", "expects inputs of one element type");
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t) {
      result.push_back(UnrankedTensorType::get(element));
      return success();
    }
    ranks.push_back(t.getRank());
  }
  std::string error;
  FailureOr<EinsumEquation> eq =
      parseEinsumEquation(op.getEquation(), ranks, error);
  // einsum_c3
  if (failed(eq))
    return opError(loc, "Einsum", "has an equation '", op.getEquation(),
                   "' that ", error);
  // The size of each loop: a static size wins over `?`, and in the dims of
  // `...` a size wins over a broadcast 1.
  SmallVector<int64_t> sizes(eq->numLoops, ShapedType::kDynamic);
  SmallVector<bool> seen(eq->numLoops, false);
  for (auto [v, dims] : llvm::zip(operands, eq->inputs)) {
    auto t = cast<RankedTensorType>(v.getType());
    for (auto [i, loop] : llvm::enumerate(dims)) {
      int64_t d = t.getDimSize(i);
      int64_t &s = sizes[loop];
      bool broadcast = loop >= eq->numLetters;
      if (!seen[loop] || ShapedType::isDynamic(s) || (broadcast && s == 1)) {
        if (!seen[loop] || !(broadcast && d == 1))
          s = d;
        seen[loop] = true;
        continue;
      }
      // einsum_c4
      if (dimsDiffer(s, d) && !(broadcast && d == 1))
        return opError(loc, "Einsum",
                       "has inputs that disagree on the size of "
                       "one letter (",
                       s, " and ", d, ")");
    }
  }
  SmallVector<int64_t> shape;
  for (int64_t loop : eq->output)
    shape.push_back(sizes[loop]);
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult DropoutOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location>,
                                          ValueRange operands, DictionaryAttr,
                                          OpaqueProperties, RegionRange,
                                          SmallVectorImpl<Type> &result) {
  auto type = cast<TensorType>(operands[0].getType());
  result.push_back(type);
  result.push_back(type.clone(IntegerType::get(ctx, 1)));
  return success();
}

LogicalResult
ResizeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = getElementTypeOrSelf(op.getX());
  StringRef mode = op.getMode();
  // resize_c1
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return opError(loc, "Resize", "has unknown mode '", mode, "'");
  StringRef coordinates = op.getCoordinateTransformationMode();
  // resize_c2
  if (!llvm::is_contained({"half_pixel", "half_pixel_symmetric",
                           "pytorch_half_pixel", "align_corners", "asymmetric",
                           "tf_crop_and_resize"},
                          coordinates))
    return opError(loc, "Resize",
                   "has unknown coordinate_transformation_mode '", coordinates,
                   "'");
  StringRef nearest = op.getNearestMode();
  // resize_c3
  if (!llvm::is_contained(
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"},
          nearest))
    return opError(loc, "Resize", "has unknown nearest_mode '", nearest, "'");
  // resize_c11
  if (op.getAntialias() != 0 && op.getAntialias() != 1)
    return opError(loc, "Resize", "expects antialias 0 or 1 (got ",
                   op.getAntialias(), ")");
  // resize_c12
  if (op.getAntialias() && mode == "nearest")
    return opError(loc, "Resize",
                   "expects antialias only with mode 'linear' or 'cubic'");
  bool hasScales = !isNoValue(op.getScales());
  bool hasSizes = !isNoValue(op.getSizes());
  // resize_c4
  if (!hasScales && !hasSizes)
    return opError(loc, "Resize", "expects scales or sizes");
  // resize_c5
  if (hasScales && !isa<FloatType>(getElementTypeOrSelf(op.getScales())))
    return opError(loc, "Resize", "expects floating-point scales");
  // resize_c6
  if (coordinates == "tf_crop_and_resize" &&
      (isNoValue(op.getRoi()) ||
       !isa<FloatType>(getElementTypeOrSelf(op.getRoi()))))
    return opError(loc, "Resize",
                   "expects a floating-point roi with tf_crop_and_resize");
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  if (!x) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  int64_t rank = x.getRank();
  for (auto [param, name] : {std::make_pair(op.getScales(), "scales"),
                             std::make_pair(op.getSizes(), "sizes")}) {
    auto paramType = dyn_cast<RankedTensorType>(param.getType());
    // resize_c7
    if (paramType &&
        (paramType.getRank() != 1 || dimsDiffer(paramType.getDimSize(0), rank)))
      return opError(loc, "Resize", "expects ", name, " to hold ", rank,
                     " values (got ", paramType, ")");
  }
  if (!isNoValue(op.getRoi()) && coordinates == "tf_crop_and_resize") {
    auto roiType = dyn_cast<RankedTensorType>(op.getRoi().getType());
    // resize_c8
    if (roiType &&
        (roiType.getRank() != 1 || dimsDiffer(roiType.getDimSize(0), 2 * rank)))
      return opError(loc, "Resize", "expects roi to hold ", 2 * rank,
                     " values (got ", roiType, ")");
  }
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  if (hasSizes) {
    if (auto sizes = getConstantIntValues(op.getSizes());
        sizes && static_cast<int64_t>(sizes->size()) == rank) {
      // resize_c9
      if (llvm::any_of(*sizes, [](int64_t s) { return s < 0; }))
        return opError(loc, "Resize", "expects non-negative sizes");
      shape.assign(sizes->begin(), sizes->end());
    }
  } else if (auto scales = getConstantFloatValues(op.getScales());
             scales && static_cast<int64_t>(scales->size()) == rank) {
    for (int64_t i = 0; i < rank; ++i) {
      // resize_c10
      if (!((*scales)[i] > 0))
        return opError(loc, "Resize", "expects positive scales");
      if (!x.isDynamicDim(i))
        shape[i] = static_cast<int64_t>(
            std::floor(static_cast<double>(x.getDimSize(i)) * (*scales)[i]));
    }
  }
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
GridSampleOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                               ValueRange operands, DictionaryAttr attrs,
                               OpaqueProperties props, RegionRange regions,
                               SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  StringRef name = "GridSample";
  Type element = getElementTypeOrSelf(op.getX());
  // gridsample_c1
  if (!llvm::is_contained({"bilinear", "nearest", "bicubic"}, op.getMode()))
    return opError(loc, name, "has unknown mode '", op.getMode(), "'");
  // gridsample_c2
  if (!llvm::is_contained({"zeros", "border", "reflection"},
                          op.getPaddingMode()))
    return opError(loc, name, "has unknown padding_mode '", op.getPaddingMode(),
                   "'");
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  auto grid = dyn_cast<RankedTensorType>(op.getGrid().getType());
  // gridsample_c3
  auto spatialOf = [](RankedTensorType t) { return t.getRank() - 2; };
  if ((x && x.getRank() != 4 && x.getRank() != 5) ||
      (grid && grid.getRank() != 4 && grid.getRank() != 5) ||
      (grid &&
       dimsDiffer(grid.getDimSize(grid.getRank() - 1), spatialOf(grid))))
    return opError(loc, name,
                   "expects X [N, C, H, W] and grid [N, H_out, W_out, 2], or X "
                   "[N, C, D, H, W] and grid [N, D_out, H_out, W_out, 3] (got ",
                   op.getX().getType(), " and ", op.getGrid().getType(), ")");
  // gridsample_c5
  if (x && grid && x.getRank() != grid.getRank())
    return opError(loc, name, "expects X and grid of one rank (got ",
                   x.getRank(), " and ", grid.getRank(), ")");
  // gridsample_c4
  if (x && grid && dimsDiffer(x.getDimSize(0), grid.getDimSize(0)))
    return opError(loc, name, "expects X and grid of one batch size (got ",
                   x.getDimSize(0), " and ", grid.getDimSize(0), ")");
  if (!x && !grid) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  int64_t rank = x ? x.getRank() : grid.getRank();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  if (x) {
    shape[0] = x.getDimSize(0);
    shape[1] = x.getDimSize(1);
  }
  if (grid) {
    if (ShapedType::isDynamic(shape[0]))
      shape[0] = grid.getDimSize(0);
    for (int64_t d = 1; d < rank - 1; ++d)
      shape[d + 1] = grid.getDimSize(d);
  }
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
Col2ImOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  StringRef name = "Col2Im";
  Type element = getElementTypeOrSelf(op.getInput());
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  // col2im_c1
  if (x && x.getRank() != 3)
    return opError(loc, name,
                   "expects input [N, C * prod(block_shape), L] (got ", x, ")");
  auto image = dyn_cast<RankedTensorType>(op.getImageShape().getType());
  auto block = dyn_cast<RankedTensorType>(op.getBlockShape().getType());
  // col2im_c2
  if ((image && image.getRank() != 1) || (block && block.getRank() != 1) ||
      (image && block && dimsDiffer(image.getDimSize(0), block.getDimSize(0))))
    return opError(loc, name,
                   "expects image_shape and block_shape 1-D of one length "
                   "(got ",
                   op.getImageShape().getType(), " and ",
                   op.getBlockShape().getType(), ")");
  int64_t spatial = ShapedType::kDynamic;
  if (image && !image.isDynamicDim(0))
    spatial = image.getDimSize(0);
  else if (block && !block.isDynamicDim(0))
    spatial = block.getDimSize(0);
  if (ShapedType::isDynamic(spatial)) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  SmallVector<int64_t> dilations(spatial, 1), strides(spatial, 1),
      pads(2 * spatial, 0);
  auto readAttr = [&](std::optional<ArrayRef<int64_t>> attr,
                      SmallVectorImpl<int64_t> &values) {
    if (!attr)
      return true;
    if (static_cast<int64_t>(attr->size()) !=
        static_cast<int64_t>(values.size()))
      return false;
    values.assign(attr->begin(), attr->end());
    return true;
  };
  // col2im_c3
  if (spatial < 1 || !readAttr(op.getDilations(), dilations) ||
      !readAttr(op.getStrides(), strides) || !readAttr(op.getPads(), pads) ||
      llvm::any_of(
          dilations, [](int64_t v) { return v <= 0; }) ||
      llvm::any_of(
          strides, [](int64_t v) { return v <= 0; }) ||
      llvm::any_of(pads, [](int64_t v) { return v < 0; }))
    return opError(loc, name,
                   "expects positive 'dilations' and 'strides' of one value "
                   "per spatial dim and non-negative 'pads' of two (",
                   spatial, " spatial dims)");
  std::optional<SmallVector<int64_t>> imageSizes =
      getConstantIntValues(op.getImageShape());
  std::optional<SmallVector<int64_t>> blockSizes =
      getConstantIntValues(op.getBlockShape());
  // col2im_c4
  if ((imageSizes &&
       llvm::any_of(*imageSizes, [](int64_t v) { return v <= 0; })) ||
      (blockSizes &&
       llvm::any_of(*blockSizes, [](int64_t v) { return v <= 0; })))
    return opError(loc, name, "expects positive image_shape and block_shape");
  SmallVector<int64_t> shape(2 + spatial, ShapedType::kDynamic);
  if (x)
    shape[0] = x.getDimSize(0);
  if (imageSizes)
    llvm::copy(*imageSizes, shape.begin() + 2);
  if (x && blockSizes && !x.isDynamicDim(1)) {
    int64_t blockSize = productOfDims(*blockSizes);
    // col2im_c5
    if (x.getDimSize(1) % blockSize != 0)
      return opError(loc, name, "expects input dim 1 (", x.getDimSize(1),
                     ") to be a multiple of the block size ", blockSize);
    shape[1] = x.getDimSize(1) / blockSize;
  }
  if (x && imageSizes && blockSizes && !x.isDynamicDim(2)) {
    int64_t blocks = 1;
    for (int64_t d = 0; d < spatial; ++d) {
      int64_t extent = dilations[d] * ((*blockSizes)[d] - 1) + 1;
      int64_t padded = (*imageSizes)[d] + pads[d] + pads[spatial + d];
      blocks *= padded < extent ? 0 : (padded - extent) / strides[d] + 1;
    }
    // col2im_c6
    if (blocks == 0 || blocks != x.getDimSize(2))
      return opError(loc, name, "expects input dim 2 (", x.getDimSize(2),
                     ") to be the number of sliding blocks, ", blocks);
  }
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
DeformConvOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                               ValueRange operands, DictionaryAttr attrs,
                               OpaqueProperties props, RegionRange regions,
                               SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  StringRef name = "DeformConv";
  Type element = getElementTypeOrSelf(op.getX());
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  auto w = dyn_cast<RankedTensorType>(op.getW().getType());
  if (!x || !w) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  // deformconv_c1
  if (x.getRank() != 4 || w.getRank() != 4)
    return opError(loc, name, "expects X and W of rank 4 (got ", x, " and ", w,
                   ")");
  auto group = static_cast<int64_t>(op.getGroup());
  auto offsetGroup = static_cast<int64_t>(op.getOffsetGroup());
  int64_t channels = x.getDimSize(1), filters = w.getDimSize(0);
  // deformconv_c2
  if (group <= 0 || offsetGroup <= 0 ||
      (!ShapedType::isDynamic(channels) &&
       (channels % group != 0 || channels % offsetGroup != 0)) ||
      (!ShapedType::isDynamic(filters) && filters % group != 0))
    return opError(loc, name,
                   "expects 'group' to divide input channels and filters and "
                   "'offset_group' to divide input channels (got ",
                   group, ", ", offsetGroup, ", ", channels, " and ", filters,
                   ")");
  // deformconv_c3
  if (!ShapedType::isDynamic(channels) &&
      dimsDiffer(channels / group, w.getDimSize(1)))
    return opError(loc, name, "expects W dim 1 to be channels / group (got ",
                   w.getDimSize(1), ", expected ", channels / group, ")");
  SmallVector<int64_t> kernel(w.getShape().drop_front(2));
  if (auto ks = op.getKernelShape()) {
    if (ks->size() == kernel.size())
      for (auto [k, given] : llvm::zip(kernel, *ks))
        if (!dimsDiffer(k, given))
          k = given;
    // deformconv_c4
    if (ks->size() != kernel.size() || ArrayRef<int64_t>(kernel) != *ks)
      return opError(loc, name,
                     "expects 'kernel_shape' to match W's spatial dims");
  }
  // deformconv_c5
  if (llvm::any_of(kernel, ShapedType::isDynamic))
    return opError(loc, name, "expects static kernel dims");
  if (!isNoValue(op.getB())) {
    auto b = dyn_cast<RankedTensorType>(op.getB().getType());
    // deformconv_c6
    if (b && (b.getRank() != 1 || dimsDiffer(b.getDimSize(0), filters)))
      return opError(loc, name, "expects B of shape [", filters, "] (got ", b,
                     ")");
  }
  WindowGeometry g;
  if (failed(resolveWindow(loc, name, x.getShape().drop_front(2), kernel,
                           op.getStrides(), op.getDilations(), op.getPads(),
                           "NOTSET", /*ceilMode=*/false, g)))
    return failure();
  SmallVector<int64_t> shape{x.getDimSize(0), filters};
  shape.append(g.outputSpatial);
  int64_t taps = offsetGroup * kernel[0] * kernel[1];
  // The offsets (and the mask) have the output's spatial dims.
  auto checkPerTap = [&](Value value, int64_t perTap) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return true;
    if (type.getRank() != 4 || dimsDiffer(type.getDimSize(0), shape[0]) ||
        dimsDiffer(type.getDimSize(1), taps * perTap) ||
        dimsDiffer(type.getDimSize(2), shape[2]) ||
        dimsDiffer(type.getDimSize(3), shape[3]))
      return false;
    for (int64_t d : {0, 2, 3})
      if (ShapedType::isDynamic(shape[d]))
        shape[d] = type.getDimSize(d);
    return true;
  };
  // deformconv_c7
  if (!checkPerTap(op.getOffset(), 2))
    return opError(loc, name, "expects offset [", shape[0], ", ", taps * 2,
                   ", ", shape[2], ", ", shape[3], "] (got ",
                   op.getOffset().getType(), ")");
  // deformconv_c8
  if (!isNoValue(op.getMask()) && !checkPerTap(op.getMask(), 1))
    return opError(loc, name, "expects mask [", shape[0], ", ", taps, ", ",
                   shape[2], ", ", shape[3], "] (got ", op.getMask().getType(),
                   ")");
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult
AffineGridOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                               ValueRange operands, DictionaryAttr attrs,
                               OpaqueProperties props, RegionRange regions,
                               SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  StringRef name = "AffineGrid";
  Type element = getElementTypeOrSelf(op.getTheta());
  // affinegrid_c1
  auto alignCorners = static_cast<int64_t>(op.getAlignCorners());
  if (alignCorners != 0 && alignCorners != 1)
    return opError(loc, name, "expects 'align_corners' to be 0 or 1 (got ",
                   alignCorners, ")");
  int64_t spatial = ShapedType::kDynamic;
  auto theta = dyn_cast<RankedTensorType>(op.getTheta().getType());
  if (theta) {
    // affinegrid_c2
    if (theta.getRank() != 3 ||
        (!theta.isDynamicDim(1) && theta.getDimSize(1) != 2 &&
         theta.getDimSize(1) != 3) ||
        (!theta.isDynamicDim(1) &&
         dimsDiffer(theta.getDimSize(2), theta.getDimSize(1) + 1)))
      return opError(loc, name, "expects theta [N, 2, 3] or [N, 3, 4] (got ",
                     theta, ")");
    spatial = theta.getDimSize(1);
  }
  auto size = dyn_cast<RankedTensorType>(op.getSize().getType());
  // affinegrid_c3
  if (size &&
      (size.getRank() != 1 ||
       (!size.isDynamicDim(0) && size.getDimSize(0) != 4 &&
        size.getDimSize(0) != 5) ||
       (!size.isDynamicDim(0) && dimsDiffer(size.getDimSize(0) - 2, spatial))))
    return opError(loc, name,
                   "expects size [N, C, H, W] with theta [N, 2, 3] or "
                   "[N, C, D, H, W] with theta [N, 3, 4] (got ",
                   size, " and ", op.getTheta().getType(), ")");
  if (ShapedType::isDynamic(spatial) && size && !size.isDynamicDim(0))
    spatial = size.getDimSize(0) - 2;
  if (ShapedType::isDynamic(spatial)) {
    result.push_back(UnrankedTensorType::get(element));
    return success();
  }
  SmallVector<int64_t> shape(spatial + 2, ShapedType::kDynamic);
  shape.back() = spatial;
  if (theta)
    shape[0] = theta.getDimSize(0);
  if (std::optional<SmallVector<int64_t>> sizes =
          getConstantIntValues(op.getSize())) {
    // affinegrid_c4
    if (llvm::any_of(*sizes, [](int64_t v) { return v <= 0; }) ||
        dimsDiffer((*sizes)[0], shape[0]))
      return opError(loc, name,
                     "expects positive sizes and theta's batch size (got "
                     "size of N = ",
                     (*sizes)[0], " and theta ", op.getTheta().getType(), ")");
    shape[0] = (*sizes)[0];
    for (int64_t d = 0; d < spatial; ++d)
      shape[1 + d] = (*sizes)[2 + d];
  }
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}
