//===- Version.cpp - The onnxc version and the commit it was built from ---===//

#include "lib/Driver/Version.h"

#include "lib/Driver/Version.inc"
#include "llvm/Config/llvm-config.h"

#if ONNXC_GIT_DIRTY
#define ONNXC_DIRTY_SUFFIX "-dirty"
#else
#define ONNXC_DIRTY_SUFFIX ""
#endif

llvm::StringRef onnxc::getVersionString() {
  return "onnxc " ONNXC_VERSION " (git " ONNXC_GIT_COMMIT ONNXC_DIRTY_SUFFIX
         ", LLVM " LLVM_VERSION_STRING ")";
}

bool onnxc::isDirtyBuild() { return ONNXC_GIT_DIRTY != 0; }
