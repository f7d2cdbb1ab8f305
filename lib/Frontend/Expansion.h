//===- Expansion.h - Building an op's expansion at import -------*- C++ -*-===//
//
// What the importers of ops that expand into other onnx ops share
// (OpExpansions.cpp, MLOps.cpp, ContribOps.cpp): a builder that keeps the
// first failure, and readers of the node's attributes that report a wrong
// kind.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_FRONTEND_EXPANSION_H
#define ONNXC_LIB_FRONTEND_EXPANSION_H

#include "lib/Frontend/FrontendInternal.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

namespace onnxc::frontend {

using llvm::ArrayRef;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;
using llvm::StringRef;
using mlir::Attribute;
using mlir::DenseElementsAttr;
using mlir::ElementsAttr;
using mlir::failure;
using mlir::FailureOr;
using mlir::FloatAttr;
using mlir::FloatType;
using mlir::getElementTypeOrSelf;
using mlir::IntegerAttr;
using mlir::LogicalResult;
using mlir::NamedAttribute;
using mlir::NoneType;
using mlir::OpBuilder;
using mlir::RankedTensorType;
using mlir::ShapedType;
using mlir::StringAttr;
using mlir::success;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;

/// Builds the ops of an expansion at the node's location; the first failure
/// is kept in `error` and every later step is skipped (`ok()` tells).
class Expansion {
public:
  Expansion(NodeContext &node, std::string &error)
      : node(node), error(error), b(node.builder) {}

  bool ok() const { return !failedOnce; }

  /// onnx.<name>(operands) {attrs}; null after a failure.
  Value op(StringRef name, ValueRange operands,
           ArrayRef<NamedAttribute> attrs = {}) {
    if (failedOnce)
      return {};
    FailureOr<Value> value = node.emit(name, operands, attrs, error);
    if (failed(value)) {
      error = (name + ": " + error).str();
      failedOnce = true;
      return {};
    }
    return *value;
  }

  NamedAttribute attr(StringRef name, int64_t value) {
    return b.getNamedAttr(name, b.getI64IntegerAttr(value));
  }

  /// onnx.Cast of `value` to the ONNX data type `to`, or `value` itself
  /// when it has that type already.
  Value castTo(Value value, int64_t to) {
    if (failedOnce ||
        onnx::getONNXDType(getElementTypeOrSelf(value.getType())) == to)
      return value;
    return op("Cast", value, {attr("to", to)});
  }

  /// A 0-D int64 constant.
  Value index(int64_t value) {
    auto type = RankedTensorType::get({}, b.getI64Type());
    return b.create<onnx::ConstantOp>(
        node.constantLoc(),
        cast<ElementsAttr>(DenseElementsAttr::get(
            type, ArrayRef<Attribute>{b.getI64IntegerAttr(value)})));
  }

  /// Dim `d` of `value` as a 0-D int64 tensor (its size at run time).
  Value dim(Value value, int64_t d) {
    return op("Gather", {op("Shape", value), index(d)});
  }

  /// `value` transposed by `perm`.
  Value transpose(Value value, ArrayRef<int64_t> perm) {
    return op("Transpose", value,
              {b.getNamedAttr("perm", b.getDenseI64ArrayAttr(perm))});
  }

  /// Grouped-query attention's K or V, `x` [B, kv heads, S, H], with each
  /// head repeated `group` times (a 1-element int64 tensor) in place:
  /// [B, `heads`, S, H], `heads` a 1-element int64 tensor too (both may be
  /// known only at run time).
  Value repeatKVHeads(Value x, Value group, Value heads) {
    NamedAttribute axis0 = attr("axis", 0);
    Value five = op("Unsqueeze", {x, node.i64Constant({2})});
    Value expanded = op(
        "Concat", {node.i64Constant({1, 1}), group, node.i64Constant({1, 1})},
        {axis0});
    Value repeated = op("Expand", {five, expanded});
    // [B, kv heads, group, S, H] -> [B, heads, S, H].
    Value shape = op("Concat",
                     {node.i64Constant({0}), heads, node.i64Constant({-1}),
                      op("Shape", x, {attr("start", 3)})},
                     {axis0});
    return op("Reshape", {repeated, shape});
  }

  /// Grouped-query attention's K or V, `x` [B, kv heads, S, H], with its
  /// heads repeated to Q's (`q4`, [B, heads, L, H]): `x` itself where the
  /// head counts `qHeads` and `kvHeads` are known and equal; a count known
  /// only at run time (kDynamic) is read then.
  Value repeatHeadsFor(Value q4, Value x, int64_t qHeads, int64_t kvHeads) {
    bool known =
        !ShapedType::isDynamic(qHeads) && !ShapedType::isDynamic(kvHeads);
    if (known && qHeads == kvHeads)
      return x;
    auto headCount = [&](Value y) {
      return op("Shape", y, {attr("start", 1), attr("end", 2)});
    };
    Value group = known ? node.i64Constant({qHeads / kvHeads})
                        : op("Div", {headCount(q4), headCount(x)});
    Value heads = known ? node.i64Constant({qHeads}) : headCount(q4);
    return repeatKVHeads(x, group, heads);
  }

