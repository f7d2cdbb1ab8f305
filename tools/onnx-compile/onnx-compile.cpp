//===- onnx-compile.cpp - Compile an ONNX model to native code ------------===//
//
//   onnx-compile MODEL.onnx -o OUT [--target x86_64|aarch64|nvptx]
//                [--emit exe|lib|obj|mlir|llvm|asm] [-O0..-O3] [--cpu native|NAME]
//                [--input-shape NAME=D0xD1x...]... [--name SYMBOL]
//
// Exit codes: 0 success, 1 the model could not be compiled, 2 usage error.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Compiler.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

int main(int argc, char **argv) {
  CLI::App app{"onnx-compile: compile an ONNX model to a native executable, "
               "library, object, MLIR, LLVM IR or assembly"};
  std::string input, output, target = "x86_64", emit = "exe", cpu = "native";
  std::string name, runtimeDir;
  unsigned optLevel = 2;
  std::vector<std::string> inputShapes;
  app.add_option("model", input, "The ONNX model (.onnx, or .onnxtxt text)")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("-o,--output", output, "The output file")->required();
  app.add_option("--target", target, "Target: x86_64, aarch64 or nvptx")
      ->check(CLI::IsMember({"x86_64", "aarch64", "nvptx"}));
  app.add_option("--emit", emit,
                 "What to write: exe (default), lib (OUT.so, OUT.a, OUT.h), "
                 "obj, mlir (optimized onnx dialect), llvm (IR), asm")
      ->check(CLI::IsMember({"exe", "lib", "obj", "mlir", "llvm", "asm"}));
  app.add_option("-O", optLevel, "Optimization level 0-3 (default 2)")
      ->check(CLI::Range(0, 3));
  app.add_option("--cpu", cpu, "CPU to tune for: native (default) or an LLVM "
                               "CPU name such as skylake-avx512 or neoverse-n1");
  app.add_option("--input-shape", inputShapes,
                 "Pin an input's dims: NAME=D0xD1x... (repeatable)");
  app.add_option("--name", name, "Symbol prefix of a library (NAME_model)");
  app.add_option("--runtime-dir", runtimeDir,
                 "Directory of the runtime archives (default: next to the tool)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  onnxc::CompileOptions options;
  options.input = input;
  options.output = output;
  options.libraryName = name;
  options.runtimeDir = runtimeDir;
  options.target.cpu = cpu;
  options.target.optLevel = optLevel;
  if (target == "nvptx") {
    fmt::print(stderr, "error: {}: --target nvptx is not supported yet\n", input);
    return 2;
  }
  options.target.arch =
      target == "aarch64" ? onnxc::Arch::AArch64 : onnxc::Arch::X86_64;
  options.emit = llvm::StringSwitch<onnxc::EmitKind>(emit)
                     .Case("lib", onnxc::EmitKind::Lib)
                     .Case("obj", onnxc::EmitKind::Obj)
                     .Case("mlir", onnxc::EmitKind::MLIR)
                     .Case("llvm", onnxc::EmitKind::LLVM)
                     .Case("asm", onnxc::EmitKind::Asm)
                     .Default(onnxc::EmitKind::Exe);
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (mlir::failed(onnxc::parseInputShape(spec, options.import, error))) {
      fmt::print(stderr, "error: {}\n", error);
      return 2;
    }
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  onnxc::configureContext(context);
  return mlir::succeeded(onnxc::compileModel(options, context)) ? 0 : 1;
}
