//===- Target.h - LLVM target setup and machine-code emission ---*- C++ -*-===//

#ifndef ONNXC_LIB_TARGET_TARGET_H
#define ONNXC_LIB_TARGET_TARGET_H

#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <utility>

namespace onnxc {

/// The CPU architectures onnx-compile generates code for.
enum class Arch { X86_64, AArch64 };

struct TargetOptions {
  Arch arch = Arch::X86_64;
  /// "native" (the host's CPU and features when compiling for the host's
  /// architecture, else a generic CPU) or an LLVM CPU name such as
  /// "skylake-avx512" or "neoverse-n1".
  std::string cpu = "native";
  unsigned optLevel = 2;
  /// The GPU to generate kernels for ("sm_80", "sm_90"); empty for a CPU
  /// build. The host code is then generated for `arch`.
  std::string gpu;
  /// What the GPU's matmuls and convolutions multiply in: "fp32" (FMA),
  /// or "tf32", "fp16", "bf16" on tensor cores (f32 accumulation).
  std::string gpuPrecision = "fp32";
};

/// Whether onnxc generates kernels for `chip` (sm_75, sm_80, sm_86, sm_89,
/// sm_90), and the list for messages.
bool isSupportedGPU(llvm::StringRef chip);
std::string supportedGPUList();

/// Whether `precision` is one of fp32, tf32, fp16 and bf16, and the list
/// for messages.
bool isSupportedGPUPrecision(llvm::StringRef precision);
std::string supportedGPUPrecisionList();

/// Why `chip` cannot run `precision` (its mma.sync shapes need sm_80), or
/// an empty string when it can.
std::string checkGPUPrecision(llvm::StringRef chip, llvm::StringRef precision);

/// The PTX ISA version feature ("+ptx70") that the NVPTX backend targets for
/// `chip`: the oldest that supports it, so that older drivers load it.
std::string ptxFeatures(llvm::StringRef chip);

/// The architecture onnxc runs on.
Arch hostArch();
llvm::StringRef archName(Arch arch);

/// The CPU name and LLVM feature string that `options` selects: "native"
/// becomes the host's CPU and features when compiling for the host's
/// architecture, else "generic" with no features.
std::pair<std::string, std::string> resolveCPU(const TargetOptions &options);

/// A TargetMachine for `options` (PIC, so objects go into shared libraries
/// as well as executables), or null with a message in `error`.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetOptions &options, std::string &error);

/// The vector ISA of the runtime's fp32 GEMM micro-kernel that code for
/// `machine` runs: "avx512", "avx2", "neon" or "generic" (the module
/// attribute onnxc.gemm_isa that constant operands are packed for).
llvm::StringRef gemmIsaName(const llvm::TargetMachine &machine);

/// Runs LLVM's standard optimization pipeline for `optLevel` (0-3).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned optLevel);

/// Writes `module` as an object file or assembly text.
bool emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                     llvm::CodeGenFileType type, llvm::raw_pwrite_stream &os,
                     std::string &error);

} // namespace onnxc

#endif // ONNXC_LIB_TARGET_TARGET_H
