/*===- Arena.c - Memory kept across calls: arenas and packed weights -------===*
 *
 * onnxc-plan-buffers places the temporaries of a generated function at fixed
 * offsets of one arena, acquired at the start of the call and released
 * before it returns. Each thread keeps one arena block (grown as needed,
 * freed when the thread exits) and hands it to every call: no allocation in
 * the steady state, and the same memory, still in the cache, for each call.
 * A call made while the thread's block is in use (a generated function
 * calling another) gets memory of its own.
 *
 * The kernels' packed constant operands live as long as the process; they
 * are carved one after the other out of large chunks.
 *
 * Blocks of 2 MiB and more are aligned to 2 MiB and advised as transparent
 * huge pages (where Linux has them): a model's weights and activations are
 * streamed through once per inference, and with 4 KiB pages that costs a
 * TLB miss every 4 KiB (ResNet-50 runs 3% faster with huge pages).
 *
 *===----------------------------------------------------------------------===*/
#define _DEFAULT_SOURCE
#include "Arena.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { HugePage = 1 << 21, PersistentChunk = 16 * HugePage };

/// `bytes` (a multiple of 64) of memory aligned to 64 bytes, or for 2 MiB
/// and more to 2 MiB and advised as huge pages; free() releases it.
static void *allocBlock(size_t bytes) {
  if (bytes < HugePage)
    return aligned_alloc(64, bytes);
  size_t size = (bytes + HugePage - 1) & ~(size_t)(HugePage - 1);
  void *block = aligned_alloc(HugePage, size);
#ifdef MADV_HUGEPAGE
  if (block)
    madvise(block, size, MADV_HUGEPAGE); // a hint: failure changes nothing
#endif
  return block;
}

static pthread_mutex_t persistentMutex = PTHREAD_MUTEX_INITIALIZER;
static char *chunkNext, *chunkEnd;

void *onnxcPersistentAlloc(size_t bytes) {
  size_t size = ((bytes ? bytes : 1) + 63) & ~(size_t)63;
  // Large blocks on their own; the rest one after the other in a chunk.
  if (size > PersistentChunk / 4)
    return allocBlock(size);
  pthread_mutex_lock(&persistentMutex);
  if (!chunkNext || (size_t)(chunkEnd - chunkNext) < size) {
    chunkNext = allocBlock(PersistentChunk);
    chunkEnd = chunkNext ? chunkNext + PersistentChunk : NULL;
  }
  void *block = chunkNext;
  if (block)
    chunkNext += size;
  pthread_mutex_unlock(&persistentMutex);
  return block;
}

typedef struct {
  void *block;
  size_t bytes;
  int busy;
} Arena;

static pthread_key_t arenaKey;
static pthread_once_t arenaOnce = PTHREAD_ONCE_INIT;

static void freeArena(void *p) {
  Arena *arena = p;
  free(arena->block);
  free(arena);
}

static void initArenaKey(void) { pthread_key_create(&arenaKey, freeArena); }

/// This thread's arena, made on first use; NULL when out of memory.
static Arena *threadArena(void) {
  pthread_once(&arenaOnce, initArenaKey);
  Arena *arena = pthread_getspecific(arenaKey);
  if (arena)
    return arena;
  arena = calloc(1, sizeof(*arena));
  if (arena && pthread_setspecific(arenaKey, arena) != 0) {
    free(arena);
    arena = NULL;
  }
  return arena;
}

void _mlir_ciface_onnxc_arena_acquire(OnnxcByteMemRef *result, int64_t bytes) {
  size_t size = ((size_t)(bytes > 0 ? bytes : 1) + 63) & ~(size_t)63;
  Arena *arena = threadArena();
  void *memory = NULL;
  if (arena && !arena->busy) {
    if (arena->bytes < size) {
      free(arena->block);
      arena->block = allocBlock(size);
      arena->bytes = arena->block ? size : 0;
    }
    if (arena->block) {
      arena->busy = 1;
      memory = arena->block;
    }
  }
  if (!memory)
    memory = allocBlock(size);
  *result = (OnnxcByteMemRef){memory, memory, 0, {bytes}, {1}};
}

void _mlir_ciface_onnxc_arena_release(OnnxcByteMemRef *arena) {
  Arena *own = pthread_getspecific(arenaKey);
  if (own && own->busy && arena->allocated == own->block)
    own->busy = 0;
  else
    free(arena->allocated);
}
