//===- KernelsTest.cpp - f32 kernels against a plain reference ------------===//
//
// onnxc_kernel_conv2d_nchw_fchw_f32, the grouped, depthwise and small-plane
// kernels and onnxcConvWinograd on shapes that take each path (the
// micro-tile as is and transposed, edge tiles, stride 1 and 2, dilation,
// groups of a few to many channels, planes of a few vectors, tiles past the
// output, GEMM tiles split unevenly between threads) with each part of the
// fused epilogue (bias, residual, clamp, HardSwish); the few-row path
// of onnxcGemm (Gemv.c) with every kernel, strided and transposed operands,
// constant or not, each epilogue; the matmul on a B packed ahead
// (KernelABI.h) in the layout of this CPU's kernel and in others; on one
// thread and two.
//
//===----------------------------------------------------------------------===//

#include "lib/Kernels/Kernels.h"
#include "dialects/Kernel/KernelABI.h"
extern "C" {
#include "RuntimeInternal.h"
}

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
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
  int64_t groups = 1, dilation = 1;
  /// Zeros around the input: top, left, bottom, right.
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  /// A plain convolution through the small-plane kernel.
  bool small = false;
  /// A plain 3x3 convolution through onnxcConvWinograd, which must take it.
  bool winograd = false;
};

/// The convolution of `c` with the epilogue of `flags` on plain loops; `x`
/// is the padded input.
std::vector<float> reference(const Case &c, Buffer &x, Buffer &w, Buffer &bias,
                             Buffer &res, Buffer &y, int64_t flags, float lo,
                             float hi) {
  int64_t oh = y.sizes[2], ow = y.sizes[3];
  int64_t perGroup = c.channels / c.groups,
          filtersPerGroup = c.filters / c.groups;
  std::vector<float> out(y.data);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t f = 0; f < c.filters; ++f)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          int64_t at = ((n * c.filters + f) * oh + i) * ow + j;
          double sum = (flags & 8) ? bias.data[f] : out[at];
          int64_t first = f / filtersPerGroup * perGroup;
          for (int64_t ch = 0; ch < perGroup; ++ch)
            for (int64_t u = 0; u < c.k; ++u)
              for (int64_t v = 0; v < c.k; ++v)
                sum += w.data[((f * perGroup + ch) * c.k + u) * c.k + v] *
                       x.data[((n * c.channels + first + ch) * x.sizes[2] +
                               i * c.stride + u * c.dilation) *
                                  x.sizes[3] +
                              j * c.stride + v * c.dilation];
          if (flags & 16)
            sum += res.data[at];
          if (flags & 1)
            sum = std::min<double>(std::max<double>(sum, lo), hi);
          if (flags & 32)
            sum *= std::min(std::max(sum / 6.0 + 0.5, 0.0), 1.0);
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

/// A dense rank-4 buffer's sizes and strides with dim `dim` split into
/// [groups, size / groups].
struct Split {
  std::vector<int64_t> sizes, strides;
  Split(const Buffer &b, size_t dim, int64_t groups)
      : sizes(b.sizes), strides(b.strides) {
    sizes[dim] /= groups;
    sizes.insert(sizes.begin() + dim, groups);
    strides.insert(strides.begin() + dim, strides[dim] * sizes[dim + 1]);
  }
};
#define EXPAND5(b, v)                                                          \
  b.ptr(), b.ptr(), 0, v.sizes[0], v.sizes[1], v.sizes[2], v.sizes[3],         \
      v.sizes[4], v.strides[0], v.strides[1], v.strides[2], v.strides[3],      \
      v.strides[4]

/// Whether this CPU has AVX-512 (which onnxcConvWinograd needs).
bool hasAvx512() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

