//===- ConstantFolding.cpp - The onnx-constant-folding pass ---------------===//
//
// Evaluates onnx ops whose inputs are all constants (elementwise math with
// broadcasting, casts, comparisons, shape and data movement, reductions) and
// the shape arithmetic that exporters emit (Shape -> Gather -> Unsqueeze ->
// Concat -> Reshape), alternating with shape inference until neither changes
// anything. A size cap keeps folding from growing the model: a result is
// folded only if it is small or no larger than the constants it reads.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ConstantTensor.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace onnxc {
#define GEN_PASS_DEF_ONNXCONSTANTFOLDINGPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// Results of at most this many elements are always foldable (shape
/// arithmetic, scalars, small tables).
constexpr int64_t kSmallElements = 1024;

using Inputs = ArrayRef<std::optional<ConstantTensor>>;

/// Row-major strides of `shape`.
static SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// For each element of `outShape`, the index of the element of `inShape`
/// that numpy broadcasting reads.
static std::vector<int64_t> broadcastMap(ArrayRef<int64_t> inShape,
                                         ArrayRef<int64_t> outShape) {
  int64_t rank = outShape.size(), offset = rank - inShape.size();
  SmallVector<int64_t> inStrides = stridesOf(inShape);
  SmallVector<int64_t> strides(rank, 0);
  for (int64_t d = 0; d < static_cast<int64_t>(inShape.size()); ++d)
    strides[d + offset] = inShape[d] == 1 ? 0 : inStrides[d];
  int64_t total = 1;
  for (int64_t d : outShape)
    total *= d;
  std::vector<int64_t> map(total, 0);
  SmallVector<int64_t> index(rank, 0);
  int64_t in = 0;
  for (int64_t i = 0; i < total; ++i) {
    map[i] = in;
    // Increment the multi-index, keeping `in` in step.
    for (int64_t d = rank - 1; d >= 0; --d) {
      ++index[d];
      in += strides[d];
      if (index[d] < outShape[d])
        break;
      in -= strides[d] * index[d];
      index[d] = 0;
    }
  }
  return map;
}

/// True when every shape broadcasts to `outShape` (numpy rules).
static bool broadcastsTo(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
  if (in.size() > out.size())
    return false;
  int64_t offset = out.size() - in.size();
  for (auto [i, d] : llvm::enumerate(in))
    if (d != 1 && d != out[i + offset])
      return false;
  return true;
}

/// Elementwise evaluation over broadcast inputs: `fn` maps one element of
/// each input (as doubles, or as integers when the first input is not a
/// float) to the result element.
static std::optional<ConstantTensor>
mapElements(ArrayRef<const ConstantTensor *> ins, RankedTensorType resultType,
            function_ref<std::optional<double>(ArrayRef<double>)> floatFn,
            function_ref<std::optional<int64_t>(ArrayRef<int64_t>)> intFn) {
  for (const ConstantTensor *in : ins)
    if (!broadcastsTo(in->shape(), resultType.getShape()))
      return std::nullopt;
  SmallVector<std::vector<int64_t>> maps;
  for (const ConstantTensor *in : ins)
    maps.push_back(broadcastMap(in->shape(), resultType.getShape()));
  ConstantTensor out = ConstantTensor::zeros(resultType);
  bool floatDomain = ins.front()->isFloat();
  if (floatDomain ? !floatFn : !intFn)
    return std::nullopt;
  SmallVector<double> fargs(ins.size());
  SmallVector<int64_t> iargs(ins.size());
  for (int64_t i = 0, e = out.size(); i < e; ++i) {
    double value;
    if (floatDomain) {
      for (auto [k, in] : llvm::enumerate(ins))
        fargs[k] = in->getDouble(maps[k][i]);
      std::optional<double> v = floatFn(fargs);
      if (!v)
        return std::nullopt;
      value = *v;
      if (out.isFloat())
        out.floats[i] = value;
      else
        out.ints[i] = static_cast<int64_t>(value);
      continue;
    }
    for (auto [k, in] : llvm::enumerate(ins))
      iargs[k] = in->getInt(maps[k][i]);
    std::optional<int64_t> v = intFn(iargs);
    if (!v)
      return std::nullopt;
    if (out.isFloat())
      out.floats[i] = static_cast<double>(*v);
    else
      out.ints[i] = *v;
  }
  return out;
}

