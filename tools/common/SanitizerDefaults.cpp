//===- SanitizerDefaults.cpp - ASan defaults of the sanitizer builds ------===//
//
// Linked into onnx-compile and onnx-opt only when ONNXC_SANITIZE includes
// address. LLVM gives a thread that registers its signal handlers (a batch
// worker creating a TempFile for an archive, say) an alternate signal stack
// of its own when the one ASan set up is smaller; ASan would then unmap
// LLVM's stack as the thread exits, fail, and abort. ASan therefore stays
// off alternate signal stacks here.
//
//===----------------------------------------------------------------------===//

extern "C" __attribute__((visibility("default"), used)) const char *
__asan_default_options() {
  return "use_sigaltstack=0";
}