/// Runs the kernel of `c` (plain, grouped, depthwise, small-plane or
/// Winograd) with `threads` threads and compares it with the reference.
void check(const Case &c, int64_t flags, float lo, float hi, int threads) {
  std::mt19937 rng(static_cast<unsigned>(c.filters * 131 + c.h * 7 + flags));
  int64_t extent = (c.k - 1) * c.dilation + 1;
  int64_t ph = c.h + c.padTop + c.padBottom, pw = c.w + c.padLeft + c.padRight;
  int64_t oh = (ph - extent) / c.stride + 1, ow = (pw - extent) / c.stride + 1;
  bool depthwise =
      c.groups > 1 && c.groups == c.channels && c.groups == c.filters;
  // The depthwise and small-plane kernels read the padding implicitly; the
  // others take the padded copy.
  Buffer image({c.batch, c.channels, c.h, c.w}, &rng);
  Buffer x({c.batch, c.channels, ph, pw});
  for (int64_t p = 0; p < c.batch * c.channels; ++p)
    for (int64_t i = 0; i < c.h; ++i)
      for (int64_t j = 0; j < c.w; ++j)
        x.data[(p * ph + i + c.padTop) * pw + j + c.padLeft] =
            image.data[(p * c.h + i) * c.w + j];
  Buffer w({c.filters, c.channels / c.groups, c.k, c.k}, &rng);
  Buffer bias({c.filters}, &rng), res({c.batch, c.filters, oh, ow}, &rng);
  Buffer y({c.batch, c.filters, oh, ow}, &rng);
  std::vector<float> expected = reference(c, x, w, bias, res, y, flags, lo, hi);
  // Constant filters (flag 4, and Winograd's always) are packed or
  // transformed once and kept by address, so they must outlive the test.
  static std::vector<std::unique_ptr<Buffer>> keptFilters;
  bool constant = (flags & 4) || c.winograd;
  if (constant)
    keptFilters.push_back(std::make_unique<Buffer>(w));
  Buffer &filters = constant ? *keptFilters.back() : w;
  onnxc_threadpool *pool = onnxc_threadpool_create(threads);
  REQUIRE(pool);
  onnxc_threadpool *previous = onnxcSetCurrentThreadpool(pool);
  int winogradDone = 0;
  if (c.winograd) {
    OnnxcWinograd wc{};
    wc.images = c.batch;
    wc.filters = c.filters;
    wc.channels = c.channels;
    wc.oh = oh;
    wc.ow = ow;
    wc.x = x.ptr();
    wc.xh = ph;
    wc.xw = pw;
    wc.w = filters.ptr();
    wc.y = y.ptr();
    for (int i = 0; i < 3; ++i)
      wc.xs[i] = x.strides[i], wc.ys[i] = y.strides[i];
    for (int i = 0; i < 4; ++i)
      wc.ws[i] = w.strides[i];
    wc.bias = flags & 8 ? bias.ptr() : nullptr;
    wc.res = flags & 16 ? res.ptr() : nullptr;
    wc.resImageStride = res.strides[0];
    wc.clamp = (flags & 1) != 0;
    wc.hardSwish = (flags & 32) != 0;
    wc.lo = lo;
    wc.hi = hi;
    winogradDone = onnxcConvWinograd(&wc);
  } else if (c.small) {
    onnxc_kernel_conv2d_small_nchw_fchw_f32(
        EXPAND4(image), EXPAND4(w), EXPAND4(y), EXPAND1(bias), EXPAND4(res),
        c.stride, c.stride, c.dilation, c.dilation, c.padTop, c.padLeft, flags,
        lo, hi);
  } else if (depthwise) {
    Buffer w3({c.filters, c.k, c.k});
    w3.data = w.data;
    onnxc_kernel_depthwise_conv2d_nchw_chw_f32(
        EXPAND4(image), EXPAND3(w3), EXPAND4(y), EXPAND1(bias), EXPAND4(res),
        c.stride, c.stride, c.dilation, c.dilation, c.padTop, c.padLeft, flags,
        lo, hi, 1.0f / 6.0f, 0.5f);
  } else if (c.groups > 1) {
    Split xs(x, 1, c.groups), ws(w, 0, c.groups), ys(y, 1, c.groups);
    onnxc_kernel_conv2d_ngchw_gfchw_f32(EXPAND5(x, xs), EXPAND5(w, ws),
                                        EXPAND5(y, ys), EXPAND1(bias),
                                        EXPAND5(res, ys), c.stride, c.stride,
                                        c.dilation, c.dilation, flags, lo, hi);
  } else {
    onnxc_kernel_conv2d_nchw_fchw_f32(
        EXPAND4(x), EXPAND4(filters), EXPAND4(y), EXPAND1(bias), EXPAND4(res),
        c.stride, c.stride, c.dilation, c.dilation, flags, lo, hi);
  }
  onnxcSetCurrentThreadpool(previous);
  onnxc_threadpool_destroy(pool);
  if (c.winograd) {
    if (!hasAvx512()) {
      WARN("no AVX-512 on this CPU: onnxcConvWinograd declines");
      return;
    }
    REQUIRE(winogradDone == 1);
  }
  double worst = 0.0;
  for (size_t i = 0; i < expected.size(); ++i)
    worst = std::max(worst, std::fabs(double(expected[i]) - y.data[i]));
  INFO("filters " << c.filters << " channels " << c.channels << " groups "
                  << c.groups << " small " << c.small << " winograd "
                  << c.winograd << " h " << c.h << " w " << c.w << " k " << c.k
                  << " stride " << c.stride << " dilation " << c.dilation
                  << " pads " << c.padTop << "," << c.padLeft << ","
                  << c.padBottom << "," << c.padRight << " flags " << flags
                  << " threads " << threads);
  CHECK(worst < 1e-3);
}

