//===- ONNXOps.h - The onnx dialect and its ops -----------------*- C++ -*-===//
//
// Declares the onnx dialect, its ops, and the helpers that the importer,
// exporter, passes and lowerings share (ONNX data type codes, constant reads).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_ONNX_IR_ONNXOPS_H
#define ONNXC_DIALECTS_ONNX_IR_ONNXOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace onnxc::onnx {

/// True when each pair of types has the same element type and compatible
/// shapes (a `?` dim or an unranked tensor matches anything).
bool areCompatibleTypes(mlir::TypeRange lhs, mlir::TypeRange rhs);

/// The MLIR element type of an ONNX `TensorProto.DataType` code, or null for
/// codes the dialect does not model (complex) and for STRING: the types that
/// Cast, EyeLike, the random ops... produce. The float8 types are MLIR's,
/// INT4/UINT4/INT2/UINT2 are i4/ui4/i2/ui2, FLOAT4E2M1 and FLOAT8E8M0 the
/// dialect's !onnx.f4E2M1 and !onnx.f8E8M0.
mlir::Type getElementType(mlir::MLIRContext *ctx, int64_t onnxDType);

/// As getElementType, and !onnx.string for STRING: the element types of
/// graph values and constants.
mlir::Type getValueElementType(mlir::MLIRContext *ctx, int64_t onnxDType);

/// The ONNX `TensorProto.DataType` code of an element type, if it has one.
std::optional<int64_t> getONNXDType(mlir::Type elementType);

/// The integer values of `value` when it is a small onnx.Constant of integers.
std::optional<llvm::SmallVector<int64_t>>
getConstantIntValues(mlir::Value value);

/// The values of `value`, as doubles, when it is a small onnx.Constant of
/// floats.
std::optional<llvm::SmallVector<double>>
getConstantFloatValues(mlir::Value value);

/// The value of `value` when it is an onnx.Constant with dense (not resource)
/// numeric contents (not strings).
mlir::DenseElementsAttr getDenseConstant(mlir::Value value);

/// `attr` with the shape of `type` (same element count): what
/// DenseElementsAttr::reshape does, also for strings, which it does not
/// handle.
mlir::DenseElementsAttr reshapeDense(mlir::DenseElementsAttr attr,
                                     mlir::ShapedType type);

/// True for the float types narrower than 16 bits (float8, float4, e8m0):
/// types held as their bit pattern, with no arithmetic (docs/lowering.md).
bool isLowPrecisionFloat(mlir::Type elementType);

/// The name of the ONNX node that `loc` comes from: the first NameLoc in
/// it (the importer gives each op its node's; expansions and fusions wrap
/// it), or "" if none. Owned by the context.
llvm::StringRef getNodeName(mlir::Location loc);

/// True if `value` is the `none` of onnx.NoValue.
inline bool isNoValue(mlir::Value value) {
  return llvm::isa<mlir::NoneType>(value.getType());
}

} // namespace onnxc::onnx

#include "dialects/ONNX/IR/ONNXDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/ONNX/IR/ONNXTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/ONNX/IR/ONNXOps.h.inc"

#endif // ONNXC_DIALECTS_ONNX_IR_ONNXOPS_H
