//===- ShapeMisc.cpp - Result types of the onnx ops of ops/Misc.td --------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

static constexpr int64_t kDyn = ShapedType::kDynamic;

/// True when `type` is ranked with a static element count other than one.
static bool isNotOneElement(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape() && ranked.getNumElements() != 1;
}

LogicalResult
NonZeroOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                            ValueRange operands, DictionaryAttr attrs,
                            OpaqueProperties props, RegionRange regions,
                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  // A scalar has one coordinate row of its own in onnxruntime but none in
  // the spec's numpy reference; both give `[rank, n]`.
  result.push_back(RankedTensorType::get({x ? x.getRank() : kDyn, kDyn},
                                         IntegerType::get(ctx, 64)));
  return success();
}

LogicalResult
CompressOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                             ValueRange operands, DictionaryAttr attrs,
                             OpaqueProperties props, RegionRange regions,
                             SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto cond = dyn_cast<RankedTensorType>(op.getCondition().getType());
  // compress_c1
  if (cond && cond.getRank() != 1)
    return opError(loc, "Compress", "expects a 1-D 'condition' (got ", cond,
                   ")");
  auto input = dyn_cast<RankedTensorType>(op.getInput().getType());
  Type element = getElementTypeOrSelf(op.getInput().getType());
  if (!op.getAxis()) {
    result.push_back(RankedTensorType::get({kDyn}, element));
    return success();
  }
  if (!input) {
    result.push_back(op.getInput().getType());
    return success();
  }
  int64_t rawAxis = static_cast<int64_t>(*op.getAxis());
  std::optional<int64_t> axis = normalizeAxis(rawAxis, input.getRank());
  // compress_c2
  if (!axis)
    return opError(loc, "Compress", "expects 'axis' in [", -input.getRank(),
                   ", ", input.getRank(), ") (got ", rawAxis, ")");
  // compress_c3
  if (cond && dimsDiffer(cond.getDimSize(0), input.getDimSize(*axis)) &&
      cond.getDimSize(0) > input.getDimSize(*axis))
    return opError(loc, "Compress", "has a 'condition' longer than dim ", *axis,
                   " of the input (", cond.getDimSize(0), " > ",
                   input.getDimSize(*axis), ")");
  SmallVector<int64_t> shape(input.getShape());
  shape[*axis] = kDyn;
  result.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult NonMaxSuppressionOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto boxes = dyn_cast<RankedTensorType>(op.getBoxes().getType());
  auto scores = dyn_cast<RankedTensorType>(op.getScores().getType());
  // nonmaxsuppression_c1
  if ((boxes && (boxes.getRank() != 3 || dimsDiffer(boxes.getDimSize(2), 4))) ||
      (scores && scores.getRank() != 3))
    return opError(loc, "NonMaxSuppression",
                   "expects 'boxes' [batch, boxes, 4] and 'scores' [batch, "
                   "classes, boxes]");
  // nonmaxsuppression_c2
  if (boxes && scores &&
      (dimsDiffer(boxes.getDimSize(0), scores.getDimSize(0)) ||
       dimsDiffer(boxes.getDimSize(1), scores.getDimSize(2))))
    return opError(loc, "NonMaxSuppression", "has 'boxes' ", boxes,
                   " that do not match 'scores' ", scores);
  // nonmaxsuppression_c3
  for (Value v : {op.getMaxOutputBoxesPerClass(), op.getIouThreshold(),
                  op.getScoreThreshold()})
    if (!isNoValue(v) && isNotOneElement(v.getType()))
      return opError(loc, "NonMaxSuppression",
                     "expects one-element thresholds and box count (got ",
                     v.getType(), ")");
  // nonmaxsuppression_c4
  if (!isNoValue(op.getMaxOutputBoxesPerClass()) &&
      !getElementTypeOrSelf(op.getMaxOutputBoxesPerClass()).isInteger(64))
    return opError(loc, "NonMaxSuppression",
                   "expects an int64 'max_output_boxes_per_class'");
  // nonmaxsuppression_c5
  if (op.getCenterPointBox() > 1)
    return opError(loc, "NonMaxSuppression",
                   "expects 'center_point_box' 0 or 1 (got ",
                   static_cast<int64_t>(op.getCenterPointBox()), ")");
  result.push_back(RankedTensorType::get({kDyn, 3}, IntegerType::get(ctx, 64)));
  return success();
}

