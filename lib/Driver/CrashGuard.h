//===- CrashGuard.h - Internal errors contained, reported, not fatal ------===//
//
// A bug in onnxc (a crash signal, an LLVM fatal error, a failed assertion, a
// stray C++ exception) while it compiles one model must not take down the
// tool without a word, nor a whole batch. runContained runs one compile under
// LLVM's CrashRecoveryContext: an internal error ends that compile, whose
// state is then leaked rather than destroyed, and comes back as one line
//
//   internal error while compiling MODEL at stage S (pass P, node 'N'): WHAT;
//   please report
//
// which the single-model tools print before exiting with
// kInternalErrorExitCode, and which batch mode records for that model before
// it goes on with the rest.
//
// The stage comes from the driver (noteCompileStage), the node from the
// importer (noteImportNode), and the pass and the op being rewritten from
// MLIR's action framework (trackCompileSite on the model's context). All of
// it is per thread: every batch worker compiles its own model.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_DRIVER_CRASHGUARD_H
#define ONNXC_LIB_DRIVER_CRASHGUARD_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace onnxc {

/// The exit code of a tool whose compile hit an internal error.
constexpr int kInternalErrorExitCode = 3;

/// Runs `compile`, a compile of `model`, with internal errors contained.
/// Returns the report line when one ended it, std::nullopt when `compile`
/// returned. After a report, whatever `compile` was using (its MLIRContext
/// above all) may be in any state: leak it.
///
/// For the tests of this path, $ONNXC_FORCE_INTERNAL_ERROR=KIND:WHERE[:FILE]
/// raises an internal error of KIND (segv, abort, fatal, exception or
/// overflow) where WHERE is reached: a stage as it starts, a pass (its
/// argument, as in convert-onnx-to-linalg) at the first op it rewrites, or
/// `import-node` at the first node imported; for models of file name FILE
/// only when given.
std::optional<std::string> runContained(llvm::StringRef model,
                                        llvm::function_ref<void()> compile);

/// A single-model tool's compile: `compile` on a context of its own made by
/// configureContext (diagnostics printed) and tracked by trackCompileSite,
/// with internal errors contained and printed as an `error: ` line. Returns
/// the tool's exit code: 0, 1 when `compile` failed, or
/// kInternalErrorExitCode.
int runToolCompile(
    llvm::StringRef model,
    llvm::function_ref<mlir::LogicalResult(mlir::MLIRContext &)> compile);

/// Notes that the compile on this thread enters `stage` (import, optimize,
/// lower, codegen, link, quantize, export); forgets the pass and node.
void noteCompileStage(llvm::StringRef stage);

/// Notes the ONNX node the importer is at on this thread.
void noteImportNode(llvm::StringRef node);

/// Makes `context` note, on the thread that runs them, the passes it runs
/// and the node (the NameLoc) of each op that a pattern rewrites.
void trackCompileSite(mlir::MLIRContext &context);

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_CRASHGUARD_H
