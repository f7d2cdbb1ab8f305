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
  // The two element types of ONNX that MLIR 19 lacks (ONNXTypes below).
  let useDefaultTypePrinterParser = 1;
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

//===----------------------------------------------------------------------===//
// Element types that MLIR 19 has no builtin for.
//===----------------------------------------------------------------------===//

/// An ONNX element type held as its bit pattern: it has no arithmetic of its
/// own; Cast, QuantizeLinear and DequantizeLinear convert it (bit
/// manipulation in the lowering, passes/Conversion/ONNXToLinalg/LowPrecision.cpp)
/// and the lowering stores it in one byte (docs/lowering.md).
class ONNX_CodeType<string name, string typeMnemonic, string summaryText>
    : TypeDef<ONNX_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = summaryText;
}

def ONNX_Float4E2M1Type : ONNX_CodeType<"Float4E2M1", "f4E2M1",
    "ONNX FLOAT4E2M1 (sign, 2 exponent bits of bias 1, 1 mantissa bit)"> {
  let description = [{
    ONNX's `FLOAT4E2M1` (data type 23), the 4-bit float of the OCP
    microscaling formats: no infinity, no NaN, largest magnitude 6. MLIR 19
    has no such builtin (`f4E2M1FN` came with MLIR 20).

    ```mlir
    %y = onnx.Cast %x {to = 23 : i64} : (tensor<4xf32>) -> tensor<4x!onnx.f4E2M1>
    ```
  }];
}

def ONNX_Float8E8M0Type : ONNX_CodeType<"Float8E8M0", "f8E8M0",
    "ONNX FLOAT8E8M0 (8 exponent bits of bias 127, no sign, no mantissa)"> {
  let description = [{
    ONNX's `FLOAT8E8M0` (data type 24), the scale type of the OCP
    microscaling formats: code `e` is 2^(e - 127), code 255 is NaN. MLIR 19
    has no such builtin (`f8E8M0FNU` came with MLIR 20).

    ```mlir
    %y = onnx.Cast %x {to = 24 : i64, round_mode = "up"} : (tensor<4xf32>) -> tensor<4x!onnx.f8E8M0>
    ```
  }];
}

def ONNX_StringType : TypeDef<ONNX_Dialect, "String"> {
  let mnemonic = "string";
  let summary = "ONNX STRING: a byte string (UTF-8 by convention)";
  let description = [{
    The element type of ONNX's `STRING` tensors (data type 8). Data movement
    (Identity, Reshape, Gather, Concat, Where, ...), Equal, the string ops
    (StringConcat, StringSplit, StringNormalizer, RegexFullMatch) and
    LabelEncoder take it. The lowering holds each element as a 64-bit handle
    of a string record of the runtime (docs/lowering.md, `onnxc_runtime.h`).

    ```mlir
    %z = onnx.StringConcat %x, %y : (tensor<3x!onnx.string>, tensor<1x!onnx.string>) -> tensor<3x!onnx.string>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Values that are not tensors: sequences, maps and optionals.
//===----------------------------------------------------------------------===//

def ONNX_SeqType : TypeDef<ONNX_Dialect, "Seq"> {
  let mnemonic = "seq";
  let summary = "ONNX sequence: an ordered list of tensors (or maps)";
  let description = [{
    ONNX's `seq(T)`: any number of values of type `T`, a tensor type (ranked,
    or unranked when the elements' rank is not known) or an `!onnx.map`.
    Elements of one sequence may differ in shape. The lowering holds a
    sequence as a 64-bit handle of a runtime object (docs/lowering.md).

    ```mlir
    %s = onnx.SequenceInsert %seq, %t : (!onnx.seq<tensor<?xf32>>, tensor<3xf32>) -> !onnx.seq<tensor<?xf32>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def ONNX_MapType : TypeDef<ONNX_Dialect, "Map"> {
  let mnemonic = "map";
  let summary = "ONNX map: scalar keys to scalar values";
  let description = [{
    ONNX's `map(K, V)` of an integer or string key type and a scalar value
    type: what ZipMap makes (one map a row, in a sequence) and
    DictVectorizer reads (a graph input). The lowering holds a map as a
    64-bit handle of a runtime object.

    ```mlir
    %m = onnx.ZipMap %p {classlabels_int64s = array<i64: 0, 1>} : (tensor<?x2xf32>) -> !onnx.seq<!onnx.map<i64, f32>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$keyType, "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $keyType `,` $valueType `>`";
  let genVerifyDecl = 1;
}

def ONNX_OptType : TypeDef<ONNX_Dialect, "Opt"> {
  let mnemonic = "opt";
  let summary = "ONNX optional: a tensor or sequence, or nothing";
  let description = [{
    ONNX's `optional(T)`, `T` a tensor or `!onnx.seq` type: a value of `T` or
    none. The lowering holds it as a 64-bit handle of a runtime object, 0
    for none.

    ```mlir
    %o = onnx.Optional %t : (tensor<4xf32>) -> !onnx.opt<tensor<4xf32>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def ONNX_Seq : Type<CPred<"::llvm::isa<::onnxc::onnx::SeqType>($_self)">,
                    "sequence type">;
def ONNX_Opt : Type<CPred<"::llvm::isa<::onnxc::onnx::OptType>($_self)">,
                    "optional type">;
def ONNX_Map : Type<CPred<"::llvm::isa<::onnxc::onnx::MapType>($_self)">,
                    "map type">;

def ONNX_String : Type<CPred<"::llvm::isa<::onnxc::onnx::StringType>($_self)">,
                       "string type">;
def ONNX_F4E2M1 : Type<CPred<"::llvm::isa<::onnxc::onnx::Float4E2M1Type>($_self)">,
                       "f4E2M1 type">;
def ONNX_F8E8M0 : Type<CPred<"::llvm::isa<::onnxc::onnx::Float8E8M0Type>($_self)">,
                       "f8E8M0 type">;

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
// The float8 and float4 types (ONNX 1.14 on): only converted, by Cast,
// CastLike, QuantizeLinear and DequantizeLinear.
def ONNX_LowPrecisionFloat : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2,
                                        F8E5M2FNUZ, ONNX_F8E8M0,
                                        ONNX_F4E2M1]>;
// Every element type of the dialect (what Identity and Constant hold; Cast
// converts between all but strings).
def ONNX_AnyTensor : TensorOf<[F16, BF16, F32, F64, AnySignlessInteger,
                               AnyUnsignedInteger, ONNX_LowPrecisionFloat,
                               ONNX_String]>;
// What the data-movement ops (Reshape, Gather, Concat, Where...) take: the
// tensors arithmetic computes on, and strings.
def ONNX_DataTensor : TensorOf<[F16, BF16, F32, F64, AnySignlessInteger,
                                AnyUnsignedInteger, ONNX_String]>;
def ONNX_StringTensor : TensorOf<[ONNX_String]>;
// Every value of a graph: tensors, sequences, optionals and maps (what
// subgraphs yield, Identity passes on).
def ONNX_Value : AnyTypeOf<[ONNX_AnyTensor, ONNX_Seq, ONNX_Opt, ONNX_Map]>;
// An optional input: a tensor, or the `none` of onnx.NoValue.
def ONNX_OptTensor : AnyTypeOf<[ONNX_Tensor, NoneType]>;
def ONNX_OptI64Tensor : AnyTypeOf<[ONNX_I64Tensor, NoneType]>;

#endif // ONNXC_DIALECTS_ONNX_IR_ONNXDIALECT_TD
