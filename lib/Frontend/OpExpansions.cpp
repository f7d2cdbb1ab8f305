//===- OpExpansions.cpp - Ops imported as their ONNX function bodies ------===//
//
// Newer ONNX ops that ONNX itself defines as a function of older ones
// (RMSNormalization-23 ...) import as those ops, built here the way ONNX's
// function body builds them (onnx/defs,
// SetContextDependentFunctionBodyBuilder), so that every later stage, and the
// exporter at an older opset, sees only ops it knows. Attributes are read,
// checked and resolved at import; the rank of the input must be known where the
// body depends on it.
//
//===----------------------------------------------------------------------===//

#include "lib/Frontend/Expansion.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnxc::frontend {

namespace {
/// The element type of a normalization's `stash_type`, the float ONNX data
/// type (float, double, float16, bfloat16) that it computes in; null after
/// reporting another.
Type stashTypeOf(NodeContext &node, int64_t dtype, std::string &error) {
  Type type = onnx::getElementType(node.builder.getContext(), dtype);
  if (isa_and_nonnull<FloatType>(type))
    return type;
  error = "has unsupported stash_type " + std::to_string(dtype);
  return {};
}
} // namespace

/// RMSNormalization-23: Y = Cast(XU / Sqrt(ReduceMean(XU * XU, axes) + eps),
/// T) * scale, with XU = X cast to `stash_type` (float by default) and the
/// mean over the dims from `axis` on.
FailureOr<SmallVector<Value>> importRMSNormalization(NodeContext &node,
                                                     std::string &error) {
  std::optional<int64_t> axis = intAttr(node, "axis", -1, error);
  std::optional<double> epsilon = floatAttr(node, "epsilon", 1e-5, error);
  std::optional<int64_t> stashType =
      intAttr(node, "stash_type", ::onnx::TensorProto::FLOAT, error);
  if (!axis || !epsilon || !stashType ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0], scale = node.inputs[1];
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || isa<NoneType>(scale.getType())) {
    error = xType ? "lacks its scale input" : "needs an input X of known rank";
    return failure();
  }
  std::optional<int64_t> xDType = onnx::getONNXDType(xType.getElementType());
  Type stash = stashTypeOf(node, *stashType, error);
  if (!stash || !xDType) {
    if (!xDType)
      error = "needs X of an ONNX data type";
    return failure();
  }
  std::optional<int64_t> first = onnx::normalizeAxis(*axis, xType.getRank());
  if (!first) {
    error = "has 'axis' " + std::to_string(*axis) + " out of range for rank " +
            std::to_string(xType.getRank());
    return failure();
  }
  Expansion e(node, error);
  Value xu = e.castTo(x, *stashType);
  Value squared = e.op("Mul", {xu, xu});
  Value axes = node.i64Constant(
      llvm::to_vector(llvm::seq<int64_t>(*first, xType.getRank())));
  Value mean = e.op("ReduceMean", {squared, axes}, {e.attr("keepdims", 1)});
  Value rms = e.op("Sqrt", e.op("Add", {mean, e.scalar(stash, *epsilon)}));
  Value normalized = e.castTo(e.op("Div", {xu, rms}), *xDType);
  Value y = e.op("Mul", {normalized, scale});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// Attention-23 and -24 (scaled dot-product attention with optional mask,
