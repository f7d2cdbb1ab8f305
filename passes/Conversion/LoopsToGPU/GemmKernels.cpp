//===- GemmKernels.cpp - The onnx-gpu-gemm-kernels pass -------------------===//
//
// Replaces f32 matmuls, batch matmuls and NCHW (grouped) convolutions on
// buffers by tiled GPU kernels (gpu.launch): 64x64 output tiles per block of 4
// warps, operand tiles of depth 32 staged in shared memory, each warp computing
// a 32x32 quarter as 2x4 tiles of 16x8 accumulated in f32. With a tensor-core
// precision the 16x8 tiles are mma.sync (nvgpu.mma.sync for tf32 and f16;
// the NVVM intrinsic for bf16, which MLIR 19's nvgpu and nvvm ops reject);
// with fp32 each thread computes the same 32 outputs with FMAs. The operands
// of the next step are loaded into registers while a step computes.
// Convolutions are implicit GEMMs: no im2col buffer, the staging loads
// gather the input window directly. An output of few tiles splits its
// reduction over more blocks, which add into C atomically.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

namespace onnxc {
#define GEN_PASS_DEF_GPUGEMMKERNELSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {

/// What the multiplications run on: f32 FMAs, or tensor cores with the
/// inputs rounded to tf32, f16 or bf16 (f32 accumulation in every case).
enum class Precision { FP32, TF32, FP16, BF16 };

// The block tile: kBlockM x kBlockN outputs, the reduction staged kBlockK at
// a time; 4 warps in a 2x2 grid, each computing kWarpM x kWarpN outputs as
// kTilesM x kTilesN mma tiles of kMmaM x kMmaN.
constexpr int64_t kBlockM = 64, kBlockN = 64, kBlockK = 32;
constexpr int64_t kWarpSize = 32, kWarpsN = 2, kThreads = 128;
constexpr int64_t kWarpM = 32, kWarpN = 32, kMmaM = 16, kMmaN = 8;
constexpr int64_t kTilesM = kWarpM / kMmaM, kTilesN = kWarpN / kMmaN;
/// Extra columns of the shared tiles, against bank conflicts.
constexpr int64_t kPad = 4;
/// Split-K: when the output has fewer tiles than kTargetBlocks (about two
/// blocks per multiprocessor of an H100's 132), the reduction is split
/// into ranges of at least kMinSplitSteps steps of kBlockK, each a block
/// of its own, whose sums are added into C atomically.
constexpr int64_t kTargetBlocks = 256, kMinSplitSteps = 4;

/// A GEMM over views of the op's buffers:
///   C[b, m, n] += sum_k A[b, m, k] * B[b, k, n]   for b < batch.
/// The callbacks build, inside the kernel, the load of an element of A or B
/// and the position of an element of C.
struct GemmView {
  Value batch, m, n, k;
  std::function<Value(OpBuilder &, Location, Value b, Value row, Value col)>
      loadA, loadB;
  std::function<std::pair<Value, SmallVector<Value>>(
      OpBuilder &, Location, Value b, Value row, Value col)>
      elementC;
};

/// Index arithmetic with constants folded in where the builder sees them.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return b.create<arith::ConstantIndexOp>(loc, v); }
  Value add(Value x, Value y) { return b.create<arith::AddIOp>(loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, c(y)) : x; }
  Value mul(Value x, Value y) { return b.create<arith::MulIOp>(loc, x, y); }
  Value mul(Value x, int64_t y) { return mul(x, c(y)); }
  Value div(Value x, Value y) { return b.create<arith::DivUIOp>(loc, x, y); }
  Value div(Value x, int64_t y) { return div(x, c(y)); }
  Value rem(Value x, Value y) { return b.create<arith::RemUIOp>(loc, x, y); }
  Value rem(Value x, int64_t y) { return rem(x, c(y)); }
  Value min(Value x, Value y) { return b.create<arith::MinUIOp>(loc, x, y); }
  Value max(Value x, Value y) { return b.create<arith::MaxUIOp>(loc, x, y); }
  Value lt(Value x, Value y) {
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, x, y);
  }
  Value dim(Value memref, int64_t d) {
    return b.create<memref::DimOp>(loc, memref, d);
  }
};