LogicalResult
UniqueOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type i64 = IntegerType::get(ctx, 64);
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  Type element = getElementTypeOrSelf(op.getX().getType());
  auto vector = [&](int64_t size) {
    return RankedTensorType::get({size}, i64);
  };
  if (!op.getAxis()) {
    result.push_back(RankedTensorType::get({kDyn}, element));
    result.push_back(vector(kDyn));
    result.push_back(vector(x ? productOfDims(x.getShape()) : kDyn));
    result.push_back(vector(kDyn));
    return success();
  }
  if (!x) {
    result.push_back(op.getX().getType());
    result.append({vector(kDyn), vector(kDyn), vector(kDyn)});
    return success();
  }
  int64_t rawAxis = static_cast<int64_t>(*op.getAxis());
  std::optional<int64_t> axis = normalizeAxis(rawAxis, x.getRank());
  // unique_c1
  if (!axis)
    return opError(loc, "Unique", "expects 'axis' in [", -x.getRank(), ", ",
                   x.getRank(), ") (got ", rawAxis, ")");
  SmallVector<int64_t> shape(x.getShape());
  shape[*axis] = kDyn;
  result.push_back(RankedTensorType::get(shape, element));
  result.append({vector(kDyn), vector(x.getDimSize(*axis)), vector(kDyn)});
  return success();
}

/// Result type of the window ops.
static LogicalResult inferWindow(MLIRContext *ctx, std::optional<Location> loc,
                                 StringRef opName, Value size, int64_t dtype,
                                 SmallVectorImpl<Type> &result) {
  // window_c1
  if (isNotOneElement(size.getType()))
    return opError(loc, opName, "expects a scalar 'size' (got ", size.getType(),
                   ")");
  Type element = getElementType(ctx, dtype);
  // window_c2
  if (!element || element.isInteger(1))
    return opError(loc, opName, "has unsupported 'output_datatype' ", dtype);
  int64_t length = kDyn;
  if (auto values = getConstantIntValues(size); values && values->size() == 1)
    length = std::max<int64_t>((*values)[0], 0);
  result.push_back(RankedTensorType::get({length}, element));
  return success();
}

#define ONNXC_WINDOW_INFERENCE(OP, NAME)                                       \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,      \
      DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,       \
      SmallVectorImpl<Type> &result) {                                         \
    Adaptor op(operands, attrs, props, regions);                               \
    return inferWindow(ctx, loc, NAME, op.getSize(),                           \
                       static_cast<int64_t>(op.getOutputDatatype()), result);  \
  }
ONNXC_WINDOW_INFERENCE(HannWindowOp, "HannWindow")
ONNXC_WINDOW_INFERENCE(HammingWindowOp, "HammingWindow")
ONNXC_WINDOW_INFERENCE(BlackmanWindowOp, "BlackmanWindow")
#undef ONNXC_WINDOW_INFERENCE

/// The one value of a constant one-element integer tensor, if it is one.
static std::optional<int64_t> getConstantScalarInt(Value value) {
  if (isNoValue(value))
    return std::nullopt;
  auto values = getConstantIntValues(value);
  if (!values || values->size() != 1)
    return std::nullopt;
  return (*values)[0];
}

LogicalResult DFTOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      ValueRange operands, DictionaryAttr attrs,
                                      OpaqueProperties props,
                                      RegionRange regions,
                                      SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // dft_c1
  if (!isNoValue(op.getDftLength()) &&
      (isNotOneElement(op.getDftLength().getType()) ||
       !isa<IntegerType>(getElementTypeOrSelf(op.getDftLength()))))
    return opError(loc, "DFT", "expects a scalar integer 'dft_length' (got ",
                   op.getDftLength().getType(), ")");
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!x) {
    result.push_back(op.getInput().getType());
    return success();
  }
  int64_t rank = x.getRank();
  // dft_c2
  if (rank < 2 || (dimsDiffer(x.getDimSize(rank - 1), 1) &&
                   dimsDiffer(x.getDimSize(rank - 1), 2)))
    return opError(loc, "DFT",
                   "expects an input whose last dim is 1 (real) "
                   "or 2 (complex) (got ",
                   x, ")");
  int64_t rawAxis = static_cast<int64_t>(op.getAxis());
  std::optional<int64_t> axis = normalizeAxis(rawAxis, rank);
  // dft_c3
  if (!axis || *axis == rank - 1)
    return opError(loc, "DFT", "expects 'axis' to name a signal dim (got ",
                   rawAxis, " for rank ", rank, ")");
  bool onesided = op.getOnesided() != 0, inverse = op.getInverse() != 0;
  int64_t length = x.getDimSize(*axis);
  // The inverse of a onesided transform reads the first half of a Hermitian
  // spectrum: its length is 2 * (frequencies - 1) unless given.
  if (onesided && inverse && !ShapedType::isDynamic(length))
    length = 2 * (length - 1);
  if (!isNoValue(op.getDftLength()))
    length = getConstantScalarInt(op.getDftLength()).value_or(kDyn);
  // dft_c5
  if (!ShapedType::isDynamic(length) && length < 1)
    return opError(loc, "DFT", "expects a positive 'dft_length' (got ", length,
                   ")");
  if (onesided && !inverse && !ShapedType::isDynamic(length))
    length = length / 2 + 1;
  SmallVector<int64_t> shape(x.getShape());
  shape[*axis] = length;
  // ... and its result is real.
  shape[rank - 1] = onesided && inverse ? 1 : 2;
  result.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult
STFTOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attrs,
                         OpaqueProperties props, RegionRange regions,
                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getSignal().getType());
  Type element = getElementTypeOrSelf(op.getSignal().getType());
  // stft_c1
  if (x && (x.getRank() != 3 ||
            (dimsDiffer(x.getDimSize(2), 1) && dimsDiffer(x.getDimSize(2), 2))))
    return opError(loc, "STFT",
                   "expects a signal [batch, length, 1 or 2] "
                   "(got ",
                   x, ")");
  // stft_c2
  if (isNotOneElement(op.getFrameStep().getType()) ||
      (!isNoValue(op.getFrameLength()) &&
       isNotOneElement(op.getFrameLength().getType())))
    return opError(loc, "STFT",
                   "expects scalar 'frame_step' and "
                   "'frame_length'");
  auto window = dyn_cast<RankedTensorType>(op.getWindow().getType());
  // stft_c3
  if (!isNoValue(op.getWindow()) && window && window.getRank() != 1)
    return opError(loc, "STFT", "expects a 1-D 'window' (got ", window, ")");
  // stft_c4
  if (isNoValue(op.getWindow()) && isNoValue(op.getFrameLength()))
    return opError(loc, "STFT", "needs a 'window' or a 'frame_length'");
  int64_t frameLength = kDyn;
  if (!isNoValue(op.getFrameLength()))
    frameLength = getConstantScalarInt(op.getFrameLength()).value_or(kDyn);
  else if (window)
    frameLength = window.getDimSize(0);
  std::optional<int64_t> step = getConstantScalarInt(op.getFrameStep());
  int64_t frames = kDyn, bins = kDyn;
  if (x && step && *step > 0 && !ShapedType::isDynamic(frameLength) &&
      !x.isDynamicDim(1))
    frames = std::max<int64_t>((x.getDimSize(1) - frameLength) / *step + 1, 0);
  if (!ShapedType::isDynamic(frameLength))
    bins = op.getOnesided() != 0 ? frameLength / 2 + 1 : frameLength;
  result.push_back(RankedTensorType::get(
      {x ? x.getDimSize(0) : kDyn, frames, bins, 2}, element));
  return success();
}

/// The float element type of ONNX data type `dtype` for a random op.
static FailureOr<Type> getRandomElementType(MLIRContext *ctx,
                                            std::optional<Location> loc,
                                            StringRef opName, int64_t dtype) {
  Type element = getElementType(ctx, dtype);
  // random_c1
  if (!element || !isa<FloatType>(element))
    return opError(loc, opName, "expects a float 'dtype' (got ", dtype, ")");
  return element;
}

LogicalResult
RandomUniformOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                  ValueRange operands, DictionaryAttr attrs,
                                  OpaqueProperties props, RegionRange regions,
                                  SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  FailureOr<Type> element = getRandomElementType(
      ctx, loc, "RandomUniform", static_cast<int64_t>(op.getDtype()));
  if (failed(element))
    return failure();
  // random_c2
  if (llvm::any_of(op.getShape(), [](int64_t d) { return d < 0; }))
    return opError(loc, "RandomUniform", "expects a non-negative 'shape'");
  result.push_back(RankedTensorType::get(op.getShape(), *element));
  return success();
}

LogicalResult
RandomNormalOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                 ValueRange operands, DictionaryAttr attrs,
                                 OpaqueProperties props, RegionRange regions,
                                 SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  FailureOr<Type> element = getRandomElementType(
      ctx, loc, "RandomNormal", static_cast<int64_t>(op.getDtype()));
  if (failed(element))
    return failure();
  // random_c2
  if (llvm::any_of(op.getShape(), [](int64_t d) { return d < 0; }))
    return opError(loc, "RandomNormal", "expects a non-negative 'shape'");
  result.push_back(RankedTensorType::get(op.getShape(), *element));
  return success();
}

