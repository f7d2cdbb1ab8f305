//===- Math.td - onnx elementwise and math ops -------------*- tablegen -*-===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_MATH_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_MATH_TD

/// Elementwise binary op with ONNX's multidirectional (numpy) broadcasting.
class ONNX_BinaryOp<string mnemonic, string op, Type operandType,
                    list<Trait> traits = []>
    : ONNX_InferredOp<mnemonic, traits> {
  let summary = "elementwise " # op # " with numpy broadcasting";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 7 to 21): `C = A }]
    # op # [{ B` elementwise, after broadcasting `A` and `B` to a common shape.
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
class ONNX_CompareOp<string mnemonic, string op>
    : ONNX_InferredOp<mnemonic> {
  let summary = "elementwise comparison `" # op # "` with broadcasting";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 7 to 19): a bool
    tensor holding `A }] # op # [{ B` elementwise after broadcasting.

    ```mlir
    %c = onnx.}] # mnemonic # [{ %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$A, ONNX_Tensor:$B);
  let results = (outs ONNX_BoolTensor:$C);
}

def ONNX_EqualOp : ONNX_CompareOp<"Equal", "==">;
def ONNX_LessOp : ONNX_CompareOp<"Less", "<">;
def ONNX_GreaterOp : ONNX_CompareOp<"Greater", ">">;

/// Elementwise unary op: same shape and element type in and out.
class ONNX_UnaryOp<string mnemonic, string what, Type operandType,
                   list<Trait> traits = []>
    : ONNX_InferredOp<mnemonic, !listconcat(traits, [SameOperandsAndResultType])> {
  let summary = "elementwise " # what;
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opsets 6 to 21): }] # what #
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
  let arguments = (ins ONNX_BoolTensor:$condition, ONNX_Tensor:$X,
                       ONNX_Tensor:$Y);
  let results = (outs ONNX_Tensor:$output);
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_MATH_TD
