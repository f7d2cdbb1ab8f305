//===- FusedOps.td - The fused dialect ---------------------*- tablegen -*-===//
//
// The `fused` dialect: an onnx Conv or Gemm and the activation that follows
// it, as one op, multi-head attention (FusedAttention.td), the integer
// kernels (FusedQuantOps.td), tree ensembles (FusedTrees.td) and 4-bit
// weight products (FusedNBits.td). The graph optimizer creates the fusions
// for MLIR output, or, in the
// subset that ONNX Runtime implements, for ONNX output as its com.microsoft
// FusedConv and FusedGemm (onnx-opt --fuse-activations). See
// docs/dialects/fused.md for the rationale.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_FUSED_IR_FUSEDOPS_TD
#define ONNXC_DIALECTS_FUSED_IR_FUSEDOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Fused_Dialect : Dialect {
  let name = "fused";
  let summary = "onnx ops fused with their activation, attention, int8 kernels, tree ensembles, 4-bit weights";
  let description = [{
    Each op is an onnx op (same operands and attributes, same result type)
    whose result goes through an activation: `activation` names it (Relu,
    Tanh, Sigmoid, LeakyRelu, Clip, HardSigmoid, HardSwish, Silu, Gelu,
    GeluTanh) and `activation_params` holds its parameters (LeakyRelu:
    alpha; Clip: min, max; HardSigmoid: alpha, beta; none otherwise), as
    ONNX Runtime's com.microsoft FusedConv does. `fused.attention` is
    multi-head attention recognized from its onnx ops;
    `fused.tree_ensemble` is the ai.onnx.ml tree ensembles in the form the
    CPU kernel reads; `fused.matmul_nbits` a product with packed 4-bit
    weights.
  }];
  let cppNamespace = "::onnxc::fused";
  let usePropertiesForAttributes = 0;
}

class Fused_Op<string mnemonic> : Op<Fused_Dialect, mnemonic,
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Shapes may refine each other: `?` matches any size.
    static bool isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                        ::mlir::TypeRange rhs);
  }];
}

def Fused_ConvOp : Fused_Op<"conv"> {
  let summary = "onnx.Conv followed by an activation";
  let description = [{
    `activation(Conv(X, W, B))` with onnx.Conv's operands and attributes
    (ONNX Runtime's com.microsoft `FusedConv`).

    ```mlir
    %y = fused.conv %x, %w, %b {activation = "Relu", activation_params = array<f32>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
    ```
  }];
  let arguments = (ins TensorOf<[F16, BF16, F32, F64]>:$X,
                       TensorOf<[F16, BF16, F32, F64]>:$W,
                       AnyTypeOf<[TensorOf<[F16, BF16, F32, F64]>, NoneType]>:$B,
                       StrAttr:$activation,
                       DenseF32ArrayAttr:$activation_params,
                       DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$pads,
                       OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs TensorOf<[F16, BF16, F32, F64]>:$Y);
}

def Fused_GemmOp : Fused_Op<"gemm"> {
  let summary = "onnx.Gemm followed by an activation";
  let description = [{
    `activation(Gemm(A, B, C))` with onnx.Gemm's operands and attributes
    (ONNX Runtime's com.microsoft `FusedGemm`). A 2-D MatMul is a Gemm
    without `C`.

    ```mlir
    %y = fused.gemm %a, %b, %c {activation = "Relu", activation_params = array<f32>, transB = 1 : i64} : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
    ```
  }];
  let arguments = (ins TensorOf<[F16, BF16, F32, F64]>:$A,
                       TensorOf<[F16, BF16, F32, F64]>:$B,
                       AnyTypeOf<[TensorOf<[F16, BF16, F32, F64]>, NoneType]>:$C,
                       StrAttr:$activation,
                       DenseF32ArrayAttr:$activation_params,
                       DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                       DefaultValuedAttr<F32Attr, "1.0">:$beta,
                       DefaultValuedAttr<I64Attr, "0">:$transA,
                       DefaultValuedAttr<I64Attr, "0">:$transB);
  let results = (outs TensorOf<[F16, BF16, F32, F64]>:$Y);
}

include "dialects/Fused/IR/FusedAttention.td"
include "dialects/Fused/IR/FusedQuantOps.td"
include "dialects/Fused/IR/FusedTrees.td"
include "dialects/Fused/IR/FusedNBits.td"

#endif // ONNXC_DIALECTS_FUSED_IR_FUSEDOPS_TD