/// Result type of the *Like random ops and Bernoulli: `input`'s shape with
/// the element type of `dtype`, else `input`'s.
static LogicalResult
inferRandomLike(MLIRContext *ctx, std::optional<Location> loc, StringRef opName,
                Value input, std::optional<uint64_t> dtype, bool floatOnly,
                SmallVectorImpl<Type> &result) {
  auto type = cast<TensorType>(input.getType());
  Type element = type.getElementType();
  if (dtype) {
    element = getElementType(ctx, static_cast<int64_t>(*dtype));
    // random_c3
    if (!element)
      return opError(loc, opName, "has unsupported 'dtype' ",
                     static_cast<int64_t>(*dtype));
  }
  // random_c1
  if (floatOnly && !isa<FloatType>(element))
    return opError(loc, opName, "expects a float result type (got ", element,
                   ")");
  result.push_back(type.clone(element));
  return success();
}

LogicalResult RandomUniformLikeOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  return inferRandomLike(ctx, loc, "RandomUniformLike", op.getInput(),
                         op.getDtype(), /*floatOnly=*/true, result);
}

LogicalResult RandomNormalLikeOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  return inferRandomLike(ctx, loc, "RandomNormalLike", op.getInput(),
                         op.getDtype(), /*floatOnly=*/true, result);
}

LogicalResult
BernoulliOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                              ValueRange operands, DictionaryAttr attrs,
                              OpaqueProperties props, RegionRange regions,
                              SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  return inferRandomLike(ctx, loc, "Bernoulli", op.getInput(), op.getDtype(),
                         /*floatOnly=*/false, result);
}

LogicalResult LRNOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      ValueRange operands, DictionaryAttr attrs,
                                      OpaqueProperties props,
                                      RegionRange regions,
                                      SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  // lrn_c1
  if (x && x.getRank() < 2)
    return opError(loc, "LRN", "expects an input of rank 2 or more (got ", x,
                   ")");
  // lrn_c2
  if (static_cast<int64_t>(op.getSize()) < 1)
    return opError(loc, "LRN", "expects a positive 'size' (got ",
                   static_cast<int64_t>(op.getSize()), ")");
  result.push_back(op.getX().getType());
  return success();
}

LogicalResult DetOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      ValueRange operands, DictionaryAttr attrs,
                                      OpaqueProperties props,
                                      RegionRange regions,
                                      SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  if (!x) {
    result.push_back(op.getX().getType());
    return success();
  }
  int64_t rank = x.getRank();
  // det_c1
  if (rank < 2 || dimsDiffer(x.getDimSize(rank - 1), x.getDimSize(rank - 2)))
    return opError(loc, "Det",
                   "expects square matrices in the last two dims "
                   "(got ",
                   x, ")");
  result.push_back(
      RankedTensorType::get(x.getShape().drop_back(2), x.getElementType()));
  return success();
}