/// The element type of the shared tiles and the mma operands.
static Type tileElementType(OpBuilder &b, Precision precision) {
  switch (precision) {
  case Precision::FP16:
    return b.getF16Type();
  case Precision::BF16:
    return b.getBF16Type();
  default:
    return b.getF32Type();
  }
}

/// `value` (f32) as the tile element of `precision`: f16 and bf16 round to
/// nearest even (cvt.rn); tf32 rounds to nearest, ties away (cvt.rna, what
/// the tensor cores expect; they would truncate an f32 otherwise).
static Value convertForTile(OpBuilder &b, Location loc, Value value,
                            Precision precision) {
  switch (precision) {
  case Precision::FP32:
    return value;
  case Precision::TF32: {
    Value bits = b.create<LLVM::CallIntrinsicOp>(loc, b.getI32Type(),
                                                 "llvm.nvvm.f2tf32.rna",
                                                 ValueRange{value})
                     .getResult(0);
    return b.create<arith::BitcastOp>(loc, b.getF32Type(), bits);
  }
  default:
    return b.create<arith::TruncFOp>(loc, tileElementType(b, precision), value);
  }
}

/// This thread's share of the rows x cols tile of an operand at (rowBase,
/// colBase), loaded into registers as the tile's element type, zeros outside
/// (rowLimit, colLimit). The kThreads threads take consecutive elements, so
/// that a row's columns are read together; each thread's column is the same
/// in every row it loads. Indices outside are clamped to the last row and
/// column, so that every load is in bounds and none waits on a branch: the
/// loads are all in flight at once.
static SmallVector<Value>
loadTile(OpBuilder &b, Location loc, int64_t rows, int64_t cols, Value tid,
         Value batch, Value rowBase, Value rowLimit, Value colBase,
         Value colLimit,
         const std::function<Value(OpBuilder &, Location, Value, Value, Value)>
             &load,
         Precision precision) {
  IndexMath im{b, loc};
  static_assert((kBlockM * kBlockK) % kThreads == 0 &&
                    (kBlockK * kBlockN) % kThreads == 0 &&
                    kThreads % kBlockK == 0 && kThreads % kBlockN == 0,
                "tiles split evenly over the threads, whole rows at a time");
  Value col = im.add(colBase, im.rem(tid, cols));
  Value colInside = im.lt(col, colLimit);
  Value clampedCol = im.min(col, im.add(colLimit, -1));
  Value firstRow = im.add(rowBase, im.div(tid, cols));
  Value lastRow = im.add(rowLimit, -1);
  Value zero = b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(0.0));
  SmallVector<Value> values;
  for (int64_t i = 0; i < rows * cols / kThreads; ++i) {
    Value row = im.add(firstRow, i * (kThreads / cols));
    Value inside =
        b.create<arith::AndIOp>(loc, im.lt(row, rowLimit), colInside);
    Value value = load(b, loc, batch, im.min(row, lastRow), clampedCol);
    value = b.create<arith::SelectOp>(loc, inside, value, zero);
    values.push_back(convertForTile(b, loc, value, precision));
  }
  return values;
}

/// Stores what loadTile loaded into the shared `tile`.
static void storeTile(OpBuilder &b, Location loc, Value tile, int64_t cols,
                      Value tid, ValueRange values) {
  IndexMath im{b, loc};
  Value col = im.rem(tid, cols), firstRow = im.div(tid, cols);
  for (auto [i, value] : llvm::enumerate(values))
    b.create<memref::StoreOp>(
        loc, value, tile,
        ValueRange{im.add(firstRow, int64_t(i) * (kThreads / cols)), col});
}

/// The warp-level position of the calling thread: PTX's groupID (lane / 4)
/// and threadID_in_group (lane % 4), and the warp's offset in the block tile.
struct Lane {
  Value group, inGroup, warpRow, warpCol;
};

