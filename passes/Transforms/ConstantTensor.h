//===- ConstantTensor.h - Constant tensors for onnx rewrites ----*- C++ -*-===//
//
// The elements of an onnx.Constant (dense or dense resource) read into plain
// vectors, and new constants built from them: what constant folding, Conv +
// BatchNormalization folding and the other weight rewrites compute on.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_TRANSFORMS_CONSTANTTENSOR_H
#define ONNXC_PASSES_TRANSFORMS_CONSTANTTENSOR_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace onnxc {

/// A static-shaped tensor's elements: doubles for float element types,
/// int64 for integers and bools (unsigned values zero-extended).
struct ConstantTensor {
  mlir::RankedTensorType type;
  std::vector<double> floats;
  std::vector<int64_t> ints;

  bool isFloat() const {
    return llvm::isa<mlir::FloatType>(type.getElementType());
  }
  int64_t size() const { return type.getNumElements(); }
  llvm::ArrayRef<int64_t> shape() const { return type.getShape(); }
  double getDouble(int64_t i) const {
    return isFloat() ? floats[i] : double(ints[i]);
  }
  int64_t getInt(int64_t i) const {
    return isFloat() ? int64_t(floats[i]) : ints[i];
  }

  /// A zero-filled tensor of `type`.
  static ConstantTensor zeros(mlir::RankedTensorType type);
};

/// True for the element types that ConstantTensor reads and writes: f16,
/// bf16, f32, f64 and integers of 1, 8, 16, 32 or 64 bits.
bool isReadableElementType(mlir::Type element);

/// The elements of `attr` if it is dense or a dense resource with data, has
/// a static shape, an element type this reads (floats, integers, bool) and
/// at most `maxElements` elements.
std::optional<ConstantTensor> readElements(mlir::ElementsAttr attr,
                                           int64_t maxElements);

/// readElements of the value of an onnx.Constant defining `value`.
std::optional<ConstantTensor> readConstant(mlir::Value value,
                                           int64_t maxElements);

/// The number of elements of `value` when it is an onnx.Constant.
std::optional<int64_t> constantSize(mlir::Value value);

/// `tensor` as an elements attribute of its type: values are rounded to the
/// element type (integers wrap); tensors above 1 KiB become dense resources
/// so that large folded weights are neither uniqued nor hashed.
mlir::ElementsAttr toElementsAttr(const ConstantTensor &tensor);

/// A new onnx.Constant holding `tensor`.
mlir::Value createConstant(mlir::OpBuilder &builder, mlir::Location loc,
                           const ConstantTensor &tensor);

} // namespace onnxc

#endif // ONNXC_PASSES_TRANSFORMS_CONSTANTTENSOR_H
