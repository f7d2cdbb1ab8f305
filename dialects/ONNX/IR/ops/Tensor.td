//===- Tensor.td - onnx shape, layout and data-movement ops -*- tablegen -*-===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_TENSOR_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_TENSOR_TD

def ONNX_ConstantOp : ONNX_InferredOp<"Constant", [ConstantLike]> {
  let summary = "a constant tensor (a node or a graph initializer)";
  let description = [{
    Models the ONNX `Constant` operator (opsets 1 to 21) and graph
    initializers. The importer turns the `value_float`, `value_ints`, ...
    forms into `value`. Large initializers are held in a dense resource
    (`dense_resource<...>`) so their bytes are not copied.

    ```mlir
    %c = onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs ONNX_Tensor:$output);
  let hasFolder = 1;
  let builders = [OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
    build($_builder, $_state, value.getType(), value);
  }]>];
}

def ONNX_NoValueOp : ONNX_Op<"NoValue"> {
  let summary = "the absent value of an optional input";
  let description = [{
    Stands for an ONNX optional input left empty (an empty name in the node's
    input list). Its result is of type `none`.

    ```mlir
    %none = onnx.NoValue : () -> none
    ```
  }];
  let results = (outs NoneType:$none);
}

def ONNX_IdentityOp : ONNX_InferredOp<"Identity", [SameOperandsAndResultType]> {
  let summary = "the input, unchanged";
  let description = [{
    Models the ONNX `Identity` operator (opsets 1 to 21).

    ```mlir
    %y = onnx.Identity %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input);
  let results = (outs ONNX_Tensor:$output);
  let hasFolder = 1;
}

def ONNX_CastOp : ONNX_InferredOp<"Cast"> {
  let summary = "elementwise conversion to another element type";
  let description = [{
    Models the ONNX `Cast` operator (opsets 6 to 19). `to` is an ONNX
    `TensorProto.DataType` code (1 float, 7 int64, 9 bool, ...). Strings are
    not supported.

    ```mlir
    %y = onnx.Cast %x {to = 7 : i64} : (tensor<4xf32>) -> tensor<4xi64>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, I64Attr:$to,
                       DefaultValuedAttr<I64Attr, "1">:$saturate);
  let results = (outs ONNX_Tensor:$output);
  let hasFolder = 1;
}

def ONNX_CastLikeOp : ONNX_InferredOp<"CastLike"> {
  let summary = "elementwise conversion to the element type of another tensor";
  let description = [{
    Models the ONNX `CastLike` operator (opsets 15 to 19): `input` converted
    as by `Cast` to the element type of `target_type`, whose values are not
    read.

    ```mlir
    %y = onnx.CastLike %x, %like : (tensor<4xf32>, tensor<1xf16>) -> tensor<4xf16>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, ONNX_Tensor:$target_type,
                       DefaultValuedAttr<I64Attr, "1">:$saturate);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_ShapeOp : ONNX_InferredOp<"Shape"> {
  let summary = "the shape of a tensor as a 1-D int64 tensor";
  let description = [{
    Models the ONNX `Shape` operator (opsets 1 to 19): the dims
    `[start, end)` of `data`'s shape (negative values count from the back).

    ```mlir
    %s = onnx.Shape %x : (tensor<?x3xf32>) -> tensor<2xi64>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, OptionalAttr<I64Attr>:$end,
                       DefaultValuedAttr<I64Attr, "0">:$start);
  let results = (outs ONNX_I64Tensor:$shape);
  let hasFolder = 1;
}

def ONNX_ReshapeOp : ONNX_InferredOp<"Reshape"> {
  let summary = "the data in a new shape";
  let description = [{
    Models the ONNX `Reshape` operator (opsets 5 to 21). In `shape`, 0 copies
    the input dim (unless `allowzero` is 1) and one -1 is inferred. The result
    shape is known when `shape` is a constant; otherwise its rank is.

    ```mlir
    %y = onnx.Reshape %x, %s : (tensor<2x6xf32>, tensor<3xi64>) -> tensor<2x3x2xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_I64Tensor:$shape,
                       DefaultValuedAttr<I64Attr, "0">:$allowzero);
  let results = (outs ONNX_Tensor:$reshaped);
  let hasFolder = 1;
}

def ONNX_FlattenOp : ONNX_InferredOp<"Flatten"> {
  let summary = "flatten to 2-D at `axis`";
  let description = [{
    Models the ONNX `Flatten` operator (opsets 1 to 21): the dims before
    `axis` become the first dim and the rest the second.

    ```mlir
    %y = onnx.Flatten %x {axis = 1 : i64} : (tensor<?x16x2x2xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs ONNX_Tensor:$output);
  let hasFolder = 1;
}

def ONNX_TransposeOp : ONNX_InferredOp<"Transpose"> {
  let summary = "permute the dims";
  let description = [{
    Models the ONNX `Transpose` operator (opsets 1 to 21): output dim `i` is
    input dim `perm[i]`; without `perm` the dims are reversed.

    ```mlir
    %y = onnx.Transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$perm);
  let results = (outs ONNX_Tensor:$transposed);
  let hasFolder = 1;
}

def ONNX_ConcatOp : ONNX_InferredOp<"Concat"> {
  let summary = "join tensors along an axis";
  let description = [{
    Models the ONNX `Concat` operator (opsets 4 to 13): all inputs share rank,
    element type and every dim but `axis`.

    ```mlir
    %y = onnx.Concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
    ```
  }];
  let arguments = (ins Variadic<ONNX_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs ONNX_Tensor:$concat_result);
  let hasFolder = 1;
}

def ONNX_SliceOp : ONNX_InferredOp<"Slice"> {
  let summary = "a strided slice along some axes";
  let description = [{
    Models the ONNX `Slice` operator (opsets 10 to 13; opset 1's attributes
    become constant inputs on import). `starts`, `ends`, `axes` and `steps`
    are 1-D int tensors; bounds are clamped as the spec says.

    ```mlir
    %y = onnx.Slice %x, %s, %e, %a, %st : (tensor<10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_IndexTensor:$starts,
                       ONNX_IndexTensor:$ends, ONNX_OptTensor:$axes,
                       ONNX_OptTensor:$steps);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_GatherOp : ONNX_InferredOp<"Gather"> {
  let summary = "gather slices along an axis by index";
  let description = [{
    Models the ONNX `Gather` operator (opsets 1 to 13): `output` has shape
    `data.shape[:axis] + indices.shape + data.shape[axis+1:]`; negative
    indices count from the back.

    ```mlir
    %y = onnx.Gather %x, %i {axis = 0 : i64} : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs ONNX_Tensor:$output);
  let hasFolder = 1;
}

def ONNX_SqueezeOp : ONNX_InferredOp<"Squeeze"> {
  let summary = "remove size-1 dims";
  let description = [{
    Models the ONNX `Squeeze` operator (opset 13 form; opsets 1 and 11 pass
    `axes` as an attribute, which becomes a constant input on import). Without
    `axes`, every static size-1 dim is removed.

    ```mlir
    %y = onnx.Squeeze %x, %axes : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<3x1xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_OptI64Tensor:$axes);
  let results = (outs ONNX_Tensor:$squeezed);
  let hasFolder = 1;
}

def ONNX_UnsqueezeOp : ONNX_InferredOp<"Unsqueeze"> {
  let summary = "insert size-1 dims";
  let description = [{
    Models the ONNX `Unsqueeze` operator (opset 13 form; the older `axes`
    attribute becomes a constant input on import). `axes` index the output.

    ```mlir
    %y = onnx.Unsqueeze %x, %axes : (tensor<3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_I64Tensor:$axes);
  let results = (outs ONNX_Tensor:$expanded);
  let hasFolder = 1;
}

def ONNX_ExpandOp : ONNX_InferredOp<"Expand"> {
  let summary = "broadcast to a shape";
  let description = [{
    Models the ONNX `Expand` operator (opsets 8 to 13): `input` broadcast
    with `shape` (numpy rules, so the result may be larger than `shape`).

    ```mlir
    %y = onnx.Expand %x, %s : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, ONNX_I64Tensor:$shape);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_ConstantOfShapeOp : ONNX_InferredOp<"ConstantOfShape"> {
  let summary = "a tensor of a given shape filled with one value";
  let description = [{
    Models the ONNX `ConstantOfShape` operator (opsets 9 to 21): `value` is a
    one-element tensor (float 0 by default).

    ```mlir
    %y = onnx.ConstantOfShape %s {value = dense<1> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<?x?xi64>
    ```
  }];
  let arguments = (ins ONNX_I64Tensor:$input, OptionalAttr<ElementsAttr>:$value);
  let results = (outs ONNX_Tensor:$output);
  let hasFolder = 1;
}

/// A reduction over `axes` (an input, as in opset 18).
class ONNX_ReduceOp<string mnemonic, string what>
    : ONNX_InferredOp<mnemonic> {
  let summary = "reduce by " # what # " over axes";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opset 18 form: `axes` is an
    optional 1-D input; older opsets' `axes` attribute becomes a constant input
    on import). Without axes every dim is reduced, unless
    `noop_with_empty_axes` is 1. `keepdims` keeps reduced dims as size 1.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$data, ONNX_OptI64Tensor:$axes,
                       DefaultValuedAttr<I64Attr, "1">:$keepdims,
                       DefaultValuedAttr<I64Attr, "0">:$noop_with_empty_axes);
  let results = (outs ONNX_NumericTensor:$reduced);
}

def ONNX_ReduceMeanOp : ONNX_ReduceOp<"ReduceMean", "mean">;
def ONNX_ReduceSumOp : ONNX_ReduceOp<"ReduceSum", "sum">;
def ONNX_ReduceMaxOp : ONNX_ReduceOp<"ReduceMax", "maximum">;

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_TENSOR_TD
