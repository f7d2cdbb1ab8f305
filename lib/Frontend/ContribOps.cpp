//===- ContribOps.cpp - ONNX Runtime's contrib ops imported as onnx ops ---===//
//
// The com.microsoft ops (opset 1) that ONNX Runtime's transformer optimizer,
// Hugging Face Optimum and ORT GenAI's model builder write, and ORT's
// SimplifiedLayerNormalization of the default domain, each built from onnx
// ops the way OpExpansions.cpp builds function bodies, with the semantics of
// ORT's CPU kernels: the GELU family, the skip and simplified layer
// normalizations, FusedMatMul and RotaryEmbedding. Normalization statistics
// are computed in float for float16 and bfloat16 inputs, as ORT does.
//
//===----------------------------------------------------------------------===//

#include "lib/Frontend/Expansion.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "dialects/ONNX/IR/ShapeHelpers.h"

#include <cmath>

using namespace mlir;

namespace onnxc::frontend {

namespace {
constexpr int64_t kFloat = ::onnx::TensorProto::FLOAT;

/// The ONNX data type that statistics of `element` are computed in: float
/// for the half-width floats, the type itself otherwise.
int64_t statsDType(int64_t dtype) {
  return dtype == ::onnx::TensorProto::FLOAT16 ||
                 dtype == ::onnx::TensorProto::BFLOAT16
             ? kFloat
             : dtype;
}

/// The float input `i` (required) and its ONNX data type; null after
/// reporting a missing or non-float input.
Value floatInput(NodeContext &node, unsigned i, StringRef what,
                 std::optional<int64_t> &dtype, std::string &error) {
  Value value = optionalInput(node, i);
  dtype =
      value ? floatDType(getElementTypeOrSelf(value.getType())) : std::nullopt;
  if (!dtype) {
    error = "needs a floating-point " + what.str();
    return {};
  }
  return value;
}

/// x / 2 * (1 + erf(x / sqrt(2))), in x's type.
Value geluErf(Expansion &e, Value x, Type element) {
  Value half = e.op("Mul", {x, e.scalar(element, 0.5)});
  Value erf = e.op("Erf", e.op("Mul", {x, e.scalar(element, M_SQRT1_2)}));
  return e.op("Mul", {half, e.op("Add", {erf, e.scalar(element, 1.0)})});
}

/// x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))), in x's type.
Value geluTanh(Expansion &e, Value x, Type element) {
  Value cube = e.op("Mul", {e.op("Mul", {x, x}), x});
  Value inner =
      e.op("Add", {x, e.op("Mul", {cube, e.scalar(element, 0.044715)})});
  Value tanh = e.op(
      "Tanh", e.op("Mul", {inner, e.scalar(element, std::sqrt(2.0 / M_PI))}));
  Value half = e.op("Mul", {x, e.scalar(element, 0.5)});
  return e.op("Mul", {half, e.op("Add", {tanh, e.scalar(element, 1.0)})});
}

/// The normalization of `x` over its last axis, in `x`'s type: with
/// `centered`, (x - mean) / sqrt(var + epsilon) (layer normalization), else
/// x / sqrt(mean(x^2) + epsilon) (RMS). Also gives the mean (centered only)
/// and 1 / sqrt(...) with the last dim kept.
struct Normalized {
  Value y, mean, invStdDev;
};
Normalized normalizeLastAxis(Expansion &e, NodeContext &node, Value x,
                             double epsilon, bool centered, Type element) {
  Value lastAxis = node.i64Constant({-1});
  NamedAttribute keep = e.attr("keepdims", 1);
  Normalized n;
  Value deviation = x;
  if (centered) {
    n.mean = e.op("ReduceMean", {x, lastAxis}, {keep});
    deviation = e.op("Sub", {x, n.mean});
  }
  Value variance = e.op(
      "ReduceMean", {e.op("Mul", {deviation, deviation}), lastAxis}, {keep});
  n.invStdDev =
      e.op("Reciprocal",
           e.op("Sqrt", e.op("Add", {variance, e.scalar(element, epsilon)})));
  n.y = e.op("Mul", {deviation, n.invStdDev});
  return n;
}
} // namespace

/// com.microsoft Gelu: x / 2 * (1 + erf(x / sqrt(2))).
FailureOr<SmallVector<Value>> importContribGelu(NodeContext &node,
                                                std::string &error) {
  std::optional<int64_t> dtype;
  Value x = floatInput(node, 0, "input", dtype, error);
  if (!x || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Expansion e(node, error);
  Value y = geluErf(e, x, getElementTypeOrSelf(x.getType()));
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// com.microsoft BiasGelu: Gelu(A + B), B broadcast along the last axis.
FailureOr<SmallVector<Value>> importBiasGelu(NodeContext &node,
                                             std::string &error) {
  std::optional<int64_t> dtype, biasDType;
  Value a = floatInput(node, 0, "input A", dtype, error);
  Value bias = a ? floatInput(node, 1, "bias B", biasDType, error) : Value();
  if (!bias || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Expansion e(node, error);
  Value y =
      geluErf(e, e.op("Add", {a, bias}), getElementTypeOrSelf(a.getType()));
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// com.microsoft FastGelu: the tanh approximation of Gelu(X + bias), bias
/// optional.
FailureOr<SmallVector<Value>> importFastGelu(NodeContext &node,
                                             std::string &error) {
  std::optional<int64_t> dtype;
  Value x = floatInput(node, 0, "input X", dtype, error);
  if (!x || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value bias = optionalInput(node, 1);
  Expansion e(node, error);
  Value y = geluTanh(e, bias ? e.op("Add", {x, bias}) : x,
                     getElementTypeOrSelf(x.getType()));
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// com.microsoft QuickGelu: x * Sigmoid(alpha * x), alpha 1.702 by default.
FailureOr<SmallVector<Value>> importQuickGelu(NodeContext &node,
                                              std::string &error) {
  std::optional<double> alpha = floatAttr(node, "alpha", 1.702, error);
  std::optional<int64_t> dtype;
  Value x = alpha ? floatInput(node, 0, "input X", dtype, error) : Value();
  if (!x || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Expansion e(node, error);
  Type element = getElementTypeOrSelf(x.getType());
  Value y = e.op(
      "Mul", {x, e.op("Sigmoid", e.op("Mul", {x, e.scalar(element, *alpha)}))});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

namespace {
/// SkipLayerNormalization and SkipSimplifiedLayerNormalization:
/// sum = input + skip (+ bias); output = normalized(sum) * gamma (+ beta);
/// outputs output, mean, inv_std_var (statistics in float for half-width
/// inputs) and input_skip_bias_sum. The simplified form is RMS normalization
/// and has no beta (its input 3 is the bias).
FailureOr<SmallVector<Value>> importSkipNormalization(NodeContext &node,
                                                      bool simplified,
                                                      std::string &error) {
  std::optional<double> epsilon = floatAttr(node, "epsilon", 1e-12, error);
  std::optional<int64_t> dtype, skipDType, gammaDType;
  Value input = epsilon ? floatInput(node, 0, "input", dtype, error) : Value();
  Value skip = input ? floatInput(node, 1, "skip", skipDType, error) : Value();
  Value gamma =
      skip ? floatInput(node, 2, "gamma", gammaDType, error) : Value();
  if (!gamma || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value beta = simplified ? Value() : optionalInput(node, 3);
  Value bias = optionalInput(node, simplified ? 3 : 4);
  Expansion e(node, error);
  Value sum = e.op("Add", {input, skip});
  if (bias)
    sum = e.op("Add", {sum, bias});
  int64_t stats = statsDType(*dtype);
  Type statsElement = onnx::getElementType(node.builder.getContext(), stats);
  Normalized n = normalizeLastAxis(e, node, e.castTo(sum, stats), *epsilon,
                                   /*centered=*/!simplified, statsElement);
  Value output = e.op("Mul", {e.castTo(n.y, *dtype), gamma});
  if (beta)
    output = e.op("Add", {output, beta});
  Value mean = n.mean ? n.mean : node.noValue();
  if (!e.ok())
    return failure();
  return SmallVector<Value>{output, mean, n.invStdDev, sum};
}
} // namespace

/// com.microsoft SkipLayerNormalization (inputs input, skip, gamma, beta,
/// bias; attribute epsilon, 1e-12 by default).
FailureOr<SmallVector<Value>> importSkipLayerNormalization(NodeContext &node,
                                                           std::string &error) {
  return importSkipNormalization(node, /*simplified=*/false, error);
}

/// com.microsoft SkipSimplifiedLayerNormalization (inputs input, skip,
/// gamma, bias).
FailureOr<SmallVector<Value>>
importSkipSimplifiedLayerNormalization(NodeContext &node, std::string &error) {
  return importSkipNormalization(node, /*simplified=*/true, error);
}

/// SimplifiedLayerNormalization (ORT's, in the default domain at opset 1):
/// Y = X / sqrt(mean(X^2) + epsilon) * scale over the dims from `axis` on,
/// computed in `stash_type` (float by default); outputs Y and inv_std_var.
FailureOr<SmallVector<Value>>
importSimplifiedLayerNormalization(NodeContext &node, std::string &error) {
  std::optional<int64_t> axis = intAttr(node, "axis", -1, error);
  std::optional<double> epsilon = floatAttr(node, "epsilon", 1e-5, error);
  std::optional<int64_t> stashType = intAttr(node, "stash_type", kFloat, error);
  std::optional<int64_t> dtype, scaleDType;
  Value x = axis && epsilon && stashType
                ? floatInput(node, 0, "input X", dtype, error)
                : Value();
  Value scale = x ? floatInput(node, 1, "scale", scaleDType, error) : Value();
  if (!scale || failed(checkNoOtherAttributes(node, error)))
    return failure();
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType) {
    error = "needs an input X of known rank";
    return failure();
  }
  std::optional<int64_t> first = onnx::normalizeAxis(*axis, xType.getRank());
  Type stash = onnx::getElementType(node.builder.getContext(), *stashType);
  if (!first || !isa_and_nonnull<FloatType>(stash)) {
    error = first ? "has unsupported stash_type " + std::to_string(*stashType)
                  : "has 'axis' " + std::to_string(*axis) +
                        " out of range for rank " +
                        std::to_string(xType.getRank());
    return failure();
  }
  Expansion e(node, error);
  Value wide = e.castTo(x, *stashType);
  Value axes = node.i64Constant(
      llvm::to_vector(llvm::seq<int64_t>(*first, xType.getRank())));
  Value meanSquare = e.op("ReduceMean", {e.op("Mul", {wide, wide}), axes},
                          {e.attr("keepdims", 1)});
  Value invStdDev =
      e.op("Reciprocal",
           e.op("Sqrt", e.op("Add", {meanSquare, e.scalar(stash, *epsilon)})));
  Value y =
      e.op("Mul", {e.castTo(e.op("Mul", {wide, invStdDev}), *dtype), scale});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y, invStdDev};
}

/// com.microsoft FusedMatMul: alpha * op(A) op(B), op transposing the last
/// two dims where transA / transB say. transBatchA / transBatchB (the batch
/// dims moved behind the matrix dims) are refused.
FailureOr<SmallVector<Value>> importFusedMatMul(NodeContext &node,
                                                std::string &error) {
  std::optional<double> alpha = floatAttr(node, "alpha", 1.0, error);
  std::optional<int64_t> transA = intAttr(node, "transA", 0, error);
  std::optional<int64_t> transB = intAttr(node, "transB", 0, error);
  std::optional<int64_t> batchA = intAttr(node, "transBatchA", 0, error);
  std::optional<int64_t> batchB = intAttr(node, "transBatchB", 0, error);
  if (!alpha || !transA || !transB || !batchA || !batchB ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (*batchA || *batchB) {
    error = "has transBatchA or transBatchB set (not supported)";
    return failure();
  }
  std::optional<int64_t> dtype, bDType;
  Value a = floatInput(node, 0, "input A", dtype, error);
  Value b = a ? floatInput(node, 1, "input B", bDType, error) : Value();
  if (!b)
    return failure();
  Expansion e(node, error);
  // The last two dims swapped, whatever the rank (at least 2).
  auto transposeLast = [&](Value x, StringRef name) -> Value {
    auto type = dyn_cast<RankedTensorType>(x.getType());
    if (!type || type.getRank() < 2) {
      error =
          "needs " + name.str() + " of known rank, at least 2, to transpose";
      return {};
    }
    auto perm = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    return e.transpose(x, perm);
  };
  if (*transA && !(a = transposeLast(a, "A")))
    return failure();
  if (*transB && !(b = transposeLast(b, "B")))
    return failure();
  Value y = e.op("MatMul", {a, b});
  if (*alpha != 1.0)
    y = e.op("Mul", {y, e.scalar(getElementTypeOrSelf(y.getType()), *alpha)});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// com.microsoft RotaryEmbedding: inputs input, position_ids, cos_cache,
/// sin_cache, as ONNX's RotaryEmbedding-23 (X, cos, sin, position_ids) with
/// the same attributes, except that position_ids of shape [1] is the first
/// position of every batch (positions offset + 0 .. sequence - 1). `scale`
/// must be 1 and `is_packed_batching` 0.
FailureOr<SmallVector<Value>> importContribRotaryEmbedding(NodeContext &node,
                                                           std::string &error) {
  std::optional<double> scale = floatAttr(node, "scale", 1.0, error);
  std::optional<int64_t> packed = intAttr(node, "is_packed_batching", 0, error);
  if (!scale || !packed)
    return failure();
  if (*scale != 1.0 || *packed) {
    error = *packed ? "has is_packed_batching set (not supported)"
                    : "has a 'scale' other than 1 (not supported)";
    return failure();
  }
  Value x = optionalInput(node, 0), positions = optionalInput(node, 1),
        cos = optionalInput(node, 2), sin = optionalInput(node, 3);
  auto positionsType =
      positions ? dyn_cast<RankedTensorType>(positions.getType()) : nullptr;
  auto xType = x ? dyn_cast<RankedTensorType>(x.getType()) : nullptr;
  if (!xType || !positionsType || !cos || !sin ||
      (positionsType.getRank() != 1 && positionsType.getRank() != 2)) {
    error = "needs input, position_ids of rank 1 or 2, cos_cache and "
            "sin_cache";
    return failure();
  }
  if (positionsType.getRank() == 1) {
    // [1] offset -> [1, sequence] positions.
    Expansion e(node, error);
    int64_t sequenceDim = xType.getRank() == 4 ? 2 : 1;
    Value offset =
        e.op("Reshape", {e.castTo(positions, ::onnx::TensorProto::INT64),
                         node.i64Constant({})});
    Value end = e.op("Add", {offset, e.dim(x, sequenceDim)});
    positions = e.op("Unsqueeze", {e.op("Range", {offset, end, e.index(1)}),
                                   node.i64Constant({0})});
    if (!e.ok())
      return failure();
  }
  // Without num_heads, a 3-D input's heads are the hidden size over the
  // head size that the caches imply (twice their last dim).
  auto cosType = dyn_cast<RankedTensorType>(cos.getType());
  bool hasHeads = llvm::any_of(node.attributes, [](NamedAttribute attr) {
    return attr.getName() == "num_heads";
  });
  if (!hasHeads && xType.getRank() == 3 && cosType && cosType.getRank() == 2 &&
      !xType.isDynamicDim(2) && !cosType.isDynamicDim(1) &&
      cosType.getDimSize(1) > 0 &&
      xType.getDimSize(2) % (2 * cosType.getDimSize(1)) == 0) {
    OpBuilder &b = node.builder;
    node.attributes.push_back(b.getNamedAttr(
        "num_heads", b.getI64IntegerAttr(xType.getDimSize(2) /
                                         (2 * cosType.getDimSize(1)))));
  }
  node.inputs = {x, cos, sin, positions};
  return importRotaryEmbedding(node, error);
}

} // namespace onnxc::frontend
