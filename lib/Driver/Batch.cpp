//===- Batch.cpp - Many models at once: the worker pool and the cache -----===//
//
// Every model runs on a worker thread in its own MLIRContext (compileModel
// makes its own LLVMContext), with a DiagnosticCollector instead of the
// printing handler. The cache maps a content hash of everything that reaches
// a model's outputs to a copy of those outputs:
//
//   CACHE/KEY/entry.json   the files, and the stats of the compile
//   CACHE/KEY/FILE...      the outputs, by file name
//
// Entries are written into a temporary directory and renamed into place, so
// concurrent batches sharing a cache see whole entries or none.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Batch.h"

#include "lib/Driver/CrashGuard.h"
#include "lib/Driver/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

using namespace mlir;

namespace onnxc {

namespace {
/// Length-prefixed fields into BLAKE3, so that no two field lists hash alike.
class KeyHasher {
public:
  void add(StringRef field) {
    uint64_t size = field.size();
    hasher.update(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&size),
                                    sizeof(size)));
    hasher.update(field);
  }
  void add(int64_t value) { add(StringRef(std::to_string(value))); }
  /// The file's bytes, or a marker when it cannot be read.
  void addFile(StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      add("<unreadable>");
      return;
    }
    add("<file>");
    add((*buffer)->getBuffer());
  }
  std::string hex() { return llvm::toHex(hasher.final(), /*LowerCase=*/true); }

private:
  llvm::BLAKE3 hasher;
};
} // namespace

FailureOr<std::string> batchCacheKey(const CompileOptions &job,
                                     BatchTool tool) {
  auto model = llvm::MemoryBuffer::getFile(job.input, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!model)
    return failure();
  KeyHasher key;
  key.add("onnxc batch cache 1");
  key.add(getVersionString());
  if (isDirtyBuild()) {
    // The commit does not name the compiler: its own bytes do.
    static int anchor;
    key.addFile(llvm::sys::fs::getMainExecutable(nullptr, &anchor));
  }
  key.add(batchToolName(tool));
  key.add(static_cast<int64_t>(job.emit));
  key.add(llvm::sys::path::filename(job.output));
  // Input shapes in name order (a StringMap iterates in hash order).
  std::vector<std::string> shapes;
  for (const auto &entry : job.import.inputShapes) {
    std::string shape = entry.first().str() + "=";
    for (int64_t d : entry.second)
      shape += std::to_string(d) + "x";
    shapes.push_back(shape);
  }
  llvm::sort(shapes);
  for (const std::string &shape : shapes)
    key.add(shape);
  if (tool == BatchTool::Compile) {
    key.add(archName(job.target.arch));
    key.add(job.target.gpu);
    key.add(job.target.gpuPrecision);
    auto [cpu, features] = resolveCPU(job.target);
    key.add(cpu);
    key.add(features);
    key.add(static_cast<int64_t>(job.target.optLevel));
    key.add(static_cast<int64_t>(job.profile));
    key.add(job.libraryName);
    // What linking adds to executables and libraries.
    if (job.emit == EmitKind::Exe || job.emit == EmitKind::Lib) {
      SmallString<256> dir(runtimeDirectory(job));
      for (StringRef file : {"libonnxc_runtime.a", "libonnxc_kernels.a",
                             "libonnxc_main.a", "libonnxc_gpu.a"}) {
        if (file == "libonnxc_gpu.a" && job.target.gpu.empty())
          continue;
        SmallString<256> path(dir);
        llvm::sys::path::append(path, archName(job.target.arch), file);
        key.addFile(path);
      }
      SmallString<256> header(dir);
      llvm::sys::path::append(header, "include", "onnxc_runtime.h");
      key.addFile(header);
    }
  }
  key.add("<model>");
  key.add((*model)->getBuffer());
  // External data, by its location relative to the model. A model that does
  // not parse has none; its compile fails and is not cached.
  std::vector<std::string> external;
  std::string error;
  if (succeeded(listExternalDataFiles(job.input, external, error))) {
    StringRef modelDir = llvm::sys::path::parent_path(job.input);
    for (const std::string &file : external) {
      StringRef relative = file;
      relative.consume_front(modelDir);
      key.add(relative);
      key.addFile(file);
    }
  }
  return key.hex();
}

void writeMsJSON(llvm::json::OStream &json, StringRef key, double ms) {
  json.attributeBegin(key);
  json.rawValue(llvm::formatv("{0:F3}", ms).str());
  json.attributeEnd();
}

void writeStatsJSON(llvm::json::OStream &json, const CompileStats &stats) {
  json.attributeObject("stages_ms", [&] {
    for (const auto &[stage, ms] : stats.stageMs)
      writeMsJSON(json, stage, ms);
  });
  json.attributeObject("op_counts", [&] {
    for (const auto &[op, count] : stats.opCounts)
      json.attribute(op, count);
  });
}

