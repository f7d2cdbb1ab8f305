//===- InitAll.h - The one registration point of the onnxc tools ----------===//

#ifndef ONNXC_LIB_DRIVER_INITALL_H
#define ONNXC_LIB_DRIVER_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace onnxc {

/// The dialects (and their external interface models) that onnxc's passes
/// and pipelines create, from onnx down to the LLVM dialect.
void registerONNXCDialects(mlir::DialectRegistry &registry);

/// onnxc's passes and pipelines, plus the upstream passes the pipelines use,
/// for onnx-opt's command line.
void registerONNXCPasses();

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_INITALL_H