/// One mma.sync step over the kMmaK-deep slice at column `kk` of the shared
/// tiles: returns the kTilesM * kTilesN updated accumulators.
///
/// The fragments follow the PTX ISA ("Matrix Fragments for mma.m16n8k16 with
/// floating point type" and "for mma.m16n8k8" with .tf32), g = groupID,
/// t = threadID_in_group, E elements per 32-bit register (2 for f16 and
/// bf16, 1 for tf32), K = 16 (f16, bf16) or 8 (tf32):
///   A (16 x K, row major), 4 registers: register r element j holds
///     A[g + 8 * (r % 2)][E * t + j + K/2 * (r / 2)]
///   B (K x 8, "col": k runs within a register), 2 registers:
///     register r element j holds B[E * t + j + K/2 * r][g]
///   C, D (16 x 8, f32), 4 values c0..c3 (vector<2x2xf32> [i/2][i%2]):
///     c_i = C[g + 8 * (i / 2)][2 * t + i % 2]
/// (the element of a register with the lower index in the low bits). These
/// are also what MLIR's nvgpu::getLaneIdAndValueIdToOperandCoord computes.
static SmallVector<Value> mmaStep(OpBuilder &b, Location loc, Value aTile,
                                  Value bTile, Value kk, const Lane &lane,
                                  ValueRange accs, Precision precision) {
  IndexMath im{b, loc};
  Type elem = tileElementType(b, precision);
  int64_t perReg = precision == Precision::TF32 ? 1 : 2;
  int64_t mmaK = precision == Precision::TF32 ? 8 : 16;
  auto aType = VectorType::get({4, perReg}, elem);
  auto bType = VectorType::get({2, perReg}, elem);
  Value aZero = b.create<arith::ConstantOp>(
      loc, aType, DenseElementsAttr::get(aType, b.getZeroAttr(elem)));
  Value bZero = b.create<arith::ConstantOp>(
      loc, bType, DenseElementsAttr::get(bType, b.getZeroAttr(elem)));
  Value tk = im.mul(lane.inGroup, perReg);

  SmallVector<Value> aFrags, bFrags;
  for (int64_t i = 0; i < kTilesM; ++i) {
    Value rowBase = im.add(im.add(lane.warpRow, i * kMmaM), lane.group);
    Value frag = aZero;
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t j = 0; j < perReg; ++j) {
        Value row = im.add(rowBase, 8 * (r % 2));
        Value col = im.add(im.add(kk, tk), j + mmaK / 2 * (r / 2));
        Value v = b.create<memref::LoadOp>(loc, aTile, ValueRange{row, col});
        frag =
            b.create<vector::InsertOp>(loc, v, frag, ArrayRef<int64_t>{r, j});
      }
    aFrags.push_back(frag);
  }
  for (int64_t jt = 0; jt < kTilesN; ++jt) {
    Value col = im.add(im.add(lane.warpCol, jt * kMmaN), lane.group);
    Value frag = bZero;
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t j = 0; j < perReg; ++j) {
        Value row = im.add(im.add(kk, tk), j + mmaK / 2 * r);
        Value v = b.create<memref::LoadOp>(loc, bTile, ValueRange{row, col});
        frag =
            b.create<vector::InsertOp>(loc, v, frag, ArrayRef<int64_t>{r, j});
      }
    bFrags.push_back(frag);
  }

  SmallVector<Value> next;
  for (int64_t i = 0; i < kTilesM; ++i)
    for (int64_t jt = 0; jt < kTilesN; ++jt) {
      Value acc = accs[i * kTilesN + jt];
      if (precision != Precision::BF16) {
        next.push_back(
            b.create<nvgpu::MmaSyncOp>(loc, aFrags[i], bFrags[jt], acc,
                                       ArrayRef<int64_t>{kMmaM, kMmaN, mmaK},
                                       precision == Precision::TF32));
        continue;
      }
      // bf16: the intrinsic on registers of two bf16 each.
      SmallVector<Value> args;
      auto packRegisters = [&](Value frag, int64_t regs) {
        for (int64_t r = 0; r < regs; ++r) {
          Value pair =
              b.create<vector::ExtractOp>(loc, frag, ArrayRef<int64_t>{r});
          args.push_back(b.create<LLVM::BitcastOp>(loc, b.getI32Type(), pair));
        }
      };
      packRegisters(aFrags[i], 4);
      packRegisters(bFrags[jt], 2);
      for (int64_t v = 0; v < 4; ++v)
        args.push_back(b.create<vector::ExtractOp>(
            loc, acc, ArrayRef<int64_t>{v / 2, v % 2}));
      Type f32 = b.getF32Type();
      auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                         {f32, f32, f32, f32});
      Value d =
          b.create<LLVM::CallIntrinsicOp>(
               loc, resultType, "llvm.nvvm.mma.m16n8k16.row.col.bf16", args)
              .getResult(0);
      Value updated = acc;
      for (int64_t v = 0; v < 4; ++v) {
        Value x = b.create<LLVM::ExtractValueOp>(loc, d, v);
        updated = b.create<vector::InsertOp>(loc, x, updated,
                                             ArrayRef<int64_t>{v / 2, v % 2});
      }
      next.push_back(updated);
    }
  return next;
}

