/*===- Profile.c - Per-node times of a profiled model ----------------------===*
 *
 * A model compiled with `onnx-compile --profile` calls onnxc_profile_enter
 * and onnxc_profile_exit around the work of each node (a kernel call, a
 * loop nest, a loop on the pool), naming the site "NODE (WHAT)". While
 * profiling is on (onnxc_profile_start: the executable's --profile PATH, or
 * ONNXC_PROFILE=PATH for a library's first session), each exit records one
 * event; onnxc_profile_stop writes them as Chrome trace JSON (PATH, what
 * chrome://tracing and Perfetto read, as ONNX Runtime's profiler writes) and
 * a table of the sites by total time (PATH.txt). Off, a probe is one load
 * and a branch.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "RuntimeInternal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Events kept at most (64 MiB); later ones are counted, not kept. */
#define ONNXC_PROFILE_MAX_EVENTS (1 << 21)

typedef struct {
  const char *site;
  int64_t startNs, durationNs;
  int thread;
} Event;

static atomic_bool profiling;
static pthread_mutex_t profileMutex = PTHREAD_MUTEX_INITIALIZER;
static char *profilePath;
static Event *events;
static int64_t numEvents, capacity, dropped, originNs;
static int nextThread;
static _Thread_local int64_t enteredNs;
static _Thread_local int threadId = -1;

static int64_t nowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void onnxc_profile_enter(const char *site) {
  (void)site;
  if (atomic_load_explicit(&profiling, memory_order_relaxed))
    enteredNs = nowNs();
}

void onnxc_profile_exit(const char *site) {
  if (!atomic_load_explicit(&profiling, memory_order_relaxed))
    return;
  int64_t end = nowNs();
  pthread_mutex_lock(&profileMutex);
  if (threadId < 0)
    threadId = nextThread++;
  if (numEvents == capacity && capacity < ONNXC_PROFILE_MAX_EVENTS) {
    int64_t grown = capacity ? capacity * 2 : 4096;
    Event *more = realloc(events, sizeof(Event) * (size_t)grown);
    if (more)
      events = more, capacity = grown;
  }
  if (numEvents < capacity)
    events[numEvents++] =
        (Event){site, enteredNs - originNs, end - enteredNs, threadId};
  else
    ++dropped;
  pthread_mutex_unlock(&profileMutex);
}

onnxc_status onnxc_profile_start(const char *path) {
  if (!path || !*path)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "profile: needs a file to write");
  pthread_mutex_lock(&profileMutex);
  char *copy = strdup(path);
  if (!copy) {
    pthread_mutex_unlock(&profileMutex);
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  free(profilePath);
  profilePath = copy;
  numEvents = dropped = 0;
  originNs = nowNs();
  atomic_store(&profiling, true);
  pthread_mutex_unlock(&profileMutex);
  return ONNXC_OK;
}

/// `s` as a JSON string's contents.
static void writeJSONString(FILE *f, const char *s) {
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
}

typedef struct {
  const char *site;
  int64_t calls, totalNs;
} SiteTotal;

static int byTotal(const void *a, const void *b) {
  const SiteTotal *x = a, *y = b;
  return x->totalNs < y->totalNs ? 1 : x->totalNs > y->totalNs ? -1 : 0;
}

/// The table: one row per site name (sites of one name summed), by total
/// time.
static onnxc_status writeTable(const char *path) {
  SiteTotal *totals =
      calloc((size_t)(numEvents ? numEvents : 1), sizeof(SiteTotal));
  if (!totals)
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  int64_t numSites = 0, allNs = 0;
  for (int64_t i = 0; i < numEvents; ++i) {
    int64_t s = 0;
    while (s < numSites && totals[s].site != events[i].site &&
           strcmp(totals[s].site, events[i].site) != 0)
      ++s;
    if (s == numSites)
      totals[numSites++] = (SiteTotal){events[i].site, 0, 0};
    totals[s].calls += 1;
    totals[s].totalNs += events[i].durationNs;
    allNs += events[i].durationNs;
  }
  qsort(totals, (size_t)numSites, sizeof(SiteTotal), byTotal);
  FILE *f = fopen(path, "w");
  if (!f) {
    free(totals);
    return onnxcSetError(ONNXC_ERROR_IO, "profile: cannot write '%s'", path);
  }
  fprintf(f, "%10s %8s %10s %6s  %s\n", "total ms", "calls", "mean us", "%",
          "node (what)");
  for (int64_t s = 0; s < numSites; ++s)
    fprintf(f, "%10.3f %8lld %10.2f %6.2f  %s\n", totals[s].totalNs / 1e6,
            (long long)totals[s].calls,
            totals[s].totalNs / 1e3 / (double)totals[s].calls,
            allNs ? 100.0 * (double)totals[s].totalNs / (double)allNs : 0.0,
            totals[s].site);
  fprintf(f, "%10.3f %8lld %10s %6s  all profiled sites\n", allNs / 1e6,
          (long long)numEvents, "", "100");
  free(totals);
  return fclose(f) == 0 ? ONNXC_OK
                        : onnxcSetError(ONNXC_ERROR_IO,
                                        "profile: cannot write '%s'", path);
}

static onnxc_status writeTrace(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    return onnxcSetError(ONNXC_ERROR_IO, "profile: cannot write '%s'", path);
  fputs("{\"traceEvents\": [", f);
  for (int64_t i = 0; i < numEvents; ++i) {
    fputs(i ? ",\n" : "\n", f);
    fputs("{\"name\": \"", f);
    writeJSONString(f, events[i].site);
    fprintf(f,
            "\", \"cat\": \"node\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": "
            "%.3f, \"pid\": 1, \"tid\": %d}",
            events[i].startNs / 1e3, events[i].durationNs / 1e3,
            events[i].thread);
  }
  fprintf(f,
          "\n], \"displayTimeUnit\": \"ms\", \"otherData\": {\"dropped\": "
          "%lld}}\n",
          (long long)dropped);
  return fclose(f) == 0 ? ONNXC_OK
                        : onnxcSetError(ONNXC_ERROR_IO,
                                        "profile: cannot write '%s'", path);
}

onnxc_status onnxc_profile_stop(void) {
  pthread_mutex_lock(&profileMutex);
  if (!atomic_load(&profiling)) {
    pthread_mutex_unlock(&profileMutex);
    return ONNXC_OK;
  }
  atomic_store(&profiling, false);
  onnxc_status status = writeTrace(profilePath);
  size_t length = strlen(profilePath);
  char *table = malloc(length + 5);
  if (status == ONNXC_OK && !table)
    status = onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  if (status == ONNXC_OK) {
    memcpy(table, profilePath, length);
    memcpy(table + length, ".txt", 5);
    status = writeTable(table);
  }
  if (status == ONNXC_OK && numEvents == 0)
    fprintf(stderr,
            "warning: profile: no node was timed (was the model compiled "
            "with onnx-compile --profile?)\n");
  free(table);
  free(events);
  events = NULL;
  numEvents = capacity = 0;
  pthread_mutex_unlock(&profileMutex);
  return status;
}

static void stopAtExit(void) {
  if (onnxc_profile_stop() != ONNXC_OK)
    fprintf(stderr, "error: %s\n", onnxc_last_error());
}

static void startFromEnvironment(void) {
  const char *path = getenv("ONNXC_PROFILE");
  if (!path || !*path || atomic_load(&profiling))
    return;
  if (onnxc_profile_start(path) == ONNXC_OK)
    atexit(stopAtExit);
  else
    fprintf(stderr, "error: %s\n", onnxc_last_error());
}

void onnxcProfileFromEnvironment(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, startFromEnvironment);
}
