//===- FusedNBits.td - fused.matmul_nbits ------------------*- tablegen -*-===//
//
// A product with weights quantized to 4 bits in blocks (ONNX Runtime's
// com.microsoft MatMulNBits), kept packed for the CPU kernel that
// dequantizes them in registers. Kept apart from FusedOps.td (the
// activation fusions) so that each family grows on its own.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_FUSED_IR_FUSEDNBITS_TD
#define ONNXC_DIALECTS_FUSED_IR_FUSEDNBITS_TD

def Fused_MatMulNBitsOp : Op<Fused_Dialect, "matmul_nbits",
    [Pure, AttrSizedOperandSegments,
     DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A times the transpose of 4-bit block-quantized weights";
  let description = [{
    `Y[..., n] = sum_k A[..., k] * W[n, k] (+ bias[n])`, with `W` the
    `N x K` weights that `B` holds quantized: com.microsoft MatMulNBits
    (ONNX Runtime's contrib opset 1) in its 4-bit form with unsigned packed
    zero points. The importer builds it for a constant `B` when compiling for
    the CPU; the lowering calls a kernel that reads `B` as it is packed and
    dequantizes it in registers.

    Row `n` of `W` is cut along `K` into `blocks = ceil(K / block_size)`
    blocks; `B` is `[N, blocks, block_size / 2]` bytes, each holding two
    unsigned `bits`-bit values, the lower nibble first (the last block of a
    `K` that `block_size` does not divide is padded). Block `j` of row `n`
    dequantizes as `W = (q - z) * scales[n * blocks + j]`, `z` the 4 bits at
    position `j` of row `n` of `zero_points` (`N` rows of `ceil(blocks / 2)`
    bytes, packed as `B`) or 8 without zero points. `bits` is 4 (8 is not
    modeled yet); `block_size` a power of two from 16 to 256.

    ```mlir
    %y = fused.matmul_nbits %a, %b, %scales zero_points(%zp) bias(%bias) {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>, tensor<8xui8>, tensor<8xf32>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins TensorOf<[F32]>:$A,
                       TensorOf<[UI8, I8]>:$B,
                       TensorOf<[F32]>:$scales,
                       Optional<TensorOf<[UI8, I8]>>:$zero_points,
                       Optional<TensorOf<[F32]>>:$bias,
                       I64Attr:$K,
                       I64Attr:$N,
                       I64Attr:$bits,
                       I64Attr:$block_size);
  let results = (outs TensorOf<[F32]>:$Y);
  let assemblyFormat = [{
    $A `,` $B `,` $scales (`zero_points` `(` $zero_points^ `)`)?
    (`bias` `(` $bias^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Shapes may refine each other: `?` matches any size.
    static bool isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                        ::mlir::TypeRange rhs);
    /// The blocks of each row of the weights: ceil(K / block_size).
    int64_t getNumBlocks() {
      int64_t k = getK(), blockSize = getBlockSize();
      return blockSize > 0 ? (k + blockSize - 1) / blockSize : 0;
    }
  }];
}

#endif // ONNXC_DIALECTS_FUSED_IR_FUSEDNBITS_TD