/// A copy of `in`'s elements with the type `type` (pure shape changes).
static std::optional<ConstantTensor> withType(const ConstantTensor &in,
                                              RankedTensorType type) {
  if (in.size() != type.getNumElements() ||
      in.type.getElementType() != type.getElementType())
    return std::nullopt;
  ConstantTensor out = in;
  out.type = type;
  return out;
}

/// Gathers `out[i] = in[index(i)]` for a result of `type`.
static ConstantTensor gatherElements(const ConstantTensor &in,
                                     RankedTensorType type,
                                     function_ref<int64_t(int64_t)> index) {
  ConstantTensor out = ConstantTensor::zeros(type);
  for (int64_t i = 0, e = out.size(); i < e; ++i) {
    int64_t j = index(i);
    if (in.isFloat())
      out.floats[i] = in.floats[j];
    else
      out.ints[i] = in.ints[j];
  }
  return out;
}

/// The multi-index of linear index `i` in a shape with `strides`.
static void unravel(int64_t i, ArrayRef<int64_t> strides,
                    SmallVectorImpl<int64_t> &index) {
  index.resize(strides.size());
  for (auto [d, s] : llvm::enumerate(strides)) {
    index[d] = i / s;
    i %= s;
  }
}

static std::optional<ConstantTensor>
evalTranspose(TransposeOp op, const ConstantTensor &in, RankedTensorType type) {
  int64_t rank = in.type.getRank();
  SmallVector<int64_t> perm;
  if (auto p = op.getPerm())
    perm.assign(p->begin(), p->end());
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  if (static_cast<int64_t>(perm.size()) != rank)
    return std::nullopt;
  SmallVector<int64_t> inStrides = stridesOf(in.shape());
  SmallVector<int64_t> outStrides = stridesOf(type.getShape()), index;
  return gatherElements(in, type, [&](int64_t i) {
    unravel(i, outStrides, index);
    int64_t j = 0;
    for (int64_t d = 0; d < rank; ++d)
      j += index[d] * inStrides[perm[d]];
    return j;
  });
}

static std::optional<ConstantTensor> evalConcat(ConcatOp op, Inputs ins,
                                                RankedTensorType type) {
  int64_t rank = type.getRank();
  auto axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
  if (!axis)
    return std::nullopt;
  ConstantTensor out = ConstantTensor::zeros(type);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < *axis; ++d)
    outer *= type.getDimSize(d);
  for (int64_t d = *axis + 1; d < rank; ++d)
    inner *= type.getDimSize(d);
  int64_t offset = 0, outRow = type.getDimSize(*axis) * inner;
  for (const auto &in : ins) {
    if (in->type.getRank() != rank)
      return std::nullopt;
    int64_t row = in->type.getDimSize(*axis) * inner;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < row; ++k) {
        int64_t src = o * row + k, dst = o * outRow + offset + k;
        if (out.isFloat())
          out.floats[dst] = in->floats[src];
        else
          out.ints[dst] = in->ints[src];
      }
    offset += row;
  }
  if (offset != outRow)
    return std::nullopt;
  return out;
}

