//===- Passes.td - onnx to onnx passes ---------------------*- tablegen -*-===//

#ifndef ONNXC_PASSES_TRANSFORMS_PASSES_TD
#define ONNXC_PASSES_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ONNXShapeInferencePass : Pass<"onnx-shape-inference", "mlir::func::FuncOp"> {
  let summary = "refine onnx result types from their operands, to a fixed point";
  let description = [{
    Re-runs every onnx op's result type inference in program order and
    refines result types (a `?` dim becomes static, an unranked tensor
    ranked) whenever the inferred type is more precise, then updates the
    function's result types to match its return. Sweeps repeat until one
    changes nothing. Used after input shapes are pinned and after folding
    exposes constant shapes. Running it twice changes nothing.

    An op inside an If branch whose inference fails (the branch cannot run
    with the shapes now known: a Squeeze of a dim that is 2, an LSTM of a
    rank-4 input) is not a compile error: that branch becomes a run-time
    failure, `cf.assert` of false with the op's message, yielding empty
    tensors of the If's result types (ONNX Runtime fails there too, and only
    when the branch is taken). Outside any If it is an error.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::tensor::TensorDialect"];
}

def ONNXConstantFoldingPass : Pass<"onnx-constant-folding", "mlir::func::FuncOp"> {
  let summary = "evaluate onnx ops whose inputs are constants, with shape inference to a fixed point";
  let description = [{
    Replaces each onnx op whose inputs are all `onnx.Constant`s by the
    constant it computes: elementwise math with broadcasting, comparisons and
    logic, Cast, Clip, Where, shape and data movement (Reshape, Flatten,
    Squeeze, Unsqueeze, Transpose, Concat, Gather, Slice, Expand, Tile,
    Range) and reductions. Gathers from a `Shape` whose selected dims are
    static fold even when other dims are `?`, so PyTorch's shape subgraphs
    (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) become constants.
    An If whose condition folds to a constant becomes the branch it takes.
    Shape inference and folding alternate until neither changes anything;
    dead ops (and initializers no op reads) go away with them.

    The cap: a result is folded only if it has at most `max-elements`
    elements, and, above 1024 elements, no more than the constants that die
    with the op (those it alone reads), so that folding never grows the
    model (an `Expand` of a scalar stays an `Expand`; a Transpose of a
    weight that another op also reads stays a Transpose). Constants of
    identical contents are merged, so a shared weight folded once per
    reader is stored once.

    ```mlir
    %s = onnx.Shape %x : (tensor<?x3x4xf32>) -> tensor<3xi64>
    %d = onnx.Gather %s, %c1 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
    // becomes
    %d = onnx.Constant {value = dense<3> : tensor<i64>} : () -> tensor<i64>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::tensor::TensorDialect"];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "int64_t(1) << 24",
           "the most elements a folded result may have">,
  ];
}

def ONNXSpecializeIfRanksPass : Pass<"onnx-specialize-if-ranks", "mlir::func::FuncOp"> {
  let summary = "move the readers of an If whose branches yield different ranks into both branches";
  let description = [{
    An If whose branches yield tensors of different ranks (PyTorch's "squeeze
    dim 1 if it is 1") has results of unknown rank, which the lowering cannot
    take. The ops of its block that depend on those results, directly or
    through each other, are cloned into both branches (tail duplication),
    each copy reading that branch's values, and the If yields what the block
    returned; the ops that do not depend on it move before it. Folding then
    decides, in each copy, the rank tests that follow ("unsqueeze if the
    rank is 2"). Innermost Ifs first, one per round, each followed by
    onnx-constant-folding; at most `max-rounds` rounds, and at most
    `max-ops` ops cloned in all (an If whose dependent ops would pass that
    stays as it is).

    A Squeeze without axes has no rank while its input has `?` dims (each may
    be 1). One with 1 to 3 of them that an op reads first becomes the Squeeze
    of the input's static unit dims followed, per `?` dim, by
    `If(dim == 1) {Squeeze(dim)} else {as is}`, and those Ifs are specialized
    like the others.

    ```mlir
    %r = onnx.If %c : (tensor<i1>) -> tensor<*xf32> {
      onnx.Yield %squeezed : tensor<4xf32>
    }, {
      onnx.Yield %x : tensor<4x1xf32>
    }
    %s = onnx.Shape %r : (tensor<*xf32>) -> tensor<?xi64>
    return %s : tensor<?xi64>
    // becomes (before folding)
    %r = onnx.If %c : (tensor<i1>) -> tensor<?xi64> {
      %s = onnx.Shape %squeezed : (tensor<4xf32>) -> tensor<?xi64>
      onnx.Yield %s : tensor<?xi64>
    }, {
      %s = onnx.Shape %x : (tensor<4x1xf32>) -> tensor<?xi64>
      onnx.Yield %s : tensor<?xi64>
    }
    return %r : tensor<?xi64>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::tensor::TensorDialect"];
  let options = [
    Option<"maxRounds", "max-rounds", "int64_t", "16",
           "the most Ifs specialized in one function">,
    Option<"maxOps", "max-ops", "int64_t", "20000",
           "the most ops cloned in one function">,
  ];
}

def ONNXWidenFloat16Pass : Pass<"onnx-widen-float16", "mlir::func::FuncOp"> {
  let summary = "compute float16 and bfloat16 MatMul, Gemm, Conv, ConvTranspose, Softmax and LogSoftmax in float";
  let description = [{
    These ops sum long runs of products: accumulated in a half-width type,
    every addition rounds and the error grows with the reduction (3 float16
    ulps on a 4-tap depthwise Conv of ONNX's CausalConvWithState tests). Each
    becomes the same op on float inputs (onnx.Cast up), its result cast back
    once to the model's type, as ONNX's reference (numpy accumulates half
    products in float) and ONNX Runtime's x86 kernels compute; the float op
    then reaches the float kernels and fusions. Softmax and LogSoftmax sum a
    row of exponentials and widen the same way (in half, 2 float16 ulps off
    ONNX's Attention reference, which rounds once).

    ```mlir
    %y = onnx.MatMul %a, %b : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
    // becomes
    %a32 = onnx.Cast %a {to = 1 : i64} : (tensor<4x8xf16>) -> tensor<4x8xf32>
    %b32 = onnx.Cast %b {to = 1 : i64} : (tensor<8x2xf16>) -> tensor<8x2xf32>
    %y32 = onnx.MatMul %a32, %b32 : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    %y = onnx.Cast %y32 {to = 10 : i64} : (tensor<4x2xf32>) -> tensor<4x2xf16>
    ```
  }];
}

def ONNXEliminateNoOpsPass : Pass<"onnx-eliminate-no-ops", "mlir::func::FuncOp"> {
  let summary = "remove onnx ops that return their input unchanged";
  let description = [{
    Replaces by their input: Identity, Dropout (inference; its mask unused),
    Cast to the input's type, Transpose by the identity permutation, Reshape,
    Flatten, Squeeze, Unsqueeze and Expand to the input's own static shape,
    Pad by zeros, Slice of a whole tensor, Concat of one input, and
    arithmetic identities that do not broadcast (`x + 0`, `x - 0`, `x * 1`,
    `x / 1`, `x ^ 1`).
  }];
}

def ONNXFuseConvBNPass : Pass<"onnx-fuse-conv-bn", "mlir::func::FuncOp"> {
  let summary = "fold BatchNormalization, and per-channel Mul and Add, into Conv";
  let description = [{
    With constant weights, `BatchNormalization(Conv(x, W, B))` becomes
    `Conv(x, W * s, (B - mean) * s + beta)` with `s = scale / sqrt(var +
    epsilon)` per output channel. A Mul by a per-channel constant
    (`[M, 1, 1]`, `[1, M, 1, 1]` or a scalar) scales W and B; an Add of one
    adds to B. The Conv must have no other reader.
  }];
}

def ONNXFuseActivationPass : Pass<"onnx-fuse-activation", "mlir::func::FuncOp"> {
  let summary = "fuse Conv, Gemm and 2-D MatMul with the activation after them";
  let description = [{
    `act(Conv(...))` becomes `fused.conv` and `act(Gemm(...))` or
    `act(MatMul(a, b))` (2-D) becomes `fused.gemm`, for act one of Relu,
    Tanh, Sigmoid, LeakyRelu, Clip (constant bounds), HardSigmoid, HardSwish,
    Gelu (both forms) and SiLU (`x * Sigmoid(x)`). The producer must have no
    other reader. With `ort-compatible` only what ONNX Runtime's
    com.microsoft FusedConv (Relu, Tanh, Sigmoid, LeakyRelu, HardSigmoid,
    Clip) and FusedGemm (the same but Clip) implement is fused, so the
    exporter can write them. The graph optimizer runs it only for MLIR
    output or on request: ONNX output uses standard ops by default.
  }];
  let dependentDialects = ["::onnxc::fused::FusedDialect"];
  let options = [
    Option<"ortCompatible", "ort-compatible", "bool", "false",
           "fuse only what ONNX Runtime's FusedConv and FusedGemm implement">,
  ];
}

def ONNXFuseAttentionPass : Pass<"onnx-fuse-attention", "mlir::func::FuncOp"> {
  let summary = "fuse multi-head scaled dot-product attention into fused.attention";
  let description = [{
    Recognizes attention as PyTorch exports it: Q, K and V (`[B, S, H * D]`,
    typically the results of the input projections) reshaped to
    `[B, S, H, D]` and transposed into heads (K straight to `[B, H, D, S]`
    or through two Transposes), `MatMul(Q, K^T)`, scalar Muls or Divs of Q,
    K or the scores, an optional Add of a mask of rank 4 or less, Softmax
    over the last axis, MatMul by V, Transpose to `[B, S, H, D]` and Reshape
    to `[B, S, H * D]`; all of it becomes one `fused.attention` of the three
    `[B, S, H * D]` tensors and the mask. K and V may have fewer heads `G`,
    each repeated for `H / G` of Q's as ONNX's Attention-23 expansion does
    (Unsqueeze at axis 2, Expand by `[1, 1, H / G, 1, 1]`, Reshape to
    `[B, H, T, D]`): grouped-query attention, `kv_num_heads = G`. Only f32
    attention is fused (what
    the lowering implements), and only where every op in between has no
    other reader. The output projection stays a MatMul.

    ```mlir
    %y = fused.attention %q, %k, %v, %mask {num_heads = 12 : i64, scale = 0.125 : f32} : (tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<?x1x1x128xf32>) -> tensor<?x128x768xf32>
    ```
    The graph optimizer runs it for MLIR output and for onnx-compile; ONNX
    output keeps standard ops.
  }];
  let dependentDialects = ["::onnxc::fused::FusedDialect"];
}

def ONNXFuseMatMulAddPass : Pass<"onnx-fuse-matmul-add", "mlir::func::FuncOp"> {
  let summary = "fuse a 2-D MatMul and a bias Add into Gemm";
  let description = [{
    `Add(MatMul(A, B), C)` with 2-D `A` and `B` and a `C` that broadcasts to
    the product's shape `[M, N]` (without growing it) becomes
    `Gemm(A, B, C)`. The MatMul must have no other reader.
  }];
}

def ONNXFuseQDQPass : Pass<"onnx-fuse-qdq", "mlir::func::FuncOp"> {
  let summary = "turn QDQ islands around Conv, MatMul and Gemm into integer ops";
  let description = [{
    In the QDQ format of ONNX Runtime's quantizer, Conv, MatMul and Gemm read
    DequantizeLinear outputs and their results go through QuantizeLinear.
    With per-tensor activations and constant weights (per tensor or per
    output channel):
    `Q(Relu?(Conv(DQ(x), DQ(w), b?)))` becomes `QLinearConv` (the bias
    requantized to int32 at scale x_scale * w_scale[c]);
    `Q(Relu?(MatMul(DQ(a), DQ(w))))` with a 2-D `w` becomes `QLinearMatMul`;
    a Gemm (alpha = beta = 1, no transA) or a MatMul of `DQ(a)` and `DQ(w)`
    not followed by a QuantizeLinear becomes
    `Mul(Cast(MatMulInteger(a, w)), a_scale * w_scale) (+ C)`, the form of
    dynamic quantization. A Relu before the QuantizeLinear is dropped when
    the output zero point is the type's minimum and becomes
    `Max(y, y_zero_point)` otherwise. The lowering maps all of these to the
    runtime's int8 GEMM. The result differs from the float evaluation of the
    QDQ graph only by rounding (at most one step of the output scale where a
    value lies near a rounding boundary).
  }];
}

def ONNXFoldTransposeReshapePass
    : Pass<"onnx-fold-transpose-reshape", "mlir::func::FuncOp"> {
  let summary = "collapse chains of Transposes and of reshaping ops";
  let description = [{
    `Transpose(Transpose(x, p), q)` becomes one Transpose by the composed
    permutation (nothing when it is the identity). A chain of Reshape,
    Flatten, Squeeze and Unsqueeze ending in a static shape becomes one
    Reshape of the chain's input (nothing when the shape is the input's). A
    Transpose that moves only size-1 dims becomes a Reshape. A Reshape whose
    target is a Concat of constants, reads of the input's own dims at the
    same position (`0`, copy) and at most one other value (`-1`) gets a
    constant target, and the shape arithmetic dies. A Gather of a scalar
    index from a Transpose that keeps its other dims in order gathers from
    the Transpose's input (`Gather(Transpose(y, [1, 0, 2]), -1, axis 1)` is
    `Gather(y, -1, axis 0)`).
  }];
}

def ONNXFusePadPass : Pass<"onnx-fuse-pad", "mlir::func::FuncOp"> {
  let summary = "fold a constant zero Pad of the spatial dims into Conv and pooling";
  let description = [{
    A `constant` mode Pad by zeros of only the spatial dims (non-negative
    counts) that feeds a Conv (explicit pads, `auto_pad` NOTSET) adds its
    counts to the Conv's `pads`; likewise for AveragePool with
    `count_include_pad = 1`, and with `count_include_pad = 0` when it has no
    pads or ceil-mode windows of its own (it then counts the Pad's zeros:
    `count_include_pad = 1`).
  }];
}

def ONNXRecognizePatternsPass : Pass<"onnx-recognize-patterns", "mlir::ModuleOp"> {
  let summary = "recognize LayerNormalization, GELU and Softmax in their decomposed forms";
  let description = [{
    Rewrites the decomposed forms that exporters emit into one op where the
    model's opset has it:
    `(x - mean(x)) / sqrt(mean((x - mean(x))^2) + eps) * g + b` over the
    last axis into LayerNormalization (opset 17),
    `x * 0.5 * (1 + erf(x / sqrt(2)))` and its tanh approximation
    `x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))` (any
    association) into Gelu (opset 20), and `exp(x - max(x)) / sum(exp(x - max(x)))` or
    `exp(x) / sum(exp(x))` over one axis into Softmax (opset 13).
    With `upgrade-opset`, forms newer than the model's opset are created too
    and the model's `ai.onnx` opset is raised to the newest one created (the
    dialect models every op in its newest form, so the rest of the model
    exports unchanged at the higher opset).
  }];
  let options = [
    Option<"upgradeOpset", "upgrade-opset", "bool", "false",
           "raise the model's opset when a recognized form needs it">,
  ];
}

def ONNXQuantizeQDQPass : Pass<"onnx-quantize-qdq", "mlir::ModuleOp"> {
  let summary = "static int8 quantization in the QDQ format, from calibrated ranges";
  let description = [{
    Static post-training quantization as ONNX Runtime's QDQ quantizer writes
    it. Each float activation that carries a calibrated range (an
    `onnxc.range = array<f64: lo, hi>` attribute on the op that defines it,
    or on the function argument) and is read by Conv, Gemm, MatMul, Add,
    Mul, Concat, MaxPool, AveragePool or GlobalAveragePool goes through one
    QuantizeLinear -> DequantizeLinear pair (uint8 asymmetric, or int8 with
    `activation-type=int8`; scale and zero point as ONNX Runtime computes
    them from the range widened to hold 0). Constant weights of Conv, Gemm
    and MatMul become symmetric int8 constants (`[-127, 127]`, zero point 0)
    read through DequantizeLinear, per channel (Conv axis 0, Gemm/MatMul the
    output axis of B) unless `per-channel=false`. A constant 1-D Conv or Gemm
    (alpha = beta = 1) bias becomes int32 of scale `x_scale * w_scale`. The
    range attributes are removed; the model's opset is raised to 13. As in
    ONNX Runtime's quantizer, a calibrated Relu whose input is a Conv, Gemm,
    MatMul or Add read by nothing else is removed: the result is quantized with
    the Relu's range, whose zero point is the lowest value, so that the
    QuantizeLinear clamps as the Relu did and `DequantizeLinear -> Conv ->
    QuantizeLinear` forms one quantized op.

    ```mlir
    %y = onnx.Relu %x {onnxc.range = array<f64: 0.0, 6.0>} : ...
    %z = onnx.Conv %y, %w, %b : ...
    // becomes
    %q = onnx.QuantizeLinear %y, %s, %zp : ... -> tensor<...xui8>
    %d = onnx.DequantizeLinear %q, %s, %zp : ...
    %wq = onnx.DequantizeLinear %w_i8, %w_scales, %w_zeros {axis = 0 : i64} : ...
    %bq = onnx.DequantizeLinear %b_i32, %b_scales, %none {axis = 0 : i64} : ...
    %z = onnx.Conv %d, %wq, %bq : ...
    ```
  }];
  let options = [
    Option<"activationType", "activation-type", "std::string", "\"uint8\"",
           "uint8 (asymmetric) or int8 activations">,
    Option<"perChannel", "per-channel", "bool", "true",
           "one weight scale per output channel">,
  ];
}

def ONNXQuantizeDynamicPass : Pass<"onnx-quantize-dynamic", "mlir::ModuleOp"> {
  let summary = "dynamic int8 quantization of MatMul and Gemm with constant weights";
  let description = [{
    ONNX Runtime's quantize_dynamic form: a MatMul (activation of rank >= 2)
    or Gemm (transA = 0, alpha = beta = 1) whose B is a 2-D float constant
    gets symmetric int8 weights (Gemm's transposed to `[K, N]`), per tensor
    or, with `per-channel`, per output column; its activation is quantized
    at run time:

    ```mlir
    %a, %as, %az = onnx.DynamicQuantizeLinear %x : ...
    %p = onnx.MatMulInteger %a, %w_i8, %az, %w_zero : ... -> tensor<...xi32>
    %f = onnx.Cast %p {to = 1 : i64} : ...
    %s = onnx.Mul %as, %w_scale : ...
    %y = onnx.Mul %f, %s : ...
    %z = onnx.Add %y, %c : ...   // Gemm's C, when it has one
    ```
    The model's opset is raised to 11.
  }];
  let options = [
    Option<"perChannel", "per-channel", "bool", "false",
           "one weight scale per output column">,
  ];
}

#endif // ONNXC_PASSES_TRANSFORMS_PASSES_TD
