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
  let results = (outs ONNX_AnyTensor:$output);
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
    Models the ONNX `Identity` operator (opsets 1 to 21), of any element
    type (float8 and int4 too: the exporter writes a graph output that is a
    constant as an Identity of it), and of sequences and optionals.

    ```mlir
    %y = onnx.Identity %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins ONNX_Value:$input);
  let results = (outs ONNX_Value:$output);
  let hasFolder = 1;
}

def ONNX_CastOp : ONNX_InferredOp<"Cast"> {
  let summary = "elementwise conversion to another element type";
  let description = [{
    Models the ONNX `Cast` operator (opsets 6 to 25). `to` is an ONNX
    `TensorProto.DataType` code (1 float, 7 int64, 9 bool, 17 float8e4m3fn,
    22 int4, ...). Complex numbers are not supported. Strings (8) convert
    to and from integers (8 bits and more), float and double: a float
    becomes its shortest decimal
    that reads back to it, as numpy writes it ("0.1", "1e-05", "100.0",
    "nan", "-inf"), an integer its decimal; a string becomes the number that
    C's strtod or strtoll reads from it ("NaN", "INF", "-INF" included; 0
    where none is read).

    Conversions to a float8 type round to nearest even; with `saturate` (the
    default) values beyond the type's range become its largest finite value
    of that sign (infinities included), without it they become infinity
    (FLOAT8E5M2) or NaN (the others). FLOAT4E2M1 always saturates and has no
    NaN (a NaN becomes -0, as ONNX's reference). The 'fnuz' types have one
    zero and one NaN (0x80). Conversions to INT4, UINT4, INT2 and UINT2 keep
    the low bits of the integer (wrap around), as to the other integers.
    FLOAT8E8M0 rounds as `round_mode` says: "up" (the default), "down" or
    "nearest" (ties up, as ONNX's reference for normal numbers).

    ```mlir
    %y = onnx.Cast %x {to = 17 : i64, saturate = 0 : i64} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
    ```
  }];
  let arguments = (ins ONNX_AnyTensor:$input, I64Attr:$to,
                       DefaultValuedAttr<I64Attr, "1">:$saturate,
                       DefaultValuedAttr<StrAttr, "\"up\"">:$round_mode);
  let results = (outs ONNX_AnyTensor:$output);
  let hasFolder = 1;
}

def ONNX_CastLikeOp : ONNX_InferredOp<"CastLike"> {
  let summary = "elementwise conversion to the element type of another tensor";
  let description = [{
    Models the ONNX `CastLike` operator (opsets 15 to 25): `input` converted
    as by `Cast` (with its `saturate` and `round_mode`) to the element type of
    `target_type`, whose values are not read.

    ```mlir
    %y = onnx.CastLike %x, %like : (tensor<4xf32>, tensor<1xf16>) -> tensor<4xf16>
    ```
  }];
  let arguments = (ins ONNX_AnyTensor:$input, ONNX_AnyTensor:$target_type,
                       DefaultValuedAttr<I64Attr, "1">:$saturate,
                       DefaultValuedAttr<StrAttr, "\"up\"">:$round_mode);
  let results = (outs ONNX_AnyTensor:$output);
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
  let arguments = (ins ONNX_DataTensor:$data, OptionalAttr<I64Attr>:$end,
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
  let arguments = (ins ONNX_DataTensor:$data, ONNX_I64Tensor:$shape,
                       DefaultValuedAttr<I64Attr, "0">:$allowzero);
  let results = (outs ONNX_DataTensor:$reshaped);
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
  let arguments = (ins ONNX_DataTensor:$input,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs ONNX_DataTensor:$output);
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
  let arguments = (ins ONNX_DataTensor:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$perm);
  let results = (outs ONNX_DataTensor:$transposed);
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
  let arguments = (ins Variadic<ONNX_DataTensor>:$inputs, I64Attr:$axis);
  let results = (outs ONNX_DataTensor:$concat_result);
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
  let arguments = (ins ONNX_DataTensor:$data, ONNX_IndexTensor:$starts,
                       ONNX_IndexTensor:$ends, ONNX_OptTensor:$axes,
                       ONNX_OptTensor:$steps);
  let results = (outs ONNX_DataTensor:$output);
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
  let arguments = (ins ONNX_DataTensor:$data, ONNX_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs ONNX_DataTensor:$output);
  let hasFolder = 1;
}

def ONNX_SqueezeOp : ONNX_InferredOp<"Squeeze"> {
  let summary = "remove size-1 dims";
  let description = [{
    Models the ONNX `Squeeze` operator (opset 13 form; opsets 1 and 11 pass
    `axes` as an attribute, which becomes a constant input on import). Without
    `axes`, every size-1 dim is removed: the result's rank is inferred only
    when every dim of `data` is static (a dynamic dim may be 1).

    ```mlir
    %y = onnx.Squeeze %x, %axes : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<3x1xf32>
    ```
  }];
  let arguments = (ins ONNX_DataTensor:$data, ONNX_OptI64Tensor:$axes);
  let results = (outs ONNX_DataTensor:$squeezed);
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
  let arguments = (ins ONNX_DataTensor:$data, ONNX_I64Tensor:$axes);
  let results = (outs ONNX_DataTensor:$expanded);
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
  let arguments = (ins ONNX_DataTensor:$input, ONNX_I64Tensor:$shape);
  let results = (outs ONNX_DataTensor:$output);
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

def ONNX_SizeOp : ONNX_InferredOp<"Size"> {
  let summary = "the number of elements of a tensor";
  let description = [{
    Models the ONNX `Size` operator (opsets 1 to 21): a 0-D int64 tensor
    holding the element count of `data`.

    ```mlir
    %n = onnx.Size %x : (tensor<?x3xf32>) -> tensor<i64>
    ```
  }];
  let arguments = (ins ONNX_DataTensor:$data);
  let results = (outs ONNX_I64Tensor:$size);
  let hasFolder = 1;
}

def ONNX_GatherElementsOp : ONNX_InferredOp<"GatherElements"> {
  let summary = "gather elements along an axis by an index tensor";
  let description = [{
    Models the ONNX `GatherElements` operator (opsets 11 to 13): `indices` has
    the rank of `data`, and `output[i][j]...` is `data` at the same position
    with the `axis` coordinate replaced by `indices[i][j]...` (negative
    indices count from the back). The output has the shape of `indices`.

    ```mlir
    %y = onnx.GatherElements %x, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_ScatterElementsOp : ONNX_InferredOp<"ScatterElements"> {
  let summary = "scatter updates into a copy of data along an axis";
  let description = [{
    Models the ONNX `ScatterElements` operator (opsets 11 to 18; the opset 9
    `Scatter` is imported as this op): a copy of `data` where each element of
    `updates` is written (or combined by `reduction`: `none`, `add`, `mul`,
    `max` or `min`) at its own position with the `axis` coordinate replaced
    by the matching element of `indices`.

    ```mlir
    %y = onnx.ScatterElements %x, %i, %u {axis = 1 : i64, reduction = "add"} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_IndexTensor:$indices,
                       ONNX_Tensor:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedStrAttr<StrAttr, "none">:$reduction);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_GatherNDOp : ONNX_InferredOp<"GatherND"> {
  let summary = "gather slices by index tuples";
  let description = [{
    Models the ONNX `GatherND` operator (opsets 11 to 13): the last dim of
    `indices` holds tuples indexing the dims of `data` after the first
    `batch_dims` (shared by both); each tuple picks an element or a slice.
    The output shape is `indices.shape[:-1] + data.shape[batch_dims + k:]`
    with `k = indices.shape[-1]`.

    ```mlir
    %y = onnx.GatherND %x, %i : (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2xi32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_I64Tensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_ScatterNDOp : ONNX_InferredOp<"ScatterND"> {
  let summary = "scatter slices into a copy of data by index tuples";
  let description = [{
    Models the ONNX `ScatterND` operator (opsets 11 to 18): a copy of `data`
    where each slice of `updates` is written (or combined by `reduction`:
    `none`, `add`, `mul`, `max` or `min`) at the position that the matching
    tuple in the last dim of `indices` names.

    ```mlir
    %y = onnx.ScatterND %x, %i, %u : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_I64Tensor:$indices,
                       ONNX_Tensor:$updates,
                       DefaultValuedStrAttr<StrAttr, "none">:$reduction);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_TriluOp : ONNX_InferredOp<"Trilu"> {
  let summary = "the upper or lower triangle of the trailing matrices";
  let description = [{
    Models the ONNX `Trilu` operator (opset 14): the last two dims of `input`
    are matrices; elements on and above (`upper` = 1) or on and below
    (`upper` = 0) the diagonal `k` (a 0-D int64 input, 0 when absent) are
    kept, the others are zero.

    ```mlir
    %y = onnx.Trilu %x, %k {upper = 0 : i64} : (tensor<4x5xf32>, tensor<i64>) -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, ONNX_OptI64Tensor:$k,
                       DefaultValuedAttr<I64Attr, "1">:$upper);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_RangeOp : ONNX_InferredOp<"Range"> {
  let summary = "an arithmetic sequence";
  let description = [{
    Models the ONNX `Range` operator (opset 11): the 1-D tensor
    `start + i * delta` for `i` in `[0, max(ceil((limit - start) / delta), 0))`;
    `start`, `limit` and `delta` are scalars of one type.

    ```mlir
    %y = onnx.Range %s, %l, %d : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$start, ONNX_NumericTensor:$limit,
                       ONNX_NumericTensor:$delta);
  let results = (outs ONNX_NumericTensor:$output);
}

/// Running sums or products along an axis.
class ONNX_CumulativeOp<string mnemonic, string what, string opsets>
    : ONNX_InferredOp<mnemonic> {
  let summary = "cumulative " # what # " along an axis";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets }] # opsets # [{): running
    }] # what # [{s of `x` along `axis` (a 0-D or one-element int tensor,
    perhaps known only at run time). `exclusive` leaves the current element
    out (the first element of the result is then the identity, 0 for a sum
    and 1 for a product); `reverse` runs from the back.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x, %axis {exclusive = 1 : i64} : (tensor<2x3xf64>, tensor<i32>) -> tensor<2x3xf64>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$x, ONNX_IndexTensor:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$exclusive,
                       DefaultValuedAttr<I64Attr, "0">:$reverse);
  let results = (outs ONNX_NumericTensor:$y);
}

def ONNX_CumSumOp : ONNX_CumulativeOp<"CumSum", "sum", "11 to 14">;
def ONNX_CumProdOp : ONNX_CumulativeOp<"CumProd", "product", "26 to 27">;

def ONNX_SplitOp : ONNX_InferredOp<"Split"> {
  let summary = "split a tensor into parts along an axis";
  let description = [{
    Models the ONNX `Split` operator (opsets 2 to 18, opset 18 form): the
    parts have the sizes in `split` (a 1-D input of static length), or
    there are `num_outputs` parts of `ceil(dim / num_outputs)` elements, the
    last one smaller. The importer turns opsets 2 to 12's `split` attribute
    into an input, and sets `num_outputs` to the node's output count where
    the equal split of opsets before 18 leaves it implicit.

    ```mlir
    %a, %b = onnx.Split %x, %none {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<2x6xf32>, none) -> (tensor<2x3xf32>, tensor<2x3xf32>)
    ```
  }];
  let arguments = (ins ONNX_DataTensor:$input, ONNX_OptI64Tensor:$split,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       OptionalAttr<I64Attr>:$num_outputs);
  let results = (outs Variadic<ONNX_DataTensor>:$outputs);
}

def ONNX_TileOp : ONNX_InferredOp<"Tile"> {
  let summary = "repeat a tensor along each dim";
  let description = [{
    Models the ONNX `Tile` operator (opsets 6 to 13): dim `i` of the output is
    `input`'s dim `i` repeated `repeats[i]` times (a 1-D input with one value
    per dim).

    ```mlir
    %y = onnx.Tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins ONNX_DataTensor:$input, ONNX_I64Tensor:$repeats);
  let results = (outs ONNX_DataTensor:$output);
}

def ONNX_PadOp : ONNX_InferredOp<"Pad"> {
  let summary = "pad a tensor";
  let description = [{
    Models the ONNX `Pad` operator (opsets 2 to 25, opset 19 form; opset 2's
    `pads` and `value` attributes become inputs on import). `pads` holds the
    begin counts then the end counts for each dim in `axes` (all dims when
    `axes` is absent); negative counts crop. `mode` is `constant` (the
    scalar `constant_value`, 0 when absent), `reflect`, `edge` or `wrap`
    (opset 19: the input repeats, each position read modulo its dim).

    ```mlir
    %y = onnx.Pad %x, %p, %v, %none {mode = "constant"} : (tensor<2x3xf32>, tensor<4xi64>, tensor<f32>, none) -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$data, ONNX_I64Tensor:$pads,
                       ONNX_OptTensor:$constant_value, ONNX_OptTensor:$axes,
                       DefaultValuedStrAttr<StrAttr, "constant">:$mode);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_OneHotOp : ONNX_InferredOp<"OneHot"> {
  let summary = "one-hot encoding of indices";
  let description = [{
    Models the ONNX `OneHot` operator (opsets 9 to 11): a new dim of size
    `depth` (a one-element tensor) is inserted at `axis` of `indices`' shape;
    the output is `values[1]` where the index along it equals the index (a
    negative index counts from `depth`), `values[0]` elsewhere.

    ```mlir
    %y = onnx.OneHot %i, %d, %v {axis = -1 : i64} : (tensor<3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<3x?xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$indices, ONNX_NumericTensor:$depth,
                       ONNX_Tensor:$values,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_EyeLikeOp : ONNX_InferredOp<"EyeLike"> {
  let summary = "a 2-D tensor with ones on a diagonal";
  let description = [{
    Models the ONNX `EyeLike` operator (opset 9): a 2-D tensor of `input`'s
    shape with ones on diagonal `k` and zeros elsewhere, of element type
    `dtype` (an ONNX data type code; `input`'s type when absent).

    ```mlir
    %y = onnx.EyeLike %x {k = 1 : i64} : (tensor<3x4xi32>) -> tensor<3x4xi32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, OptionalAttr<I64Attr>:$dtype,
                       DefaultValuedAttr<I64Attr, "0">:$k);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_TopKOp : ONNX_InferredOp<"TopK"> {
  let summary = "the k largest or smallest elements along an axis";
  let description = [{
    Models the ONNX `TopK` operator (opsets 1 to 11, opset 11 form; opset 1's
    `k` attribute becomes an input on import): `Values` holds the `K` (a
    one-element int64 tensor) largest (or, with `largest` = 0, smallest)
    elements along `axis` and `Indices` their int64 positions. Elements come
    in order, equal elements by ascending index.

    ```mlir
    %v, %i = onnx.TopK %x, %k {axis = 1 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$X, ONNX_I64Tensor:$K,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$largest,
                       DefaultValuedAttr<I64Attr, "1">:$sorted);
  let results = (outs ONNX_NumericTensor:$Values, ONNX_I64Tensor:$Indices);
}

def ONNX_DepthToSpaceOp : ONNX_InferredOp<"DepthToSpace"> {
  let summary = "move channel blocks into spatial blocks";
  let description = [{
    Models the ONNX `DepthToSpace` operator (opsets 1 to 13): `[N, C, H, W]`
    becomes `[N, C / b^2, H * b, W * b]` for `blocksize` b; `mode` DCR takes
    the block offsets from the outer part of the channel, CRD from the inner.

    ```mlir
    %y = onnx.DepthToSpace %x {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, I64Attr:$blocksize,
                       DefaultValuedStrAttr<StrAttr, "DCR">:$mode);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_SpaceToDepthOp : ONNX_InferredOp<"SpaceToDepth"> {
  let summary = "move spatial blocks into channels";
  let description = [{
    Models the ONNX `SpaceToDepth` operator (opsets 1 to 13), the inverse of
    DepthToSpace in DCR mode: `[N, C, H, W]` becomes
    `[N, C * b^2, H / b, W / b]` for `blocksize` b.

    ```mlir
    %y = onnx.SpaceToDepth %x {blocksize = 2 : i64} : (tensor<1x1x4x6xf32>) -> tensor<1x4x2x3xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, I64Attr:$blocksize);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_BitCastOp : ONNX_InferredOp<"BitCast"> {
  let summary = "reinterpret the bits of each element as another type";
  let description = [{
    Models the ONNX `BitCast` operator (opsets 26 to 27): each element of
    `input` read as the bits of the type `to` (an ONNX
    `TensorProto.DataType` code) of the same width; bool counts as a byte,
    and a byte read as bool is true when it is not 0. The shape is kept.

    ```mlir
    %y = onnx.BitCast %x {to = 6 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, I64Attr:$to);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_TensorScatterOp : ONNX_InferredOp<"TensorScatter"> {
  let summary = "write updates into a cache along its sequence axis";
  let description = [{
    Models the ONNX `TensorScatter` operator (opsets 24 to 27): the result is
    `past_cache` with, for each batch entry `b` (dim 0), the slices of
    `update` along `axis` (not 0; `update` has the cache's shape but a
    shorter or equal `axis` dim) written at `write_indices[b] + i` (`mode`
    `linear`), or at that position modulo the axis size (`circular`).
    `write_indices` is an optional 1-D int64 tensor of one index per batch
    entry (0 when absent).

    ```mlir
    %y = onnx.TensorScatter %cache, %u, %idx {mode = "circular"} : (tensor<2x1x4x5xf32>, tensor<2x1x2x5xf32>, tensor<2xi64>) -> tensor<2x1x4x5xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$past_cache, ONNX_Tensor:$update,
                       ONNX_OptI64Tensor:$write_indices,
                       DefaultValuedAttr<I64Attr, "-2">:$axis,
                       DefaultValuedStrAttr<StrAttr, "linear">:$mode);
  let results = (outs ONNX_Tensor:$present_cache);
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_TENSOR_TD
