//===- InitAll.cpp - The one registration point of the onnxc tools --------===//

#include "lib/Driver/InitAll.h"

#include "dialects/Fused/IR/FusedOps.h"
#include "dialects/ONNX/IR/ONNXOps.h"
#include "passes/Conversion/Passes.h"
#include "passes/Pipelines/Pipelines.h"
#include "passes/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

void onnxc::registerONNXCDialects(mlir::DialectRegistry &registry) {
  using namespace mlir;
  registry
      .insert<onnx::ONNXDialect, fused::FusedDialect, func::FuncDialect,
              arith::ArithDialect, math::MathDialect, linalg::LinalgDialect,
              tensor::TensorDialect, scf::SCFDialect, cf::ControlFlowDialect,
              memref::MemRefDialect, bufferization::BufferizationDialect,
              affine::AffineDialect, index::IndexDialect, vector::VectorDialect,
              LLVM::LLVMDialect, gpu::GPUDialect, NVVM::NVVMDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  fused::registerBufferizableOpInterfaceExternalModels(registry);
  // The nvptx target: #nvvm.target serializes gpu.modules to PTX (through
  // the LLVM and NVVM translations); gpu.binary and gpu.launch_func
  // translate to the host's module loading and launch calls.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

void onnxc::registerONNXCPasses() {
  registerONNXCConversionPasses();
  registerONNXCTransformsPasses();
  registerONNXCPipelines();
  // Upstream passes that appear in our pipelines, for stepping through them.
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
  mlir::registerLinalgPasses();
  mlir::bufferization::registerBufferizationPasses();
  mlir::memref::registerMemRefPasses();
  mlir::registerGPUPasses();
}
