//===- LowPrecision.h - float8, float4, int4 conversions -------*- C++ -*-===//
//
// Scalar conversions between f32 and the storage-only element types
// (Common.h's isStorageOnlyType): LLVM has no float8 or float4 arithmetic,
// so the lowering converts their bit patterns, held in an i8, with integer
// operations (and one f32 multiply to decode). Cast, CastLike,
// QuantizeLinear and DequantizeLinear build on these.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_LOWPRECISION_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_LOWPRECISION_H

#include "mlir/IR/Builders.h"

namespace onnxc::tolinalg {

/// The f32 value of the i8 `code` of the float8 or float4 type `type`
/// (onnx::isLowPrecisionFloat): exact, NaN codes to NaN.
mlir::Value decodeLowPrecisionFloat(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value code, mlir::Type type);

/// The i8 code of the float8 or float4 type `type` for the f32 `value`, as
/// ONNX's Cast: round to nearest even (FLOAT8E8M0: `roundMode` up, down or
/// nearest), out-of-range values to the largest finite value with
/// `saturate`, else to infinity or NaN (see onnx.Cast's description).
mlir::Value encodeLowPrecisionFloat(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value value, mlir::Type type,
                                    bool saturate, llvm::StringRef roundMode);

/// The i64 `value` wrapped to the integer type `type` of 2 or 4 bits: its low
/// bits, sign- (i2, i4) or zero-extended (ui2, ui4) to the i8 that holds it.
mlir::Value wrapToNarrowInteger(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value value, mlir::Type type);

} // namespace onnxc::tolinalg

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_LOWPRECISION_H
