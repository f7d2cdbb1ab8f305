//===- FusedNBits.cpp - fused.matmul_nbits: types and verifier ------------===//

#include "dialects/Fused/IR/FusedOps.h"

#include "dialects/ONNX/IR/ONNXOps.h"

using namespace mlir;
using namespace onnxc::fused;

/// The element count of `value`'s type when it is static, else nullopt.
static std::optional<int64_t> staticCount(Value value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return type.getNumElements();
}

LogicalResult MatMulNBitsOp::verify() {
  // nbits_c1
  if (getBits() != 4)
    return emitOpError("supports bits 4 only (got ") << getBits() << ")";
  // nbits_c2
  int64_t k = getK(), n = getN(), blockSize = getBlockSize();
  if (k <= 0 || n <= 0)
    return emitOpError("expects positive K and N (got ")
           << k << " and " << n << ")";
  if (blockSize < 16 || blockSize > 256 || (blockSize & (blockSize - 1)) != 0)
    return emitOpError("expects a block_size that is a power of 2 from 16 to "
                       "256 (got ")
           << blockSize << ")";
  // nbits_c3
  int64_t blocks = getNumBlocks();
  auto b = cast<ShapedType>(getB().getType());
  if (b.hasRank()) {
    SmallVector<int64_t> expected = {n, blocks, blockSize / 2};
    if (b.getRank() != 3 ||
        llvm::any_of(llvm::zip(b.getShape(), expected), [](auto pair) {
          auto [dim, want] = pair;
          return !ShapedType::isDynamic(dim) && dim != want;
        }))
      return emitOpError("expects B of shape [")
             << n << ", " << blocks << ", " << blockSize / 2 << "] (got " << b
             << ")";
  }
  // nbits_c4
  if (std::optional<int64_t> count = staticCount(getScales());
      count && *count != n * blocks)
    return emitOpError("expects ")
           << n * blocks << " scales, one per block (got " << *count << ")";
  // nbits_c5
  int64_t zeroBytes = n * ((blocks + 1) / 2);
  if (getZeroPoints())
    if (std::optional<int64_t> count = staticCount(getZeroPoints());
        count && *count != zeroBytes)
      return emitOpError("expects ")
             << zeroBytes << " bytes of packed zero points (got " << *count
             << ")";
  // nbits_c6
  if (getBias())
    if (std::optional<int64_t> count = staticCount(getBias());
        count && *count != n)
      return emitOpError("expects a bias of ")
             << n << " values (got " << *count << ")";
  // nbits_c7
  auto a = cast<ShapedType>(getA().getType());
  if (a.hasRank() && (a.getRank() < 1 || (!a.isDynamicDim(a.getRank() - 1) &&
                                          a.getDimSize(a.getRank() - 1) != k)))
    return emitOpError("expects A of last dim K = ")
           << k << " (got " << a << ")";
  return success();
}

bool MatMulNBitsOp::isCompatibleReturnTypes(TypeRange lhs, TypeRange rhs) {
  return onnxc::onnx::areCompatibleTypes(lhs, rhs);
}

// A's shape with N for its last dim.
LogicalResult MatMulNBitsOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &results) {
  auto a = dyn_cast<ShapedType>(operands[0].getType());
  auto n = attributes ? attributes.getAs<IntegerAttr>("N") : IntegerAttr();
  if (!a || !n)
    return failure();
  if (!a.hasRank() || a.getRank() < 1) {
    results.push_back(UnrankedTensorType::get(a.getElementType()));
    return success();
  }
  SmallVector<int64_t> shape(a.getShape());
  shape.back() = n.getInt();
  results.push_back(RankedTensorType::get(shape, a.getElementType()));
  return success();
}