/// causal mask, KV cache, grouped-query heads and softcap) as ONNX's
/// function body builds it:
///   Q, K, V as [batch, heads, sequence, head size] (3-D inputs split into
///   q_num_heads / kv_num_heads); present K, V = Concat(past, new) on the
///   sequence; K and V heads repeated for grouped-query attention;
///   scores = (Q sqrt(scale)) (K sqrt(scale))^T, scale 1/sqrt(head size) by
///   default; softcap * Tanh(scores / softcap); plus the mask bias (a bool
///   mask as 0 / -inf, its last dim padded to the keys with -inf), the
///   causal bias (key j allowed for query i iff j <= i + offset, offset the
///   past length, or nonpad_kv_seqlen - query length per batch) and the
///   padding bias of nonpad_kv_seqlen; Softmax over the keys (in
///   softmax_precision), a row with no key allowed made zero; times V.
/// Outputs: Y (3-D again for 3-D inputs), present key and value, and the
/// scores at the point qk_matmul_output_mode names.
FailureOr<SmallVector<Value>> importAttention(NodeContext &node,
                                              std::string &error) {
  std::optional<int64_t> isCausal = intAttr(node, "is_causal", 0, error);
  std::optional<int64_t> qHeadsAttr = intAttr(node, "q_num_heads", 0, error);
  std::optional<int64_t> kvHeadsAttr = intAttr(node, "kv_num_heads", 0, error);
  std::optional<int64_t> mode =
      intAttr(node, "qk_matmul_output_mode", 0, error);
  std::optional<double> scaleAttr =
      floatAttr(node, "scale", std::nan(""), error);
  std::optional<double> softcap = floatAttr(node, "softcap", 0.0, error);
  std::optional<int64_t> softmaxPrecision =
      intAttr(node, "softmax_precision", 0, error);
  if (!isCausal || !qHeadsAttr || !kvHeadsAttr || !mode || !scaleAttr ||
      !softcap || !softmaxPrecision ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (*mode < 0 || *mode > 3) {
    error = "has qk_matmul_output_mode " + std::to_string(*mode) +
            " (expected 0 to 3)";
    return failure();
  }
  auto input = [&](unsigned i) { return optionalInput(node, i); };
  Value q = input(0), k = input(1), v = input(2), mask = input(3),
        pastKey = input(4), pastValue = input(5), nonpad = input(6);
  auto qType = q ? dyn_cast<RankedTensorType>(q.getType()) : nullptr;
  auto kType = k ? dyn_cast<RankedTensorType>(k.getType()) : nullptr;
  auto vType = v ? dyn_cast<RankedTensorType>(v.getType()) : nullptr;
  if (!qType || !kType || !vType || qType.getRank() != kType.getRank() ||
      qType.getRank() != vType.getRank() ||
      (qType.getRank() != 3 && qType.getRank() != 4)) {
    error = "needs Q, K and V of known rank, all 3-D or all 4-D";
    return failure();
  }
  if (!pastKey != !pastValue) {
    error = "needs past_key and past_value together";
    return failure();
  }
  bool split = qType.getRank() == 3;
  // The head counts; for 4-D inputs either may be known only at run time.
  int64_t qHeads = split ? *qHeadsAttr : qType.getDimSize(1);
  int64_t kvHeads = split ? *kvHeadsAttr : kType.getDimSize(1);
  bool staticHeads =
      !ShapedType::isDynamic(qHeads) && !ShapedType::isDynamic(kvHeads);
  if (staticHeads && (qHeads <= 0 || kvHeads <= 0 || qHeads % kvHeads != 0)) {
    error = split ? "needs q_num_heads and kv_num_heads, the first a "
                    "multiple of the second, for 3-D inputs"
                  : "needs head counts, that of Q a multiple of that of K";
    return failure();
  }
  Type element = qType.getElementType();
  std::optional<int64_t> dtype = floatDType(element);
  if (!dtype) {
    error = "needs floating-point Q";
    return failure();
  }
  Expansion e(node, error);
  // [batch, sequence, heads x size] -> [batch, heads, sequence, size].
  auto toHeads = [&](Value x, int64_t heads) {
    if (!split)
      return x;
    Value shaped = e.op("Reshape", {x, node.i64Constant({0, 0, heads, -1})});
    return e.transpose(shaped, {0, 2, 1, 3});
  };
  Value q4 = toHeads(q, qHeads), k4 = toHeads(k, kvHeads),
        v4 = toHeads(v, kvHeads);
  Value presentKey = k4, presentValue = v4;
  if (pastKey) {
    NamedAttribute axis2 = e.attr("axis", 2);
    presentKey = e.op("Concat", {pastKey, k4}, {axis2});
    presentValue = e.op("Concat", {pastValue, v4}, {axis2});
  }
  // Grouped-query attention: each K/V head serves qHeads / kvHeads of Q's.
  Value keys = e.repeatHeadsFor(q4, presentKey, qHeads, kvHeads);
  Value values = e.repeatHeadsFor(q4, presentValue, qHeads, kvHeads);
  Value scores = e.attentionScores(q4, keys, *scaleAttr, element, *dtype);
  Value qkOutput = scores; // mode 0
  if (*softcap > 0) {
    Value cap = e.scalar(element, *softcap);
    scores = e.op("Mul", {cap, e.op("Tanh", e.op("Div", {scores, cap}))});
  }
  if (*mode == 1)
    qkOutput = scores;
  // The bias: 0 where a key is allowed, -inf where not, or the float mask.
  Value zero = e.scalar(element, 0.0);
  Value minusInf = e.scalar(element, -INFINITY);
  auto allowedToBias = [&](Value allowed) {
    return e.op("Where", {allowed, zero, minusInf});
  };
  SmallVector<Value> biases;
  if (mask) {
    Value bias = getElementTypeOrSelf(mask.getType()).isInteger(1)
                     ? allowedToBias(mask)
                     : mask;
    // A mask shorter than the keys is padded with -inf.
    auto maskType = dyn_cast<RankedTensorType>(mask.getType());
    if (!maskType) {
      error = "needs an attn_mask of known rank";
      return failure();
    }
    int64_t rank = maskType.getRank();
    Value missing = e.op("Sub", {e.op("Shape", scores, {e.attr("start", -1)}),
                                 e.op("Shape", mask, {e.attr("start", -1)})});
    SmallVector<int64_t> zeros(2 * rank - 1, 0);
    Value pads =
        e.op("Concat", {node.i64Constant(zeros), missing}, {e.attr("axis", 0)});
    biases.push_back(e.op("Pad", {bias, pads, minusInf, node.noValue()}));
  }
  Value keyIndex, queryIndex;
  if (*isCausal || nonpad) {
    Value one = e.index(1), start = e.index(0);
    keyIndex = e.op("Range", {start, e.dim(scores, 3), one});
    queryIndex =
        e.op("Unsqueeze", {e.op("Range", {start, e.dim(scores, 2), one}),
                           node.i64Constant({1})});
  }
  if (nonpad) {
    // [batch] -> [batch, 1, 1, 1]; keys from nonpad on are padding.
    Value valid = e.op("Reshape", {nonpad, node.i64Constant({-1, 1, 1, 1})});
    biases.push_back(allowedToBias(e.op("Less", {keyIndex, valid})));
    if (*isCausal) {
      Value offset = e.op("Sub", {valid, e.dim(scores, 2)});
      biases.push_back(allowedToBias(
          e.op("LessOrEqual", {keyIndex, e.op("Add", {queryIndex, offset})})));
    }
  } else if (*isCausal) {
    Value shifted = queryIndex;
    if (pastKey)
      shifted = e.op("Add", {queryIndex, e.dim(pastKey, 2)});
    biases.push_back(allowedToBias(e.op("LessOrEqual", {keyIndex, shifted})));
  }
  for (Value bias : biases)
    scores = e.op("Add", {scores, bias});
  if (*mode == 2)
    qkOutput = scores;
  Value probabilities =
      e.op("Softmax",
           e.castTo(scores, *softmaxPrecision ? *softmaxPrecision : *dtype),
           {e.attr("axis", -1)});
  probabilities = e.castTo(probabilities, *dtype);
  // A query row with no key allowed is zero, not the NaN of exp(-inf) / 0.
  // Only a mask or nonpad_kv_seqlen can disallow a whole row: the causal
  // bias alone always allows key 0 (0 <= query index + past length), and
  // without the guard the block is plain attention with an additive mask,
  // which onnx-fuse-attention can fuse.
  if (mask || nonpad) {
    Value best = e.op("ReduceMax", {scores, node.i64Constant({-1})},
                      {e.attr("keepdims", 1)});
    Value anyAllowed = e.op("Greater", {best, minusInf});
    probabilities = e.op("Where", {anyAllowed, probabilities, zero});
  }
  if (*mode == 3)
    qkOutput = probabilities;
  Value y = e.op("MatMul", {probabilities, values});
  if (split)
    y = e.op("Reshape",
             {e.transpose(y, {0, 2, 1, 3}), node.i64Constant({0, 0, -1})});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y, presentKey, presentValue, qkOutput};
}

