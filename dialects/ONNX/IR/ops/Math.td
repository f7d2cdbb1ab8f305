//===- Math.td - onnx elementwise and math ops -------------*- tablegen -*-===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_MATH_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_MATH_TD

/// Elementwise binary op with ONNX's multidirectional (numpy) broadcasting.
class ONNX_BinaryOp<string mnemonic, string op, Type operandType,
                    list<Trait> traits = []>
    : ONNX_InferredOp<mnemonic, traits> {
  let summary = "elementwise " # op # " with numpy broadcasting";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 7 to 21; the
    `broadcast`/`axis` form of opsets 1 to 6 is converted on import):
    `C = A }] # op # [{ B` elementwise, after broadcasting `A` and `B` to a
    common shape.
    A dynamic dim broadcasts only against a size-1 dim or an equal dim.

    ```mlir
    %c = onnx.}] # mnemonic # [{ %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins operandType:$A, operandType:$B);
  let results = (outs ONNX_Tensor:$C);
  let hasFolder = 1;
}

def ONNX_AddOp : ONNX_BinaryOp<"Add", "+", ONNX_NumericTensor, [Commutative]>;
def ONNX_SubOp : ONNX_BinaryOp<"Sub", "-", ONNX_NumericTensor>;
def ONNX_MulOp : ONNX_BinaryOp<"Mul", "*", ONNX_NumericTensor, [Commutative]>;
def ONNX_DivOp : ONNX_BinaryOp<"Div", "/", ONNX_NumericTensor>;
def ONNX_PowOp : ONNX_InferredOp<"Pow"> {
  let summary = "elementwise power with numpy broadcasting";
  let description = [{
    Models the ONNX `Pow` operator (opsets 7 to 15): `Z = X ^ Y` with
    broadcasting. The result has the element type of `X`; `Y` may be of
    another numeric type.

    ```mlir
    %z = onnx.Pow %x, %y : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$X, ONNX_NumericTensor:$Y);
  let results = (outs ONNX_NumericTensor:$Z);
}

/// Elementwise comparison: the result is a bool (i1) tensor.
class ONNX_CompareOp<string mnemonic, string op, string opsets = "7 to 19",
                     Type operandType = ONNX_Tensor>
    : ONNX_InferredOp<mnemonic> {
  let summary = "elementwise comparison `" # op # "` with broadcasting";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets }] # opsets # [{): a bool
    tensor holding `A }] # op # [{ B` elementwise after broadcasting.

    ```mlir
    %c = onnx.}] # mnemonic # [{ %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    ```
  }];
  let arguments = (ins operandType:$A, operandType:$B);
  let results = (outs ONNX_BoolTensor:$C);
}

// Equal also compares strings (opset 19), byte for byte.
def ONNX_EqualOp : ONNX_CompareOp<"Equal", "==", "7 to 19", ONNX_DataTensor>;
def ONNX_LessOp : ONNX_CompareOp<"Less", "<">;
def ONNX_GreaterOp : ONNX_CompareOp<"Greater", ">">;
def ONNX_GreaterOrEqualOp : ONNX_CompareOp<"GreaterOrEqual", ">=", "12 to 16">;
def ONNX_LessOrEqualOp : ONNX_CompareOp<"LessOrEqual", "<=", "12 to 16">;

