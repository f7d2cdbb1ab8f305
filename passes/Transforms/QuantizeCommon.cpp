//===- QuantizeCommon.cpp - Shared math of the quantization passes --------===//

#include "passes/Transforms/QuantizeCommon.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace onnxc;

QuantParams onnxc::computeQuantParams(double lo, double hi, int64_t qmin,
                                      int64_t qmax) {
  lo = std::min(lo, 0.0);
  hi = std::max(hi, 0.0);
  QuantParams params;
  // The scale is stored as f32: compute with the value stored.
  double scale = static_cast<float>((hi - lo) / double(qmax - qmin));
  // ONNX Runtime's guard against a scale that would divide by ~0.
  if (!(scale >= std::numeric_limits<float>::min()))
    return params;
  params.scale = scale;
  params.zeroPoint = std::clamp<int64_t>(
      static_cast<int64_t>(std::nearbyint(double(qmin) - lo / scale)), qmin,
      qmax);
  return params;
}

int64_t onnxc::quantizeValue(double x, double scale, int64_t zeroPoint,
                             int64_t qmin, int64_t qmax) {
  double q = std::nearbyint(x / scale) + double(zeroPoint);
  return static_cast<int64_t>(std::clamp(q, double(qmin), double(qmax)));
}

QuantizedWeight onnxc::quantizeWeight(const ConstantTensor &weight,
                                      std::optional<int64_t> axis) {
  ArrayRef<int64_t> shape = weight.shape();
  int64_t channels = axis ? shape[*axis] : 1;
  // Elements of one channel repeat every `inner` elements in runs of
  // `inner`, `channels` runs apart.
  int64_t inner = 1;
  if (axis)
    for (int64_t d : shape.drop_front(*axis + 1))
      inner *= d;
  auto channelOf = [&](int64_t i) { return axis ? (i / inner) % channels : 0; };
  SmallVector<double> absMax(channels, 0.0);
  for (int64_t i = 0, e = weight.size(); i < e; ++i) {
    double &m = absMax[channelOf(i)];
    m = std::max(m, std::fabs(weight.floats[i]));
  }
  QuantizedWeight result;
  result.axis = axis;
  for (double m : absMax)
    result.scales.push_back(computeQuantParams(-m, m, -127, 127).scale);
  auto type = RankedTensorType::get(
      shape, IntegerType::get(weight.type.getContext(), 8));
  result.values = ConstantTensor::zeros(type);
  for (int64_t i = 0, e = weight.size(); i < e; ++i)
    result.values.ints[i] = quantizeValue(
        weight.floats[i], result.scales[channelOf(i)], 0, -127, 127);
  return result;
}

Value onnxc::createQuantConstant(OpBuilder &builder, Location loc, Type element,
                                 ArrayRef<double> values, bool scalar) {
  assert((!scalar || values.size() == 1) && "a scalar holds one value");
  SmallVector<int64_t> shape;
  if (!scalar)
    shape.push_back(values.size());
  ConstantTensor t =
      ConstantTensor::zeros(RankedTensorType::get(shape, element));
  for (auto [i, v] : llvm::enumerate(values)) {
    if (t.isFloat())
      t.floats[i] = v;
    else
      t.ints[i] = static_cast<int64_t>(v);
  }
  return createConstant(builder, loc, t);
}

void onnxc::requireOpset(ModuleOp module, int64_t opset) {
  auto opsets = module->getAttrOfType<DictionaryAttr>("onnx.opset_import");
  if (!opsets)
    return;
  auto current = opsets.getAs<IntegerAttr>("ai.onnx");
  if (!current || current.getInt() >= opset)
    return;
  NamedAttrList entries(opsets);
  entries.set("ai.onnx", IntegerAttr::get(current.getType(), opset));
  module->setAttr("onnx.opset_import",
                  entries.getDictionary(module.getContext()));
}
