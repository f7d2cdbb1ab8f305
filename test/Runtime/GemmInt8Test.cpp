//===- GemmInt8Test.cpp - The int8 GEMM kernels against a reference -------===//
//
// Every int8 micro-kernel this CPU has (and the portable one) on random
// problems of odd sizes, against a direct evaluation of the definition:
// exact for i32 outputs, bit-exact for the requantized and f32 ones (the
// kernels compute the same float expression).
//
//===----------------------------------------------------------------------===//

#include "lib/Kernels/Kernels.h"
extern "C" {
#include "RuntimeInternal.h"
}

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct Problem {
  int64_t m, n, k;
  bool weightsA, xSigned, wSigned;
  int out;
  bool relu, perChannel, biasF32, wZeroNonZero;
};

/// The value of an 8-bit byte as its signed or unsigned integer.
int32_t byteValue(uint8_t b, bool isSigned) {
  return isSigned ? static_cast<int8_t>(b) : b;
}

/// Runs `p` with the kernel `kernel` and checks it against the definition.
void check(const Problem &p, const char *kernel, std::mt19937 &rng,
           bool constWeights) {
  REQUIRE(onnxcQGemmSelectKernel(kernel));
  INFO("kernel " << kernel << " m " << p.m << " n " << p.n << " k " << p.k
                 << " weightsA " << p.weightsA << " out " << p.out);
  std::uniform_int_distribution<int> byte(0, 255);
  // A is m x k, B is k x n, both row-major; the weights are one of them.
  std::vector<uint8_t> a(p.m * p.k), b(p.k * p.n);
  for (uint8_t &v : a)
    v = static_cast<uint8_t>(byte(rng));
  for (uint8_t &v : b)
    v = static_cast<uint8_t>(byte(rng));
  int64_t channels = p.weightsA ? p.m : p.n;
  int64_t count = p.perChannel ? channels : 1;
  std::vector<int32_t> wZero(count), biasI32(count);
  std::vector<float> scale(count), biasF32(count);
  std::uniform_real_distribution<float> unit(0.5f, 1.5f);
  for (int64_t c = 0; c < count; ++c) {
    wZero[c] = p.wZeroNonZero
                   ? byteValue(static_cast<uint8_t>(byte(rng)), p.wSigned)
                   : 0;
    biasI32[c] = byte(rng) * 37 - 4000;
    scale[c] = unit(rng) / static_cast<float>(p.k * 64);
    biasF32[c] = unit(rng) - 1.0f;
  }
  int32_t xZero = byteValue(static_cast<uint8_t>(byte(rng)), p.xSigned);
  int32_t yZero = p.out == ONNXC_QOUT_S8 ? byte(rng) - 128 : byte(rng);

  std::vector<int64_t> aRow(p.m), aCol(p.k), bRow(p.k), bCol(p.n), cRow(p.m),
      cCol(p.n);
  for (int64_t i = 0; i < p.m; ++i)
    aRow[i] = i * p.k, cRow[i] = i * p.n;
  for (int64_t q = 0; q < p.k; ++q)
    aCol[q] = q, bRow[q] = q * p.n;
  for (int64_t j = 0; j < p.n; ++j)
    bCol[j] = j, cCol[j] = j;
  std::vector<uint8_t> c(p.m * p.n * 4, 0xcd);

  OnnxcQGemm g;
  std::memset(&g, 0, sizeof(g));
  g.m = p.m, g.n = p.n, g.k = p.k;
  g.a = a.data(), g.aRow = aRow.data(), g.aCol = aCol.data();
  g.b = b.data(), g.bRow = bRow.data(), g.bCol = bCol.data();
  g.c = c.data(), g.cRow = cRow.data(), g.cCol = cCol.data();
  g.weightsA = p.weightsA;
  g.xSigned = p.xSigned, g.wSigned = p.wSigned;
  g.constA = constWeights && p.weightsA;
  g.constB = constWeights && !p.weightsA;
  g.xZero = xZero;
  g.wZero = wZero.data(), g.wZeroCount = count;
  if (p.out == ONNXC_QOUT_F32 && p.biasF32)
    g.biasF32 = biasF32.data();
  else
    g.biasI32 = biasI32.data();
  g.biasCount = count;
  g.scale = scale.data(), g.scaleCount = count;
  g.yZero = yZero;
  g.out = p.out;
  g.relu = p.relu;
  onnxcQGemm(&g);

  int64_t mismatches = 0;
  for (int64_t i = 0; i < p.m; ++i)
    for (int64_t j = 0; j < p.n; ++j) {
      int64_t ch = p.perChannel ? (p.weightsA ? i : j) : 0;
      int32_t acc = 0;
      for (int64_t q = 0; q < p.k; ++q) {
        uint8_t x = p.weightsA ? b[q * p.n + j] : a[i * p.k + q];
        uint8_t w = p.weightsA ? a[i * p.k + q] : b[q * p.n + j];
        acc += (byteValue(x, p.xSigned) - xZero) *
               (byteValue(w, p.wSigned) - wZero[ch]);
      }
      int64_t at = i * p.n + j;
      if (!g.biasF32)
        acc += biasI32[ch];
      if (p.out == ONNXC_QOUT_I32) {
        int32_t got;
        std::memcpy(&got, c.data() + 4 * at, 4);
        mismatches += got != acc;
        continue;
      }
      float f = static_cast<float>(acc) * scale[ch];
      if (p.out == ONNXC_QOUT_F32) {
        if (g.biasF32)
          f += biasF32[ch];
        if (p.relu && f < 0.0f)
          f = 0.0f;
        float got;
        std::memcpy(&got, c.data() + 4 * at, 4);
        mismatches += got != f;
        continue;
      }
      float lo = p.out == ONNXC_QOUT_U8 ? 0.0f : -128.0f;
      float hi = p.out == ONNXC_QOUT_U8 ? 255.0f : 127.0f;
      float q = std::nearbyint(f) + static_cast<float>(yZero);
      q = std::fmin(std::fmax(q, p.relu ? std::fmax(lo, float(yZero)) : lo),
                    hi);
      int32_t want = static_cast<int32_t>(q);
      const uint8_t *out = c.data();
      int32_t got =
          p.out == ONNXC_QOUT_U8 ? out[at] : static_cast<int8_t>(out[at]);
      mismatches += got != want;
    }
  CHECK(mismatches == 0);
}

