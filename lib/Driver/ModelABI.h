//===- ModelABI.h - The runtime ABI of a compiled model ---------*- C++ -*-===//
//
// Emits, into the translated LLVM module, the entry wrapper and the
// onnxc_model_desc that lib/Runtime/onnxc_runtime.h describes.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_LIB_DRIVER_MODELABI_H
#define ONNXC_LIB_DRIVER_MODELABI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/IR/Module.h"

#include <string>
#include <vector>

namespace onnxc {

/// One graph input or output as the runtime sees it.
/// An input or output as onnxc_tensor_sig describes it. For a sequence,
/// optional or sequence of maps, dtype and dims are those of the innermost
/// tensor (a map's values), and `ranked` is false where its rank is unknown.
struct TensorSignature {
  std::string name;
  int64_t dtype = 0;
  std::vector<int64_t> dims; // -1 for a dynamic dim
  std::vector<std::string> dimParams;
  bool ranked = true;
  int32_t kind = 0;     // onnxc_kind: 0 tensor, 1 sequence, 3 optional
  int32_t elemKind = 0; // the kind of a sequence's or optional's element
  int64_t keyDtype = 0; // a map's key dtype
};

struct ModelSignature {
  std::string name;
  std::vector<TensorSignature> inputs, outputs;
};

/// Reads the signature of an imported @main_graph (before lowering). Fails
/// with a diagnostic on types the runtime cannot carry.
mlir::FailureOr<ModelSignature> getModelSignature(mlir::func::FuncOp func);

/// Adds `void SYMBOL_entry(void *const *inputs, void *outputs)` calling the
/// C interface of main_graph, and the descriptor `const onnxc_model_desc
/// SYMBOL` itself. With `gpu`, the entry calls the runtime's
/// `onnxc_gpu_run(&SYMBOL, SYMBOL_run, inputs, outputs)`, which stages the
/// inputs into GPU-visible memory, runs `SYMBOL_run` (the C interface call)
/// and hands back outputs in host memory.
void emitModelABI(llvm::Module &module, const ModelSignature &signature,
                  llvm::StringRef symbol, bool gpu = false);

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_MODELABI_H
