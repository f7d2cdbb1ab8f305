//===- KernelCall.cpp - Runtime kernel calls on tensors -------------------===//

#include "passes/Conversion/ONNXToLinalg/KernelCall.h"
#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

Value onnxc::tolinalg::readBuffer(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memref = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = b.create<bufferization::ToMemrefOp>(loc, memref, tensor,
                                                     /*read_only=*/true);
  return castToDynamic(b, loc, buffer);
}

Value onnxc::tolinalg::allocBuffer(OpBuilder &b, Location loc,
                                   RankedTensorType type,
                                   ValueRange dynamicSizes) {
  auto memref = MemRefType::get(type.getShape(), type.getElementType());
  return b.create<memref::AllocOp>(loc, memref, dynamicSizes,
                                   b.getI64IntegerAttr(64));
}

ValueRange onnxc::tolinalg::callKernel(OpBuilder &b, Location loc,
                                       StringRef name, ValueRange args,
                                       TypeRange results) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    b.create<func::FuncOp>(module.getLoc(), name,
                           b.getFunctionType(args.getTypes(), results))
        .setPrivate();
  }
  return b.create<func::CallOp>(loc, name, results, args).getResults();
}

Value onnxc::tolinalg::filledTensor(OpBuilder &b, Location loc,
                                    RankedTensorType type, Value buffer) {
  return b.create<bufferization::ToTensorOp>(loc, type, buffer,
                                             /*restrict=*/true,
                                             /*writable=*/true);
}
