//===- FusedOps.h - The fused dialect and its ops ---------------*- C++ -*-===//

#ifndef ONNXC_DIALECTS_FUSED_IR_FUSEDOPS_H
#define ONNXC_DIALECTS_FUSED_IR_FUSEDOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace onnxc::fused {

/// The number of `activation_params` that `activation` takes, or nullopt if
/// the dialect does not know the activation.
std::optional<unsigned> getActivationParamCount(llvm::StringRef activation);

/// Attaches the bufferization of qmatmul and qconv (FusedQuantOps.cpp).
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);

} // namespace onnxc::fused

#include "dialects/Fused/IR/FusedDialect.h.inc"

#define GET_OP_CLASSES
#include "dialects/Fused/IR/FusedOps.h.inc"

#endif // ONNXC_DIALECTS_FUSED_IR_FUSEDOPS_H
