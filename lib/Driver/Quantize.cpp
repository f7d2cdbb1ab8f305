//===- Quantize.cpp - Post-training quantization for onnx-opt -------------===//

#include "lib/Driver/Quantize.h"

#include "lib/Driver/Compiler.h"
#include "lib/Frontend/Frontend.h"
#include "lib/Runtime/onnxc_runtime.h"
#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

using namespace mlir;

namespace onnxc {
namespace {

/// The functions of the runtime's C API that calibration calls.
#define ONNXC_CALIBRATION_API(X)                                               \
  X(onnxc_last_error)                                                          \
  X(onnxc_tensor_read)                                                         \
  X(onnxc_tensor_create)                                                       \
  X(onnxc_tensor_free)                                                         \
  X(onnxc_tensor_dtype)                                                        \
  X(onnxc_tensor_rank)                                                         \
  X(onnxc_tensor_dims)                                                         \
  X(onnxc_tensor_numel)                                                        \
  X(onnxc_tensor_nbytes)                                                       \
  X(onnxc_tensor_data)                                                         \
  X(onnxc_session_create)                                                      \
  X(onnxc_session_free)                                                        \
  X(onnxc_session_run)

/// The runtime's C API as a loaded model library exports it.
struct RuntimeLibrary {
  void *handle = nullptr;
  const onnxc_model_desc *model = nullptr;
#define ONNXC_DECLARE(fn) decltype(&::fn) fn = nullptr;
  ONNXC_CALIBRATION_API(ONNXC_DECLARE)
#undef ONNXC_DECLARE

  RuntimeLibrary() = default;
  RuntimeLibrary(const RuntimeLibrary &) = delete;
  RuntimeLibrary &operator=(const RuntimeLibrary &) = delete;
  ~RuntimeLibrary() {
    if (handle)
      dlclose(handle);
  }

  LogicalResult open(const std::string &path, const std::string &modelSymbol,
                     std::string &error) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      error = std::string("cannot load the calibration model: ") + dlerror();
      return failure();
    }
    bool ok = true;
    auto bind = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(handle, name));
      if (!fn) {
        error = std::string("the calibration model lacks '") + name + "'";
        ok = false;
      }
    };
    bind(model, modelSymbol.c_str());
#define ONNXC_BIND(fn) bind(fn, #fn);
    ONNXC_CALIBRATION_API(ONNXC_BIND)
#undef ONNXC_BIND
    return success(ok);
  }
};

/// A tensor owned through the loaded runtime.
using TensorPtr = std::unique_ptr<onnxc_tensor, void (*)(onnxc_tensor *)>;
/// One calibration input per model input.
using Sample = std::vector<TensorPtr>;

/// `name` split into its text and trailing number, for a numeric order
/// (test_data_set_2 before test_data_set_10).
static std::pair<std::string, int64_t> naturalKey(StringRef name) {
  size_t digits = name.size();
  while (digits > 0 && llvm::isDigit(name[digits - 1]))
    --digits;
  int64_t number = -1;
  name.drop_front(digits).getAsInteger(10, number);
  return {name.take_front(digits).str(), number};
}

/// The entries of `dir` that are directories (or, without `dirs`, files),
/// in natural order.
static std::vector<std::string> listDirectory(StringRef dir, bool dirs) {
  std::vector<std::string> entries;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    bool isDir = llvm::sys::fs::is_directory(it->path());
    if (isDir == dirs)
      entries.push_back(it->path());
  }
  llvm::sort(entries, [](const std::string &a, const std::string &b) {
    return naturalKey(llvm::sys::path::filename(a)) <
           naturalKey(llvm::sys::path::filename(b));
  });
  return entries;
}

/// The first of `DIR/input_K` and `DIR/NAME` with `.pb` or `.npy` that
/// exists, or "".
static std::string findInputFile(StringRef dir, unsigned index,
                                 StringRef name) {
  for (std::string stem : {"input_" + std::to_string(index), name.str()}) {
    for (StringRef ext : {".pb", ".npy"}) {
      SmallString<256> path(dir);
      llvm::sys::path::append(path, stem + ext);
      if (llvm::sys::fs::exists(path))
        return std::string(path);
    }
  }
  return "";
}

