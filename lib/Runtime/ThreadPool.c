/*===- ThreadPool.c - Persistent pthread pool for parallel loops -----------===*
 *
 * A pool of N threads counts the caller: N - 1 workers wait for a loop, then
 * all N claim chunks of [0, n) from a shared counter until none are left.
 * One loop runs at a time per pool; a loop started while another is running
 * (from a second thread, or nested in a chunk) runs serially on its caller
 * instead of waiting.
 *
 * Models run many small loops back to back, so waking a worker through the
 * kernel for each would cost more than the loop. After a loop, workers spin
 * on the loop counter for a while (SpinNanoseconds, with a pause
 * instruction) and only then sleep on a condition variable; the caller
 * spins the same way for the workers to finish. Sleepers are counted so
 * that a loop started while all workers spin makes no system call. An idle
 * pool sleeps.
 *
 * Spinning pays only while every thread has a core. On a machine with more
 * runnable threads than cores, a spinning thread holds the core that the
 * thread it waits for needs (2 threads with a 100 us spin ran mobilenet_v2
 * 4x slower than blocking at a load of 17 on 2 cores). So threads spin only
 * while the kernel's count of runnable threads (/proc/loadavg, read at most
 * every LoadCheckNanoseconds) is at most the number of cores. sched_yield
 * in the spin made it worse still (60x slower there). ONNXC_THREAD_SPIN=1
 * (always spin) or 0 (never), read when a pool is created, overrides the
 * load check.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "RuntimeInternal.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// Chunks per thread: enough to even out uneven chunks, few enough that the
/// shared counter stays cold.
enum { ChunksPerThread = 4 };

/// How long a worker waits for the next loop, and the caller for the
/// workers, before sleeping (ORT's and Eigen's pools spin similarly). A
/// recurrent model's time steps leave 100 us and more between two loops;
/// with 50 us its worker slept through each gap, and waking it cost the
/// caller 20-30 us per loop (lstm at T=2: 0.201 ms with 50 us, 0.176 ms
/// with 200 us or 1 ms).
static const int64_t SpinNanoseconds = 200 * 1000;
enum { SpinByLoad, SpinAlways, SpinNever };

/// How often the machine's load decides again whether threads spin.
static const int64_t LoadCheckNanoseconds = 20 * 1000 * 1000;

struct onnxc_threadpool {
  int size;
  int numWorkers;
  pthread_t *workers;

  /// Held by the thread running a loop on the pool.
  pthread_mutex_t submitMutex;

  /// Sleeping workers wait on startCond, a sleeping caller on doneCond; both
  /// under mutex. The counters are atomics (sequentially consistent where a
  /// sleeper and a waker must see each other's writes).
  pthread_mutex_t mutex;
  pthread_cond_t startCond;
  pthread_cond_t doneCond;
  atomic_uint_least64_t generation;
  atomic_int running;
  atomic_int sleepers;
  atomic_bool callerSleeps;
  atomic_bool stop;
  /// ONNXC_THREAD_SPIN: SpinAlways, SpinNever or SpinByLoad.
  int spinPolicy;

  /// The current loop: written before generation is bumped.
  onnxc_range_fn fn;
  void *ctx;
  /// The caller's run arena, which the workers take for the loop.
  onnxcRunArena *arena;
  int64_t n;
  int64_t numChunks;
  atomic_llong nextChunk;
};

static inline void cpuRelax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static int64_t nowNanoseconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int numCores(void);

/// The number of runnable threads on the machine (the fourth field of
/// /proc/loadavg, "running/total"), or -1 where it cannot be read.
static int runnableThreads(void) {
  int fd = open("/proc/loadavg", O_RDONLY);
  if (fd < 0)
    return -1;
  char text[128];
  ssize_t size = read(fd, text, sizeof(text) - 1);
  close(fd);
  if (size <= 0)
    return -1;
  text[size] = '\0';
  // "0.50 0.40 0.30 2/160 1234": the number before the slash.
  char *slash = strchr(text, '/');
  if (!slash)
    return -1;
  char *start = slash;
  while (start > text && start[-1] >= '0' && start[-1] <= '9')
    --start;
  return start == slash ? -1 : atoi(start);
}

static atomic_llong loadCheckedAt;
static atomic_bool spinPays = true;

/// True when spinning pays: no more runnable threads than cores, as of at
/// most LoadCheckNanoseconds ago.
static bool spinningPays(int64_t now) {
  long long checked =
      atomic_load_explicit(&loadCheckedAt, memory_order_relaxed);
  if (now - checked >= LoadCheckNanoseconds &&
      atomic_compare_exchange_strong(&loadCheckedAt, &checked, now)) {
    int runnable = runnableThreads();
    atomic_store_explicit(&spinPays, runnable <= numCores(),
                          memory_order_relaxed);
  }
  return atomic_load_explicit(&spinPays, memory_order_relaxed);
}

/// Spins until done(pool) or SpinNanoseconds pass (not at all while the
/// machine has more runnable threads than cores); returns done(pool).
static bool spinUntil(onnxc_threadpool *pool,
                      bool (*done)(onnxc_threadpool *, uint64_t),
                      uint64_t arg) {
  if (done(pool, arg))
    return true;
  if (pool->spinPolicy == SpinNever)
    return false;
  int64_t deadline = nowNanoseconds();
  if (pool->spinPolicy == SpinByLoad && !spinningPays(deadline))
    return false;
  deadline += SpinNanoseconds;
  for (unsigned i = 1;; ++i) {
    if (done(pool, arg))
      return true;
    // The clock is read every 64 pauses only.
    if ((i & 63) == 0 && nowNanoseconds() >= deadline)
      return false;
    cpuRelax();
  }
}

/// Sequentially consistent loads: a worker about to sleep must see a loop
/// started after it counted itself among the sleepers.
static bool loopStarted(onnxc_threadpool *pool, uint64_t seen) {
  return atomic_load(&pool->generation) != seen || atomic_load(&pool->stop);
}

static bool workersDone(onnxc_threadpool *pool, uint64_t unused) {
  (void)unused;
  return atomic_load_explicit(&pool->running, memory_order_acquire) == 0;
}

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
  for (;;) {
    if (!spinUntil(pool, loopStarted, seen)) {
      pthread_mutex_lock(&pool->mutex);
      atomic_fetch_add(&pool->sleepers, 1);
      while (!loopStarted(pool, seen))
        pthread_cond_wait(&pool->startCond, &pool->mutex);
      atomic_fetch_sub(&pool->sleepers, 1);
      pthread_mutex_unlock(&pool->mutex);
    }
    if (atomic_load_explicit(&pool->stop, memory_order_acquire))
      break;
    seen = atomic_load(&pool->generation);
    onnxcSetCurrentRunArena(pool->arena);
    runChunks(pool);
    onnxcSetCurrentRunArena(NULL);
    if (atomic_fetch_sub(&pool->running, 1) == 1 &&
        atomic_load(&pool->callerSleeps)) {
      pthread_mutex_lock(&pool->mutex);
      pthread_cond_signal(&pool->doneCond);
      pthread_mutex_unlock(&pool->mutex);
    }
  }
  return NULL;
}

static int numCores(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? (int)(cores < 1024 ? cores : 1024) : 1;
}

static void stopWorkers(onnxc_threadpool *pool) {
  pthread_mutex_lock(&pool->mutex);
  atomic_store(&pool->stop, true);
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
  const char *spin = getenv("ONNXC_THREAD_SPIN");
  pool->spinPolicy = !spin || !*spin     ? SpinByLoad
                     : strcmp(spin, "0") ? SpinAlways
                                         : SpinNever;
  pool->workers = workers;
  pthread_mutex_init(&pool->submitMutex, NULL);
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->startCond, NULL);
  pthread_cond_init(&pool->doneCond, NULL);
  atomic_init(&pool->nextChunk, 0);
  atomic_init(&pool->generation, 0);
  atomic_init(&pool->running, 0);
  atomic_init(&pool->sleepers, 0);
  atomic_init(&pool->callerSleeps, false);
  atomic_init(&pool->stop, false);
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
  if (!atomic_load(&pool->stop))
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
  pool->fn = fn;
  pool->ctx = ctx;
  pool->arena = onnxcCurrentRunArena();
  pool->n = n;
  pool->numChunks = n < maxChunks ? n : maxChunks;
  atomic_store_explicit(&pool->nextChunk, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->running, pool->numWorkers, memory_order_relaxed);
  // Sequentially consistent: either a worker about to sleep sees the new
  // generation, or this sees it among the sleepers and wakes it.
  atomic_fetch_add(&pool->generation, 1);
  if (atomic_load(&pool->sleepers) > 0) {
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->startCond);
    pthread_mutex_unlock(&pool->mutex);
  }

  runChunks(pool);

  if (!spinUntil(pool, workersDone, 0)) {
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->callerSleeps, true);
    while (atomic_load(&pool->running) > 0)
      pthread_cond_wait(&pool->doneCond, &pool->mutex);
    atomic_store(&pool->callerSleeps, false);
    pthread_mutex_unlock(&pool->mutex);
  }
  pthread_mutex_unlock(&pool->submitMutex);
}