/// Elementwise unary op: same shape and element type in and out.
class ONNX_UnaryOp<string mnemonic, string what, Type operandType,
                   list<Trait> traits = [], string opsets = "6 to 21">
    : ONNX_InferredOp<mnemonic, !listconcat(traits, [SameOperandsAndResultType])> {
  let summary = "elementwise " # what;
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets }] # opsets # [{): }] # what #
    [{ of each element.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
    ```
  }];
  let arguments = (ins operandType:$X);
  let results = (outs operandType:$Y);
}

def ONNX_SqrtOp : ONNX_UnaryOp<"Sqrt", "square root", ONNX_FloatTensor>;
def ONNX_ExpOp : ONNX_UnaryOp<"Exp", "exponential", ONNX_FloatTensor>;
def ONNX_LogOp : ONNX_UnaryOp<"Log", "natural logarithm", ONNX_FloatTensor>;
def ONNX_TanhOp : ONNX_UnaryOp<"Tanh", "hyperbolic tangent", ONNX_FloatTensor>;
def ONNX_SigmoidOp : ONNX_UnaryOp<"Sigmoid", "logistic sigmoid 1/(1+exp(-x))",
                                  ONNX_FloatTensor>;
def ONNX_ReluOp : ONNX_UnaryOp<"Relu", "max(x, 0)", ONNX_NumericTensor>;
def ONNX_ErfOp : ONNX_UnaryOp<"Erf", "Gauss error function", ONNX_FloatTensor>;
def ONNX_NegOp : ONNX_UnaryOp<"Neg", "negation", ONNX_NumericTensor> {
  let hasFolder = 1;
}
def ONNX_AbsOp : ONNX_UnaryOp<"Abs", "absolute value", ONNX_NumericTensor>;
def ONNX_ReciprocalOp : ONNX_UnaryOp<"Reciprocal", "1/x", ONNX_FloatTensor>;

def ONNX_LeakyReluOp : ONNX_InferredOp<"LeakyRelu", [SameOperandsAndResultType]> {
  let summary = "elementwise leaky rectifier";
  let description = [{
    Models the ONNX `LeakyRelu` operator (opsets 6 to 16):
    `y = x < 0 ? alpha * x : x`.

    ```mlir
    %y = onnx.LeakyRelu %x {alpha = 1.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X,
                       DefaultValuedAttr<F32Attr, "0.01">:$alpha);
  let results = (outs ONNX_FloatTensor:$Y);
}

def ONNX_ClipOp : ONNX_InferredOp<"Clip"> {
  let summary = "elementwise clamp to [min, max]";
  let description = [{
    Models the ONNX `Clip` operator (opsets 11 to 13; opset 6's `min`/`max`
    attributes become scalar constant inputs on import). `min` and `max` are
    optional scalars (`none` for no bound).

    ```mlir
    %y = onnx.Clip %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$input, ONNX_OptTensor:$min,
                       ONNX_OptTensor:$max);
  let results = (outs ONNX_NumericTensor:$output);
}

def ONNX_WhereOp : ONNX_InferredOp<"Where"> {
  let summary = "elementwise select with broadcasting";
  let description = [{
    Models the ONNX `Where` operator (opsets 9 to 16):
    `output = condition ? X : Y`, broadcasting all three.

    ```mlir
    %r = onnx.Where %c, %x, %y : (tensor<3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    ```
  }];
  let arguments = (ins ONNX_BoolTensor:$condition, ONNX_DataTensor:$X,
                       ONNX_DataTensor:$Y);
  let results = (outs ONNX_DataTensor:$output);
}

//===----------------------------------------------------------------------===//
// Variadic, logical, bitwise, rounding, trigonometric and activation ops.
//===----------------------------------------------------------------------===//

/// Elementwise reduction of any number of tensors with numpy broadcasting.
class ONNX_VariadicOp<string mnemonic, string what, Type operandType,
                      string resultName>
    : ONNX_InferredOp<mnemonic> {
  let summary = "elementwise " # what # " of one or more tensors";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 6 to 13; opset 1's
    `consumed_inputs` is dropped on import): the elementwise }] # what #
    [{ of all inputs after broadcasting them to a common shape. All inputs
    have one element type.

    ```mlir
    %r = onnx.}] # mnemonic # [{ %a, %b, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Variadic<operandType>:$data_0);
  let results = !dag(outs, [operandType], [resultName]);
}

def ONNX_MaxOp : ONNX_VariadicOp<"Max", "maximum", ONNX_NumericTensor, "max">;
def ONNX_MinOp : ONNX_VariadicOp<"Min", "minimum", ONNX_NumericTensor, "min">;
def ONNX_SumOp : ONNX_VariadicOp<"Sum", "sum", ONNX_FloatTensor, "sum">;
def ONNX_MeanOp : ONNX_VariadicOp<"Mean", "mean", ONNX_FloatTensor, "mean">;

def ONNX_ModOp : ONNX_InferredOp<"Mod"> {
  let summary = "elementwise remainder with numpy broadcasting";
  let description = [{
    Models the ONNX `Mod` operator (opsets 10 to 13). With `fmod = 0` (integers
    only) the remainder takes the sign of the divisor, as Python's `%`; with
    `fmod = 1` it takes the sign of the dividend, as C's `fmod`. Floats need
    `fmod = 1`.

    ```mlir
    %c = onnx.Mod %a, %b {fmod = 1 : i64} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$A, ONNX_NumericTensor:$B,
                       DefaultValuedAttr<I64Attr, "0">:$fmod);
  let results = (outs ONNX_NumericTensor:$C);
}

def ONNX_BitShiftOp : ONNX_InferredOp<"BitShift"> {
  let summary = "elementwise bit shift of unsigned integers";
  let description = [{
    Models the ONNX `BitShift` operator (opset 11): `Z = X << Y` for
    `direction = "LEFT"`, `Z = X >> Y` for `"RIGHT"`, with broadcasting. A
    shift by the bit width or more gives 0.

    ```mlir
    %z = onnx.BitShift %x, %y {direction = "LEFT"} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
    ```
  }];
  let arguments = (ins ONNX_UIntTensor:$X, ONNX_UIntTensor:$Y,
                       StrAttr:$direction);
  let results = (outs ONNX_UIntTensor:$Z);
}

/// Elementwise logical op on bools with broadcasting.
class ONNX_LogicalOp<string mnemonic, string what>
    : ONNX_InferredOp<mnemonic, [Commutative]> {
  let summary = "elementwise logical " # what # " with broadcasting";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 7 to 21; opset 1's
    `broadcast`/`axis` form is converted on import): the logical }] # what #
    [{ of two bool tensors after broadcasting.

    ```mlir
    %c = onnx.}] # mnemonic # [{ %a, %b : (tensor<3x4xi1>, tensor<4xi1>) -> tensor<3x4xi1>
    ```
  }];
  let arguments = (ins ONNX_BoolTensor:$A, ONNX_BoolTensor:$B);
  let results = (outs ONNX_BoolTensor:$C);
}

def ONNX_AndOp : ONNX_LogicalOp<"And", "and">;
def ONNX_OrOp : ONNX_LogicalOp<"Or", "or">;
def ONNX_XorOp : ONNX_LogicalOp<"Xor", "exclusive or">;
def ONNX_NotOp : ONNX_UnaryOp<"Not", "logical negation", ONNX_BoolTensor, [],
                              "1 to 21">;

/// Elementwise bitwise op on integers with broadcasting.
class ONNX_BitwiseOp<string mnemonic, string what>
    : ONNX_InferredOp<mnemonic, [Commutative]> {
  let summary = "elementwise bitwise " # what # " with broadcasting";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 18 to 27): the
    bitwise }] # what # [{ of two integer tensors of one element type after
    broadcasting.

    ```mlir
    %c = onnx.}] # mnemonic # [{ %a, %b : (tensor<3x4xui8>, tensor<4xui8>) -> tensor<3x4xui8>
    ```
  }];
  let arguments = (ins ONNX_IntegerTensor:$A, ONNX_IntegerTensor:$B);
  let results = (outs ONNX_IntegerTensor:$C);
}

def ONNX_BitwiseAndOp : ONNX_BitwiseOp<"BitwiseAnd", "and">;
def ONNX_BitwiseOrOp : ONNX_BitwiseOp<"BitwiseOr", "or">;
def ONNX_BitwiseXorOp : ONNX_BitwiseOp<"BitwiseXor", "exclusive or">;
def ONNX_BitwiseNotOp : ONNX_UnaryOp<"BitwiseNot", "bitwise negation",
                                     ONNX_IntegerTensor, [], "18 to 27">;

def ONNX_CeilOp : ONNX_UnaryOp<"Ceil", "rounding up", ONNX_FloatTensor>;
def ONNX_FloorOp : ONNX_UnaryOp<"Floor", "rounding down", ONNX_FloatTensor>;
def ONNX_RoundOp : ONNX_UnaryOp<"Round", "rounding to nearest, ties to even",
                                ONNX_FloatTensor, [], "11 to 21">;
def ONNX_SignOp : ONNX_UnaryOp<"Sign", "sign (-1, 0 or 1; NaN stays NaN)",
                               ONNX_NumericTensor, [], "9 to 21">;

def ONNX_SinOp : ONNX_UnaryOp<"Sin", "sine", ONNX_FloatTensor, [], "7 to 21">;
def ONNX_CosOp : ONNX_UnaryOp<"Cos", "cosine", ONNX_FloatTensor, [], "7 to 21">;
def ONNX_TanOp : ONNX_UnaryOp<"Tan", "tangent", ONNX_FloatTensor, [], "7 to 21">;
def ONNX_AsinOp : ONNX_UnaryOp<"Asin", "arcsine", ONNX_FloatTensor, [],
                               "7 to 21">;
def ONNX_AcosOp : ONNX_UnaryOp<"Acos", "arccosine", ONNX_FloatTensor, [],
                               "7 to 21">;
def ONNX_AtanOp : ONNX_UnaryOp<"Atan", "arctangent", ONNX_FloatTensor, [],
                               "7 to 21">;
def ONNX_SinhOp : ONNX_UnaryOp<"Sinh", "hyperbolic sine", ONNX_FloatTensor, [],
                               "9 to 21">;
def ONNX_CoshOp : ONNX_UnaryOp<"Cosh", "hyperbolic cosine", ONNX_FloatTensor,
                               [], "9 to 21">;
def ONNX_AsinhOp : ONNX_UnaryOp<"Asinh", "inverse hyperbolic sine",
                                ONNX_FloatTensor, [], "9 to 21">;
def ONNX_AcoshOp : ONNX_UnaryOp<"Acosh", "inverse hyperbolic cosine",
                                ONNX_FloatTensor, [], "9 to 21">;
def ONNX_AtanhOp : ONNX_UnaryOp<"Atanh", "inverse hyperbolic tangent",
                                ONNX_FloatTensor, [], "9 to 21">;

/// A float classification test: a bool tensor of the input's shape.
class ONNX_FloatTestOp<string mnemonic, string what, dag attrs = (ins)>
    : ONNX_InferredOp<mnemonic> {
  let summary = "elementwise test for " # what;
  let arguments = !con((ins ONNX_FloatTensor:$X), attrs);
  let results = (outs ONNX_BoolTensor:$Y);
}

def ONNX_IsInfOp : ONNX_FloatTestOp<"IsInf", "infinity",
    (ins DefaultValuedAttr<I64Attr, "1">:$detect_negative,
         DefaultValuedAttr<I64Attr, "1">:$detect_positive)> {
  let description = [{
    Models the ONNX `IsInf` operator (opsets 10 to 20): true where `X` is
    +inf (if `detect_positive` is not 0) or -inf (if `detect_negative` is
    not 0).

    ```mlir
    %y = onnx.IsInf %x {detect_negative = 0 : i64} : (tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
}

def ONNX_IsNaNOp : ONNX_FloatTestOp<"IsNaN", "NaN"> {
  let description = [{
    Models the ONNX `IsNaN` operator (opsets 9 to 20): true where `X` is NaN.

    ```mlir
    %y = onnx.IsNaN %x : (tensor<2x?xf16>) -> tensor<2x?xi1>
    ```
  }];
}

/// An activation with float attributes: same type in and out.
class ONNX_ActivationOp<string mnemonic, string formula, string opsets,
                        dag attrs, string exampleAttrs,
                        Type operandType = ONNX_FloatTensor>
    : ONNX_InferredOp<mnemonic, [SameOperandsAndResultType]> {
  let summary = "elementwise " # mnemonic # " activation";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets }] # opsets # [{):
    `}] # formula # [{`.

    ```mlir
    %y = onnx.}] # mnemonic # [{ %x }] # exampleAttrs # [{: (tensor<2x?xf32>) -> tensor<2x?xf32>
    ```
  }];
  let arguments = !con((ins operandType:$X), attrs);
  let results = (outs operandType:$Y);
}

