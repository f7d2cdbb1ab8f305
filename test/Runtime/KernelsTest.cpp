//===- KernelsTest.cpp - Convolution kernels against a plain reference ----===//
//
// onnxc_kernel_conv2d_nchw_fchw_f32 and the depthwise kernel on shapes that
// take each path (the micro-tile as is and transposed, edge tiles, stride 1
// and 2) with each part of the fused epilogue (bias, residual, clamp).
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {
/// A dense NCHW (or rank-3 / rank-1) buffer and its strides.
struct Buffer {
  std::vector<int64_t> sizes, strides;
  std::vector<float> data;

  explicit Buffer(std::vector<int64_t> dims, std::mt19937 *rng = nullptr)
      : sizes(std::move(dims)), strides(sizes.size(), 1) {
    for (int i = static_cast<int>(sizes.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * sizes[i + 1];
    int64_t count = sizes.empty() ? 1 : strides[0] * sizes[0];
    data.assign(count, 0.0f);
    if (rng) {
      std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
      for (float &v : data)
        v = dist(*rng);
    }
  }
  float *ptr() { return data.data(); }
};

struct Case {
  int64_t batch, channels, filters, h, w, k, stride;
  bool depthwise;
};

/// The convolution of `c` with the epilogue of `flags` on plain loops.
std::vector<float> reference(const Case &c, Buffer &x, Buffer &w, Buffer &bias,
                             Buffer &res, Buffer &y, int64_t flags, float lo,
                             float hi) {
  int64_t oh = y.sizes[2], ow = y.sizes[3];
  std::vector<float> out(y.data);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t f = 0; f < c.filters; ++f)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          int64_t at = ((n * c.filters + f) * oh + i) * ow + j;
          double sum = (flags & 8) ? bias.data[f] : out[at];
          int64_t from = c.depthwise ? f : 0,
                  to = c.depthwise ? f + 1 : c.channels;
          for (int64_t ch = from; ch < to; ++ch)
            for (int64_t u = 0; u < c.k; ++u)
              for (int64_t v = 0; v < c.k; ++v) {
                float wv =
                    c.depthwise
                        ? w.data[(f * c.k + u) * c.k + v]
                        : w.data[((f * c.channels + ch) * c.k + u) * c.k + v];
                sum += wv * x.data[((n * c.channels + ch) * x.sizes[2] +
                                    i * c.stride + u) *
                                       x.sizes[3] +
                                   j * c.stride + v];
              }
          if (flags & 16)
            sum += res.data[at];
          if (flags & 1)
            sum = std::min<double>(std::max<double>(sum, lo), hi);
          out[at] = static_cast<float>(sum);
        }
  return out;
}

#define EXPAND1(b) b.ptr(), b.ptr(), 0, b.sizes[0], b.strides[0]
#define EXPAND3(b)                                                             \
  b.ptr(), b.ptr(), 0, b.sizes[0], b.sizes[1], b.sizes[2], b.strides[0],       \
      b.strides[1], b.strides[2]
#define EXPAND4(b)                                                             \
  b.ptr(), b.ptr(), 0, b.sizes[0], b.sizes[1], b.sizes[2], b.sizes[3],         \
      b.strides[0], b.strides[1], b.strides[2], b.strides[3]

void check(const Case &c, int64_t flags, float lo, float hi) {
  std::mt19937 rng(static_cast<unsigned>(c.filters * 131 + c.h * 7 + flags));
  int64_t oh = (c.h - c.k) / c.stride + 1, ow = (c.w - c.k) / c.stride + 1;
  Buffer x({c.batch, c.channels, c.h, c.w}, &rng);
  Buffer w(c.depthwise ? std::vector<int64_t>{c.filters, c.k, c.k}
                       : std::vector<int64_t>{c.filters, c.channels, c.k, c.k},
           &rng);
  Buffer bias({c.filters}, &rng), res({c.batch, c.filters, oh, ow}, &rng);
  Buffer y({c.batch, c.filters, oh, ow}, &rng);
  std::vector<float> expected = reference(c, x, w, bias, res, y, flags, lo, hi);
  if (c.depthwise)
    onnxc_kernel_depthwise_conv2d_nchw_chw_f32(
        EXPAND4(x), EXPAND3(w), EXPAND4(y), EXPAND1(bias), EXPAND4(res),
        c.stride, c.stride, 1, 1, flags, lo, hi);
  else
    onnxc_kernel_conv2d_nchw_fchw_f32(EXPAND4(x), EXPAND4(w), EXPAND4(y),
                                      EXPAND1(bias), EXPAND4(res), c.stride,
                                      c.stride, 1, 1, flags, lo, hi);
  double worst = 0.0;
  for (size_t i = 0; i < expected.size(); ++i)
    worst = std::max(worst, std::fabs(double(expected[i]) - y.data[i]));
  INFO("filters " << c.filters << " channels " << c.channels << " h " << c.h
                  << " w " << c.w << " k " << c.k << " stride " << c.stride
                  << " flags " << flags);
  CHECK(worst < 1e-3);
}
} // namespace

TEST_CASE("conv kernel with its fused epilogue matches the reference",
          "[kernels]") {
  const float inf = std::numeric_limits<float>::infinity();
  // 64 filters over 7 x 7 and 14 x 14 outputs take the transposed tile (240
  // filters: with an edge of 16 columns), 20 filters over 9 x 11 the plain
  // one with edge tiles (and 16 -> 24 on 9 x 10, a 1x1 with edge rows and a
  // partial last sliver).
  for (Case c :
       {Case{1, 16, 64, 9, 9, 3, 1, false}, Case{2, 8, 64, 14, 14, 1, 1, false},
        Case{1, 8, 240, 7, 7, 1, 1, false}, Case{1, 16, 24, 9, 10, 1, 1, false},
        Case{1, 12, 20, 11, 13, 3, 1, false},
        Case{1, 6, 40, 15, 15, 3, 2, false},
        Case{1, 600, 32, 7, 7, 1, 1, false}})
    for (int64_t flags : {0, 8, 8 | 1, 16 | 1, 8 | 16 | 1})
      check(c, flags, flags & 1 ? 0.0f : -inf, flags & 16 ? 6.0f : inf);
}

TEST_CASE("depthwise kernel with its fused epilogue matches the reference",
          "[kernels]") {
  const float inf = std::numeric_limits<float>::infinity();
  for (Case c :
       {Case{1, 8, 8, 9, 9, 3, 1, true}, Case{2, 5, 5, 35, 37, 3, 1, true},
        Case{1, 4, 4, 39, 41, 3, 2, true}, Case{1, 3, 3, 12, 12, 5, 2, true}})
    for (int64_t flags : {0, 8, 8 | 1, 16 | 1, 8 | 16 | 1})
      check(c, flags, flags & 1 ? 0.0f : -inf, flags & 16 ? 6.0f : inf);
}
