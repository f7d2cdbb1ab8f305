//===- Version.h - The onnxc version and the commit it was built from -----===//

#ifndef ONNXC_LIB_DRIVER_VERSION_H
#define ONNXC_LIB_DRIVER_VERSION_H

#include "llvm/ADT/StringRef.h"

namespace onnxc {

/// "onnxc 0.1.0 (git 0123456789ab, LLVM 19.1.7)": the version, the commit
/// ("-dirty" after it when the tree had uncommitted changes to tracked files)
/// and the LLVM the tools were built with.
llvm::StringRef getVersionString();

/// Whether the build came from a tree with uncommitted changes, so that the
/// commit alone does not name the compiler.
bool isDirtyBuild();

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_VERSION_H