std::vector<std::string> kernels() {
  std::vector<std::string> names;
  for (const char *name : {"generic", "avx2", "avx512vnni", "sdot"})
    if (onnxcQGemmSelectKernel(name))
      names.push_back(name);
  return names;
}

} // namespace

TEST_CASE("int8 GEMM kernels match the definition", "[gemm-int8]") {
  std::mt19937 rng(7);
  const Problem problems[] = {
      // m, n, k, weightsA, xSigned, wSigned, out, relu, perChannel, biasF32,
      // wZeroNonZero
      {37, 45, 29, false, false, true, ONNXC_QOUT_U8, false, true, false,
       false},
      {37, 45, 29, true, false, true, ONNXC_QOUT_U8, true, true, false, false},
      {16, 64, 64, false, true, true, ONNXC_QOUT_S8, false, false, false,
       false},
      {30, 33, 100, true, true, false, ONNXC_QOUT_I32, false, true, false,
       true},
      {5, 70, 3, false, false, false, ONNXC_QOUT_F32, true, true, true, true},
      {64, 48, 77, true, false, true, ONNXC_QOUT_F32, false, false, false,
       false},
      {1, 100, 257, false, false, true, ONNXC_QOUT_U8, false, true, false,
       true},
  };
  std::vector<std::string> names = kernels();
  REQUIRE(!names.empty());
  for (const std::string &name : names)
    for (const Problem &p : problems)
      for (bool constWeights : {false, true})
        check(p, name.c_str(), rng, constWeights);
  onnxcQGemmSelectKernel(nullptr);
}

