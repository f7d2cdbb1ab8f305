/*===- Arena.h - Memory kept across calls: arenas and persistent blocks ----===*
 *
 * Internal to onnxc (not part of onnxc_runtime.h), implemented by Arena.c:
 * the arena that onnxc-plan-buffers has generated functions acquire and
 * release, and the process-lifetime blocks that the kernels (lib/Kernels)
 * keep packed constant operands in.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_ARENA_H
#define ONNXC_RUNTIME_ARENA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `bytes` of memory, 64-byte aligned, that lives as long as the process
/// (packed constant operands; never freed); NULL when out of memory.
void *onnxcPersistentAlloc(size_t bytes);

/// A one-dimensional byte memref as generated code passes it through the C
/// interface (`llvm.emit_c_interface`): by pointer to its descriptor.
typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} OnnxcByteMemRef;

/// The arena of onnxc-plan-buffers (Arena.c): `bytes` bytes, 64-byte
/// aligned, for one call of a generated function (the calling thread's own
/// block, or fresh memory while that is in use); released before the call
/// returns. Their C-interface names, as generated code calls them.
void _mlir_ciface_onnxc_arena_acquire(OnnxcByteMemRef *result, int64_t bytes);
void _mlir_ciface_onnxc_arena_release(OnnxcByteMemRef *arena);

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_RUNTIME_ARENA_H */
