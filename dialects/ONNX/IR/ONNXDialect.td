//===- ONNXDialect.td - The onnx dialect definition --------*- tablegen -*-===//
//
// The `onnx` dialect models ONNX graphs at the level of the ONNX operator
// specification: one op per ONNX operator, tensors as values, attributes as
// in the spec. See docs/dialects/onnx.md for the rationale.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_ONNX_IR_ONNXDIALECT_TD
#define ONNXC_DIALECTS_ONNX_IR_ONNXDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def ONNX_Dialect : Dialect {
  let name = "onnx";
  let summary = "ONNX operators as an MLIR dialect";
  let description = [{
    Each op models one ONNX operator of the default (`ai.onnx`) domain in the
    form of its newest supported opset: inputs that older opsets passed as
    attributes (Squeeze's axes, Clip's bounds, the reductions' axes) are
    operands here, and the importer converts older forms. Missing optional
    inputs are the `none` value of `onnx.NoValue`. Attributes keep their ONNX
    names and map one to one: INT to `i64`, FLOAT to `f32`, STRING to a string,
    INTS to `array<i64>`, FLOATS to `array<f32>`, TENSOR to an elements
    attribute. Result types are inferred (static and dynamic dims).
  }];
  let cppNamespace = "::onnxc::onnx";
  let hasConstantMaterializer = 1;
  // Inherent attributes stay in the attribute dictionary so that the
  // importer and exporter can handle every op generically.
  let usePropertiesForAttributes = 0;
}

/// Base class of all onnx ops. `onnxName` is the ONNX operator name, and
/// [sinceOpset, lastOpset] the range of opsets whose form the op accepts
/// after import (older forms are converted by the importer).
class ONNX_Op<string mnemonic, list<Trait> traits = []>
    : Op<ONNX_Dialect, mnemonic, !listconcat(traits, [Pure])> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  code onnxExtraDecl = [{
    /// Shapes may refine each other: `?` matches any size.
    static bool isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                        ::mlir::TypeRange rhs) {
      return ::onnxc::onnx::areCompatibleTypes(lhs, rhs);
    }
  }];
  let extraClassDeclaration = onnxExtraDecl;
}

/// An op whose result types are computed by `inferReturnTypes`.
class ONNX_InferredOp<string mnemonic, list<Trait> traits = []>
    : ONNX_Op<mnemonic, !listconcat(traits,
                                    [DeclareOpInterfaceMethods<InferTypeOpInterface>])>;

// Element types ONNX tensors carry.
def ONNX_FloatType : AnyTypeOf<[F16, BF16, F32, F64]>;
def ONNX_IntType : AnyTypeOf<[AnySignlessInteger, AnyUnsignedInteger]>;
def ONNX_Tensor : TensorOf<[F16, BF16, F32, F64, AnySignlessInteger,
                            AnyUnsignedInteger]>;
def ONNX_FloatTensor : TensorOf<[F16, BF16, F32, F64]>;
def ONNX_NumericTensor : TensorOf<[F16, BF16, F32, F64, I8, I16, I32, I64,
                                   UI8, UI16, UI32, UI64]>;
def ONNX_UIntTensor : TensorOf<[UI8, UI16, UI32, UI64]>;
def ONNX_IntegerTensor : TensorOf<[I8, I16, I32, I64, UI8, UI16, UI32, UI64]>;
def ONNX_IndexTensor : TensorOf<[I32, I64]>;
def ONNX_I64Tensor : TensorOf<[I64]>;
def ONNX_BoolTensor : TensorOf<[I1]>;
// An optional input: a tensor, or the `none` of onnx.NoValue.
def ONNX_OptTensor : AnyTypeOf<[ONNX_Tensor, NoneType]>;
def ONNX_OptI64Tensor : AnyTypeOf<[ONNX_I64Tensor, NoneType]>;

#endif // ONNXC_DIALECTS_ONNX_IR_ONNXDIALECT_TD