/// Reads the calibration samples in `dir`: numbered set directories
/// (`DIR/SET/input_K.pb|.npy` or `DIR/SET/NAME.pb|.npy`), else one file per
/// input (`DIR/NAME.npy|.pb` or `DIR/input_K.npy|.pb`) whose first dim
/// stacks the samples, each the model's batch (its static first dim, else
/// 1) long.
static LogicalResult loadSamples(RuntimeLibrary &rt, StringRef dir,
                                 int64_t maxSamples,
                                 std::vector<Sample> &samples,
                                 std::string &error) {
  const onnxc_model_desc &model = *rt.model;
  auto read = [&](const std::string &path) -> TensorPtr {
    TensorPtr t(rt.onnxc_tensor_read(path.c_str()), rt.onnxc_tensor_free);
    if (!t)
      error = rt.onnxc_last_error();
    return t;
  };
  if (!llvm::sys::fs::is_directory(dir)) {
    error = "the calibration directory '" + dir.str() + "' does not exist";
    return failure();
  }
  std::vector<std::string> sets = listDirectory(dir, /*dirs=*/true);
  if (!sets.empty()) {
    for (const std::string &set : sets) {
      if (maxSamples > 0 && int64_t(samples.size()) >= maxSamples)
        break;
      Sample sample;
      for (int32_t k = 0; k < model.num_inputs; ++k) {
        std::string path = findInputFile(set, k, model.inputs[k].name);
        if (path.empty()) {
          error = "calibration set '" + set + "' has no input_" +
                  std::to_string(k) + ".pb, .npy or " + model.inputs[k].name +
                  ".pb, .npy";
          return failure();
        }
        TensorPtr t = read(path);
        if (!t)
          return failure();
        sample.push_back(std::move(t));
      }
      samples.push_back(std::move(sample));
    }
    return success();
  }
  // One file per input, the samples stacked along the first dim.
  std::vector<TensorPtr> stacks;
  int64_t count = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> batches;
  for (int32_t k = 0; k < model.num_inputs; ++k) {
    const onnxc_tensor_sig &sig = model.inputs[k];
    std::string path = findInputFile(dir, k, sig.name);
    if (path.empty()) {
      error = "calibration directory '" + dir.str() +
              "' has neither set "
              "directories nor a file for input '" +
              sig.name + "' (" + sig.name + ".npy, input_" + std::to_string(k) +
              ".npy or .pb)";
      return failure();
    }
    TensorPtr t = read(path);
    if (!t)
      return failure();
    int64_t batch = sig.rank > 0 && sig.dims[0] > 0 ? sig.dims[0] : 1;
    int32_t rank = rt.onnxc_tensor_rank(t.get());
    int64_t rows = rank > 0 ? rt.onnxc_tensor_dims(t.get())[0] : 0;
    if (rank != sig.rank || rank == 0 || rows % batch != 0) {
      error = "'" + path + "' does not stack samples of input '" + sig.name +
              "' along its first dim (rank " + std::to_string(rank) +
              ", the input's " + std::to_string(sig.rank) + ", batch " +
              std::to_string(batch) + ")";
      return failure();
    }
    count = std::min(count, rows / batch);
    batches.push_back(batch);
    stacks.push_back(std::move(t));
  }
  if (model.num_inputs == 0)
    count = 0;
  if (maxSamples > 0)
    count = std::min(count, maxSamples);
  for (int64_t s = 0; s < count; ++s) {
    Sample sample;
    for (auto [k, stack] : llvm::enumerate(stacks)) {
      int32_t rank = rt.onnxc_tensor_rank(stack.get());
      std::vector<int64_t> dims(rt.onnxc_tensor_dims(stack.get()),
                                rt.onnxc_tensor_dims(stack.get()) + rank);
      size_t rowBytes = rt.onnxc_tensor_nbytes(stack.get()) / dims[0];
      dims[0] = batches[k];
      TensorPtr t(rt.onnxc_tensor_create(rt.onnxc_tensor_dtype(stack.get()),
                                         rank, dims.data()),
                  rt.onnxc_tensor_free);
      if (!t) {
        error = rt.onnxc_last_error();
        return failure();
      }
      std::memcpy(rt.onnxc_tensor_data(t.get()),
                  static_cast<const char *>(rt.onnxc_tensor_data(stack.get())) +
                      s * batches[k] * rowBytes,
                  batches[k] * rowBytes);
      sample.push_back(std::move(t));
    }
    samples.push_back(std::move(sample));
  }
  return success();
}

