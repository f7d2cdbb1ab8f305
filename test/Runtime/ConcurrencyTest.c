/*===- ConcurrencyTest.c - The runtime API from many threads at once -------===*
 *
 * Built with -fsanitize=thread together with the runtime's sources, and
 * linked with a model that onnx-compile compiled (--emit obj). First every
 * thread has its own session (with a pool of its own) over that one shared
 * model, runs it on inputs of its own size, checks the results against a
 * reference computed here, provokes input errors and checks that each thread
 * sees its own error message. Then all threads share one session, running
 * the model and parallel loops on its pool at once. Last, one thread runs
 * loops back to back (the pool's workers still spin) and after pauses (they
 * sleep), and destroys pools right after a loop, with pools that always spin
 * and pools that never do. ThreadSanitizer fails the
 * test on any data race.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "onnxc_runtime.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* y = Relu(x W + b): the weights of Inputs/concurrency.onnxtxt. */
extern const onnxc_model_desc concurrency_model;
static const float kW[4][3] = {{0.5f, -1.0f, 0.25f},
                               {1.0f, 0.5f, -0.5f},
                               {-0.25f, 2.0f, 1.0f},
                               {0.75f, -0.125f, 0.5f}};
static const float kB[3] = {0.1f, -0.2f, 0.3f};

enum { kThreads = 8, kIterations = 200 };

typedef struct {
  int id;
  int failures;
  char message[256];
} Worker;

static void fail(Worker *w, const char *what) {
  if (!w->failures++)
    snprintf(w->message, sizeof(w->message), "thread %d: %s (%s)", w->id, what,
             onnxc_last_error());
}

/* One run on N = 1 + (id + i) % 7 rows, checked against the reference. */
static void runOnce(Worker *w, onnxc_session *session, int i) {
  int64_t n = 1 + (w->id + i) % 7;
  int64_t dims[2] = {n, 4};
  onnxc_tensor *x = onnxc_tensor_create(ONNXC_DTYPE_FLOAT, 2, dims);
  if (!x) {
    fail(w, "cannot create the input");
    return;
  }
  float *xs = onnxc_tensor_data(x);
  for (int64_t k = 0; k < n * 4; ++k)
    xs[k] = (float)((w->id * 31 + i * 7 + k) % 13) * 0.25f - 1.5f;
  onnxc_tensor *y = NULL;
  if (onnxc_session_run(session, &x, 1, &y) != ONNXC_OK) {
    fail(w, "run failed");
    onnxc_tensor_free(x);
    return;
  }
  const int64_t *ydims = onnxc_tensor_dims(y);
  if (onnxc_tensor_rank(y) != 2 || ydims[0] != n || ydims[1] != 3 ||
      strcmp(onnxc_tensor_name(y), "y") != 0) {
    fail(w, "wrong output signature");
  } else {
    const float *ys = onnxc_tensor_data(y);
    for (int64_t r = 0; r < n; ++r)
      for (int c = 0; c < 3; ++c) {
        float want = kB[c];
        for (int k = 0; k < 4; ++k)
          want += xs[r * 4 + k] * kW[k][c];
        want = want > 0 ? want : 0;
        if (fabsf(ys[r * 3 + c] - want) > 1e-5f)
          fail(w, "wrong output value");
      }
  }
  onnxc_tensor_free(y);
  onnxc_tensor_free(x);
}

/* An input of the wrong width: an error whose message is this thread's. */
static void runBadInput(Worker *w, onnxc_session *session) {
  int64_t dims[2] = {2, 5 + w->id};
  onnxc_tensor *x = onnxc_tensor_create(ONNXC_DTYPE_FLOAT, 2, dims);
  onnxc_tensor *y = NULL;
  if (onnxc_session_run(session, &x, 1, &y) != ONNXC_ERROR_INVALID_ARGUMENT ||
      y)
    fail(w, "a bad input was accepted");
  char want[64];
  snprintf(want, sizeof(want), "but got [2,%d]", 5 + w->id);
  if (!strstr(onnxc_last_error(), want))
    fail(w, "another thread's error message");
  onnxc_tensor_free(x);
}

