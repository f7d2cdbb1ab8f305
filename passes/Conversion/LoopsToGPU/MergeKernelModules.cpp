//===- MergeKernelModules.cpp - The onnx-gpu-merge-kernel-modules pass ----===//
//
// Moves the kernels of every gpu.module into one, so that a model carries a
// single PTX module, and names each kernel after the ONNX node it computes.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

namespace onnxc {
#define GEN_PASS_DEF_GPUMERGEKERNELMODULESPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
/// `base`, followed by the node's name as a C identifier (at most 64
/// characters of it): profiles and PTX then say which node a kernel is.
static std::string kernelName(StringRef base, Location loc) {
  std::string name = base.str();
  StringRef node = onnxc::onnx::getNodeName(loc).take_back(64);
  if (node.empty())
    return name;
  name += '_';
  for (char c : node)
    name += llvm::isAlnum(c) ? c : '_';
  return name;
}

struct GPUMergeKernelModulesPass
    : public onnxc::impl::GPUMergeKernelModulesPassBase<
          GPUMergeKernelModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.empty()) {
      // A model without kernels (reshapes only) still carries one, empty,
      // module: its PTX is a valid module of no entries.
      if (module.lookupSymbol(moduleName)) {
        module.emitError("cannot add the gpu.module '")
            << moduleName << "': the symbol exists";
        return signalPassFailure();
      }
      OpBuilder b(module.getBodyRegion());
      b.setInsertionPointToEnd(module.getBody());
      b.create<gpu::GPUModuleOp>(module.getLoc(), moduleName);
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      b.getUnitAttr());
      return;
    }
    // Outlining names each module uniquely but may reuse kernel names: a
    // kernel takes its module's name and its node's.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      SymbolTable table(gpuModule);
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
        if (!kernel.isKernel())
          continue;
        StringAttr oldName = kernel.getNameAttr();
        StringAttr newName = StringAttr::get(
            &getContext(), kernelName(gpuModule.getName(), kernel.getLoc()));
        if (oldName != newName) {
          if (table.lookup(newName)) {
            kernel.emitError("cannot rename kernel '")
                << oldName.getValue() << "' to '" << newName.getValue()
                << "': the symbol exists";
            return signalPassFailure();
          }
          table.setSymbolName(kernel, newName);
        }
        renamed[{gpuModule.getNameAttr(), oldName}] = newName;
      }
    }

    gpu::GPUModuleOp merged = gpuModules.front();
    SymbolTable moduleTable(module);
    StringAttr mergedName = StringAttr::get(&getContext(), moduleName);
    if (merged.getNameAttr() != mergedName) {
      if (Operation *existing = moduleTable.lookup(mergedName);
          existing && !llvm::is_contained(gpuModules, existing)) {
        module.emitError("cannot name the merged gpu.module '")
            << moduleName << "': the symbol exists";
        return signalPassFailure();
      }
    }
    SymbolTable mergedTable(merged);
    for (gpu::GPUModuleOp other : llvm::drop_begin(gpuModules)) {
      for (Operation &op :
           llvm::make_early_inc_range(other.getBody()->getOperations())) {
        if (op.hasTrait<OpTrait::IsTerminator>())
          continue;
        auto name =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        // Outlining clones the globals a kernel reads into its module: keep
        // one copy of each.
        if (name && mergedTable.lookup(name)) {
          if (isa<gpu::GPUFuncOp>(op)) {
            op.emitError("kernel '") << name.getValue() << "' is defined twice";
            return signalPassFailure();
          }
          continue;
        }
        if (merged.getBody()->mightHaveTerminator())
          op.moveBefore(merged.getBody()->getTerminator());
        else
          op.moveBefore(merged.getBody(), merged.getBody()->end());
        mergedTable.insert(&op);
      }
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      StringAttr kernel = renamed.lookup(
          {launch.getKernelModuleName(), launch.getKernelName()});
      if (!kernel)
        kernel = launch.getKernelName();
      launch.setKernelAttr(
          SymbolRefAttr::get(mergedName, {FlatSymbolRefAttr::get(kernel)}));
    });
    for (gpu::GPUModuleOp other : llvm::drop_begin(gpuModules))
      other.erase();
    merged.setName(moduleName);
  }
};
} // namespace
