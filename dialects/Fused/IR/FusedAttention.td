//===- FusedAttention.td - fused.attention -----------------*- tablegen -*-===//
//
// Multi-head scaled dot-product attention as one op, recognized by
// onnx-fuse-attention from the onnx ops that exporters emit. Kept apart from
// FusedOps.td (the activation fusions) so that each family grows on its own.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_FUSED_IR_FUSEDATTENTION_TD
#define ONNXC_DIALECTS_FUSED_IR_FUSEDATTENTION_TD

def Fused_AttentionOp : Op<Fused_Dialect, "attention",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "multi-head scaled dot-product attention";
  let description = [{
    `Softmax(scale * Q_h K_h^T + mask) V_h` for each head `h`, with the heads
    split from and merged back into the last dim: `query` is `[B, S, H * Dk]`,
    `key` `[B, T, H * Dk]`, `value` `[B, T, H * Dv]` and the result
    `[B, S, H * Dv]`, where head `h` owns columns `[h * D, (h + 1) * D)`.
    `mask`, if present, is added to the scaled scores before the softmax
    (over the `T` axis) and broadcasts to `[B, H, S, T]` (ONNX
    broadcasting; `[B, 1, 1, T]` is a padding mask). The input projections
    (MatMul + Add) and the output projection stay onnx ops.

    This is what a PyTorch multi-head self-attention block exports to as
    onnx ops: Reshape to `[B, S, H, D]` and Transpose into heads, MatMul of
    `Q` and `K^T`, a Div or Mul by a scalar (before or after the MatMul),
    an Add of the mask, Softmax (opset 13 and up, last axis), MatMul by `V`,
    Transpose and Reshape back. It matches ONNX Runtime's com.microsoft
    `MultiHeadAttention` without biases (`num_heads`, `scale`) and ONNX's
    `Attention` (opset 23) on 3-D inputs, causal masking included (the
    causal bias is the mask).

    ```mlir
    %y = fused.attention %q, %k, %v, %mask {num_heads = 12 : i64, scale = 0.125 : f32} : (tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<?x1x1x128xf32>) -> tensor<?x128x768xf32>
    ```
  }];
  let arguments = (ins TensorOf<[F16, BF16, F32, F64]>:$query,
                       TensorOf<[F16, BF16, F32, F64]>:$key,
                       TensorOf<[F16, BF16, F32, F64]>:$value,
                       AnyTypeOf<[TensorOf<[F16, BF16, F32, F64]>, NoneType]>:$mask,
                       I64Attr:$num_heads,
                       F32Attr:$scale);
  let results = (outs TensorOf<[F16, BF16, F32, F64]>:$Y);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Shapes may refine each other: `?` matches any size.
    static bool isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                        ::mlir::TypeRange rhs);
  }];
}

#endif // ONNXC_DIALECTS_FUSED_IR_FUSEDATTENTION_TD