static std::optional<ConstantTensor> evalGather(GatherOp op,
                                                const ConstantTensor &data,
                                                const ConstantTensor &indices,
                                                RankedTensorType type) {
  int64_t rank = data.type.getRank();
  auto axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
  if (!axis)
    return std::nullopt;
  int64_t outer = 1, inner = 1, dim = data.type.getDimSize(*axis);
  for (int64_t d = 0; d < *axis; ++d)
    outer *= data.type.getDimSize(d);
  for (int64_t d = *axis + 1; d < rank; ++d)
    inner *= data.type.getDimSize(d);
  int64_t count = indices.size();
  if (outer * count * inner != type.getNumElements())
    return std::nullopt;
  for (int64_t k = 0; k < count; ++k) {
    int64_t idx = indices.ints[k];
    if (idx < -dim || idx >= dim)
      return std::nullopt;
  }
  return gatherElements(data, type, [&](int64_t i) {
    int64_t o = i / (count * inner), k = (i / inner) % count, n = i % inner;
    int64_t idx = indices.ints[k];
    if (idx < 0)
      idx += dim;
    return (o * dim + idx) * inner + n;
  });
}

static std::optional<ConstantTensor>
evalSlice(SliceOp op, const ConstantTensor &data, RankedTensorType type) {
  int64_t rank = data.type.getRank();
  auto params = getConstantSliceParams(op.getStarts(), op.getEnds(),
                                       op.getAxes(), op.getSteps(), rank);
  if (!params)
    return std::nullopt;
  SmallVector<int64_t> first(rank, 0), step(rank, 1), shape(data.shape());
  for (auto [i, axis] : llvm::enumerate(params->axes)) {
    if (params->steps[i] == 0)
      return std::nullopt;
    auto [begin, count] =
        resolveSlice(data.type.getDimSize(axis), params->starts[i],
                     params->ends[i], params->steps[i]);
    first[axis] = begin;
    step[axis] = params->steps[i];
    shape[axis] = count;
  }
  if (ArrayRef<int64_t>(shape) != type.getShape())
    return std::nullopt;
  SmallVector<int64_t> inStrides = stridesOf(data.shape());
  SmallVector<int64_t> outStrides = stridesOf(shape), index;
  return gatherElements(data, type, [&](int64_t i) {
    unravel(i, outStrides, index);
    int64_t j = 0;
    for (int64_t d = 0; d < rank; ++d)
      j += (first[d] + index[d] * step[d]) * inStrides[d];
    return j;
  });
}