/// One reduction step of the fp32 kernel at column `kk` of the shared
/// tiles: each thread updates the 32 outputs that an mma would leave in its
/// accumulators (the C layout of mmaStep), with one FMA each.
static SmallVector<Value> fmaStep(OpBuilder &b, Location loc, Value aTile,
                                  Value bTile, Value kk, const Lane &lane,
                                  ValueRange accs) {
  IndexMath im{b, loc};
  // A[row][kk] for the 2 rows of each of the kTilesM tiles.
  SmallVector<Value> aValues;
  for (int64_t i = 0; i < kTilesM; ++i)
    for (int64_t r = 0; r < 2; ++r) {
      Value row = im.add(im.add(lane.warpRow, i * kMmaM + 8 * r), lane.group);
      aValues.push_back(
          b.create<memref::LoadOp>(loc, aTile, ValueRange{row, kk}));
    }
  // B[kk][col] for the 2 columns of each of the kTilesN tiles.
  SmallVector<Value> bValues;
  Value tc = im.mul(lane.inGroup, 2);
  for (int64_t jt = 0; jt < kTilesN; ++jt)
    for (int64_t c = 0; c < 2; ++c) {
      Value col = im.add(im.add(lane.warpCol, jt * kMmaN + c), tc);
      bValues.push_back(
          b.create<memref::LoadOp>(loc, bTile, ValueRange{kk, col}));
    }
  SmallVector<Value> next;
  for (int64_t i = 0; i < kTilesM; ++i)
    for (int64_t jt = 0; jt < kTilesN; ++jt) {
      Value acc = accs[i * kTilesN + jt];
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t c = 0; c < 2; ++c) {
          Value old =
              b.create<vector::ExtractOp>(loc, acc, ArrayRef<int64_t>{r, c});
          Value sum = b.create<math::FmaOp>(loc, aValues[i * 2 + r],
                                            bValues[jt * 2 + c], old);
          acc = b.create<vector::InsertOp>(loc, sum, acc,
                                           ArrayRef<int64_t>{r, c});
        }
      next.push_back(acc);
    }
  return next;
}

