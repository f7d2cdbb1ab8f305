//===- Passes.td - Dialect conversion passes of onnxc ------*- tablegen -*-===//

#ifndef ONNXC_PASSES_CONVERSION_PASSES_TD
#define ONNXC_PASSES_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertONNXToLinalgPass : Pass<"convert-onnx-to-linalg", "mlir::ModuleOp"> {
  let summary = "lower onnx ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every onnx op into destination-style linalg ops (named ops where
    one fits: matmul, batch_matmul, conv_2d_nchw_fchw, pooling; linalg.generic
    with broadcasting maps otherwise) plus tensor, arith and math ops, all on
    tensors, so that tiling, fusion and vectorization can follow. onnx.Constant
    becomes arith.constant. An op that cannot be lowered (an unsupported
    element type, a dynamic dim that must be static) is reported with its node
    name and the pass fails. An f32 `fused.attention` becomes a call of the
    runtime's attention kernel on read-only buffers of its operands
    (`bufferization.to_memref`) and a new result buffer
    (`bufferization.to_tensor`); so do, with `cpu-kernels`, a 2-D f32
    MaxPool or AveragePool (the runtime's pooling kernel pads implicitly) and
    an f32 LayerNormalization over the last axis (the runtime's kernel does a
    row in one pass).
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect",
    "mlir::func::FuncDialect", "mlir::scf::SCFDialect",
    "mlir::bufferization::BufferizationDialect", "mlir::memref::MemRefDialect",
    "onnxc::fused::FusedDialect"
  ];
  let options = [
    Option<"int8Kernels", "int8-kernels", "bool", /*default=*/"true",
           "lower QLinearMatMul, QLinearConv, MatMulInteger and ConvInteger "
           "to fused.qmatmul / fused.qconv (the runtime's int8 GEMM) where "
           "they fit, rather than to integer linalg.generic contractions">,
    Option<"cpuKernels", "cpu-kernels", "bool", /*default=*/"true",
           "lower 2-D f32 MaxPool (without Indices) and AveragePool, and f32 "
           "LayerNormalization over the last axis, to calls of the CPU "
           "runtime's kernels, rather than to linalg ops (off for the GPU, "
           "where such a call would run on the host)">
  ];
}

