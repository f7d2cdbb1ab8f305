//===- Target.cpp - LLVM target setup and machine-code emission -----------===//

#include "lib/Target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace onnxc;

Arch onnxc::hostArch() {
  llvm::Triple host(llvm::sys::getProcessTriple());
  return host.getArch() == llvm::Triple::aarch64 ? Arch::AArch64 : Arch::X86_64;
}

llvm::StringRef onnxc::archName(Arch arch) {
  return arch == Arch::AArch64 ? "aarch64" : "x86_64";
}

static constexpr llvm::StringLiteral kGPUs[] = {"sm_75", "sm_80", "sm_86",
                                                "sm_89", "sm_90"};

bool onnxc::isSupportedGPU(llvm::StringRef chip) {
  return llvm::is_contained(kGPUs, chip);
}

std::string onnxc::supportedGPUList() {
  return llvm::join(llvm::ArrayRef<llvm::StringLiteral>(kGPUs), ", ");
}

static constexpr llvm::StringLiteral kGPUPrecisions[] = {"fp32", "tf32", "fp16",
                                                         "bf16"};

bool onnxc::isSupportedGPUPrecision(llvm::StringRef precision) {
  return llvm::is_contained(kGPUPrecisions, precision);
}

std::string onnxc::supportedGPUPrecisionList() {
  return llvm::join(llvm::ArrayRef<llvm::StringLiteral>(kGPUPrecisions), ", ");
}

/// The number of `chip` ("sm_80" -> 80), 0 if it has none.
static unsigned smNumber(llvm::StringRef chip) {
  unsigned sm = 0;
  if (chip.starts_with("sm_"))
    chip.drop_front(3).take_while(llvm::isDigit).getAsInteger(10, sm);
  return sm;
}

std::string onnxc::checkGPUPrecision(llvm::StringRef chip,
                                     llvm::StringRef precision) {
  if (!isSupportedGPUPrecision(precision))
    return "unknown GPU precision '" + precision.str() + "' (expected " +
           supportedGPUPrecisionList() + ")";
  // mma.sync m16n8k8 .tf32, m16n8k16 .f16 and .bf16 came with sm_80.
  if (precision != "fp32" && smNumber(chip) < 80)
    return "GPU precision " + precision.str() +
           " needs tensor cores of sm_80 or newer (got " + chip.str() + ")";
  return "";
}

std::string onnxc::ptxFeatures(llvm::StringRef chip) {
  unsigned sm = smNumber(chip);
  // PTX ISA 7.0 came with sm_80 (CUDA 11.0), 7.4 with sm_87, 7.8 with sm_89
  // and sm_90 (CUDA 11.8), 8.0 with sm_90a.
  if (sm >= 90 || sm == 89)
    return "+ptx78";
  if (sm >= 86)
    return sm == 86 ? "+ptx71" : "+ptx74";
  return "+ptx70";
}

// The LLVM backends of the three targets onnxc emits for, and no others: a
// tool linked against static LLVM then carries only these (--target names
// no other).
extern "C" {
#define ONNXC_LLVM_TARGET(T)                                                   \
  void LLVMInitialize##T##TargetInfo();                                        \
  void LLVMInitialize##T##Target();                                            \
  void LLVMInitialize##T##TargetMC();                                          \
  void LLVMInitialize##T##AsmPrinter();
ONNXC_LLVM_TARGET(X86)
ONNXC_LLVM_TARGET(AArch64)
ONNXC_LLVM_TARGET(NVPTX)
#undef ONNXC_LLVM_TARGET
}

static void initializeTargets() {
  static bool done = [] {
#define ONNXC_LLVM_TARGET(T)                                                   \
  LLVMInitialize##T##TargetInfo();                                             \
  LLVMInitialize##T##Target();                                                 \
  LLVMInitialize##T##TargetMC();                                               \
  LLVMInitialize##T##AsmPrinter();
    ONNXC_LLVM_TARGET(X86)
    ONNXC_LLVM_TARGET(AArch64)
    ONNXC_LLVM_TARGET(NVPTX)
#undef ONNXC_LLVM_TARGET
    return true;
  }();
  (void)done;
}

std::pair<std::string, std::string>
onnxc::resolveCPU(const TargetOptions &options) {
  if (options.cpu != "native")
    return {options.cpu, ""};
  if (options.arch != hostArch())
    return {"generic", ""};
  // Sorted: the string also keys the batch cache.
  std::vector<std::string> flags;
  for (auto &feature : llvm::sys::getHostCPUFeatures())
    flags.push_back((feature.second ? "+" : "-") + feature.first().str());
  llvm::sort(flags);
  std::string features;
  for (const std::string &flag : flags)
    features += flag + ",";
  return {llvm::sys::getHostCPUName().str(), features};
}

std::unique_ptr<llvm::TargetMachine>
onnxc::createTargetMachine(const TargetOptions &options, std::string &error) {
  initializeTargets();
  std::string triple = (archName(options.arch) + "-unknown-linux-gnu").str();
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  auto [cpu, features] = resolveCPU(options);
  llvm::CodeGenOptLevel level =
      options.optLevel == 0   ? llvm::CodeGenOptLevel::None
      : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
      : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                              : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, cpu, features, llvm::TargetOptions(),
                                  llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine) {
    error =
        "cannot create a target machine for " + triple + " (cpu '" + cpu + "')";
    return nullptr;
  }
  if (!machine->getMCSubtargetInfo()->isCPUStringValid(cpu)) {
    error = "unknown cpu '" + cpu + "' for " + archName(options.arch).str();
    return nullptr;
  }
  return machine;
}

llvm::StringRef onnxc::gemmIsaName(const llvm::TargetMachine &machine) {
  if (machine.getTargetTriple().isAArch64())
    return "neon";
  const llvm::MCSubtargetInfo *info = machine.getMCSubtargetInfo();
  // The runtime's choice (Gemm.c) in the same order.
  if (info->checkFeatures("+avx512f"))
    return "avx512";
  if (info->checkFeatures("+avx2,+fma"))
    return "avx2";
  return "generic";
}

void onnxc::optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                           unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = optLevel >= 2;
  tuning.SLPVectorization = optLevel >= 2;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager passes =
      optLevel == 0 ? builder.buildO0DefaultPipeline(level)
                    : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, mam);
}

bool onnxc::emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                            llvm::CodeGenFileType type,
                            llvm::raw_pwrite_stream &os, std::string &error) {
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, nullptr, type)) {
    error = "the target cannot emit this file type";
    return false;
  }
  passes.run(module);
  return true;
}