def ONNX_EluOp : ONNX_ActivationOp<"Elu", "y = x < 0 ? alpha * (exp(x) - 1) : x",
    "6 to 21; opset 1's `consumed_inputs` is dropped on import",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha),
    "{alpha = 2.000000e+00 : f32} ">;
def ONNX_SeluOp : ONNX_ActivationOp<"Selu",
    "y = x > 0 ? gamma * x : gamma * alpha * (exp(x) - 1)",
    "6 to 21; opset 1's `consumed_inputs` is dropped on import",
    (ins DefaultValuedAttr<F32Attr, "1.67326319217681884765625">:$alpha,
         DefaultValuedAttr<F32Attr, "1.05070102214813232421875">:$gamma),
    "">;
def ONNX_CeluOp : ONNX_ActivationOp<"Celu",
    "y = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))", "12 to 21",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha),
    "{alpha = 2.000000e+00 : f32} ">;
def ONNX_HardSigmoidOp : ONNX_ActivationOp<"HardSigmoid",
    "y = max(0, min(1, alpha * x + beta))",
    "6 to 21; opset 1's `consumed_inputs` is dropped on import",
    (ins DefaultValuedAttr<F32Attr, "0.2">:$alpha,
         DefaultValuedAttr<F32Attr, "0.5">:$beta),
    "{alpha = 5.000000e-01 : f32} ">;
