//===- BatchReport.cpp - Batch jobs in and reports out --------------------===//
//
// What surrounds runBatch: output names, the JSON manifest, --shard, and the
// JSON and JUnit reports.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Batch.h"

#include "lib/Driver/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <tuple>

using namespace mlir;

namespace onnxc {

StringRef batchToolName(BatchTool tool) {
  return tool == BatchTool::Compile ? "onnx-compile" : "onnx-opt";
}

StringRef modelStatusName(ModelStatus status) {
  switch (status) {
  case ModelStatus::Ok:
    return "ok";
  case ModelStatus::Failed:
    return "failed";
  case ModelStatus::Skipped:
    return "skipped";
  case ModelStatus::InternalError:
    return "internal-error";
  }
  llvm_unreachable("unknown model status");
}

std::string batchOutputName(StringRef model, BatchTool tool, EmitKind emit) {
  std::string stem = llvm::sys::path::stem(model).str();
  if (tool == BatchTool::Optimize)
    return stem + (emit == EmitKind::MLIR ? ".mlir" : ".onnx");
  switch (emit) {
  case EmitKind::Exe:
    return stem;
  case EmitKind::Lib:
    return "lib" + stem;
  case EmitKind::Obj:
    return stem + ".o";
  case EmitKind::MLIR:
    return stem + ".mlir";
  case EmitKind::LLVM:
    return stem + ".ll";
  case EmitKind::Asm:
    return stem + ".s";
  }
  llvm_unreachable("unknown emit kind");
}

//===----------------------------------------------------------------------===//
// Manifest
//===----------------------------------------------------------------------===//

namespace {
/// Reads manifest entries into CompileOptions, naming the entry in errors.
class ManifestReader {
public:
  ManifestReader(StringRef path, BatchTool tool, std::string &error)
      : path(path), tool(tool), error(error) {}

