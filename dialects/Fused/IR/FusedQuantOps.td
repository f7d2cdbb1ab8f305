//===- FusedQuantOps.td - The fused dialect's int8 kernel ops -*- tablegen -*-===//
//
// Destination-style ops on tensors or memrefs that the ONNX to linalg
// lowering makes of QLinearMatMul, QLinearConv, MatMulInteger and
// ConvInteger (with a following Cast/Mul/Add rescale or quantized Relu
// folded in), and that convert-fused-to-kernel-calls turns into calls of
// the int8 GEMM of the kernels (lib/Kernels/int8/). Included by FusedOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_FUSED_IR_FUSEDQUANTOPS_TD
#define ONNXC_DIALECTS_FUSED_IR_FUSEDQUANTOPS_TD

include "mlir/Interfaces/DestinationStyleOpInterface.td"

class Fused_QuantKernelOp<string mnemonic, list<Trait> traits = []>
    : Op<Fused_Dialect, mnemonic, traits # [
        DestinationStyleOpInterface,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let results = (outs Optional<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $x `,` $w `,` $x_zero_point `,` $w_zero_point `,` $bias `,` $scale `,`
    $y_zero_point `outs` `(` $init `)` attr-dict `:` type($x) `,` type($w)
    `,` type($x_zero_point) `,` type($w_zero_point) `,` type($bias) `,`
    type($scale) `,` type($y_zero_point) `,` type($init)
    (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
  }];
  string commonDescription = [{
    The activation `x` and the weights `w` hold 8-bit integers (signless;
    `x_signed` and `w_signed` say int8, uint8 otherwise). The parameters are
    1-D: `x_zero_point` (i32, one element), `w_zero_point` (i32, one element
    or one per output channel), `bias` (i32 added to the accumulator, or f32
    added after scaling; empty for none), `scale` (f32, one or one per
    channel; empty for an i32 result) and `y_zero_point` (i32, one element).
    With `acc = sum (x - x_zero_point) * (w - w_zero_point[c]) + bias[c]`
    (i32, exact), the result, by the element type of `init`, is: i32: `acc`;
    f32: `acc * scale[c] + bias[c]`, then max(., 0) with `relu`; i8:
    `saturate(roundeven(acc * scale[c]) + y_zero_point)` as int8 with
    `y_signed`, uint8 otherwise, not below `y_zero_point` with `relu` (the
    scale is ONNX's `x_scale * w_scale[c] / y_scale`, computed ahead).

    On tensors the op returns the filled `init`; on memrefs it writes it.
  }];
}

def Fused_QMatMulOp : Fused_QuantKernelOp<"qmatmul"> {
  let summary = "8-bit integer matrix product with requantization";
  let description = [{
    `Y[M, N] = epilogue(X[M, K] W[K, N])` for the output channels `c` of
    `W`'s columns: the integer core of onnx.QLinearMatMul (opset 10+) and
    onnx.MatMulInteger (opset 10+) whose `B` is 2-D, with batch dims of `A`
    folded into `M`.
  }] # commonDescription # [{

    ```mlir
    %y = fused.qmatmul %x, %w, %xz, %wz, %bias, %scale, %yz outs(%init) : tensor<4x64xi8>, tensor<64x16xi8>, tensor<1xi32>, tensor<16xi32>, tensor<0xi32>, tensor<16xf32>, tensor<1xi32>, tensor<4x16xi8> -> tensor<4x16xi8>
    ```
  }];
  let arguments = (ins AnyShaped:$x, AnyShaped:$w, AnyShaped:$x_zero_point,
                       AnyShaped:$w_zero_point, AnyShaped:$bias,
                       AnyShaped:$scale, AnyShaped:$y_zero_point,
                       AnyShaped:$init, UnitAttr:$x_signed, UnitAttr:$w_signed,
                       UnitAttr:$y_signed, UnitAttr:$relu);
}

def Fused_QConvOp : Fused_QuantKernelOp<"qconv"> {
  let summary = "8-bit integer 2-D convolution with requantization";
  let description = [{
    `Y[N, F, OH, OW] = epilogue(conv(X[N, C, H, W], W[F, C, KH, KW]))` with
    `strides` and `dilations` on an already padded `X` (padded with its zero
    point), the output channels `c` being the filters: the integer core of
    onnx.QLinearConv (opset 10+) and onnx.ConvInteger (opset 10+) with
    `group` 1.
  }] # commonDescription # [{

    ```mlir
    %y = fused.qconv %x, %w, %xz, %wz, %bias, %scale, %yz outs(%init) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, w_signed} : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<1xi32>, tensor<1xi32>, tensor<4xi32>, tensor<4xf32>, tensor<1xi32>, tensor<1x4x6x6xi8> -> tensor<1x4x6x6xi8>
    ```
  }];
  let arguments = (ins AnyShaped:$x, AnyShaped:$w, AnyShaped:$x_zero_point,
                       AnyShaped:$w_zero_point, AnyShaped:$bias,
                       AnyShaped:$scale, AnyShaped:$y_zero_point,
                       AnyShaped:$init, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations, UnitAttr:$x_signed,
                       UnitAttr:$w_signed, UnitAttr:$y_signed, UnitAttr:$relu);
}

#endif // ONNXC_DIALECTS_FUSED_IR_FUSEDQUANTOPS_TD