/// RotaryEmbedding-23 as its ONNX function body: X as [batch, sequence,
/// heads, head size] (4-D transposed, 3-D split into num_heads); the first
/// rotary_embedding_dim (default all) channels rotated pairwise, as halves
/// or, `interleaved`, as even and odd channels: real = cos x1 - sin x2,
/// imag = sin x1 + cos x2, with cos and sin gathered at position_ids when
/// given; the rest passed through; X's layout restored.
FailureOr<SmallVector<Value>> importRotaryEmbedding(NodeContext &node,
                                                    std::string &error) {
  std::optional<int64_t> interleaved = intAttr(node, "interleaved", 0, error);
  std::optional<int64_t> rotaryDim =
      intAttr(node, "rotary_embedding_dim", 0, error);
  std::optional<int64_t> numHeads = intAttr(node, "num_heads", 0, error);
  if (!interleaved || !rotaryDim || !numHeads ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0], cosCache = node.inputs[1],
        sinCache = node.inputs[2];
  Value positions =
      node.inputs.size() > 3 && !isa<NoneType>(node.inputs[3].getType())
          ? node.inputs[3]
          : Value();
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || (xType.getRank() != 3 && xType.getRank() != 4) ||
      isa<NoneType>(cosCache.getType()) || isa<NoneType>(sinCache.getType())) {
    error = "needs a 3-D or 4-D input X and both caches";
    return failure();
  }
  bool split = xType.getRank() == 3;
  if (split && *numHeads <= 0) {
    error = "needs num_heads for a 3-D input";
    return failure();
  }
  // The head size, dynamic where X's last dim is; then the rotated channels
  // and their halves are runtime values too.
  int64_t hidden = xType.getDimSize(split ? 2 : 3);
  int64_t headSize = hidden;
  if (split && !ShapedType::isDynamic(hidden)) {
    if (hidden % *numHeads != 0) {
      error = "needs num_heads (" + std::to_string(*numHeads) +
              ") dividing the hidden size " + std::to_string(hidden);
      return failure();
    }
    headSize = hidden / *numHeads;
  }
  bool staticHead = !ShapedType::isDynamic(headSize);
  int64_t rotated = *rotaryDim > 0 ? *rotaryDim : headSize;
  if ((staticHead && rotated > headSize) ||
      (!ShapedType::isDynamic(rotated) && rotated % 2 != 0)) {
    error = "has rotary_embedding_dim " + std::to_string(rotated) +
            " (expected an even size up to the head size " +
            std::to_string(headSize) + ")";
    return failure();
  }
  bool wholeHead = *rotaryDim <= 0 || rotated == headSize;
  Expansion e(node, error);
  constexpr int64_t kEnd = std::numeric_limits<int64_t>::max();
  auto slice = [&](Value value, Value start, Value end, int64_t step = 1) {
    return e.op("Slice", {value, start, end, node.i64Constant({3}),
                          node.i64Constant({step})});
  };
  auto bound = [&](int64_t value) { return node.i64Constant({value}); };
  NamedAttribute lastAxis = e.attr("axis", -1);
  Value x4 = split ? e.op("Reshape",
                          {x, node.i64Constant({0, 0, *numHeads,
                                                staticHead ? headSize : -1})})
                   : e.transpose(x, {0, 2, 1, 3});
  Value cos = cosCache, sin = sinCache;
  if (positions) {
    cos = e.op("Gather", {cos, positions});
    sin = e.op("Gather", {sin, positions});
  }
  // [batch, sequence, half] -> [batch, sequence, 1, half].
  cos = e.op("Unsqueeze", {cos, node.i64Constant({-2})});
  sin = e.op("Unsqueeze", {sin, node.i64Constant({-2})});
  Value toRotate = wholeHead ? x4 : slice(x4, bound(0), bound(rotated));
  Value half = ShapedType::isDynamic(rotated)
                   ? e.op("Div", {e.op("Shape", x4, {e.attr("start", 3)}),
                                  node.i64Constant({2})})
                   : bound(rotated / 2);
  Value x1 = *interleaved ? slice(toRotate, bound(0), bound(kEnd), 2)
                          : slice(toRotate, bound(0), half);
  Value x2 = *interleaved ? slice(toRotate, bound(1), bound(kEnd), 2)
                          : slice(toRotate, half, bound(kEnd));
  Value real = e.op("Sub", {e.op("Mul", {cos, x1}), e.op("Mul", {sin, x2})});
  Value imag = e.op("Add", {e.op("Mul", {sin, x1}), e.op("Mul", {cos, x2})});
  Value result;
  if (*interleaved) {
    Value pairs = e.op("Concat",
                       {e.op("Unsqueeze", {real, node.i64Constant({-1})}),
                        e.op("Unsqueeze", {imag, node.i64Constant({-1})})},
                       {lastAxis});
    int64_t pairedSize = ShapedType::isDynamic(rotated) ? -1 : rotated;
    result = e.op("Reshape", {pairs, node.i64Constant({0, 0, 0, pairedSize})});
  } else {
    result = e.op("Concat", {real, imag}, {lastAxis});
  }
  if (!wholeHead)
    result = e.op("Concat", {result, slice(x4, bound(rotated), bound(kEnd))},
                  {lastAxis});
  result = split ? e.op("Reshape", {result, e.op("Shape", x)})
                 : e.transpose(result, {0, 2, 1, 3});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{result};
}

