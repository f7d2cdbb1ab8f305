//===- KernelsTest.cpp - fp32 kernels against a plain reference -----------===//
//
// onnxc_kernel_conv2d_nchw_fchw_f32 and the depthwise kernel on shapes that
// take each path (the micro-tile as is and transposed, edge tiles, stride 1
// and 2) with each part of the fused epilogue (bias, residual, clamp); the
// matmul on a B packed ahead (GemmLayout.h) in the layout of this CPU's
// kernel and in others, on one thread and two.
//
//===----------------------------------------------------------------------===//

#include "GemmLayout.h"
#include "Kernels.h"
extern "C" {
#include "RuntimeInternal.h"
}

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
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

namespace {
/// The ISA of this CPU's fp32 GEMM kernel, as the compiler names it.
OnnxcGemmIsa hostIsa() {
  std::string name = onnxcGemmKernelName();
  if (name == "avx512")
    return ONNXC_GEMM_ISA_AVX512;
  if (name == "avx2")
    return ONNXC_GEMM_ISA_AVX2;
  if (name == "neon")
    return ONNXC_GEMM_ISA_NEON;
  return ONNXC_GEMM_ISA_GENERIC;
}

/// C (m x n, contiguous) + A B (then max(., 0) with `relu`) in doubles.
std::vector<float> matmulReference(const std::vector<float> &a,
                                   const std::vector<float> &b, int64_t bRow,
                                   int64_t bCol, std::vector<float> c,
                                   int64_t m, int64_t n, int64_t k, bool relu) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = c[i * n + j];
      for (int64_t p = 0; p < k; ++p)
        sum += double(a[i * k + p]) * b[p * bRow + j * bCol];
      c[i * n + j] = static_cast<float>(relu && sum < 0 ? 0.0 : sum);
    }
  return c;
}

double worstError(const std::vector<float> &x, const std::vector<float> &y) {
  double worst = 0.0;
  for (size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, std::fabs(double(x[i]) - y[i]));
  return worst;
}

/// The matmul of random m x k A and k x n B (stored transposed with
/// `transposed`) into a random C: with B packed in the layout the compiler
/// picks for this CPU, bit for bit what the runtime's own packing gives;
/// in other layouts (another CPU's kernel, other reduction blocks) close to
/// the reference.
void checkPacked(int64_t m, int64_t n, int64_t k, bool transposed,
                 bool relu) {
  std::mt19937 rng(static_cast<unsigned>(m * 7919 + n * 31 + k));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (std::vector<float> *v : {&a, &b, &c})
    for (float &x : *v)
      x = dist(rng);
  int64_t bRow = transposed ? 1 : n, bCol = transposed ? k : 1;
  int64_t flags = relu ? 1 : 0;
  std::vector<float> expected = matmulReference(a, b, bRow, bCol, c, m, n, k,
                                                relu);
  INFO("m " << m << " n " << n << " k " << k << " transposed " << transposed
            << " relu " << relu);
  // The runtime packs B itself (a constant operand: packed whole).
  std::vector<float> unpacked = c;
  onnxc_kernel_matmul_f32(a.data(), a.data(), 0, m, k, k, 1, b.data(),
                          b.data(), 0, k, n, bRow, bCol, unpacked.data(),
                          unpacked.data(), 0, m, n, n, 1, flags | 4);
  CHECK(worstError(unpacked, expected) < 1e-3);

  OnnxcGemmIsa isa = hostIsa();
  OnnxcGemmTile host = onnxcGemmPrefersWide(isa, m, n)
                           ? onnxcGemmWideTile()
                           : onnxcGemmDefaultTile(isa);
  struct Layout {
    int nr;
    int64_t kcBlock;
  };
  std::vector<Layout> layouts = {
      {host.nr, onnxcGemmBlockK(host.kc, k)}, {8, onnxcGemmBlockK(256, k)},
      {16, 40}, {32, onnxcGemmBlockK(512, k)}, {48, onnxcGemmBlockK(256, k)},
      {48, 24}, {host.nr, onnxcGemmBlockK(host.kc, k)}};
  for (size_t l = 0; l < layouts.size(); ++l) {
    Layout layout = layouts[l];
    INFO("nr " << layout.nr << " kcBlock " << layout.kcBlock);
    // 64-byte aligned, as the compiler places it (and one float off, which
    // the runtime must read as well).
    int64_t size = onnxcGemmPackedBSize(k, n, layout.nr);
    std::vector<float> storage(size + 32);
    float *aligned = storage.data() +
                     (64 - reinterpret_cast<uintptr_t>(storage.data()) % 64) %
                         64 / sizeof(float);
    float *packed = l + 1 == layouts.size() ? aligned + 1 : aligned;
    onnxcGemmPackB(b.data(), bRow, bCol, k, n, layout.nr, layout.kcBlock,
                   packed);
    std::vector<float> out = c;
    onnxc_kernel_matmul_packed_f32(a.data(), a.data(), 0, m, k, k, 1, packed,
                                   packed, 0, size, 1,
                                   out.data(), out.data(), 0, m, n, n, 1, n,
                                   layout.nr, layout.kcBlock, flags);
    if (l == 0)
      CHECK(std::memcmp(out.data(), unpacked.data(),
                        out.size() * sizeof(float)) == 0);
    CHECK(worstError(out, expected) < 1e-3);
  }
}

void checkPackedShapes() {
  // Whole tiles of 8 x 48 (AVX-512 picks them), edge rows and columns, a
  // single row, reductions of one to three blocks, a reduction shorter
  // than 8, and enough work to split over threads.
  struct Shape {
    int64_t m, n, k;
  };
  for (Shape s : {Shape{128, 96, 600}, Shape{37, 45, 29}, Shape{1, 100, 257},
                  Shape{16, 48, 5}, Shape{200, 130, 1030}, Shape{3, 1, 70}})
    for (bool transposed : {false, true})
      for (bool relu : {false, true})
        checkPacked(s.m, s.n, s.k, transposed, relu);
}
} // namespace

TEST_CASE("matmul on a B packed ahead matches the runtime's own packing",
          "[kernels]") {
  checkPackedShapes();
  onnxc_threadpool *pool = onnxc_threadpool_create(2);
  REQUIRE(pool);
  onnxc_threadpool *previous = onnxcSetCurrentThreadpool(pool);
  checkPackedShapes();
  onnxcSetCurrentThreadpool(previous);
  onnxc_threadpool_destroy(pool);
}
