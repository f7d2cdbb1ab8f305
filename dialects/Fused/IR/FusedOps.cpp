//===- FusedOps.cpp - The fused dialect: registration, types, verifiers ---===//

#include "dialects/Fused/IR/FusedOps.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace onnxc::fused;

#include "dialects/Fused/IR/FusedDialect.cpp.inc"

void FusedDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Fused/IR/FusedOps.cpp.inc"
      >();
}

std::optional<unsigned>
onnxc::fused::getActivationParamCount(StringRef activation) {
  return llvm::StringSwitch<std::optional<unsigned>>(activation)
      .Cases("Relu", "Tanh", "Sigmoid", "HardSwish", "Silu", "Gelu", "GeluTanh",
             0u)
      .Case("LeakyRelu", 1u)
      .Cases("Clip", "HardSigmoid", 2u)
      .Default(std::nullopt);
}

/// The checks both ops make of their activation.
static LogicalResult verifyActivation(Operation *op, StringRef activation,
                                      ArrayRef<float> params) {
  std::optional<unsigned> count = getActivationParamCount(activation);
  // fused_c1
  if (!count)
    return op->emitOpError("has an unknown activation '") << activation << "'";
  // fused_c2
  if (params.size() != *count)
    return op->emitOpError("expects ")
           << *count << " activation_params for " << activation << " (got "
           << params.size() << ")";
  return success();
}

LogicalResult ConvOp::verify() {
  return verifyActivation(*this, getActivation(), getActivationParams());
}

LogicalResult GemmOp::verify() {
  return verifyActivation(*this, getActivation(), getActivationParams());
}

bool ConvOp::isCompatibleReturnTypes(TypeRange lhs, TypeRange rhs) {
  return onnxc::onnx::areCompatibleTypes(lhs, rhs);
}

bool GemmOp::isCompatibleReturnTypes(TypeRange lhs, TypeRange rhs) {
  return onnxc::onnx::areCompatibleTypes(lhs, rhs);
}

// The result is the fused onnx op's: its inference reads the same operands
// and attributes (the activation's are ignored).
LogicalResult
ConvOp::inferReturnTypes(MLIRContext *context, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attributes,
                         OpaqueProperties properties, RegionRange regions,
                         SmallVectorImpl<Type> &results) {
  return onnxc::onnx::ConvOp::inferReturnTypes(
      context, loc, operands, attributes, properties, regions, results);
}

LogicalResult
GemmOp::inferReturnTypes(MLIRContext *context, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attributes,
                         OpaqueProperties properties, RegionRange regions,
                         SmallVectorImpl<Type> &results) {
  return onnxc::onnx::GemmOp::inferReturnTypes(
      context, loc, operands, attributes, properties, regions, results);
}

/// Dim `i` of a ranked `type`, or `?`.
static int64_t dimOf(Type type, unsigned i) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && i < ranked.getRank() ? ranked.getDimSize(i)
                                        : ShapedType::kDynamic;
}

/// True when sizes `a` and `b` may be equal (either is `?`).
static bool mayEqual(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

LogicalResult AttentionOp::verify() {
  int64_t heads = getNumHeads();
  // attention_c1
  if (heads <= 0)
    return emitOpError("expects a positive num_heads (got ") << heads << ")";
  // attention_c2
  for (auto [name, value] : {std::pair<StringRef, Value>{"query", getQuery()},
                             {"key", getKey()},
                             {"value", getValue()}}) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (type && type.getRank() != 3)
      return emitOpError("expects a 3-D ")
             << name << " (got rank " << type.getRank() << ")";
  }
  // attention_c3
  int64_t kvHeads = getKeyValueHeads();
  if (kvHeads <= 0 || heads % kvHeads != 0)
    return emitOpError("expects a kv_num_heads that divides num_heads ")
           << heads << " (got " << kvHeads << ")";
  int64_t width = dimOf(getQuery().getType(), 2);
  int64_t keyWidth = dimOf(getKey().getType(), 2);
  if (!ShapedType::isDynamic(width) && width % heads != 0)
    return emitOpError("expects widths divisible by num_heads ")
           << heads << " (got " << width << ")";
  for (int64_t w : {keyWidth, dimOf(getValue().getType(), 2)})
    if (!ShapedType::isDynamic(w) && w % kvHeads != 0)
      return emitOpError("expects key and value widths divisible by ")
             << (kvHeads == heads ? "num_heads " : "kv_num_heads ") << kvHeads
             << " (got " << w << ")";
  // Q's and K's heads of the same size: widths in the ratio of the heads.
  if (!ShapedType::isDynamic(width) && !ShapedType::isDynamic(keyWidth) &&
      width / heads != keyWidth / kvHeads)
    return emitOpError("expects query and key heads of the same size (got ")
           << width / heads << " and " << keyWidth / kvHeads << ")";
  // attention_c4
  int64_t keys = dimOf(getKey().getType(), 1);
  int64_t values = dimOf(getValue().getType(), 1);
  if (!mayEqual(keys, values))
    return emitOpError("expects as many keys as values (got ")
           << keys << " and " << values << ")";
  // attention_c5
  if (auto mask = dyn_cast<RankedTensorType>(getMask().getType())) {
    int64_t rank = mask.getRank();
    SmallVector<int64_t> scores = {dimOf(getQuery().getType(), 0), heads,
                                   dimOf(getQuery().getType(), 1), keys};
    if (rank > 4)
      return emitOpError("expects a mask of rank at most 4 (got ")
             << rank << ")";
    for (int64_t i = 0; i < rank; ++i) {
      int64_t size = mask.getDimSize(i), want = scores[4 - rank + i];
      if (size != 1 && !mayEqual(size, want))
        return emitOpError("expects a mask that broadcasts to the scores "
                           "[B, num_heads, S, T] (dim ")
               << i << " is " << size << ", not 1 or " << want << ")";
    }
  }
  return success();
}

bool AttentionOp::isCompatibleReturnTypes(TypeRange lhs, TypeRange rhs) {
  return onnxc::onnx::areCompatibleTypes(lhs, rhs);
}

// [B, S] of the query and the width of the value's heads times num_heads.
LogicalResult
AttentionOp::inferReturnTypes(MLIRContext *context, std::optional<Location> loc,
                              ValueRange operands, DictionaryAttr attributes,
                              OpaqueProperties properties, RegionRange regions,
                              SmallVectorImpl<Type> &results) {
  auto query = dyn_cast<TensorType>(operands[0].getType());
  if (!query)
    return failure();
  Adaptor adaptor(operands, attributes, properties, regions);
  int64_t heads = adaptor.getNumHeads();
  int64_t kvHeads = adaptor.getKvNumHeads().value_or(heads);
  int64_t width = dimOf(operands[2].getType(), 2);
  if (!ShapedType::isDynamic(width) && kvHeads > 0 && kvHeads != heads)
    width = width / kvHeads * heads;
  else if (kvHeads != heads)
    width = ShapedType::kDynamic;
  results.push_back(RankedTensorType::get(
      {dimOf(query, 0), dimOf(query, 1), width}, query.getElementType()));
  return success();
}

#define GET_OP_CLASSES
#include "dialects/Fused/IR/FusedOps.cpp.inc"
