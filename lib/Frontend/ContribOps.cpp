//===- ContribOps.cpp - ONNX Runtime's contrib ops imported as onnx ops ---===//
//
// The com.microsoft ops (opset 1) that ONNX Runtime's transformer optimizer,
// Hugging Face Optimum and ORT GenAI's model builder write, and ORT's
// SimplifiedLayerNormalization of the default domain, each built from onnx
// ops the way OpExpansions.cpp builds function bodies, with the semantics of
// ORT's CPU kernels: the GELU family, the skip and simplified layer
// normalizations, FusedMatMul, RotaryEmbedding, GroupQueryAttention,
// MultiHeadAttention, Attention, EmbedLayerNormalization and MatMulNBits.
// Normalization statistics are computed in float for float16 and bfloat16
// inputs, as ORT does.
//
//===----------------------------------------------------------------------===//

#include "lib/Frontend/Expansion.h"

#include "dialects/Fused/IR/FusedOps.h"
#include "dialects/ONNX/IR/ONNXOps.h"
#include "dialects/ONNX/IR/ShapeHelpers.h"

#include <cmath>
#include <limits>

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

/// `x` [B, S, N x H] as [B, N, S, H], cast to the ONNX type `dtype`; H is
/// static in the result where N x H is.
Value splitHeads(Expansion &e, NodeContext &node, Value x, int64_t heads,
                 int64_t dtype) {
  // After an error of the expansion `x` may be null (its ops are no-ops).
  auto type = dyn_cast_or_null<RankedTensorType>(x ? x.getType() : Type());
  int64_t size = type && type.getRank() == 3 && !type.isDynamicDim(2) &&
                         type.getDimSize(2) % heads == 0
                     ? type.getDimSize(2) / heads
                     : -1;
  Value shaped = e.op(
      "Reshape", {e.castTo(x, dtype), node.i64Constant({0, 0, heads, size})});
  return e.transpose(shaped, {0, 2, 1, 3});
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

/// The normalization of `x` over the dims `axes` (a 1-D int64 tensor), in
/// `x`'s type: with `centered`, (x - mean) / sqrt(var + epsilon) (layer
/// normalization), else x / sqrt(mean(x^2) + epsilon) (RMS). Also gives the
/// mean (centered only) and 1 / sqrt(...) with the reduced dims kept.
struct Normalized {
  Value y, mean, invStdDev;
};
Normalized normalize(Expansion &e, Value x, Value axes, double epsilon,
                     bool centered, Type element) {
  NamedAttribute keep = e.attr("keepdims", 1);
  Normalized n;
  Value deviation = x;
  if (centered) {
    n.mean = e.op("ReduceMean", {x, axes}, {keep});
    deviation = e.op("Sub", {x, n.mean});
  }
  Value variance =
      e.op("ReduceMean", {e.op("Mul", {deviation, deviation}), axes}, {keep});
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
  if (simplified && node.node.output_size() > 1 &&
      !node.node.output(1).empty()) {
    error = "has a mean output, which RMS normalization does not compute";
    return failure();
  }
  Value beta = simplified ? Value() : optionalInput(node, 3);
  Value bias = optionalInput(node, simplified ? 3 : 4);
  Expansion e(node, error);
  Value sum = e.op("Add", {input, skip});
  if (bias)
    sum = e.op("Add", {sum, bias});
  int64_t stats = statsDType(*dtype);
  Type statsElement = onnx::getElementType(node.builder.getContext(), stats);
  Normalized n =
      normalize(e, e.castTo(sum, stats), node.i64Constant({-1}), *epsilon,
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
  Normalized n = normalize(e, wide, axes, *epsilon, /*centered=*/false, stash);
  Value y = e.op("Mul", {e.castTo(n.y, *dtype), scale});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y, n.invStdDev};
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

/// com.microsoft GroupQueryAttention, as ORT's CPU kernel computes it.
/// Inputs: query [B, S, Nq H] (or Q, K and V packed in it when key and value
/// are absent), key and value [B, S, Nkv H], past_key and past_value
/// [B, Nkv, P, H], seqlens_k [B] (each batch's total length - 1),
/// total_sequence_length (one int32), cos_cache and sin_cache.
/// Per batch b, total_b = seqlens_k[b] + 1 and the new tokens start at
/// past_b = total_b - S, or 0 in the first prompt (S equal to
/// total_sequence_length). Q and K are rotated at positions past_b + i
/// (do_rotary); present K and V have length T = max(total, P): past[0,
/// past_b) then the new tokens at past_b, zeros elsewhere. Query i sees the
/// keys j <= past_b + i (and, with local_window_size w > 0, the last w of
/// them: j > past_b + i - w); scores are scaled by `scale` (1/sqrt(H) by
/// default), capped by `softcap`, soft-maxed (with an extra zero logit for
/// smooth_softmax) and applied to V; Nq / Nkv query heads share each K/V head.
/// Float16 is computed in float.
FailureOr<SmallVector<Value>> importGroupQueryAttention(NodeContext &node,
                                                        std::string &error) {
  std::optional<int64_t> qHeads = intAttr(node, "num_heads", 0, error);
  std::optional<int64_t> kvHeads = intAttr(node, "kv_num_heads", 0, error);
  std::optional<double> scaleAttr = floatAttr(node, "scale", 0.0, error);
  std::optional<double> softcap = floatAttr(node, "softcap", 0.0, error);
  std::optional<int64_t> doRotary = intAttr(node, "do_rotary", 0, error);
  std::optional<int64_t> interleaved =
      intAttr(node, "rotary_interleaved", 0, error);
  std::optional<int64_t> smooth = intAttr(node, "smooth_softmax", 0, error);
  std::optional<int64_t> window = intAttr(node, "local_window_size", -1, error);
  std::optional<int64_t> qkOutput = intAttr(node, "qk_output", 0, error);
  // Read by ORT's GPU kernels only.
  std::optional<double> filter =
      floatAttr(node, "mask_filter_value", -10000.0, error);
  if (!qHeads || !kvHeads || !scaleAttr || !softcap || !doRotary ||
      !interleaved || !smooth || !window || !qkOutput || !filter ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (*qHeads <= 0 || *kvHeads <= 0 || *qHeads % *kvHeads != 0) {
    error = "needs num_heads and kv_num_heads, the first a positive multiple "
            "of the second";
    return failure();
  }
  if (*qkOutput != 0) {
    error = "has qk_output set (not supported)";
    return failure();
  }
  auto input = [&](unsigned i) { return optionalInput(node, i); };
  for (unsigned i = 9; i < node.inputs.size(); ++i)
    if (input(i)) {
      error = "has input " + std::to_string(i) +
              " (position_ids, attention_bias or head_sink: not supported)";
      return failure();
    }
  std::optional<int64_t> dtype;
  Value query = floatInput(node, 0, "query", dtype, error);
  Value key = input(1), value = input(2), pastKey = input(3),
        pastValue = input(4), seqlensK = input(5), totalLength = input(6),
        cosCache = input(7), sinCache = input(8);
  if (!query)
    return failure();
  auto queryType = dyn_cast<RankedTensorType>(query.getType());
  if (!queryType || queryType.getRank() != 3 || !seqlensK || !totalLength ||
      !key != !value || !pastKey != !pastValue ||
      (*doRotary && (!cosCache || !sinCache))) {
    error = "needs a 3-D query, key and value together (or neither: packed), "
            "past_key and past_value together, seqlens_k, "
            "total_sequence_length, and the caches for do_rotary";
    return failure();
  }
  int64_t rotaryDim = 0;
  if (*doRotary) {
    auto cosType = dyn_cast<RankedTensorType>(cosCache.getType());
    if (!cosType || cosType.getRank() != 2 || cosType.isDynamicDim(1)) {
      error = "needs a cos_cache of rank 2 and a static last dim";
      return failure();
    }
    rotaryDim = 2 * cosType.getDimSize(1);
  }
  constexpr int64_t kInt64 = ::onnx::TensorProto::INT64;
  int64_t wide = statsDType(*dtype);
  Type wideElement = onnx::getElementType(node.builder.getContext(), wide);
  int64_t group = *qHeads / *kvHeads;
  Expansion e(node, error);
  NamedAttribute axis0 = e.attr("axis", 0);
  // Q, K and V as [B, N, S, H], in the computing type.
  auto toHeads = [&](Value x, int64_t heads) {
    return splitHeads(e, node, x, heads, wide);
  };
  Value q, k, v;
  if (key) {
    q = toHeads(query, *qHeads);
    k = toHeads(key, *kvHeads);
    v = toHeads(value, *kvHeads);
  } else {
    Value packed = toHeads(query, *qHeads + 2 * *kvHeads);
    auto heads = [&](int64_t begin, int64_t end) {
      return e.op("Slice",
                  {packed, node.i64Constant({begin}), node.i64Constant({end}),
                   node.i64Constant({1}), node.noValue()});
    };
    q = heads(0, *qHeads);
    k = heads(*qHeads, *qHeads + *kvHeads);
    v = heads(*qHeads + *kvHeads, *qHeads + 2 * *kvHeads);
  }
  // Each batch's first new position past_b, and the positions [B, S].
  Value zero = e.index(0), one = e.index(1);
  Value sequence = e.dim(query, 1);
  Value total =
      e.op("Reshape", {e.castTo(totalLength, kInt64), node.i64Constant({})});
  Value totals = e.op("Add", {e.castTo(seqlensK, kInt64), one});
  Value firstPrompt = e.op("Equal", {sequence, total});
  Value past =
      e.op("Where", {firstPrompt, zero, e.op("Sub", {totals, sequence})});
  Value positions =
      e.op("Add", {e.op("Unsqueeze", {past, node.i64Constant({1})}),
                   e.op("Range", {zero, sequence, one})});
  if (*doRotary) {
    OpBuilder &b = node.builder;
    auto rotate = [&](Value x) -> Value {
      if (!e.ok())
        return {};
      NodeContext rope{
          b,
          node.loc,
          node.node,
          node.opset,
          {x, e.castTo(cosCache, wide), e.castTo(sinCache, wide), positions},
          {b.getNamedAttr("interleaved", b.getI64IntegerAttr(*interleaved)),
           b.getNamedAttr("rotary_embedding_dim",
                          b.getI64IntegerAttr(rotaryDim))},
          node.importSubgraph};
      FailureOr<SmallVector<Value>> rotated =
          importRotaryEmbedding(rope, error);
      return succeeded(rotated) ? rotated->front() : Value();
    };
    q = rotate(q);
    k = rotate(k);
    if (!q || !k)
      return failure();
  }
  // Present K and V: [B, Nkv, T, H], T = max(total, P).
  Value pastLength = pastKey ? e.dim(pastKey, 2) : zero;
  Value presentLength = e.op("Max", {total, pastLength});
  Value keyIndex = e.op("Range", {zero, presentLength, one});
  // [B, 1, 1, 1] for the per-batch comparisons along the keys.
  auto perBatch = [&](Value x) {
    return e.op("Reshape", {x, node.i64Constant({-1, 1, 1, 1})});
  };
  auto present = [&](Value cache, Value fresh) {
    Value shape = e.op("Concat",
                       {e.op("Shape", fresh, {e.attr("end", 2)}),
                        e.op("Reshape", {presentLength, node.i64Constant({1})}),
                        e.op("Shape", fresh, {e.attr("start", 3)})},
                       {axis0});
    Value base = e.op("Expand", {e.scalar(wideElement, 0.0), shape});
    if (cache) {
      // past[0, past_b), zeros after.
      Value padding =
          e.op("Concat",
               {node.i64Constant({0, 0, 0, 0, 0, 0}),
                e.op("Reshape", {e.op("Sub", {presentLength, pastLength}),
                                 node.i64Constant({1})}),
                node.i64Constant({0})},
               {axis0});
      Value padded = e.op("Pad", {e.castTo(cache, wide), padding,
                                  node.noValue(), node.noValue()});
      Value kept =
          e.op("Less", {e.op("Reshape", {keyIndex, node.i64Constant({-1, 1})}),
                        perBatch(past)});
      base = e.op("Where", {kept, padded, base});
    }
    // The new tokens at past_b + i.
    Value indices = e.op(
        "Expand", {e.op("Unsqueeze", {positions, node.i64Constant({1, 3})}),
                   e.op("Shape", fresh)});
    return e.op("ScatterElements", {base, indices, fresh}, {e.attr("axis", 2)});
  };
  Value presentKey = present(pastKey, k), presentValue = present(pastValue, v);
  auto repeatHeads = [&](Value x) {
    return group == 1 ? x
                      : e.repeatKVHeads(x, node.i64Constant({group}),
                                        node.i64Constant({*qHeads}));
  };
  Value scale;
  if (*scaleAttr != 0.0)
    scale = e.scalar(wideElement, *scaleAttr);
  else
    scale = e.op(
        "Reciprocal",
        e.op("Sqrt", e.castTo(e.op("Shape", q, {e.attr("start", 3)}), wide)));
  Value scores = e.op(
      "Mul",
      {e.op("MatMul", {q, e.transpose(repeatHeads(presentKey), {0, 1, 3, 2})}),
       scale});
  if (*softcap > 0) {
    Value cap = e.scalar(wideElement, *softcap);
    scores = e.op("Mul", {cap, e.op("Tanh", e.op("Div", {scores, cap}))});
  }
  // Key j is seen by query i of batch b iff j <= past_b + i (and, in a
  // local window of w keys, j > past_b + i - w).
  Value last = e.op("Unsqueeze", {positions, node.i64Constant({1, 3})});
  Value allowed = e.op("LessOrEqual", {keyIndex, last});
  if (*window > 0)
    allowed = e.op(
        "And",
        {allowed,
         e.op("Greater", {keyIndex, e.op("Sub", {last, e.index(*window)})})});
  Value minusInf = e.scalar(wideElement, -INFINITY);
  scores = e.op("Where", {allowed, scores, minusInf});
  Value probabilities;
  if (*smooth) {
    // An extra logit of 0 in the denominator, dropped after.
    Value sink =
        e.op("Expand", {e.scalar(wideElement, 0.0),
                        e.op("Concat",
                             {e.op("Shape", scores, {e.attr("end", 3)}),
                              node.i64Constant({1})},
                             {axis0})});
    Value all =
        e.op("Softmax", e.op("Concat", {scores, sink}, {e.attr("axis", -1)}),
             {e.attr("axis", -1)});
    probabilities =
        e.op("Slice", {all, node.i64Constant({0}), node.i64Constant({-1}),
                       node.i64Constant({3}), node.noValue()});
  } else {
    probabilities = e.op("Softmax", scores, {e.attr("axis", -1)});
  }
  Value y = e.op("MatMul", {probabilities, repeatHeads(presentValue)});
  y = e.op("Reshape",
           {e.transpose(y, {0, 2, 1, 3}), node.i64Constant({0, 0, -1})});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{e.castTo(y, *dtype), e.castTo(presentKey, *dtype),
                            e.castTo(presentValue, *dtype)};
}

namespace {
/// The attention of ORT's BERT-family kernels (MultiHeadAttention and
/// Attention of com.microsoft): scores = Q K^T x scale (1/sqrt(H) by
/// default) + attention bias, with `filter` added where a key is masked
/// (by the key padding mask, or by the causal mask: keys after query i +
/// past), then Softmax, times V, the heads merged back to [B, S, N x Hv].
struct BertAttention {
  int64_t heads = 0;
  double scale = 0.0, filter = -10000.0;
  bool causal = false;
  int64_t dtype = kFloat;

  /// Reads num_heads (positive), scale, mask_filter_value and
  /// unidirectional; nullopt after reporting a wrong one.
  static std::optional<BertAttention> read(NodeContext &node,
                                           std::string &error) {
    std::optional<int64_t> heads = intAttr(node, "num_heads", 0, error);
    std::optional<double> filter =
        floatAttr(node, "mask_filter_value", -10000.0, error);
    std::optional<double> scale = floatAttr(node, "scale", 0.0, error);
    std::optional<int64_t> causal = intAttr(node, "unidirectional", 0, error);
    if (!heads || !filter || !scale || !causal)
      return std::nullopt;
    if (*heads <= 0) {
      error = "needs a positive num_heads";
      return std::nullopt;
    }
    return BertAttention{*heads, *scale, *filter, *causal != 0, kFloat};
  }

  /// `padding`: null, [B] valid key counts, or a 0/1 mask [B, T] or
  /// [B, S, T]; `bias`: null or [B or 1, N or 1, S, T].
  Value attend(Expansion &e, NodeContext &node, Value q, Value k, Value v,
               Value past, Value padding, Value bias) const {
    Type element = getElementTypeOrSelf(q.getType());
    Value scaleValue =
        scale != 0.0
            ? e.scalar(element, scale)
            : e.castTo(e.op("Reciprocal",
                            e.op("Sqrt", e.castTo(e.op("Shape", q,
                                                       {e.attr("start", 3)}),
                                                  kFloat))),
                       dtype);
    Value scores = e.op(
        "Mul", {e.op("MatMul", {q, e.transpose(k, {0, 1, 3, 2})}), scaleValue});
    if (bias)
      scores = e.op("Add", {scores, bias});
    // Allowed keys, broadcast to [B, N, S, T].
    Value zero = e.index(0), one = e.index(1);
    Value keyIndex = e.op("Range", {zero, e.dim(k, 2), one});
    SmallVector<Value> allowed;
    auto paddingType =
        padding ? dyn_cast<RankedTensorType>(padding.getType()) : nullptr;
    if (paddingType && paddingType.getRank() == 1)
      allowed.push_back(
          e.op("Less",
               {keyIndex,
                e.op("Reshape", {e.castTo(padding, ::onnx::TensorProto::INT64),
                                 node.i64Constant({-1, 1, 1, 1})})}));
    else if (paddingType)
      allowed.push_back(e.op(
          "Unsqueeze",
          {e.op("Cast", padding, {e.attr("to", ::onnx::TensorProto::BOOL)}),
           node.i64Constant(paddingType.getRank() == 2
                                ? ArrayRef<int64_t>{1, 2}
                                : ArrayRef<int64_t>{1})}));
    if (causal) {
      Value queryIndex =
          e.op("Unsqueeze",
               {e.op("Add", {e.op("Range", {zero, e.dim(q, 2), one}), past}),
                node.i64Constant({1})});
      allowed.push_back(e.op("LessOrEqual", {keyIndex, queryIndex}));
    }
    Value maskBias = e.scalar(element, filter), noBias = e.scalar(element, 0.0);
    for (Value mask : allowed)
      scores = e.op("Add", {scores, e.op("Where", {mask, noBias, maskBias})});
    Value probabilities = e.op("Softmax", scores, {e.attr("axis", -1)});
    Value y = e.op("MatMul", {probabilities, v});
    return e.op("Reshape",
                {e.transpose(y, {0, 2, 1, 3}), node.i64Constant({0, 0, -1})});
  }
};
} // namespace

/// com.microsoft MultiHeadAttention, as ORT's CPU kernel computes it.
/// Inputs: query [B, S, D]; key [B, L, D] and value [B, L, Dv] (or both
/// already in heads, [B, N, L, H], as a cross-attention cache); bias
/// [D + D + Dv] added to Q, K and V; key_padding_mask, [B, T] or [B, S, T]
/// (0 masks a key) or [B] (each batch's valid key count); attention_bias [B or
/// 1, N or 1, S, T] added to the scores; past_key and past_value [B, N, P, H],
/// concatenated before the new keys (present). Masked scores get
/// `mask_filter_value` (-10000 by default) added, as ORT does, and so do keys
/// after query i + P with `unidirectional`. Scaled by `scale` (1/sqrt(H) by
/// default).
FailureOr<SmallVector<Value>> importMultiHeadAttention(NodeContext &node,
                                                       std::string &error) {
  std::optional<BertAttention> attention = BertAttention::read(node, error);
  if (!attention || failed(checkNoOtherAttributes(node, error)))
    return failure();
  auto input = [&](unsigned i) { return optionalInput(node, i); };
  for (unsigned i = 8; i < node.inputs.size(); ++i)
    if (input(i)) {
      error = "has input " + std::to_string(i) +
              " (past_sequence_length or cache_indirection: not supported)";
      return failure();
    }
  std::optional<int64_t> dtype;
  Value query = floatInput(node, 0, "query", dtype, error);
  if (!query)
    return failure();
  Value key = input(1), value = input(2), bias = input(3), padding = input(4),
        attentionBias = input(5), pastKey = input(6), pastValue = input(7);
  auto rankOf = [](Value x) -> int64_t {
    auto type = x ? dyn_cast<RankedTensorType>(x.getType()) : nullptr;
    return type ? type.getRank() : -1;
  };
  int64_t kvRank = rankOf(key);
  if (rankOf(query) != 3 || !key || !value || kvRank != rankOf(value) ||
      (kvRank != 3 && kvRank != 4) || !pastKey != !pastValue ||
      (kvRank == 4 && (bias || pastKey))) {
    error = "needs a 3-D query, key and value both 3-D or both 4-D (heads, "
            "then without bias or past), past_key and past_value together";
    return failure();
  }
  int64_t paddingRank = rankOf(padding);
  if (padding && (paddingRank < 1 || paddingRank > 3)) {
    error = "needs a key_padding_mask of rank 1, 2 or 3";
    return failure();
  }
  Expansion e(node, error);
  if (bias) {
    // bias = [bias_q, bias_k, bias_v]: Q's and K's of D each.
    Value d = e.op("Shape", query, {e.attr("start", 2)});
    Value twice = e.op("Add", {d, d});
    auto part = [&](Value begin, Value end) {
      return e.op("Slice",
                  {bias, begin, end, node.i64Constant({0}), node.noValue()});
    };
    query = e.op("Add", {query, part(node.i64Constant({0}), d)});
    key = e.op("Add", {key, part(d, twice)});
    value = e.op(
        "Add",
        {value,
         part(twice, node.i64Constant({std::numeric_limits<int64_t>::max()}))});
  }
  auto toHeads = [&](Value x) {
    return splitHeads(e, node, x, attention->heads, *dtype);
  };
  Value q = toHeads(query);
  Value k = kvRank == 4 ? key : toHeads(key);
  Value v = kvRank == 4 ? value : toHeads(value);
  // An op above refused its operands (the error says which): attend()
  // reads their types.
  if (!e.ok())
    return failure();
  if (pastKey) {
    NamedAttribute axis2 = e.attr("axis", 2);
    k = e.op("Concat", {pastKey, k}, {axis2});
    v = e.op("Concat", {pastValue, v}, {axis2});
  }
  attention->dtype = *dtype;
  Value y = attention->attend(e, node, q, k, v,
                              pastKey ? e.dim(pastKey, 2) : e.index(0), padding,
                              attentionBias);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y, k, v};
}

/// com.microsoft Attention (the BERT and GPT-2 form of ORT's transformer
/// optimizer), as ORT's CPU kernel computes it: Q, K and V = input x weights
/// + bias, split by qkv_hidden_sizes (equal thirds by default) and into
/// num_heads; past [2, B, N, P, H] (K and V) concatenated before the new
/// keys, present the same stack after; mask_index of [B] (valid key counts),
/// [B, T] or [B, S, T] (0 masks a key); attention_bias; unidirectional; as
/// MultiHeadAttention from there. Refused: the 4-D mask form,
/// past_sequence_length, do_rotary, a shared past/present buffer. A rank-1
/// mask_index is read as [B]: its [2B] form (end and start positions) is not
/// told apart.
FailureOr<SmallVector<Value>> importContribAttention(NodeContext &node,
                                                     std::string &error) {
  std::optional<BertAttention> attention = BertAttention::read(node, error);
  std::optional<int64_t> rotary = intAttr(node, "do_rotary", 0, error);
  std::optional<int64_t> shared =
      intAttr(node, "past_present_share_buffer", 0, error);
  std::optional<Attribute> sizesAttr = node.takeAttribute("qkv_hidden_sizes");
  if (!attention || !rotary || !shared ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (*rotary || *shared) {
    error = "has do_rotary or past_present_share_buffer set (not supported)";
    return failure();
  }
  int64_t heads = attention->heads;
  auto input = [&](unsigned i) { return optionalInput(node, i); };
  std::optional<int64_t> dtype, weightDType;
  Value x = floatInput(node, 0, "input", dtype, error);
  Value weights =
      x ? floatInput(node, 1, "weights", weightDType, error) : Value();
  if (!weights)
    return failure();
  Value bias = input(2), mask = input(3), past = input(4),
        attentionBias = input(5);
  if (input(6)) {
    error = "has a past_sequence_length input (not supported)";
    return failure();
  }
  auto weightType = dyn_cast<RankedTensorType>(weights.getType());
  auto maskType = mask ? dyn_cast<RankedTensorType>(mask.getType()) : nullptr;
  auto pastType = past ? dyn_cast<RankedTensorType>(past.getType()) : nullptr;
  if (!weightType || weightType.getRank() != 2 || weightType.isDynamicDim(1) ||
      (mask && !maskType) || (past && (!pastType || pastType.getRank() != 5))) {
    error = "needs 2-D weights of a static width, and a past of rank 5";
    return failure();
  }
  if (maskType && maskType.getRank() > 3) {
    error = "has a mask_index of rank " + std::to_string(maskType.getRank()) +
            " (supported: [batch], [batch, total], [batch, sequence, total])";
    return failure();
  }
  // The widths of Q, K and V.
  SmallVector<int64_t, 3> sizes;
  if (sizesAttr) {
    auto array = dyn_cast<DenseI64ArrayAttr>(*sizesAttr);
    if (array)
      llvm::append_range(sizes, array.asArrayRef());
    if (sizes.size() != 3 || sizes[0] != sizes[1] ||
        sizes[0] + sizes[1] + sizes[2] != weightType.getDimSize(1)) {
      error = "has qkv_hidden_sizes that are not three widths, Q's and K's "
              "equal, adding up to the weights' width";
      return failure();
    }
  } else {
    int64_t third = weightType.getDimSize(1) / 3;
    sizes = {third, third, third};
  }
  for (int64_t size : {sizes[0], sizes[2]})
    if (size % heads != 0) {
      error = "needs Q, K and V widths that num_heads divides";
      return failure();
    }
  if (sizes[0] != sizes[2] && node.node.output_size() > 1 &&
      !node.node.output(1).empty()) {
    error = "has a present output with K and V of different widths (not "
            "supported)";
    return failure();
  }
  Expansion e(node, error);
  Value projected = e.op("MatMul", {x, weights});
  if (bias)
    projected = e.op("Add", {projected, bias});
  auto slice = [&](int64_t begin, int64_t end) {
    return e.op("Slice",
                {projected, node.i64Constant({begin}), node.i64Constant({end}),
                 node.i64Constant({2}), node.noValue()});
  };
  Value q = splitHeads(e, node, slice(0, sizes[0]), heads, *dtype);
  Value k = splitHeads(e, node, slice(sizes[0], 2 * sizes[0]), heads, *dtype);
  Value v = splitHeads(e, node, slice(2 * sizes[0], 2 * sizes[0] + sizes[2]),
                       heads, *dtype);
  Value pastLength = e.index(0);
  if (past) {
    auto half = [&](int64_t i) {
      return e.op("Squeeze",
                  {e.op("Slice",
                        {past, node.i64Constant({i}), node.i64Constant({i + 1}),
                         node.i64Constant({0}), node.noValue()}),
                   node.i64Constant({0})});
    };
    NamedAttribute axis2 = e.attr("axis", 2);
    Value pastKey = half(0);
    pastLength = e.dim(pastKey, 2);
    k = e.op("Concat", {pastKey, k}, {axis2});
    v = e.op("Concat", {half(1), v}, {axis2});
  }
  // As for MultiHeadAttention: attend() reads the types of what came before.
  if (!e.ok())
    return failure();
  attention->dtype = *dtype;
  Value y =
      attention->attend(e, node, q, k, v, pastLength, mask, attentionBias);
  Value present;
  if (sizes[0] == sizes[2]) {
    Value zeroAxis = node.i64Constant({0});
    present = e.op(
        "Concat",
        {e.op("Unsqueeze", {k, zeroAxis}), e.op("Unsqueeze", {v, zeroAxis})},
        {e.attr("axis", 0)});
  } else {
    present = node.noValue();
  }
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y, present};
}

/// com.microsoft EmbedLayerNormalization (BERT's embeddings as ORT's
/// transformer optimizer fuses them): output = layer normalization over the
/// last axis of word_embedding[input_ids] + position_embedding[positions]
/// (+ segment_embedding[segment_ids]), times gamma plus beta; positions are
/// position_ids or 0 .. S - 1; mask_index (int32 [B]) is each row's count of
/// mask ones (0 without a mask); embedding_sum the sum before normalization.
FailureOr<SmallVector<Value>>
importEmbedLayerNormalization(NodeContext &node, std::string &error) {
  std::optional<double> epsilon = floatAttr(node, "epsilon", 1e-12, error);
  std::optional<int64_t> maskType = intAttr(node, "mask_index_type", 1, error);
  if (!epsilon || !maskType || failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (*maskType != 1) {
    error = "has mask_index_type " + std::to_string(*maskType) +
            " (supported: 1, the count of ones per row)";
    return failure();
  }
  auto input = [&](unsigned i) { return optionalInput(node, i); };
  Value ids = input(0), segments = input(1), words = input(2),
        positionTable = input(3), segmentTable = input(4), gamma = input(5),
        beta = input(6), mask = input(7), positionIds = input(8);
  std::optional<int64_t> dtype;
  if (words)
    (void)floatInput(node, 2, "word_embedding", dtype, error);
  if (!ids || !dtype || !positionTable || !gamma || !beta ||
      !segments != !segmentTable) {
    error = "needs input_ids, float word and position embeddings, gamma, "
            "beta, and segment_ids with segment_embedding";
    return failure();
  }
  constexpr int64_t kInt32 = ::onnx::TensorProto::INT32;
  Expansion e(node, error);
  Value zero = e.index(0), one = e.index(1);
  Value positions =
      positionIds
          ? positionIds
          : e.op("Unsqueeze", {e.op("Range", {zero, e.dim(ids, 1), one}),
                               node.i64Constant({0})});
  Value sum = e.op("Add", {e.op("Gather", {words, ids}),
                           e.op("Gather", {positionTable, positions})});
  if (segments)
    sum = e.op("Add", {sum, e.op("Gather", {segmentTable, segments})});
  int64_t stats = statsDType(*dtype);
  Type statsElement = onnx::getElementType(node.builder.getContext(), stats);
  Normalized n =
      normalize(e, e.castTo(sum, stats), node.i64Constant({-1}), *epsilon,
                /*centered=*/true, statsElement);
  Value output =
      e.op("Add", {e.op("Mul", {e.castTo(n.y, *dtype), gamma}), beta});
  Value maskIndex;
  if (mask)
    maskIndex = e.castTo(e.op("ReduceSum",
                              {e.castTo(mask, kInt32), node.i64Constant({1})},
                              {e.attr("keepdims", 0)}),
                         kInt32);
  else
    maskIndex = e.castTo(
        e.op("Expand", {e.index(0), e.op("Shape", ids, {e.attr("end", 1)})}),
        kInt32);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{output, maskIndex, sum};
}

namespace {
/// A 0-D constant of the integer type `element`.
Value integerScalar(NodeContext &node, Type element, int64_t value) {
  auto type = RankedTensorType::get({}, element);
  return node.builder.create<onnx::ConstantOp>(
      node.constantLoc(),
      cast<ElementsAttr>(DenseElementsAttr::get(
          type, ArrayRef<Attribute>{IntegerAttr::get(element, value)})));
}

/// The 4-bit values packed two to a byte in `packed` (uint8, low nibble
/// first), as uint8 with a last dim twice as long. Shifts only (the low
/// nibble shifted out to the left and back), which ONNX has since opset 11,
/// so that an exported model stays valid at the model's opset.
Value unpackNibbles(Expansion &e, NodeContext &node, Value packed) {
  if (!e.ok())
    return Value(); // the expansion already failed: its ops are no-ops
  Type u8 = getElementTypeOrSelf(packed.getType());
  Value four = integerScalar(node, u8, 4);
  auto shift = [&](Value x, StringRef direction) {
    return e.op("BitShift", {x, four},
                {node.builder.getNamedAttr(
                    "direction", node.builder.getStringAttr(direction))});
  };
  Value low = shift(shift(packed, "LEFT"), "RIGHT");
  Value high = shift(packed, "RIGHT");
  Value pairs = e.op("Concat",
                     {e.op("Unsqueeze", {low, node.i64Constant({-1})}),
                      e.op("Unsqueeze", {high, node.i64Constant({-1})})},
                     {e.attr("axis", -1)});
  // [..., n, 2] -> [..., 2n].
  Value shape =
      e.op("Concat",
           {e.op("Shape", packed, {e.attr("end", -1)}), node.i64Constant({-1})},
           {e.attr("axis", 0)});
  return e.op("Reshape", {pairs, shape});
}
} // namespace

/// The element count of `value`'s static shape, or -1.
static int64_t staticCount(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() ? type.getNumElements() : -1;
}

/// MatMulNBits as fused.matmul_nbits, whose CPU kernel reads the 4-bit
/// weights packed, or a null value where that op does not model the node:
/// other than 4 bits, A other than f32, B not a constant of the expected
/// shape, zero points not packed, or a block_size over 256.
static Value packedMatMulNBits(NodeContext &node, Value a, Value b,
                               Value scales, Value zeroPoints, Value bias,
                               int64_t k, int64_t n, int64_t bits,
                               int64_t blockSize) {
  int64_t blocks = (k + blockSize - 1) / blockSize;
  auto bType = dyn_cast<RankedTensorType>(b.getType());
  auto isF32 = [](Value v) {
    return getElementTypeOrSelf(v.getType()).isF32();
  };
  if (bits != 4 || blockSize > 256 || !isF32(a) || !isF32(scales) ||
      !b.getDefiningOp<onnx::ConstantOp>() || !bType ||
      bType.getShape() != ArrayRef<int64_t>{n, blocks, blockSize / 2} ||
      staticCount(scales) != n * blocks ||
      (zeroPoints &&
       (!getElementTypeOrSelf(zeroPoints.getType()).isUnsignedInteger(8) ||
        staticCount(zeroPoints) != n * ((blocks + 1) / 2))) ||
      (bias && (!isF32(bias) || staticCount(bias) != n)))
    return Value();
  OpBuilder &builder = node.builder;
  return builder.create<fused::MatMulNBitsOp>(
      node.loc, a, b, scales, zeroPoints, bias, builder.getI64IntegerAttr(k),
      builder.getI64IntegerAttr(n), builder.getI64IntegerAttr(bits),
      builder.getI64IntegerAttr(blockSize));
}

/// com.microsoft MatMulNBits: Y = A B^T (+ bias), B [N, K] stored as
/// `bits`-bit (4 or 8) unsigned values in blocks of `block_size` along K
/// (uint8 [N, K blocks, block bytes], 4-bit values low nibble first), each
/// block dequantized as (q - zero point) x scale; scales [N x K blocks];
/// zero points packed like B (uint8) or of the scales' type, 2^(bits - 1)
/// when absent. Compiling for the CPU, a constant 4-bit B with f32 A and
/// packed zero points imports as fused.matmul_nbits (B stays packed);
/// otherwise the node is expanded into onnx ops that dequantize B to A's
/// type (at run time: the folder does not grow a model's constants). g_idx
/// is refused.
FailureOr<SmallVector<Value>> importMatMulNBits(NodeContext &node,
                                                std::string &error) {
  std::optional<int64_t> k = intAttr(node, "K", 0, error);
  std::optional<int64_t> n = intAttr(node, "N", 0, error);
  std::optional<int64_t> bits = intAttr(node, "bits", 4, error);
  std::optional<int64_t> blockSize = intAttr(node, "block_size", 0, error);
  // A hint for ORT's kernels (the precision of A in its GEMM).
  std::optional<int64_t> accuracy = intAttr(node, "accuracy_level", 0, error);
  if (!k || !n || !bits || !blockSize || !accuracy ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (*k <= 0 || *n <= 0 || (*bits != 4 && *bits != 8) || *blockSize < 16 ||
      (*blockSize & (*blockSize - 1)) != 0) {
    error = "needs positive K and N, bits 4 or 8 and a block_size that is a "
            "power of 2, at least 16 (got K " +
            std::to_string(*k) + ", N " + std::to_string(*n) + ", bits " +
            std::to_string(*bits) + ", block_size " +
            std::to_string(*blockSize) + ")";
    return failure();
  }
  auto input = [&](unsigned i) { return optionalInput(node, i); };
  std::optional<int64_t> dtype;
  Value a = floatInput(node, 0, "input A", dtype, error);
  Value b = input(1), scales = input(2), zeroPoints = input(3),
        groupIndex = input(4), bias = input(5);
  if (!a)
    return failure();
  auto bType = b ? dyn_cast<RankedTensorType>(b.getType()) : nullptr;
  if (!bType || !bType.getElementType().isUnsignedInteger(8) || !scales) {
    error = "needs B of uint8 and scales";
    return failure();
  }
  if (groupIndex) {
    error = "has a g_idx input (not supported)";
    return failure();
  }
  if (node.cpuKernelOps)
    if (Value y = packedMatMulNBits(node, a, b, scales, zeroPoints, bias, *k,
                                    *n, *bits, *blockSize))
      return SmallVector<Value>{y};
  int64_t blocks = (*k + *blockSize - 1) / *blockSize;
  Type element = getElementTypeOrSelf(a.getType());
  Expansion e(node, error);
  // [N, blocks, block size] quantized values, then zero points and scales
  // as [N, blocks, 1].
  Value q = b;
  if (*bits == 4)
    q = unpackNibbles(e, node, b);
  q = e.op("Reshape",
           {e.castTo(q, *dtype), node.i64Constant({*n, blocks, *blockSize})});
  Value zero;
  if (!zeroPoints) {
    zero = e.scalar(element, std::ldexp(1.0, static_cast<int>(*bits) - 1));
  } else if (getElementTypeOrSelf(zeroPoints.getType()).isUnsignedInteger(8)) {
    Value unpacked =
        *bits == 4
            ? unpackNibbles(
                  e, node,
                  e.op("Reshape", {zeroPoints, node.i64Constant({*n, -1})}))
            : zeroPoints;
    Value perRow = e.op("Reshape", {unpacked, node.i64Constant({*n, -1})});
    Value first = e.op("Slice", {perRow, node.i64Constant({0}),
                                 node.i64Constant({blocks}),
                                 node.i64Constant({1}), node.noValue()});
    zero = e.op("Reshape",
                {e.castTo(first, *dtype), node.i64Constant({*n, blocks, 1})});
  } else {
    zero = e.op("Reshape", {e.castTo(zeroPoints, *dtype),
                            node.i64Constant({*n, blocks, 1})});
  }
  Value scale = e.op(
      "Reshape", {e.castTo(scales, *dtype), node.i64Constant({*n, blocks, 1})});
  Value weights = e.op("Mul", {e.op("Sub", {q, zero}), scale});
  // [N, blocks x block size] -> [N, K] -> [K, N].
  weights = e.op("Reshape", {weights, node.i64Constant({*n, -1})});
  if (blocks * *blockSize != *k)
    weights =
        e.op("Slice", {weights, node.i64Constant({0}), node.i64Constant({*k}),
                       node.i64Constant({1}), node.noValue()});
  Value y = e.op("MatMul", {a, e.transpose(weights, {1, 0})});
  if (bias)
    y = e.op("Add", {y, bias});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

} // namespace onnxc::frontend
