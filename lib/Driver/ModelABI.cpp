//===- ModelABI.cpp - The runtime ABI of a compiled model -----------------===//

#include "lib/Driver/ModelABI.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "lib/Frontend/Frontend.h"

#include "llvm/IR/IRBuilder.h"

using namespace mlir;

FailureOr<onnxc::ModelSignature> onnxc::getModelSignature(func::FuncOp func) {
  ModelSignature signature;
  if (auto module = func->getParentOfType<ModuleOp>())
    if (auto name = module->getAttrOfType<StringAttr>("onnx.graph_name"))
      signature.name = name.str();
  auto describe = [&](Type type, DictionaryAttr attrs, size_t index,
                      StringRef kind) -> FailureOr<TensorSignature> {
    TensorSignature tensor;
    auto name = attrs ? attrs.getAs<StringAttr>("onnx.name") : nullptr;
    tensor.name = name ? name.str() : (kind + "_" + Twine(index)).str();
    // Sequences and optionals: their kinds, then the innermost tensor.
    enum { kTensor = 0, kSequence = 1, kMap = 2, kOptional = 3 };
    auto kindOf = [](Type t) {
      return isa<onnx::SeqType>(t)   ? kSequence
             : isa<onnx::OptType>(t) ? kOptional
             : isa<onnx::MapType>(t) ? kMap
                                     : kTensor;
    };
    tensor.kind = kindOf(type);
    if (auto opt = dyn_cast<onnx::OptType>(type))
      type = opt.getElementType();
    if (tensor.kind == kOptional)
      tensor.elemKind = kindOf(type);
    if (auto seq = dyn_cast<onnx::SeqType>(type)) {
      type = seq.getElementType();
      if (tensor.kind == kSequence)
        tensor.elemKind = kindOf(type);
    }
    if (auto map = dyn_cast<onnx::MapType>(type)) {
      tensor.keyDtype = onnx::getONNXDType(map.getKeyType()).value_or(0);
      type = UnrankedTensorType::get(map.getValueType());
    }
    if (tensor.kind != kTensor && isa<UnrankedTensorType>(type)) {
      tensor.ranked = false;
      tensor.dtype =
          onnx::getONNXDType(cast<UnrankedTensorType>(type).getElementType())
              .value_or(0);
      return tensor;
    }
    auto ranked = dyn_cast<RankedTensorType>(type);
    std::optional<int64_t> dtype =
        ranked ? onnx::getONNXDType(ranked.getElementType()) : std::nullopt;
    if (!ranked || !dtype) {
      emitError(func.getLoc())
          << kind << " '" << tensor.name << "' has type " << type
          << ", which the runtime cannot carry "
             "(needs a ranked tensor of a numeric type)";
      return failure();
    }
    tensor.dtype = *dtype;
    ArrayAttr params =
        attrs ? attrs.getAs<ArrayAttr>("onnx.dim_params") : nullptr;
    for (auto [i, d] : llvm::enumerate(ranked.getShape())) {
      tensor.dims.push_back(ShapedType::isDynamic(d) ? -1 : d);
      std::string param;
      if (params && i < params.size() && ShapedType::isDynamic(d))
        if (auto p = dyn_cast<StringAttr>(params[i]))
          param = p.str();
      tensor.dimParams.push_back(param);
    }
    return tensor;
  };
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto tensor = describe(type, func.getArgAttrDict(i), i, "input");
    if (failed(tensor))
      return failure();
    signature.inputs.push_back(*tensor);
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    auto tensor = describe(type, func.getResultAttrDict(i), i, "output");
    if (failed(tensor))
      return failure();
    signature.outputs.push_back(*tensor);
  }
  return signature;
}

/// A private constant global holding `init`.
static llvm::Constant *privateGlobal(llvm::Module &module, llvm::Constant *init,
                                     const llvm::Twine &name) {
  return new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true,
                                  llvm::GlobalValue::PrivateLinkage, init,
                                  name);
}

