//===- ONNXDialect.cpp - onnx dialect registration and shared helpers -----===//

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace onnxc::onnx;

#include "dialects/ONNX/IR/ONNXDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/ONNX/IR/ONNXTypes.cpp.inc"

LogicalResult SeqType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type elementType) {
  if (!llvm::isa<TensorType, MapType>(elementType))
    return emitError() << "sequence elements must be tensors or maps, not "
                       << elementType;
  return success();
}

LogicalResult MapType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type keyType, Type valueType) {
  auto key = llvm::dyn_cast<IntegerType>(keyType);
  if (!llvm::isa<StringType>(keyType) && (!key || key.getWidth() == 1))
    return emitError() << "map keys must be integers or strings, not "
                       << keyType;
  if (llvm::isa<ShapedType, SeqType, MapType, OptType>(valueType))
    return emitError() << "map values must be scalars, not " << valueType;
  return success();
}

LogicalResult OptType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type elementType) {
  if (!llvm::isa<TensorType, SeqType>(elementType))
    return emitError() << "optional elements must be tensors or sequences, "
                          "not "
                       << elementType;
  return success();
}

void ONNXDialect::initialize() {
  registerONNXDialectOperations(this);
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/ONNX/IR/ONNXTypes.cpp.inc"
      >();
}

Operation *ONNXDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

bool onnxc::onnx::areCompatibleTypes(TypeRange lhs, TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [l, r] : llvm::zip(lhs, rhs)) {
    if (l == r)
      continue;
    auto ls = dyn_cast<SeqType>(l), rs = dyn_cast<SeqType>(r);
    if (ls && rs) {
      if (!areCompatibleTypes(ls.getElementType(), rs.getElementType()))
        return false;
      continue;
    }
    auto lo = dyn_cast<OptType>(l), ro = dyn_cast<OptType>(r);
    if (lo && ro) {
      if (!areCompatibleTypes(lo.getElementType(), ro.getElementType()))
        return false;
      continue;
    }
    auto lt = dyn_cast<TensorType>(l);
    auto rt = dyn_cast<TensorType>(r);
    if (!lt || !rt || lt.getElementType() != rt.getElementType() ||
        failed(verifyCompatibleShape(lt, rt)))
      return false;
  }
  return true;
}

Type onnxc::onnx::getElementType(MLIRContext *ctx, int64_t onnxDType) {
  Builder b(ctx);
  switch (onnxDType) {
  case 1:
    return b.getF32Type();
  case 2:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case 3:
    return b.getI8Type();
  case 4:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case 5:
    return b.getI16Type();
  case 6:
    return b.getI32Type();
  case 7:
    return b.getI64Type();
  case 9:
    return b.getI1Type();
  case 10:
    return b.getF16Type();
  case 11:
    return b.getF64Type();
  case 12:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case 13:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case 16:
    return b.getBF16Type();
  case 17:
    return b.getFloat8E4M3FNType();
  case 18:
    return b.getFloat8E4M3FNUZType();
  case 19:
    return b.getFloat8E5M2Type();
  case 20:
    return b.getFloat8E5M2FNUZType();
  case 21:
    return IntegerType::get(ctx, 4, IntegerType::Unsigned);
  case 22:
    return IntegerType::get(ctx, 4);
  case 23:
    return Float4E2M1Type::get(ctx);
  case 24:
    return Float8E8M0Type::get(ctx);
  case 25:
    return IntegerType::get(ctx, 2, IntegerType::Unsigned);
  case 26:
    return IntegerType::get(ctx, 2);
  default:
    return nullptr;
  }
}

Type onnxc::onnx::getValueElementType(MLIRContext *ctx, int64_t onnxDType) {
  if (onnxDType == 8)
    return StringType::get(ctx);
  return getElementType(ctx, onnxDType);
}

std::optional<int64_t> onnxc::onnx::getONNXDType(Type type) {
  if (type.isF32())
    return 1;
  if (type.isF16())
    return 10;
  if (type.isF64())
    return 11;
  if (type.isBF16())
    return 16;
  if (type.isFloat8E4M3FN())
    return 17;
  if (type.isFloat8E4M3FNUZ())
    return 18;
  if (type.isFloat8E5M2())
    return 19;
  if (type.isFloat8E5M2FNUZ())
    return 20;
  if (isa<Float4E2M1Type>(type))
    return 23;
  if (isa<Float8E8M0Type>(type))
    return 24;
  if (isa<StringType>(type))
    return 8;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return std::nullopt;
  bool isUnsigned = intType.isUnsigned();
  switch (intType.getWidth()) {
  case 1:
    return isUnsigned ? std::nullopt : std::optional<int64_t>(9);
  case 2:
    return isUnsigned ? 25 : 26;
  case 4:
    return isUnsigned ? 21 : 22;
  case 8:
    return isUnsigned ? 2 : 3;
  case 16:
    return isUnsigned ? 4 : 5;
  case 32:
    return isUnsigned ? 12 : 6;
  case 64:
    return isUnsigned ? 13 : 7;
  default:
    return std::nullopt;
  }
}

DenseElementsAttr onnxc::onnx::reshapeDense(DenseElementsAttr attr,
                                            ShapedType type) {
  auto strings = dyn_cast<DenseStringElementsAttr>(attr);
  if (!strings)
    return attr.reshape(type);
  SmallVector<StringRef> values(strings.getValues<StringRef>());
  return DenseStringElementsAttr::get(type, values);
}

StringRef onnxc::onnx::getNodeName(Location loc) {
  StringRef found;
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner)) {
      found = name.getName().getValue();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

bool onnxc::onnx::isLowPrecisionFloat(Type type) {
  return isa<Float4E2M1Type, Float8E8M0Type>(type) ||
         (isa<FloatType>(type) && type.getIntOrFloatBitWidth() == 8);
}

DenseElementsAttr onnxc::onnx::getDenseConstant(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant)
    return nullptr;
  // Strings are not numbers: the folds that read constants skip them.
  if (isa<DenseStringElementsAttr>(constant.getValue()))
    return nullptr;
  return dyn_cast<DenseElementsAttr>(constant.getValue());
}

std::optional<SmallVector<int64_t>>
onnxc::onnx::getConstantIntValues(Value value) {
  auto dense = dyn_cast_or_null<DenseIntElementsAttr>(getDenseConstant(value));
  if (!dense)
    return std::nullopt;
  SmallVector<int64_t> result;
  for (const APInt &v : dense.getValues<APInt>())
    result.push_back(v.getBitWidth() == 1 ? v.getZExtValue()
                                          : v.getSExtValue());
  return result;
}

std::optional<SmallVector<double>>
onnxc::onnx::getConstantFloatValues(Value value) {
  auto dense = dyn_cast_or_null<DenseFPElementsAttr>(getDenseConstant(value));
  if (!dense)
    return std::nullopt;
  SmallVector<double> result;
  for (const APFloat &v : dense.getValues<APFloat>())
    result.push_back(v.convertToDouble());
  return result;
}