TEST_CASE("int8 GEMM splits large problems over the thread pool",
          "[gemm-int8]") {
  std::mt19937 rng(11);
  onnxc_threadpool *pool = onnxc_threadpool_create(4);
  REQUIRE(pool);
  onnxc_threadpool *previous = onnxcSetCurrentThreadpool(pool);
  for (const std::string &name : kernels())
    for (bool weightsA : {false, true})
      check({200, 190, 130, weightsA, false, true, ONNXC_QOUT_U8, true, true,
             false, false},
            name.c_str(), rng, true);
  onnxcSetCurrentThreadpool(previous);
  onnxc_threadpool_destroy(pool);
  onnxcQGemmSelectKernel(nullptr);
}

TEST_CASE("qconv2d entry point computes a strided, dilated convolution",
          "[gemm-int8]") {
  // x: 1x3x9x8 u8, w: 4x3x3x2 s8, stride 2x1, dilation 1x2 -> y 1x4x4x6.
  const int64_t c = 3, h = 9, wd = 8, f = 4, kh = 3, kw = 2;
  const int64_t sh = 2, sw = 1, dh = 1, dw = 2;
  const int64_t oh = (h - (kh - 1) * dh - 1) / sh + 1;
  const int64_t ow = (wd - (kw - 1) * dw - 1) / sw + 1;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<uint8_t> x(c * h * wd), w(f * c * kh * kw), y(f * oh * ow);
  for (uint8_t &v : x)
    v = static_cast<uint8_t>(byte(rng));
  for (uint8_t &v : w)
    v = static_cast<uint8_t>(byte(rng));
  int32_t xZero = 100, yZero = 7;
  std::vector<int32_t> wZero(f, 0), bias{10, -20, 30, -40};
  std::vector<float> scale{0.001f, 0.002f, 0.0015f, 0.0005f};
  for (const std::string &name : kernels()) {
    REQUIRE(onnxcQGemmSelectKernel(name.c_str()));
    int64_t flags = ONNXC_QFLAG_CONST_W | ONNXC_QFLAG_W_SIGNED |
                    (ONNXC_QOUT_U8 << ONNXC_QFLAG_OUT_SHIFT);
    onnxc_kernel_qconv2d(
        x.data(), x.data(), 0, 1, c, h, wd, c * h * wd, h * wd, wd, 1, w.data(),
        w.data(), 0, f, c, kh, kw, c * kh * kw, kh * kw, kw, 1, &xZero, &xZero,
        0, 1, 1, wZero.data(), wZero.data(), 0, f, 1, bias.data(), bias.data(),
        0, f, 1, scale.data(), scale.data(), 0, f, 1, &yZero, &yZero, 0, 1, 1,
        y.data(), y.data(), 0, 1, f, oh, ow, f * oh * ow, oh * ow, ow, 1, sh,
        sw, dh, dw, flags);
    int64_t mismatches = 0;
    for (int64_t o = 0; o < f; ++o)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          int32_t acc = bias[o];
          for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t u = 0; u < kh; ++u)
              for (int64_t v = 0; v < kw; ++v)
                acc += (x[(ch * h + i * sh + u * dh) * wd + j * sw + v * dw] -
                        xZero) *
                       static_cast<int8_t>(w[((o * c + ch) * kh + u) * kw + v]);
          float q = std::nearbyint(static_cast<float>(acc) * scale[o]) + yZero;
          int32_t want = static_cast<int32_t>(std::fmin(std::fmax(q, 0), 255));
          mismatches += y[(o * oh + i) * ow + j] != want;
        }
    INFO("kernel " << name);
    CHECK(mismatches == 0);
  }
  onnxcQGemmSelectKernel(nullptr);
}
