//===- ControlFlow.td - onnx ops with subgraphs ------------*- tablegen -*-===//
//
// If, Loop and Scan: ops whose ONNX form carries graph-valued attributes.
// Each subgraph is a single-block region whose arguments are the subgraph's
// inputs and whose `onnx.Yield` terminator returns its outputs. Values of the
// enclosing graph are used directly (regions are not isolated from above).
// Result types are given by the importer (joined over the branches or
// iterations, with `?` where they differ) and checked by the verifiers.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_CONTROLFLOW_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_CONTROLFLOW_TD

include "mlir/Interfaces/ControlFlowInterfaces.td"

/// An op with subgraphs: its memory effects are those of its regions.
class ONNX_RegionOp<string mnemonic, list<Trait> traits = []>
    : Op<ONNX_Dialect, mnemonic,
         !listconcat(traits, [RecursiveMemoryEffects, RecursivelySpeculatable])>;

def ONNX_YieldOp : Op<ONNX_Dialect, "Yield",
    [Pure, Terminator, ReturnLike,
     ParentOneOf<["IfOp", "LoopOp", "ScanOp"]>]> {
  let summary = "the outputs of a subgraph";
  let description = [{
    Terminates the region of an `onnx.If`, `onnx.Loop` or `onnx.Scan`: its
    operands are the outputs of the ONNX subgraph, in order.

    ```mlir
    onnx.Yield %a, %b : tensor<2xf32>, tensor<i1>
    ```
  }];
  let arguments = (ins Variadic<ONNX_Value>:$outputs);
  let assemblyFormat = "attr-dict ($outputs^ `:` type($outputs))?";
}

def ONNX_IfOp : ONNX_RegionOp<"If", [NoRegionArguments]> {
  let summary = "runs one of two subgraphs";
  let description = [{
    Models the ONNX `If` operator (opsets 1 to 21, tensor outputs): the
    results are the outputs of `then_branch` when the scalar `cond` is true,
    of `else_branch` otherwise. A result dim on which the branches disagree
    is `?`.

    ```mlir
    %r = onnx.If %c : (tensor<i1>) -> tensor<5xf32> {
      onnx.Yield %a : tensor<5xf32>
    }, {
      onnx.Yield %b : tensor<5xf32>
    }
    ```
  }];
  let arguments = (ins ONNX_BoolTensor:$cond);
  let results = (outs Variadic<ONNX_Value>:$outputs);
  let regions = (region SizedRegion<1>:$then_branch,
                        SizedRegion<1>:$else_branch);
  let assemblyFormat = [{
    $cond attr-dict `:` functional-type(operands, results)
    $then_branch `,` $else_branch
  }];
  let hasVerifier = 1;
}

def ONNX_LoopOp : ONNX_RegionOp<"Loop"> {
  let summary = "runs a subgraph while a trip count and a condition allow";
  let description = [{
    Models the ONNX `Loop` operator (opsets 11 to 21, tensor values). The
    body runs for iterations `i = 0, 1, ...` while `i < M` (when `M` is
    given) and the condition holds (`cond` before the first iteration, the
    body's first output after each). The body's arguments are the iteration
    number (`tensor<i64>`), the condition (`tensor<i1>`) and the N
    loop-carried values; it yields the next condition, the N next values and
    K scan outputs. The results are the N final values followed by the K
    scan outputs of all iterations stacked along a new leading dim.

    ```mlir
    %y, %s = onnx.Loop %m, %c, %y0 : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> (tensor<1xf32>, tensor<?x1xf32>) {
    ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %yi: tensor<1xf32>):
      %y1 = onnx.Add %yi, %x : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
      onnx.Yield %ci, %y1, %y1 : tensor<i1>, tensor<1xf32>, tensor<1xf32>
    }
    ```
  }];
  let arguments = (ins AnyTypeOf<[ONNX_I64Tensor, NoneType]>:$M,
                       AnyTypeOf<[ONNX_BoolTensor, NoneType]>:$cond,
                       Variadic<ONNX_Value>:$v_initial);
  let results = (outs Variadic<ONNX_Value>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results) $body
  }];
  let hasVerifier = 1;
}

def ONNX_ScanOp : ONNX_RegionOp<"Scan"> {
  let summary = "runs a subgraph over slices of its scan inputs";
  let description = [{
    Models the ONNX `Scan` operator (opsets 9 to 21). The first N operands
    are initial state values, the last `num_scan_inputs` (M) are scanned
    along their `scan_input_axes` (default 0) in the order of
    `scan_input_directions` (0 forward, 1 reverse). The body takes the N
    states and one slice of each scan input, and yields the N next states
    and K scan output slices. The results are the N final states and the K
    scan outputs, stacked along `scan_output_axes` in the order of
    `scan_output_directions`.

    ```mlir
    %s, %o = onnx.Scan %s0, %x {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
    ^bb0(%si: tensor<2xf32>, %xi: tensor<2xf32>):
      %n = onnx.Add %si, %xi : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      onnx.Yield %n, %n : tensor<2xf32>, tensor<2xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<ONNX_Tensor>:$initial_state_and_scan_inputs,
                       I64Attr:$num_scan_inputs,
                       OptionalAttr<DenseI64ArrayAttr>:$scan_input_axes,
                       OptionalAttr<DenseI64ArrayAttr>:$scan_input_directions,
                       OptionalAttr<DenseI64ArrayAttr>:$scan_output_axes,
                       OptionalAttr<DenseI64ArrayAttr>:$scan_output_directions);
  let results = (outs Variadic<ONNX_Tensor>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results) $body
  }];
  let hasVerifier = 1;
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_CONTROLFLOW_TD