/// ReduceSum/Mean/Prod/Max/Min over constant axes.
template <typename ReduceOpT>
static std::optional<ConstantTensor>
evalReduce(ReduceOpT op, const ConstantTensor &data, RankedTensorType type,
           double init, function_ref<double(double, double)> combine,
           bool mean) {
  int64_t rank = data.type.getRank();
  SmallVector<int64_t> axes;
  if (!isNoValue(op.getAxes())) {
    auto a = getNormalizedAxes(op.getAxes(), rank);
    if (!a)
      return std::nullopt;
    axes = *a;
  }
  if (axes.empty()) {
    if (op.getNoopWithEmptyAxes() != 0)
      return withType(data, type);
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  // The kept-dims shape of the result, and where each input element lands.
  SmallVector<int64_t> keptShape(data.shape());
  for (int64_t a : axes)
    keptShape[a] = 1;
  int64_t outSize = 1;
  for (int64_t d : keptShape)
    outSize *= d;
  if (outSize != type.getNumElements() || data.size() == 0)
    return std::nullopt;
  SmallVector<int64_t> inStrides = stridesOf(data.shape());
  SmallVector<int64_t> outStrides = stridesOf(keptShape), index;
  std::vector<double> acc(outSize, init);
  for (int64_t i = 0, e = data.size(); i < e; ++i) {
    unravel(i, inStrides, index);
    int64_t j = 0;
    for (int64_t d = 0; d < rank; ++d)
      j += (keptShape[d] == 1 ? 0 : index[d]) * outStrides[d];
    acc[j] = combine(acc[j], data.getDouble(i));
  }
  ConstantTensor out = ConstantTensor::zeros(type);
  int64_t count = data.size() / outSize;
  for (int64_t j = 0; j < outSize; ++j) {
    double v = mean ? acc[j] / count : acc[j];
    if (out.isFloat())
      out.floats[j] = v;
    else
      out.ints[j] = static_cast<int64_t>(v);
  }
  return out;
}

/// A unary elementwise function of op `op` on floats, if it has one.
static std::function<double(double)> floatUnary(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::function<double(double)>>(op)
      .Case([](NegOp) { return [](double x) { return -x; }; })
      .Case([](AbsOp) { return [](double x) { return std::fabs(x); }; })
      .Case([](SqrtOp) { return [](double x) { return std::sqrt(x); }; })
      .Case([](ExpOp) { return [](double x) { return std::exp(x); }; })
      .Case([](LogOp) { return [](double x) { return std::log(x); }; })
      .Case([](TanhOp) { return [](double x) { return std::tanh(x); }; })
      .Case([](ErfOp) { return [](double x) { return std::erf(x); }; })
      .Case([](SinOp) { return [](double x) { return std::sin(x); }; })
      .Case([](CosOp) { return [](double x) { return std::cos(x); }; })
      .Case([](FloorOp) { return [](double x) { return std::floor(x); }; })
      .Case([](CeilOp) { return [](double x) { return std::ceil(x); }; })
      .Case([](RoundOp) { return [](double x) { return std::nearbyint(x); }; })
      .Case([](ReciprocalOp) { return [](double x) { return 1.0 / x; }; })
      .Case([](ReluOp) { return [](double x) { return x > 0 ? x : 0.0; }; })
      .Case([](SigmoidOp) {
        return [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
      })
      .Default([](Operation *) { return nullptr; });
}

/// Evaluates `op` on constant inputs (nullopt for absent optional inputs)
/// into a result of `type`; nullopt when the op or its form is not handled.
static std::optional<ConstantTensor> evaluate(Operation *op, Inputs ins,
                                              RankedTensorType type) {
  auto all = [&](ArrayRef<std::optional<ConstantTensor>> values) {
    SmallVector<const ConstantTensor *> ptrs;
    for (const auto &v : values)
      if (v)
        ptrs.push_back(&*v);
    return ptrs;
  };
  auto binaryF = [&](auto fn) {
    return mapElements(
        all(ins), type,
        [&](ArrayRef<double> v) -> std::optional<double> {
          return fn(v[0], v[1]);
        },
        [&](ArrayRef<int64_t> v) -> std::optional<int64_t> {
          return static_cast<int64_t>(fn(double(v[0]), double(v[1])));
        });
  };
  auto compare = [&](auto fn) {
    return mapElements(
        all(ins), type,
        [&](ArrayRef<double> v) -> std::optional<double> {
          return fn(v[0], v[1]) ? 1 : 0;
        },
        [&](ArrayRef<int64_t> v) -> std::optional<int64_t> {
          return fn(v[0], v[1]) ? 1 : 0;
        });
  };
  auto integerOnly = [&](auto fn) {
    return mapElements(all(ins), type, nullptr,
                       [&](ArrayRef<int64_t> v) -> std::optional<int64_t> {
                         return fn(v[0], v[1]);
                       });
  };
  if (auto fn = floatUnary(op)) {
    if (ins.size() != 1 || !ins[0])
      return std::nullopt;
    if (!ins[0]->isFloat()) {
      // Integer Neg, Abs and Relu.
      if (!isa<NegOp, AbsOp, ReluOp>(op))
        return std::nullopt;
      return mapElements(all(ins), type, nullptr,
                         [&](ArrayRef<int64_t> v) -> std::optional<int64_t> {
                           return static_cast<int64_t>(fn(double(v[0])));
                         });
    }
    return mapElements(
        all(ins), type,
        [&](ArrayRef<double> v) -> std::optional<double> { return fn(v[0]); },
        nullptr);
  }
  return llvm::TypeSwitch<Operation *, std::optional<ConstantTensor>>(op)
      .Case([&](AddOp) {
        return mapElements(
            all(ins), type,
            [](ArrayRef<double> v) -> std::optional<double> {
              return v[0] + v[1];
            },
            [](ArrayRef<int64_t> v) -> std::optional<int64_t> {
              return v[0] + v[1];
            });
      })
      .Case([&](SubOp) {
        return mapElements(
            all(ins), type,
            [](ArrayRef<double> v) -> std::optional<double> {
              return v[0] - v[1];
            },
            [](ArrayRef<int64_t> v) -> std::optional<int64_t> {
              return v[0] - v[1];
            });
      })
      .Case([&](MulOp) {
        return mapElements(
            all(ins), type,
            [](ArrayRef<double> v) -> std::optional<double> {
              return v[0] * v[1];
            },
            [](ArrayRef<int64_t> v) -> std::optional<int64_t> {
              return v[0] * v[1];
            });
      })
      .Case([&](DivOp) {
        return mapElements(
            all(ins), type,
            [](ArrayRef<double> v) -> std::optional<double> {
              return v[0] / v[1];
            },
            [](ArrayRef<int64_t> v) -> std::optional<int64_t> {
              if (v[1] == 0)
                return std::nullopt;
              return v[0] / v[1];
            });
      })
      .Case([&](PowOp) {
        return binaryF([](double a, double b) { return std::pow(a, b); });
      })
      .Case([&](MaxOp) {
        return mapElements(
            all(ins), type,
            [](ArrayRef<double> v) -> std::optional<double> {
              return *std::max_element(v.begin(), v.end());
            },
            [](ArrayRef<int64_t> v) -> std::optional<int64_t> {
              return *std::max_element(v.begin(), v.end());
            });
      })
      .Case([&](MinOp) {
        return mapElements(
            all(ins), type,
            [](ArrayRef<double> v) -> std::optional<double> {
              return *std::min_element(v.begin(), v.end());
            },
            [](ArrayRef<int64_t> v) -> std::optional<int64_t> {
              return *std::min_element(v.begin(), v.end());
            });
      })
      .Case([&](EqualOp) {
        return compare([](auto a, auto b) { return a == b; });
      })
      .Case(
          [&](LessOp) { return compare([](auto a, auto b) { return a < b; }); })
      .Case([&](GreaterOp) {
        return compare([](auto a, auto b) { return a > b; });
      })
      .Case([&](LessOrEqualOp) {
        return compare([](auto a, auto b) { return a <= b; });
      })
      .Case([&](GreaterOrEqualOp) {
        return compare([](auto a, auto b) { return a >= b; });
      })
      .Case([&](AndOp) {
        return integerOnly(
            [](int64_t a, int64_t b) { return int64_t(a && b); });
      })
      .Case([&](OrOp) {
        return integerOnly(
            [](int64_t a, int64_t b) { return int64_t(a || b); });
      })
      .Case([&](XorOp) {
        return integerOnly(
            [](int64_t a, int64_t b) { return int64_t((a != 0) != (b != 0)); });
      })
      .Case([&](NotOp) {
        return mapElements(all(ins), type, nullptr,
                           [](ArrayRef<int64_t> v) -> std::optional<int64_t> {
                             return v[0] == 0;
                           });
      })
      .Case([&](WhereOp) -> std::optional<ConstantTensor> {
        // Evaluate in the domain of X: the condition is read as a number.
        SmallVector<const ConstantTensor *> order = {&*ins[1], &*ins[2],
                                                     &*ins[0]};
        return mapElements(
            order, type,
            [](ArrayRef<double> v) -> std::optional<double> {
              return v[2] != 0 ? v[0] : v[1];
            },
            [](ArrayRef<int64_t> v) -> std::optional<int64_t> {
              return v[2] != 0 ? v[0] : v[1];
            });
      })
      .Case([&](ClipOp) -> std::optional<ConstantTensor> {
        double lo = -INFINITY, hi = INFINITY;
        if (ins[1])
          lo = ins[1]->getDouble(0);
        if (ins[2])
          hi = ins[2]->getDouble(0);
        return mapElements(
            {&*ins[0]}, type,
            [&](ArrayRef<double> v) -> std::optional<double> {
              return std::min(std::max(v[0], lo), hi);
            },
            [&](ArrayRef<int64_t> v) -> std::optional<int64_t> {
              return static_cast<int64_t>(
                  std::min(std::max(double(v[0]), lo), hi));
            });
      })
      .Case([&](CastOp) -> std::optional<ConstantTensor> {
        const ConstantTensor &in = *ins[0];
        ConstantTensor out = ConstantTensor::zeros(type);
        Type to = type.getElementType();
        for (int64_t i = 0, e = in.size(); i < e; ++i) {
          if (out.isFloat())
            out.floats[i] = in.getDouble(i);
          else if (to.isInteger(1))
            out.ints[i] = in.getDouble(i) != 0;
          else if (in.isFloat()) {
            double v = std::trunc(in.floats[i]);
            if (!std::isfinite(v) || std::fabs(v) > 9.2e18)
              return std::nullopt;
            out.ints[i] = static_cast<int64_t>(v);
          } else
            out.ints[i] = in.ints[i];
        }
        return out;
      })
      .Case<IdentityOp, ReshapeOp, FlattenOp, SqueezeOp, UnsqueezeOp>(
          [&](Operation *) { return withType(*ins[0], type); })
      .Case([&](TransposeOp t) { return evalTranspose(t, *ins[0], type); })
      .Case([&](ConcatOp c) { return evalConcat(c, ins, type); })
      .Case([&](GatherOp g) -> std::optional<ConstantTensor> {
        if (ins[1]->isFloat())
          return std::nullopt;
        return evalGather(g, *ins[0], *ins[1], type);
      })
      .Case([&](SliceOp s) { return evalSlice(s, *ins[0], type); })
      .Case([&](ExpandOp) -> std::optional<ConstantTensor> {
        if (!broadcastsTo(ins[0]->shape(), type.getShape()))
          return std::nullopt;
        std::vector<int64_t> map =
            broadcastMap(ins[0]->shape(), type.getShape());
        return gatherElements(*ins[0], type, [&](int64_t i) { return map[i]; });
      })
      .Case([&](TileOp) -> std::optional<ConstantTensor> {
        const ConstantTensor &in = *ins[0];
        int64_t rank = in.type.getRank();
        SmallVector<int64_t> inStrides = stridesOf(in.shape());
        SmallVector<int64_t> outStrides = stridesOf(type.getShape()), index;
        if (type.getRank() != rank)
          return std::nullopt;
        return gatherElements(in, type, [&](int64_t i) {
          unravel(i, outStrides, index);
          int64_t j = 0;
          for (int64_t d = 0; d < rank; ++d)
            j += (index[d] % in.type.getDimSize(d)) * inStrides[d];
          return j;
        });
      })
      .Case([&](RangeOp) -> std::optional<ConstantTensor> {
        ConstantTensor out = ConstantTensor::zeros(type);
        double start = ins[0]->getDouble(0), delta = ins[2]->getDouble(0);
        for (int64_t i = 0, e = out.size(); i < e; ++i) {
          if (out.isFloat())
            out.floats[i] = start + i * delta;
          else
            out.ints[i] = ins[0]->getInt(0) + i * ins[2]->getInt(0);
        }
        return out;
      })
      .Case([&](ReduceSumOp r) {
        return evalReduce(
            r, *ins[0], type, 0.0, [](double a, double b) { return a + b; },
            false);
      })
      .Case([&](ReduceMeanOp r) {
        return evalReduce(
            r, *ins[0], type, 0.0, [](double a, double b) { return a + b; },
            true);
      })
      .Case([&](ReduceProdOp r) {
        return evalReduce(
            r, *ins[0], type, 1.0, [](double a, double b) { return a * b; },
            false);
      })
      .Case([&](ReduceMaxOp r) {
        return evalReduce(
            r, *ins[0], type, -INFINITY,
            [](double a, double b) { return std::max(a, b); }, false);
      })
      .Case([&](ReduceMinOp r) {
        return evalReduce(
            r, *ins[0], type, INFINITY,
            [](double a, double b) { return std::min(a, b); }, false);
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Folds an onnx op whose inputs are all constants into a constant.
struct FoldConstantInputs : public RewritePattern {
  FoldConstantInputs(MLIRContext *context, int64_t maxElements)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxElements(maxElements) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<ONNXDialect>(op->getDialect()) || op->getNumResults() != 1 ||
        isa<ConstantOp, NoValueOp>(op))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape() ||
        !isReadableElementType(type.getElementType()))
      return failure();
    // Elements of the constants that die with the op (read by it alone).
    int64_t freedElements = 0;
    for (Value operand : op->getOperands()) {
      if (isNoValue(operand))
        continue;
      std::optional<int64_t> size = constantSize(operand);
      if (!size)
        return failure();
      if (llvm::all_of(operand.getUsers(),
                       [&](Operation *user) { return user == op; }))
        freedElements += *size;
    }
    // The cap: never grow the model, never fold past maxElements.
    int64_t resultElements = type.getNumElements();
    if (resultElements > maxElements ||
        (resultElements > kSmallElements && resultElements > freedElements))
      return failure();
    SmallVector<std::optional<ConstantTensor>> inputs;
    for (Value operand : op->getOperands()) {
      if (isNoValue(operand)) {
        inputs.push_back(std::nullopt);
        continue;
      }
      inputs.push_back(readConstant(operand, maxElements));
      if (!inputs.back())
        return failure();
    }
    if (inputs.empty())
      return failure();
    std::optional<ConstantTensor> result = evaluate(op, inputs, type);
    if (!result)
      return failure();
    rewriter.replaceOp(op, createConstant(rewriter, op->getLoc(), *result));
    return success();
  }

  int64_t maxElements;
};

/// Gather and Slice of a Shape whose selected dims are static, while other
/// dims are not (a dynamic batch dim): the PyTorch shape subgraph's reads.
struct FoldPartialShape : public OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto shape = op.getData().getDefiningOp<ShapeOp>();
    auto indices = getConstantIntValues(op.getIndices());
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    if (!shape || !indices || !resultType || !resultType.hasStaticShape())
      return failure();
    auto inputType = dyn_cast<RankedTensorType>(shape.getData().getType());
    if (!inputType)
      return failure();
    int64_t rank = inputType.getRank();
    int64_t start = static_cast<int64_t>(shape.getStart());
    if (start < 0)
      start += rank;
    start = std::clamp<int64_t>(start, 0, rank);
    auto shapeType = cast<RankedTensorType>(shape.getType());
    if (shapeType.isDynamicDim(0))
      return failure();
    int64_t length = shapeType.getDimSize(0);
    SmallVector<int64_t> dims;
    for (int64_t i : *indices) {
      if (i < 0)
        i += length;
      if (i < 0 || i >= length || inputType.isDynamicDim(start + i))
        return failure();
      dims.push_back(inputType.getDimSize(start + i));
    }
    ConstantTensor t = ConstantTensor::zeros(resultType);
    if (t.isFloat() || t.size() != static_cast<int64_t>(dims.size()))
      return failure();
    t.ints.assign(dims.begin(), dims.end());
    rewriter.replaceOp(op, createConstant(rewriter, op.getLoc(), t));
    return success();
  }
};

