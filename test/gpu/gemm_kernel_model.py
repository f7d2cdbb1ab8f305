#!/usr/bin/env python3
"""gemm_kernel_model.py - the index math of onnx-gpu-gemm-kernels, executed in numpy.

A model, not a test of the compiler: kernel() replays, thread by thread, the
split of the reduction, the tiles, staging, fragment gathering and epilogue that
passes/Conversion/LoopsToGPU/GemmKernels.cpp generates (the same formulas; the
lit test test/Conversion/LoopsToGPU/onnx-gpu-gemm-kernels.mlir ties the
generated IR to them), and mma_ptx() executes each warp's mma.sync from the
PTX ISA's own statement of the fragment layouts ("Matrix Fragments for
mma.m16n8k16 with floating point type", "for mma.m16n8k8" with .tf32). The
results must equal numpy's matmuls and direct (grouped) convolutions (float64, so the
rounding to f16/tf32 is not modelled). Run it after changing the tiles or the
fragment math:

  /usr/bin/python3 test/gpu/gemm_kernel_model.py
"""
import sys

import numpy as np

BM, BN, BK, THREADS = 64, 64, 32, 128
TARGET_BLOCKS, MIN_SPLIT_STEPS = 256, 4


def split_k(M, N, K, batch):
    """(splits, chunk): the split of the reduction that GemmKernels.cpp
    computes on the host."""
    tiles = max((N + BN - 1) // BN * ((M + BM - 1) // BM) * batch, 1)
    steps = max((K + BK - 1) // BK, 1)
    splits = min((TARGET_BLOCKS + tiles - 1) // tiles, max(steps // MIN_SPLIT_STEPS, 1))
    per = (steps + splits - 1) // splits
    return (steps + per - 1) // per, per * BK

def mma_ptx(a_regs, b_regs, c_regs, prec):
    """Executes one warp-wide mma.sync from the 32 lanes' registers, as the PTX
    ISA defines the fragments (independent statement of the layouts)."""
    K = 8 if prec == "tf32" else 16
    A = np.zeros((16, K)); B = np.zeros((K, 8)); C = np.zeros((16, 8))
    for lane in range(32):
        g, t = lane >> 2, lane % 4
        if prec == "tf32":
            for i in range(4):
                row = g + 8 if i in (1, 3) else g
                col = t + 4 if i >= 2 else t
                A[row, col] = a_regs[lane][i][0]
            for i in range(2):
                B[t + 4 * i, g] = b_regs[lane][i][0]
        else:
            for i in range(8):
                row = g if (i < 2 or 4 <= i < 6) else g + 8
                col = t * 2 + (i & 1) + (8 if i >= 4 else 0)
                A[row, col] = a_regs[lane][i // 2][i % 2]
            for i in range(4):
                B[t * 2 + (i & 1) + (8 if i >= 2 else 0), g] = b_regs[lane][i // 2][i % 2]
        for i in range(4):
            C[g + (8 if i >= 2 else 0), t * 2 + (i & 1)] = c_regs[lane][i // 2][i % 2]
    D = A @ B + C
    out = []
    for lane in range(32):
        g, t = lane >> 2, lane % 4
        out.append([[D[g + 8 * r, 2 * t + c] for c in range(2)] for r in range(2)])
    return out

def load_tile(load, rows, cols, tid, bz, rowBase, rowLimit, colBase, colLimit):
    """loadTile: thread tid's share of a rows x cols operand tile, its column
    fixed, its rows THREADS // cols apart, indices clamped into the operand and
    the values outside replaced by zeros."""
    col = colBase + tid % cols
    values = []
    for i in range(rows * cols // THREADS):
        row = rowBase + tid // cols + i * (THREADS // cols)
        v = load(bz, min(row, rowLimit - 1), min(col, colLimit - 1))
        values.append(v if row < rowLimit and col < colLimit else 0)
    return values


def kernel(view, M, N, K, batch, prec):
    """The kernel as GemmKernels.cpp builds it, thread by thread."""
    perReg = 1 if prec == "tf32" else 2
    mmaK = 8 if prec == "tf32" else 16
    splits, chunk = split_k(M, N, K, batch)
    for z in range(batch * splits):
        bz, kBegin = z // splits, (z % splits) * chunk
        for by in range((M + BM - 1) // BM):
            for bx in range((N + BN - 1) // BN):
                rowBase, colBase = by * BM, bx * BN
                accs = {tid: [np.zeros((2, 2)) for _ in range(8)] for tid in range(THREADS)}
                kEnd = min(K, kBegin + chunk)
                if kBegin >= kEnd:
                    continue

                def load_tiles(k0):
                    """Each thread's registers for step k0 (loadTile): clamped loads, zeros outside."""
                    return {tid: (load_tile(view.loadA, BM, BK, tid, bz, rowBase, M, k0, K)
                                  + load_tile(view.loadB, BK, BN, tid, bz, k0, K, colBase, N))
                            for tid in range(THREADS)}
                staged = load_tiles(kBegin)
                for k0 in range(kBegin, kEnd, BK):
                    At = np.zeros((BM, BK)); Bt = np.zeros((BK, BN))
                    for tid in range(THREADS):
                        na = BM * BK // THREADS
                        for i, v in enumerate(staged[tid][:na]):
                            At[tid // BK + i * (THREADS // BK), tid % BK] = v
                        for i, v in enumerate(staged[tid][na:]):
                            Bt[tid // BN + i * (THREADS // BN), tid % BN] = v
                    staged = load_tiles(k0 + BK)
                    for warp in range(4):
                        lanes = range(warp * 32, warp * 32 + 32)
                        warpRow, warpCol = (warp // 2) * 32, (warp % 2) * 32
                        for kk in range(0, BK, mmaK):
                            afr, bfr = {}, {}
                            for tid in lanes:
                                lane = tid % 32; g, t = lane // 4, lane % 4
                                tk = t * perReg
                                for i in range(2):
                                    rb = warpRow + i * 16 + g
                                    afr[tid, i] = [[At[rb + 8 * (r % 2), kk + tk + j + mmaK // 2 * (r // 2)]
                                                    for j in range(perReg)] for r in range(4)]
                                for jt in range(4):
                                    col = warpCol + jt * 8 + g
                                    bfr[tid, jt] = [[Bt[kk + tk + j + mmaK // 2 * r, col]
                                                     for j in range(perReg)] for r in range(2)]
                            for i in range(2):
                                for jt in range(4):
                                    d = mma_ptx([afr[tid, i] for tid in lanes], [bfr[tid, jt] for tid in lanes],
                                                [accs[tid][i * 4 + jt] for tid in lanes], prec)
                                    for n, tid in enumerate(lanes):
                                        accs[tid][i * 4 + jt] = np.array(d[n])
                for tid in range(THREADS):
                    warp, lane = tid // 32, tid % 32; g, t = lane // 4, lane % 4
                    warpRow, warpCol = (warp // 2) * 32, (warp % 2) * 32
                    for i in range(2):
                        for jt in range(4):
                            for v in range(4):
                                row = rowBase + warpRow + g + i * 16 + 8 * (v // 2)
                                col = colBase + warpCol + 2 * t + jt * 8 + v % 2
                                if row < M and col < N:
                                    view.addC(bz, row, col, accs[tid][i * 4 + jt][v // 2, v % 2])

class MatmulView:
    def __init__(s, a, b, c, tb=False):
        s.a, s.b, s.c, s.tb = a, b, c, tb
    def loadA(s, b, m, k): return s.a[b, m, k]
    def loadB(s, b, k, n): return s.b[b, n, k] if s.tb else s.b[b, k, n]
    def addC(s, b, m, n, v): s.c[b, m, n] += v

class ConvView:
    def __init__(s, x, w, o, st, dl):
        s.x, s.w, s.o, s.st, s.dl = x, w, o, st, dl
        s.KH, s.KW = w.shape[2:]; s.OW = o.shape[3]
    def loadA(s, b, f, k):
        c, at = divmod(k, s.KH * s.KW); y, x = divmod(at, s.KW)
        return s.w[f, c, y, x]
    def loadB(s, b, k, n):
        c, at = divmod(k, s.KH * s.KW); y, x = divmod(at, s.KW)
        oy, ox = divmod(n, s.OW)
        return s.x[b, c, oy * s.st[0] + y * s.dl[0], ox * s.st[1] + x * s.dl[1]]
    def addC(s, b, f, n, v):
        oy, ox = divmod(n, s.OW); s.o[b, f, oy, ox] += v

class GroupedConvView(ConvView):
    """conv_2d_ngchw_gfchw: GEMM batch b = image b // G, group b % G."""
    def __init__(s, x, w, o, st, dl):
        s.x, s.w, s.o, s.st, s.dl, s.G = x, w, o, st, dl, x.shape[1]
        s.KH, s.KW = w.shape[3:]; s.OW = o.shape[4]
    def loadA(s, b, f, k):
        c, at = divmod(k, s.KH * s.KW); y, x = divmod(at, s.KW)
        return s.w[b % s.G, f, c, y, x]
    def loadB(s, b, k, n):
        c, at = divmod(k, s.KH * s.KW); y, x = divmod(at, s.KW)
        oy, ox = divmod(n, s.OW)
        return s.x[b // s.G, b % s.G, c, oy * s.st[0] + y * s.dl[0], ox * s.st[1] + x * s.dl[1]]
    def addC(s, b, f, n, v):
        oy, ox = divmod(n, s.OW); s.o[b // s.G, b % s.G, f, oy, ox] += v

def main():
    worst = 0.0
    rng = np.random.default_rng(0)
    for prec in ("f16", "tf32"):
        # The third splits K in 3 ranges of 160 (13 steps of 32 over 2 tiles).
        for (B, M, N, K, tb) in [(1, 70, 45, 50, False), (2, 64, 130, 33, True), (1, 70, 45, 400, False)]:
            if K > 100:
                assert split_k(M, N, K, B) == (3, 160), split_k(M, N, K, B)
            a = rng.standard_normal((B, M, K))
            b = rng.standard_normal((B, N, K) if tb else (B, K, N))
            c = rng.standard_normal((B, M, N))
            ref = c + a @ (b.transpose(0, 2, 1) if tb else b)
            kernel(MatmulView(a, b, c, tb), M, N, K, B, prec)
            err = np.abs(c - ref).max()
            worst = max(worst, err)
            print(f"{prec} matmul batch {B} {M}x{N}x{K}{' B transposed' if tb else ''}: max error {err:.2g}")
        x = rng.standard_normal((2, 3, 11, 9))
        w = rng.standard_normal((5, 3, 3, 2))
        st, dl = (2, 1), (1, 2)
        OH = (11 - (3 - 1) * dl[0] - 1) // st[0] + 1
        OW = (9 - (2 - 1) * dl[1] - 1) // st[1] + 1
        o = rng.standard_normal((2, 5, OH, OW))
        ref = o.copy()
        for n in range(2):
            for f in range(5):
                for oy in range(OH):
                    for ox in range(OW):
                        ref[n, f, oy, ox] += sum(
                            x[n, c, oy * st[0] + y * dl[0], ox * st[1] + xx * dl[1]] * w[f, c, y, xx]
                            for c in range(3) for y in range(3) for xx in range(2))
        kernel(ConvView(x, w, o, st, dl), 5, OH * OW, 3 * 3 * 2, 2, prec)
        err = np.abs(o - ref).max()
        worst = max(worst, err)
        print(f"{prec} conv 2x3x11x9 * 5x3x3x2, strides {st}, dilations {dl}: max error {err:.2g}")
    # A grouped convolution: 2 images, 3 groups of 2 -> 4 channels, 2x2 kernel.
    x = rng.standard_normal((2, 3, 2, 7, 6))
    w = rng.standard_normal((3, 4, 2, 2, 2))
    o = rng.standard_normal((2, 3, 4, 6, 5))
    ref = o.copy()
    for n in range(2):
        for g in range(3):
            for f in range(4):
                for oy in range(6):
                    for ox in range(5):
                        ref[n, g, f, oy, ox] += sum(x[n, g, c, oy + y, ox + xx] * w[g, f, c, y, xx]
                                                    for c in range(2) for y in range(2) for xx in range(2))
    kernel(GroupedConvView(x, w, o, (1, 1), (1, 1)), 4, 6 * 5, 2 * 2 * 2, 2 * 3, "f16")
    err = np.abs(o - ref).max()
    worst = max(worst, err)
    print(f"f16 grouped conv 2x(3x2)x7x6 * 3x4x2x2x2: max error {err:.2g}")
    ok = worst < 1e-9
    print("OK" if ok else "FAIL: the kernel's index math does not compute the GEMM")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
