//===- Batch.h - Many models at once: jobs, cache, reports ------*- C++ -*-===//
//
// The library side of `onnx-compile models/*.onnx -o outdir/ -j N` and its
// onnx-opt twin: the jobs a command line or manifest names, sharding, a
// content-hash cache of outputs, a worker pool in which every model has its
// own MLIRContext (and LLVMContext) with its diagnostics collected, and the
// JSON and JUnit reports. Printing progress is the tools' business: they are
// told as each model starts and finishes.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_DRIVER_BATCH_H
#define ONNXC_LIB_DRIVER_BATCH_H

#include "lib/Driver/Compiler.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <string>
#include <vector>

namespace onnxc {

/// What a batch does with each model: onnx-compile's compileModel, or
/// onnx-opt's optimizeModel (which uses only input, output and import).
enum class BatchTool { Compile, Optimize };

/// "onnx-compile" or "onnx-opt".
llvm::StringRef batchToolName(BatchTool tool);

/// The file name a model's output gets in batch mode: the model's stem with
/// the extension of what is emitted (exe: none; lib: libSTEM, the base of
/// libSTEM.so/.a/.h; obj .o; mlir .mlir; llvm .ll; asm .s). onnx-opt writes
/// STEM.onnx, or STEM.mlir for `mlir`.
std::string batchOutputName(llvm::StringRef model, BatchTool tool,
                            EmitKind emit);

/// Reads a JSON manifest (docs/user-guide.md) into `jobs`: each model's
/// options start from `defaults`, then the manifest's "defaults", then its
/// own entry. Model paths are relative to the manifest's directory; outputs
/// to `outputDir`, or when that is empty the manifest's "output_dir"
/// (relative to the manifest), which `outputDir` then receives. Fails with
/// `error` naming the manifest and the entry.
mlir::LogicalResult parseManifest(llvm::StringRef path, BatchTool tool,
                                  const CompileOptions &defaults,
                                  std::string &outputDir,
                                  std::vector<CompileOptions> &jobs,
                                  std::string &error);

/// Parses `I/N` (1 <= I <= N) for --shard.
mlir::LogicalResult parseShard(llvm::StringRef spec, unsigned &index,
                               unsigned &count, std::string &error);

/// Shard `index` of `count` (1-based): the jobs sorted by model path, every
/// count-th one starting at the index-th, so that the assignment depends on
/// the set of models only.
std::vector<CompileOptions> selectShard(std::vector<CompileOptions> jobs,
                                        unsigned index, unsigned count);

/// Fails with `error` when two jobs would write the same output.
mlir::LogicalResult checkDistinctOutputs(llvm::ArrayRef<CompileOptions> jobs,
                                         std::string &error);

struct BatchOptions {
  BatchTool tool = BatchTool::Compile;
  /// How many models run at once, each on its own thread and context.
  unsigned jobs = 1;
  /// Start no model after the first failure (the rest are skipped).
  bool failFast = false;
  /// The content-hash cache of outputs; empty for none.
  std::string cacheDir;
};

/// A model's outcome. InternalError: a bug of onnxc's ended its compile
/// (runContained), which failed that model only.
enum class ModelStatus { Ok, Failed, Skipped, InternalError };

/// "ok", "failed", "skipped" or "internal-error".
llvm::StringRef modelStatusName(ModelStatus status);

/// How one model of a batch went.
struct ModelResult {
  ModelStatus status = ModelStatus::Skipped;
  /// Served from the cache: the outputs were restored, and `stats` are those
  /// of the compile that produced them.
  bool cached = false;
  /// The first error line of a failure (of an internal error, its report),
  /// as the single-model tools print it.
  std::string error;
  /// Every error and warning line, in order.
  std::vector<std::string> diagnostics;
  /// Wall time of this model in this run.
  double ms = 0;
  CompileStats stats;
  /// The outputs and their sizes in bytes.
  std::vector<std::pair<std::string, uint64_t>> outputs;
};

/// Told, one call at a time, as models start and finish.
struct BatchObserver {
  std::function<void(size_t index)> started;
  std::function<void(size_t index, const ModelResult &result)> finished;
};

/// Runs `jobs` on `options.jobs` workers, serving unchanged models from the
/// cache and storing new outputs in it. Results are in job order. Nothing is
/// printed: diagnostics land in the results.
std::vector<ModelResult> runBatch(llvm::ArrayRef<CompileOptions> jobs,
                                  const BatchOptions &options,
                                  const BatchObserver &observer = {});

/// The cache key of a job (hex): the model's bytes and its external data
/// files, the options that reach the outputs, the compiler version and
/// commit (and, for a build from a modified tree, the tool's own bytes),
/// and for executables and libraries the runtime that is linked in. Fails
/// when the model cannot be read.
mlir::FailureOr<std::string> batchCacheKey(const CompileOptions &job,
                                           BatchTool tool);

/// Writes member `key` with milliseconds to three decimals (123.456).
void writeMsJSON(llvm::json::OStream &json, llvm::StringRef key, double ms);

/// Writes the members "stages_ms" (stage -> ms, in pipeline order) and
/// "op_counts" (op type -> count) of `stats` into the object `json` is in:
/// the report's and the cache entries' form.
void writeStatsJSON(llvm::json::OStream &json, const CompileStats &stats);

/// The `--report` JSON: {"tool", "version", "summary", "models": [...]}
/// with per model "model", "status", "error", "cached", "time_ms",
/// "stages_ms", "outputs" (path, bytes), "op_counts" and "diagnostics".
std::string formatJSONReport(BatchTool tool,
                             llvm::ArrayRef<CompileOptions> jobs,
                             llvm::ArrayRef<ModelResult> results,
                             double seconds, unsigned workers);

/// The `--junit` XML: one testsuite, one testcase per model, a <failure>
/// with the error (all diagnostics in its body) for failed models, an
/// <error> for internal errors and <skipped> for models --fail-fast did not
/// start.
std::string formatJUnitReport(BatchTool tool,
                              llvm::ArrayRef<CompileOptions> jobs,
                              llvm::ArrayRef<ModelResult> results,
                              double seconds);

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_BATCH_H