/// Builds the kernel of `view`: a gpu.launch at the builder's position.
static void buildGemmKernel(OpBuilder &b, Location loc, const GemmView &view,
                            Precision precision) {
  MLIRContext *ctx = b.getContext();
  IndexMath host{b, loc};
  Type elem = tileElementType(b, precision);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto aTileType = MemRefType::get({kBlockM, kBlockK + kPad}, elem,
                                   MemRefLayoutAttrInterface{}, workgroup);
  auto bTileType = MemRefType::get({kBlockK, kBlockN + kPad}, elem,
                                   MemRefLayoutAttrInterface{}, workgroup);
  Value gridX = host.div(host.add(view.n, kBlockN - 1), kBlockN);
  Value gridY = host.div(host.add(view.m, kBlockM - 1), kBlockM);
  Value one = host.c(1);
  // Split-K (see kTargetBlocks): `splits` ranges of `chunk` (a multiple of
  // kBlockK) along k, none of them empty.
  Value tiles = host.max(host.mul(host.mul(gridX, gridY), view.batch), one);
  Value steps = host.max(host.div(host.add(view.k, kBlockK - 1), kBlockK), one);
  Value wanted =
      host.div(host.add(host.c(kTargetBlocks), host.add(tiles, -1)), tiles);
  Value splits =
      host.min(wanted, host.max(host.div(steps, kMinSplitSteps), one));
  Value stepsPerSplit = host.div(host.add(steps, host.add(splits, -1)), splits);
  splits =
      host.div(host.add(steps, host.add(stepsPerSplit, -1)), stepsPerSplit);
  Value chunk = host.mul(stepsPerSplit, kBlockK);
  auto launch = b.create<gpu::LaunchOp>(
      loc, gridX, gridY, host.mul(view.batch, splits), host.c(kThreads), one,
      one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      ValueRange{}, TypeRange{aTileType, bTileType});

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  IndexMath im{b, loc};
  Value aTile = launch.getWorkgroupAttributions()[0];
  Value bTile = launch.getWorkgroupAttributions()[1];
  Value tid = launch.getThreadIds().x;
  Value batch = im.div(launch.getBlockIds().z, splits);
  Value kBegin = im.mul(im.rem(launch.getBlockIds().z, splits), chunk);
  Value kEnd = im.min(view.k, im.add(kBegin, chunk));
  // Nothing to add where the reduction is empty (K = 0): the loads below
  // would have no column to clamp to.
  auto nonEmpty = b.create<scf::IfOp>(loc, im.lt(kBegin, kEnd),
                                      /*withElseRegion=*/false);
  b.setInsertionPointToStart(&nonEmpty.getThenRegion().front());
  Value rowBase = im.mul(launch.getBlockIds().y, kBlockM);
  Value colBase = im.mul(launch.getBlockIds().x, kBlockN);
  Value warp = im.div(tid, kWarpSize), laneId = im.rem(tid, kWarpSize);
  Lane lane{im.div(laneId, 4), im.rem(laneId, 4),
            im.mul(im.div(warp, kWarpsN), kWarpM),
            im.mul(im.rem(warp, kWarpsN), kWarpN)};

  auto accType = VectorType::get({2, 2}, b.getF32Type());
  Value zero = b.create<arith::ConstantOp>(
      loc, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));
  SmallVector<Value> init(kTilesM * kTilesN, zero);
  // Software pipelining: the operands of step k0 + kBlockK are loaded into
  // registers while step k0 computes from shared memory (past the end the
  // clamped loads read zeros), so that their latency hides behind the
  // multiplications.
  auto loadTiles = [&](OpBuilder &b, Location loc, Value k0) {
    SmallVector<Value> values =
        loadTile(b, loc, kBlockM, kBlockK, tid, batch, rowBase, view.m, k0,
                 view.k, view.loadA, precision);
    values.append(loadTile(b, loc, kBlockK, kBlockN, tid, batch, k0, view.k,
                           colBase, view.n, view.loadB, precision));
    return values;
  };
  constexpr int64_t kPerThreadA = kBlockM * kBlockK / kThreads;
  init.append(loadTiles(b, loc, kBegin));
  auto kLoop = b.create<scf::ForOp>(
      loc, kBegin, kEnd, im.c(kBlockK), init,
      [&](OpBuilder &b, Location loc, Value k0, ValueRange carried) {
        IndexMath im{b, loc};
        ValueRange accs = carried.take_front(kTilesM * kTilesN);
        ValueRange staged = carried.drop_front(kTilesM * kTilesN);
        // The previous step's reads of the tiles are done before they are
        // overwritten, and the new tiles are complete before they are read.
        b.create<gpu::BarrierOp>(loc);
        storeTile(b, loc, aTile, kBlockK, tid, staged.take_front(kPerThreadA));
        storeTile(b, loc, bTile, kBlockN, tid, staged.drop_front(kPerThreadA));
        b.create<gpu::BarrierOp>(loc);
        SmallVector<Value> prefetched = loadTiles(b, loc, im.add(k0, kBlockK));
        SmallVector<Value> next(accs.begin(), accs.end());
        if (precision == Precision::FP32) {
          for (int64_t kk = 0; kk < kBlockK; ++kk)
            next = fmaStep(b, loc, aTile, bTile, im.c(kk), lane, next);
        } else {
          int64_t mmaK = precision == Precision::TF32 ? 8 : 16;
          for (int64_t kk = 0; kk < kBlockK; kk += mmaK)
            next =
                mmaStep(b, loc, aTile, bTile, im.c(kk), lane, next, precision);
        }
        next.append(prefetched);
        b.create<scf::YieldOp>(loc, next);
      });

  // C += the accumulators, at the C layout of mmaStep; atomically, since
  // the blocks of a split K add into the same outputs (in no fixed order:
  // the sums may differ in their last bits from run to run).
  Value tc = im.mul(lane.inGroup, 2);
  for (int64_t i = 0; i < kTilesM; ++i)
    for (int64_t jt = 0; jt < kTilesN; ++jt)
      for (int64_t v = 0; v < 4; ++v) {
        Value row = im.add(im.add(rowBase, lane.warpRow),
                           im.add(lane.group, i * kMmaM + 8 * (v / 2)));
        Value col = im.add(im.add(colBase, lane.warpCol),
                           im.add(tc, jt * kMmaN + v % 2));
        Value inside = b.create<arith::AndIOp>(loc, im.lt(row, view.m),
                                               im.lt(col, view.n));
        Value acc = kLoop.getResult(i * kTilesN + jt);
        b.create<scf::IfOp>(loc, inside, [&](OpBuilder &b, Location loc) {
          auto [memref, indices] = view.elementC(b, loc, batch, row, col);
          Value part = b.create<vector::ExtractOp>(
              loc, acc, ArrayRef<int64_t>{v / 2, v % 2});
          b.create<memref::AtomicRMWOp>(loc, arith::AtomicRMWKind::addf, part,
                                        memref, indices);
          b.create<scf::YieldOp>(loc);
        });
      }
  b.setInsertionPointAfter(nonEmpty);
  b.create<gpu::TerminatorOp>(loc);
}

