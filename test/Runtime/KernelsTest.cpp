//===- KernelsTest.cpp - f32 kernels against a plain reference ------------===//
//
// onnxc_kernel_conv2d_nchw_fchw_f32 and the depthwise kernel on shapes that
// take each path (the micro-tile as is and transposed, edge tiles, stride 1
// and 2) with each part of the fused epilogue (bias, residual, clamp); the
// few-row path of onnxcGemm (Gemv.c) with every kernel, strided and
// transposed operands, constant or not, each epilogue, on one and two
// threads.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
extern "C" {
#include "RuntimeInternal.h"
}

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
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
/// One product of the few-rows path: sizes, how each operand is laid out,
/// and the epilogue.
struct GemvCase {
  int64_t m, n, k;
  bool transA = false, transB = false, transC = false, stridedC = false;
  bool constB = false;
  bool bias = false, biasColumns = false, res = false, clamp = false;
};

/// Element (i, j) of a rows x cols matrix stored transposed or not, with
/// `pad` unused elements after each stored line.
struct Matrix {
  int64_t rows, cols, pad;
  bool trans;
  std::vector<float> *data;
  int64_t line() const { return (trans ? rows : cols) + pad; }
  int64_t at(int64_t i, int64_t j) const {
    return trans ? j * line() + i : i * line() + j;
  }
  std::vector<int64_t> rowTable() const {
    std::vector<int64_t> t(rows);
    for (int64_t i = 0; i < rows; ++i)
      t[i] = at(i, 0);
    return t;
  }
  std::vector<int64_t> colTable() const {
    std::vector<int64_t> t(cols);
    for (int64_t j = 0; j < cols; ++j)
      t[j] = at(0, j);
    return t;
  }
};

/// A buffer of `count` random values in [-1, 1). Constant operands are kept
/// packed under their address for the life of the process, so these are
/// never freed (a later buffer at the same address would hit a stale
/// entry).
std::vector<float> *newBuffer(int64_t count, std::mt19937 &rng) {
  auto *buffer = new std::vector<float>(count);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float &v : *buffer)
    v = dist(rng);
  return buffer;
}

/// Runs `c` through onnxcGemm and checks it against plain loops in double.
void checkGemv(const GemvCase &c, std::mt19937 &rng) {
  Matrix a{c.m, c.k, 3, c.transA, nullptr};
  Matrix b{c.k, c.n, 5, c.transB, nullptr};
  Matrix y{c.m, c.n, c.stridedC ? 7 : 0, c.transC, nullptr};
  a.data = newBuffer(a.line() * (c.transA ? c.k : c.m), rng);
  b.data = newBuffer(b.line() * (c.transB ? c.n : c.k), rng);
  int64_t yCount = y.line() * (c.transC ? c.n : c.m);
  std::unique_ptr<std::vector<float>> out(newBuffer(yCount, rng));
  std::unique_ptr<std::vector<float>> res(newBuffer(yCount, rng));
  std::unique_ptr<std::vector<float>> bias(
      newBuffer(c.biasColumns ? c.n : c.m, rng));
  y.data = out.get();
  const float lo = -0.5f, hi = 0.75f;
  std::vector<float> expected(*out);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      double sum = 0.0;
      for (int64_t p = 0; p < c.k; ++p)
        sum += double((*a.data)[a.at(i, p)]) * (*b.data)[b.at(p, j)];
      int64_t at = y.at(i, j);
      if (c.bias)
        sum += (*bias)[c.biasColumns ? j : i];
      else
        sum += expected[at];
      if (c.res)
        sum += (*res)[at];
      if (c.clamp)
        sum = std::min<double>(std::max<double>(sum, lo), hi);
      expected[at] = static_cast<float>(sum);
    }
  std::vector<int64_t> aRow = a.rowTable(), aCol = a.colTable();
  std::vector<int64_t> bRow = b.rowTable(), bCol = b.colTable();
  std::vector<int64_t> cRow = y.rowTable(), cCol = y.colTable();
  OnnxcGemm g = {};
  g.m = c.m;
  g.n = c.n;
  g.k = c.k;
  g.a = a.data->data();
  g.aRow = aRow.data();
  g.aCol = aCol.data();
  g.b = b.data->data();
  g.bRow = bRow.data();
  g.bCol = bCol.data();
  g.c = out->data();
  g.cRow = cRow.data();
  g.cCol = cCol.data();
  g.bias = c.bias ? bias->data() : nullptr;
  g.res = c.res ? res->data() : nullptr;
  g.biasColumns = c.biasColumns;
  g.clamp = c.clamp;
  g.lo = lo;
  g.hi = hi;
  g.constB = c.constB;
  // Once with the tables checked, once flagged strided (they are); a
  // constant B is packed on the first run and comes from the cache after.
  for (int run = 0; run < 2; ++run) {
    g.strided = run;
    std::vector<float> before(*out);
    onnxcGemm(&g);
    double worst = 0.0;
    for (size_t i = 0; i < expected.size(); ++i)
      worst = std::max(worst, std::fabs(double(expected[i]) - (*out)[i]));
    INFO("m " << c.m << " n " << c.n << " k " << c.k << " transA " << c.transA
              << " transB " << c.transB << " transC " << c.transC
              << " stridedC " << c.stridedC
              << " constB " << c.constB << " bias " << c.bias
              << " biasColumns " << c.biasColumns << " res " << c.res
              << " clamp " << c.clamp << " run " << run);
    CHECK(worst < 1e-4 * std::sqrt(double(c.k)));
    *out = before;
  }
  delete a.data;
  if (!c.constB)
    delete b.data;
}

