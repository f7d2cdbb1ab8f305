//===- Sequence.td - onnx sequence and optional ops ---------*- tablegen -*-===//
//
// The ops of ONNX's non-tensor values: sequences (`!onnx.seq`), optionals
// (`!onnx.opt`), ZipMap's sequence of maps and DictVectorizer's map. The lowering keeps each such
// value as a 64-bit handle of a runtime object and calls the runtime's
// `onnxc_seq_*` / `onnxc_value_*` functions (docs/lowering.md). SequenceMap
// is expanded at import into a Loop over these ops.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_SEQUENCE_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_SEQUENCE_TD

def ONNX_OptIndexTensor : AnyTypeOf<[ONNX_IndexTensor, NoneType]>;

def ONNX_SequenceEmptyOp : ONNX_Op<"SequenceEmpty"> {
  let summary = "a sequence without elements";
  let description = [{
    Models the ONNX `SequenceEmpty` operator (opset 11): an empty sequence of
    tensors of element type `dtype` (an ONNX data type code, float when
    absent). Its result type is given by the importer, elements unranked.

    ```mlir
    %s = onnx.SequenceEmpty {dtype = 7 : i64} : () -> !onnx.seq<tensor<*xi64>>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$dtype);
  let results = (outs ONNX_Seq:$output);
  let hasVerifier = 1;
}

def ONNX_SequenceConstructOp : ONNX_InferredOp<"SequenceConstruct"> {
  let summary = "a sequence of the given tensors";
  let description = [{
    Models the ONNX `SequenceConstruct` operator (opset 11): a sequence of
    its inputs, in order, all of one element type. The element type of the
    result joins theirs (`?` where dims differ, unranked where ranks do).

    ```mlir
    %s = onnx.SequenceConstruct %a, %b : (tensor<2xf32>, tensor<3xf32>) -> !onnx.seq<tensor<?xf32>>
    ```
  }];
  let arguments = (ins Variadic<ONNX_DataTensor>:$inputs);
  let results = (outs ONNX_Seq:$output_sequence);
}

def ONNX_SequenceInsertOp : ONNX_InferredOp<"SequenceInsert"> {
  let summary = "a sequence with one tensor inserted";
  let description = [{
    Models the ONNX `SequenceInsert` operator (opset 11): `input_sequence`
    with `tensor` inserted before index `position` (in [-n, n], negative
    counting from the end), or appended when `position` is absent. The input
    sequence is unchanged (values are immutable).

    ```mlir
    %r = onnx.SequenceInsert %s, %t, %none : (!onnx.seq<tensor<?xf32>>, tensor<3xf32>, none) -> !onnx.seq<tensor<?xf32>>
    ```
  }];
  let arguments = (ins ONNX_Seq:$input_sequence, ONNX_DataTensor:$tensor,
                       ONNX_OptIndexTensor:$position);
  let results = (outs ONNX_Seq:$output_sequence);
}

def ONNX_SequenceAtOp : ONNX_InferredOp<"SequenceAt"> {
  let summary = "one element of a sequence";
  let description = [{
    Models the ONNX `SequenceAt` operator (opset 11): the element at index
    `position` (in [-n, n - 1], negative counting from the end). An index
    out of range stops the run with a message.

    ```mlir
    %t = onnx.SequenceAt %s, %i : (!onnx.seq<tensor<?xf32>>, tensor<i64>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins ONNX_Seq:$input_sequence, ONNX_IndexTensor:$position);
  let results = (outs ONNX_DataTensor:$tensor);
}

def ONNX_SequenceEraseOp : ONNX_InferredOp<"SequenceErase"> {
  let summary = "a sequence without one element";
  let description = [{
    Models the ONNX `SequenceErase` operator (opset 11): `input_sequence`
    without the element at `position` (in [-n, n - 1]), or without its last
    element when `position` is absent.

    ```mlir
    %r = onnx.SequenceErase %s, %none : (!onnx.seq<tensor<?xf32>>, none) -> !onnx.seq<tensor<?xf32>>
    ```
  }];
  let arguments = (ins ONNX_Seq:$input_sequence, ONNX_OptIndexTensor:$position);
  let results = (outs ONNX_Seq:$output_sequence);
}

def ONNX_SequenceLengthOp : ONNX_InferredOp<"SequenceLength"> {
  let summary = "the number of elements of a sequence";
  let description = [{
    Models the ONNX `SequenceLength` operator (opset 11): a scalar int64.

    ```mlir
    %n = onnx.SequenceLength %s : (!onnx.seq<tensor<?xf32>>) -> tensor<i64>
    ```
  }];
  let arguments = (ins ONNX_Seq:$input_sequence);
  let results = (outs ONNX_I64Tensor:$length);
}

def ONNX_SplitToSequenceOp : ONNX_InferredOp<"SplitToSequence"> {
  let summary = "split a tensor into a sequence of parts";
  let description = [{
    Models the ONNX `SplitToSequence` operator (opsets 11 and 24): `input`
    split along `axis` into parts of `split`'s sizes (a 1-D list summing to
    the dim), or of `split`'s scalar size (the last part smaller when the
    dim is not a multiple), or, without `split`, into parts of size 1 that
    lose the axis unless `keepdims` is 1.

    ```mlir
    %s = onnx.SplitToSequence %x, %n {axis = 1 : i64} : (tensor<3x6xf32>, tensor<i64>) -> !onnx.seq<tensor<3x?xf32>>
    ```
  }];
  let arguments = (ins ONNX_DataTensor:$input, ONNX_OptIndexTensor:$split,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$keepdims);
  let results = (outs ONNX_Seq:$output_sequence);
}