/// Swish-24: x * Sigmoid(alpha * x), alpha 1 by default.
FailureOr<SmallVector<Value>> importSwish(NodeContext &node,
                                          std::string &error) {
  std::optional<double> alpha = floatAttr(node, "alpha", 1.0, error);
  if (!alpha || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0];
  Type element = getElementTypeOrSelf(x.getType());
  if (!isa<FloatType>(element)) {
    error = "needs a floating-point input";
    return failure();
  }
  Expansion e(node, error);
  Value scaled =
      *alpha == 1.0 ? x : e.op("Mul", {x, e.scalar(element, *alpha)});
  Value y = e.op("Mul", {x, e.op("Sigmoid", scaled)});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

namespace {
/// The valid depthwise 1-D convolution of `padded` [N, C, T + k - 1] by
/// `weight` [C, 1, k] (plus `bias` [C] if given) where C is known only at run
/// time, so that Conv's static `group` cannot name it: the k-step windows
/// gathered as [N, C, T, k], times the weights, summed over the window. In
/// float for narrower types, as Conv accumulates.
Value depthwiseByWindows(Expansion &e, NodeContext &node, Value padded,
                         Value weight, Value bias, int64_t dtype) {
  constexpr int64_t kFloat = ::onnx::TensorProto::FLOAT;
  int64_t wide = dtype == ::onnx::TensorProto::DOUBLE ? dtype : kFloat;
  Value one = e.index(1), zero = e.index(0);
  Value taps = e.dim(weight, 2);
  Value steps = e.op("Sub", {e.dim(padded, 2), e.op("Sub", {taps, one})});
  // windows[t, j] = t + j.
  Value windows =
      e.op("Add", {e.op("Unsqueeze", {e.op("Range", {zero, steps, one}),
                                      node.i64Constant({1})}),
                   e.op("Range", {zero, taps, one})});
  Value gathered =
      e.op("Gather", {e.castTo(padded, wide), windows}, {e.attr("axis", 2)});
  // [C, 1, k] -> [1, C, 1, k].
  Value taps4 =
      e.op("Unsqueeze", {e.castTo(weight, wide), node.i64Constant({0})});
  Value y =
      e.op("ReduceSum", {e.op("Mul", {gathered, taps4}), node.i64Constant({3})},
           {e.attr("keepdims", 0)});
  if (bias)
    y = e.op("Add", {y, e.op("Unsqueeze",
                             {e.castTo(bias, wide), node.i64Constant({1})})});
  return e.castTo(y, dtype);
}
} // namespace

/// CausalConvWithState-27: a causal depthwise 1-D convolution that carries
/// its left context. padded = Concat(past_state, or zeros [N, C, k - 1],
/// input) on the time axis; output = Conv(padded, weight, bias, group = C)
/// (as gathered windows where C is dynamic),
/// then SiLU (computed in float for float16 inputs) when `activation` is
/// "silu" or "swish"; present_state = the last k - 1 steps of padded.
FailureOr<SmallVector<Value>> importCausalConvWithState(NodeContext &node,
                                                        std::string &error) {
  std::optional<std::string> activationAttr =
      stringAttr(node, "activation", "none", error);
  if (!activationAttr || failed(checkNoOtherAttributes(node, error)))
    return failure();
  const std::string &activation = *activationAttr;
  if (activation != "none" && activation != "silu" && activation != "swish") {
    error = "has activation '" + activation +
            "' (expected 'silu', 'swish' or 'none')";
    return failure();
  }
  auto input = [&](unsigned i) { return optionalInput(node, i); };
  Value x = input(0), weight = input(1), bias = input(2), past = input(3);
  auto xType = x ? dyn_cast<RankedTensorType>(x.getType()) : nullptr;
  auto wType = weight ? dyn_cast<RankedTensorType>(weight.getType()) : nullptr;
  if (!xType || !wType || xType.getRank() != 3 || wType.getRank() != 3) {
    error = "needs input and weight of rank 3";
    return failure();
  }
  int64_t channels = xType.getDimSize(1);
  std::optional<int64_t> dtype = floatDType(xType.getElementType());
  if (!dtype) {
    error = "needs a floating-point input";
    return failure();
  }
  Expansion e(node, error);
  NamedAttribute timeAxis = e.attr("axis", 2);
  // k - 1, the steps of context, as a 1-element tensor.
  Value context = e.op("Sub", {e.op("Shape", weight, {e.attr("start", 2)}),
                               node.i64Constant({1})});
  if (!past) {
    Value shape =
        e.op("Concat", {e.op("Shape", x, {e.attr("end", 2)}), context},
             {e.attr("axis", 0)});
    past = e.op("CastLike", {e.op("ConstantOfShape", shape), x});
  }
  Value padded = e.op("Concat", {past, x}, {timeAxis});
  Value y = ShapedType::isDynamic(channels)
                ? depthwiseByWindows(e, node, padded, weight, bias, *dtype)
                : e.op("Conv", {padded, weight, bias ? bias : node.noValue()},
                       {e.attr("group", channels)});
  if (activation != "none") {
    Value wide = e.castTo(y, ::onnx::TensorProto::FLOAT);
    y = e.castTo(e.op("Mul", {wide, e.op("Sigmoid", wide)}), *dtype);
  }
  Value length = e.op("Shape", padded, {e.attr("start", 2)});
  Value present = e.op("Slice", {padded, e.op("Sub", {length, context}), length,
                                 node.i64Constant({2}), node.noValue()});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y, present};
}