static void *ownSessionMain(void *arg) {
  Worker *w = arg;
  onnxc_session *session = onnxc_session_create(&concurrency_model, 2);
  if (!session) {
    fail(w, "cannot create a session");
    return NULL;
  }
  for (int i = 0; i < kIterations; ++i) {
    runOnce(w, session, i);
    if (i % 50 == 0)
      runBadInput(w, session);
  }
  onnxc_session_free(session);
  return NULL;
}

/* Squares of [begin, end) into the caller's array (a parallel loop body). */
static void squares(void *ctx, int64_t begin, int64_t end) {
  int64_t *out = ctx;
  for (int64_t i = begin; i < end; ++i)
    out[i] = i * i;
}

static onnxc_session *sharedSession;

static void *sharedSessionMain(void *arg) {
  Worker *w = arg;
  int64_t out[256];
  for (int i = 0; i < kIterations / 4; ++i) {
    runOnce(w, sharedSession, i);
    memset(out, 0, sizeof(out));
    onnxc_parallel_for(onnxc_session_threadpool(sharedSession), 256, squares,
                       out);
    for (int64_t k = 0; k < 256; ++k)
      if (out[k] != k * k) {
        fail(w, "a parallel loop missed an index");
        break;
      }
  }
  return NULL;
}

/* Loops on pools of 2 to 4 threads: back to back, and after a pause longer
 * than the workers spin; each pool is destroyed right after its last loop.
 * Returns the number of wrong loops. */
static int wakeAndSleep(void) {
  int failures = 0;
  for (int round = 0; round < 12; ++round) {
    // Spinning or not regardless of the machine's load, in turn.
    setenv("ONNXC_THREAD_SPIN", round % 2 ? "0" : "1", 1);
    onnxc_threadpool *pool = onnxc_threadpool_create(2 + round % 3);
    if (!pool)
      return 1;
    int64_t out[256];
    for (int i = 0; i < 10; ++i) {
      if (i % 3 == 2) {
        struct timespec pause = {0, 2 * 1000 * 1000};
        nanosleep(&pause, NULL);
      }
      memset(out, 0, sizeof(out));
      onnxc_parallel_for(pool, 256, squares, out);
      for (int64_t k = 0; k < 256; ++k)
        if (out[k] != k * k) {
          ++failures;
          break;
        }
    }
    onnxc_threadpool_destroy(pool);
  }
  if (failures)
    fprintf(stderr, "error: waking and sleeping: %d loops missed an index\n",
            failures);
  return failures;
}

/* Runs `body` on kThreads threads; returns the number of failures. */
static int runThreads(void *(*body)(void *), const char *phase) {
  pthread_t threads[kThreads];
  Worker workers[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    workers[t] = (Worker){.id = t};
    if (pthread_create(&threads[t], NULL, body, &workers[t]) != 0) {
      fprintf(stderr, "error: cannot start thread %d\n", t);
      exit(1);
    }
  }
  int failures = 0;
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
    if (workers[t].failures) {
      fprintf(stderr, "error: %s: %s; %d failures\n", phase, workers[t].message,
              workers[t].failures);
      failures += workers[t].failures;
    }
  }
  return failures;
}

int main(void) {
  int failures = runThreads(ownSessionMain, "own sessions");
  sharedSession = onnxc_session_create(&concurrency_model, 4);
  if (!sharedSession) {
    fprintf(stderr, "error: cannot create a session: %s\n", onnxc_last_error());
    return 1;
  }
  failures += runThreads(sharedSessionMain, "one shared session");
  onnxc_session_free(sharedSession);
  failures += wakeAndSleep();
  if (failures)
    return 1;
  printf("%d threads: %d runs on sessions of their own, %d runs and parallel "
         "loops on one shared session; pools waking and sleeping: OK\n",
         kThreads, kIterations, kIterations / 4);
  return 0;
}