def ConvertFusedToKernelCallsPass
    : Pass<"convert-fused-to-kernel-calls", "mlir::ModuleOp"> {
  let summary = "call the runtime's int8 GEMM for fused.qmatmul and fused.qconv";
  let description = [{
    Runs after bufferization. Replaces `fused.qmatmul` and `fused.qconv` on
    memrefs by calls of `onnxc_kernel_qmatmul` and `onnxc_kernel_qconv2d`
    (lib/Kernels/int8/QuantOps.c): every operand cast to a fully dynamic
    strided memref (the callee receives the expanded descriptor), for qconv the
    strides and dilations as `i64`s, then a flags word: Relu, constant x,
    constant w (its packed form is kept), signed x, signed w, the output
    kind (i32, f32, u8, s8) and an f32 bias (ONNXC_QFLAG_* in
    dialects/Kernel/KernelABI.h).
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::func::FuncDialect",
    "mlir::memref::MemRefDialect"
  ];
}

def ConvertLinalgToKernelCallsPass
    : Pass<"convert-linalg-to-kernel-calls", "mlir::ModuleOp"> {
  let summary = "call the runtime's packed kernels for f32 matmuls and convolutions";
  let description = [{
    Runs after bufferization. Replaces f32 `linalg.matmul`,
    `linalg.matmul_transpose_b`, `linalg.batch_matmul`,
    `linalg.batch_matmul_transpose_b`, `linalg.conv_2d_nchw_fchw` and
    `linalg.depthwise_conv_2d_nchw_chw` on memrefs by calls of the CPU
    kernels (lib/Kernels: gemm/, conv/): packed, register-blocked GEMM for the
    host's vector ISA, spread over the session's thread pool. Each operand is
    cast to a memref with dynamic sizes, strides and offset (transposed
    operands become `memref.transpose` views), so the callee receives the
    expanded descriptor; window strides and dilations follow as `i64`s, then
    a flags word (bit 0: max(., 0) epilogue). For example

    ```mlir
    linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
                  outs(%c : memref<4x16xf32>)
    ```

    becomes

    ```mlir
    %0 = memref.cast %a : memref<4x8xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    ...
    call @onnxc_kernel_matmul_f32(%0, %1, %2, %flags) : (...) -> ()
    ```

    When the module names the vector ISA of the GEMM it will run
    (`onnxc.gemm_isa` = "avx512", "avx2", "neon" or "generic"), a matmul
    whose B is a view of a constant global reads B packed at compile time:
    a new i8 global (64-byte aligned) holds it in the layout of that ISA's
    micro-kernel for the product's shape (dialects/Kernel/KernelABI.h), and the
    call is `onnxc_kernel_matmul_packed_f32(A, packed, C, n, nr, kcBlock,
    flags)`; the original global goes when nothing reads it any more.

    With "avx512", a `linalg.conv_2d_nchw_fchw` of small planes (stride and
    dilation 1, static shapes but the batch, 16 to 64 output pixels the size
    of its image before a zero padding, at most 2^18 multiply-adds per image)
    calls `onnxc_kernel_conv2d_small_nchw_fchw_f32` instead, which reads that
    padding implicitly like the depthwise kernel (pads top and left after
    the dilations): a direct kernel, where one GEMM per image would be a few
    tiles of padding and packing.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::func::FuncDialect",
    "mlir::memref::MemRefDialect"
  ];
}

def LinalgFuseElementwisePass
    : Pass<"onnxc-linalg-fuse-elementwise", "mlir::ModuleOp"> {
  let summary = "fuse elementwise linalg ops without recomputation";
  let description = [{
    MLIR's `linalg-fuse-elementwise-ops` with two limits: a producer is fused
    into a consumer only where the consumer reads it through a permutation of
    its loops (so no element is computed twice: an activation is never fused
    into the matmul that reads it once per output column), and reshapes are
    folded into all-parallel `linalg.generic`s only (so named matmuls and
    convolutions stay named for `convert-linalg-to-kernel-calls`).
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
    "mlir::affine::AffineDialect", "mlir::arith::ArithDialect"
  ];
}

def FlattenMemRefGlobalsPass
    : Pass<"onnxc-flatten-memref-globals", "mlir::ModuleOp"> {
  let summary = "make multi-dimensional memref globals one-dimensional";
  let description = [{
    LLVM lowers a memref.global of type `memref<64x3x7x7xf32>` to nested
    arrays, one LLVM constant per row of every dim: a model's weights become
    millions of uniqued constants, and most of the compile time goes into
    building and destroying them. This pass gives every global with a static
    shape of rank 2 or more the flat type (`memref<9408xf32>`; a
    `dense_resource` keeps its blob) and expands each `memref.get_global`
    back to the old shape:

    ```mlir
    %0 = memref.get_global @w : memref<9408xf32>
    %1 = memref.expand_shape %0 [[0, 1, 2, 3]] output_shape [64, 3, 7, 7]
        : memref<9408xf32> into memref<64x3x7x7xf32>
    ```

    Constant globals of `min-byte-size` bytes or more (4 KiB; not splats)
    become byte arrays
    (`memref<37632xi8>`, 64-byte aligned, read through a `memref.view`):
    LLVM writes an i8 constant array to the object file in one piece, where
    it emits a float array one element at a time (most of BERT's codegen
    time went there).
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
  let options = [
    Option<"minByteSize", "min-byte-size", "int64_t", "4096",
           "the smallest constant global (in bytes) stored as bytes">,
  ];
}

def CollapseElementwisePass
    : Pass<"onnxc-collapse-elementwise", "mlir::func::FuncOp"> {
  let summary = "fold the innermost dims of generics on memrefs into one";
  let description = [{
    Runs in the CPU pipeline after the kernel calls are made, before loops.
    A `linalg.generic` whose operands are memrefs of the identity layout and
    whose indexing maps are projected permutations gets the longest run of
    innermost dims of one iterator type that every map keeps in order folded
    into one (`memref.collapse_shape` on its operands): the loop that LLVM
    vectorizes is then as long as the tensor (or its part below a broadcast,
    or a global pooling's whole plane), not one row of a 14x14 or 7x7 plane,
    which it vectorized across rows with gathers and scatters. First, an
    input's unit dims that its map reads at the constant 0 (a per-channel
    scale of shape 1xCx1x1 broadcast over NxCxHxW) are dropped from it, so
    that its map is a projected permutation too.

    ```mlir
    linalg.generic {indexing_maps = [#id, #id], iterator_types = [4 x "parallel"]}
        ins(%x : memref<1x672x14x14xf32>) outs(%y : memref<1x672x14x14xf32>)
    // becomes
    %cx = memref.collapse_shape %x [[0, 1, 2, 3]] : ... into memref<131712xf32>
    linalg.generic ... ins(%cx : memref<...>) outs(%cy : memref<...>)
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect"];
}

def ReductionsToLoopsPass
    : Pass<"onnxc-reductions-to-loops", "mlir::func::FuncOp"> {
  let summary = "reductions over the innermost dims as loops that carry "
                "their running value";
  let description = [{
    Runs in the CPU pipeline after `onnxc-collapse-elementwise`, before the
    other generics become loops. A `linalg.generic` on memrefs with one
    output whose reduction dims all follow its parallel ones, whose indexing
    maps are projected permutations and whose body combines one value with
    the running one (the output's argument, used once: float add, mul,
    max or min, integer add, mul, max, min, and, or, xor) becomes an
    `scf.parallel` over the parallel dims around one `scf.for` per reduction
    dim that carries the running value from the output's element to it. A
    float combiner gets the `reassoc` flag, so that LLVM vectorizes the
    loop with partial sums. Linalg's own loops load and store the output's
    element at every step, which LLVM cannot keep in a register when the
    input and the output are views of one arena: a global average pooling
    of 672 planes of 14x14 ran as a chain of scalar adds through memory.

    ```mlir
    linalg.generic {indexing_maps = [#id, #proj],
                    iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x : memref<1x8x49xf32>) outs(%y : memref<1x8xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
    // becomes
    scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c8) step (%c1, %c1) {
      %init = memref.load %y[%i, %j] : memref<1x8xf32>
      %sum = scf.for %k = %c0 to %c49 step %c1 iter_args(%acc = %init) -> (f32) {
        %a = memref.load %x[%i, %j, %k] : memref<1x8x49xf32>
        %s = arith.addf %a, %acc fastmath<reassoc> : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%i, %j] : memref<1x8xf32>
    }
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def PlanBuffersPass : Pass<"onnxc-plan-buffers", "mlir::ModuleOp"> {
  let summary = "place a function's temporary buffers in one arena";
  let description = [{
    Runs in the CPU pipeline after the kernel calls are made. In every
    function body of one block, the temporaries (each `memref.alloc` of the
    identity layout and whole-byte ints or floats that one `memref.dealloc`
    of the same block frees, of a static shape or with one dynamic dim, the
    one most of them share, such as the batch) become views of one byte
    arena at offsets fixed at compile time: each lives from its alloc to the
    last op of the block that uses it through any of its views (nested uses
    count for the op that holds them; the deallocation pipeline frees most
    buffers only at the end of the block), or to its dealloc when a view
    escapes into a region's or an op's result, and the temporaries are
    placed largest first, each at the lowest offset free of those alive at
    the same time (the greedy-by-size plan of TFLite's arena). The
    batch-sized ones follow the static ones, at offsets and sizes that scale
    with the batch. The arena comes from the runtime at the start of the
    call and goes back before the return:

    ```mlir
    %a = memref.alloc() {alignment = 64 : i64} : memref<1x96x112x112xf32>
    ...
    memref.dealloc %a : memref<1x96x112x112xf32>
    // becomes
    %arena = call @onnxc_arena_acquire(%c6021120) : (index) -> memref<?xi8>
    %a = memref.view %arena[%c0][] : memref<?xi8> to memref<1x96x112x112xf32>
    ...
    call @onnxc_arena_release(%arena) : (memref<?xi8>) -> ()
    ```

    The runtime keeps one arena per thread and hands the same memory to
    every call (a nested call gets its own): no allocation in the steady
    state, and a buffer reuses memory that the buffers before it have just
    left, which is still in the cache. Returned buffers, buffers of other
    dynamic shapes and those of nested regions are left as they are.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def ConvertParallelLoopsToThreadPoolPass
    : Pass<"convert-parallel-loops-to-thread-pool", "mlir::ModuleOp"> {
  let summary = "run the outermost scf.parallel loops on the runtime's thread pool";
  let description = [{
    Runs after `convert-linalg-to-parallel-loops` in the CPU pipeline (-O2
    and up). Every outermost `scf.parallel` (one not nested in another or in
    a GPU launch) without reductions or calls, whose work (its iterations
    times the scalar ops of its body, nested loops multiplied out) is at
    least `min-work`, is outlined into a function of a range of its outer
    iterations and run by the runtime's `onnxc_parallel_for` on the
    session's pool (`onnxc_current_threadpool()`). The outer dims are
    linearized (constant unit dims skipped) until they give 64 iterations
    (a dynamic dim counts as one: most often it is a batch of one),
    the innermost dim only when it is the first one taken; the other dims
    stay an `scf.parallel` in the body. The values the loop uses go into a
    context struct of their LLVM types (memrefs as descriptors), built on the
    caller's stack; constants and views of globals are recomputed in the
    body instead. When a trip count is dynamic, the work is compared with
    `min-work` at run time, and small loops call the body directly on the
    caller. Smaller loops, reductions and nested loops stay serial.

    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c1024) step (%c1, %c1) {
      %v = memref.load %x[%i, %j] : memref<64x1024xf32>
      ...
    }
    // becomes
    %ctx = llvm.alloca %c1 x !llvm.struct<(struct<(ptr, ptr, i64, ...)>, ...)>
    llvm.store %fields, %ctx
    %fn = constant @main_parallel : (!llvm.ptr, i64, i64) -> ()
    %pool = call @onnxc_current_threadpool() : () -> !llvm.ptr
    call @onnxc_parallel_for(%pool, %c64_i64, %fn, %ctx)
    // and
    func.func private @main_parallel(%ctx: !llvm.ptr, %begin: i64, %end: i64) {
      scf.for %i = %b to %e step %c1 {
        scf.parallel (%j) = (%c0) to (%c1024) step (%c1) {...}
      }
    }
    ```
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "the fewest scalar ops a loop nest runs to be shared">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::func::FuncDialect",
    "mlir::LLVM::LLVMDialect", "mlir::scf::SCFDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Loops to GPU (the nvptx target)
//===----------------------------------------------------------------------===//

def InsertProfileProbesPass
    : Pass<"onnxc-insert-profile-probes", "mlir::ModuleOp"> {
  let summary = "time each node's work in the model's entry function (onnx-compile --profile)";
  let description = [{
    Runs in the CPU pipeline after the kernel calls and the thread pool's
    loops are in place, before the loops become branches. In each public
    function with a body (the model's entry), consecutive ops of the entry
    block that do work (calls, loop nests and other ops with regions,
    memref copies, linalg ops) and come from the same ONNX node (their
    location's name) form one site, labelled "NODE (WHAT)", WHAT the kernels
    called (`onnxc_kernel_` dropped) or "loops" and "loops on the pool".
    The site is wrapped in calls of the runtime's `onnxc_profile_enter` and
    `onnxc_profile_exit` with a pointer to its label, a private constant
    global. Ops in between that do no work (views, allocations, constants)
    stay where they are, inside or outside a site.

    ```mlir
    call @onnxc_kernel_matmul_f32(...) loc("fc1")
    // becomes
    %site = llvm.mlir.addressof @onnxc_profile_site_0 : !llvm.ptr
    call @onnxc_profile_enter(%site) : (!llvm.ptr) -> ()
    call @onnxc_kernel_matmul_f32(...) loc("fc1")
    call @onnxc_profile_exit(%site) : (!llvm.ptr) -> ()
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::func::FuncDialect"];
}

def ApproximateMathPass : Pass<"onnxc-approximate-math", "mlir::ModuleOp"> {
  let summary = "f32 erf, exp, tanh, asin and acos as arithmetic instead of libm calls";
  let description = [{
    Rewrites f32 (scalar or vector) `math.erf` into MLIR's polynomial
    approximation (about 1e-7 absolute error), `math.exp` and
    `math.tanh` into Cephes' expf and tanhf (about 1e-7 relative error;
    exp keeps +inf past ln(FLT_MAX), 0 below ln of the least denormal, and
    NaN), and `math.asin` and `math.acos` into Cephes' asinf and acosf
    (about 2.5e-7 relative error, NaN beyond +-1; the GPU's kernels use the
    same): arithmetic that LLVM vectorizes along with the loop around it,
    where `convert-math-to-libm` would call `erff`, `expf` or `tanhf` once
    per element (softmax, sigmoid and tanh activations, the gates of LSTM
    and GRU). Run by the CPU pipeline before the math ops reach LLVM.

    ```mlir
    %y = math.tanh %x : f32
    // becomes arith ops, math.fma / floor / absf / copysign and selects on
    // %x (no call)
    ```
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::vector::VectorDialect"
  ];
}

def ExpandBF16ConversionsPass
    : Pass<"onnxc-expand-bf16-conversions", "mlir::ModuleOp"> {
  let summary = "f32 <-> bf16 conversions as integer arithmetic";
  let description = [{
    Rewrites `arith.truncf` from f32 to bf16 and `arith.extf` from bf16 to
    f32 (scalars or vectors) into integer operations on their bits: round
    to nearest even, NaN kept quiet. LLVM would otherwise lower the
    truncation to a call of compiler-rt's `__truncsfbf2`, which the C
    runtime that onnxc links executables against may lack (Debian 12's
    libgcc does), so that a model with a Cast to bfloat16 failed to link.
    Run by the CPU pipeline before arith reaches LLVM.

    ```mlir
    %y = arith.truncf %x : f32 to bf16
    // becomes arith.bitcast to i32, the rounding bias added, shrui by 16,
    // a select for NaN, arith.trunci and arith.bitcast to bf16
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def GPUMapParallelLoopsPass
    : Pass<"onnx-gpu-map-parallel-loops", "mlir::func::FuncOp"> {
  let summary = "map the outermost scf.parallel loops onto GPU blocks and threads";
  let description = [{
    Prepares the parallel loops that `convert-linalg-to-parallel-loops` made
    for `convert-parallel-loops-to-gpu`: every outermost `scf.parallel` (one
    not nested in another) is collapsed into one dimension, tiled by
    `block-size`, and its tile loop mapped to `block_x` and its point loop to
    `thread_x`; parallel loops nested inside become sequential. Loops that
    are not parallel (whole reductions) and loops that call a function (the
    runtime's string and sequence functions, which are host code) stay on
    the host.

    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c100) step (%c1, %c1) {...}
    // becomes, with block-size=128:
    scf.parallel (%b) = (%c0) to (%c400) step (%c128) {
      scf.parallel (%t) = (%c0) to (%c128) step (%c1) {
        scf.if %in_bounds {...}
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
    } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "threads per block">
  ];
  let dependentDialects = [
    "mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
    "mlir::arith::ArithDialect", "mlir::affine::AffineDialect"
  ];
}

def GPUGemmKernelsPass : Pass<"onnx-gpu-gemm-kernels", "mlir::func::FuncOp"> {
  let summary = "tiled GPU kernels for f32 matmuls and convolutions, on tensor cores by request";
  let description = [{
    Replaces `linalg.matmul`, `linalg.matmul_transpose_b`,
    `linalg.batch_matmul`, `linalg.batch_matmul_transpose_b`,
    `linalg.conv_2d_nchw_fchw` and `linalg.conv_2d_ngchw_gfchw` on f32
    buffers by a `gpu.launch` of a tiled GEMM (a convolution as an implicit
    GEMM: per image and group, filter [F, C*KH*KW] times input windows
    [C*KH*KW, OH*OW]). A block of 128 threads computes a
    64x64 output tile; 64x32 and 32x64 operand tiles are staged in shared
    memory (workgroup attributions); each of the 4 warps computes a 32x32
    quarter as 2x4 tiles of 16x8 with f32 accumulators. `precision` chooses
    the multiplications: `fp32` FMAs (each thread computes the 32 outputs
    that the mma layout gives it), `tf32` (`nvgpu.mma.sync` m16n8k8 with the
    inputs rounded by `cvt.rna.tf32.f32`), `fp16` (`nvgpu.mma.sync`
    m16n8k16, inputs rounded to f16) or `bf16` (the NVVM intrinsic of
    `mma.sync.m16n8k16...bf16`, inputs rounded to bf16). Ops nested in
    parallel loops or launches, and other element types, are left alone.

    ```mlir
    linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
                  outs(%c : memref<?x?xf32>)
    // becomes, with precision=fp16:
    gpu.launch blocks(...) in (%gx = %n_tiles, %gy = %m_tiles, %gz = %c1)
               threads(...) in (%tx = %c128, %ty = %c1, %tz = %c1)
               workgroup(%at : memref<64x36xf16, #gpu.address_space<workgroup>>,
                         %bt : memref<32x68xf16, #gpu.address_space<workgroup>>) {
      scf.for %k0 = %c0 to %k step %c32 iter_args(...) {
        gpu.barrier   // stage A and B tiles (zeros outside), as f16
        gpu.barrier   // 2 x 8 nvgpu.mma.sync {mmaShape = [16, 8, 16]}
      }
      // C += accumulators
    }
    ```
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"fp32\"",
           "multiplications: fp32 (FMA), tf32, fp16 or bf16 (tensor cores)">
  ];
  let dependentDialects = [
    "mlir::gpu::GPUDialect", "mlir::nvgpu::NVGPUDialect",
    "mlir::scf::SCFDialect", "mlir::arith::ArithDialect",
    "mlir::math::MathDialect", "mlir::memref::MemRefDialect",
    "mlir::vector::VectorDialect", "mlir::LLVM::LLVMDialect"
  ];
}

def GPUReductionKernelsPass
    : Pass<"onnx-gpu-reduction-kernels", "mlir::func::FuncOp"> {
  let summary = "reductions along the innermost loop dim as one warp per output";
  let description = [{
    Replaces each `linalg.generic` on buffers whose innermost loop dim is a
    reduction (Softmax's max and sum, LayerNormalization's mean and
    variance, ReduceMean over the last axes, global pooling) by a
    `gpu.launch` in which each warp computes one output: its 32 lanes stride
    over the reduced elements (the reduced dims linearized, so that
    neighbouring lanes read neighbouring addresses), each folding its share
    into a value that starts at the combiner's neutral element, and five
    `gpu.shuffle xor` steps combine the lanes; lane 0 combines the total with
    the output's initial value. Blocks of 8 warps. The default lowering
    (`convert-linalg-to-parallel-loops`) gives each output one thread that
    walks the whole reduction alone.

    It applies where the innermost loop dim is also the innermost dim of an
    input (a column sum stays with one thread per output, whose neighbours
    then read neighbouring addresses), every reduced input varies with every
    output dim (a contraction, such as a 4-D MatMul's generic, reuses each
    row for many outputs: one thread per output reads it better), the body
    is one combiner with a
    neutral element
    (`arith.addf`, `arith.maximumf`, `arith.muli`...) of the output's value
    and a function of the inputs (`matchReduction`), the output is an f32 or
    i32 (a shuffle moves 32 bits) indexed by parallel dims only and read by
    no input, the static reduced extent is 32 or more (or dynamic), and the
    op is not already in a kernel or parallel loop.

    ```mlir
    linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<?x768xf32>) outs(%sum : memref<?xf32>) {
      ^bb0(%in: f32, %out: f32):
        %s = arith.addf %in, %out : f32
        linalg.yield %s : f32
    }
    // becomes
    gpu.launch blocks(...) in (%gx = (rows + 7) / 8, ...)
               threads(...) in (%tx = 256, ...) {
      scf.if %row < %rows {
        %part = scf.for %k = %lane to %c768 step %c32 iter_args(%acc = -0.0) {...}
        // 5 x (gpu.shuffle xor, arith.addf)
        scf.if %lane == 0 { %sum[%row] = total + %sum[%row] }
      }
    }
    ```
  }];
  let dependentDialects = [
    "mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
    "mlir::arith::ArithDialect", "mlir::affine::AffineDialect",
    "mlir::memref::MemRefDialect"
  ];
}

def GPUOrderLoopsPass : Pass<"onnx-gpu-order-loops", "mlir::func::FuncOp"> {
  let summary = "order linalg loops as the output's dims, so that neighbouring threads write neighbouring addresses";
  let description = [{
    `onnx-gpu-map-parallel-loops` gives the innermost parallel loop to
    neighbouring threads. This pass, run before
    `convert-linalg-to-parallel-loops`, reorders each linalg op on buffers
    (named ops generalized first) whose loops are not in the order of its
    first output's dims: the parallel dims in the output's order, then other
    parallel dims, then the reductions. `linalg.depthwise_conv_2d_nchw_chw`
    iterates `(n, oh, ow, c, kh, kw)`: its channels, a plane apart in memory,
    went to neighbouring threads; a reduction over an outer dim would keep a
    host loop around a kernel per step. Ops in kernels or parallel loops, ops
    whose output is indexed by anything but distinct parallel dims and
    constants, and named ops without a region builder are left alone.

    ```mlir
    linalg.depthwise_conv_2d_nchw_chw ins(%x, %w : memref<?x144x58x58xf32>, memref<144x3x3xf32>)
                                      outs(%y : memref<?x144x56x56xf32>)
    // becomes a linalg.generic over (n, c, oh, ow, kh, kw)
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def GPUCopyKernelsPass : Pass<"onnx-gpu-copy-kernels", "mlir::func::FuncOp"> {
  let summary = "the host's memref.copy ops as linalg.copy, so that they run as kernels";
  let description = [{
    Bufferization leaves `memref.copy` ops on the host: the padding of a
    convolution (a copy into a subview of a filled buffer), concatenations,
    copies of returned values. On the nvptx target the host would run them
    over managed memory, pulling whole activations to the CPU and back. This
    pass, run before `convert-linalg-to-parallel-loops`, rewrites each ranked
    copy outside kernels and parallel loops into `linalg.copy`, which becomes
    a parallel loop and then a kernel like any other elementwise op. Rank-0
    copies stay on the host (a one-element kernel costs more).

    ```mlir
    memref.copy %a, %sub : memref<?x3x224x224xf32> to memref<?x3x224x224xf32, strided<[...], offset: 227>>
    // becomes
    linalg.copy ins(%a : memref<?x3x224x224xf32>)
                outs(%sub : memref<?x3x224x224xf32, strided<[...], offset: 227>>)
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def GPUAsyncLaunchesPass
    : Pass<"onnx-gpu-async-launches", "mlir::func::FuncOp"> {
  let summary = "chain the host's kernel launches on one stream, waiting only where the host needs it";
  let description = [{
    A `gpu.launch_func` without async tokens lowers to a launch followed by a
    stream synchronization: the host waits for every kernel before it
    launches the next. This pass, run on the host functions after kernel
    outlining, makes the launches of each block async, chained on one token
    that starts with a `gpu.wait async` (the thread's stream); a synchronous
    `gpu.wait` on that token goes before the first op after them that reads
    or writes memory, calls a function or holds regions (anything not free of
    memory effects), and before the block's terminator. Index arithmetic,
    views, `memref.get_global`, allocations and deallocations do not wait: the
    runtime reuses a buffer freed while kernels are in flight only on the
    same stream (lib/Device/CUDA). Launches that are already async are left
    alone.

    ```mlir
    gpu.launch_func @k::@a blocks in (...) threads in (...) args(%x : memref<4xf32>)
    %y = memref.alloc() : memref<4xf32>
    gpu.launch_func @k::@b blocks in (...) threads in (...) args(%x : memref<4xf32>, %y : memref<4xf32>)
    %v = memref.load %y[%c0] : memref<4xf32>
    // becomes
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@a ...
    %y = memref.alloc() : memref<4xf32>
    %t2 = gpu.launch_func async [%t1] @k::@b ...
    gpu.wait [%t2]
    %v = memref.load %y[%c0] : memref<4xf32>
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def GPUMergeKernelModulesPass
    : Pass<"onnx-gpu-merge-kernel-modules", "mlir::ModuleOp"> {
  let summary = "merge the outlined gpu.modules into one";
  let description = [{
    `gpu-kernel-outlining` puts every kernel in a gpu.module of its own; this
    pass moves them all into one gpu.module named `module-name`, so that the
    model carries a single PTX module that the runtime loads once, and
    retargets every `gpu.launch_func`. Each kernel takes its old module's name
    followed by the name of the ONNX node it computes (the first `NameLoc` of
    its location, as a C identifier), so that a profile names the node. Symbols that several modules cloned
    (constant globals) are kept once. A module without kernels gets an empty
    one, so that every model has a (possibly empty) PTX module.

    ```mlir
    gpu.module @main_graph_kernel { gpu.func @main_graph_kernel(...) kernel }
    gpu.module @main_graph_kernel_0 {
      gpu.func @main_graph_kernel(...) kernel loc("/layer.0/MatMul")
    }
    // becomes
    gpu.module @onnxc_kernels {
      gpu.func @main_graph_kernel(...) kernel
      gpu.func @main_graph_kernel_0__layer_0_MatMul(...) kernel
    }
    ```
  }];
  let options = [
    Option<"moduleName", "module-name", "std::string", /*default=*/"\"onnxc_kernels\"",
           "name of the merged gpu.module">
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def GPUHostConstantsPass
    : Pass<"onnx-gpu-host-constants", "mlir::ModuleOp"> {
  let summary = "make the host's constant globals readable by GPU kernels";
  let description = [{
    On the host side of a lowered GPU module (LLVM dialect), replaces every
    `llvm.mlir.addressof` of a constant global (the model's weights, from
    `memref.global`) with a call to the runtime's
    `onnxc_gpu_constant(ptr, bytes)`, which returns a copy in memory that
    kernels can read, made once per process. Globals inside gpu.modules are
    left alone.

    ```mlir
    %0 = llvm.mlir.addressof @__constant_64xf32 : !llvm.ptr
    // becomes
    %0 = llvm.mlir.addressof @__constant_64xf32 : !llvm.ptr
    %c = llvm.mlir.constant(256 : i64) : i64
    %1 = llvm.call @onnxc_gpu_constant(%0, %c) : (!llvm.ptr, i64) -> !llvm.ptr
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def GPUExpandMathPass : Pass<"onnx-gpu-expand-math", "mlir::gpu::GPUModuleOp"> {
  let summary = "lower math ops in kernels without libdevice where possible";
  let description = [{
    `convert-gpu-to-nvvm` turns every math op into a call to CUDA's libdevice
    (`__nv_expf`), which only links where the CUDA toolkit is installed. This
    pass, run on gpu.modules before it, expands the f32 transcendental ops
    into polynomial approximations (exp, log, tanh, erf, sin, cos, atan, ...;
    asin and acos are Cephes', as onnxc-approximate-math's)
    and the compound ones into simpler ops (powf, sinh, cosh, tan, rsqrt,
    round), then lowers the ops that PTX has instructions for: sqrt, abs,
    floor, ceil and roundeven to calls of the NVVM intrinsics, fma, trunc,
    copysign, ctlz and ctpop to LLVM intrinsics. What is left (f64
    transcendentals, remf) still needs libdevice.

    ```mlir
    %0 = math.sqrt %x : f32
    // becomes
    %0 = llvm.call @llvm.nvvm.sqrt.rn.f(%x) : (f32) -> f32
    ```
  }];
  let dependentDialects = [
    "mlir::LLVM::LLVMDialect", "mlir::arith::ArithDialect",
    "mlir::math::MathDialect", "mlir::vector::VectorDialect"
  ];
}

#endif // ONNXC_PASSES_CONVERSION_PASSES_TD