/// The GEMM of a (batch) matmul; `transposedB` when B is stored [n, k].
static GemmView matmulView(OpBuilder &b, Location loc, linalg::LinalgOp op,
                           bool batched, bool transposedB) {
  IndexMath im{b, loc};
  Value a = op.getDpsInputOperand(0)->get();
  Value bm = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  int64_t first = batched ? 1 : 0;
  GemmView view;
  view.batch = batched ? im.dim(c, 0) : im.c(1);
  view.m = im.dim(c, first);
  view.n = im.dim(c, first + 1);
  view.k = im.dim(a, first + 1);
  auto indices = [batched](Value batch, Value i, Value j) {
    SmallVector<Value> idx;
    if (batched)
      idx.push_back(batch);
    idx.append({i, j});
    return idx;
  };
  view.loadA = [=](OpBuilder &b, Location loc, Value batch, Value m, Value k) {
    return b.create<memref::LoadOp>(loc, a, indices(batch, m, k)).getResult();
  };
  view.loadB = [=](OpBuilder &b, Location loc, Value batch, Value k, Value n) {
    return b
        .create<memref::LoadOp>(
            loc, bm, transposedB ? indices(batch, n, k) : indices(batch, k, n))
        .getResult();
  };
  view.elementC = [=](OpBuilder &, Location, Value batch, Value m, Value n) {
    return std::make_pair(c, indices(batch, m, n));
  };
  return view;
}

