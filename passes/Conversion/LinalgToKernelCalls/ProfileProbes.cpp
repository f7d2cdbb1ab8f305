//===- ProfileProbes.cpp - Timing each node of a model --------------------===//
//
// onnx-compile --profile: the model's entry function calls the runtime's
// onnxc_profile_enter / onnxc_profile_exit around the work of each ONNX node
// (lib/Runtime/Profile.c records and writes the times). A site is a run of
// consecutive top-level ops of one node that do work; its label, "NODE
// (WHAT)", is a private constant string that the probes point to.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringExtras.h"

namespace onnxc {
#define GEN_PASS_DEF_INSERTPROFILEPROBESPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

static constexpr StringLiteral kEnter = "onnxc_profile_enter";
static constexpr StringLiteral kExit = "onnxc_profile_exit";

/// What `op` does, for a site's label (a kernel or runtime function without
/// its prefix, or loops); empty for ops that do no work.
static std::string workOf(Operation *op) {
  if (auto call = dyn_cast<func::CallOp>(op)) {
    StringRef callee = call.getCallee();
    if (callee == kEnter || callee == kExit ||
        callee == "onnxc_current_threadpool")
      return "";
    if (callee == "onnxc_parallel_for")
      return "loops on the pool";
    if (!callee.consume_front("onnxc_kernel_"))
      callee.consume_front("onnxc_");
    return callee.str();
  }
  if (op->getNumRegions() > 0)
    return "loops";
  if (isa<memref::CopyOp, linalg::LinalgOp>(op))
    return "copy";
  return "";
}

namespace {
struct InsertProfileProbesPass
    : public onnxc::impl::InsertProfileProbesPassBase<InsertProfileProbesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    auto ptr = LLVM::LLVMPointerType::get(module.getContext());
    int64_t sites = 0;

    auto declare = [&](StringRef name) {
      if (module.lookupSymbol(name))
        return;
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      b.create<func::FuncOp>(module.getLoc(), name,
                             b.getFunctionType({ptr}, {}))
          .setPrivate();
    };
    /// Wraps [first, last] of one node in the probes of a new site.
    auto probe = [&](Operation *first, Operation *last, StringRef label) {
      std::string symbol = "onnxc_profile_site_" + std::to_string(sites++);
      std::string text = (label + Twine('\0')).str();
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToEnd(module.getBody());
        auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
        b.create<LLVM::GlobalOp>(module.getLoc(), type, /*isConstant=*/true,
                                 LLVM::Linkage::Private, symbol,
                                 b.getStringAttr(text));
      }
      b.setInsertionPoint(first);
      Value site = b.create<LLVM::AddressOfOp>(first->getLoc(), ptr, symbol);
      b.create<func::CallOp>(first->getLoc(), kEnter, TypeRange{},
                             ValueRange{site});
      b.setInsertionPointAfter(last);
      b.create<func::CallOp>(last->getLoc(), kExit, TypeRange{},
                             ValueRange{site});
    };

    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        entries.push_back(func);
    if (entries.empty())
      return;
    declare(kEnter);
    declare(kExit);
    for (func::FuncOp func : entries) {
      // Runs of work ops of one node: (first, last, node, what they do).
      Operation *first = nullptr, *last = nullptr;
      std::string node;
      SmallVector<std::string, 4> what;
      auto flush = [&] {
        if (first)
          probe(first, last,
                (node.empty() ? "(no node)" : node) + " (" +
                    llvm::join(what, ", ") + ")");
        first = last = nullptr;
        what.clear();
      };
      SmallVector<Operation *> ops;
      for (Operation &op : func.getBody().front().without_terminator())
        ops.push_back(&op);
      for (Operation *op : ops) {
        std::string work = workOf(op);
        if (work.empty())
          continue;
        std::string owner = onnxc::onnx::getNodeName(op->getLoc()).str();

        if (first && owner != node)
          flush();
        if (!first)
          first = op, node = owner;
        last = op;
        if (!llvm::is_contained(what, work))
          what.push_back(work);
      }
      flush();
    }
  }
};
} // namespace
