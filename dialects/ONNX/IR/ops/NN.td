//===- NN.td - onnx neural-network ops ---------------------*- tablegen -*-===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_NN_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_NN_TD

def ONNX_MatMulOp : ONNX_InferredOp<"MatMul"> {
  let summary = "matrix product with numpy semantics";
  let description = [{
    Models the ONNX `MatMul` operator (opsets 9 to 13), like `numpy.matmul`:
    1-D operands are promoted to matrices and the promoted dim removed again,
    leading (batch) dims broadcast.

    ```mlir
    %y = onnx.MatMul %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$A, ONNX_NumericTensor:$B);
  let results = (outs ONNX_NumericTensor:$Y);
}

def ONNX_GemmOp : ONNX_InferredOp<"Gemm"> {
  let summary = "general matrix multiply: alpha * A' B' + beta * C";
  let description = [{
    Models the ONNX `Gemm` operator (opsets 7 to 13): `Y = alpha * A' * B' +
    beta * C` where `A'` is `A` transposed when `transA` is 1 (likewise `B'`),
    and `C` (optional) broadcasts unidirectionally to `[M, N]`.

    ```mlir
    %y = onnx.Gemm %a, %b, %c {transB = 1 : i64} : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$A, ONNX_NumericTensor:$B,
                       ONNX_OptTensor:$C,
                       DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                       DefaultValuedAttr<F32Attr, "1.0">:$beta,
                       DefaultValuedAttr<I64Attr, "0">:$transA,
                       DefaultValuedAttr<I64Attr, "0">:$transB);
  let results = (outs ONNX_NumericTensor:$Y);
}

def ONNX_ConvOp : ONNX_InferredOp<"Conv"> {
  let summary = "grouped convolution (cross-correlation)";
  let description = [{
    Models the ONNX `Conv` operator (opsets 1 to 11) over 1 to 3 spatial
    dims, channels first: input `X [N, C, D1, ...]`, weights
    `W [M, C/group, k1, ...]`, optional bias `B [M]`. `pads` holds the begin
    pads of each spatial dim, then the end pads; `auto_pad` is NOTSET,
    SAME_UPPER, SAME_LOWER or VALID.

    ```mlir
    %y = onnx.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X, ONNX_FloatTensor:$W,
                       ONNX_OptTensor:$B,
                       DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$pads,
                       OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs ONNX_FloatTensor:$Y);
}

def ONNX_ConvTransposeOp : ONNX_InferredOp<"ConvTranspose"> {
  let summary = "grouped transposed convolution";
  let description = [{
    Models the ONNX `ConvTranspose` operator (opsets 1 to 11), the gradient
    of Conv with respect to its input, over 1 to 3 spatial dims, channels
    first: input `X [N, C, D1, ...]`, weights `W [C, M/group, k1, ...]`,
    optional bias `B [M]`. Along each spatial dim the full output has
    `stride * (in - 1) + output_padding + (k - 1) * dilation + 1` elements,
    of which `pads` (begin pads, then end pads) are cut. With `output_shape`
    (the spatial sizes) or auto_pad SAME_UPPER/SAME_LOWER (output `in *
    stride`) the pads are derived: the total is split evenly, the odd one at
    the end for SAME_UPPER and NOTSET, at the begin for SAME_LOWER; an
    `output_shape` beyond the full output is filled with the bias.

    ```mlir
    %y = onnx.ConvTranspose %x, %w, %none {strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<8x4x2x2xf32>, none) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X, ONNX_FloatTensor:$W,
                       ONNX_OptTensor:$B,
                       DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                       OptionalAttr<DenseI64ArrayAttr>:$output_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$pads,
                       OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs ONNX_FloatTensor:$Y);
}

/// A pooling op over channels-first input.
class ONNX_PoolOp<string mnemonic, string what, dag extraAttrs,
                  Type operandType = ONNX_FloatTensor>
    : ONNX_InferredOp<mnemonic> {
  let summary = what # " pooling";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 7 to 19) over the
    spatial dims of channels-first input `[N, C, D1, ...]` (1-D to 3-D
    windows are lowered): the }] # what # [{ of each `kernel_shape` window.
    `pads` holds the begin pads of each spatial dim, then the end pads;
    `ceil_mode` rounds the output size up.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
    ```
  }];
  let arguments = !con((ins operandType:$X,
                       DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
                       DefaultValuedAttr<I64Attr, "0">:$ceil_mode,
                       DenseI64ArrayAttr:$kernel_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$pads,
                       OptionalAttr<DenseI64ArrayAttr>:$strides), extraAttrs);
  let results = (outs operandType:$Y);
}

// MaxPool also takes 8-bit integers (opset 12).
// The second result `Indices` holds the flat index into X of each maximum
// (the first one in window order): over [N, C, D1, ...] in row-major order
// (`storage_order` 0), or with the spatial dims in column-major order
// (`storage_order` 1). It is computed only where it is used.
def ONNX_MaxPoolOp : ONNX_PoolOp<"MaxPool", "maximum",
    (ins OptionalAttr<DenseI64ArrayAttr>:$dilations,
         DefaultValuedAttr<I64Attr, "0">:$storage_order),
    TensorOf<[F16, BF16, F32, F64, I8, UI8]>> {
  let results = (outs TensorOf<[F16, BF16, F32, F64, I8, UI8]>:$Y,
                      ONNX_I64Tensor:$Indices);
}
def ONNX_AveragePoolOp : ONNX_PoolOp<"AveragePool", "average",
    (ins DefaultValuedAttr<I64Attr, "0">:$count_include_pad,
         OptionalAttr<DenseI64ArrayAttr>:$dilations)>;

/// A pooling op over all spatial dims.
class ONNX_GlobalPoolOp<string mnemonic, string what>
    : ONNX_InferredOp<mnemonic> {
  let summary = what # " over all spatial dims";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opset 1): the }] # what #
    [{ over every dim after the first two, kept as size-1 dims.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X);
  let results = (outs ONNX_FloatTensor:$Y);
}

def ONNX_GlobalAveragePoolOp : ONNX_GlobalPoolOp<"GlobalAveragePool", "average">;
def ONNX_GlobalMaxPoolOp : ONNX_GlobalPoolOp<"GlobalMaxPool", "maximum">;

def ONNX_BatchNormalizationOp : ONNX_InferredOp<"BatchNormalization"> {
  let summary = "batch normalization";
  let description = [{
    Models the ONNX `BatchNormalization` operator (opsets 9 to 15):
    `Y = (X - mean) / sqrt(var + epsilon) * scale + B` per channel (dim 1).
    In inference mode (`training_mode = 0`) `mean` and `var` are `input_mean`
    and `input_var` and `Y` is the only result. In training mode they are the
    statistics of X over every dim but 1 (the variance without Bessel's
    correction), and two more results follow `Y`: `running_mean =
    input_mean * momentum + mean * (1 - momentum)` and `running_var`, alike.

    ```mlir
    %y = onnx.BatchNormalization %x, %s, %b, %m, %v : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X, ONNX_FloatTensor:$scale,
                       ONNX_FloatTensor:$B, ONNX_FloatTensor:$input_mean,
                       ONNX_FloatTensor:$input_var,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon,
                       DefaultValuedAttr<F32Attr, "0.9">:$momentum,
                       DefaultValuedAttr<I64Attr, "0">:$training_mode);
  // Y, then running_mean and running_var in training mode.
  let results = (outs Variadic<ONNX_FloatTensor>:$outputs);
}

