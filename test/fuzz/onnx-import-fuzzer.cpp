//===- onnx-import-fuzzer.cpp - libFuzzer target: the ONNX importer -------===//
//
// Feeds arbitrary bytes to the importer as a binary ModelProto, verifies
// what it builds, and runs the onnx optimization pipeline (shape inference
// and folds) on it. Diagnostics are expected and dropped; a crash, a hang,
// a leak or a sanitizer report is a bug. Built with -DONNXC_ENABLE_FUZZER=ON;
// docs/user-guide.md says how to run it.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/InitAll.h"
#include "lib/Frontend/Frontend.h"
#include "passes/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>

/// A model path in a directory that does not exist: external data that
/// names a relative location cannot be found, and the importer refuses the
/// rest (absolute and escaping locations).
static constexpr llvm::StringLiteral kModelPath =
    "/nonexistent-onnxc-fuzz/model.onnx";

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::DialectRegistry registry;
  onnxc::registerONNXCDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  mlir::ScopedDiagnosticHandler drop(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      onnxc::importONNXModelFromBuffer(bytes, kModelPath, &context, {});
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::PassManager pm(&context);
  onnxc::buildONNXOptimizePipeline(pm);
  (void)pm.run(*module);
  return 0;
}
