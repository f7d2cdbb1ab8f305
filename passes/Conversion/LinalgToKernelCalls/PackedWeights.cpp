//===- PackedWeights.cpp - Constant matmul operands packed at compile time ===//
//
// A linalg.matmul whose B is a view of a constant global becomes a call of
// onnxc_kernel_matmul_packed_f32 on a new global that holds B already in the
// packed layout of the GEMM's micro-kernel for the target's vector ISA (the
// module's `onnxc.gemm_isa`; dialects/Kernel/KernelABI.h): the runtime neither
// packs it at the first run nor keeps a second, packed copy beside it. A
// global that no other op reads any more goes.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"

#include "dialects/Kernel/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstring>
#include <vector>

using namespace mlir;
using namespace onnxc;

/// The raw bytes of `global`'s initial value (f32 elements, or the bytes of
/// a flattened f32 global; one f32 for a splat, with `splat` set), or none.
static std::optional<ArrayRef<char>> globalBytes(memref::GlobalOp global,
                                                 bool &splat) {
  Type element = global.getType().getElementType();
  std::optional<Attribute> init = global.getInitialValue();
  splat = false;
  if (!global.getConstant() || !init ||
      !(element.isF32() || element.isSignlessInteger(8)))
    return std::nullopt;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(*init)) {
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
    return std::nullopt;
  }
  auto dense = dyn_cast<DenseElementsAttr>(*init);
  if (!dense || (dense.isSplat() && !element.isF32()))
    return std::nullopt;
  splat = dense.isSplat();
  return dense.getRawData();
}

std::optional<ConstantMatrix> onnxc::matchConstantMatrix(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
      !type.getElementType().isF32() ||
      failed(getStridesAndOffset(type, strides, offset)) ||
      ShapedType::isDynamic(offset) || offset < 0 ||
      llvm::any_of(
          strides, [](int64_t s) { return ShapedType::isDynamic(s) || s < 0; }))
    return std::nullopt;
  ConstantMatrix matrix;
  for (Value v = value;;) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    matrix.views.push_back(def);
    if (auto get = dyn_cast<memref::GetGlobalOp>(def)) {
      matrix.global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      break;
    }
    // Views that keep the base address: their types' layouts say where
    // each element is.
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      if (!matchPattern(view.getByteShift(), m_Zero()) ||
          !view.getSizes().empty())
        return std::nullopt;
    } else if (!isa<memref::CastOp, memref::CollapseShapeOp,
                    memref::ExpandShapeOp, memref::TransposeOp>(def)) {
      return std::nullopt;
    }
    v = def->getOperand(0);
  }
  bool splat = false;
  std::optional<ArrayRef<char>> bytes =
      matrix.global ? globalBytes(matrix.global, splat) : std::nullopt;
  if (!bytes)
    return std::nullopt;
  if (splat) {
    // Every element is the one value.
    offset = 0;
    strides.assign({0, 0});
  }
  int64_t last = offset + (type.getDimSize(0) - 1) * strides[0] +
                 (type.getDimSize(1) - 1) * strides[1];
  if ((last + 1) * static_cast<int64_t>(sizeof(float)) >
      static_cast<int64_t>(bytes->size()))
    return std::nullopt;
  matrix.bytes = *bytes;
  matrix.offset = offset;
  matrix.strides[0] = strides[0];
  matrix.strides[1] = strides[1];
  return matrix;
}

std::optional<OnnxcGemmIsa> onnxc::parseGemmIsa(StringRef name) {
  return llvm::StringSwitch<std::optional<OnnxcGemmIsa>>(name)
      .Case("avx512", ONNXC_GEMM_ISA_AVX512)
      .Case("avx2", ONNXC_GEMM_ISA_AVX2)
      .Case("neon", ONNXC_GEMM_ISA_NEON)
      .Case("generic", ONNXC_GEMM_ISA_GENERIC)
      .Default(std::nullopt);
}

/// The i8 global (64-byte aligned) holding B (k x n, element (p, j) at
/// floats[p * rowStride + j * colStride]) packed in the layout (nr,
/// kcBlock); named after `source`.
static memref::GlobalOp
createPackedGlobal(ModuleOp module, SymbolTable &symbols,
                   memref::GlobalOp source, const float *floats,
                   int64_t rowStride, int64_t colStride, int64_t k, int64_t n,
                   int nr, int64_t kcBlock) {
  int64_t bytes =
      onnxcGemmPackedBSize(k, n, nr) * static_cast<int64_t>(sizeof(float));
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocate(bytes, alignof(float), true);
  onnxcGemmPackB(floats, rowStride, colStride, k, n, nr, kcBlock,
                 reinterpret_cast<float *>(blob.getMutableData().data()));
  MLIRContext *ctx = module.getContext();
  auto i8 = IntegerType::get(ctx, 8);
  std::string name = (source.getSymName() + "_packed").str();
  auto value = DenseResourceElementsAttr::get(
      RankedTensorType::get({bytes}, i8), name, std::move(blob));
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto global = b.create<memref::GlobalOp>(
      source.getLoc(), name, b.getStringAttr("private"),
      MemRefType::get({bytes}, i8), value, /*constant=*/true,
      b.getI64IntegerAttr(64));
  symbols.insert(global);
  return global;
}

memref::GlobalOp onnxc::getPackedMatrix(ModuleOp module, SymbolTable &symbols,
                                        const ConstantMatrix &matrix, int64_t k,
                                        int64_t n, bool transposed, int nr,
                                        int64_t kcBlock, PackedGlobals &cache) {
  int64_t rowStride = matrix.strides[transposed ? 1 : 0];
  int64_t colStride = matrix.strides[transposed ? 0 : 1];
  memref::GlobalOp global = matrix.global;
  PackedKey key{global.getSymName(),
                matrix.offset,
                rowStride,
                colStride,
                k,
                n,
                nr,
                kcBlock};
  if (auto it = cache.find(key); it != cache.end())
    return it->second;
  // The blob's bytes are read as floats: copied first where they are not
  // aligned for it.
  const char *data = matrix.bytes.data() + matrix.offset * sizeof(float);
  std::vector<float> aligned;
  if (reinterpret_cast<uintptr_t>(data) % alignof(float) != 0) {
    aligned.resize((matrix.bytes.size() / sizeof(float)) - matrix.offset);
    std::memcpy(aligned.data(), data, aligned.size() * sizeof(float));
    data = reinterpret_cast<const char *>(aligned.data());
  }
  memref::GlobalOp source = matrix.global;
  memref::GlobalOp packed = createPackedGlobal(
      module, symbols, source, reinterpret_cast<const float *>(data), rowStride,
      colStride, k, n, nr, kcBlock);
  cache[key] = packed;
  return packed;
}

void onnxc::eraseDeadViews(ArrayRef<Operation *> views, SymbolTable &symbols,
                           ModuleOp module) {
  memref::GlobalOp global;
  for (Operation *view : views) {
    if (!view->use_empty())
      return;
    if (auto get = dyn_cast<memref::GetGlobalOp>(view))
      global = symbols.lookup<memref::GlobalOp>(get.getName());
    view->erase();
  }
  if (global && SymbolTable::symbolKnownUseEmpty(global, module))
    symbols.erase(global);
}