/// check() with each part of the epilogue (and for a plain or depthwise
/// `c` HardSwish, alone and after the rest), on 1 and 2 threads.
void checkEpilogues(const Case &c) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<int64_t> epilogues{0, 8, 8 | 1, 16 | 1, 8 | 16 | 1};
  if (c.groups == 1 || (c.groups == c.channels && c.groups == c.filters))
    epilogues.insert(epilogues.end(), {32, 8 | 32, 8 | 16 | 1 | 32});
  for (int threads : {1, 2})
    for (int64_t flags : epilogues)
      check(c, flags, flags & 1 ? 0.0f : -inf, flags & 16 ? 6.0f : inf,
            threads);
}
} // namespace

TEST_CASE("conv kernel with its fused epilogue matches the reference",
          "[kernels]") {
  // 64 filters over 7 x 7 and 14 x 14 outputs take the transposed tile (240
  // filters: with an edge of 16 columns; the last sliver of 49 pixels sums
  // only 7 rows), 20 filters over 9 x 11 the plain one with edge tiles (its
  // last 6 rows summed as 7; and 16 -> 24 on 9 x 10, a 1x1 with edge rows
  // and a partial last sliver); a 7x7 window at stride 2 over 3 channels, as
  // ResNet's first layer, packs rows of 18 pixels from every other column;
  // 16 filters over 625 pixels take the 8 x 48 tile with a partial sliver,
  // 4 filters the few-row path; 288 channels into 48 filters read the image
  // in place over a reduction block of 288; last slivers of 4 rows (18
  // pixels into 64 filters, transposed; 18 filters over 100 pixels) sum 4;
  // 128 channels into 112 filters read the image in place too.
  for (Case c :
       {Case{1, 16, 64, 9, 9, 3, 1}, Case{2, 8, 64, 14, 14, 1, 1},
        Case{1, 8, 240, 7, 7, 1, 1}, Case{1, 16, 24, 9, 10, 1, 1},
        Case{1, 12, 20, 11, 13, 3, 1}, Case{1, 6, 40, 15, 15, 3, 2},
        Case{1, 600, 32, 7, 7, 1, 1}, Case{1, 5, 7, 13, 12, 3, 1, 1, 2},
        Case{1, 3, 24, 40, 42, 7, 2}, Case{1, 16, 16, 25, 25, 1, 1},
        Case{1, 16, 4, 20, 20, 1, 1}, Case{1, 288, 48, 35, 35, 1, 1},
        Case{1, 8, 64, 3, 6, 1, 1}, Case{1, 8, 18, 10, 10, 1, 1},
        Case{1, 128, 112, 20, 20, 1, 1}})
    checkEpilogues(c);
}

