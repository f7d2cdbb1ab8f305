//===- BatchCLI.cpp - Batch mode flags and progress for the tools ---------===//

#include "tools/common/BatchCLI.h"

#include "lib/Driver/CrashGuard.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace onnxc {

const char *const kBatchHelpFooter =
    "Batch mode: several models, --manifest FILE, or -o naming a directory\n"
    "(existing, or ending in '/') compile every model into that directory,\n"
    "named after the model's stem. Unchanged models are restored from the\n"
    "cache (OUTDIR/.onnxc-cache unless --cache-dir or --no-cache).\n"
    "\n"
    "Exit codes: 0 every model succeeded; 1 a model failed (batch mode: at\n"
    "least one); 2 usage error (bad option, manifest or shard); 3 an\n"
    "internal error, a bug of onnxc's (batch mode: in some model; the\n"
    "others were compiled as usual).";

void addBatchOptions(CLI::App &app, BatchFlags &flags) {
  const char *group = "Batch mode";
  app.add_option("--manifest", flags.manifest,
                 "JSON list of models with per-model options (target, emit, "
                 "cpu, opt_level, name, input_shapes, output); see "
                 "docs/user-guide.md")
      ->check(CLI::ExistingFile)
      ->group(group);
  app.add_option("-j,--jobs", flags.jobs,
                 "Models compiled at once (default 1; 0: one per core)")
      ->check(CLI::Range(0, 1024))
      ->group(group);
  CLI::Option *keepGoing =
      app.add_flag("--keep-going", flags.keepGoing,
                   "Compile the other models after a failure (the default)")
          ->group(group);
  app.add_flag("--fail-fast", flags.failFast,
               "Start no model after the first failure (the rest are "
               "reported as skipped)")
      ->excludes(keepGoing)
      ->group(group);
  app.add_option("--report", flags.report,
                 "Write a JSON report: per model status, error, stage times "
                 "(ms), outputs with sizes, op counts")
      ->group(group);
  app.add_option("--junit", flags.junit,
                 "Write a JUnit XML report, one testcase per model")
      ->group(group);
  app.add_option("--shard", flags.shard,
                 "Do only shard I of N (1-based) of the models sorted by "
                 "path, e.g. --shard 2/4 for a CI matrix")
      ->group(group);
  app.add_option("--cache-dir", flags.cacheDir,
                 "Where to keep outputs by content hash (default "
                 "OUTDIR/.onnxc-cache)")
      ->group(group);
  app.add_flag("--no-cache", flags.noCache,
               "Compile every model; neither read nor write the cache")
      ->group(group);
  CLI::Option *quiet =
      app.add_flag("-q,--quiet", flags.quiet,
                   "Print only failures (no progress, no summary)")
          ->group(group);
  app.add_flag("-v,--verbose", flags.verbose,
               "Print every model's start, stage times and warnings")
      ->excludes(quiet)
      ->group(group);
}

mlir::LogicalResult parseInputShapes(const std::vector<std::string> &specs,
                                     ImportOptions &options) {
  for (const std::string &spec : specs) {
    std::string error;
    if (mlir::failed(parseInputShape(spec, options, error))) {
      fmt::print(stderr, "error: {}\n", error);
      return mlir::failure();
    }
  }
  return mlir::success();
}

bool hasModelAndOutput(const BatchFlags &flags) {
  if (!flags.models.empty() && !flags.output.empty())
    return true;
  fmt::print(stderr, "error: {} is required\n",
             flags.models.empty() ? "a model" : "-o OUTPUT");
  return false;
}

/// Whether `path` names a directory: an existing one, or one to create
/// because it ends in '/'.
static bool isDirectoryPath(llvm::StringRef path) {
  return !path.empty() &&
         (path.ends_with("/") || llvm::sys::fs::is_directory(path));
}

bool isBatchMode(const BatchFlags &flags) {
  return flags.models.size() > 1 || !flags.manifest.empty() ||
         isDirectoryPath(flags.output) || !flags.report.empty() ||
         !flags.junit.empty() || !flags.shard.empty() ||
         !flags.cacheDir.empty();
}

