//===- ConstantTensor.cpp - Constant tensors for onnx rewrites ------------===//

#include "passes/Transforms/ConstantTensor.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace onnxc;

/// Dense resources above this many bytes; the importer's threshold.
static constexpr size_t kResourceThresholdBytes = 1024;

ConstantTensor ConstantTensor::zeros(RankedTensorType type) {
  ConstantTensor t;
  t.type = type;
  if (t.isFloat())
    t.floats.assign(type.getNumElements(), 0.0);
  else
    t.ints.assign(type.getNumElements(), 0);
  return t;
}

bool onnxc::isReadableElementType(Type element) {
  if (element.isF16() || element.isBF16() || element.isF32() || element.isF64())
    return true;
  auto intType = dyn_cast<IntegerType>(element);
  return intType &&
         llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth());
}

/// A float of `semantics` from its bits, as a double.
static double bitsToDouble(const llvm::fltSemantics &semantics,
                           const APInt &bits) {
  APFloat value(semantics, bits);
  bool lost = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}

/// Reads little-endian raw bytes (bools one byte each).
static void readRaw(ArrayRef<char> raw, ConstantTensor &t) {
  Type element = t.type.getElementType();
  int64_t n = t.size();
  if (element.isF32()) {
    t.floats.resize(n);
    const char *p = raw.data();
    for (int64_t i = 0; i < n; ++i, p += 4) {
      float f;
      std::memcpy(&f, p, 4);
      t.floats[i] = f;
    }
    return;
  }
  if (element.isF64()) {
    t.floats.resize(n);
    std::memcpy(t.floats.data(), raw.data(), n * 8);
    return;
  }
  if (element.isF16() || element.isBF16()) {
    t.floats.resize(n);
    const auto &semantics = cast<FloatType>(element).getFloatSemantics();
    for (int64_t i = 0; i < n; ++i) {
      uint16_t bits;
      std::memcpy(&bits, raw.data() + 2 * i, 2);
      t.floats[i] = bitsToDouble(semantics, APInt(16, bits));
    }
    return;
  }
  auto intType = cast<IntegerType>(element);
  unsigned width = intType.getWidth();
  unsigned bytes = width == 1 ? 1 : width / 8;
  t.ints.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, raw.data() + bytes * i, bytes);
    if (width == 1)
      t.ints[i] = bits != 0;
    else if (intType.isUnsigned() || width == 64)
      t.ints[i] = static_cast<int64_t>(bits);
    else
      t.ints[i] = llvm::SignExtend64(bits, width);
  }
}

std::optional<ConstantTensor> onnxc::readElements(ElementsAttr attr,
                                                  int64_t maxElements) {
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape() ||
      !isReadableElementType(type.getElementType()) ||
      type.getNumElements() > maxElements)
    return std::nullopt;
  ConstantTensor t;
  t.type = type;
  Type element = type.getElementType();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    size_t width =
        element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8;
    if (blob->getData().size() != width * type.getNumElements())
      return std::nullopt;
    readRaw(blob->getData(), t);
    return t;
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  int64_t n = type.getNumElements();
  if (isa<FloatType>(element)) {
    t.floats.reserve(n);
    if (element.isF32()) {
      for (float v : dense.getValues<float>())
        t.floats.push_back(v);
    } else if (element.isF64()) {
      for (double v : dense.getValues<double>())
        t.floats.push_back(v);
    } else {
      const auto &semantics = cast<FloatType>(element).getFloatSemantics();
      for (APFloat v : dense.getValues<APFloat>())
        t.floats.push_back(bitsToDouble(semantics, v.bitcastToAPInt()));
    }
    return t;
  }
  bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
  t.ints.reserve(n);
  for (const APInt &v : dense.getValues<APInt>())
    t.ints.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                : v.getSExtValue());
  return t;
}

std::optional<ConstantTensor> onnxc::readConstant(Value value,
                                                  int64_t maxElements) {
  auto constant = value.getDefiningOp<onnx::ConstantOp>();
  if (!constant)
    return std::nullopt;
  return readElements(constant.getValue(), maxElements);
}

std::optional<int64_t> onnxc::constantSize(Value value) {
  auto constant = value.getDefiningOp<onnx::ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(constant.getValue().getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return type.getNumElements();
}

/// Appends the `bytes` low-order bytes of `value`, little endian.
static void appendBytes(std::vector<char> &raw, uint64_t value,
                        unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    raw.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

ElementsAttr onnxc::toElementsAttr(const ConstantTensor &t) {
  Type element = t.type.getElementType();
  int64_t n = t.size();
  std::vector<char> raw;
  if (element.isInteger(1)) {
    SmallVector<bool> values;
    for (int64_t v : t.ints)
      values.push_back(v != 0);
    return DenseElementsAttr::get(t.type, values);
  }
  size_t width = element.getIntOrFloatBitWidth() / 8;
  raw.reserve(width * n);
  if (element.isF32()) {
    for (double v : t.floats) {
      float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      appendBytes(raw, bits, 4);
    }
  } else if (element.isF64()) {
    for (double v : t.floats) {
      uint64_t bits;
      std::memcpy(&bits, &v, 8);
      appendBytes(raw, bits, 8);
    }
  } else if (isa<FloatType>(element)) {
    const auto &semantics = cast<FloatType>(element).getFloatSemantics();
    for (double v : t.floats) {
      APFloat f(v);
      bool lost = false;
      f.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
      appendBytes(raw, f.bitcastToAPInt().getZExtValue(), 2);
    }
  } else {
    for (int64_t v : t.ints)
      appendBytes(raw, static_cast<uint64_t>(v), width);
  }
  if (raw.size() > kResourceThresholdBytes) {
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(raw.data(), raw.size()), 8);
    return DenseResourceElementsAttr::get(t.type, "folded", std::move(blob));
  }
  return DenseElementsAttr::getFromRawBuffer(
      t.type, ArrayRef<char>(raw.data(), raw.size()));
}

Value onnxc::createConstant(OpBuilder &builder, Location loc,
                            const ConstantTensor &tensor) {
  return builder.create<onnx::ConstantOp>(loc, toElementsAttr(tensor));
}
