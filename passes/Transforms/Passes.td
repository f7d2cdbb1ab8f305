//===- Passes.td - onnx to onnx passes ---------------------*- tablegen -*-===//

#ifndef ONNXC_PASSES_TRANSFORMS_PASSES_TD
#define ONNXC_PASSES_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ONNXShapeInferencePass : Pass<"onnx-shape-inference", "mlir::func::FuncOp"> {
  let summary = "refine onnx result types from their operands, to a fixed point";
  let description = [{
    Re-runs every onnx op's result type inference in program order and
    refines result types (a `?` dim becomes static, an unranked tensor
    ranked) whenever the inferred type is more precise, then updates the
    function's result types to match its return. Used after input shapes are
    pinned and after folding exposes constant shapes. Running it twice changes
    nothing.
  }];
}

#endif // ONNXC_PASSES_TRANSFORMS_PASSES_TD