TEST_CASE("conv GEMM split unevenly between threads matches the reference",
          "[kernels]") {
  // 2 threads over blocks of micro-tiles that do not halve: 49 pixels (4
  // slivers of 14) x 160 filters (5 of 32), the image packed per call, so
  // runs of tiles by pixel slivers; 20 filters (2 slivers of 14) over 96
  // pixels (3 of 32) with constant filters packed once, by pixel slivers.
  for (Case c : {Case{1, 256, 160, 7, 7, 1, 1}, Case{1, 600, 20, 8, 12, 1, 1}})
    for (int64_t flags : {8 | 1, 8 | 4 | 1, 8 | 4 | 16})
      check(c, flags, 0.0f, flags & 16 ? 6.0f : 1e30f, 2);
}

TEST_CASE("conv kernel on its input's grid matches the reference",
          "[kernels]") {
  // Stride 1 over rows wide enough that the grid's dropped columns are at
  // most a tenth: 40 filters (an edge of 8 columns) and a last partial
  // sliver of rows, 64 channels (576 steps: two reduction blocks) on two
  // images, a dilated 3x3 with its pads, and a 5x5; 16 and 4 filters (and
  // the 33rd of 33) take two slivers of rows at once.
  for (Case c : {Case{1, 16, 40, 26, 30, 3, 1, 1, 1, 1, 1, 1, 1},
                 Case{2, 64, 32, 24, 24, 3, 1, 1, 1, 1, 1, 1, 1},
                 Case{1, 8, 20, 30, 40, 3, 1, 1, 2, 2, 2, 2, 2},
                 Case{1, 6, 33, 20, 36, 5, 1, 1, 1, 2, 2, 2, 2},
                 Case{1, 16, 16, 26, 30, 3, 1, 1, 1, 1, 1, 1, 1},
                 Case{2, 8, 4, 28, 28, 3, 1, 1, 1, 1, 1, 1, 1}})
    checkEpilogues(c);
  // Rows of 14 and 28 output pixels in slivers of an output row: at stride
  // 1 (40 filters, two images), at stride 2 (a 7x7 window over 3 channels as
  // ResNet's first layer, and a 3x3 into 16 filters: two slivers of a row at
  // once), rows of 27 (the image's last sliver, of 13 pixels, copied) and a
  // dilated 3x3 at stride 2.
  for (Case c : {Case{2, 16, 40, 14, 14, 3, 1, 1, 1, 1, 1, 1, 1},
                 Case{1, 3, 24, 56, 56, 7, 2, 1, 1, 3, 3, 3, 3},
                 Case{1, 8, 16, 56, 56, 3, 2, 1, 1, 1, 1, 1, 1},
                 Case{1, 8, 20, 27, 27, 3, 1, 1, 1, 1, 1, 1, 1},
                 Case{1, 8, 12, 27, 27, 3, 2, 1, 2, 2, 2, 2, 2}})
    checkEpilogues(c);
}

TEST_CASE("conv kernel by Winograd's F(4x4, 3x3) matches the reference",
          "[kernels]") {
  // 3x3 windows at stride 1: outputs of 30 x 30 (rows of 8 tiles, the last
  // half outside, in two quads) on two images; 17 filters (a block of 8
  // with one) over an unpadded 18 x 21 input; 24 filters over 40 x 40
  // (8 vectors: blocks of 2 and 3, split between the threads); 16 x 16
  // (one vector, the filters cut between the threads) and rows of 4 tiles
  // that end inside a quad (outputs of 14 x 13, a partial last tile).
  auto winograd = [](Case c) {
    c.winograd = true;
    return c;
  };
  for (Case c : {winograd(Case{2, 16, 16, 30, 30, 3, 1, 1, 1, 1, 1, 1, 1}),
                 winograd(Case{1, 20, 17, 18, 21, 3, 1}),
                 winograd(Case{1, 24, 24, 40, 40, 3, 1, 1, 1, 1, 1, 1, 1}),
                 winograd(Case{1, 32, 40, 16, 16, 3, 1, 1, 1, 1, 1, 1, 1}),
                 winograd(Case{1, 16, 32, 14, 13, 3, 1, 1, 1, 1, 1, 1, 1})})
    checkEpilogues(c);
}

