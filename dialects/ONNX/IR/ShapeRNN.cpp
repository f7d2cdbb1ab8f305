//===- ShapeRNN.cpp - Result types of the onnx recurrent ops --------------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

bool onnxc::onnx::isRecurrentActivation(StringRef name) {
  static const char *const names[] = {
      "Relu",       "Tanh",        "Sigmoid",
      "Affine",     "LeakyRelu",   "ThresholdedRelu",
      "ScaledTanh", "HardSigmoid", "Elu",
      "Softsign",   "Softplus"};
  return llvm::any_of(
      names, [&](const char *known) { return name.equals_insensitive(known); });
}

std::optional<int64_t>
onnxc::onnx::getRecurrentDirections(StringRef direction) {
  if (direction == "forward" || direction == "reverse")
    return 1;
  if (direction == "bidirectional")
    return 2;
  return std::nullopt;
}

namespace {
/// The operands and attributes the recurrent ops share.
struct RecurrentOperands {
  Value x, w, r, b, sequenceLens, initialH;
  std::optional<ArrayAttr> activations;
  StringRef direction;
  std::optional<uint64_t> hiddenSize;
  int64_t layout;
};
} // namespace

/// Result types of LSTM, GRU and RNN: Y, then `numStates` final states.
/// `gates` is the number of gates stacked in W and R, `numActivations` the
/// activations each direction takes.
static LogicalResult inferRecurrent(std::optional<Location> loc,
                                    StringRef opName,
                                    const RecurrentOperands &op, int64_t gates,
                                    int64_t numActivations, unsigned numStates,
                                    SmallVectorImpl<Type> &result) {
  std::optional<int64_t> dirs = getRecurrentDirections(op.direction);
  // rnn_c1
  if (!dirs)
    return opError(loc, opName, "has unknown direction '", op.direction,
                   "' (expected forward, reverse or bidirectional)");
  // rnn_c2
  if (op.layout != 0 && op.layout != 1)
    return opError(loc, opName, "expects 'layout' 0 or 1 (got ", op.layout,
                   ")");
  if (op.activations) {
    // rnn_c3
    if (static_cast<int64_t>(op.activations->size()) != numActivations * *dirs)
      return opError(loc, opName, "expects ", numActivations * *dirs,
                     " activations (got ", op.activations->size(), ")");
    for (Attribute name : *op.activations) {
      // rnn_c4
      if (!isRecurrentActivation(cast<StringAttr>(name).getValue()))
        return opError(loc, opName, "has unknown activation '",
                       cast<StringAttr>(name).getValue(), "'");
    }
  }
  Type element = getElementTypeOrSelf(op.x);
  // rnn_c5
  if (getElementTypeOrSelf(op.w) != element ||
      getElementTypeOrSelf(op.r) != element)
    return opError(loc, opName, "expects X, W and R of one element type");
  int64_t hidden = ShapedType::kDynamic;
  if (op.hiddenSize) {
    // rnn_c6
    if (static_cast<int64_t>(*op.hiddenSize) <= 0)
      return opError(loc, opName, "expects a positive 'hidden_size' (got ",
                     static_cast<int64_t>(*op.hiddenSize), ")");
    hidden = static_cast<int64_t>(*op.hiddenSize);
  }
  auto x = dyn_cast<RankedTensorType>(op.x.getType());
  auto w = dyn_cast<RankedTensorType>(op.w.getType());
  auto r = dyn_cast<RankedTensorType>(op.r.getType());
  for (auto [type, name] : {std::make_pair(x, "X"), std::make_pair(w, "W"),
                            std::make_pair(r, "R")}) {
    // rnn_c7
    if (type && type.getRank() != 3)
      return opError(loc, opName, "expects ", name, " of rank 3 (got ", type,
                     ")");
  }
  if (r) {
    // rnn_c8
    if (dimsDiffer(r.getDimSize(2), hidden))
      return opError(loc, opName, "expects R dim 2 to be hidden_size (got ",
                     r.getDimSize(2), " and ", hidden, ")");
    if (ShapedType::isDynamic(hidden))
      hidden = r.getDimSize(2);
  }
  int64_t gateRows =
      ShapedType::isDynamic(hidden) ? ShapedType::kDynamic : gates * hidden;
  for (auto [type, name] : {std::make_pair(w, "W"), std::make_pair(r, "R")}) {
    if (!type)
      continue;
    // rnn_c9
    if (dimsDiffer(type.getDimSize(0), *dirs) ||
        dimsDiffer(type.getDimSize(1), gateRows))
      return opError(loc, opName, "expects ", name, " of shape [", *dirs, ", ",
                     gates, " * hidden_size, ...] (got ", type, ")");
  }
  // rnn_c10
  if (x && w && dimsDiffer(x.getDimSize(2), w.getDimSize(2)))
    return opError(loc, opName, "expects W dim 2 to be the input size (got ",
                   w.getDimSize(2), " and ", x.getDimSize(2), ")");
  if (!isNoValue(op.b)) {
    auto b = dyn_cast<RankedTensorType>(op.b.getType());
    // rnn_c11
    if (b && (b.getRank() != 2 || dimsDiffer(b.getDimSize(0), *dirs) ||
              dimsDiffer(b.getDimSize(1), ShapedType::isDynamic(gateRows)
                                              ? ShapedType::kDynamic
                                              : 2 * gateRows)))
      return opError(loc, opName, "expects B of shape [", *dirs, ", 2 * ",
                     gates, " * hidden_size] (got ", b, ")");
  }
  if (!isNoValue(op.sequenceLens)) {
    auto lens = dyn_cast<RankedTensorType>(op.sequenceLens.getType());
    // rnn_c12
    if (!isa<IntegerType>(getElementTypeOrSelf(op.sequenceLens)) ||
        (lens && lens.getRank() != 1))
      return opError(loc, opName, "expects integer sequence_lens of rank 1");
  }
  if (!x) {
    result.append(1 + numStates, UnrankedTensorType::get(element));
    return success();
  }
  int64_t seq = x.getDimSize(op.layout ? 1 : 0);
  int64_t batch = x.getDimSize(op.layout ? 0 : 1);
  if (op.layout)
    result.push_back(
        RankedTensorType::get({batch, seq, *dirs, hidden}, element));
  else
    result.push_back(
        RankedTensorType::get({seq, *dirs, batch, hidden}, element));
  SmallVector<int64_t> state = op.layout
                                   ? SmallVector<int64_t>{batch, *dirs, hidden}
                                   : SmallVector<int64_t>{*dirs, batch, hidden};
  result.append(numStates, RankedTensorType::get(state, element));
  return success();
}