def ONNX_InstanceNormalizationOp : ONNX_InferredOp<"InstanceNormalization"> {
  let summary = "normalization of each instance and channel";
  let description = [{
    Models the ONNX `InstanceNormalization` operator (opsets 6 to 21; opset
    1's `consumed_inputs` is dropped on import):
    `output = scale * (input - mean) / sqrt(var + epsilon) + B`, with the mean
    and variance of each (batch, channel) pair over the spatial dims and
    `scale` and `B` per channel.

    ```mlir
    %y = onnx.InstanceNormalization %x, %s, %b {epsilon = 1.000000e-02 : f32} : (tensor<2x3x?x?xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x?x?xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$input, ONNX_FloatTensor:$scale,
                       ONNX_FloatTensor:$B,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_SoftmaxOp : ONNX_InferredOp<"Softmax"> {
  let summary = "softmax along one axis";
  let description = [{
    Models the ONNX `Softmax` operator (opset 13 semantics): the normalized
    exponential along `axis`. Opsets 1 to 12 (which flatten to 2-D at `axis`)
    are imported as this op when `axis` is the last dim.

    ```mlir
    %y = onnx.Softmax %x {axis = -1 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_LayerNormalizationOp : ONNX_InferredOp<"LayerNormalization"> {
  let summary = "layer normalization over the trailing dims from `axis`";
  let description = [{
    Models the ONNX `LayerNormalization` operator (opset 17):
    `Y = (X - mean) / sqrt(var + epsilon) * Scale + B`, mean and variance over
    dims `axis..rank-1`. `Mean` and `InvStdDev` (`1 / sqrt(var + epsilon)`)
    have the dims of `X` before `axis` and size 1 after; their element type is
    `stash_type` (an ONNX data type code, float by default), the precision of
    the statistics.

    ```mlir
    %y, %m, %r = onnx.LayerNormalization %x, %s, %b {axis = -1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X, ONNX_FloatTensor:$Scale,
                       ONNX_OptTensor:$B,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon,
                       DefaultValuedAttr<I64Attr, "1">:$stash_type);
  let results = (outs ONNX_FloatTensor:$Y, ONNX_FloatTensor:$Mean,
                      ONNX_FloatTensor:$InvStdDev);
}

def ONNX_DropoutOp : ONNX_InferredOp<"Dropout"> {
  let summary = "dropout in inference mode (the identity)";
  let description = [{
    Models the ONNX `Dropout` operator (opsets 7 to 13) for inference: `output`
    is `data` and the optional `mask` is all true. A `training_mode` input
    that is not a constant false is rejected by the lowering.

    ```mlir
    %y, %m = onnx.Dropout %x, %none, %none : (tensor<4xf32>, none, none) -> (tensor<4xf32>, tensor<4xi1>)
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_OptTensor:$ratio,
                       ONNX_OptTensor:$training_mode,
                       OptionalAttr<I64Attr>:$seed);
  let results = (outs ONNX_Tensor:$output, ONNX_BoolTensor:$mask);
}

/// An op of Softmax's form along one axis (opset 13 semantics).
class ONNX_SoftmaxLikeOp<string mnemonic, string what>
    : ONNX_InferredOp<mnemonic> {
  let summary = what # " along one axis";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 1 to 13, opset 13
    semantics): the }] # what # [{ along `axis`. Opsets 1 to 12 (which
    flatten to 2-D at `axis`) are imported as this op over the flattened
    input, reshaped back.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x {axis = -1 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_LogSoftmaxOp : ONNX_SoftmaxLikeOp<"LogSoftmax", "log of the softmax">;
def ONNX_HardmaxOp : ONNX_SoftmaxLikeOp<"Hardmax",
    "one-hot of the first maximum">;

def ONNX_LpNormalizationOp : ONNX_InferredOp<"LpNormalization"> {
  let summary = "division by the L1 or L2 norm along an axis";
  let description = [{
    Models the ONNX `LpNormalization` operator (opset 1): `input`
    divided by its `p`-norm (`p` is 1 or 2) along `axis`; zeros where that
    norm is zero.

    ```mlir
    %y = onnx.LpNormalization %x {axis = 1 : i64, p = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<I64Attr, "2">:$p);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_MeanVarianceNormalizationOp
    : ONNX_InferredOp<"MeanVarianceNormalization"> {
  let summary = "normalization to zero mean and unit variance over axes";
  let description = [{
    Models the ONNX `MeanVarianceNormalization` operator (opsets 9 to 13):
    `Y = (X - mean) / (sqrt(var) + 1e-9)`, mean and (biased) variance over
    `axes` (by default 0, 2 and 3: per channel of NCHW data).

    ```mlir
    %y = onnx.MeanVarianceNormalization %x : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 2, 3}">:$axes);
  let results = (outs ONNX_FloatTensor:$Y);
}

def ONNX_NegativeLogLikelihoodLossOp
    : ONNX_InferredOp<"NegativeLogLikelihoodLoss"> {
  let summary = "negative log likelihood loss";
  let description = [{
    Models the ONNX `NegativeLogLikelihoodLoss` operator (opsets 12 to 13):
    `input` holds log probabilities `[N, C, d1, ..., dk]` and `target` class
    indices `[N, d1, ..., dk]`; each loss element is
    `-input[n, target[n, d], d] * weight[target[n, d]]` (weight 1 without
    `weight`), 0 where the target is `ignore_index`. `reduction` is `none`
    (the losses, of the target's shape), `sum`, or `mean` (the sum divided by
    the sum of the weights applied).

    ```mlir
    %l = onnx.NegativeLogLikelihoodLoss %x, %t, %none {reduction = "sum"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> tensor<f32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$input, ONNX_IndexTensor:$target,
                       ONNX_OptTensor:$weight,
                       OptionalAttr<I64Attr>:$ignore_index,
                       DefaultValuedStrAttr<StrAttr, "mean">:$reduction);
  let results = (outs ONNX_FloatTensor:$loss);
}

def ONNX_SoftmaxCrossEntropyLossOp
    : ONNX_InferredOp<"SoftmaxCrossEntropyLoss"> {
  let summary = "softmax cross entropy loss";
  let description = [{
    Models the ONNX `SoftmaxCrossEntropyLoss` operator (opsets 12 to 13):
    `log_prob` is the LogSoftmax of `scores [N, C, d1, ..., dk]` along dim 1,
    and `output` the NegativeLogLikelihoodLoss of `log_prob` with `labels`,
    `weights`, `ignore_index` and `reduction`.

    ```mlir
    %l, %p = onnx.SoftmaxCrossEntropyLoss %x, %y, %none : (tensor<3x5xf32>, tensor<3xi64>, none) -> (tensor<f32>, tensor<3x5xf32>)
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$scores, ONNX_IndexTensor:$labels,
                       ONNX_OptTensor:$weights,
                       OptionalAttr<I64Attr>:$ignore_index,
                       DefaultValuedStrAttr<StrAttr, "mean">:$reduction);
  let results = (outs ONNX_FloatTensor:$output, ONNX_FloatTensor:$log_prob);
}

def ONNX_EinsumOp : ONNX_InferredOp<"Einsum"> {
  let summary = "Einstein summation";
  let description = [{
    Models the ONNX `Einsum` operator (opset 12): `equation` names the
    dims of each input by letters (`...` for leading broadcast dims); letters
    missing from the output (after `->`, or else the letters seen once, in
    alphabetical order) are summed over. A letter repeated in one input takes
    its diagonal.

    ```mlir
    %y = onnx.Einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
    ```
  }];
  let arguments = (ins Variadic<ONNX_NumericTensor>:$Inputs, StrAttr:$equation);
  let results = (outs ONNX_NumericTensor:$Output);
}

def ONNX_ResizeOp : ONNX_InferredOp<"Resize"> {
  let summary = "resize a tensor by interpolation";
  let description = [{
    Models the ONNX `Resize` operator (opsets 10 to 27, in opset 13's form:
    the importer spreads opset 18's `axes` over every dim and turns its
    `keep_aspect_ratio_policy` into scales) and
    the deprecated `Upsample` (opsets 7 to 9). Each output element is
    interpolated from `X` at the coordinate that
    `coordinate_transformation_mode` (`half_pixel`, `half_pixel_symmetric`
    (opset 19: half_pixel shifted by `in / 2 * (1 - out / (in * scale))`),
    `pytorch_half_pixel`, `align_corners`, `asymmetric` or
    `tf_crop_and_resize`, which reads `roi` and writes `extrapolation_value`
    outside it) maps it to. `mode` is
    `nearest` (rounded by `nearest_mode`: `round_prefer_floor`,
    `round_prefer_ceil`, `floor` or `ceil`), `linear` (n-linear) or `cubic`
    (coefficient `cubic_coeff_a`; `exclude_outside` drops and renormalizes
    the taps outside the input). Opset 18's `antialias` (linear and cubic
    only) stretches the filter by `1 / scale` where a dim is downsampled,
    so that every input element it covers contributes, the weights
    normalized by their sum. The output size of each dim is `sizes`, or
    `floor(in * scales)`; one of the two is given (the other is `none`), or
    both, where the output size is `sizes` and the coordinates map by
    `scales` (the importer's form of `keep_aspect_ratio_policy`, whose
    size rounds `scale * in` half up). Opset 10's `Resize(X, scales)` and `Upsample` are imported with
    `asymmetric` coordinates and `floor` rounding.

    ```mlir
    %y = onnx.Resize %x, %none, %s, %none {mode = "linear"} : (tensor<1x3x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x3x?x?xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$X, ONNX_OptTensor:$roi,
                       ONNX_OptTensor:$scales, ONNX_OptI64Tensor:$sizes,
                       DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
                       DefaultValuedAttr<F32Attr, "-0.75">:$cubic_coeff_a,
                       DefaultValuedAttr<I64Attr, "0">:$exclude_outside,
                       DefaultValuedAttr<F32Attr, "0.0">:$extrapolation_value,
                       DefaultValuedAttr<I64Attr, "0">:$antialias,
                       DefaultValuedStrAttr<StrAttr, "nearest">:$mode,
                       DefaultValuedStrAttr<StrAttr, "round_prefer_floor">:$nearest_mode);
  let results = (outs ONNX_NumericTensor:$Y);
}

def ONNX_GridSampleOp : ONNX_InferredOp<"GridSample"> {
  let summary = "sample an image at grid coordinates";
  let description = [{
    Models the ONNX `GridSample` operator (opsets 16 to 22; opset 20's
    `linear` and `cubic` import as `bilinear` and `bicubic`): output
    `[N, C, H_out, W_out]` samples `X [N, C, H, W]` at the coordinates
    `grid [N, H_out, W_out, 2]` (x, then y, normalized to [-1, 1]: the
    centers of the corner pixels with `align_corners`, their outer edges
    without). Volumetric (opset 20's N-D form with 3 spatial dims): output
    `[N, C, D_out, H_out, W_out]` samples `X [N, C, D, H, W]` at
    `grid [N, D_out, H_out, W_out, 3]` (x, y, then z along D). `mode` is
    `bilinear` (trilinear in 3-D), `nearest` (rounding half to even) or
    `bicubic` (coefficient -0.75, 4 taps along each dim); `padding_mode`
    gives what lies outside: `zeros`, `border` (the edge pixels) or
    `reflection` (mirrored at the border).

    ```mlir
    %y = onnx.GridSample %x, %g {mode = "bilinear"} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
    %v = onnx.GridSample %x3, %g3 {mode = "nearest"} : (tensor<1x3x4x8x8xf32>, tensor<1x2x4x4x3xf32>) -> tensor<1x3x2x4x4xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X, ONNX_FloatTensor:$grid,
                       DefaultValuedAttr<I64Attr, "0">:$align_corners,
                       DefaultValuedStrAttr<StrAttr, "bilinear">:$mode,
                       DefaultValuedStrAttr<StrAttr, "zeros">:$padding_mode);
  let results = (outs ONNX_FloatTensor:$Y);
}

def ONNX_Col2ImOp : ONNX_InferredOp<"Col2Im"> {
  let summary = "sum sliding blocks back into an image (the inverse of im2col)";
  let description = [{
    Models the ONNX `Col2Im` operator (opsets 18 to 27): `input`
    `[N, C * prod(block_shape), L]` holds, for each of the `L` positions of
    a block of `block_shape` sliding over the image of `image_shape` (padded
    by `pads`, begin pads then end pads, with `strides` and `dilations` as in
    Conv; row-major order), the block's elements. The output
    `[N, C, image_shape...]` sums every element into its image position;
    those in the padding are dropped. `image_shape` and `block_shape` are
    1-D int64 tensors of one length, the number of spatial dims, perhaps
    known only at run time.

    ```mlir
    %y = onnx.Col2Im %x, %image, %block : (tensor<1x5x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$input, ONNX_I64Tensor:$image_shape,
                       ONNX_I64Tensor:$block_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$pads,
                       OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs ONNX_NumericTensor:$output);
}

def ONNX_DeformConvOp : ONNX_InferredOp<"DeformConv"> {
  let summary = "convolution whose taps sample the input at learned offsets";
  let description = [{
    Models the ONNX `DeformConv` operator (opsets 19 to 27) over 2 spatial
    dims: as Conv (`X [N, C, H, W]`, `W [M, C/group, kH, kW]`, optional
    bias `B [M]`, `pads`, `strides`, `dilations`, `group`), but each kernel
    tap reads `X` bilinearly (0 outside) at its position moved by
    `offset [N, offset_group * kH * kW * 2, oH, oW]` (for each offset group
    and tap, the move along H then along W) and scaled by the optional
    `mask [N, offset_group * kH * kW, oH, oW]` (1 when absent). The input
    channels fall into `offset_group` groups, each with its own offsets.

    ```mlir
    %y = onnx.DeformConv %x, %w, %off, %none, %none {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>, none, none) -> tensor<1x1x2x2xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X, ONNX_FloatTensor:$W,
                       ONNX_FloatTensor:$offset, ONNX_OptTensor:$B,
                       ONNX_OptTensor:$mask,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                       DefaultValuedAttr<I64Attr, "1">:$offset_group,
                       OptionalAttr<DenseI64ArrayAttr>:$pads,
                       OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs ONNX_FloatTensor:$Y);
}

def ONNX_AffineGridOp : ONNX_InferredOp<"AffineGrid"> {
  let summary = "sampling grid of a batch of affine transforms";
  let description = [{
    Models the ONNX `AffineGrid` operator (opsets 20 to 27): for `theta`
    `[N, 2, 3]` and `size` `[N, C, H, W]` (a 1-D int64 tensor, perhaps known
    only at run time) the grid `[N, H, W, 2]` holds `theta[n]` applied to the
    homogeneous coordinates `(x, y, 1)` of each position, normalized to
    [-1, 1] (the centers of the corner pixels with `align_corners`, their
    outer edges without); in 3-D, `theta [N, 3, 4]`, `size [N, C, D, H, W]`
    and the grid `[N, D, H, W, 3]` of `(x, y, z, 1)`. The grid is what
    GridSample reads.

    ```mlir
    %g = onnx.AffineGrid %theta, %size : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x?x?x2xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$theta, ONNX_I64Tensor:$size,
                       DefaultValuedAttr<I64Attr, "0">:$align_corners);
  let results = (outs ONNX_FloatTensor:$grid);
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_NN_TD