/// What calibration learns of one activation.
struct TensorStats {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  std::vector<uint64_t> histogram;
};

/// The bins of the percentile histogram, ONNX Runtime's default.
constexpr int64_t kHistogramBins = 2048;

/// Adds `n` floats to `stats`: the range in the first pass, the histogram
/// over it in the second.
static void accumulate(TensorStats &stats, const float *data, int64_t n,
                       bool histogram) {
  if (!histogram) {
    for (int64_t i = 0; i < n; ++i) {
      if (std::isnan(data[i]))
        continue;
      stats.lo = std::min<double>(stats.lo, data[i]);
      stats.hi = std::max<double>(stats.hi, data[i]);
    }
    return;
  }
  if (stats.histogram.empty())
    stats.histogram.assign(kHistogramBins, 0);
  double width = (stats.hi - stats.lo) / kHistogramBins;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(data[i]))
      continue;
    int64_t bin = width > 0 ? int64_t((data[i] - stats.lo) / width) : 0;
    ++stats.histogram[std::clamp<int64_t>(bin, 0, kHistogramBins - 1)];
  }
}

/// The range that keeps `percentile` percent of the histogram's values,
/// cutting half the rest from each tail (ONNX Runtime's percentile
/// calibration without symmetry).
static std::pair<double, double> percentileRange(const TensorStats &stats,
                                                 double percentile) {
  uint64_t total = 0;
  for (uint64_t c : stats.histogram)
    total += c;
  if (total == 0 || !(stats.hi > stats.lo))
    return {stats.lo, stats.hi};
  double cut = (100.0 - percentile) / 200.0 * double(total);
  double width = (stats.hi - stats.lo) / kHistogramBins;
  int64_t left = 0, right = kHistogramBins - 1;
  for (uint64_t seen = 0; left < kHistogramBins; ++left) {
    seen += stats.histogram[left];
    if (double(seen) > cut)
      break;
  }
  for (uint64_t seen = 0; right >= 0; --right) {
    seen += stats.histogram[right];
    if (double(seen) > cut)
      break;
  }
  double lo = stats.lo + left * width, hi = stats.lo + (right + 1) * width;
  return {std::max(lo, stats.lo), std::min(hi, stats.hi)};
}

/// A copy of `module` whose main graph also returns `values` (mapped into
/// the copy), after its own outputs, named `onnxc_calibration_N`.
static OwningOpRef<ModuleOp> instrument(ModuleOp module,
                                        ArrayRef<Value> values) {
  IRMapping mapping;
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone(mapping));
  auto func = copy->lookupSymbol<func::FuncOp>(kMainGraphName);
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  SmallVector<Value> operands(ret.getOperands());
  SmallVector<Attribute> resultAttrs;
  for (unsigned i = 0; i < operands.size(); ++i)
    resultAttrs.push_back(func.getResultAttrDict(i)
                              ? Attribute(func.getResultAttrDict(i))
                              : DictionaryAttr::get(module.getContext()));
  Builder builder(module.getContext());
  for (auto [i, value] : llvm::enumerate(values)) {
    operands.push_back(mapping.lookup(value));
    resultAttrs.push_back(builder.getDictionaryAttr(builder.getNamedAttr(
        "onnx.name",
        builder.getStringAttr("onnxc_calibration_" + std::to_string(i)))));
  }
  ret->setOperands(operands);
  func.setType(FunctionType::get(module.getContext(), func.getArgumentTypes(),
                                 ValueRange(operands).getTypes()));
  func.setAllResultAttrs(resultAttrs);
  return copy;
}

} // namespace