/// An If whose condition is a constant (a shape test that folding decided,
/// as in torchvision's NMS: "squeeze dim 1 if it is 1") becomes the branch
/// it takes. Results whose type differs from the branch's yield (a join of
/// branches of different ranks) take the yield's type where an onnx op
/// reads them; other readers (a return) get it cast back.
struct InlineConstantIf : public OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr condition;
    if (!matchPattern(op.getCond(), m_Constant(&condition)) ||
        condition.getNumElements() != 1 ||
        !condition.getElementType().isInteger(1))
      return failure();
    bool taken = (*condition.getValues<APInt>().begin()).getBoolValue();
    Region &region = taken ? op.getThenBranch() : op.getElseBranch();
    Block &block = region.front();
    auto yield = cast<YieldOp>(block.getTerminator());
    SmallVector<Value> yielded(yield.getOutputs());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&block, op);
    for (auto [result, value] : llvm::zip(op.getResults(), yielded)) {
      if (result.getType() == value.getType()) {
        rewriter.replaceAllUsesWith(result, value);
        continue;
      }
      Value cast;
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        if (isa<ONNXDialect>(use.getOwner()->getDialect())) {
          rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(value); });
          continue;
        }
        if (!cast)
          cast = rewriter.create<tensor::CastOp>(op.getLoc(), result.getType(),
                                                 value);
        rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(cast); });
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The bytes of a dense resource constant, or an empty ref.
static ArrayRef<char> resourceBytes(ConstantOp constant) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue());
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  return blob ? blob->getData() : ArrayRef<char>();
}

