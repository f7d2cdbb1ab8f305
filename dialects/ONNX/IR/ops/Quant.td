//===- Quant.td - onnx quantization ops --------------------*- tablegen -*-===//
//
// Linear quantization: q = saturate(round(x / scale) + zero_point) with
// round half to even, x = (q - zero_point) * scale, and the integer matmul
// and convolution ops that compute on 8-bit values with 32-bit accumulators.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_QUANT_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_QUANT_TD

def ONNX_Int8Tensor : TensorOf<[I8, UI8]>;
def ONNX_OptInt8Tensor : AnyTypeOf<[ONNX_Int8Tensor, NoneType]>;
// What QuantizeLinear produces and DequantizeLinear reads (ONNX 1.22).
def ONNX_QuantTensor : TensorOf<[I<2>, UI<2>, I<4>, UI<4>, I8, UI8, I16, UI16,
                                 F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
                                 ONNX_F4E2M1]>;
def ONNX_OptQuantTensor : AnyTypeOf<[ONNX_QuantTensor, NoneType]>;

def ONNX_QuantizeLinearOp : ONNX_InferredOp<"QuantizeLinear"> {
  let summary = "linear quantization to narrow integers or floats";
  let description = [{
    Models the ONNX `QuantizeLinear` operator (opsets 10 to 25): to an integer type, `y = saturate(round(x /
    y_scale) + y_zero_point)`, rounding half to even and saturating to the
    range of y's type, the zero point's (uint8 when it is absent); to a
    float8 type, `y = Cast(x / y_scale)` with `saturate` (the zero point, if
    any, is zero); to FLOAT4E2M1, `y = Cast(x / y_scale + y_zero_point)`.
    `y_scale` and `y_zero_point` are scalars (per tensor), 1-D along
    `axis` (per axis), or, with opset 21's `block_size` B > 0, of x's rank
    and shape but `ceil(d / B)` along `axis` (blocked: element i along
    `axis` reads parameter i / B).

    ```mlir
    %y = onnx.QuantizeLinear %x, %s, %zp : (tensor<1x3x4xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x4xui8>
    ```
  }];
  let arguments = (ins TensorOf<[F16, BF16, F32, I32]>:$x,
                       ONNX_FloatTensor:$y_scale,
                       ONNX_OptQuantTensor:$y_zero_point,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$saturate,
                       DefaultValuedAttr<I64Attr, "0">:$block_size);
  let results = (outs ONNX_QuantTensor:$y);
}