/// Reads what writeStatsJSON wrote (json::Object does not keep the order of
/// stages; they go back in pipeline order).
static void readStatsJSON(const llvm::json::Object &object,
                          CompileStats &stats) {
  if (const llvm::json::Object *stages = object.getObject("stages_ms"))
    for (StringRef stage :
         {"import", "optimize", "lower", "codegen", "link", "export"})
      if (std::optional<double> ms = stages->getNumber(stage))
        stats.stageMs.emplace_back(stage.str(), *ms);
  if (const llvm::json::Object *ops = object.getObject("op_counts"))
    for (const auto &[op, count] : *ops)
      if (std::optional<int64_t> n = count.getAsInteger())
        stats.opCounts[op.str()] = *n;
}

/// `name` inside `dir`.
static std::string inDir(StringRef dir, StringRef name) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

/// Copies `from` to `to` through a temporary file renamed into place,
/// keeping the permissions (an executable stays executable).
static std::error_code copyAtomically(StringRef from, StringRef to) {
  SmallString<256> temp;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(to + ".tmp-%%%%%%", fd, temp))
    return ec;
  std::error_code ec = llvm::sys::fs::copy_file(from, fd);
  llvm::sys::fs::file_t file = fd;
  llvm::sys::fs::closeFile(file);
  if (!ec) {
    llvm::ErrorOr<llvm::sys::fs::perms> perms =
        llvm::sys::fs::getPermissions(from);
    ec = perms ? llvm::sys::fs::setPermissions(temp, *perms) : perms.getError();
  }
  if (!ec)
    ec = llvm::sys::fs::rename(temp, to);
  if (ec)
    llvm::sys::fs::remove(temp);
  return ec;
}

/// Restores the outputs of cache entry `entryDir` for `job`; fails, having
/// changed nothing that matters, when the entry is missing or incomplete.
static LogicalResult restoreFromCache(StringRef entryDir,
                                      const CompileOptions &job,
                                      ModelResult &result) {
  auto text = llvm::MemoryBuffer::getFile(inDir(entryDir, "entry.json"));
  if (!text)
    return failure();
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*text)->getBuffer());
  if (!value) {
    llvm::consumeError(value.takeError());
    return failure();
  }
  const llvm::json::Object *entry = value->getAsObject();
  const llvm::json::Array *files = entry ? entry->getArray("files") : nullptr;
  if (!files)
    return failure();
  // Check the whole entry before touching any output.
  SmallVector<std::pair<std::string, uint64_t>> stored;
  for (const llvm::json::Value &file : *files) {
    const llvm::json::Object *f = file.getAsObject();
    std::optional<StringRef> name = f ? f->getString("name") : std::nullopt;
    std::optional<int64_t> bytes = f ? f->getInteger("bytes") : std::nullopt;
    uint64_t size;
    if (!name || !bytes || llvm::sys::path::filename(*name) != *name ||
        llvm::sys::fs::file_size(inDir(entryDir, *name), size) ||
        size != static_cast<uint64_t>(*bytes))
      return failure();
    stored.emplace_back(name->str(), size);
  }
  StringRef outDir = llvm::sys::path::parent_path(job.output);
  for (const auto &[name, size] : stored) {
    std::string to = inDir(outDir, name);
    if (copyAtomically(inDir(entryDir, name), to))
      return failure();
    result.stats.outputs.push_back(to);
  }
  readStatsJSON(*entry, result.stats);
  if (const llvm::json::Array *lines = entry->getArray("diagnostics"))
    for (const llvm::json::Value &line : *lines)
      if (std::optional<StringRef> s = line.getAsString())
        result.diagnostics.push_back(s->str());
  return success();
}

/// Stores the outputs of a successful `result` as entry `key` of `cacheDir`.
/// Fails with `error`; an entry that another batch stored first is kept.
static LogicalResult storeInCache(StringRef cacheDir, StringRef key,
                                  const CompileOptions &job,
                                  const ModelResult &result,
                                  std::string &error) {
  StringRef outDir = llvm::sys::path::parent_path(job.output);
  for (const std::string &output : result.stats.outputs)
    if (llvm::sys::path::parent_path(output) != outDir) {
      error = "output '" + output + "' is not beside '" + job.output + "'";
      return failure();
    }
  // Absolute: createUniqueDirectory puts relative names in /tmp.
  SmallString<256> prefix(cacheDir), temp;
  llvm::sys::fs::make_absolute(prefix);
  llvm::sys::path::append(prefix, "tmp");
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(prefix, temp)) {
    error = "cannot create a directory in '" + cacheDir.str() +
            "': " + ec.message();
    return failure();
  }
  auto fail = [&](const Twine &message) {
    llvm::sys::fs::remove_directories(temp);
    error = message.str();
    return failure();
  };
  for (const auto &output : result.outputs) {
    StringRef path = output.first, name = llvm::sys::path::filename(path);
    if (std::error_code ec = llvm::sys::fs::copy_file(path, inDir(temp, name)))
      return fail("cannot copy '" + path + "': " + ec.message());
    if (llvm::ErrorOr<llvm::sys::fs::perms> perms =
            llvm::sys::fs::getPermissions(path))
      llvm::sys::fs::setPermissions(inDir(temp, name), *perms);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  {
    llvm::json::OStream json(os, /*IndentSize=*/2);
    json.object([&] {
      json.attributeArray("files", [&] {
        for (const auto &[path, bytes] : result.outputs)
          json.object([&, &path = path, &bytes = bytes] {
            json.attribute("name", llvm::sys::path::filename(path));
            json.attribute("bytes", static_cast<int64_t>(bytes));
          });
      });
      writeStatsJSON(json, result.stats);
      json.attributeArray("diagnostics", [&] {
        for (const std::string &line : result.diagnostics)
          json.value(line);
      });
    });
  }
  os << "\n";
  if (failed(writeFileAtomically(inDir(temp, "entry.json"), text, error)))
    return fail(error);
  if (llvm::sys::fs::rename(temp, inDir(cacheDir, key)))
    llvm::sys::fs::remove_directories(temp); // stored meanwhile: keep that one
  return success();
}

