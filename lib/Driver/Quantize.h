//===- Quantize.h - Post-training quantization for onnx-opt -----*- C++ -*-===//
//
// Static quantization calibrates the model natively: an instrumented copy
// whose extra outputs are the activations to quantize is compiled by onnxc
// into a shared library, loaded, and run on the calibration inputs through
// the runtime's C API; the ranges it measures drive the QDQ rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_DRIVER_QUANTIZE_H
#define ONNXC_LIB_DRIVER_QUANTIZE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <cstdint>
#include <string>

namespace onnxc {

enum class QuantizeMode { None, Static, Dynamic };
enum class CalibrationMethod { MinMax, Percentile };

struct QuantizeOptions {
  QuantizeMode mode = QuantizeMode::None;
  /// Static: the calibration inputs (see docs/optimizer.md, Quantization).
  std::string calibrationDir;
  CalibrationMethod method = CalibrationMethod::MinMax;
  /// Percentile: the share of values kept, the rest cut evenly from both
  /// tails.
  double percentile = 99.999;
  /// Static: int8 activations instead of uint8.
  bool int8Activations = false;
  /// One weight scale per output channel (static: on by default; dynamic:
  /// off by default).
  bool perChannel = true;
  /// At most this many calibration samples (0: all).
  int64_t maxSamples = 0;
  /// The threads of the calibration runs (0: all cores).
  int threads = 0;
};

/// Measures the range of every activation that static quantization reads
/// (getQuantizableActivations) over the calibration inputs and records it
/// on the value (setActivationRange). The model is compiled at `optLevel`.
mlir::LogicalResult calibrateModel(mlir::ModuleOp module,
                                   const QuantizeOptions &options,
                                   unsigned optLevel);

/// Calibrates when static, then rewrites `module` into the QDQ or dynamic
/// form; nothing for QuantizeMode::None.
mlir::LogicalResult quantizeModel(mlir::ModuleOp module,
                                  const QuantizeOptions &options,
                                  unsigned optLevel);

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_QUANTIZE_H
