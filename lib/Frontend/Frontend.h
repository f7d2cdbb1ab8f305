//===- Frontend.h - ONNX model import and export ----------------*- C++ -*-===//
//
// The public API of lib/Frontend: an ONNX ModelProto (binary .onnx, or the
// protobuf text format in .onnxtxt/.textproto/.pbtxt) to an onnx-dialect
// module and back. Errors go through MLIR diagnostics and name the file, the
// node (name and op type) and what is wrong.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_FRONTEND_FRONTEND_H
#define ONNXC_LIB_FRONTEND_FRONTEND_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace onnxc {

/// The name of the function that holds an imported graph.
inline constexpr llvm::StringLiteral kMainGraphName = "main_graph";

struct ImportOptions {
  /// Pinned shapes of graph inputs (`--input-shape NAME=2x3`), by input name.
  llvm::StringMap<llvm::SmallVector<int64_t>> inputShapes;
  /// Told each node's name as its import starts (the driver's report of an
  /// internal error names the node).
  std::function<void(llvm::StringRef node)> onNode;
  /// Ops that only a CPU kernel computes are imported as the fused op that
  /// the CPU lowering turns into the kernel's call: f32 tree ensembles
  /// (ai.onnx.ml) as fused.tree_ensemble. When false, they import as their
  /// expansion in onnx ops (a tree ensemble as the traversal: Gather,
  /// compare, Where per level), which ONNX output and the GPU target need.
  bool cpuKernelOps = true;
};

/// How many nodes of each op type a graph has, by op type (`DOMAIN.OpType`
/// outside the default domain), in sorted order.
using OpCounts = std::map<std::string, int64_t>;

/// Imports the model at `path`. The module has one func.func @main_graph
/// whose arguments carry `onnx.name` (and `onnx.dim_params`) and whose
/// results carry `onnx.name`; module attributes keep the opset imports, the
/// IR version, the producer and the graph name. When the protobuf parses,
/// `opCounts` (if given) receives the node counts of its graph, even if the
/// import then fails.
mlir::OwningOpRef<mlir::ModuleOp> importONNXModel(llvm::StringRef path,
                                                  mlir::MLIRContext *context,
                                                  const ImportOptions &options,
                                                  OpCounts *opCounts = nullptr);

/// importONNXModel on `bytes`, the contents of a model file named `path`
/// (for messages, the text format's extensions and external data).
mlir::OwningOpRef<mlir::ModuleOp> importONNXModelFromBuffer(
    llvm::StringRef bytes, llvm::StringRef path, mlir::MLIRContext *context,
    const ImportOptions &options, OpCounts *opCounts = nullptr);

/// The external data files that the model at `path` refers to, resolved
/// against its directory, sorted and unique; locations that the import
/// refuses (outside the model's directory, symbolic links included) are left
/// out. Fails with `error` when the model does not parse.
mlir::LogicalResult listExternalDataFiles(llvm::StringRef path,
                                          std::vector<std::string> &files,
                                          std::string &error);

/// An operator that the importer knows: its domain ("ai.onnx" for the
/// default one), its type, and the opsets at which its imported forms begin,
/// ascending (each form serves up to the next, the last up to the newest
/// opset of the domain that the importer accepts).
struct OperatorSupport {
  std::string domain, opType;
  std::vector<int64_t> sinceOpsets;
};

/// Every operator the importer knows, sorted by domain and type.
std::vector<OperatorSupport> listSupportedOperators();

/// The newest opset of the default domain that the importer accepts.
int64_t newestSupportedOpset();

/// Writes `module` as an ONNX model to `path` (via a temporary file that is
/// renamed into place). Ops are written in the form of the module's opset.
mlir::LogicalResult exportONNXModel(mlir::ModuleOp module,
                                    llvm::StringRef path);

} // namespace onnxc

#endif // ONNXC_LIB_FRONTEND_FRONTEND_H