def ONNX_ConcatFromSequenceOp : ONNX_InferredOp<"ConcatFromSequence"> {
  let summary = "concatenate the tensors of a sequence";
  let description = [{
    Models the ONNX `ConcatFromSequence` operator (opset 11): the elements
    joined along `axis`, or, when `new_axis` is 1, stacked along a new axis
    (`axis` then in [-r - 1, r]). An empty sequence, or elements whose other
    dims differ, stop the run with a message.

    ```mlir
    %y = onnx.ConcatFromSequence %s {axis = 0 : i64} : (!onnx.seq<tensor<?x4xf32>>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins ONNX_Seq:$input_sequence, I64Attr:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$new_axis);
  let results = (outs ONNX_DataTensor:$concat_result);
}

def ONNX_OptionalOp : ONNX_Op<"Optional"> {
  let summary = "an optional holding a value, or nothing";
  let description = [{
    Models the ONNX `Optional` operator (opset 15): an optional holding
    `input`, or, when `input` is absent, an empty optional whose type the
    importer takes from the `type` attribute.

    ```mlir
    %o = onnx.Optional %t : (tensor<4xf32>) -> !onnx.opt<tensor<4xf32>>
    %e = onnx.Optional %none : (none) -> !onnx.opt<!onnx.seq<tensor<5xf32>>>
    ```
  }];
  let arguments = (ins AnyTypeOf<[ONNX_DataTensor, ONNX_Seq, NoneType]>:$input);
  let results = (outs ONNX_Opt:$output);
  let hasVerifier = 1;
}

def ONNX_OptionalHasElementOp : ONNX_InferredOp<"OptionalHasElement"> {
  let summary = "whether an optional holds a value";
  let description = [{
    Models the ONNX `OptionalHasElement` operator (opsets 15 and 18): a
    scalar bool, true when `input` is an optional holding a value or (opset
    18) a tensor or sequence, false when it is empty or absent.

    ```mlir
    %b = onnx.OptionalHasElement %o : (!onnx.opt<tensor<4xf32>>) -> tensor<i1>
    ```
  }];
  let arguments = (ins AnyTypeOf<[ONNX_Opt, ONNX_DataTensor, ONNX_Seq,
                                  NoneType]>:$input);
  let results = (outs ONNX_BoolTensor:$output);
}

def ONNX_OptionalGetElementOp : ONNX_InferredOp<"OptionalGetElement"> {
  let summary = "the value an optional holds";
  let description = [{
    Models the ONNX `OptionalGetElement` operator (opsets 15 and 18): the
    tensor or sequence that the optional `input` holds (an empty one stops
    the run with a message), or `input` itself when it is not an optional
    (opset 18).

    ```mlir
    %t = onnx.OptionalGetElement %o : (!onnx.opt<tensor<4xf32>>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[ONNX_Opt, ONNX_DataTensor, ONNX_Seq]>:$input);
  let results = (outs AnyTypeOf<[ONNX_DataTensor, ONNX_Seq]>:$output);
}

def ONNX_ZipMapOp : ONNX_InferredOp<"ZipMap"> {
  let summary = "rows of class scores as maps from class label to score";
  let description = [{
    Models the `ai.onnx.ml` `ZipMap` operator (ml opset 1): each row of `X`
    (`[N, C]`, or `[C]` for one row) becomes a map from the C class labels,
    `classlabels_int64s` or `classlabels_strings` (exactly one is set), to
    the row's scores: a sequence of N maps.

    ```mlir
    %m = onnx.ZipMap %p {classlabels_int64s = array<i64: 0, 1>} : (tensor<?x2xf32>) -> !onnx.seq<!onnx.map<i64, f32>>
    ```
  }];
  let arguments = (ins TensorOf<[F32]>:$X,
                       OptionalAttr<DenseI64ArrayAttr>:$classlabels_int64s,
                       OptionalAttr<StrArrayAttr>:$classlabels_strings);
  let results = (outs ONNX_Seq:$Z);
}

def ONNX_DictVectorizerOp : ONNX_InferredOp<"DictVectorizer"> {
  let summary = "a map's values in the order of a vocabulary";
  let description = [{
    Models the `ai.onnx.ml` `DictVectorizer` operator (ml opset 1): `Y[0, i]`
    is the value of `X` at key `vocabulary[i]` (`int64_vocabulary` for
    int64 keys, `string_vocabulary` for string keys; exactly one is set),
    0 (or "") where `X` has no such key. `Y` is `[1, V]`; a sequence of N
    maps (as ONNX's reference takes) gives `[N, V]`, one row a map.

    ```mlir
    %y = onnx.DictVectorizer %m {string_vocabulary = ["a", "b"]} : (!onnx.map<!onnx.string, f32>) -> tensor<1x2xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[ONNX_Map, ONNX_Seq]>:$X,
                       OptionalAttr<DenseI64ArrayAttr>:$int64_vocabulary,
                       OptionalAttr<StrArrayAttr>:$string_vocabulary);
  let results = (outs ONNX_DataTensor:$Y);
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_SEQUENCE_TD