/// The few-rows kernels this CPU has, and "off" (the GEMM).
std::vector<std::string> gemvKernels() {
  std::vector<std::string> names;
  for (const char *name : {"generic", "avx2", "avx512", "off"})
    if (onnxcGemvSelectKernel(name))
      names.push_back(name);
  return names;
}
} // namespace

TEST_CASE("few-row GEMM (GEMV) kernels match the reference", "[kernels]") {
  std::mt19937 rng(5);
  std::vector<std::string> names = gemvKernels();
  REQUIRE(names.size() >= 2);
  for (const std::string &name : names) {
    REQUIRE(onnxcGemvSelectKernel(name.c_str()));
    for (int64_t m = 1; m <= 5; ++m)
      for (auto [n, k] : std::initializer_list<std::pair<int64_t, int64_t>>{
               {1, 1}, {7, 3}, {17, 37}, {64, 16}, {65, 130}, {200, 9},
               {33, 1100}}) // (k past the gather's stack buffer)
        for (int variant = 0; variant < 16; ++variant) {
          GemvCase c{m, n, k};
          c.transA = variant & 1;
          c.transB = variant & 2;
          c.stridedC = variant & 4;
          c.transC = variant & 8;
          for (bool constB : {false, true}) {
            c.constB = constB;
            checkGemv(c, rng);
          }
        }
    // Each part of the epilogue, alone and together.
    for (int64_t m : {1, 3, 4})
      for (int epilogue = 1; epilogue < 16; ++epilogue) {
        bool bias = epilogue & 1;
        GemvCase c{m, 77, 41};
        c.transB = true;
        c.transC = m == 3;
        c.stridedC = c.constB = true;
        c.bias = bias;
        c.biasColumns = bias && (epilogue & 2);
        c.res = epilogue & 4;
        c.clamp = epilogue & 8;
        checkGemv(c, rng);
      }
  }
  onnxcGemvSelectKernel(nullptr);
}

TEST_CASE("few-row GEMM (GEMV) splits large products over the thread pool",
          "[kernels]") {
  std::mt19937 rng(9);
  onnxc_threadpool *pool = onnxc_threadpool_create(2);
  REQUIRE(pool);
  onnxc_threadpool *previous = onnxcSetCurrentThreadpool(pool);
  for (const std::string &name : gemvKernels()) {
    REQUIRE(onnxcGemvSelectKernel(name.c_str()));
    for (int64_t m : {1, 2, 4})
      for (bool constB : {false, true}) {
        // A constant B transposed (a fully connected layer's weights), any
        // other one with consecutive columns (read in place).
        GemvCase c{m, 1001, 517};
        c.stridedC = c.bias = c.biasColumns = c.res = c.clamp = true;
        c.constB = c.transB = constB;
        checkGemv(c, rng);
      }
  }
  onnxcSetCurrentThreadpool(previous);
  onnxc_threadpool_destroy(pool);
  onnxcGemvSelectKernel(nullptr);
}