TEST_CASE("grouped conv kernel with its fused epilogue matches the reference",
          "[kernels]") {
  // Groups of 2 and 32 (4 .. 32 channels each, as ResNeXt's), one filter per
  // channel (depthwise with a multiplier 1, as a grouped GEMM: 3 channels,
  // 6 filters), strides 1 and 2, a dilation, two images, and a group large
  // enough that each GEMM spreads over the pool.
  for (Case c :
       {Case{1, 8, 6, 9, 11, 3, 1, 2}, Case{1, 128, 128, 11, 9, 3, 1, 32},
        Case{2, 64, 96, 10, 10, 3, 2, 32}, Case{1, 1024, 1024, 9, 9, 3, 1, 32},
        Case{1, 3, 6, 12, 13, 3, 1, 3}, Case{1, 6, 4, 13, 11, 3, 2, 2, 2},
        Case{1, 64, 64, 40, 40, 3, 1, 2}})
    checkEpilogues(c);
}

TEST_CASE("grouped conv kernel computes few filters per group directly",
          "[kernels]") {
  // Rows of 12 or more outputs and filters in fours per group take the
  // direct kernel: 4 .. 16 filters per group, strides 1 and 2, a 1x1
  // window, a dilation, two images, and a last block of fewer than four
  // chunks.
  for (Case c :
       {Case{1, 128, 128, 16, 30, 3, 1, 32}, Case{2, 64, 128, 20, 33, 3, 2, 32},
        Case{1, 64, 64, 14, 17, 3, 1, 4}, Case{1, 16, 32, 13, 20, 3, 1, 2, 2},
        Case{1, 32, 64, 12, 14, 1, 1, 8}})
    checkEpilogues(c);
}

TEST_CASE("depthwise kernel with its fused epilogue matches the reference",
          "[kernels]") {
  for (Case c :
       {Case{1, 8, 8, 9, 9, 3, 1, 8}, Case{2, 5, 5, 35, 37, 3, 1, 5},
        Case{1, 4, 4, 39, 41, 3, 2, 4}, Case{1, 3, 3, 12, 12, 5, 2, 3},
        Case{1, 3, 3, 19, 21, 3, 1, 3, 2}, Case{1, 3, 3, 23, 20, 5, 2, 3, 2}})
    checkEpilogues(c);
}

TEST_CASE("depthwise kernel reads its padding implicitly", "[kernels]") {
  // Symmetric pads as MobileNets' 3x3 and 5x5 (7 x 7, 14 x 14 and wide
  // planes; rows taken four at a time and one at a time), asymmetric ones
  // (SAME_UPPER at stride 2), pads wider than the window reaches (rows and
  // columns of the bias alone), dilation, and a plane wider than 64 chunks
  // (the fallback loops). Outputs as large as the input at stride 1 take
  // the flat form: 7 x 7, 30 x 33 and 5 x 1100 planes, a dilation with its
  // pads, pads on one side only, and two images; so do outputs that cover
  // the input at stride 2, from its four phases: 14 x 14 into 7 x 7 with a
  // 5x5 window, 30 x 30 (two images), odd sizes, SAME_UPPER's pads and
  // rows of 40.
  for (Case c : {Case{1, 6, 6, 7, 7, 3, 1, 6, 1, 1, 1, 1, 1},
                 Case{2, 5, 5, 13, 11, 3, 1, 5, 2, 2, 2, 2, 2},
                 Case{1, 3, 3, 9, 10, 3, 1, 3, 1, 0, 2, 2, 0},
                 Case{2, 5, 5, 14, 14, 5, 2, 5, 1, 2, 2, 2, 2},
                 Case{1, 4, 4, 7, 7, 5, 1, 4, 1, 2, 2, 2, 2},
                 Case{1, 3, 3, 37, 45, 3, 2, 3, 1, 0, 0, 1, 1},
                 Case{1, 3, 3, 30, 33, 3, 1, 3, 1, 1, 1, 1, 1},
                 Case{1, 3, 3, 6, 5, 3, 1, 3, 1, 3, 4, 2, 5},
                 Case{1, 3, 3, 17, 18, 3, 2, 3, 2, 2, 3, 1, 0},
                 Case{1, 2, 2, 5, 1100, 3, 1, 2, 1, 1, 1, 1, 1},
                 Case{2, 4, 4, 30, 30, 3, 2, 4, 1, 1, 1, 1, 1},
                 Case{1, 3, 3, 15, 17, 3, 2, 3, 1, 1, 1, 1, 1},
                 Case{1, 3, 3, 14, 14, 3, 2, 3, 1, 0, 0, 1, 1},
                 Case{1, 2, 2, 9, 40, 5, 2, 2, 1, 2, 2, 2, 2}})
    checkEpilogues(c);
}

