//===- Compiler.h - The C++ API behind onnx-compile and onnx-opt -*- C++ -*-===//
//
// One place that strings the stages together: import, onnx optimization,
// lowering to LLVM, machine code, and linking with the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_DRIVER_COMPILER_H
#define ONNXC_LIB_DRIVER_COMPILER_H

#include "lib/Frontend/Frontend.h"
#include "lib/Target/Target.h"

#include "mlir/IR/MLIRContext.h"

#include <string>

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
  /// Where the runtime archives live (DIR/<arch>/libonnxc_runtime.a); found
  /// next to the tool when empty.
  std::string runtimeDir;
};

/// A context with every dialect onnxc uses, and diagnostics printed as one
/// line each: `error: FILE: node 'NAME': MESSAGE`.
void configureContext(mlir::MLIRContext &context);

/// Compiles `options.input` to `options.output`. Diagnostics are reported
/// through `context`; nothing is left at the output path on failure.
mlir::LogicalResult compileModel(const CompileOptions &options,
                                 mlir::MLIRContext &context);

/// Imports a model, runs the onnx optimization pipeline, and writes an ONNX
/// model or MLIR text (chosen by the output's extension).
mlir::LogicalResult optimizeModel(llvm::StringRef input, llvm::StringRef output,
                                  const ImportOptions &importOptions,
                                  mlir::MLIRContext &context);

/// Parses `NAME=D0xD1x...` into `options.inputShapes`; fails with `error`.
mlir::LogicalResult parseInputShape(llvm::StringRef spec, ImportOptions &options,
                                    std::string &error);

/// Writes `contents` to `path` through a temporary file renamed into place.
mlir::LogicalResult writeFileAtomically(llvm::StringRef path,
                                        llvm::StringRef contents,
                                        std::string &error);

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_COMPILER_H