/// The array of onnxc_tensor_sig structs for `tensors`.
static llvm::Constant *emitSignatures(
    llvm::Module &module, llvm::IRBuilder<> &b, llvm::StructType *sigType,
    const std::vector<onnxc::TensorSignature> &tensors, llvm::StringRef kind) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptrType = llvm::PointerType::getUnqual(ctx);
  SmallVector<llvm::Constant *> sigs;
  for (auto [i, t] : llvm::enumerate(tensors)) {
    std::string prefix = ("onnxc." + kind + "." + Twine(i)).str();
    llvm::Constant *name =
        b.CreateGlobalStringPtr(t.name, prefix + ".name", 0, &module);
    llvm::Constant *dims = privateGlobal(
        module, llvm::ConstantDataArray::get(ctx, ArrayRef<int64_t>(t.dims)),
        prefix + ".dims");
    llvm::Constant *params = llvm::ConstantPointerNull::get(ptrType);
    if (llvm::any_of(t.dimParams,
                     [](const std::string &p) { return !p.empty(); })) {
      SmallVector<llvm::Constant *> names;
      for (const std::string &p : t.dimParams)
        names.push_back(p.empty() ? llvm::ConstantPointerNull::get(ptrType)
                                  : b.CreateGlobalStringPtr(
                                        p, prefix + ".param", 0, &module));
      params =
          privateGlobal(module,
                        llvm::ConstantArray::get(
                            llvm::ArrayType::get(ptrType, names.size()), names),
                        prefix + ".params");
    }
    int32_t rank = t.ranked ? static_cast<int32_t>(t.dims.size()) : -1;
    if (!t.ranked)
      dims = llvm::ConstantPointerNull::get(ptrType);
    sigs.push_back(llvm::ConstantStruct::get(
        sigType,
        {name, b.getInt32(t.dtype), b.getInt32(rank), dims, params,
         b.getInt32(t.kind), b.getInt32(t.elemKind), b.getInt32(t.keyDtype)}));
  }
  if (sigs.empty())
    return llvm::ConstantPointerNull::get(ptrType);
  return privateGlobal(module,
                       llvm::ConstantArray::get(
                           llvm::ArrayType::get(sigType, sigs.size()), sigs),
                       "onnxc." + kind);
}

void onnxc::emitModelABI(llvm::Module &module, const ModelSignature &signature,
                         llvm::StringRef symbol, bool gpu) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::IRBuilder<> b(ctx);
  auto *ptrType = llvm::PointerType::getUnqual(ctx);

  // void SYMBOL_entry(void *const *inputs, void *outputs): loads each input
  // descriptor pointer and calls the C interface of main_graph, which writes
  // the result descriptors through its first argument.
  llvm::Function *ciface =
      module.getFunction(("_mlir_ciface_" + kMainGraphName).str());
  auto *entryType =
      llvm::FunctionType::get(b.getVoidTy(), {ptrType, ptrType}, false);
  llvm::Function *entry = llvm::Function::Create(
      entryType, llvm::GlobalValue::ExternalLinkage, symbol + "_entry", module);
  // The GPU build's entry goes through the runtime, which calls `body`.
  llvm::Function *body = entry;
  if (gpu)
    body = llvm::Function::Create(entryType, llvm::GlobalValue::InternalLinkage,
                                  symbol + "_run", module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", body));
  SmallVector<llvm::Value *> args;
  if (!signature.outputs.empty())
    args.push_back(body->getArg(1));
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    llvm::Value *slot = b.CreateConstGEP1_64(ptrType, body->getArg(0), i);
    args.push_back(b.CreateLoad(ptrType, slot));
  }
  b.CreateCall(ciface, args);
  b.CreateRetVoid();
  // The descriptor is created below; the GPU entry's call refers to it.
  llvm::BasicBlock *gpuEntry =
      gpu ? llvm::BasicBlock::Create(ctx, "entry", entry) : nullptr;

  // The descriptor, laid out as onnxc_tensor_sig / onnxc_model_desc.
  auto *sigType = llvm::StructType::create(
      ctx,
      {ptrType, b.getInt32Ty(), b.getInt32Ty(), ptrType, ptrType,
       b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()},
      "onnxc_tensor_sig");
  auto *descType =
      llvm::StructType::create(ctx,
                               {b.getInt32Ty(), ptrType, b.getInt32Ty(),
                                b.getInt32Ty(), ptrType, ptrType, ptrType},
                               "onnxc_model_desc");
  llvm::Constant *inputs =
      emitSignatures(module, b, sigType, signature.inputs, "inputs");
  llvm::Constant *outputs =
      emitSignatures(module, b, sigType, signature.outputs, "outputs");
  llvm::Constant *name =
      b.CreateGlobalStringPtr(signature.name, "onnxc.model.name", 0, &module);
  llvm::Constant *desc = llvm::ConstantStruct::get(
      descType, {b.getInt32(2), name, b.getInt32(signature.inputs.size()),
                 b.getInt32(signature.outputs.size()), inputs, outputs, entry});
  auto *descGlobal = new llvm::GlobalVariable(
      module, descType, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
      desc, symbol);
  if (!gpu)
    return;
  // void onnxc_gpu_run(const onnxc_model_desc *, onnxc_entry_fn,
  //                    void *const *inputs, void *outputs)
  llvm::FunctionCallee run = module.getOrInsertFunction(
      "onnxc_gpu_run",
      llvm::FunctionType::get(b.getVoidTy(),
                              {ptrType, ptrType, ptrType, ptrType}, false));
  b.SetInsertPoint(gpuEntry);
  b.CreateCall(run, {descGlobal, body, entry->getArg(0), entry->getArg(1)});
  b.CreateRetVoid();
}