TEST_CASE("depthwise kernel sweeps 3x3 and 5x5 windows down the plane",
          "[kernels]") {
  // 3x3 with a left pad of 1 at stride 1: rows of 12, 28, 40, 56, 80 and
  // 112 outputs (one to four chunks of 16 at once, then the rest), a right
  // pad of 0 (the last chunk's loads end inside the row), and top and
  // bottom pads of 0 and 2; at stride 2: rows of 12, 14, 28, 56 and 75
  // outputs from even and odd widths, a top pad of 0, and two images. 5x5
  // with a left pad of 2 (one or two chunks at once): rows of 28, 14 and 40
  // at stride 1, of 14, 28 and 37 at stride 2, and uneven pads.
  for (Case c : {Case{1, 3, 3, 12, 12, 3, 1, 3, 1, 1, 1, 1, 1},
                 Case{2, 3, 3, 20, 28, 3, 1, 3, 1, 1, 1, 1, 1},
                 Case{1, 2, 2, 9, 40, 3, 1, 2, 1, 1, 1, 1, 1},
                 Case{1, 2, 2, 7, 56, 3, 1, 2, 1, 1, 1, 1, 1},
                 Case{1, 2, 2, 5, 80, 3, 1, 2, 1, 1, 1, 1, 1},
                 Case{1, 2, 2, 6, 112, 3, 1, 2, 1, 1, 1, 1, 1},
                 Case{1, 3, 3, 10, 33, 3, 1, 3, 1, 1, 1, 1, 0},
                 Case{1, 3, 3, 10, 20, 3, 1, 3, 1, 0, 1, 2, 1},
                 Case{1, 3, 3, 10, 20, 3, 1, 3, 1, 2, 1, 0, 1},
                 Case{1, 3, 3, 24, 24, 3, 2, 3, 1, 0, 1, 1, 1},
                 Case{2, 3, 3, 25, 27, 3, 2, 3, 1, 1, 1, 1, 1},
                 Case{1, 3, 3, 56, 56, 3, 2, 3, 1, 1, 1, 1, 1},
                 Case{1, 2, 2, 12, 112, 3, 2, 2, 1, 1, 1, 1, 1},
                 Case{1, 2, 2, 9, 150, 3, 2, 2, 1, 1, 1, 1, 1},
                 Case{1, 3, 3, 12, 28, 5, 1, 3, 1, 2, 2, 2, 2},
                 Case{2, 2, 2, 14, 14, 5, 1, 2, 1, 2, 2, 2, 2},
                 Case{1, 2, 2, 9, 40, 5, 1, 2, 1, 2, 2, 1, 2},
                 Case{1, 3, 3, 28, 28, 5, 2, 3, 1, 2, 2, 2, 2},
                 Case{1, 2, 2, 20, 56, 5, 2, 2, 1, 2, 2, 2, 2},
                 Case{1, 2, 2, 11, 75, 5, 2, 2, 1, 1, 2, 2, 1}})
    checkEpilogues(c);
}

