//===- Version.h - The onnxc version and the commit it was built from -----===//

#ifndef ONNXC_LIB_DRIVER_VERSION_H
#define ONNXC_LIB_DRIVER_VERSION_H

#include "llvm/ADT/StringRef.h"

namespace onnxc {

/// "onnxc 0.1.0 (git 0123456789ab)", with "-dirty" after the commit when the
/// tree had uncommitted changes to tracked files.
llvm::StringRef getVersionString();

/// Whether the build came from a tree with uncommitted changes, so that the
/// commit alone does not name the compiler.
bool isDirtyBuild();

} // namespace onnxc

#endif // ONNXC_LIB_DRIVER_VERSION_H
