/*===- ThreadPool.c - Persistent pthread pool for parallel loops ---------===*
 *
 * A pool of N threads counts the caller: N - 1 workers wait on a condition
 * variable for a loop, then all N claim chunks of [0, n) from a shared
 * counter until none are left. One loop runs at a time per pool; a loop
 * started while another is running (from a second thread, or nested in a
 * chunk) runs serially on its caller instead of waiting.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "RuntimeInternal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/// Chunks per thread: enough to even out uneven chunks, few enough that the
/// shared counter stays cold.
enum { ChunksPerThread = 4 };

struct onnxc_threadpool {
  int size;
  int numWorkers;
  pthread_t *workers;

  /// Held by the thread running a loop on the pool.
  pthread_mutex_t submitMutex;

  /// Guards everything below except nextChunk.
  pthread_mutex_t mutex;
  pthread_cond_t startCond;
  pthread_cond_t doneCond;
  uint64_t generation;
  int running;
  bool stop;

  /// The current loop.
  onnxc_range_fn fn;
  void *ctx;
  int64_t n;
  int64_t numChunks;
  atomic_llong nextChunk;
};

static _Thread_local onnxc_threadpool *currentPool;

onnxc_threadpool *onnxc_current_threadpool(void) { return currentPool; }

onnxc_threadpool *onnxcSetCurrentThreadpool(onnxc_threadpool *pool) {
  onnxc_threadpool *previous = currentPool;
  currentPool = pool;
  return previous;
}

/// Claims and runs chunks of the current loop until none are left.
static void runChunks(onnxc_threadpool *pool) {
  int64_t n = pool->n, numChunks = pool->numChunks;
  for (;;) {
    int64_t chunk = atomic_fetch_add(&pool->nextChunk, 1);
    if (chunk >= numChunks)
      return;
    // Chunk sizes differ by at most one.
    int64_t base = n / numChunks, extra = n % numChunks;
    int64_t begin = chunk * base + (chunk < extra ? chunk : extra);
    int64_t end = begin + base + (chunk < extra ? 1 : 0);
    pool->fn(pool->ctx, begin, end);
  }
}

static void *workerMain(void *arg) {
  onnxc_threadpool *pool = arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&pool->mutex);
  for (;;) {
    while (pool->generation == seen && !pool->stop)
      pthread_cond_wait(&pool->startCond, &pool->mutex);
    if (pool->stop)
      break;
    seen = pool->generation;
    pthread_mutex_unlock(&pool->mutex);
    runChunks(pool);
    pthread_mutex_lock(&pool->mutex);
    if (--pool->running == 0)
      pthread_cond_signal(&pool->doneCond);
  }
  pthread_mutex_unlock(&pool->mutex);
  return NULL;
}

static int numCores(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? (int)(cores < 1024 ? cores : 1024) : 1;
}

static void stopWorkers(onnxc_threadpool *pool) {
  pthread_mutex_lock(&pool->mutex);
  pool->stop = true;
  pthread_cond_broadcast(&pool->startCond);
  pthread_mutex_unlock(&pool->mutex);
  for (int i = 0; i < pool->numWorkers; ++i)
    pthread_join(pool->workers[i], NULL);
}

onnxc_threadpool *onnxc_threadpool_create(int num_threads) {
  int size = num_threads > 0 ? num_threads : numCores();
  onnxc_threadpool *pool = calloc(1, sizeof(*pool));
  pthread_t *workers =
      size > 1 ? calloc((size_t)size - 1, sizeof(pthread_t)) : NULL;
  if (!pool || (size > 1 && !workers)) {
    free(pool);
    free(workers);
    onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  pool->size = size;
  pool->workers = workers;
  pthread_mutex_init(&pool->submitMutex, NULL);
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->startCond, NULL);
  pthread_cond_init(&pool->doneCond, NULL);
  atomic_init(&pool->nextChunk, 0);
  for (int i = 0; i < size - 1; ++i) {
    int rc = pthread_create(&workers[i], NULL, workerMain, pool);
    if (rc != 0) {
      stopWorkers(pool);
      onnxc_threadpool_destroy(pool);
      onnxcSetError(ONNXC_ERROR_INTERNAL,
                    "cannot start thread %d of %d for the pool", i + 2, size);
      return NULL;
    }
    pool->numWorkers = i + 1;
  }
  return pool;
}

void onnxc_threadpool_destroy(onnxc_threadpool *pool) {
  if (!pool)
    return;
  if (!pool->stop)
    stopWorkers(pool);
  pthread_cond_destroy(&pool->doneCond);
  pthread_cond_destroy(&pool->startCond);
  pthread_mutex_destroy(&pool->mutex);
  pthread_mutex_destroy(&pool->submitMutex);
  free(pool->workers);
  free(pool);
}

int onnxc_threadpool_size(const onnxc_threadpool *pool) {
  return pool ? pool->size : 1;
}

void onnxc_parallel_for(onnxc_threadpool *pool, int64_t n, onnxc_range_fn fn,
                        void *ctx) {
  if (n <= 0 || !fn)
    return;
  if (!pool || pool->numWorkers == 0 || n == 1 ||
      pthread_mutex_trylock(&pool->submitMutex) != 0) {
    fn(ctx, 0, n);
    return;
  }
  int64_t maxChunks = (int64_t)pool->size * ChunksPerThread;
  pthread_mutex_lock(&pool->mutex);
  pool->fn = fn;
  pool->ctx = ctx;
  pool->n = n;
  pool->numChunks = n < maxChunks ? n : maxChunks;
  atomic_store(&pool->nextChunk, 0);
  pool->running = pool->numWorkers;
  ++pool->generation;
  pthread_cond_broadcast(&pool->startCond);
  pthread_mutex_unlock(&pool->mutex);

  runChunks(pool);

  pthread_mutex_lock(&pool->mutex);
  while (pool->running > 0)
    pthread_cond_wait(&pool->doneCond, &pool->mutex);
  pthread_mutex_unlock(&pool->mutex);
  pthread_mutex_unlock(&pool->submitMutex);
}