/// LinearAttention-27: recurrent linear attention over the time axis of
/// packed [batch, time, heads x size] query, key and value, as ONNX's
/// function body computes it, in float: a state S [batch, kv heads, d_k,
/// d_v] (past_state, or zeros) is updated per step t by the update_rule
///   gated:        S = exp(g_t) S                    (gated, gated_delta)
///   delta:        v_t = beta_t (v_t - S^T k_t)      (delta, gated_delta)
///   always:       S = S + k_t v_t^T, o_t = scale q_t^T S
/// with each kv head's state read by q_num_heads / kv_num_heads query heads.
/// One onnx.Scan over axis 1 of the inputs (reshaped to heads, query
/// pre-scaled, decay pre-exponentiated) carries S; its output stacks o_t.
/// Outputs: the output in the query's type and present_state in
/// past_state's (or the query's) type.
FailureOr<SmallVector<Value>> importLinearAttention(NodeContext &node,
                                                    std::string &error) {
  std::optional<int64_t> qHeads = intAttr(node, "q_num_heads", 0, error);
  std::optional<int64_t> kvHeads = intAttr(node, "kv_num_heads", 0, error);
  std::optional<double> scaleAttr = floatAttr(node, "scale", 0.0, error);
  // A tuning hint only: the result does not depend on it.
  std::optional<int64_t> chunkSize = intAttr(node, "chunk_size", 64, error);
  std::optional<std::string> ruleAttr =
      stringAttr(node, "update_rule", "gated_delta", error);
  if (!qHeads || !kvHeads || !scaleAttr || !chunkSize || !ruleAttr ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  const std::string &rule = *ruleAttr;
  if (rule != "linear" && rule != "gated" && rule != "delta" &&
      rule != "gated_delta") {
    error = "has update_rule '" + rule +
            "' (expected 'linear', 'gated', 'delta' or 'gated_delta')";
    return failure();
  }
  if (*qHeads <= 0 || *kvHeads <= 0 || *qHeads % *kvHeads != 0) {
    error = "needs q_num_heads and kv_num_heads, the first a positive "
            "multiple of the second (got " +
            std::to_string(*qHeads) + " and " + std::to_string(*kvHeads) + ")";
    return failure();
  }
  bool gating = rule == "gated" || rule == "gated_delta";
  bool deltaRule = rule == "delta" || rule == "gated_delta";
  auto input = [&](unsigned i) { return optionalInput(node, i); };
  Value q = input(0), k = input(1), v = input(2), past = input(3),
        decay = input(4), beta = input(5);
  if (gating != static_cast<bool>(decay)) {
    error = "has update_rule '" + rule + "', which " +
            (gating ? "needs" : "takes no") + " decay input";
    return failure();
  }
  if (deltaRule != static_cast<bool>(beta)) {
    error = "has update_rule '" + rule + "', which " +
            (deltaRule ? "needs" : "takes no") + " beta input";
    return failure();
  }
  // Query, key, value, decay and beta: rank 3, of one float type.
  auto packedType = [&](Value value) -> RankedTensorType {
    auto type = value ? dyn_cast<RankedTensorType>(value.getType()) : nullptr;
    return type && type.getRank() == 3 ? type : nullptr;
  };
  RankedTensorType qType = packedType(q), kType = packedType(k),
                   vType = packedType(v);
  if (!qType || !kType || !vType) {
    error = "needs query, key and value of rank 3";
    return failure();
  }
  Type element = qType.getElementType();
  std::optional<int64_t> dtype = floatDType(element);
  if (!dtype) {
    error = "needs a floating-point query";
    return failure();
  }
  for (auto [name, value] : {std::pair<StringRef, Value>{"key", k},
                             {"value", v},
                             {"decay", decay},
                             {"beta", beta}}) {
    if (!value)
      continue;
    RankedTensorType type = packedType(value);
    if (!type || type.getElementType() != element) {
      error = "needs " + name.str() + " of rank 3 and of the query's type";
      return failure();
    }
  }
  // The head sizes d_k and d_v, `?` where the packed size is dynamic; the
  // packed sizes are checked where they are static.
  auto lastDim = [](RankedTensorType type) { return type.getDimSize(2); };
  auto headSize = [](int64_t packed, int64_t heads) {
    return ShapedType::isDynamic(packed) ? packed : packed / heads;
  };
  auto notMultiple = [](int64_t packed, int64_t heads) {
    return !ShapedType::isDynamic(packed) && packed % heads != 0;
  };
  int64_t keySize = headSize(lastDim(qType), *qHeads);
  int64_t valueSize = headSize(lastDim(vType), *kvHeads);
  if (notMultiple(lastDim(qType), *qHeads) ||
      notMultiple(lastDim(vType), *kvHeads) ||
      (!ShapedType::isDynamic(keySize) && !kType.isDynamicDim(2) &&
       lastDim(kType) != *kvHeads * keySize)) {
    error = "needs query, key and value sizes of q_num_heads x d_k, "
            "kv_num_heads x d_k and kv_num_heads x d_v (got " +
            std::to_string(lastDim(qType)) + ", " +
            std::to_string(lastDim(kType)) + " and " +
            std::to_string(lastDim(vType)) + ")";
    return failure();
  }
  int64_t decaySize = decay ? lastDim(packedType(decay)) : 0;
  if (decay && !ShapedType::isDynamic(decaySize) && decaySize != *kvHeads &&
      (ShapedType::isDynamic(keySize) || decaySize != *kvHeads * keySize)) {
    error = "needs a decay size of kv_num_heads or kv_num_heads x d_k (got " +
            std::to_string(decaySize) + ")";
    return failure();
  }
  int64_t betaSize = beta ? lastDim(packedType(beta)) : 0;
  if (beta && !ShapedType::isDynamic(betaSize) && betaSize != *kvHeads &&
      betaSize != 1) {
    error = "needs a beta size of kv_num_heads or 1 (got " +
            std::to_string(betaSize) + ")";
    return failure();
  }
  int64_t stateDType = *dtype;
  if (past) {
    auto pastType = dyn_cast<RankedTensorType>(past.getType());
    std::optional<int64_t> pastDType =
        pastType ? floatDType(pastType.getElementType()) : std::nullopt;
    SmallVector<int64_t> expected{qType.getDimSize(0), *kvHeads, keySize,
                                  valueSize};
    auto differ = [](auto dims) {
      auto [dim, want] = dims;
      return !ShapedType::isDynamic(dim) && !ShapedType::isDynamic(want) &&
             dim != want;
    };
    if (!pastDType || pastType.getRank() != 4 ||
        llvm::any_of(llvm::zip(pastType.getShape(), expected), differ)) {
      error = "needs a floating-point past_state of shape [batch, "
              "kv_num_heads, d_k, d_v]";
      return failure();
    }
    stateDType = *pastDType;
  }
  constexpr int64_t kFloat = ::onnx::TensorProto::FLOAT;
  OpBuilder &b = node.builder;
  Type f32 = b.getF32Type();
  Expansion e(node, error);
  NamedAttribute axis0 = e.attr("axis", 0);
  // d_k and d_v as 1-element tensors (constants once the shapes fold).
  Value keySizeValue = e.op("Div", {e.op("Shape", q, {e.attr("start", 2)}),
                                    node.i64Constant({*qHeads})});
  Value valueSizeValue = e.op("Div", {e.op("Shape", v, {e.attr("start", 2)}),
                                      node.i64Constant({*kvHeads})});
  // scale, 1 / sqrt(d_k) by default.
  Value scale;
  if (*scaleAttr != 0.0)
    scale = e.scalar(f32, *scaleAttr);
  else if (!ShapedType::isDynamic(keySize))
    scale = e.scalar(f32, 1.0 / std::sqrt(static_cast<double>(keySize)));
  else
    scale = e.op("Reciprocal", e.op("Sqrt", e.castTo(keySizeValue, kFloat)));
  int64_t group = *qHeads / *kvHeads;
  // [batch, time, heads x size] -> [batch, time, heads, ...] in float.
  auto toHeads = [&](Value x, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> shape{0, 0};
    llvm::append_range(shape, dims);
    return e.op("Reshape", {e.castTo(x, kFloat), node.i64Constant(shape)});
  };
  Value scaledQ = e.op("Mul", {e.castTo(q, kFloat), scale});
  SmallVector<Value> scanInputs{toHeads(scaledQ, {*kvHeads, group, -1}),
                                toHeads(k, {*kvHeads, -1}),
                                toHeads(v, {*kvHeads, -1})};
  if (gating)
    scanInputs.push_back(e.op("Exp", toHeads(decay, {*kvHeads, -1})));
  if (deltaRule)
    scanInputs.push_back(toHeads(beta, {-1, 1, 1}));
  Value state = past ? e.castTo(past, kFloat) : Value();
  if (!past) {
    Value shape =
        e.op("Concat",
             {e.op("Shape", q, {e.attr("end", 1)}),
              node.i64Constant({*kvHeads}), keySizeValue, valueSizeValue},
             {axis0});
    state = e.op("ConstantOfShape", shape);
  }
  Value lastAxis = node.i64Constant({-1}),
        secondLastAxis = node.i64Constant({-2});
  if (!e.ok())
    return failure();
  // The body: one step's slices (the scan inputs without their time axis).
  SmallVector<Type> argTypes{state.getType()};
  for (Value scanned : scanInputs) {
    auto type = cast<RankedTensorType>(scanned.getType());
    SmallVector<int64_t> dims(type.getShape());
    dims.erase(dims.begin() + 1);
    argTypes.push_back(RankedTensorType::get(dims, f32));
  }
  OperationState scanState(node.loc, onnx::ScanOp::getOperationName());
  Region *body = scanState.addRegion();
  SmallVector<Value> yielded;
  {
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(
        body, {}, argTypes, SmallVector<Location>(argTypes.size(), node.loc));
    Value s = block->getArgument(0), qt = block->getArgument(1),
          kt = block->getArgument(2), vt = block->getArgument(3);
    unsigned next = 4;
    if (gating)
      s = e.op("Mul",
               {s, e.op("Unsqueeze", {block->getArgument(next++), lastAxis})});
    Value vRow = e.op("Unsqueeze", {vt, secondLastAxis});
    if (deltaRule) {
      Value retrieved =
          e.op("MatMul", {e.op("Unsqueeze", {kt, secondLastAxis}), s});
      vRow = e.op("Mul",
                  {block->getArgument(next++), e.op("Sub", {vRow, retrieved})});
    }
    s = e.op("Add",
             {s, e.op("MatMul", {e.op("Unsqueeze", {kt, lastAxis}), vRow})});
    Value out = e.op("MatMul", {qt, s});
    if (!e.ok())
      return failure();
    b.create<onnx::YieldOp>(node.loc, ValueRange{s, out});
    yielded = {s, out};
  }
  auto outType = cast<RankedTensorType>(yielded[1].getType());
  SmallVector<int64_t> outDims(outType.getShape());
  outDims.insert(outDims.begin() + 1, qType.getDimSize(1));
  SmallVector<int64_t> inAxes(scanInputs.size(), 1);
  scanState.addOperands(state);
  scanState.addOperands(scanInputs);
  // The state's type as the initial and the yielded one agree on it.
  Type stateType = onnx::joinTypes(state.getType(), yielded[0].getType());
  scanState.addTypes({stateType, RankedTensorType::get(outDims, f32)});
  scanState.addAttribute("num_scan_inputs",
                         b.getI64IntegerAttr(scanInputs.size()));
  scanState.addAttribute("scan_input_axes", b.getDenseI64ArrayAttr(inAxes));
  scanState.addAttribute("scan_output_axes", b.getDenseI64ArrayAttr({1}));
  Operation *scan = b.create(scanState);
  // [batch, time, kv heads, group, d_v] -> [batch, time, q heads x d_v].
  Value output = e.castTo(
      e.op("Reshape", {scan->getResult(1), node.i64Constant({0, 0, -1})}),
      *dtype);
  Value present = e.castTo(scan->getResult(0), stateDType);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{output, present};
}

/// LpPool (opsets 2 on, integer `p`): (sum of |x|^p over each window)^(1/p),
/// as AveragePool of |x|^p counting the padding (zeros) times the window's
/// size, then the 1/p-th power. The window attributes pass to AveragePool.
FailureOr<SmallVector<Value>> importLpPool(NodeContext &node,
                                           std::string &error) {
  std::optional<int64_t> p = intAttr(node, "p", 2, error);
  if (!p)
    return failure();
  if (*p <= 0) {
    error = "has p " + std::to_string(*p) + " (expected a positive int)";
    return failure();
  }
  DenseI64ArrayAttr kernel;
  for (NamedAttribute attr : node.attributes)
    if (attr.getName() == "kernel_shape")
      kernel = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
  Value x = node.inputs[0];
  Type element = getElementTypeOrSelf(x.getType());
  if (!kernel || !isa<FloatType>(element)) {
    error = kernel ? "needs a floating-point input"
                   : "lacks the required attribute 'kernel_shape' (ints)";
    return failure();
  }
  int64_t windowSize = 1;
  for (int64_t size : kernel.asArrayRef())
    windowSize *= size;
  Expansion e(node, error);
  SmallVector<NamedAttribute> window(node.attributes.begin(),
                                     node.attributes.end());
  window.push_back(e.attr("count_include_pad", 1));
  Value powered =
      e.op("Pow", {e.op("Abs", x), e.scalar(element, static_cast<double>(*p))});
  Value sums = e.op("Mul", {e.op("AveragePool", powered, window),
                            e.scalar(element, windowSize)});
  Value y = e.op("Pow", {sums, e.scalar(element, 1.0 / *p)});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// CenterCropPad-18: each dim of `axes` (all by default) cropped to or
/// padded with zeros to its size in `shape`, centred: a crop starts at
/// (dim - size) / 2, a pad puts (size - dim) / 2 before and the rest after.
/// Slice then Pad, with the offsets computed at run time.
FailureOr<SmallVector<Value>> importCenterCropPad(NodeContext &node,
                                                  std::string &error) {
  std::optional<Attribute> axesAttr = node.takeAttribute("axes");
  if (failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0], shape = node.inputs[1];
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || isa<NoneType>(shape.getType())) {
    error = "needs an input of known rank and a shape";
    return failure();
  }
  int64_t rank = xType.getRank();
  SmallVector<int64_t> axes;
  if (axesAttr) {
    auto list = dyn_cast<DenseI64ArrayAttr>(*axesAttr);
    if (!list) {
      error = "expects attribute 'axes' to be ints";
      return failure();
    }
    for (int64_t axis : list.asArrayRef()) {
      std::optional<int64_t> normalized = onnx::normalizeAxis(axis, rank);
      if (!normalized) {
        error = "has axis " + std::to_string(axis) + " out of range for rank " +
                std::to_string(rank);
        return failure();
      }
      axes.push_back(*normalized);
    }
  } else {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  Expansion e(node, error);
  Value axesValue = node.i64Constant(axes);
  Value zero = node.i64Constant({0}), two = node.i64Constant({2});
  Value dims = e.op("Gather", {e.op("Shape", x), axesValue});
  Value cropBy = e.op("Max", {e.op("Sub", {dims, shape}), zero});
  Value starts = e.op("Div", {cropBy, two});
  Value ends = e.op("Add", {starts, e.op("Min", {dims, shape})});
  Value cropped = e.op("Slice", {x, starts, ends, axesValue, node.noValue()});
  Value padBy = e.op("Max", {e.op("Sub", {shape, dims}), zero});
  Value before = e.op("Div", {padBy, two});
  Value pads = e.op("Concat", {before, e.op("Sub", {padBy, before})},
                    {e.attr("axis", 0)});
  Value y = e.op("Pad", {cropped, pads, node.noValue(), axesValue});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// GroupNormalization-21: the channels of X [N, C, ...] in num_groups
/// groups, each normalized over its channels and spatial dims (mean and
/// variance in stash_type, float by default), then per-channel scale and
/// bias.
FailureOr<SmallVector<Value>> importGroupNormalization(NodeContext &node,
                                                       std::string &error) {
  std::optional<int64_t> groups = intAttr(node, "num_groups", 0, error);
  std::optional<double> epsilon = floatAttr(node, "epsilon", 1e-5, error);
  std::optional<int64_t> stashType =
      intAttr(node, "stash_type", ::onnx::TensorProto::FLOAT, error);
  if (!groups || !epsilon || !stashType ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0], scale = node.inputs[1], bias = node.inputs[2];
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || xType.getRank() < 2 || isa<NoneType>(scale.getType()) ||
      isa<NoneType>(bias.getType()) || *groups <= 0) {
    error = "needs X of rank 2 or more, scale, bias and a positive "
            "num_groups";
    return failure();
  }
  std::optional<int64_t> xDType = onnx::getONNXDType(xType.getElementType());
  Type stash = stashTypeOf(node, *stashType, error);
  if (!stash || !xDType) {
    if (!xDType)
      error = "needs X of an ONNX data type";
    return failure();
  }
  Expansion e(node, error);
  Value xu = e.castTo(x, *stashType);
  Value grouped = e.op("Reshape", {xu, node.i64Constant({0, *groups, -1})});
  Value lastAxis = node.i64Constant({2});
  NamedAttribute keep = e.attr("keepdims", 1);
  Value mean = e.op("ReduceMean", {grouped, lastAxis}, {keep});
  Value centred = e.op("Sub", {grouped, mean});
  Value variance =
      e.op("ReduceMean", {e.op("Mul", {centred, centred}), lastAxis}, {keep});
  Value deviation =
      e.op("Sqrt", e.op("Add", {variance, e.scalar(stash, *epsilon)}));
  Value normalized = e.castTo(
      e.op("Reshape", {e.op("Div", {centred, deviation}), e.op("Shape", x)}),
      *xDType);
  // scale and bias [C] -> [C, 1, ..., 1] against X's [N, C, ...].
  SmallVector<int64_t> perChannel(xType.getRank() - 1, 1);
  perChannel[0] = -1;
  Value channelShape = node.i64Constant(perChannel);
  Value y = e.op(
      "Add", {e.op("Mul", {normalized, e.op("Reshape", {scale, channelShape})}),
              e.op("Reshape", {bias, channelShape})});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

} // namespace onnxc::frontend