/// The implicit GEMM of a convolution: per image (and group), A = the
/// filter as [F, C*KH*KW], B = the input windows as [C*KH*KW, OH*OW], C =
/// the output as [F, OH*OW]. `grouped`: linalg.conv_2d_ngchw_gfchw (input
/// [N, G, C, H, W], filter [G, F, C, KH, KW], output [N, G, F, OH, OW]), the
/// GEMM's batch b being image b / G, group b % G; else conv_2d_nchw_fchw.
static GemmView convView(OpBuilder &b, Location loc, linalg::LinalgOp conv,
                         DenseIntElementsAttr stridesAttr,
                         DenseIntElementsAttr dilationsAttr, bool grouped) {
  IndexMath im{b, loc};
  Value input = conv.getDpsInputOperand(0)->get();
  Value filter = conv.getDpsInputOperand(1)->get();
  Value output = conv.getDpsInitOperand(0)->get();
  auto strides = llvm::to_vector(stridesAttr.getValues<int64_t>());
  auto dilations = llvm::to_vector(dilationsAttr.getValues<int64_t>());
  // Dims after the group dim of each operand (if any).
  int64_t g = grouped ? 1 : 0;
  Value groups = grouped ? im.dim(output, 1) : im.c(1);
  Value kh = im.dim(filter, g + 2), kw = im.dim(filter, g + 3);
  Value window = im.mul(kh, kw);
  Value ow = im.dim(output, g + 3);
  GemmView view;
  view.batch = im.mul(im.dim(output, 0), groups);
  view.m = im.dim(output, g + 1);
  view.n = im.mul(im.dim(output, g + 2), ow);
  view.k = im.mul(im.dim(filter, g + 1), window);
  // The leading indices of the operands for GEMM batch `batch`.
  auto leading = [=](IndexMath &im, Value batch, bool withImage) {
    SmallVector<Value> idx;
    if (!grouped)
      return SmallVector<Value>{batch};
    if (withImage)
      idx.push_back(im.div(batch, groups));
    idx.push_back(im.rem(batch, groups));
    return idx;
  };
  view.loadA = [=](OpBuilder &b, Location loc, Value batch, Value f, Value k) {
    IndexMath im{b, loc};
    Value c = im.div(k, window), at = im.rem(k, window);
    Value y = im.div(at, kw), x = im.rem(at, kw);
    SmallVector<Value> idx =
        grouped ? leading(im, batch, false) : SmallVector<Value>{};
    idx.append({f, c, y, x});
    return b.create<memref::LoadOp>(loc, filter, idx).getResult();
  };
  view.loadB = [=](OpBuilder &b, Location loc, Value batch, Value k, Value n) {
    IndexMath im{b, loc};
    Value c = im.div(k, window), at = im.rem(k, window);
    Value y = im.div(at, kw), x = im.rem(at, kw);
    Value oy = im.div(n, ow), ox = im.rem(n, ow);
    Value iy = im.add(im.mul(oy, strides[0]), im.mul(y, dilations[0]));
    Value ix = im.add(im.mul(ox, strides[1]), im.mul(x, dilations[1]));
    SmallVector<Value> idx = leading(im, batch, true);
    idx.append({c, iy, ix});
    return b.create<memref::LoadOp>(loc, input, idx).getResult();
  };
  view.elementC = [=](OpBuilder &b, Location loc, Value batch, Value f,
                      Value n) {
    IndexMath im{b, loc};
    SmallVector<Value> idx = leading(im, batch, true);
    idx.append({f, im.div(n, ow), im.rem(n, ow)});
    return std::make_pair(output, idx);
  };
  return view;
}

struct GPUGemmKernelsPass
    : public onnxc::impl::GPUGemmKernelsPassBase<GPUGemmKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<Precision> chosen =
        llvm::StringSwitch<std::optional<Precision>>(precision)
            .Case("fp32", Precision::FP32)
            .Case("tf32", Precision::TF32)
            .Case("fp16", Precision::FP16)
            .Case("bf16", Precision::BF16)
            .Default(std::nullopt);
    if (!chosen) {
      getOperation().emitError("unknown precision '")
          << precision << "' (expected fp32, tf32, fp16 or bf16)";
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::MatmulTransposeBOp,
              linalg::BatchMatmulOp, linalg::BatchMatmulTransposeBOp,
              linalg::Conv2DNchwFchwOp, linalg::Conv2DNgchwGfchwOp>(
              op.getOperation()) &&
          onnxc::isF32OnBuffers(op) &&
          !op->getParentOfType<scf::ParallelOp>() &&
          !op->getParentOfType<gpu::LaunchOp>())
        ops.push_back(op);
    });
    OpBuilder b(&getContext());
    for (linalg::LinalgOp op : ops) {
      b.setInsertionPoint(op);
      Location loc = op.getLoc();
      GemmView view =
          llvm::TypeSwitch<Operation *, GemmView>(op.getOperation())
              .Case([&](linalg::MatmulOp) {
                return matmulView(b, loc, op, false, false);
              })
              .Case([&](linalg::MatmulTransposeBOp) {
                return matmulView(b, loc, op, false, true);
              })
              .Case([&](linalg::BatchMatmulOp) {
                return matmulView(b, loc, op, true, false);
              })
              .Case([&](linalg::BatchMatmulTransposeBOp) {
                return matmulView(b, loc, op, true, true);
              })
              .Case([&](linalg::Conv2DNchwFchwOp conv) {
                return convView(b, loc, op, conv.getStrides(),
                                conv.getDilations(), /*grouped=*/false);
              })
              .Case([&](linalg::Conv2DNgchwGfchwOp conv) {
                return convView(b, loc, op, conv.getStrides(),
                                conv.getDilations(), /*grouped=*/true);
              });
      buildGemmKernel(b, loc, view, *chosen);
      op->erase();
    }
  }
};
} // namespace
