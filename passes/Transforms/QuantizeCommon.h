//===- QuantizeCommon.h - Shared math of the quantization passes ----------===//
//
// Scales and zero points as ONNX Runtime's quantization tool computes them,
// symmetric int8 weights per tensor or per channel, and the scalar constants
// the QDQ and dynamic forms read.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_TRANSFORMS_QUANTIZECOMMON_H
#define ONNXC_PASSES_TRANSFORMS_QUANTIZECOMMON_H

#include "passes/Transforms/ConstantTensor.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace onnxc {

/// A scale and zero point of linear quantization.
struct QuantParams {
  double scale = 1.0;
  int64_t zeroPoint = 0;
};

/// ONNX Runtime's compute_scale_zp: `[lo, hi]` widened to hold 0, mapped
/// onto `[qmin, qmax]` (a zero-width range gets scale 1 and zero point 0).
QuantParams computeQuantParams(double lo, double hi, int64_t qmin,
                               int64_t qmax);

/// A float weight as symmetric int8 (`[-127, 127]`, zero point 0): one scale
/// for the tensor, or one per index of `axis`.
struct QuantizedWeight {
  ConstantTensor values;
  llvm::SmallVector<double> scales;
  std::optional<int64_t> axis;
};
QuantizedWeight quantizeWeight(const ConstantTensor &weight,
                               std::optional<int64_t> axis);

/// The `round(x / scale)` of `x`, half to even, saturated to `[qmin, qmax]`.
int64_t quantizeValue(double x, double scale, int64_t zeroPoint, int64_t qmin,
                      int64_t qmax);

/// An onnx.Constant of `values` as a 1-D tensor (a scalar when `scalar`) of
/// `element` (f32 or an integer type).
mlir::Value createQuantConstant(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::Type element,
                                llvm::ArrayRef<double> values, bool scalar);

/// Raises the module's `ai.onnx` opset to at least `opset` when it names
/// one (per-axis QuantizeLinear and DequantizeLinear need 13).
void requireOpset(mlir::ModuleOp module, int64_t opset);

} // namespace onnxc

#endif // ONNXC_PASSES_TRANSFORMS_QUANTIZECOMMON_H
