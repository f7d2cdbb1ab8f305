//===- onnx-compile.cpp - Compile ONNX models to native code --------------===//
//
//   onnx-compile MODEL.onnx -o OUT [--target x86_64|aarch64|nvptx]
//                [--emit exe|lib|obj|mlir|llvm|asm] [-O0..-O3] [--cpu
//                native|NAME]
//                [--gpu sm_80|sm_90|...] [--gpu-precision fp32|tf32|fp16|bf16]
//                [--input-shape NAME=D0xD1x...]... [--profile] [--name SYMBOL]
//   onnx-compile --print-runtime-dir [--runtime-dir DIR]
//   onnx-compile MODELS... -o OUTDIR/ [-j N] [--manifest FILE] [--report FILE]
//                [--junit FILE] [--shard I/N] [--cache-dir DIR | --no-cache]
//                [--keep-going | --fail-fast] [--quiet | --verbose]
//
// Exit codes: 0 success (batch: every model), 1 a model could not be
// compiled, 2 usage error, 3 an internal error (a bug of onnxc's; batch: in
// some model, the others compiled as usual).
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Compiler.h"
#include "lib/Driver/CrashGuard.h"
#include "lib/Driver/Version.h"
#include "tools/common/BatchCLI.h"

#include "llvm/Support/Signals.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

int main(int argc, char **argv) {
  // A crash prints its stack (an internal error's report to send us).
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  CLI::App app{"onnx-compile: compile ONNX models to native executables, "
               "libraries, objects, MLIR, LLVM IR or assembly"};
  app.footer(onnxc::kBatchHelpFooter);
  app.set_version_flag("--version", onnxc::getVersionString().str());
  onnxc::BatchFlags batch;
  std::string target = "x86_64", emit = "exe", cpu = "native";
  std::string name, runtimeDir, gpu = "sm_80", gpuPrecision = "fp32";
  unsigned optLevel = 2;
  std::vector<std::string> inputShapes;
  app.add_option("model", batch.models,
                 "The ONNX models (.onnx, or .onnxtxt text); several make a "
                 "batch")
      ->check(CLI::ExistingFile);
  app.add_option("-o,--output", batch.output,
                 "The output file; in batch mode the output directory");
  app.add_option("--target", target, "Target: x86_64, aarch64 or nvptx")
      ->check(CLI::IsMember({"x86_64", "aarch64", "nvptx"}));
  app.add_option(
         "--emit", emit,
         "What to write: exe (default), lib (OUT.so, OUT.a, OUT.h), "
         "obj, mlir (optimized onnx dialect), llvm (IR), asm (nvptx: the "
         "kernels' PTX)")
      ->check(CLI::IsMember({"exe", "lib", "obj", "mlir", "llvm", "asm"}));
  app.add_option("-O", optLevel, "Optimization level 0-3 (default 2)")
      ->check(CLI::Range(0, 3));
  app.add_option("--cpu", cpu,
                 "CPU to tune for: native (default) or an LLVM "
                 "CPU name such as skylake-avx512 or neoverse-n1");
  app.add_option("--gpu", gpu,
                 "GPU architecture of --target nvptx: sm_80 (default), sm_90, "
                 "sm_75, sm_86 or sm_89")
      ->check(CLI::IsMember({"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}));
  app.add_option("--gpu-precision", gpuPrecision,
                 "What --target nvptx multiplies matmuls and convolutions in: "
                 "fp32 (default, FMA), or tf32, fp16, bf16 on tensor cores "
                 "(sm_80 and newer; f32 accumulation)")
      ->check(CLI::IsMember({"fp32", "tf32", "fp16", "bf16"}));
  app.add_option("--input-shape", inputShapes,
                 "Pin an input's dims: NAME=D0xD1x... (repeatable; in batch "
                 "mode for every model)");
  bool profile = false;
  app.add_flag("--profile", profile,
               "Time each node's work when run with --profile PATH (the "
               "executable) or ONNXC_PROFILE=PATH (a library): Chrome trace "
               "JSON and a table of the nodes by time (CPU targets)");
  app.add_option("--name", name, "Symbol prefix of a library (NAME_model)");
  app.add_option(
      "--runtime-dir", runtimeDir,
      "Directory of the runtime archives (default: next to the tool)");
  bool printRuntimeDir = false;
  app.add_flag("--print-runtime-dir", printRuntimeDir,
               "Print the directory of the runtime archives and header that "
               "executables and libraries link with, and exit");
  onnxc::addBatchOptions(app, batch);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  std::string input = batch.models.empty() ? "" : batch.models.front();
  onnxc::CompileOptions options;
  options.libraryName = name;
  options.runtimeDir = runtimeDir;
  if (printRuntimeDir) {
    fmt::print("{}\n", onnxc::runtimeDirectory(options));
    return 0;
  }
  options.target.cpu = cpu;
  options.target.optLevel = optLevel;
  options.profile = profile;
  // nvptx: kernels for the GPU, host code for this machine.
  options.target.arch = target == "aarch64" ? onnxc::Arch::AArch64
                        : target == "nvptx" ? onnxc::hostArch()
                                            : onnxc::Arch::X86_64;
  if (target == "nvptx") {
    options.target.gpu = gpu;
    options.target.gpuPrecision = gpuPrecision;
  }
  options.emit = llvm::StringSwitch<onnxc::EmitKind>(emit)
                     .Case("lib", onnxc::EmitKind::Lib)
                     .Case("obj", onnxc::EmitKind::Obj)
                     .Case("mlir", onnxc::EmitKind::MLIR)
                     .Case("llvm", onnxc::EmitKind::LLVM)
                     .Case("asm", onnxc::EmitKind::Asm)
                     .Default(onnxc::EmitKind::Exe);
  if (mlir::failed(onnxc::parseInputShapes(inputShapes, options.import)))
    return 2;
  if (onnxc::isBatchMode(batch))
    return onnxc::runBatchMode(onnxc::BatchTool::Compile, batch, options);
  if (!onnxc::hasModelAndOutput(batch))
    return 2;
  options.input = input;
  options.output = batch.output;
  return onnxc::runToolCompile(input, [&](mlir::MLIRContext &context) {
    return onnxc::compileModel(options, context);
  });
}