LogicalResult calibrateModel(ModuleOp module, const QuantizeOptions &options,
                             unsigned optLevel) {
  auto fail = [&](const Twine &message) {
    emitError(module.getLoc()) << "calibration: " << message;
    return failure();
  };
  auto func = module.lookupSymbol<func::FuncOp>(kMainGraphName);
  if (!func)
    return fail("the model has no main graph");
  SmallVector<Value> all = getQuantizableActivations(func);
  // Graph inputs are measured on the inputs themselves; the rest become
  // extra outputs of the instrumented copy.
  SmallVector<Value> computed;
  for (Value v : all)
    if (!isa<BlockArgument>(v))
      computed.push_back(v);

  ScratchDirectory scratch;
  if (std::error_code ec = scratch.create())
    return fail("cannot create a temporary directory: " + ec.message());
  OwningOpRef<ModuleOp> copy = instrument(module, computed);
  std::string onnxPath = scratch.file("calibration.onnx");
  if (failed(exportONNXModel(*copy, onnxPath)))
    return failure();
  copy = nullptr;
  CompileOptions compile;
  compile.input = onnxPath;
  compile.output = scratch.file("calibration.so");
  compile.emit = EmitKind::Lib;
  compile.libraryName = "calibration";
  compile.target.optLevel = optLevel;
  if (failed(compileModel(compile, *module.getContext())))
    return fail("cannot compile the instrumented model");

  RuntimeLibrary rt;
  std::string error;
  if (failed(rt.open(compile.output, "calibration_model", error)))
    return fail(error);
  const onnxc_model_desc &model = *rt.model;
  int32_t firstExtra = model.num_outputs - int32_t(computed.size());
  if (firstExtra < 0)
    return fail("the instrumented model lost outputs");
  std::vector<Sample> samples;
  if (failed(loadSamples(rt, options.calibrationDir, options.maxSamples,
                         samples, error)))
    return fail(error);
  if (samples.empty())
    return fail("no samples in '" + options.calibrationDir + "'");

  std::unique_ptr<onnxc_session, void (*)(onnxc_session *)> session(
      rt.onnxc_session_create(rt.model, options.threads),
      rt.onnxc_session_free);
  if (!session)
    return fail(rt.onnxc_last_error());
  std::vector<TensorStats> stats(all.size());
  bool percentile = options.method == CalibrationMethod::Percentile;
  std::vector<onnxc_tensor *> outputs(model.num_outputs);
  for (int pass = 0; pass < (percentile ? 2 : 1); ++pass) {
    for (auto [s, sample] : llvm::enumerate(samples)) {
      std::vector<onnxc_tensor *> inputs;
      for (TensorPtr &t : sample)
        inputs.push_back(t.get());
      if (rt.onnxc_session_run(session.get(), inputs.data(),
                               int32_t(inputs.size()),
                               outputs.data()) != ONNXC_OK)
        return fail("sample " + Twine(s) + ": " + rt.onnxc_last_error());
      std::vector<TensorPtr> owned;
      for (onnxc_tensor *t : outputs)
        owned.emplace_back(t, rt.onnxc_tensor_free);
      int64_t next = firstExtra;
      for (auto [i, value] : llvm::enumerate(all)) {
        onnxc_tensor *t =
            isa<BlockArgument>(value)
                ? inputs[cast<BlockArgument>(value).getArgNumber()]
                : outputs[next++];
        if (rt.onnxc_tensor_dtype(t) != ONNXC_DTYPE_FLOAT)
          continue;
        accumulate(stats[i],
                   static_cast<const float *>(rt.onnxc_tensor_data(t)),
                   rt.onnxc_tensor_numel(t), /*histogram=*/pass == 1);
      }
    }
  }
  for (auto [value, s] : llvm::zip_equal(all, stats)) {
    if (!(s.lo <= s.hi))
      continue;
    auto [lo, hi] = percentile ? percentileRange(s, options.percentile)
                               : std::make_pair(s.lo, s.hi);
    setActivationRange(value, lo, hi);
  }
  return success();
}

LogicalResult quantizeModel(ModuleOp module, const QuantizeOptions &options,
                            unsigned optLevel) {
  switch (options.mode) {
  case QuantizeMode::None:
    return success();
  case QuantizeMode::Dynamic:
    quantizeDynamic(module, options.perChannel);
    return success();
  case QuantizeMode::Static:
    if (failed(calibrateModel(module, options, optLevel)))
      return failure();
    quantizeQDQ(module, options.int8Activations, options.perChannel);
    return success();
  }
  llvm_unreachable("unknown quantization mode");
}

} // namespace onnxc
