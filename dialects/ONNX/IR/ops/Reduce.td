//===- Reduce.td - onnx reductions -------------------------*- tablegen -*-===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_REDUCE_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_REDUCE_TD

/// The element types that ReduceMax and ReduceMin order (bool from opset 20,
/// where false < true).
def ONNX_OrderedTensor : TensorOf<[F16, BF16, F32, F64, I8, I16, I32, I64,
                                   UI8, UI16, UI32, UI64, I1]>;

/// A reduction over `axes`, an input as from opset `inputSince`, of elements
/// of `operandType`.
class ONNX_ReduceOp<string mnemonic, string what, string inputSince = "18",
                    Type operandType = ONNX_NumericTensor,
                    string opsets = "1 to 18">
    : ONNX_InferredOp<mnemonic> {
  let summary = "reduce by " # what # " over axes";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets }] # opsets # [{). `axes` is
    an optional 1-D input, as from opset }] # inputSince # [{; the `axes`
    attribute of older opsets becomes a constant input on import. Without
    axes every dim is reduced, unless `noop_with_empty_axes` is 1. `keepdims`
    keeps reduced dims as size 1. Axes that are not a constant are read at run
    time; the result rank is then known when `keepdims` is 1 or `axes` has a
    static length.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins operandType:$data, ONNX_OptI64Tensor:$axes,
                       DefaultValuedAttr<I64Attr, "1">:$keepdims,
                       DefaultValuedAttr<I64Attr, "0">:$noop_with_empty_axes);
  let results = (outs operandType:$reduced);
}

def ONNX_ReduceMeanOp : ONNX_ReduceOp<"ReduceMean", "mean">;
def ONNX_ReduceSumOp : ONNX_ReduceOp<"ReduceSum", "sum", "13">;
def ONNX_ReduceMaxOp : ONNX_ReduceOp<"ReduceMax", "maximum (bool: or)", "18",
                                     ONNX_OrderedTensor, "1 to 20">;
def ONNX_ReduceMinOp : ONNX_ReduceOp<"ReduceMin", "minimum (bool: and)", "18",
                                     ONNX_OrderedTensor, "1 to 20">;
def ONNX_ReduceProdOp : ONNX_ReduceOp<"ReduceProd", "product">;
def ONNX_ReduceL1Op : ONNX_ReduceOp<"ReduceL1", "the sum of absolute values">;
def ONNX_ReduceL2Op : ONNX_ReduceOp<"ReduceL2",
                                    "the square root of the sum of squares">;
def ONNX_ReduceLogSumOp : ONNX_ReduceOp<"ReduceLogSum", "the log of the sum">;
def ONNX_ReduceLogSumExpOp : ONNX_ReduceOp<"ReduceLogSumExp",
                                           "the log of the sum of exponentials">;
def ONNX_ReduceSumSquareOp : ONNX_ReduceOp<"ReduceSumSquare",
                                           "the sum of squares">;

/// The index of the maximum or minimum along one axis.
class ONNX_ArgReduceOp<string mnemonic, string what>
    : ONNX_InferredOp<mnemonic> {
  let summary = "the index of the " # what # " along an axis";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 1 to 13): the int64
    index of the }] # what # [{ of `data` along `axis`, the first one on a
    tie, or the last one when `select_last_index` is 1. `keepdims` keeps the
    reduced dim as size 1.

    ```mlir
    %i = onnx.}] # mnemonic # [{ %x {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$data,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$keepdims,
                       DefaultValuedAttr<I64Attr, "0">:$select_last_index);
  let results = (outs ONNX_I64Tensor:$reduced);
}

def ONNX_ArgMaxOp : ONNX_ArgReduceOp<"ArgMax", "maximum">;
def ONNX_ArgMinOp : ONNX_ArgReduceOp<"ArgMin", "minimum">;

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_REDUCE_TD
