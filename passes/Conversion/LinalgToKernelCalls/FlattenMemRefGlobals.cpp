//===- FlattenMemRefGlobals.cpp - One-dimensional memref globals ----------===//
//
// Flat globals lower to one LLVM constant data array each instead of nested
// arrays of rows, large constant ones to byte arrays (see the pass
// description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

namespace onnxc {
#define GEN_PASS_DEF_FLATTENMEMREFGLOBALSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

/// `value` retyped to `type` (same element count), or null if its kind of
/// attribute is not known here.
static Attribute reshapeInitialValue(Attribute value, ShapedType type) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.reshape(type);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return nullptr;
}

/// The bytes of `value` (a flat initial value of `bytes` bytes) as an i8
/// tensor, or null where that is not a plain copy (splats, attributes not
/// known here).
static Attribute toByteValue(Attribute value, int64_t bytes) {
  auto type =
      RankedTensorType::get({bytes}, IntegerType::get(value.getContext(), 8));
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  if (auto dense = dyn_cast<DenseElementsAttr>(value);
      dense && !dense.isSplat())
    return DenseElementsAttr::getFromRawBuffer(type, dense.getRawData());
  return nullptr;
}

/// The byte size of a constant `global` that is worth storing as bytes:
/// static, identity layout, of whole-byte ints or floats, `minBytes` large.
static std::optional<int64_t> byteGlobalSize(memref::GlobalOp global,
                                             int64_t minBytes) {
  MemRefType type = global.getType();
  Type element = type.getElementType();
  if (!global.getConstant() || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || type.getRank() == 0 ||
      !(isa<FloatType>(element) || element.isSignlessInteger()) ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  int64_t bytes = type.getNumElements() * element.getIntOrFloatBitWidth() / 8;
  if (bytes < minBytes)
    return std::nullopt;
  return bytes;
}

namespace {
struct FlattenMemRefGlobalsPass
    : public onnxc::impl::FlattenMemRefGlobalsPassBase<
          FlattenMemRefGlobalsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The type each rewritten global had, and whether it became bytes.
    llvm::DenseMap<StringAttr, std::pair<MemRefType, bool>> rewritten;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      MemRefType type = global.getType();
      std::optional<Attribute> init = global.getInitialValue();
      if (std::optional<int64_t> bytes = byteGlobalSize(global, minByteSize);
          bytes && init && !isa<UnitAttr>(*init)) {
        if (Attribute value = toByteValue(*init, *bytes)) {
          global.setInitialValueAttr(value);
          global.setType(MemRefType::get({*bytes},
                                         IntegerType::get(&getContext(), 8),
                                         AffineMap(), type.getMemorySpace()));
          if (!global.getAlignment())
            global.setAlignment(64);
          rewritten[global.getSymNameAttr()] = {type, true};
          continue;
        }
      }
      if (type.getRank() < 2 || !type.hasStaticShape() ||
          !type.getLayout().isIdentity())
        continue;
      auto flat =
          MemRefType::get({type.getNumElements()}, type.getElementType(),
                          AffineMap(), type.getMemorySpace());
      if (init && !isa<UnitAttr>(*init)) {
        Attribute reshaped = reshapeInitialValue(
            *init,
            RankedTensorType::get(flat.getShape(), flat.getElementType()));
        if (!reshaped)
          continue;
        global.setInitialValueAttr(reshaped);
      }
      global.setType(flat);
      rewritten[global.getSymNameAttr()] = {type, false};
    }
    if (rewritten.empty())
      return;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = rewritten.find(get.getNameAttr().getAttr());
      if (it == rewritten.end())
        return;
      auto [type, bytes] = it->second;
      OpBuilder b(get);
      Location loc = get.getLoc();
      auto flatType =
          MemRefType::get({type.getNumElements()}, type.getElementType(),
                          AffineMap(), type.getMemorySpace());
      Value flat;
      if (bytes) {
        auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
            get, get.getNameAttr());
        Value raw =
            b.create<memref::GetGlobalOp>(loc, global.getType(), get.getName());
        Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
        flat = b.create<memref::ViewOp>(loc, flatType, raw, zero, ValueRange{});
      } else {
        flat = b.create<memref::GetGlobalOp>(loc, flatType, get.getName());
      }
      Value result = flat;
      if (type.getRank() != 1) {
        SmallVector<ReassociationIndices> all(1);
        for (int64_t i = 0; i < type.getRank(); ++i)
          all[0].push_back(i);
        result = b.create<memref::ExpandShapeOp>(loc, type, flat, all);
      }
      get.replaceAllUsesWith(result);
      get.erase();
    });
  }
};
} // namespace
