//===- onnx-opt.cpp - The onnxc optimizer driver --------------------------===//
//
// Two modes:
//   onnx-opt MODEL.onnx -o OUT.onnx|OUT.mlir [-O0..-O3] [--input-shape N=D0xD1]
//     imports an ONNX model, runs the default onnx pipeline and writes an
//     ONNX model (or MLIR text);
//   onnx-opt FILE.mlir [mlir-opt flags]: MlirOptMain with onnxc's dialects and
//     passes, for the lit tests.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Compiler.h"
#include "lib/Driver/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/FileSystem.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

static bool isModelPath(llvm::StringRef arg) {
  return arg.ends_with(".onnx") || arg.ends_with(".onnxtxt") ||
         arg.ends_with(".textproto") || arg.ends_with(".pbtxt");
}

static int optimizeOnnx(int argc, char **argv) {
  CLI::App app{"onnx-opt: optimize an ONNX model"};
  std::string input, output;
  unsigned optLevel = 2;
  std::vector<std::string> inputShapes;
  app.add_option("model", input, "The ONNX model")->required()->check(CLI::ExistingFile);
  app.add_option("-o,--output", output, "The output: .onnx or .mlir")->required();
  app.add_option("-O", optLevel, "Optimization level 0-3 (default 2)")
      ->check(CLI::Range(0, 3));
  app.add_option("--input-shape", inputShapes,
                 "Pin an input's dims: NAME=D0xD1x... (repeatable)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  onnxc::ImportOptions options;
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (mlir::failed(onnxc::parseInputShape(spec, options, error))) {
      fmt::print(stderr, "error: {}\n", error);
      return 2;
    }
  }
  bool same = false;
  if (!llvm::sys::fs::equivalent(input, output, same) && same) {
    fmt::print(stderr, "error: {}: refusing to overwrite the input model\n", input);
    return 2;
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  onnxc::configureContext(context);
  return mlir::succeeded(onnxc::optimizeModel(input, output, options, context)) ? 0
                                                                                : 1;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (isModelPath(argv[i]))
      return optimizeOnnx(argc, argv);
  mlir::DialectRegistry registry;
  onnxc::registerONNXCDialects(registry);
  onnxc::registerONNXCPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "onnxc optimizer driver\n", registry));
}