  /// Applies the options of `entry` (not "model" and "output") to `options`.
  LogicalResult applyOptions(const llvm::json::Object &entry,
                             CompileOptions &options, const Twine &where);
  LogicalResult fail(const Twine &where, const Twine &message) {
    error = (Twine(path) + ": " + where + ": " + message).str();
    return failure();
  }

private:
  std::string path;
  BatchTool tool;
  std::string &error;
};
} // namespace

LogicalResult ManifestReader::applyOptions(const llvm::json::Object &entry,
                                           CompileOptions &options,
                                           const Twine &where) {
  bool compile = tool == BatchTool::Compile;
  for (const auto &[keyRef, value] : entry) {
    StringRef key = keyRef;
    if (key == "model" || key == "output")
      continue;
    std::optional<StringRef> text = value.getAsString();
    if (key == "emit") {
      std::optional<EmitKind> emit =
          !text     ? std::nullopt
          : compile ? llvm::StringSwitch<std::optional<EmitKind>>(*text)
                          .Case("exe", EmitKind::Exe)
                          .Case("lib", EmitKind::Lib)
                          .Case("obj", EmitKind::Obj)
                          .Case("mlir", EmitKind::MLIR)
                          .Case("llvm", EmitKind::LLVM)
                          .Case("asm", EmitKind::Asm)
                          .Default(std::nullopt)
                    : llvm::StringSwitch<std::optional<EmitKind>>(*text)
                          .Case("onnx", EmitKind::Exe)
                          .Case("mlir", EmitKind::MLIR)
                          .Default(std::nullopt);
      if (!emit)
        return fail(where, compile ? "\"emit\" must be one of exe, lib, obj, "
                                     "mlir, llvm, asm"
                                   : "\"emit\" must be onnx or mlir");
      options.emit = *emit;
    } else if (key == "input_shapes") {
      const llvm::json::Object *shapes = value.getAsObject();
      if (!shapes)
        return fail(where, "\"input_shapes\" must map input names to dims");
      for (const auto &[name, dims] : *shapes) {
        // [1, 3, 224, 224] or "1x3x224x224", checked like --input-shape.
        std::string spec = name.str() + "=";
        if (std::optional<StringRef> s = dims.getAsString()) {
          spec += s->str();
        } else if (const llvm::json::Array *list = dims.getAsArray()) {
          SmallVector<std::string> parts;
          for (const llvm::json::Value &d : *list) {
            std::optional<int64_t> n = d.getAsInteger();
            parts.push_back(n ? std::to_string(*n) : "?");
          }
          spec += list->empty() ? "scalar" : llvm::join(parts, "x");
        } else {
          return fail(where, "the shape of '" + name.str() +
                                 "' must be a list of dims or \"D0xD1x...\"");
        }
        std::string shapeError;
        if (failed(parseInputShape(spec, options.import, shapeError)))
          return fail(where, shapeError);
      }
    } else if (compile && key == "target") {
      if (text == "x86_64")
        options.target.arch = Arch::X86_64;
      else if (text == "aarch64")
        options.target.arch = Arch::AArch64;
      else if (text == "nvptx" && options.target.gpu.empty())
        options.target.gpu = "sm_80";
      else if (text != "nvptx")
        return fail(where, "\"target\" must be x86_64, aarch64 or nvptx");
    } else if (compile && key == "gpu") {
      if (!text || !isSupportedGPU(*text))
        return fail(where, "\"gpu\" must be one of " + supportedGPUList());
      options.target.gpu = text->str();
    } else if (compile && key == "gpu_precision") {
      if (!text || !isSupportedGPUPrecision(*text))
        return fail(where, "\"gpu_precision\" must be one of " +
                               supportedGPUPrecisionList());
      options.target.gpuPrecision = text->str();
    } else if (compile && key == "cpu" && text) {
      options.target.cpu = text->str();
    } else if (compile && key == "name" && text) {
      options.libraryName = text->str();
    } else if (compile && key == "opt_level") {
      std::optional<int64_t> level = value.getAsInteger();
      if (!level || *level < 0 || *level > 3)
        return fail(where, "\"opt_level\" must be 0, 1, 2 or 3");
      options.target.optLevel = *level;
    } else if (compile && (key == "cpu" || key == "name")) {
      return fail(where, "\"" + key + "\" must be a string");
    } else {
      return fail(where, "unknown key \"" + key + "\" (" +
                             (compile ? "model, output, emit, target, gpu, "
                                        "gpu_precision, cpu, opt_level, name, "
                                        "input_shapes"
                                      : "model, output, emit, input_shapes") +
                             ")");
    }
  }
  return success();
}

/// `path` against `dir` unless absolute.
static std::string resolve(StringRef dir, StringRef path) {
  if (llvm::sys::path::is_absolute(path) || dir.empty())
    return path.str();
  SmallString<256> result(dir);
  llvm::sys::path::append(result, path);
  return std::string(result);
}

LogicalResult parseManifest(StringRef path, BatchTool tool,
                            const CompileOptions &defaults,
                            std::string &outputDir,
                            std::vector<CompileOptions> &jobs,
                            std::string &error) {
  auto text = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!text) {
    error =
        path.str() + ": cannot read the manifest: " + text.getError().message();
    return failure();
  }
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*text)->getBuffer());
  if (!value) {
    error =
        path.str() + ": not valid JSON: " + llvm::toString(value.takeError());
    return failure();
  }
  ManifestReader reader(path, tool, error);
  const llvm::json::Object *root = value->getAsObject();
  if (!root)
    return reader.fail("top level", "expected an object with \"models\"");
  for (const auto &entry : *root)
    if (!llvm::is_contained({"models", "defaults", "output_dir"},
                            entry.first.str()))
      return reader.fail("top level", "unknown key \"" + entry.first.str() +
                                          "\" (models, defaults, output_dir)");
  StringRef manifestDir = llvm::sys::path::parent_path(path);
  if (outputDir.empty()) {
    std::optional<StringRef> dir = root->getString("output_dir");
    if (!dir)
      return reader.fail("top level", "no output directory: give -o DIR or "
                                      "\"output_dir\"");
    outputDir = resolve(manifestDir, *dir);
  }
  CompileOptions base = defaults;
  if (const llvm::json::Value *d = root->get("defaults")) {
    const llvm::json::Object *object = d->getAsObject();
    if (!object)
      return reader.fail("\"defaults\"", "expected an object");
    if (object->get("model") || object->get("output"))
      return reader.fail("\"defaults\"", "\"model\" and \"output\" belong to "
                                         "a model's entry");
    if (failed(reader.applyOptions(*object, base, "\"defaults\"")))
      return failure();
  }
  const llvm::json::Array *models = root->getArray("models");
  if (!models)
    return reader.fail("top level", "\"models\" must be a list");
  for (auto [index, entry] : llvm::enumerate(*models)) {
    std::string where = "model " + std::to_string(index);
    CompileOptions job = base;
    const llvm::json::Object *object = entry.getAsObject();
    std::optional<StringRef> model =
        object ? object->getString("model") : entry.getAsString();
    if (!model)
      return reader.fail(where, "expected a path or an object with \"model\"");
    job.input = resolve(manifestDir, *model);
    where += " ('" + model->str() + "')";
    if (object && failed(reader.applyOptions(*object, job, where)))
      return failure();
    std::optional<StringRef> output =
        object ? object->getString("output") : std::nullopt;
    if (object && object->get("output") && !output)
      return reader.fail(where, "\"output\" must be a string");
    job.output =
        resolve(outputDir,
                output ? *output : batchOutputName(job.input, tool, job.emit));
    jobs.push_back(std::move(job));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shards and outputs
//===----------------------------------------------------------------------===//

LogicalResult parseShard(StringRef spec, unsigned &index, unsigned &count,
                         std::string &error) {
  auto [i, n] = spec.split('/');
  if (i.getAsInteger(10, index) || n.getAsInteger(10, count) || count == 0 ||
      index == 0 || index > count) {
    error = "--shard expects I/N with 1 <= I <= N (got '" + spec.str() + "')";
    return failure();
  }
  return success();
}

std::vector<CompileOptions> selectShard(std::vector<CompileOptions> jobs,
                                        unsigned index, unsigned count) {
  llvm::sort(jobs, [](const CompileOptions &a, const CompileOptions &b) {
    return std::tie(a.input, a.output) < std::tie(b.input, b.output);
  });
  std::vector<CompileOptions> shard;
  for (size_t k = index - 1; k < jobs.size(); k += count)
    shard.push_back(std::move(jobs[k]));
  return shard;
}

LogicalResult checkDistinctOutputs(ArrayRef<CompileOptions> jobs,
                                   std::string &error) {
  llvm::StringMap<StringRef> owners;
  for (const CompileOptions &job : jobs) {
    auto [it, inserted] = owners.try_emplace(job.output, job.input);
    if (!inserted) {
      error = "'" + it->second.str() + "' and '" + job.input +
              "' would both write '" + job.output +
              "' (give one an \"output\" in a manifest)";
      return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

std::string formatJSONReport(BatchTool tool, ArrayRef<CompileOptions> jobs,
                             ArrayRef<ModelResult> results, double seconds,
                             unsigned workers) {
  std::string text;
  llvm::raw_string_ostream os(text);
  size_t counts[4] = {0, 0, 0, 0}, cached = 0;
  for (const ModelResult &result : results) {
    ++counts[static_cast<int>(result.status)];
    cached += result.cached;
  }
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("tool", batchToolName(tool));
    json.attribute("version", getVersionString());
    json.attributeObject("summary", [&] {
      json.attribute("models", static_cast<int64_t>(results.size()));
      json.attribute("ok", static_cast<int64_t>(counts[0]));
      json.attribute("failed", static_cast<int64_t>(counts[1]));
      json.attribute("skipped", static_cast<int64_t>(counts[2]));
      json.attribute("internal_errors", static_cast<int64_t>(counts[3]));
      json.attribute("cached", static_cast<int64_t>(cached));
      json.attribute("jobs", static_cast<int64_t>(workers));
      writeMsJSON(json, "time_ms", seconds * 1000);
    });
    json.attributeArray("models", [&] {
      for (auto [job, result] : llvm::zip(jobs, results)) {
        json.object([&, &job = job, &result = result] {
          json.attribute("model", job.input);
          json.attribute("status", modelStatusName(result.status));
          if (result.status == ModelStatus::Failed ||
              result.status == ModelStatus::InternalError)
            json.attribute("error", result.error);
          else
            json.attribute("error", nullptr);
          json.attribute("cached", result.cached);
          writeMsJSON(json, "time_ms", result.ms);
          writeStatsJSON(json, result.stats);
          json.attributeArray("outputs", [&] {
            for (const auto &[path, bytes] : result.outputs)
              json.object([&, &path = path, &bytes = bytes] {
                json.attribute("path", path);
                json.attribute("bytes", static_cast<int64_t>(bytes));
              });
          });
          json.attributeArray("diagnostics", [&] {
            for (const std::string &line : result.diagnostics)
              json.value(line);
          });
        });
      }
    });
  });
  os << "\n";
  return text;
}

/// `text` escaped for an XML attribute or element.
static std::string escapeXML(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // XML 1.0 allows no other control characters than tab, LF and CR.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' &&
          c != '\r')
        out += ' ';
      else
        out += c;
    }
  }
  return out;
}

