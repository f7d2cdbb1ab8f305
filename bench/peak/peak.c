/*===- peak.c - Measure the fp32 FMA peak of this CPU in GFLOP/s -----------===*
 *
 *   cc -O2 -march=native -pthread peak.c -o peak && ./peak [--threads T] [--ms
 *M] [--trials N]
 *
 * Each thread runs independent chains of fused multiply-adds on registers:
 * 16 chains of 512-bit FMAs (AVX-512F) and 12 of 256-bit FMAs (AVX2+FMA),
 * more than latency x throughput (4 cycles x 2 pipes on current x86 cores),
 * so the FMA ports never wait on a result. A kernel that the CPU lacks is
 * reported as null. Prints one JSON line:
 *   {"threads": T, "avx512_gflops": G, "avx2_gflops": G, "peak_gflops": G}
 * where each figure is the best of N trials (default 60) of about M ms
 * (default 5), summed over the T threads. Short trials, many of them, let the
 * best one fall between the time slices of other work on a busy machine.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double nowSec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile float sink;

/// 16 independent 512-bit FMA chains, 16 x 16 x 2 = 512 flops per iteration.
__attribute__((target("avx512f"), noinline)) static void fmaAvx512(long iters) {
  __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  __m512 c0 = _mm512_set1_ps(0.f), c1 = _mm512_set1_ps(1.f),
         c2 = _mm512_set1_ps(2.f), c3 = _mm512_set1_ps(3.f),
         c4 = _mm512_set1_ps(4.f), c5 = _mm512_set1_ps(5.f),
         c6 = _mm512_set1_ps(6.f), c7 = _mm512_set1_ps(7.f),
         c8 = _mm512_set1_ps(8.f), c9 = _mm512_set1_ps(9.f),
         c10 = _mm512_set1_ps(10.f), c11 = _mm512_set1_ps(11.f),
         c12 = _mm512_set1_ps(12.f), c13 = _mm512_set1_ps(13.f),
         c14 = _mm512_set1_ps(14.f), c15 = _mm512_set1_ps(15.f);
  for (long i = 0; i < iters; ++i) {
    c0 = _mm512_fmadd_ps(c0, a, b);
    c1 = _mm512_fmadd_ps(c1, a, b);
    c2 = _mm512_fmadd_ps(c2, a, b);
    c3 = _mm512_fmadd_ps(c3, a, b);
    c4 = _mm512_fmadd_ps(c4, a, b);
    c5 = _mm512_fmadd_ps(c5, a, b);
    c6 = _mm512_fmadd_ps(c6, a, b);
    c7 = _mm512_fmadd_ps(c7, a, b);
    c8 = _mm512_fmadd_ps(c8, a, b);
    c9 = _mm512_fmadd_ps(c9, a, b);
    c10 = _mm512_fmadd_ps(c10, a, b);
    c11 = _mm512_fmadd_ps(c11, a, b);
    c12 = _mm512_fmadd_ps(c12, a, b);
    c13 = _mm512_fmadd_ps(c13, a, b);
    c14 = _mm512_fmadd_ps(c14, a, b);
    c15 = _mm512_fmadd_ps(c15, a, b);
    // An empty asm that "changes" the accumulators keeps the compiler from
    // shortening the chains; it emits no instruction.
    __asm__ volatile(""
                     : "+v"(c0), "+v"(c1), "+v"(c2), "+v"(c3), "+v"(c4),
                       "+v"(c5), "+v"(c6), "+v"(c7));
    __asm__ volatile(""
                     : "+v"(c8), "+v"(c9), "+v"(c10), "+v"(c11), "+v"(c12),
                       "+v"(c13), "+v"(c14), "+v"(c15));
  }
  __m512 s = _mm512_add_ps(
      _mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
      _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7)));
  s = _mm512_add_ps(
      s, _mm512_add_ps(
             _mm512_add_ps(_mm512_add_ps(c8, c9), _mm512_add_ps(c10, c11)),
             _mm512_add_ps(_mm512_add_ps(c12, c13), _mm512_add_ps(c14, c15))));
  sink = _mm512_reduce_add_ps(s);
}

/// 12 independent 256-bit FMA chains, 12 x 8 x 2 = 192 flops per iteration.
__attribute__((target("avx2,fma"), noinline)) static void fmaAvx2(long iters) {
  __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  __m256 c0 = _mm256_set1_ps(0.f), c1 = _mm256_set1_ps(1.f),
         c2 = _mm256_set1_ps(2.f), c3 = _mm256_set1_ps(3.f),
         c4 = _mm256_set1_ps(4.f), c5 = _mm256_set1_ps(5.f),
         c6 = _mm256_set1_ps(6.f), c7 = _mm256_set1_ps(7.f),
         c8 = _mm256_set1_ps(8.f), c9 = _mm256_set1_ps(9.f),
         c10 = _mm256_set1_ps(10.f), c11 = _mm256_set1_ps(11.f);
  for (long i = 0; i < iters; ++i) {
    c0 = _mm256_fmadd_ps(c0, a, b);
    c1 = _mm256_fmadd_ps(c1, a, b);
    c2 = _mm256_fmadd_ps(c2, a, b);
    c3 = _mm256_fmadd_ps(c3, a, b);
    c4 = _mm256_fmadd_ps(c4, a, b);
    c5 = _mm256_fmadd_ps(c5, a, b);
    c6 = _mm256_fmadd_ps(c6, a, b);
    c7 = _mm256_fmadd_ps(c7, a, b);
    c8 = _mm256_fmadd_ps(c8, a, b);
    c9 = _mm256_fmadd_ps(c9, a, b);
    c10 = _mm256_fmadd_ps(c10, a, b);
    c11 = _mm256_fmadd_ps(c11, a, b);
    __asm__ volatile(""
                     : "+x"(c0), "+x"(c1), "+x"(c2), "+x"(c3), "+x"(c4),
                       "+x"(c5));
    __asm__ volatile(""
                     : "+x"(c6), "+x"(c7), "+x"(c8), "+x"(c9), "+x"(c10),
                       "+x"(c11));
  }
  __m256 s = _mm256_add_ps(
      _mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)),
      _mm256_add_ps(_mm256_add_ps(c4, c5), _mm256_add_ps(c6, c7)));
  s = _mm256_add_ps(
      s, _mm256_add_ps(_mm256_add_ps(c8, c9), _mm256_add_ps(c10, c11)));
  float lanes[8];
  _mm256_storeu_ps(lanes, s);
  sink = lanes[0] + lanes[7];
}

typedef struct {
  void (*kernel)(long);
  long iters;
  pthread_barrier_t *barrier;
  double start, end;
} Job;

static void *runJob(void *arg) {
  Job *job = arg;
  pthread_barrier_wait(job->barrier);
  // Each thread times itself: a clock read by another thread could be
  // descheduled across the whole kernel on a busy machine.
  job->start = nowSec();
  job->kernel(job->iters);
  job->end = nowSec();
  return NULL;
}

/// Runs the kernel on `threads` threads at once; returns the seconds from the
/// first thread's start to the last one's end.
static double timeKernel(void (*kernel)(long), long iters, int threads) {
  pthread_barrier_t barrier;
  pthread_barrier_init(&barrier, NULL, (unsigned)threads);
  pthread_t *ids = calloc((size_t)threads, sizeof(pthread_t));
  Job *jobs = calloc((size_t)threads, sizeof(Job));
  for (int t = 0; t < threads; ++t) {
    jobs[t] = (Job){kernel, iters, &barrier, 0, 0};
    pthread_create(&ids[t], NULL, runJob, &jobs[t]);
  }
  double first = 0, last = 0;
  for (int t = 0; t < threads; ++t) {
    pthread_join(ids[t], NULL);
    if (t == 0 || jobs[t].start < first)
      first = jobs[t].start;
    if (t == 0 || jobs[t].end > last)
      last = jobs[t].end;
  }
  pthread_barrier_destroy(&barrier);
  free(ids);
  free(jobs);
  return last - first;
}

/// Best GFLOP/s over the trials, each sized to take about `ms` milliseconds.
static double measure(void (*kernel)(long), double flopsPerIter, int threads,
                      double ms, int trials) {
  long iters = 1 << 16;
  double t = timeKernel(kernel, iters, 1);
  while (t < 0.01) { // calibrate on one thread
    iters *= 4;
    t = timeKernel(kernel, iters, 1);
  }
  iters = (long)((double)iters * (ms * 1e-3) / t) + 1;
  double best = 0;
  for (int i = 0; i < trials; ++i) {
    double gflops = flopsPerIter * (double)iters * threads /
                    timeKernel(kernel, iters, threads) / 1e9;
    if (gflops > best)
      best = gflops;
  }
  return best;
}

int main(int argc, char **argv) {
  int threads = 1;
  double ms = 5;
  int trials = 60;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--ms") && i + 1 < argc)
      ms = atof(argv[++i]);
    else if (!strcmp(argv[i], "--trials") && i + 1 < argc)
      trials = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--threads T] [--ms M] [--trials N]\n",
              argv[0]);
      return 2;
    }
  }
  if (threads < 1 || ms <= 0 || trials < 1) {
    fprintf(stderr, "error: --threads, --ms and --trials must be positive\n");
    return 2;
  }
  __builtin_cpu_init();
  double avx512 = -1, avx2 = -1;
  if (__builtin_cpu_supports("avx512f"))
    avx512 = measure(fmaAvx512, 16 * 16 * 2, threads, ms, trials);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    avx2 = measure(fmaAvx2, 12 * 8 * 2, threads, ms, trials);
  double peak = avx512 > avx2 ? avx512 : avx2;
  char a[32] = "null", b[32] = "null", p[32] = "null";
  if (avx512 > 0)
    snprintf(a, sizeof a, "%.2f", avx512);
  if (avx2 > 0)
    snprintf(b, sizeof b, "%.2f", avx2);
  if (peak > 0)
    snprintf(p, sizeof p, "%.2f", peak);
  printf("{\"threads\": %d, \"avx512_gflops\": %s, \"avx2_gflops\": %s, "
         "\"peak_gflops\": %s}\n",
         threads, a, b, p);
  return peak > 0 ? 0 : 1;
}
