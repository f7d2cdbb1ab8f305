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
    `Softmax(scale * Q_h K_g^T + mask) V_g` for each head `h`, with the heads
    split from and merged back into the last dim: `query` is `[B, S, H * Dk]`,
    `key` `[B, T, G * Dk]`, `value` `[B, T, G * Dv]` and the result
    `[B, S, H * Dv]`, where head `h` owns columns `[h * D, (h + 1) * D)`.
    `H` is `num_heads`; `G`, `kv_num_heads`, is `H` when absent, else a
    divisor of it: grouped-query attention, where query head `h` reads key
    and value head `g = h / (H / G)`.
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
    `Attention` (opset 23) on 3-D inputs, causal masking and grouped-query
    attention included (the causal bias is the mask; the expansion's repeat
    of K's and V's heads is `kv_num_heads`).

    ```mlir
    %y = fused.attention %q, %k, %v, %mask {num_heads = 12 : i64, scale = 0.125 : f32} : (tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<?x1x1x128xf32>) -> tensor<?x128x768xf32>
    %z = fused.attention %q, %k4, %v4, %none {num_heads = 12 : i64, kv_num_heads = 4 : i64, scale = 0.125 : f32} : (tensor<?x128x768xf32>, tensor<?x128x256xf32>, tensor<?x128x256xf32>, none) -> tensor<?x128x768xf32>
    ```
  }];
  let arguments = (ins TensorOf<[F16, BF16, F32, F64]>:$query,
                       TensorOf<[F16, BF16, F32, F64]>:$key,
                       TensorOf<[F16, BF16, F32, F64]>:$value,
                       AnyTypeOf<[TensorOf<[F16, BF16, F32, F64]>, NoneType]>:$mask,
                       I64Attr:$num_heads,
                       OptionalAttr<I64Attr>:$kv_num_heads,
                       F32Attr:$scale);
  let results = (outs TensorOf<[F16, BF16, F32, F64]>:$Y);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Shapes may refine each other: `?` matches any size.
    static bool isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                        ::mlir::TypeRange rhs);
    /// The heads of key and value: kv_num_heads, else num_heads.
    int64_t getKeyValueHeads() {
      return getKvNumHeads().value_or(getNumHeads());
    }
  }];
}

#endif // ONNXC_DIALECTS_FUSED_IR_FUSEDATTENTION_TD