  /// sqrt(scale) as a 0-D tensor of the float type `element` (ONNX data
  /// type `dtype`), by which attention scales Q and K each; where `scale` is
  /// NaN, scale = 1/sqrt(head size of `q4`), computed at run time (in
  /// float) where that size is dynamic.
  Value rootScale(Value q4, double scale, Type element, int64_t dtype) {
    if (std::isnan(scale)) {
      auto q4Type =
          dyn_cast_or_null<RankedTensorType>(ok() ? q4.getType() : Type());
      int64_t headSize = q4Type ? q4Type.getDimSize(3) : ShapedType::kDynamic;
      if (ShapedType::isDynamic(headSize)) {
        Value size = castTo(op("Shape", q4, {attr("start", 3)}),
                            ::onnx::TensorProto::FLOAT);
        return castTo(op("Reciprocal", op("Sqrt", op("Sqrt", size))), dtype);
      }
      scale = 1.0 / std::sqrt(static_cast<double>(headSize));
    }
    return scalar(element, std::sqrt(scale));
  }

  /// Attention's scores of `q4` [B, heads, L, H] and `keys` [B, heads, S,
  /// H]: (Q sqrt(scale)) (K sqrt(scale))^T, [B, heads, L, S], scale as
  /// rootScale takes it.
  Value attentionScores(Value q4, Value keys, double scale, Type element,
                        int64_t dtype) {
    Value root = rootScale(q4, scale, element, dtype);
    return op("MatMul", {op("Mul", {q4, root}),
                         transpose(op("Mul", {keys, root}), {0, 1, 3, 2})});
  }

  /// A 0-D constant of the float type `element` (infinities included).
  Value scalar(Type element, double value) {
    auto type = RankedTensorType::get({}, element);
    return b.create<onnx::ConstantOp>(
        node.constantLoc(), cast<ElementsAttr>(DenseElementsAttr::get(
                                type, FloatAttr::get(element, value))));
  }

private:
  NodeContext &node;
  std::string &error;
  OpBuilder &b;
  bool failedOnce = false;
};

/// The value of attribute `name` (an `AttrT`, `kind` in messages), or
/// `fallback` when the node lacks it; nullopt after reporting another kind.
template <typename AttrT, typename T>
inline std::optional<T> takeAttr(NodeContext &node, StringRef name,
                                 StringRef kind, T fallback,
                                 std::string &error) {
  std::optional<Attribute> attr = node.takeAttribute(name);
  if (!attr)
    return fallback;
  auto typed = dyn_cast<AttrT>(*attr);
  if (!typed) {
    error = "expects attribute '" + name.str() + "' to be " + kind.str();
    return std::nullopt;
  }
  if constexpr (std::is_same_v<AttrT, FloatAttr>)
    return typed.getValueAsDouble();
  else if constexpr (std::is_same_v<AttrT, StringAttr>)
    return typed.str();
  else
    return typed.getInt();
}

inline std::optional<int64_t> intAttr(NodeContext &node, StringRef name,
                                      int64_t fallback, std::string &error) {
  return takeAttr<IntegerAttr>(node, name, "an int", fallback, error);
}

inline std::optional<double> floatAttr(NodeContext &node, StringRef name,
                                       double fallback, std::string &error) {
  return takeAttr<FloatAttr>(node, name, "a float", fallback, error);
}

inline std::optional<std::string> stringAttr(NodeContext &node, StringRef name,
                                             std::string fallback,
                                             std::string &error) {
  return takeAttr<StringAttr>(node, name, "a string", std::move(fallback),
                              error);
}

/// Fails with a message naming the attributes the node has that the
/// expansion did not read.
inline LogicalResult checkNoOtherAttributes(NodeContext &node,
                                            std::string &error) {
  if (node.attributes.empty())
    return success();
  error = "has unsupported attribute '" +
          node.attributes.front().getName().str() + "'";
  return failure();
}

/// Input `i` of the node, or null where it is missing or "".
inline Value optionalInput(NodeContext &node, unsigned i) {
  return i < node.inputs.size() && !isa<NoneType>(node.inputs[i].getType())
             ? node.inputs[i]
             : Value();
}

/// The ONNX data type of `element` if it is a floating-point one.
inline std::optional<int64_t> floatDType(Type element) {
  if (!isa<FloatType>(element))
    return std::nullopt;
  return onnx::getONNXDType(element);
}

} // namespace onnxc::frontend

#endif // ONNXC_LIB_FRONTEND_EXPANSION_H
