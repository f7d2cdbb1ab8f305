//===- onnx-opt.cpp - The onnxc optimizer driver --------------------------===//
//
// Two modes:
//   onnx-opt MODEL.onnx -o OUT.onnx|OUT.mlir [-O0..-O3] [--input-shape N=D0xD1]
//            [--print-stats] [--fuse-activations]
//            [--quantize int8|dynamic [--calibration DIR] ...]
//     imports an ONNX model, runs the onnx optimizer at the level and writes an
//     ONNX model (or MLIR text); with several models, a --manifest or -o
//     naming a directory it optimizes each into that directory (batch mode,
//     the options of onnx-compile's);
//   onnx-opt FILE.mlir [mlir-opt flags]: MlirOptMain with onnxc's dialects and
//     passes, for the lit tests;
//   onnx-opt --list-operators: the operators the importer knows and the
//     opsets of their forms (test/conformance/operator_table.py);
//   onnx-opt --version: onnxc's version, commit and LLVM, as onnx-compile's.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Compiler.h"
#include "lib/Driver/CrashGuard.h"
#include "lib/Driver/InitAll.h"
#include "lib/Driver/Version.h"
#include "lib/Frontend/Frontend.h"
#include "tools/common/BatchCLI.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <map>

static bool isModelPath(llvm::StringRef arg) {
  return arg.ends_with(".onnx") || arg.ends_with(".onnxtxt") ||
         arg.ends_with(".textproto") || arg.ends_with(".pbtxt");
}

/// "1234567" as "1.23 M" and the like.
static std::string humanCount(int64_t n) {
  if (n >= 1000000000)
    return fmt::format("{:.2f} G", n / 1e9);
  if (n >= 1000000)
    return fmt::format("{:.2f} M", n / 1e6);
  if (n >= 1000)
    return fmt::format("{:.2f} K", n / 1e3);
  return std::to_string(n);
}

/// The op-count table before and after, then nodes, parameters and FLOPs.
static void printGraphStats(const onnxc::GraphStats &before,
                            const onnxc::GraphStats &after) {
  std::map<std::string, std::pair<int64_t, int64_t>> rows;
  for (const auto &[op, n] : before.ops)
    rows[op].first = n;
  for (const auto &[op, n] : after.ops)
    rows[op].second = n;
  size_t width = 10;
  for (const auto &row : rows)
    width = std::max(width, row.first.size());
  fmt::print("{:<{}} {:>8} {:>8}\n", "op", width, "before", "after");
  for (const auto &[op, counts] : rows)
    fmt::print("{:<{}} {:>8} {:>8}\n", op, width, counts.first, counts.second);
  fmt::print("{:<{}} {:>8} {:>8}\n", "nodes", width, before.nodes, after.nodes);
  fmt::print("parameters: {} -> {} ({} -> {})\n", before.parameters,
             after.parameters, humanCount(before.parameters),
             humanCount(after.parameters));
  auto flops = [](const onnxc::GraphStats &s) {
    std::string text = humanCount(s.flops);
    if (s.opsWithUnknownFlops)
      text += fmt::format(" + {} ops of dynamic shape", s.opsWithUnknownFlops);
    return text;
  };
  fmt::print("FLOPs: {} -> {}\n", flops(before), flops(after));
}

