/*===- RuntimeInternal.h - Private declarations shared by the runtime ------===*
 *
 * Not installed: the pieces of the runtime that its .c files share (the
 * tensor layout, error reporting, atomic file writes). Everything here is
 * prefixed `onnxc` so that it cannot clash with the symbols of the program
 * the runtime archive is linked into.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_INTERNAL_H
#define ONNXC_RUNTIME_INTERNAL_H

#include "onnxc_runtime.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the onnxc runtime assumes a little-endian target"
#endif

_Static_assert(sizeof(void *) == 8, "the model ABI assumes 64-bit pointers");

#if defined(__GNUC__)
#define ONNXC_PRINTF(fmtIdx, argIdx)                                           \
  __attribute__((format(printf, fmtIdx, argIdx)))
#else
#define ONNXC_PRINTF(fmtIdx, argIdx)
#endif

/// Every value: a tensor, or (kind) a sequence, map or NONE, whose dtype is
/// its element dtype and whose rank, numel, nbytes and data are 0.
struct onnxc_tensor {
  int32_t dtype;
  int32_t rank;
  int64_t dims[ONNXC_MAX_RANK];
  int64_t numel;
  size_t nbytes;
  /// Where element 0 lives.
  void *data;
  /// What onnxc_tensor_free passes to free(); NULL for wrapped tensors.
  void *allocation;
  /// Owned; NULL means "".
  char *name;
  /// onnxc_kind: TENSOR, SEQUENCE, MAP or NONE.
  int32_t kind;
  /// A sequence's item kind (TENSOR or MAP) and, for maps, key dtype; a
  /// map's key dtype.
  int32_t elemKind;
  int32_t keyDtype;
  /// Made in a run arena (Values.c): freed with the arena, not one by one.
  bool inArena;
  /// A sequence's `count` items (room for `capacity`).
  int64_t count;
  int64_t capacity;
  onnxc_tensor **items;
  /// A map's keys and values.
  onnxc_tensor *keys;
  onnxc_tensor *values;
};

/// Formats the thread's last error message and returns `status`.
/// Starts profiling into $ONNXC_PROFILE, once per process, if it is set
/// (onnxc_session_create calls it); the files are written at exit.
void onnxcProfileFromEnvironment(void);

onnxc_status onnxcSetError(onnxc_status status, const char *fmt, ...)
    ONNXC_PRINTF(2, 3);

/// Clears the thread's last error.
void onnxcClearError(void);

/// The `allocated` pointer of a memref descriptor of a constant global.
#define ONNXC_GLOBAL_SENTINEL ((uintptr_t)0xdeadbeef)

/// Prints `dims` as "[2,3,4]" into `buf`, truncating if needed.
void onnxcFormatDims(char *buf, size_t size, int32_t rank, const int64_t *dims);

/// True if `dtype` is a numeric dtype (known and not string).
bool onnxcDtypeIsNumeric(int32_t dtype);

/// True if `dtype` is a dtype tensors can hold: numeric or string.
bool onnxcDtypeIsKnown(int32_t dtype);

/// String tensors (Strings.c): each element a 64-bit handle of a string
/// record, 0 for "". The bytes and byte count of the string of `handle`.
const char *onnxcStringData(int64_t handle, size_t *size);

/// A new string tensor holding copies of the strings of `handles`.
onnxc_tensor *onnxcStringTensorFromHandles(int32_t rank, const int64_t *dims,
                                           const int64_t *handles,
                                           int64_t numel);

/// The strings and values (Values.c) a model makes during one run live in
/// the run's arena, which onnxc_session_run keeps on its stack and sets on
/// its thread (and the thread pool on its workers for the loops it runs),
/// and releases after copying the outputs. A run that makes none allocates
/// nothing.
typedef struct onnxcRunArena {
  pthread_mutex_t mutex;
  struct onnxcArenaBlock *blocks;
} onnxcRunArena;
#define ONNXC_RUN_ARENA_INIT {PTHREAD_MUTEX_INITIALIZER, NULL}
/// Frees what `arena` holds.
void onnxcRunArenaRelease(onnxcRunArena *arena);
onnxcRunArena *onnxcCurrentRunArena(void);
/// Sets the arena of this thread and returns the previous one.
onnxcRunArena *onnxcSetCurrentRunArena(onnxcRunArena *arena);
/// `size` zeroed, 8-aligned bytes in the current run arena (outside a run:
/// a process arena never freed); aborts when memory runs out, as a compiled
/// model's own allocations do.
void *onnxcRunArenaAlloc(size_t size);

/// A deep copy of `value` of any kind, owned by the caller (strings copied
/// out of any arena); NULL with the last error set on failure.
onnxc_tensor *onnxcValueCopy(const onnxc_tensor *value);

/// A zeroed tensor in the run arena (freed when the run ends), its data in
/// the same block; a shape it cannot hold stops the run with a message
/// naming `op`. Its address is a value handle (Values.c).
onnxc_tensor *onnxcArenaTensor(int32_t dtype, int32_t rank, const int64_t *dims,
                               const char *op);

/// The name of a kind ("tensor", "sequence", ...).
const char *onnxcKindName(int32_t kind);

/// Copies a strided memref of `rank` dims into dense row-major `dst`.
void onnxcCopyStrided(unsigned char *dst, const unsigned char *src,
                      int32_t rank, const int64_t *sizes,
                      const int64_t *strides, size_t elemSize, int64_t numel);

/// Writes `value` as the proto of `kind` (onnxc_value_write_pb), named
/// `name` (NULL: the value's name), to a temporary file next to `path`.
onnxc_status onnxcWriteValuePbTemp(const onnxc_tensor *value, const char *path,
                                   int32_t kind, const char *name,
                                   char **tmpPath);

/// The bits an element of `dtype` takes in a .pb file when ONNX packs it
/// (4: INT4, UINT4, FLOAT4E2M1; 2: INT2, UINT2), else 0.
unsigned onnxcDtypePackedBits(int32_t dtype);

/// Checks dtype, rank and dims and computes the element count and byte
/// size. Sets the last error and returns its status on failure.
onnxc_status onnxcCheckShape(int32_t dtype, int32_t rank, const int64_t *dims,
                             int64_t *numel, size_t *nbytes);

/// A tensor that takes ownership of `allocation` (freed with free()) and
/// whose element 0 is at `data`. On failure the allocation is not freed.
onnxc_tensor *onnxcTensorAdopt(int32_t dtype, int32_t rank, const int64_t *dims,
                               void *data, void *allocation);

/// Writes the `numParts` byte ranges to a new temporary file next to `path`
/// and returns its name in `*tmpPath` (malloc'd), for the caller to rename()
/// into place or unlink. Nothing is left behind on failure.
onnxc_status onnxcWriteTemp(const char *path, const void *const *parts,
                            const size_t *sizes, int numParts, char **tmpPath);

/// Renames `tmpPath` to `path`, unlinking `tmpPath` on failure.
onnxc_status onnxcCommitTemp(const char *tmpPath, const char *path);

/// Encodes the fields of a TensorProto that precede the raw bytes of
/// `tensor`: dims, data_type, name and the raw_data key and length. The
/// result is malloc'd; the raw data itself follows it in the file.
onnxc_status onnxcEncodePbHeader(const onnxc_tensor *tensor, const char *name,
                                 unsigned char **header, size_t *headerSize);

/// Writes `tensor` as a TensorProto to a temporary file next to `path`.
onnxc_status onnxcWritePbTemp(const onnxc_tensor *tensor, const char *path,
                              const char *name, char **tmpPath);

/// Checks that `model` is a usable version 2 model descriptor.
onnxc_status onnxcCheckModel(const onnxc_model_desc *model);

/// The rank of the memref descriptor that carries a value of `sig` through
/// the model ABI: a handle's rank-0 memref for the kinds that are not tensors.
int32_t onnxcDescriptorRank(const onnxc_tensor_sig *sig);

/// The size in bytes of an element of that memref: a handle's 8 for the kinds
/// that are not tensors.
size_t onnxcDescriptorElementSize(const onnxc_tensor_sig *sig);

/// Sets the pool that onnxc_current_threadpool() returns on this thread and
/// returns the previous one.
onnxc_threadpool *onnxcSetCurrentThreadpool(onnxc_threadpool *pool);

#endif /* ONNXC_RUNTIME_INTERNAL_H */
