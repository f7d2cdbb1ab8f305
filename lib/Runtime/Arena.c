/*===- Arena.c - The per-call arena of a function's temporary buffers -----===*
 *
 * onnxc-plan-buffers places the temporaries of a generated function at fixed
 * offsets of one arena, acquired at the start of the call and released
 * before it returns. Each thread keeps one arena block (grown as needed,
 * freed when the thread exits) and hands it to every call: no allocation in
 * the steady state, and the same memory, still in the cache, for each call.
 * A call made while the thread's block is in use (a generated function
 * calling another) gets memory of its own.
 *
 *===----------------------------------------------------------------------===*/
#include "Kernels.h"

#include <pthread.h>
#include <stdlib.h>

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
      arena->block = aligned_alloc(64, size);
      arena->bytes = arena->block ? size : 0;
    }
    if (arena->block) {
      arena->busy = 1;
      memory = arena->block;
    }
  }
  if (!memory)
    memory = aligned_alloc(64, size);
  *result = (OnnxcByteMemRef){memory, memory, 0, {bytes}, {1}};
}

void _mlir_ciface_onnxc_arena_release(OnnxcByteMemRef *arena) {
  Arena *own = pthread_getspecific(arenaKey);
  if (own && own->busy && arena->allocated == own->block)
    own->busy = 0;
  else
    free(arena->allocated);
}