static int optimizeOnnx(int argc, char **argv) {
  CLI::App app{"onnx-opt: optimize ONNX models"};
  app.footer(onnxc::kBatchHelpFooter);
  app.set_version_flag("--version", onnxc::getVersionString().str());
  onnxc::BatchFlags batch;
  std::string emit = "onnx";
  unsigned optLevel = 2;
  std::vector<std::string> inputShapes;
  bool printStats = false, fuseActivations = false;
  app.add_option("model", batch.models, "The ONNX models; several make a batch")
      ->check(CLI::ExistingFile);
  app.add_option("-o,--output", batch.output,
                 "The output: .onnx or .mlir; in batch mode the output "
                 "directory");
  app.add_option("--emit", emit,
                 "Batch mode: write STEM.onnx (default) or STEM.mlir")
      ->check(CLI::IsMember({"onnx", "mlir"}));
  app.add_option("-O", optLevel, "Optimization level 0-3 (default 2)")
      ->check(CLI::Range(0, 3));
  app.add_option("--input-shape", inputShapes,
                 "Pin an input's dims: NAME=D0xD1x... (repeatable; in batch "
                 "mode for every model)");
  app.add_flag("--print-stats", printStats,
               "Print op counts before and after, parameters and FLOPs");
  app.add_flag("--fuse-activations", fuseActivations,
               "ONNX output: fuse activations into Conv and Gemm as ONNX "
               "Runtime's com.microsoft FusedConv and FusedGemm (MLIR output "
               "always fuses them at -O2 and up)");
  std::string quantize, calibrate = "minmax", activationType = "uint8",
                        perChannel = "auto";
  onnxc::QuantizeOptions quant;
  app.add_option("--quantize", quantize,
                 "Post-training quantization: int8 (static, QDQ format; "
                 "needs --calibration) or dynamic (MatMul/Gemm weights int8, "
                 "activations quantized at run time)")
      ->check(CLI::IsMember({"int8", "dynamic"}));
  app.add_option("--calibration", quant.calibrationDir,
                 "--quantize int8: the calibration inputs, DIR/SET/input_K.pb "
                 "(or .npy, or NAME.pb/.npy) per numbered set directory, or "
                 "DIR/NAME.npy per input stacking the samples on dim 0")
      ->check(CLI::ExistingDirectory);
  app.add_option("--calibrate", calibrate,
                 "Calibration method: minmax (default) or percentile")
      ->check(CLI::IsMember({"minmax", "percentile"}));
  app.add_option("--percentile", quant.percentile,
                 "Percentile calibration: the percent of values kept "
                 "(default 99.999)")
      ->check(CLI::Range(50.0, 100.0));
  app.add_option("--calibration-samples", quant.maxSamples,
                 "Use at most this many calibration samples (default all)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--activation-type", activationType,
                 "--quantize int8: uint8 (default, asymmetric) or int8 "
                 "activations")
      ->check(CLI::IsMember({"uint8", "int8"}));
  app.add_option("--per-channel", perChannel,
                 "Weight scales per output channel: on or off (default: on "
                 "for int8, off for dynamic)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  onnxc::addBatchOptions(app, batch);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  onnxc::CompileOptions options;
  options.emit = emit == "mlir" ? onnxc::EmitKind::MLIR : onnxc::EmitKind::Exe;
  options.target.optLevel = optLevel;
  if (mlir::failed(onnxc::parseInputShapes(inputShapes, options.import)))
    return 2;
  if (!quantize.empty()) {
    bool isStatic = quantize == "int8";
    quant.mode =
        isStatic ? onnxc::QuantizeMode::Static : onnxc::QuantizeMode::Dynamic;
    quant.method = calibrate == "percentile"
                       ? onnxc::CalibrationMethod::Percentile
                       : onnxc::CalibrationMethod::MinMax;
    quant.int8Activations = activationType == "int8";
    quant.perChannel = perChannel == "auto" ? isStatic : perChannel == "on";
    if (isStatic && quant.calibrationDir.empty()) {
      fmt::print(stderr, "error: --quantize int8 needs --calibration DIR\n");
      return 2;
    }
    if (onnxc::isBatchMode(batch)) {
      fmt::print(stderr, "error: --quantize quantizes one model at a time\n");
      return 2;
    }
  }
  if (onnxc::isBatchMode(batch))
    return onnxc::runBatchMode(onnxc::BatchTool::Optimize, batch, options);
  if (!onnxc::hasModelAndOutput(batch))
    return 2;
  const std::string &input = batch.models.front(), &output = batch.output;
  bool same = false;
  if (!llvm::sys::fs::equivalent(input, output, same) && same) {
    fmt::print(stderr, "error: {}: refusing to overwrite the input model\n",
               input);
    return 2;
  }
  onnxc::CompileStats stats;
  int rc = onnxc::runToolCompile(input, [&](mlir::MLIRContext &context) {
    return onnxc::optimizeModel(input, output, options.import, optLevel,
                                fuseActivations, context, &stats, quant);
  });
  if (rc != 0)
    return rc;
  if (printStats)
    printGraphStats(stats.imported, stats.optimized);
  return 0;
}

/// `onnx-opt --list-operators`: each operator the importer knows, one a
/// line, as `DOMAIN OP SINCE...` (the opsets where its imported forms begin),
/// after a first line `ai.onnx opsets 1 to N`.
static int listOperators() {
  fmt::print("ai.onnx opsets 1 to {}\n", onnxc::newestSupportedOpset());
  for (const onnxc::OperatorSupport &op : onnxc::listSupportedOperators())
    fmt::print("{} {} {}\n", op.domain, op.opType,
               fmt::join(op.sinceOpsets, " "));
  return 0;
}

int main(int argc, char **argv) {
  // A crash prints its stack (an internal error's report to send us).
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  if (argc == 2 && llvm::StringRef(argv[1]) == "--list-operators")
    return listOperators();
  // onnxc's version in either mode (MlirOptMain would print LLVM's alone).
  if (argc == 2 && llvm::StringRef(argv[1]) == "--version") {
    fmt::print("{}\n", onnxc::getVersionString());
    return 0;
  }
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (isModelPath(arg) || arg == "--manifest" ||
        arg.starts_with("--manifest="))
      return optimizeOnnx(argc, argv);
  }
  mlir::DialectRegistry registry;
  onnxc::registerONNXCDialects(registry);
  onnxc::registerONNXCPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv,
                        "onnxc optimizer driver (ONNX models: onnx-opt "
                        "MODEL.onnx --help)\n",
                        registry));
}