/// Merges constants of one type and identical contents: folding the same
/// op of a shared weight twice (one Transpose per layer) makes two copies,
/// and CSE does not compare resources by contents. True if any merged.
static bool deduplicateConstants(func::FuncOp func) {
  DenseMap<std::pair<Type, llvm::hash_code>, SmallVector<ConstantOp>> seen;
  SmallVector<std::pair<ConstantOp, ConstantOp>> merges;
  for (auto constant : func.getBody().getOps<ConstantOp>()) {
    ArrayRef<char> bytes = resourceBytes(constant);
    if (bytes.empty())
      continue;
    auto key =
        std::make_pair(constant.getType(),
                       llvm::hash_combine_range(bytes.begin(), bytes.end()));
    auto &candidates = seen[key];
    auto same = llvm::find_if(candidates, [&](ConstantOp other) {
      return resourceBytes(other) == bytes;
    });
    if (same == candidates.end())
      candidates.push_back(constant);
    else
      merges.push_back({constant, *same});
  }
  for (auto [duplicate, kept] : merges) {
    // The kept constant dominates: both sit in the entry block, kept first.
    duplicate.getOutput().replaceAllUsesWith(kept.getOutput());
    duplicate.erase();
  }
  return !merges.empty();
}

struct ONNXConstantFoldingPass
    : public onnxc::impl::ONNXConstantFoldingPassBase<ONNXConstantFoldingPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateONNXConstantFoldingPatterns(set, maxElements);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    GreedyRewriteConfig config;
    config.useTopDownTraversal = true;
    // Folding exposes static shapes, which expose more folding.
    for (int i = 0; i < 16; ++i) {
      FailureOr<bool> refined = refineShapes(func);
      if (failed(refined))
        return signalPassFailure();
      bool changed = false;
      if (failed(
              applyPatternsAndFoldGreedily(func, patterns, config, &changed)))
        return signalPassFailure();
      changed |= deduplicateConstants(func);
      if (!changed && !*refined)
        return;
    }
  }

  FrozenRewritePatternSet patterns;
};

} // namespace

void onnxc::populateONNXConstantFoldingPatterns(RewritePatternSet &patterns,
                                                int64_t maxElements) {
  patterns.add<FoldConstantInputs>(patterns.getContext(), maxElements);
  patterns.add<FoldPartialShape, InlineConstantIf>(patterns.getContext());
}
