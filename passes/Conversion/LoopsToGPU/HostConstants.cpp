//===- HostConstants.cpp - The onnx-gpu-host-constants pass ---------------===//
//
// Routes the host's reads of constant globals through onnxc_gpu_constant, so
// that kernels get pointers to memory they can read.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace onnxc {
#define GEN_PASS_DEF_GPUHOSTCONSTANTSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

static constexpr llvm::StringLiteral kConstantFn = "onnxc_gpu_constant";

namespace {
struct GPUHostConstantsPass
    : public onnxc::impl::GPUHostConstantsPassBase<GPUHostConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<LLVM::AddressOfOp> reads;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      func.walk([&](LLVM::AddressOfOp addr) {
        auto global =
            module.lookupSymbol<LLVM::GlobalOp>(addr.getGlobalNameAttr());
        if (global && global.getConstant() &&
            (global.getValue() || global.getInitializerBlock()))
          reads.push_back(addr);
      });
    if (reads.empty())
      return;

    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    OpBuilder b(ctx);
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kConstantFn);
    if (!fn) {
      b.setInsertionPointToEnd(module.getBody());
      fn = b.create<LLVM::LLVMFuncOp>(
          module.getLoc(), kConstantFn,
          LLVM::LLVMFunctionType::get(ptrType, {ptrType, i64}));
    }
    DataLayout layout(module);
    for (LLVM::AddressOfOp addr : reads) {
      auto global =
          module.lookupSymbol<LLVM::GlobalOp>(addr.getGlobalNameAttr());
      uint64_t bytes = layout.getTypeSize(global.getGlobalType());
      b.setInsertionPointAfter(addr);
      Value size = b.create<LLVM::ConstantOp>(addr.getLoc(), i64,
                                              b.getI64IntegerAttr(bytes));
      auto call = b.create<LLVM::CallOp>(addr.getLoc(), fn,
                                         ValueRange{addr.getResult(), size});
      addr.getResult().replaceAllUsesExcept(call.getResult(), call);
    }
  }
};
} // namespace