/// Compiles (or optimizes) one model in a context of its own, an internal
/// error contained to it.
static void compileOne(const CompileOptions &job, BatchTool tool,
                       ModelResult &result) {
  auto context =
      std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
  prepareContext(*context);
  trackCompileSite(*context);
  auto diagnostics = std::make_unique<DiagnosticCollector>(*context);
  LogicalResult status = failure();
  std::optional<std::string> internalError = runContained(job.input, [&] {
    bool same = false;
    if (tool == BatchTool::Optimize &&
        !llvm::sys::fs::equivalent(job.input, job.output, same) && same)
      emitError(FileLineColLoc::get(context.get(), job.input, 0, 0))
          << "refusing to overwrite the input model";
    else if (tool == BatchTool::Compile)
      status = compileModel(job, *context, &result.stats);
    else
      status =
          optimizeModel(job.input, job.output, job.import, job.target.optLevel,
                        /*fuseActivations=*/false, *context, &result.stats);
  });
  result.diagnostics = diagnostics->lines();
  if (internalError) {
    // The context, and the handler on it, may be in any state: leave them.
    (void)diagnostics.release();
    (void)context.release();
    result.status = ModelStatus::InternalError;
    result.error = "error: " + *internalError;
    result.diagnostics.push_back(result.error);
    return;
  }
  if (succeeded(status)) {
    result.status = ModelStatus::Ok;
    return;
  }
  result.status = ModelStatus::Failed;
  result.error = diagnostics->firstError();
  if (result.error.empty())
    result.error = "error: " + job.input + ": failed without a diagnostic";
}

/// Runs one job: from the cache if it holds the job's key, else compiled
/// and then stored.
static ModelResult runJob(const CompileOptions &job,
                          const BatchOptions &options) {
  auto begin = std::chrono::steady_clock::now();
  ModelResult result;
  std::string entryDir;
  if (!options.cacheDir.empty())
    if (FailureOr<std::string> key = batchCacheKey(job, options.tool);
        succeeded(key))
      entryDir = inDir(options.cacheDir, *key);
  if (!entryDir.empty() && succeeded(restoreFromCache(entryDir, job, result))) {
    result.status = ModelStatus::Ok;
    result.cached = true;
  } else {
    result = ModelResult();
    compileOne(job, options.tool, result);
  }
  for (const std::string &output : result.stats.outputs) {
    uint64_t size = 0;
    llvm::sys::fs::file_size(output, size);
    result.outputs.emplace_back(output, size);
  }
  std::string error;
  if (result.status == ModelStatus::Ok && !result.cached && !entryDir.empty() &&
      failed(storeInCache(options.cacheDir, llvm::sys::path::filename(entryDir),
                          job, result, error)))
    result.diagnostics.push_back("warning: " + job.input +
                                 ": not cached: " + error);
  std::chrono::duration<double, std::milli> ms =
      std::chrono::steady_clock::now() - begin;
  result.ms = ms.count();
  return result;
}

std::vector<ModelResult> runBatch(ArrayRef<CompileOptions> jobs,
                                  const BatchOptions &options,
                                  const BatchObserver &observer) {
  std::vector<ModelResult> results(jobs.size());
  BatchOptions effective = options;
  if (!effective.cacheDir.empty() &&
      llvm::sys::fs::create_directories(effective.cacheDir))
    effective.cacheDir.clear(); // no cache rather than no outputs
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  auto work = [&] {
    while (!(effective.failFast && stop.load())) {
      size_t index = next++;
      if (index >= jobs.size())
        return;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (observer.started)
          observer.started(index);
      }
      ModelResult result = runJob(jobs[index], effective);
      std::lock_guard<std::mutex> lock(mutex);
      if (result.status != ModelStatus::Ok)
        stop = true;
      results[index] = std::move(result);
      if (observer.finished)
        observer.finished(index, results[index]);
    }
  };
  size_t workers = std::min<size_t>(std::max(1u, options.jobs), jobs.size());
  std::vector<std::thread> threads;
  for (size_t i = 1; i < workers; ++i)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
  return results;
}

} // namespace onnxc