namespace {
/// Progress on stderr: a bar redrawn in place on a terminal, a status line
/// per model otherwise; failures always get a line of their own.
class Progress {
public:
  Progress(llvm::ArrayRef<CompileOptions> jobs, const BatchFlags &flags)
      : jobs(jobs), quiet(flags.quiet), verbose(flags.verbose),
        bar(!flags.quiet && !flags.verbose &&
            llvm::sys::Process::StandardErrIsDisplayed()) {}

  void started(size_t index) {
    ++running;
    current = jobs[index].input;
    if (verbose)
      fmt::print(stderr, "[{}/{}] start {}\n", finishedCount + running,
                 jobs.size(), current);
    drawBar();
  }

  void finished(size_t index, const ModelResult &result) {
    --running;
    ++finishedCount;
    bool failed = result.status == ModelStatus::Failed ||
                  result.status == ModelStatus::InternalError;
    failedCount += failed;
    const std::string &model = jobs[index].input;
    clearBar();
    if (failed) {
      fmt::print(stderr, "[{}/{}] FAILED {}: {}\n", finishedCount, jobs.size(),
                 model, shortError(model, result.error));
    } else if (!quiet && !bar) {
      fmt::print(stderr, "[{}/{}] ok {} ({}{:.1f} s)\n", finishedCount,
                 jobs.size(), model, result.cached ? "cached, " : "",
                 result.ms / 1000);
    }
    if (verbose) {
      std::string stages;
      for (const auto &[stage, ms] : result.stats.stageMs)
        stages += fmt::format(" {} {:.0f} ms", stage, ms);
      if (!stages.empty())
        fmt::print(stderr, "    stages:{}\n", stages);
      for (const std::string &line : result.diagnostics)
        fmt::print(stderr, "    {}\n", line);
    }
    drawBar();
  }

  /// Ends the bar, and prints the summary unless quiet.
  void summary(llvm::ArrayRef<ModelResult> results, double seconds) {
    clearBar();
    if (quiet)
      return;
    size_t ok = 0, failed = 0, skipped = 0, cached = 0, internal = 0;
    for (const ModelResult &result : results) {
      ok += result.status == ModelStatus::Ok;
      failed += result.status == ModelStatus::Failed;
      skipped += result.status == ModelStatus::Skipped;
      internal += result.status == ModelStatus::InternalError;
      cached += result.cached;
    }
    fmt::print(stderr, "{} model{}: {} ok ({} cached), {} failed",
               results.size(), results.size() == 1 ? "" : "s", ok, cached,
               failed + internal);
    if (internal)
      fmt::print(stderr, " ({} by an internal error)", internal);
    if (skipped)
      fmt::print(stderr, ", {} skipped", skipped);
    fmt::print(stderr, " in {:.1f} s\n", seconds);
  }

private:
  /// The error without the `error: MODEL: ` that the line already names.
  static std::string shortError(llvm::StringRef model, llvm::StringRef error) {
    std::string prefix = "error: " + model.str() + ": ";
    return error.starts_with(prefix) ? error.drop_front(prefix.size()).str()
                                     : error.str();
  }

  void drawBar() {
    if (!bar)
      return;
    constexpr size_t width = 30;
    size_t filled = jobs.empty() ? width : width * finishedCount / jobs.size();
    std::string name = current;
    if (name.size() > 40)
      name = "..." + name.substr(name.size() - 37);
    fmt::print(stderr, "\r\033[2K[{}{}] {}/{}{} {}", std::string(filled, '#'),
               std::string(width - filled, '.'), finishedCount, jobs.size(),
               failedCount ? fmt::format(" ({} failed)", failedCount) : "",
               running ? name : "");
    std::fflush(stderr);
  }

  void clearBar() {
    if (bar)
      fmt::print(stderr, "\r\033[2K");
  }

  llvm::ArrayRef<CompileOptions> jobs;
  bool quiet, verbose, bar;
  size_t running = 0, finishedCount = 0, failedCount = 0;
  std::string current;
};
} // namespace

/// `path` without trailing slashes (but "/" stays).
static std::string trimSlashes(llvm::StringRef path) {
  while (path.size() > 1 && path.ends_with("/"))
    path = path.drop_back();
  return path.str();
}