template <typename AdaptorT>
static RecurrentOperands getRecurrentOperands(AdaptorT op) {
  return {op.getX(),
          op.getW(),
          op.getR(),
          op.getB(),
          op.getSequenceLens(),
          op.getInitialH(),
          op.getActivations(),
          op.getDirection(),
          op.getHiddenSize(),
          static_cast<int64_t>(op.getLayout())};
}

LogicalResult
LSTMOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attrs,
                         OpaqueProperties props, RegionRange regions,
                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  if (!isNoValue(op.getP())) {
    auto p = dyn_cast<RankedTensorType>(op.getP().getType());
    std::optional<int64_t> dirs = getRecurrentDirections(op.getDirection());
    std::optional<uint64_t> hidden = op.getHiddenSize();
    // lstm_c1
    if (p &&
        (p.getRank() != 2 || (dirs && dimsDiffer(p.getDimSize(0), *dirs)) ||
         (hidden &&
          dimsDiffer(p.getDimSize(1), 3 * static_cast<int64_t>(*hidden)))))
      return opError(loc, "LSTM",
                     "expects P of shape [num_directions, 3 * hidden_size] "
                     "(got ",
                     p, ")");
  }
  return inferRecurrent(loc, "LSTM", getRecurrentOperands(op), 4, 3, 2, result);
}

LogicalResult GRUOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      ValueRange operands, DictionaryAttr attrs,
                                      OpaqueProperties props,
                                      RegionRange regions,
                                      SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  return inferRecurrent(loc, "GRU", getRecurrentOperands(op), 3, 2, 1, result);
}

LogicalResult RNNOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      ValueRange operands, DictionaryAttr attrs,
                                      OpaqueProperties props,
                                      RegionRange regions,
                                      SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  return inferRecurrent(loc, "RNN", getRecurrentOperands(op), 1, 1, 1, result);
}