std::string formatJUnitReport(BatchTool tool, ArrayRef<CompileOptions> jobs,
                              ArrayRef<ModelResult> results, double seconds) {
  size_t failures = 0, errors = 0, skipped = 0;
  for (const ModelResult &result : results) {
    failures += result.status == ModelStatus::Failed;
    errors += result.status == ModelStatus::InternalError;
    skipped += result.status == ModelStatus::Skipped;
  }
  std::string name = batchToolName(tool).str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << llvm::formatv("<testsuites name=\"{0}\" tests=\"{1}\" failures=\"{2}\" "
                      "errors=\"{3}\" skipped=\"{4}\" time=\"{5:F3}\">\n",
                      name, results.size(), failures, errors, skipped, seconds)
     << llvm::formatv(
            "  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" "
            "errors=\"{3}\" skipped=\"{4}\" time=\"{5:F3}\">\n",
            name, results.size(), failures, errors, skipped, seconds);
  for (auto [job, result] : llvm::zip(jobs, results)) {
    os << llvm::formatv("    <testcase classname=\"{0}\" name=\"{1}\" "
                        "time=\"{2:F3}\"",
                        name, escapeXML(job.input), result.ms / 1000);
    if (result.status == ModelStatus::Ok) {
      os << "/>\n";
      continue;
    }
    os << ">\n";
    if (result.status == ModelStatus::Skipped) {
      os << "      <skipped message=\"not run: --fail-fast stopped the "
            "batch\"/>\n";
    } else {
      StringRef element =
          result.status == ModelStatus::InternalError ? "error" : "failure";
      os << "      <" << element << " message=\"" << escapeXML(result.error)
         << "\">" << escapeXML(llvm::join(result.diagnostics, "\n")) << "</"
         << element << ">\n";
    }
    os << "    </testcase>\n";
  }
  os << "  </testsuite>\n</testsuites>\n";
  return text;
}

} // namespace onnxc
