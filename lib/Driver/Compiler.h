//===- Compiler.h - The C++ API behind onnx-compile and onnx-opt ----------===//
//
// One place that strings the stages together: import, onnx optimization,
// lowering to LLVM, machine code, and linking with the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_DRIVER_COMPILER_H
#define ONNXC_LIB_DRIVER_COMPILER_H

#include "lib/Driver/GraphStats.h"
#include "lib/Driver/Quantize.h"
#include "lib/Frontend/Frontend.h"
#include "lib/Target/Target.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace onnxc {

enum class EmitKind { Exe, Lib, Obj, MLIR, LLVM, Asm };

struct CompileOptions {
  std::string input;
  std::string output;
  EmitKind emit = EmitKind::Exe;
  TargetOptions target;
  ImportOptions import;
  /// Prefix of the library's symbols (NAME_model); derived from the output
  /// file name when empty.
  std::string libraryName;
  /// Time each node's work when the runtime's profiler is on (CPU targets;
  /// onnx-compile --profile).
  bool profile = false;
  /// Where the runtime archives live (DIR/<arch>/libonnxc_runtime.a and
  /// libonnxc_kernels.a); found next to the tool when empty.
  std::string runtimeDir;
};

/// What one compile did: how long each stage took, what the imported graph
/// holds and which files it wrote.
struct CompileStats {
  /// Milliseconds per stage that ran, in order: import, optimize, lower,
  /// codegen, link (onnx-opt: import, optimize, quantize, export). A failed
  /// compile lists the stages up to and including the one that failed.
  llvm::SmallVector<std::pair<std::string, double>> stageMs;
  /// Node counts of the model's graph by op type.
  OpCounts opCounts;
  /// The files written, in order.
  std::vector<std::string> outputs;
  /// The graph as imported and as optimized (onnx-opt's --print-stats).
  GraphStats imported, optimized;
};

/// Loads every dialect onnxc uses into `context`, and turns off printing the
/// op with each diagnostic; installs no diagnostic handler.
void prepareContext(mlir::MLIRContext &context);

/// `diag` as the one line the tools print, `error: FILE: node 'NAME':
/// MESSAGE` (or `warning: ...`); nothing for notes and remarks.
std::optional<std::string> formatDiagnostic(mlir::Diagnostic &diag);

/// prepareContext, and a handler that prints each error and warning to
/// stderr as one formatDiagnostic line.
void configureContext(mlir::MLIRContext &context);

/// Collects the formatDiagnostic lines of a context instead of printing
/// them, for as long as it lives (batch mode: one per worker context).
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &context);
  /// The lines so far, in order.
  const std::vector<std::string> &lines() const { return collected; }
  /// The first error line, or "".
  std::string firstError() const;

private:
  std::vector<std::string> collected;
  mlir::ScopedDiagnosticHandler handler;
};

/// Compiles `options.input` to `options.output`. Diagnostics are reported
/// through `context`; nothing is left at the output path on failure. Fills
/// `stats` when given.
mlir::LogicalResult compileModel(const CompileOptions &options,
                                 mlir::MLIRContext &context,
                                 CompileStats *stats = nullptr);

/// Imports a model, runs the onnx optimizer at `optLevel` (0-3), and writes
/// an ONNX model or MLIR text (chosen by the output's extension). At -O2 and
/// up, MLIR output keeps activations fused into Conv and Gemm (the fused
/// dialect); ONNX output does so, in ONNX Runtime's com.microsoft forms,
/// only with `fuseActivations`. Fills `stats` when given. With a
/// `quantize` mode the optimized model is then quantized (quantizeModel;
/// activations are never fused then).
mlir::LogicalResult optimizeModel(llvm::StringRef input, llvm::StringRef output,
                                  const ImportOptions &importOptions,
                                  unsigned optLevel, bool fuseActivations,
                                  mlir::MLIRContext &context,
                                  CompileStats *stats = nullptr,
                                  const QuantizeOptions &quantize = {});

/// The directory of the runtime archives (DIR/<arch>/libonnxc_runtime.a,
/// DIR/include/onnxc_runtime.h): `options.runtimeDir`, else
/// $ONNXC_RUNTIME_DIR, else lib/onnxc beside the tool's bin directory.
std::string runtimeDirectory(const CompileOptions &options);

/// Parses `NAME=D0xD1x...` into `options.inputShapes`; fails with `error`.
mlir::LogicalResult parseInputShape(llvm::StringRef spec,
                                    ImportOptions &options, std::string &error);

/// A private directory for intermediate files, removed with its contents.
class ScratchDirectory {
public:
  std::error_code create();
  ~ScratchDirectory();
  /// `NAME` inside the directory.
  std::string file(llvm::StringRef name) const;

private:
  llvm::SmallString<256> path;
};

/// Writes `contents` to `path` through a temporary file renamed into place.
mlir::LogicalResult writeFileAtomically(llvm::StringRef path,
                                        llvm::StringRef contents,
                                        std::string &error);

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_COMPILER_H
