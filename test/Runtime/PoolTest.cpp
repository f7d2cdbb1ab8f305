//===- PoolTest.cpp - The pooling kernel against a plain reference --------===//
//
// onnxc_kernel_pool2d_f32 (lib/Kernels/pool/Pool.c) for max and average
// (padding counted or not) on odd sizes, each window geometry the vector
// paths specialize and others (strides 1 to 3, dilations, pads, windows
// running past the padded input as ceil_mode makes them), a strided input,
// on one thread and on a pool of two.
//
//===----------------------------------------------------------------------===//

#include "lib/Kernels/Kernels.h"
extern "C" {
#include "RuntimeInternal.h"
}

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {
struct Geometry {
  int64_t n, c, h, w, kh, kw, sh, sw, dh, dw, top, left, bottom, right;
  /// Extra output rows and columns beyond the padded input (ceil_mode).
  int64_t extraH = 0, extraW = 0;
};

int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t d, int64_t lo,
                int64_t hi, int64_t extra) {
  return (in + lo + hi - ((k - 1) * d + 1)) / s + 1 + extra;
}

/// Pools `x` (dense NCHW, column stride `xs`) the plain way.
std::vector<float> reference(const Geometry &g, const std::vector<float> &x,
                             int64_t xs, int64_t oh, int64_t ow,
                             int64_t flags) {
  bool average = flags & 1, countPad = flags & 2;
  std::vector<float> y(g.n * g.c * oh * ow);
  for (int64_t p = 0; p < g.n * g.c; ++p)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        double acc = average ? 0.0 : -std::numeric_limits<double>::infinity();
        int64_t count = 0;
        for (int64_t r = 0; r < g.kh; ++r)
          for (int64_t s = 0; s < g.kw; ++s) {
            int64_t a = i * g.sh - g.top + r * g.dh;
            int64_t b = j * g.sw - g.left + s * g.dw;
            bool inside = a >= 0 && a < g.h && b >= 0 && b < g.w;
            bool counted = countPad ? a >= -g.top && a < g.h + g.bottom &&
                                          b >= -g.left && b < g.w + g.right
                                    : inside;
            count += counted;
            if (!inside)
              continue;
            float v = x[((p * g.h + a) * g.w + b) * xs];
            acc = average ? acc + v : std::max<double>(acc, v);
          }
        y[(p * oh + i) * ow + j] =
            static_cast<float>(average ? acc / count : acc);
      }
  return y;
}

void check(const Geometry &g, int64_t flags, std::mt19937 &rng, int64_t xs) {
  int64_t oh = outSize(g.h, g.kh, g.sh, g.dh, g.top, g.bottom, g.extraH);
  int64_t ow = outSize(g.w, g.kw, g.sw, g.dw, g.left, g.right, g.extraW);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> x(g.n * g.c * g.h * g.w * xs);
  for (float &v : x)
    v = dist(rng);
  std::vector<float> y(g.n * g.c * oh * ow, 123.0f);
  onnxc_kernel_pool2d_f32(x.data(), x.data(), 0, g.n, g.c, g.h, g.w,
                          g.c * g.h * g.w * xs, g.h * g.w * xs, g.w * xs, xs,
                          y.data(), y.data(), 0, g.n, g.c, oh, ow,
                          g.c * oh * ow, oh * ow, ow, 1, g.kh, g.kw, g.sh, g.sw,
                          g.dh, g.dw, g.top, g.left, g.bottom, g.right, flags);
  std::vector<float> want = reference(g, x, xs, oh, ow, flags);
  INFO("h " << g.h << " w " << g.w << " k " << g.kh << "x" << g.kw << " s "
            << g.sh << "," << g.sw << " d " << g.dh << "," << g.dw << " pads "
            << g.top << "," << g.left << "," << g.bottom << "," << g.right
            << " flags " << flags << " xs " << xs);
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("at " << i);
    REQUIRE(y[i] == Approx(want[i]).margin(1e-6).epsilon(1e-6));
  }
}

const std::vector<Geometry> &geometries() {
  static const std::vector<Geometry> all = {
      // The specialized windows: 2x2/2, 3x3/2, 3x3/1, with and without pads.
      {2, 3, 8, 8, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0},
      {1, 5, 37, 37, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0},
      {1, 4, 35, 35, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0},
      {1, 3, 17, 17, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      {1, 3, 17, 19, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {2, 2, 35, 40, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0},
      {1, 2, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      // Same-size averages counting the padding (the depthwise flat form):
      // 5x5, and a dilated 3x3 with its pads.
      {2, 3, 15, 18, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2},
      {1, 2, 20, 24, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2},
      // Others: any window, stride 3, dilations, uneven pads, ceil_mode.
      {1, 2, 13, 29, 5, 4, 1, 2, 1, 1, 2, 3, 1, 0},
      {1, 2, 20, 33, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1},
      {1, 2, 15, 41, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2},
      {1, 2, 16, 45, 2, 3, 1, 1, 3, 2, 0, 1, 0, 1},
      {1, 1, 8, 8, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 1, 1},
      {1, 2, 6, 30, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      // A window wider than the input (global pooling).
      {2, 3, 7, 7, 7, 7, 1, 1, 1, 1, 0, 0, 0, 0},
      {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
  };
  return all;
}
} // namespace

TEST_CASE("pool2d kernel matches the reference", "[pool]") {
  std::mt19937 rng(5);
  for (const Geometry &g : geometries())
    for (int64_t flags : {0, 1, 3})
      for (int64_t xs : {1, 2})
        check(g, flags, rng, xs);
}

TEST_CASE("pool2d kernel splits planes over the thread pool", "[pool]") {
  std::mt19937 rng(6);
  onnxc_threadpool *pool = onnxc_threadpool_create(2);
  REQUIRE(pool);
  onnxc_threadpool *previous = onnxcSetCurrentThreadpool(pool);
  for (int64_t flags : {0, 1, 3}) {
    check({3, 7, 40, 41, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, flags, rng, 1);
    check({2, 9, 33, 35, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, flags, rng, 1);
  }
  onnxcSetCurrentThreadpool(previous);
  onnxc_threadpool_destroy(pool);
}
