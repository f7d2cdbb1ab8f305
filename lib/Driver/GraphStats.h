//===- GraphStats.h - Op counts, parameters and FLOPs of a graph ----------===//

#ifndef ONNXC_LIB_DRIVER_GRAPHSTATS_H
#define ONNXC_LIB_DRIVER_GRAPHSTATS_H

#include "lib/Frontend/Frontend.h"

#include "mlir/IR/BuiltinOps.h"

namespace onnxc {

/// What an onnx-dialect graph holds: nodes by op type (constants are
/// initializers, not nodes), the elements of its constants, and the
/// floating-point operations of one run.
struct GraphStats {
  OpCounts ops;
  int64_t nodes = 0;
  int64_t parameters = 0;
  /// Convolutions and matrix products count two per multiply-add, other
  /// computing ops one per result element; data movement counts nothing.
  int64_t flops = 0;
  /// Ops whose FLOPs are unknown because a shape is dynamic.
  int64_t opsWithUnknownFlops = 0;
};

/// The statistics of `module`'s main graph.
GraphStats computeGraphStats(mlir::ModuleOp module);

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_GRAPHSTATS_H
