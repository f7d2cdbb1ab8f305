//===- ThreadPoolTest.cpp - Unit tests of the runtime thread pool ---------===//

#include "onnxc_runtime.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

namespace {
/// Counts how often each index is visited and checks the chunks.
struct Coverage {
  explicit Coverage(int64_t n) : n(n), hits(new std::atomic<int>[n + 1]) {
    for (int64_t i = 0; i <= n; ++i)
      hits[i] = 0;
  }
  int64_t n;
  std::unique_ptr<std::atomic<int>[]> hits;
  std::atomic<int> chunks{0};
  std::atomic<int> badChunks{0};

  static void visit(void *ctx, int64_t begin, int64_t end) {
    auto *self = static_cast<Coverage *>(ctx);
    ++self->chunks;
    if (begin < 0 || end > self->n || begin >= end) {
      ++self->badChunks;
      return;
    }
    for (int64_t i = begin; i < end; ++i)
      ++self->hits[i];
  }

  bool exactlyOnce() const {
    for (int64_t i = 0; i < n; ++i)
      if (hits[i] != 1)
        return false;
    return true;
  }
};
} // namespace

TEST_CASE("parallel_for covers every index exactly once", "[threadpool]") {
  for (int size : {1, 2, 3, 4, 8}) {
    onnxc_threadpool *pool = onnxc_threadpool_create(size);
    REQUIRE(pool);
    CHECK(onnxc_threadpool_size(pool) == size);
    for (int64_t n : {0, 1, 2, 3, 7, 8, 31, 100, 1001, 65537}) {
      INFO("pool of " << size << ", n = " << n);
      Coverage cov(n);
      onnxc_parallel_for(pool, n, Coverage::visit, &cov);
      CHECK(cov.exactlyOnce());
      CHECK(cov.badChunks == 0);
      CHECK(cov.chunks <= (n < 4 * size ? n : 4 * size));
    }
    onnxc_threadpool_destroy(pool);
  }
}

TEST_CASE("parallel_for without a pool runs on the caller", "[threadpool]") {
  Coverage cov(10);
  onnxc_parallel_for(nullptr, 10, Coverage::visit, &cov);
  CHECK(cov.chunks == 1);
  CHECK(cov.exactlyOnce());
  CHECK(onnxc_threadpool_size(nullptr) == 1);
  onnxc_parallel_for(nullptr, -3, Coverage::visit, &cov);
  CHECK(cov.chunks == 1);
}

TEST_CASE("a pool of size 0 uses every core", "[threadpool]") {
  onnxc_threadpool *pool = onnxc_threadpool_create(0);
  REQUIRE(pool);
  CHECK(onnxc_threadpool_size(pool) >= 1);
  Coverage cov(1000);
  onnxc_parallel_for(pool, 1000, Coverage::visit, &cov);
  CHECK(cov.exactlyOnce());
  onnxc_threadpool_destroy(pool);
  onnxc_threadpool_destroy(nullptr);
}

TEST_CASE("the pool survives many back-to-back loops", "[threadpool]") {
  onnxc_threadpool *pool = onnxc_threadpool_create(4);
  REQUIRE(pool);
  for (int round = 0; round < 2000; ++round) {
    Coverage cov(round % 50);
    onnxc_parallel_for(pool, cov.n, Coverage::visit, &cov);
    REQUIRE(cov.exactlyOnce());
  }
  onnxc_threadpool_destroy(pool);
}

namespace {
struct Nested {
  onnxc_threadpool *pool;
  Coverage *inner;
  int64_t innerN;
};

void nestedOuter(void *ctx, int64_t begin, int64_t end) {
  auto *nested = static_cast<Nested *>(ctx);
  for (int64_t i = begin; i < end; ++i) {
    // Each outer index runs an inner loop over its own slice.
    struct Slice {
      Coverage *cov;
      int64_t base;
    } slice{nested->inner, i * nested->innerN};
    onnxc_parallel_for(
        nested->pool, nested->innerN,
        [](void *c, int64_t b, int64_t e) {
          auto *s = static_cast<Slice *>(c);
          for (int64_t k = b; k < e; ++k)
            ++s->cov->hits[s->base + k];
        },
        &slice);
  }
}
} // namespace

TEST_CASE("nested and concurrent loops do not deadlock", "[threadpool]") {
  onnxc_threadpool *pool = onnxc_threadpool_create(3);
  REQUIRE(pool);

  Coverage inner(20 * 30);
  Nested nested{pool, &inner, 30};
  onnxc_parallel_for(pool, 20, nestedOuter, &nested);
  CHECK(inner.exactlyOnce());

  std::vector<std::unique_ptr<Coverage>> covs;
  for (int t = 0; t < 4; ++t)
    covs.emplace_back(new Coverage(5000));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < 50; ++r) {
        Coverage cov(257);
        onnxc_parallel_for(pool, cov.n, Coverage::visit, &cov);
        if (!cov.exactlyOnce())
          ++covs[t]->badChunks;
      }
      onnxc_parallel_for(pool, covs[t]->n, Coverage::visit, covs[t].get());
    });
  for (auto &th : threads)
    th.join();
  for (auto &cov : covs) {
    CHECK(cov->badChunks == 0);
    CHECK(cov->exactlyOnce());
  }
  onnxc_threadpool_destroy(pool);
}

TEST_CASE("loops after the workers went to sleep cover every index",
          "[threadpool]") {
  // Workers that spin before they sleep, and workers that never spin.
  const char *policy = GENERATE("1", "0");
  INFO("ONNXC_THREAD_SPIN=" << policy);
  setenv("ONNXC_THREAD_SPIN", policy, 1);
  onnxc_threadpool *pool = onnxc_threadpool_create(3);
  unsetenv("ONNXC_THREAD_SPIN");
  REQUIRE(pool);
  for (int round = 0; round < 8; ++round) {
    INFO("round " << round);
    // Longer than the workers spin: they sleep before every other loop.
    if (round % 2)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Coverage cov(1000 + round);
    onnxc_parallel_for(pool, cov.n, Coverage::visit, &cov);
    CHECK(cov.exactlyOnce());
    CHECK(cov.badChunks == 0);
  }
  onnxc_threadpool_destroy(pool);
}