TEST_CASE("small-plane conv kernel matches the reference", "[kernels]") {
  // Same-size outputs of at most four vectors take the flat form: a batch
  // of 8 x 8 digits into 8 filters (groups of 6 and 2) and their 4 x 4
  // maps into 16 (one group), 35 pixels into 13 filters with a 5x5 window
  // (groups of 8, 4 and 1), 25 into 20 (12 and 8), a 1x1 without pads, a
  // dilated 3x3 and pads on one side only. Stride 2 and a plane of 81
  // pixels take the plain loop.
  for (Case c : {Case{3, 1, 8, 8, 8, 3, 1, 1, 1, 1, 1, 1, 1, true},
                 Case{2, 8, 16, 4, 4, 3, 1, 1, 1, 1, 1, 1, 1, true},
                 Case{1, 3, 13, 5, 7, 5, 1, 1, 1, 2, 2, 2, 2, true},
                 Case{2, 6, 20, 5, 5, 3, 1, 1, 1, 1, 1, 1, 1, true},
                 Case{2, 4, 10, 6, 6, 1, 1, 1, 1, 0, 0, 0, 0, true},
                 Case{1, 5, 7, 6, 7, 3, 1, 1, 2, 2, 2, 2, 2, true},
                 Case{1, 2, 5, 7, 6, 3, 1, 1, 1, 2, 0, 0, 2, true},
                 Case{1, 3, 5, 8, 8, 3, 2, 1, 1, 1, 1, 1, 1, true},
                 Case{1, 2, 6, 9, 9, 3, 1, 1, 1, 1, 1, 1, 1, true}})
    checkEpilogues(c);
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
              << " stridedC " << c.stridedC << " constB " << c.constB
              << " bias " << c.bias << " biasColumns " << c.biasColumns
              << " res " << c.res << " clamp " << c.clamp << " run " << run);
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
               {1, 1},
               {7, 3},
               {17, 37},
               {64, 16},
               {65, 130},
               {200, 9},
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
void checkPacked(int64_t m, int64_t n, int64_t k, bool transposed, bool relu) {
  std::mt19937 rng(static_cast<unsigned>(m * 7919 + n * 31 + k));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (std::vector<float> *v : {&a, &b, &c})
    for (float &x : *v)
      x = dist(rng);
  int64_t bRow = transposed ? 1 : n, bCol = transposed ? k : 1;
  int64_t flags = relu ? 1 : 0;
  std::vector<float> expected =
      matmulReference(a, b, bRow, bCol, c, m, n, k, relu);
  INFO("m " << m << " n " << n << " k " << k << " transposed " << transposed
            << " relu " << relu);
  // The runtime packs B itself (a constant operand: packed whole).
  std::vector<float> unpacked = c;
  onnxc_kernel_matmul_f32(a.data(), a.data(), 0, m, k, k, 1, b.data(), b.data(),
                          0, k, n, bRow, bCol, unpacked.data(), unpacked.data(),
                          0, m, n, n, 1, flags | 4);
  CHECK(worstError(unpacked, expected) < 1e-3);

  OnnxcGemmIsa isa = hostIsa();
  OnnxcGemmTile host = onnxcGemmPrefersWide(isa, m, n)
                           ? onnxcGemmWideTile()
                           : onnxcGemmDefaultTile(isa);
  struct Layout {
    int nr;
    int64_t kcBlock;
  };
  std::vector<Layout> layouts = {{host.nr, onnxcGemmBlockK(host.kc, k)},
                                 {8, onnxcGemmBlockK(256, k)},
                                 {16, 40},
                                 {32, onnxcGemmBlockK(512, k)},
                                 {48, onnxcGemmBlockK(256, k)},
                                 {48, 24},
                                 {host.nr, onnxcGemmBlockK(host.kc, k)}};
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
                                   packed, 0, size, 1, out.data(), out.data(),
                                   0, m, n, n, 1, n, layout.nr, layout.kcBlock,
                                   flags);
    // In the host's layout, bit for bit the runtime's result wherever both
    // sum each output in one order: the runtime hands 1 to 4 rows to its
    // GEMV, which sums the whole reduction in one pass, while a B packed in
    // several reduction blocks is summed block by block (AVX2's blocks of
    // 256 split k = 257; AVX-512's do not).
    bool sameOrder = m > 4 || layout.kcBlock >= k;
    if (l == 0 && sameOrder)
      CHECK(std::memcmp(out.data(), unpacked.data(),
                        out.size() * sizeof(float)) == 0);
    CHECK(worstError(out, expected) < 1e-3);
  }
}

void checkPackedShapes() {
  // Whole tiles of 8 x 48 (AVX-512 picks them; also with a last partial
  // sliver of 16 columns), edge rows and columns, a single row, reductions
  // of one to three blocks, a reduction shorter than 8, and enough work to
  // split over threads.
  struct Shape {
    int64_t m, n, k;
  };
  for (Shape s : {Shape{128, 96, 600}, Shape{37, 45, 29}, Shape{1, 100, 257},
                  Shape{16, 48, 5}, Shape{16, 400, 40}, Shape{200, 130, 1030},
                  Shape{3, 1, 70}})
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