def ONNX_DequantizeLinearOp : ONNX_InferredOp<"DequantizeLinear"> {
  let summary = "linear dequantization of narrow integers or floats";
  let description = [{
    Models the ONNX `DequantizeLinear` operator (opsets 10 to 25):
    `y = (x - x_zero_point) * x_scale`, of the scale's
    element type, the difference exact (in i32 for integers, in f32 for the
    float8 and float4 types). `x_scale` and `x_zero_point` are scalars (per
    tensor), 1-D along `axis` (per axis), or blocked along `axis` by
    `block_size` as in QuantizeLinear. An int32 `x` has no zero point
    (or a zero one).

    ```mlir
    %y = onnx.DequantizeLinear %x, %s, %zp : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
    %z = onnx.DequantizeLinear %w, %s, %none : (tensor<4xf8E4M3FN>, tensor<f32>, none) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[ONNX_QuantTensor, TensorOf<[I32]>]>:$x,
                       ONNX_FloatTensor:$x_scale,
                       AnyTypeOf<[ONNX_QuantTensor, TensorOf<[I32]>, NoneType]>:$x_zero_point,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$block_size);
  let results = (outs ONNX_FloatTensor:$y);
}

def ONNX_DynamicQuantizeLinearOp : ONNX_InferredOp<"DynamicQuantizeLinear"> {
  let summary = "quantization to uint8 with a scale and zero point computed from the data";
  let description = [{
    Models the ONNX `DynamicQuantizeLinear` operator (opset 11): with
    `lo = min(0, min(x))` and `hi = max(0, max(x))`, `y_scale = (hi - lo) /
    255`, `y_zero_point = saturate(round(-lo / y_scale))` and `y` the
    QuantizeLinear of `x` with them.

    ```mlir
    %y, %s, %zp = onnx.DynamicQuantizeLinear %x : (tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<f32>, tensor<ui8>)
    ```
  }];
  let arguments = (ins TensorOf<[F32]>:$x);
  let results = (outs TensorOf<[UI8]>:$y, TensorOf<[F32]>:$y_scale,
                      TensorOf<[UI8]>:$y_zero_point);
}

def ONNX_MatMulIntegerOp : ONNX_InferredOp<"MatMulInteger"> {
  let summary = "matrix product of 8-bit integers into int32";
  let description = [{
    Models the ONNX `MatMulInteger` operator (opset 10): MatMul of
    `A - a_zero_point` and `B - b_zero_point` accumulated in int32. A zero
    point is a scalar (or one element), or per row of A (`[M]`) and per
    column of B (`[N]`).

    ```mlir
    %y = onnx.MatMulInteger %a, %b, %za, %zb : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x2xi32>
    ```
  }];
  let arguments = (ins ONNX_Int8Tensor:$A, ONNX_Int8Tensor:$B,
                       ONNX_OptInt8Tensor:$a_zero_point,
                       ONNX_OptInt8Tensor:$b_zero_point);
  let results = (outs TensorOf<[I32]>:$Y);
}

def ONNX_QLinearMatMulOp : ONNX_InferredOp<"QLinearMatMul"> {
  let summary = "quantized matrix product";
  let description = [{
    Models the ONNX `QLinearMatMul` operator (opset 10): the int32 product of
    `a - a_zero_point` and `b - b_zero_point` (as MatMulInteger) requantized
    to `y`'s type: `saturate(round(acc * a_scale * b_scale / y_scale) +
    y_zero_point)`. Scales and zero points are per tensor, or per row of `a`
    and per column of `b` and `y`.

    ```mlir
    %y = onnx.QLinearMatMul %a, %as, %az, %b, %bs, %bz, %ys, %yz : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
    ```
  }];
  let arguments = (ins ONNX_Int8Tensor:$a, ONNX_FloatTensor:$a_scale,
                       ONNX_Int8Tensor:$a_zero_point,
                       ONNX_Int8Tensor:$b, ONNX_FloatTensor:$b_scale,
                       ONNX_Int8Tensor:$b_zero_point,
                       ONNX_FloatTensor:$y_scale,
                       ONNX_Int8Tensor:$y_zero_point);
  let results = (outs ONNX_Int8Tensor:$y);
}

/// Conv's attributes.
defvar ONNX_ConvAttrs = (ins
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DefaultValuedAttr<I64Attr, "1">:$group,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);

def ONNX_ConvIntegerOp : ONNX_InferredOp<"ConvInteger"> {
  let summary = "2-D convolution of 8-bit integers into int32";
  let description = [{
    Models the ONNX `ConvInteger` operator (opset 10) for 2-D images in
    NCHW: Conv of `x - x_zero_point` (padding holds the zero point, so
    contributes nothing) and `w - w_zero_point`, accumulated in int32.
    `x_zero_point` is a scalar, `w_zero_point` a scalar or per output
    channel (`[M]`). Attributes are Conv's.

    ```mlir
    %y = onnx.ConvInteger %x, %w, %zx, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>, tensor<ui8>, none) -> tensor<1x1x4x4xi32>
    ```
  }];
  let arguments = !con((ins ONNX_Int8Tensor:$x, ONNX_Int8Tensor:$w,
                            ONNX_OptInt8Tensor:$x_zero_point,
                            ONNX_OptInt8Tensor:$w_zero_point),
                       ONNX_ConvAttrs);
  let results = (outs TensorOf<[I32]>:$y);
}

def ONNX_QLinearConvOp : ONNX_InferredOp<"QLinearConv"> {
  let summary = "quantized 2-D convolution";
  let description = [{
    Models the ONNX `QLinearConv` operator (opset 10) for 2-D images in
    NCHW: the int32 convolution of `x - x_zero_point` and `w - w_zero_point`
    (as ConvInteger) plus the int32 bias `B` (scale `x_scale * w_scale`),
    requantized to `y`'s type: `saturate(round(acc * x_scale * w_scale /
    y_scale) + y_zero_point)`. `w_scale` and `w_zero_point` are per tensor
    or per output channel (`[M]`), the others per tensor.

    ```mlir
    %y = onnx.QLinearConv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %none : (tensor<1x1x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<1x1x1x1xui8>, tensor<1xf32>, tensor<1xui8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x1x7x7xui8>
    ```
  }];
  let arguments = !con((ins ONNX_Int8Tensor:$x, ONNX_FloatTensor:$x_scale,
                            ONNX_Int8Tensor:$x_zero_point,
                            ONNX_Int8Tensor:$w, ONNX_FloatTensor:$w_scale,
                            ONNX_Int8Tensor:$w_zero_point,
                            ONNX_FloatTensor:$y_scale,
                            ONNX_Int8Tensor:$y_zero_point,
                            AnyTypeOf<[TensorOf<[I32]>, NoneType]>:$B),
                       ONNX_ConvAttrs);
  let results = (outs ONNX_Int8Tensor:$y);
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_QUANT_TD