def ONNX_HardSwishOp : ONNX_ActivationOp<"HardSwish",
    "y = x * max(0, min(1, x / 6 + 1 / 2))", "14 to 21", (ins), "">;
def ONNX_SoftplusOp : ONNX_ActivationOp<"Softplus", "y = log(exp(x) + 1)",
    "1 to 21", (ins), "">;
def ONNX_SoftsignOp : ONNX_ActivationOp<"Softsign", "y = x / (1 + |x|)",
    "1 to 21", (ins), "">;
def ONNX_ThresholdedReluOp : ONNX_ActivationOp<"ThresholdedRelu",
    "y = x > alpha ? x : 0", "10 to 21",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha),
    "{alpha = 2.000000e+00 : f32} ">;
def ONNX_MishOp : ONNX_ActivationOp<"Mish", "y = x * tanh(log(exp(x) + 1))",
    "18 to 21", (ins), "">;
def ONNX_ShrinkOp : ONNX_ActivationOp<"Shrink",
    "y = x < -lambd ? x + bias : (x > lambd ? x - bias : 0)", "9 to 21",
    (ins DefaultValuedAttr<F32Attr, "0.0">:$bias,
         DefaultValuedAttr<F32Attr, "0.5">:$lambd),
    "{lambd = 1.000000e+00 : f32} ", ONNX_NumericTensor>;
def ONNX_GeluOp : ONNX_ActivationOp<"Gelu", "", "20 to 21",
    (ins DefaultValuedStrAttr<StrAttr, "none">:$approximate), ""> {
  let description = [{
    Models the ONNX `Gelu` operator (opset 20): with `approximate = "none"`,
    `y = x / 2 * (1 + erf(x / sqrt(2)))`; with `"tanh"`,
    `y = x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`.

    ```mlir
    %y = onnx.Gelu %x {approximate = "tanh"} : (tensor<2x?xf32>) -> tensor<2x?xf32>
    ```
  }];
  let hasVerifier = 1;
}

def ONNX_PReluOp : ONNX_InferredOp<"PRelu"> {
  let summary = "elementwise parametric rectifier";
  let description = [{
    Models the ONNX `PRelu` operator (opsets 7 to 16; opset 6's form is the
    same, opset 1's `consumed_inputs` is dropped on import):
    `Y = X < 0 ? slope * X : X`, where `slope` broadcasts to the shape of `X`
    (unidirectional broadcasting).

    ```mlir
    %y = onnx.PRelu %x, %slope : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$X, ONNX_NumericTensor:$slope);
  let results = (outs ONNX_NumericTensor:$Y);
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_MATH_TD
