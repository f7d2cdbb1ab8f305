//===- BatchCLI.h - Batch mode flags and progress for the tools -----------===//
//
// What onnx-compile and onnx-opt share on their command lines: batch mode's
// flags, deciding whether a command line is a batch, expanding it into jobs,
// the progress bar or status lines, the reports and the exit code; and the
// checks of a single-model command line. The work itself is
// lib/Driver/Batch.h.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_TOOLS_COMMON_BATCHCLI_H
#define ONNXC_TOOLS_COMMON_BATCHCLI_H

#include "lib/Driver/Batch.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace onnxc {

/// The batch-mode options of a tool's command line.
struct BatchFlags {
  std::vector<std::string> models;
  std::string output;
  std::string manifest;
  unsigned jobs = 1;
  bool keepGoing = false;
  bool failFast = false;
  std::string report;
  std::string junit;
  std::string shard;
  std::string cacheDir;
  bool noCache = false;
  bool quiet = false;
  bool verbose = false;
};

/// The --help footer: how batch mode is chosen, and the exit codes.
extern const char *const kBatchHelpFooter;

/// Adds the batch-mode options (-j, --manifest, --keep-going, --fail-fast,
/// --report, --junit, --shard, --cache-dir, --no-cache, --quiet, --verbose)
/// to `app`. The model list and -o are the tool's own.
void addBatchOptions(CLI::App &app, BatchFlags &flags);

/// Whether `flags` ask for batch mode: several models, a manifest, -o naming
/// a directory (existing, or ending in '/'), or a batch-only option.
bool isBatchMode(const BatchFlags &flags);

/// Parses the --input-shape specs into `options`; prints the error and
/// fails on a bad one.
mlir::LogicalResult parseInputShapes(const std::vector<std::string> &specs,
                                     ImportOptions &options);

/// Whether a single-model command line names its model and -o; prints what
/// is missing.
bool hasModelAndOutput(const BatchFlags &flags);

/// Runs batch mode, each model starting from `defaults` (the command line's
/// options), and returns the exit code: 0 all ok, 1 some failed, 2 usage.
int runBatchMode(BatchTool tool, const BatchFlags &flags,
                 const CompileOptions &defaults);

} // namespace onnxc

#endif // ONNXC_TOOLS_COMMON_BATCHCLI_H