int runBatchMode(BatchTool tool, const BatchFlags &flags,
                 const CompileOptions &defaults) {
  auto usage = [](const std::string &message) {
    fmt::print(stderr, "error: {}\n", message);
    return 2;
  };
  // -o is the output directory, except for a single model given with -o FILE
  // and a batch-only option such as --report: a batch of one.
  std::string outDir;
  bool singleFile = flags.models.size() == 1 && flags.manifest.empty() &&
                    !flags.output.empty() && !isDirectoryPath(flags.output);
  if (!flags.output.empty() && !singleFile)
    outDir = trimSlashes(flags.output);
  if (flags.output.empty() && flags.manifest.empty())
    return usage("batch mode needs -o DIR (or a --manifest with "
                 "\"output_dir\")");
  if (!outDir.empty() && llvm::sys::fs::exists(outDir) &&
      !llvm::sys::fs::is_directory(outDir))
    return usage("-o '" + outDir + "' is a file, but " +
                 std::to_string(flags.models.size()) +
                 " models need an output directory");

  std::vector<CompileOptions> jobs;
  for (const std::string &model : flags.models) {
    CompileOptions job = defaults;
    job.input = model;
    if (singleFile) {
      job.output = flags.output;
    } else {
      llvm::SmallString<256> path(outDir);
      llvm::sys::path::append(path, batchOutputName(model, tool, job.emit));
      job.output = std::string(path);
    }
    jobs.push_back(std::move(job));
  }
  if (!flags.manifest.empty()) {
    std::string error;
    if (failed(
            parseManifest(flags.manifest, tool, defaults, outDir, jobs, error)))
      return usage(error);
  }
  if (jobs.empty())
    return usage("no models to compile");
  if (!flags.shard.empty()) {
    unsigned index, count;
    std::string error;
    if (failed(parseShard(flags.shard, index, count, error)))
      return usage(error);
    jobs = selectShard(std::move(jobs), index, count);
  }
  std::string error;
  if (failed(checkDistinctOutputs(jobs, error)))
    return usage(error);

  BatchOptions options;
  options.tool = tool;
  options.failFast = flags.failFast;
  options.jobs = flags.jobs ? flags.jobs
                            : std::max(1u, std::thread::hardware_concurrency());
  if (!flags.noCache) {
    if (!flags.cacheDir.empty()) {
      options.cacheDir = flags.cacheDir;
    } else if (!outDir.empty()) {
      llvm::SmallString<256> cache(outDir);
      llvm::sys::path::append(cache, ".onnxc-cache");
      options.cacheDir = std::string(cache);
    }
  }
  // Output directories (a manifest's outputs may sit in subdirectories).
  for (const CompileOptions &job : jobs) {
    llvm::StringRef dir = llvm::sys::path::parent_path(job.output);
    if (!dir.empty() && llvm::sys::fs::create_directories(dir))
      return usage("cannot create the output directory '" + dir.str() + "'");
  }
  if (!options.cacheDir.empty() &&
      llvm::sys::fs::create_directories(options.cacheDir))
    return usage("cannot create the cache directory '" + options.cacheDir +
                 "'");

  Progress progress(jobs, flags);
  auto begin = std::chrono::steady_clock::now();
  std::vector<ModelResult> results =
      runBatch(jobs, options,
               {[&](size_t index) { progress.started(index); },
                [&](size_t index, const ModelResult &result) {
                  progress.finished(index, result);
                }});
  std::chrono::duration<double> seconds =
      std::chrono::steady_clock::now() - begin;
  progress.summary(results, seconds.count());

  // An internal error in any model outranks plain failures.
  int rc = 0;
  for (const ModelResult &result : results)
    if (result.status == ModelStatus::InternalError)
      rc = kInternalErrorExitCode;
    else if (result.status != ModelStatus::Ok && rc == 0)
      rc = 1;
  unsigned workers =
      std::min<size_t>(options.jobs, std::max<size_t>(jobs.size(), 1));
  if (!flags.report.empty() &&
      failed(writeFileAtomically(
          flags.report,
          formatJSONReport(tool, jobs, results, seconds.count(), workers),
          error))) {
    fmt::print(stderr, "error: {}\n", error);
    rc = 1;
  }
  if (!flags.junit.empty() &&
      failed(writeFileAtomically(
          flags.junit, formatJUnitReport(tool, jobs, results, seconds.count()),
          error))) {
    fmt::print(stderr, "error: {}\n", error);
    rc = 1;
  }
  return rc;
}

} // namespace onnxc