LogicalResult
ReverseSequenceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    ValueRange operands, DictionaryAttr attrs,
                                    OpaqueProperties props, RegionRange regions,
                                    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  int64_t batchAxis = static_cast<int64_t>(op.getBatchAxis());
  int64_t timeAxis = static_cast<int64_t>(op.getTimeAxis());
  // reversesequence_c1
  if (!((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    return opError(loc, "ReverseSequence",
                   "expects 'batch_axis' and 'time_axis' 0 and 1 in either "
                   "order (got ",
                   batchAxis, " and ", timeAxis, ")");
  auto x = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto lens = dyn_cast<RankedTensorType>(op.getSequenceLens().getType());
  // reversesequence_c2
  if (x && x.getRank() < 2)
    return opError(loc, "ReverseSequence",
                   "expects an input of rank 2 or more (got ", x, ")");
  // reversesequence_c3
  if (lens && (lens.getRank() != 1 ||
               (x && dimsDiffer(lens.getDimSize(0), x.getDimSize(batchAxis)))))
    return opError(loc, "ReverseSequence",
                   "expects 'sequence_lens' of the batch size (got ", lens,
                   ")");
  result.push_back(op.getInput().getType());
  return success();
}

FailureOr<SmallVector<TfIdfGram>> onnxc::onnx::resolveTfIdfPool(
    std::optional<Location> loc, ArrayRef<int64_t> ngramCounts,
    ArrayRef<int64_t> ngramIndexes, ArrayRef<int64_t> pool) {
  SmallVector<TfIdfGram> grams;
  int64_t poolSize = static_cast<int64_t>(pool.size());
  for (auto [i, start] : llvm::enumerate(ngramCounts)) {
    int64_t length = static_cast<int64_t>(i) + 1;
    int64_t end = i + 1 < ngramCounts.size() ? ngramCounts[i + 1] : poolSize;
    // tfidfvectorizer_c3
    if (start < 0 || end < start || end > poolSize ||
        (end - start) % length != 0)
      return opError(loc, "TfIdfVectorizer",
                     "has 'ngram_counts' that do not split the pool into "
                     "n-grams (the ",
                     length, "-grams at [", start, ", ", end, ") of ", poolSize,
                     ")");
    for (int64_t at = start; at < end; at += length)
      grams.push_back({at, length, 0});
  }
  // tfidfvectorizer_c4
  if (grams.size() != ngramIndexes.size())
    return opError(loc, "TfIdfVectorizer", "has ", ngramIndexes.size(),
                   " 'ngram_indexes' for ", grams.size(), " n-grams");
  for (auto [gram, index] : llvm::zip(grams, ngramIndexes)) {
    // tfidfvectorizer_c5
    if (index < 0)
      return opError(loc, "TfIdfVectorizer", "has a negative n-gram index ",
                     index);
    gram.output = index;
  }
  return grams;
}

LogicalResult TfIdfVectorizerOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  // tfidfvectorizer_c1
  if (x && x.getRank() != 1 && x.getRank() != 2)
    return opError(loc, "TfIdfVectorizer", "expects a 1-D or 2-D input (got ",
                   x, ")");
  int64_t minLength = static_cast<int64_t>(op.getMinGramLength());
  int64_t maxLength = static_cast<int64_t>(op.getMaxGramLength());
  // tfidfvectorizer_c2
  if (minLength < 1 || maxLength < minLength ||
      static_cast<int64_t>(op.getMaxSkipCount()) < 0)
    return opError(loc, "TfIdfVectorizer",
                   "expects 1 <= 'min_gram_length' <= 'max_gram_length' and "
                   "a non-negative 'max_skip_count'");
  // tfidfvectorizer_c6
  if (op.getMode() != "TF" && op.getMode() != "IDF" && op.getMode() != "TFIDF")
    return opError(loc, "TfIdfVectorizer",
                   "expects 'mode' TF, IDF or TFIDF (got '", op.getMode(),
                   "')");
  // tfidfvectorizer_c7
  if (!op.getPoolInt64s())
    return opError(loc, "TfIdfVectorizer", "needs 'pool_int64s'");
  FailureOr<SmallVector<TfIdfGram>> grams = resolveTfIdfPool(
      loc, op.getNgramCounts(), op.getNgramIndexes(), *op.getPoolInt64s());
  if (failed(grams))
    return failure();
  // tfidfvectorizer_c8
  if (op.getWeights() && op.getWeights()->size() != grams->size())
    return opError(loc, "TfIdfVectorizer", "has ", op.getWeights()->size(),
                   " 'weights' for ", grams->size(), " n-grams");
  int64_t outputs = 0;
  for (const TfIdfGram &gram : *grams)
    outputs = std::max(outputs, gram.output + 1);
  if (!x) {
    result.push_back(UnrankedTensorType::get(Float32Type::get(ctx)));
    return success();
  }
  SmallVector<int64_t> shape{outputs};
  if (x.getRank() == 2)
    shape.insert(shape.begin(), x.getDimSize(0));
  result.push_back(RankedTensorType::get(shape, Float32Type::get(ctx)));
  return success();
}

LogicalResult
ImageDecoderOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                 ValueRange operands, DictionaryAttr attrs,
                                 OpaqueProperties props, RegionRange regions,
                                 SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  StringRef format = op.getPixelFormat();
  // imagedecoder_c1
  if (format != "RGB" && format != "BGR" && format != "Grayscale")
    return opError(loc, "ImageDecoder",
                   "expects a 'pixel_format' of RGB, BGR or Grayscale (got '",
                   format, "')");
  // imagedecoder_c2
  auto stream = dyn_cast<RankedTensorType>(op.getEncodedStream().getType());
  if (stream && stream.getRank() != 1)
    return opError(loc, "ImageDecoder",
                   "expects a 1-D encoded_stream (got rank ", stream.getRank(),
                   ")");
  int64_t channels = format == "Grayscale" ? 1 : 3;
  result.push_back(RankedTensorType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic, channels},
      IntegerType::get(ctx, 8, IntegerType::Unsigned)));
  return success();
}
