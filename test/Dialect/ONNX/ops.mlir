// RUN: onnx-opt %s | onnx-opt | FileCheck %s

// Round trip of every onnx op, with static and dynamic dims.

// CHECK-LABEL: func.func @control_flow
// CHECK: onnx.If %{{.+}} : (tensor<i1>) -> tensor<?xf32> {
// CHECK: onnx.Loop %{{.+}}, %{{.+}}, %{{.+}} : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32> {
// CHECK: onnx.Scan %{{.+}}, %{{.+}} {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<2xf32> {
func.func @control_flow(%c: tensor<i1>, %m: tensor<i64>, %a: tensor<2xf32>, %x: tensor<3x2xf32>) -> (tensor<?xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = onnx.If %c : (tensor<i1>) -> tensor<?xf32> {
    onnx.Yield %a : tensor<2xf32>
  }, {
    onnx.Yield %a : tensor<2xf32>
  }
  %1 = onnx.Loop %m, %c, %a : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %ai: tensor<2xf32>):
    onnx.Yield %ci, %ai : tensor<i1>, tensor<2xf32>
  }
  %2 = onnx.Scan %a, %x {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<2xf32> {
  ^bb0(%si: tensor<2xf32>, %xi: tensor<2xf32>):
    onnx.Yield %xi : tensor<2xf32>
  }
  return %0, %1, %2 : tensor<?xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %d: tensor<?x3xi64>,
                  %e: tensor<1xi64>) -> (tensor<2x3xf32>, tensor<?x3xi64>) {
  // CHECK: onnx.Add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = onnx.Add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sub %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Sub %0, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Mul %{{.*}}, %{{.*}} : (tensor<?x3xi64>, tensor<1xi64>) -> tensor<?x3xi64>
  %2 = onnx.Mul %d, %e : (tensor<?x3xi64>, tensor<1xi64>) -> tensor<?x3xi64>
  // CHECK: onnx.Div %{{.*}}, %{{.*}} : (tensor<?x3xi64>, tensor<?x3xi64>) -> tensor<?x3xi64>
  %3 = onnx.Div %2, %d : (tensor<?x3xi64>, tensor<?x3xi64>) -> tensor<?x3xi64>
  // Pow's exponent may have another element type.
  // CHECK: onnx.Pow %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  %4 = onnx.Pow %1, %e : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  return %4, %3 : tensor<2x3xf32>, tensor<?x3xi64>
}

// CHECK-LABEL: func.func @compare_where
func.func @compare_where(%a: tensor<?x4xf32>, %b: tensor<4xf32>, %y: tensor<f32>)
    -> tensor<?x4xf32> {
  // CHECK: %[[EQ:.+]] = onnx.Equal %{{.*}} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xi1>
  %0 = onnx.Equal %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xi1>
  // CHECK: onnx.Less %{{.*}} : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %1 = onnx.Less %b, %y : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  // CHECK: onnx.Greater %{{.*}} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
  %2 = onnx.Greater %a, %a : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
  // CHECK: onnx.Where %[[EQ]], %{{.*}}, %{{.*}} : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %3 = onnx.Where %0, %a, %y : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  return %3 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x?xf32>, %i: tensor<3xi32>) -> (tensor<2x?xf32>, tensor<3xi32>) {
  // CHECK: onnx.Sqrt %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = onnx.Sqrt %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Exp
  %1 = onnx.Exp %0 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Log
  %2 = onnx.Log %1 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Tanh
  %3 = onnx.Tanh %2 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Sigmoid
  %4 = onnx.Sigmoid %3 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Relu
  %5 = onnx.Relu %4 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Erf
  %6 = onnx.Erf %5 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Reciprocal
  %7 = onnx.Reciprocal %6 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.LeakyRelu %{{.*}} {alpha = 1.000000e-01 : f32} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %8 = onnx.LeakyRelu %7 {alpha = 0.1 : f32} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Neg %{{.*}} : (tensor<3xi32>) -> tensor<3xi32>
  %9 = onnx.Neg %i : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: onnx.Abs %{{.*}} : (tensor<3xi32>) -> tensor<3xi32>
  %10 = onnx.Abs %9 : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: onnx.Relu %{{.*}} : (tensor<3xi32>) -> tensor<3xi32>
  %11 = onnx.Relu %10 : (tensor<3xi32>) -> tensor<3xi32>
  return %8, %11 : tensor<2x?xf32>, tensor<3xi32>
}

// CHECK-LABEL: func.func @clip
func.func @clip(%x: tensor<?x4xf32>, %lo: tensor<f32>, %hi: tensor<1xf32>)
    -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  // CHECK: %[[NONE:.+]] = onnx.NoValue : () -> none
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.Clip %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<f32>, tensor<1xf32>) -> tensor<?x4xf32>
  %0 = onnx.Clip %x, %lo, %hi : (tensor<?x4xf32>, tensor<f32>, tensor<1xf32>) -> tensor<?x4xf32>
  // CHECK: onnx.Clip %{{.*}}, %[[NONE]], %{{.*}} : (tensor<?x4xf32>, none, tensor<1xf32>) -> tensor<?x4xf32>
  %1 = onnx.Clip %x, %none, %hi : (tensor<?x4xf32>, none, tensor<1xf32>) -> tensor<?x4xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @variadic
func.func @variadic(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<f32>,
                    %u: tensor<?x4xui8>, %v: tensor<4xui8>)
    -> (tensor<2x3xf32>, tensor<?x4xui8>, tensor<2x3xf32>, tensor<3xf32>) {
  // CHECK: onnx.Max %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = onnx.Max %a, %b, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: onnx.Min %{{.*}}, %{{.*}} : (tensor<?x4xui8>, tensor<4xui8>) -> tensor<?x4xui8>
  %1 = onnx.Min %u, %v : (tensor<?x4xui8>, tensor<4xui8>) -> tensor<?x4xui8>
  // CHECK: onnx.Sum %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = onnx.Sum %0, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Mean %{{.*}} : (tensor<3xf32>) -> tensor<3xf32>
  %3 = onnx.Mean %b : (tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<?x4xui8>, tensor<2x3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @integer_binary
func.func @integer_binary(%a: tensor<4xi32>, %b: tensor<i32>, %f: tensor<4xf16>,
                          %u: tensor<2x3xui16>, %s: tensor<3xui16>)
    -> (tensor<4xi32>, tensor<4xf16>, tensor<2x3xui16>) {
  // CHECK: onnx.Mod %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %0 = onnx.Mod %a, %b : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  // CHECK: onnx.Mod %{{.*}}, %{{.*}} {fmod = 1 : i64} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %1 = onnx.Mod %f, %f {fmod = 1 : i64} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  // CHECK: onnx.BitShift %{{.*}}, %{{.*}} {direction = "RIGHT"} : (tensor<2x3xui16>, tensor<3xui16>) -> tensor<2x3xui16>
  %2 = onnx.BitShift %u, %s {direction = "RIGHT"} : (tensor<2x3xui16>, tensor<3xui16>) -> tensor<2x3xui16>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xf16>, tensor<2x3xui16>
}

// CHECK-LABEL: func.func @bitwise
func.func @bitwise(%a: tensor<3x4xi32>, %b: tensor<4xi32>, %u: tensor<?xui64>)
    -> (tensor<3x4xi32>, tensor<?xui64>) {
  // CHECK: onnx.BitwiseAnd %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  %0 = onnx.BitwiseAnd %a, %b : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: onnx.BitwiseOr %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
  %1 = onnx.BitwiseOr %0, %a : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
  // CHECK: onnx.BitwiseXor %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  %2 = onnx.BitwiseXor %1, %b : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: onnx.BitwiseNot %{{.*}} : (tensor<?xui64>) -> tensor<?xui64>
  %3 = onnx.BitwiseNot %u : (tensor<?xui64>) -> tensor<?xui64>
  return %2, %3 : tensor<3x4xi32>, tensor<?xui64>
}

// CHECK-LABEL: func.func @bitcast
func.func @bitcast(%x: tensor<2x?xf32>, %b: tensor<4xi1>) -> (tensor<2x?xi32>, tensor<4xui8>) {
  // CHECK: onnx.BitCast %{{.*}} {to = 6 : i64} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  %0 = onnx.BitCast %x {to = 6 : i64} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  // CHECK: onnx.BitCast %{{.*}} {to = 2 : i64} : (tensor<4xi1>) -> tensor<4xui8>
  %1 = onnx.BitCast %b {to = 2 : i64} : (tensor<4xi1>) -> tensor<4xui8>
  return %0, %1 : tensor<2x?xi32>, tensor<4xui8>
}

// CHECK-LABEL: func.func @logical
func.func @logical(%a: tensor<3x4xi1>, %b: tensor<4xi1>, %x: tensor<?xf32>, %y: tensor<f32>)
    -> (tensor<3x4xi1>, tensor<?xi1>, tensor<?xi1>) {
  // CHECK: onnx.And %{{.*}}, %{{.*}} : (tensor<3x4xi1>, tensor<4xi1>) -> tensor<3x4xi1>
  %0 = onnx.And %a, %b : (tensor<3x4xi1>, tensor<4xi1>) -> tensor<3x4xi1>
  // CHECK: onnx.Or %{{.*}}, %{{.*}} : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
  %1 = onnx.Or %0, %a : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
  // CHECK: onnx.Xor %{{.*}}, %{{.*}} : (tensor<3x4xi1>, tensor<4xi1>) -> tensor<3x4xi1>
  %2 = onnx.Xor %1, %b : (tensor<3x4xi1>, tensor<4xi1>) -> tensor<3x4xi1>
  // CHECK: onnx.Not %{{.*}} : (tensor<3x4xi1>) -> tensor<3x4xi1>
  %3 = onnx.Not %2 : (tensor<3x4xi1>) -> tensor<3x4xi1>
  // CHECK: onnx.GreaterOrEqual %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
  %4 = onnx.GreaterOrEqual %x, %y : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
  // CHECK: onnx.LessOrEqual %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
  %5 = onnx.LessOrEqual %x, %y : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
  return %3, %4, %5 : tensor<3x4xi1>, tensor<?xi1>, tensor<?xi1>
}

// CHECK-LABEL: func.func @rounding_trig
func.func @rounding_trig(%x: tensor<2x?xf32>, %i: tensor<3xi8>) -> (tensor<2x?xf32>, tensor<3xi8>) {
  // CHECK: onnx.Ceil
  %0 = onnx.Ceil %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Floor
  %1 = onnx.Floor %0 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Round
  %2 = onnx.Round %1 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Sin
  %3 = onnx.Sin %2 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Cos
  %4 = onnx.Cos %3 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Tan
  %5 = onnx.Tan %4 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Asin
  %6 = onnx.Asin %5 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Acos
  %7 = onnx.Acos %6 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Atan
  %8 = onnx.Atan %7 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Sinh
  %9 = onnx.Sinh %8 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Cosh
  %10 = onnx.Cosh %9 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Asinh
  %11 = onnx.Asinh %10 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Acosh
  %12 = onnx.Acosh %11 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Atanh %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %13 = onnx.Atanh %12 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Sign %{{.*}} : (tensor<3xi8>) -> tensor<3xi8>
  %14 = onnx.Sign %i : (tensor<3xi8>) -> tensor<3xi8>
  return %13, %14 : tensor<2x?xf32>, tensor<3xi8>
}

// The float8, float4 and 2- and 4-bit integer types of Cast and the
// quantization ops.
// CHECK-LABEL: func.func @low_precision_types
func.func @low_precision_types(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<1xi4>)
    -> (tensor<4x!onnx.f4E2M1>, tensor<4x!onnx.f8E8M0>, tensor<4xf8E5M2FNUZ>, tensor<4xi4>, tensor<4xf32>) {
  // CHECK: onnx.Cast %{{.*}} {saturate = 0 : i64, to = 23 : i64} : (tensor<4xf32>) -> tensor<4x!onnx.f4E2M1>
  %0 = onnx.Cast %x {to = 23 : i64, saturate = 0 : i64} : (tensor<4xf32>) -> tensor<4x!onnx.f4E2M1>
  // CHECK: onnx.Cast %{{.*}} {round_mode = "nearest", to = 24 : i64} : (tensor<4xf32>) -> tensor<4x!onnx.f8E8M0>
  %1 = onnx.Cast %x {to = 24 : i64, round_mode = "nearest"} : (tensor<4xf32>) -> tensor<4x!onnx.f8E8M0>
  // CHECK: onnx.CastLike %{{.*}}, %{{.*}} : (tensor<4x!onnx.f4E2M1>, tensor<4xf8E5M2FNUZ>) -> tensor<4xf8E5M2FNUZ>
  %like = onnx.Cast %x {to = 20 : i64} : (tensor<4xf32>) -> tensor<4xf8E5M2FNUZ>
  %2 = onnx.CastLike %0, %like : (tensor<4x!onnx.f4E2M1>, tensor<4xf8E5M2FNUZ>) -> tensor<4xf8E5M2FNUZ>
  // CHECK: onnx.QuantizeLinear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>, tensor<1xi4>) -> tensor<4xi4>
  %3 = onnx.QuantizeLinear %x, %s, %zp : (tensor<4xf32>, tensor<f32>, tensor<1xi4>) -> tensor<4xi4>
  // CHECK: onnx.DequantizeLinear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xf8E5M2FNUZ>, tensor<f32>, none) -> tensor<4xf32>
  %none = onnx.NoValue : () -> none
  %4 = onnx.DequantizeLinear %like, %s, %none : (tensor<4xf8E5M2FNUZ>, tensor<f32>, none) -> tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<4x!onnx.f4E2M1>, tensor<4x!onnx.f8E8M0>, tensor<4xf8E5M2FNUZ>, tensor<4xi4>, tensor<4xf32>
}

// CHECK-LABEL: func.func @casts_and_tests
func.func @casts_and_tests(%x: tensor<?x4xf16>, %like: tensor<1xui32>)
    -> (tensor<?x4xui32>, tensor<?x4xi1>, tensor<?x4xi1>) {
  // CHECK: onnx.CastLike %{{.*}}, %{{.*}} : (tensor<?x4xf16>, tensor<1xui32>) -> tensor<?x4xui32>
  %0 = onnx.CastLike %x, %like : (tensor<?x4xf16>, tensor<1xui32>) -> tensor<?x4xui32>
  // CHECK: onnx.IsInf %{{.*}} {detect_negative = 0 : i64} : (tensor<?x4xf16>) -> tensor<?x4xi1>
  %1 = onnx.IsInf %x {detect_negative = 0 : i64} : (tensor<?x4xf16>) -> tensor<?x4xi1>
  // CHECK: onnx.IsNaN %{{.*}} : (tensor<?x4xf16>) -> tensor<?x4xi1>
  %2 = onnx.IsNaN %x : (tensor<?x4xf16>) -> tensor<?x4xi1>
  return %0, %1, %2 : tensor<?x4xui32>, tensor<?x4xi1>, tensor<?x4xi1>
}

// CHECK-LABEL: func.func @activations
func.func @activations(%x: tensor<2x?xf32>, %slope: tensor<?xf32>, %i: tensor<4xi64>)
    -> (tensor<2x?xf32>, tensor<4xi64>) {
  // CHECK: onnx.Elu %{{.*}} {alpha = 2.000000e+00 : f32} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = onnx.Elu %x {alpha = 2.0 : f32} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Selu %{{.*}} {gamma = 2.000000e+00 : f32}
  %1 = onnx.Selu %0 {gamma = 2.0 : f32} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Celu
  %2 = onnx.Celu %1 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.HardSigmoid %{{.*}} {alpha = 5.000000e-01 : f32, beta = 0.000000e+00 : f32}
  %3 = onnx.HardSigmoid %2 {alpha = 0.5 : f32, beta = 0.0 : f32} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.HardSwish
  %4 = onnx.HardSwish %3 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Softplus
  %5 = onnx.Softplus %4 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Softsign
  %6 = onnx.Softsign %5 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.ThresholdedRelu %{{.*}} {alpha = 5.000000e-01 : f32}
  %7 = onnx.ThresholdedRelu %6 {alpha = 0.5 : f32} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Mish
  %8 = onnx.Mish %7 : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Gelu %{{.*}} {approximate = "tanh"}
  %9 = onnx.Gelu %8 {approximate = "tanh"} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.PRelu %{{.*}}, %{{.*}} : (tensor<2x?xf32>, tensor<?xf32>) -> tensor<2x?xf32>
  %10 = onnx.PRelu %9, %slope : (tensor<2x?xf32>, tensor<?xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Shrink %{{.*}} {bias = 1.000000e+00 : f32} : (tensor<4xi64>) -> tensor<4xi64>
  %11 = onnx.Shrink %i {bias = 1.0 : f32} : (tensor<4xi64>) -> tensor<4xi64>
  return %10, %11 : tensor<2x?xf32>, tensor<4xi64>
}

// CHECK-LABEL: func.func @matmul_gemm
func.func @matmul_gemm(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>, %v: tensor<8xf32>,
                       %d: tensor<?x64xf32>, %w: tensor<10x64xf32>, %c: tensor<10xf32>,
                       %s: tensor<10x10xf32>)
    -> (tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<?x10xf32>, tensor<64x10xf32>) {
  // CHECK: onnx.MatMul %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %0 = onnx.MatMul %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  // CHECK: onnx.MatMul %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
  %1 = onnx.MatMul %a, %v : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
  // CHECK: onnx.Gemm %{{.*}}, %{{.*}}, %{{.*}} {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, transB = 1 : i64} : (tensor<?x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<?x10xf32>
  %2 = onnx.Gemm %d, %w, %c {alpha = 0.5 : f32, beta = 2.0 : f32, transB = 1 : i64}
      : (tensor<?x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<?x10xf32>
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.Gemm %{{.*}}, %{{.*}}, %{{.*}} {transA = 1 : i64} : (tensor<10x64xf32>, tensor<10x10xf32>, none) -> tensor<64x10xf32>
  %3 = onnx.Gemm %w, %s, %none {transA = 1 : i64}
      : (tensor<10x64xf32>, tensor<10x10xf32>, none) -> tensor<64x10xf32>
  return %0, %1, %2, %3 : tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<?x10xf32>, tensor<64x10xf32>
}

// CHECK-LABEL: func.func @conv
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
                %d: tensor<?x8x?x?xf32>, %g: tensor<8x2x3x3xf32>)
    -> (tensor<1x4x8x8xf32>, tensor<?x8x?x?xf32>, tensor<1x4x4x4xf32>) {
  // CHECK: onnx.Conv %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %0 = onnx.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.Conv {{.*}} {auto_pad = "SAME_UPPER", dilations = array<i64: 2, 2>, group = 4 : i64, kernel_shape = array<i64: 3, 3>} : (tensor<?x8x?x?xf32>, tensor<8x2x3x3xf32>, none) -> tensor<?x8x?x?xf32>
  %1 = onnx.Conv %d, %g, %none {auto_pad = "SAME_UPPER", dilations = array<i64: 2, 2>, group = 4 : i64, kernel_shape = array<i64: 3, 3>}
      : (tensor<?x8x?x?xf32>, tensor<8x2x3x3xf32>, none) -> tensor<?x8x?x?xf32>
  // CHECK: onnx.Conv {{.*}} {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x4x4xf32>
  %2 = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x4x4xf32>
  return %0, %1, %2 : tensor<1x4x8x8xf32>, tensor<?x8x?x?xf32>, tensor<1x4x4x4xf32>
}

// CHECK-LABEL: func.func @pool
func.func @pool(%x: tensor<1x8x8x8xf32>, %d: tensor<?x8x?x?xf32>)
    -> (tensor<1x8x4x4xf32>, tensor<?x8x?x?xf32>, tensor<1x8x3x3xf32>, tensor<?x8x1x1xf32>) {
  // CHECK: onnx.MaxPool %{{.*}} {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xi64>)
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : (tensor<1x8x8x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xi64>)
  // CHECK: onnx.MaxPool %{{.*}} {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<?x8x?x?xf32>) -> (tensor<?x8x?x?xf32>, tensor<?x8x?x?xi64>)
  %1, %i1 = onnx.MaxPool %d {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>}
      : (tensor<?x8x?x?xf32>) -> (tensor<?x8x?x?xf32>, tensor<?x8x?x?xi64>)
  // CHECK: onnx.AveragePool %{{.*}} {count_include_pad = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 3, 3>} : (tensor<1x8x8x8xf32>) -> tensor<1x8x3x3xf32>
  %2 = onnx.AveragePool %x {count_include_pad = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 3, 3>}
      : (tensor<1x8x8x8xf32>) -> tensor<1x8x3x3xf32>
  // CHECK: onnx.GlobalAveragePool %{{.*}} : (tensor<?x8x?x?xf32>) -> tensor<?x8x1x1xf32>
  %3 = onnx.GlobalAveragePool %d : (tensor<?x8x?x?xf32>) -> tensor<?x8x1x1xf32>
  return %0, %1, %2, %3 : tensor<1x8x4x4xf32>, tensor<?x8x?x?xf32>, tensor<1x8x3x3xf32>, tensor<?x8x1x1xf32>
}

// CHECK-LABEL: func.func @pool_more
func.func @pool_more(%d: tensor<?x8x?x?xf32>, %u: tensor<1x2x4x4xui8>)
    -> (tensor<?x8x1x1xf32>, tensor<1x2x2x2xui8>) {
  // CHECK: onnx.GlobalMaxPool %{{.*}} : (tensor<?x8x?x?xf32>) -> tensor<?x8x1x1xf32>
  %0 = onnx.GlobalMaxPool %d : (tensor<?x8x?x?xf32>) -> tensor<?x8x1x1xf32>
  // CHECK: onnx.MaxPool %{{.*}} {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xui8>) -> (tensor<1x2x2x2xui8>, tensor<1x2x2x2xi64>)
  %1, %i1 = onnx.MaxPool %u {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : (tensor<1x2x4x4xui8>) -> (tensor<1x2x2x2xui8>, tensor<1x2x2x2xi64>)
  return %0, %1 : tensor<?x8x1x1xf32>, tensor<1x2x2x2xui8>
}

// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<?x4x8x8xf32>, %p: tensor<4xf32>, %t: tensor<2x?x8xf32>,
                         %s: tensor<8xf32>) -> (tensor<?x4x8x8xf32>, tensor<2x?x8xf32>, tensor<2x?x8xf32>) {
  // CHECK: onnx.BatchNormalization %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32} : (tensor<?x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  %0 = onnx.BatchNormalization %x, %p, %p, %p, %p {epsilon = 1.0e-3 : f32}
      : (tensor<?x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  // CHECK: onnx.LayerNormalization %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x?x8xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  %1, %mean, %invstd = onnx.LayerNormalization %t, %s, %s {axis = 1 : i64}
      : (tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x?x8xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  // CHECK: onnx.Softmax %{{.*}} {axis = 1 : i64} : (tensor<2x?x8xf32>) -> tensor<2x?x8xf32>
  %2 = onnx.Softmax %1 {axis = 1 : i64} : (tensor<2x?x8xf32>) -> tensor<2x?x8xf32>
  return %0, %1, %2 : tensor<?x4x8x8xf32>, tensor<2x?x8xf32>, tensor<2x?x8xf32>
}

// CHECK-LABEL: func.func @instance_normalization
func.func @instance_normalization(%x: tensor<2x3x?x?xf32>, %p: tensor<3xf32>) -> tensor<2x3x?x?xf32> {
  // CHECK: onnx.InstanceNormalization %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 0.00999999977 : f32} : (tensor<2x3x?x?xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x?x?xf32>
  %0 = onnx.InstanceNormalization %x, %p, %p {epsilon = 1.0e-2 : f32}
      : (tensor<2x3x?x?xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x?x?xf32>
  return %0 : tensor<2x3x?x?xf32>
}

// CHECK-LABEL: func.func @dropout
func.func @dropout(%x: tensor<?x4xf32>, %r: tensor<f32>, %t: tensor<i1>)
    -> (tensor<?x4xf32>, tensor<?x4xi1>) {
  %none = onnx.NoValue : () -> none
  // CHECK: %{{.+}}, %{{.+}} = onnx.Dropout %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x4xf32>, none, none) -> (tensor<?x4xf32>, tensor<?x4xi1>)
  %y, %m = onnx.Dropout %x, %none, %none : (tensor<?x4xf32>, none, none) -> (tensor<?x4xf32>, tensor<?x4xi1>)
  // CHECK: onnx.Dropout %{{.*}}, %{{.*}}, %{{.*}} {seed = 7 : i64} : (tensor<?x4xf32>, tensor<f32>, tensor<i1>) -> (tensor<?x4xf32>, tensor<?x4xi1>)
  %y2, %m2 = onnx.Dropout %y, %r, %t {seed = 7 : i64}
      : (tensor<?x4xf32>, tensor<f32>, tensor<i1>) -> (tensor<?x4xf32>, tensor<?x4xi1>)
  return %y2, %m : tensor<?x4xf32>, tensor<?x4xi1>
}

// CHECK-LABEL: func.func @constant_identity_cast
func.func @constant_identity_cast(%x: tensor<?x3xf32>) -> (tensor<2xi64>, tensor<?x3xf32>, tensor<?x3xi64>, tensor<2x2xf16>) {
  // CHECK: onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Constant {value = dense<1.500000e+00> : tensor<2x2xf16>} : () -> tensor<2x2xf16>
  %1 = onnx.Constant {value = dense<1.5> : tensor<2x2xf16>} : () -> tensor<2x2xf16>
  // CHECK: onnx.Identity %{{.*}} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %2 = onnx.Identity %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  // CHECK: onnx.Cast %{{.*}} {to = 7 : i64} : (tensor<?x3xf32>) -> tensor<?x3xi64>
  %3 = onnx.Cast %2 {to = 7 : i64} : (tensor<?x3xf32>) -> tensor<?x3xi64>
  return %0, %2, %3, %1 : tensor<2xi64>, tensor<?x3xf32>, tensor<?x3xi64>, tensor<2x2xf16>
}

// CHECK-LABEL: func.func @shape_reshape_flatten
func.func @shape_reshape_flatten(%x: tensor<?x3x4xf32>, %s: tensor<2xi64>)
    -> (tensor<3xi64>, tensor<1xi64>, tensor<?x?xf32>, tensor<?x12xf32>, tensor<?x4xf32>) {
  // CHECK: onnx.Shape %{{.*}} : (tensor<?x3x4xf32>) -> tensor<3xi64>
  %0 = onnx.Shape %x : (tensor<?x3x4xf32>) -> tensor<3xi64>
  // CHECK: onnx.Shape %{{.*}} {end = -1 : i64, start = 1 : i64} : (tensor<?x3x4xf32>) -> tensor<1xi64>
  %1 = onnx.Shape %x {end = -1 : i64, start = 1 : i64} : (tensor<?x3x4xf32>) -> tensor<1xi64>
  // CHECK: onnx.Reshape %{{.*}}, %{{.*}} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %2 = onnx.Reshape %x, %s : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %c = onnx.Constant {value = dense<[-1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Reshape %{{.*}}, %{{.*}} {allowzero = 1 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %3 = onnx.Reshape %x, %c {allowzero = 1 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  // CHECK: onnx.Flatten %{{.*}} {axis = -2 : i64} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  %4 = onnx.Flatten %x {axis = -2 : i64} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  return %0, %1, %2, %4, %3 : tensor<3xi64>, tensor<1xi64>, tensor<?x?xf32>, tensor<?x12xf32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @transpose_concat
func.func @transpose_concat(%x: tensor<2x?x4xf32>, %y: tensor<2x3xf32>, %z: tensor<2x?xf32>)
    -> (tensor<4x2x?xf32>, tensor<4x?x2xf32>, tensor<2x?xf32>, tensor<2x3xf32>) {
  // CHECK: onnx.Transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x?x4xf32>) -> tensor<4x2x?xf32>
  %0 = onnx.Transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x?x4xf32>) -> tensor<4x2x?xf32>
  // CHECK: onnx.Transpose %{{.*}} : (tensor<2x?x4xf32>) -> tensor<4x?x2xf32>
  %1 = onnx.Transpose %x : (tensor<2x?x4xf32>) -> tensor<4x?x2xf32>
  // CHECK: onnx.Concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x?xf32>, tensor<2x3xf32>) -> tensor<2x?xf32>
  %2 = onnx.Concat %y, %z, %y {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x?xf32>, tensor<2x3xf32>) -> tensor<2x?xf32>
  // CHECK: onnx.Concat %{{.*}} {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = onnx.Concat %y {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<4x2x?xf32>, tensor<4x?x2xf32>, tensor<2x?xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @slice_gather
func.func @slice_gather(%x: tensor<10x?xf32>, %s: tensor<1xi64>, %i: tensor<3xi32>)
    -> (tensor<4x?xf32>, tensor<?x?xf32>, tensor<3x?xf32>, tensor<10x2x2xf32>) {
  %start = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %end = onnx.Constant {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = onnx.Constant {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %step = onnx.Constant {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.Slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10x?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x?xf32>
  %0 = onnx.Slice %x, %start, %end, %axes, %step
      : (tensor<10x?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x?xf32>
  // CHECK: onnx.Slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10x?xf32>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<?x?xf32>
  %1 = onnx.Slice %x, %s, %s, %none, %none
      : (tensor<10x?xf32>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<?x?xf32>
  // An attribute equal to its default is not printed.
  // CHECK: onnx.Gather %{{.*}}, %{{.*}} : (tensor<10x?xf32>, tensor<3xi32>) -> tensor<3x?xf32>
  %2 = onnx.Gather %x, %i {axis = 0 : i64} : (tensor<10x?xf32>, tensor<3xi32>) -> tensor<3x?xf32>
  %idx = onnx.Constant {value = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  // CHECK: onnx.Gather %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<10x?xf32>, tensor<2x2xi64>) -> tensor<10x2x2xf32>
  %3 = onnx.Gather %x, %idx {axis = -1 : i64} : (tensor<10x?xf32>, tensor<2x2xi64>) -> tensor<10x2x2xf32>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<?x?xf32>, tensor<3x?xf32>, tensor<10x2x2xf32>
}

// A 0-D `axes` is one axis (ONNX's function bodies pass them so).
// CHECK-LABEL: func.func @unsqueeze_scalar_axes
func.func @unsqueeze_scalar_axes(%x: tensor<2x3xf32>) -> tensor<2x3x1xf32> {
  %axis = onnx.Constant {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  // CHECK: onnx.Unsqueeze %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3x1xf32>
  %0 = onnx.Unsqueeze %x, %axis : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3x1xf32>
  return %0 : tensor<2x3x1xf32>
}

// CHECK-LABEL: func.func @squeeze_unsqueeze
func.func @squeeze_unsqueeze(%x: tensor<1x?x1xf32>, %a: tensor<1xi64>)
    -> (tensor<?x1xf32>, tensor<?xf32>, tensor<1x?x1x1xf32>, tensor<?x?x?x?xf32>) {
  %axes = onnx.Constant {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.Squeeze %{{.*}}, %{{.*}} : (tensor<1x?x1xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %0 = onnx.Squeeze %x, %axes : (tensor<1x?x1xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  // CHECK: onnx.Squeeze %{{.*}}, %{{.*}} : (tensor<1x?x1xf32>, none) -> tensor<?xf32>
  %1 = onnx.Squeeze %x, %none : (tensor<1x?x1xf32>, none) -> tensor<?xf32>
  %last = onnx.Constant {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: onnx.Unsqueeze %{{.*}}, %{{.*}} : (tensor<1x?x1xf32>, tensor<1xi64>) -> tensor<1x?x1x1xf32>
  %2 = onnx.Unsqueeze %x, %last : (tensor<1x?x1xf32>, tensor<1xi64>) -> tensor<1x?x1x1xf32>
  // CHECK: onnx.Unsqueeze %{{.*}}, %{{.*}} : (tensor<1x?x1xf32>, tensor<1xi64>) -> tensor<?x?x?x?xf32>
  %3 = onnx.Unsqueeze %x, %a : (tensor<1x?x1xf32>, tensor<1xi64>) -> tensor<?x?x?x?xf32>
  return %0, %1, %2, %3 : tensor<?x1xf32>, tensor<?xf32>, tensor<1x?x1x1xf32>, tensor<?x?x?x?xf32>
}

// CHECK-LABEL: func.func @expand_constant_of_shape
func.func @expand_constant_of_shape(%x: tensor<3x1xf32>, %s: tensor<2xi64>)
    -> (tensor<3x4xf32>, tensor<?x?xf32>, tensor<?x?xi64>, tensor<2x3xf32>) {
  %shape = onnx.Constant {value = dense<[1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Expand %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  %0 = onnx.Expand %x, %shape : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  // CHECK: onnx.Expand %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = onnx.Expand %x, %s : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: onnx.ConstantOfShape %{{.*}} {value = dense<1> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<?x?xi64>
  %2 = onnx.ConstantOfShape %s {value = dense<1> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<?x?xi64>
  %c = onnx.Constant {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.ConstantOfShape %{{.*}} : (tensor<2xi64>) -> tensor<2x3xf32>
  %3 = onnx.ConstantOfShape %c : (tensor<2xi64>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<?x?xf32>, tensor<?x?xi64>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: tensor<2x?x4xf32>, %a: tensor<1xi64>)
    -> (tensor<2x?xf32>, tensor<1x1x1xf32>, tensor<?x?x?xf32>, tensor<2x?x4xf32>) {
  %axes = onnx.Constant {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.ReduceMean %{{.*}}, %{{.*}} {keepdims = 0 : i64} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<2x?xf32>
  %0 = onnx.ReduceMean %x, %axes {keepdims = 0 : i64} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<2x?xf32>
  // CHECK: onnx.ReduceSum %{{.*}}, %{{.*}} : (tensor<2x?x4xf32>, none) -> tensor<1x1x1xf32>
  %1 = onnx.ReduceSum %x, %none : (tensor<2x?x4xf32>, none) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceMax %{{.*}}, %{{.*}} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  %2 = onnx.ReduceMax %x, %a : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  // CHECK: onnx.ReduceSum %{{.*}}, %{{.*}} {noop_with_empty_axes = 1 : i64} : (tensor<2x?x4xf32>, none) -> tensor<2x?x4xf32>
  %3 = onnx.ReduceSum %x, %none {noop_with_empty_axes = 1 : i64} : (tensor<2x?x4xf32>, none) -> tensor<2x?x4xf32>
  return %0, %1, %2, %3 : tensor<2x?xf32>, tensor<1x1x1xf32>, tensor<?x?x?xf32>, tensor<2x?x4xf32>
}

// CHECK-LABEL: func.func @reduce_more
func.func @reduce_more(%x: tensor<2x?x4xf32>, %i: tensor<3x4xi32>, %a: tensor<2xi64>)
    -> (tensor<2x?xf32>, tensor<1x1x1xf32>, tensor<2x?x1xf32>, tensor<?xf32>, tensor<?x?x?xf32>, tensor<1x?x4xf32>, tensor<i32>, tensor<2x1x4xf32>) {
  %axes = onnx.Constant {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.ReduceMin %{{.*}}, %{{.*}} {keepdims = 0 : i64} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<2x?xf32>
  %0 = onnx.ReduceMin %x, %axes {keepdims = 0 : i64} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<2x?xf32>
  // CHECK: onnx.ReduceProd %{{.*}}, %{{.*}} : (tensor<2x?x4xf32>, none) -> tensor<1x1x1xf32>
  %1 = onnx.ReduceProd %x, %none : (tensor<2x?x4xf32>, none) -> tensor<1x1x1xf32>
  // CHECK: onnx.ReduceL1 %{{.*}}, %{{.*}} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<2x?x1xf32>
  %2 = onnx.ReduceL1 %x, %axes : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<2x?x1xf32>
  // Axes known at run time: with a static count, the rank is known.
  // CHECK: onnx.ReduceL2 %{{.*}}, %{{.*}} {keepdims = 0 : i64} : (tensor<2x?x4xf32>, tensor<2xi64>) -> tensor<?xf32>
  %3 = onnx.ReduceL2 %x, %a {keepdims = 0 : i64} : (tensor<2x?x4xf32>, tensor<2xi64>) -> tensor<?xf32>
  // CHECK: onnx.ReduceLogSum %{{.*}}, %{{.*}} : (tensor<2x?x4xf32>, tensor<2xi64>) -> tensor<?x?x?xf32>
  %4 = onnx.ReduceLogSum %x, %a : (tensor<2x?x4xf32>, tensor<2xi64>) -> tensor<?x?x?xf32>
  %first = onnx.Constant {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: onnx.ReduceLogSumExp %{{.*}}, %{{.*}} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<1x?x4xf32>
  %5 = onnx.ReduceLogSumExp %x, %first : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<1x?x4xf32>
  // CHECK: onnx.ReduceSumSquare %{{.*}}, %{{.*}} {keepdims = 0 : i64} : (tensor<3x4xi32>, none) -> tensor<i32>
  %6 = onnx.ReduceSumSquare %i, %none {keepdims = 0 : i64} : (tensor<3x4xi32>, none) -> tensor<i32>
  %mid = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: onnx.ReduceMean %{{.*}}, %{{.*}} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  %7 = onnx.ReduceMean %x, %mid : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x?xf32>, tensor<1x1x1xf32>, tensor<2x?x1xf32>, tensor<?xf32>, tensor<?x?x?xf32>, tensor<1x?x4xf32>, tensor<i32>, tensor<2x1x4xf32>
}

// CHECK-LABEL: func.func @arg_reduce_cumsum_topk
func.func @arg_reduce_cumsum_topk(%x: tensor<2x?x4xf32>, %axis: tensor<i32>, %k: tensor<1xi64>)
    -> (tensor<2x4xi64>, tensor<2x?x1xi64>, tensor<2x?x4xf32>, tensor<2x?x?xf32>, tensor<2x?x?xi64>, tensor<2x?x3xf32>) {
  // CHECK: onnx.ArgMax %{{.*}} {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x?x4xf32>) -> tensor<2x4xi64>
  %0 = onnx.ArgMax %x {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x?x4xf32>) -> tensor<2x4xi64>
  // CHECK: onnx.ArgMin %{{.*}} {axis = -1 : i64, select_last_index = 1 : i64} : (tensor<2x?x4xf32>) -> tensor<2x?x1xi64>
  %1 = onnx.ArgMin %x {axis = -1 : i64, select_last_index = 1 : i64} : (tensor<2x?x4xf32>) -> tensor<2x?x1xi64>
  // CHECK: onnx.CumSum %{{.*}}, %{{.*}} {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<2x?x4xf32>, tensor<i32>) -> tensor<2x?x4xf32>
  %2 = onnx.CumSum %x, %axis {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<2x?x4xf32>, tensor<i32>) -> tensor<2x?x4xf32>
  // CHECK: %{{.+}}, %{{.+}} = onnx.TopK %{{.*}}, %{{.*}} : (tensor<2x?x4xf32>, tensor<1xi64>) -> (tensor<2x?x?xf32>, tensor<2x?x?xi64>)
  %3, %4 = onnx.TopK %x, %k : (tensor<2x?x4xf32>, tensor<1xi64>) -> (tensor<2x?x?xf32>, tensor<2x?x?xi64>)
  %three = onnx.Constant {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: onnx.TopK %{{.*}}, %{{.*}} {largest = 0 : i64, sorted = 0 : i64} : (tensor<2x?x4xf32>, tensor<1xi64>) -> (tensor<2x?x3xf32>, tensor<2x?x3xi64>)
  %5, %6 = onnx.TopK %x, %three {largest = 0 : i64, sorted = 0 : i64} : (tensor<2x?x4xf32>, tensor<1xi64>) -> (tensor<2x?x3xf32>, tensor<2x?x3xi64>)
  // CHECK: onnx.CumProd %{{.*}}, %{{.*}} {exclusive = 1 : i64} : (tensor<2x?x4xf32>, tensor<i32>) -> tensor<2x?x4xf32>
  %7 = onnx.CumProd %2, %axis {exclusive = 1 : i64} : (tensor<2x?x4xf32>, tensor<i32>) -> tensor<2x?x4xf32>
  return %0, %1, %7, %3, %4, %5 : tensor<2x4xi64>, tensor<2x?x1xi64>, tensor<2x?x4xf32>, tensor<2x?x?xf32>, tensor<2x?x?xi64>, tensor<2x?x3xf32>
}

// CHECK-LABEL: func.func @normalization_more
func.func @normalization_more(%x: tensor<?x3x4x4xf32>, %p: tensor<3xf32>, %t: tensor<5xi64>,
                              %w: tensor<3xf32>)
    -> (tensor<?x3x4x4xf32>, tensor<?x3x4x4xf32>, tensor<?x3x4x4xf32>, tensor<?x3x4x4xf32>, tensor<?x3x4x4xf32>) {
  // CHECK: onnx.LogSoftmax %{{.*}} {axis = 1 : i64} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  %0 = onnx.LogSoftmax %x {axis = 1 : i64} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  // CHECK: onnx.Hardmax %{{.*}} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  %1 = onnx.Hardmax %0 : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  // CHECK: onnx.InstanceNormalization %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 0.00999999977 : f32} : (tensor<?x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x4x4xf32>
  %2 = onnx.InstanceNormalization %1, %p, %p {epsilon = 1.0e-2 : f32} : (tensor<?x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x4x4xf32>
  // CHECK: onnx.LpNormalization %{{.*}} {axis = 1 : i64, p = 1 : i64} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  %3 = onnx.LpNormalization %2 {axis = 1 : i64, p = 1 : i64} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  // CHECK: onnx.MeanVarianceNormalization %{{.*}} {axes = array<i64: 1>} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  %4 = onnx.MeanVarianceNormalization %3 {axes = array<i64: 1>} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  // The default axes are not printed.
  // CHECK: onnx.MeanVarianceNormalization %{{.*}} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  %5 = onnx.MeanVarianceNormalization %3 {axes = array<i64: 0, 2, 3>} : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  return %0, %1, %2, %4, %5 : tensor<?x3x4x4xf32>, tensor<?x3x4x4xf32>, tensor<?x3x4x4xf32>, tensor<?x3x4x4xf32>, tensor<?x3x4x4xf32>
}

// CHECK-LABEL: func.func @losses_einsum
func.func @losses_einsum(%x: tensor<5x3x2xf32>, %t: tensor<5x2xi64>, %w: tensor<3xf32>,
                         %a: tensor<2x3xf64>, %b: tensor<3x4xf64>)
    -> (tensor<f32>, tensor<5x2xf32>, tensor<f32>, tensor<5x3x2xf32>, tensor<2x4xf64>, tensor<3x2xf64>) {
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.NegativeLogLikelihoodLoss %{{.*}}, %{{.*}}, %{{.*}} {ignore_index = -1 : i64} : (tensor<5x3x2xf32>, tensor<5x2xi64>, tensor<3xf32>) -> tensor<f32>
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %w {ignore_index = -1 : i64} : (tensor<5x3x2xf32>, tensor<5x2xi64>, tensor<3xf32>) -> tensor<f32>
  // CHECK: onnx.NegativeLogLikelihoodLoss %{{.*}}, %{{.*}}, %{{.*}} {reduction = "none"} : (tensor<5x3x2xf32>, tensor<5x2xi64>, none) -> tensor<5x2xf32>
  %1 = onnx.NegativeLogLikelihoodLoss %x, %t, %none {reduction = "none"} : (tensor<5x3x2xf32>, tensor<5x2xi64>, none) -> tensor<5x2xf32>
  // CHECK: %{{.+}}, %{{.+}} = onnx.SoftmaxCrossEntropyLoss %{{.*}}, %{{.*}}, %{{.*}} {reduction = "sum"} : (tensor<5x3x2xf32>, tensor<5x2xi64>, tensor<3xf32>) -> (tensor<f32>, tensor<5x3x2xf32>)
  %2, %3 = onnx.SoftmaxCrossEntropyLoss %x, %t, %w {reduction = "sum"} : (tensor<5x3x2xf32>, tensor<5x2xi64>, tensor<3xf32>) -> (tensor<f32>, tensor<5x3x2xf32>)
  // CHECK: onnx.Einsum %{{.*}}, %{{.*}} {equation = "ij, jk -> ik"} : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  %4 = onnx.Einsum %a, %b {equation = "ij, jk -> ik"} : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  // Implicit output: the letters seen once, sorted (here a transpose).
  // CHECK: onnx.Einsum %{{.*}} {equation = "ji"} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  %5 = onnx.Einsum %a {equation = "ji"} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<f32>, tensor<5x2xf32>, tensor<f32>, tensor<5x3x2xf32>, tensor<2x4xf64>, tensor<3x2xf64>
}

// CHECK-LABEL: func.func @gather_scatter
func.func @gather_scatter(%x: tensor<3x?xf32>, %i: tensor<2x?xi64>, %u: tensor<2x?xf32>,
                          %nd: tensor<2x1xi64>, %ndu: tensor<2x?xf32>)
    -> (tensor<2x?xf32>, tensor<3x?xf32>, tensor<2x?xf32>, tensor<3x?xf32>, tensor<i64>) {
  // CHECK: onnx.GatherElements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<3x?xf32>, tensor<2x?xi64>) -> tensor<2x?xf32>
  %0 = onnx.GatherElements %x, %i {axis = 1 : i64} : (tensor<3x?xf32>, tensor<2x?xi64>) -> tensor<2x?xf32>
  // CHECK: onnx.ScatterElements %{{.*}}, %{{.*}}, %{{.*}} {reduction = "add"} : (tensor<3x?xf32>, tensor<2x?xi64>, tensor<2x?xf32>) -> tensor<3x?xf32>
  %1 = onnx.ScatterElements %x, %i, %u {reduction = "add"} : (tensor<3x?xf32>, tensor<2x?xi64>, tensor<2x?xf32>) -> tensor<3x?xf32>
  // CHECK: onnx.GatherND %{{.*}}, %{{.*}} : (tensor<3x?xf32>, tensor<2x1xi64>) -> tensor<2x?xf32>
  %2 = onnx.GatherND %x, %nd : (tensor<3x?xf32>, tensor<2x1xi64>) -> tensor<2x?xf32>
  // CHECK: onnx.ScatterND %{{.*}}, %{{.*}}, %{{.*}} {reduction = "mul"} : (tensor<3x?xf32>, tensor<2x1xi64>, tensor<2x?xf32>) -> tensor<3x?xf32>
  %3 = onnx.ScatterND %x, %nd, %ndu {reduction = "mul"} : (tensor<3x?xf32>, tensor<2x1xi64>, tensor<2x?xf32>) -> tensor<3x?xf32>
  // CHECK: onnx.Size %{{.*}} : (tensor<3x?xf32>) -> tensor<i64>
  %4 = onnx.Size %x : (tensor<3x?xf32>) -> tensor<i64>
  return %0, %1, %2, %3, %4 : tensor<2x?xf32>, tensor<3x?xf32>, tensor<2x?xf32>, tensor<3x?xf32>, tensor<i64>
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%x: tensor<2x6xf32>, %r: tensor<2xi64>, %k: tensor<i64>, %s: tensor<2xi64>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x?xf32>, tensor<2x?xf32>, tensor<4x18xf32>, tensor<?x?xf32>, tensor<2x6xf32>) {
  %none = onnx.NoValue : () -> none
  // CHECK: %{{.+}}:2 = onnx.Split %{{.*}}, %{{.*}} {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<2x6xf32>, none) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %0, %1 = onnx.Split %x, %none {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<2x6xf32>, none) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: %{{.+}}:2 = onnx.Split %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<2x6xf32>, tensor<2xi64>) -> (tensor<2x?xf32>, tensor<2x?xf32>)
  %2, %3 = onnx.Split %x, %s {axis = -1 : i64} : (tensor<2x6xf32>, tensor<2xi64>) -> (tensor<2x?xf32>, tensor<2x?xf32>)
  %reps = onnx.Constant {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Tile %{{.*}}, %{{.*}} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<4x18xf32>
  %4 = onnx.Tile %x, %reps : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<4x18xf32>
  // CHECK: onnx.Tile %{{.*}}, %{{.*}} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %5 = onnx.Tile %x, %r : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: onnx.Trilu %{{.*}}, %{{.*}} {upper = 0 : i64} : (tensor<2x6xf32>, tensor<i64>) -> tensor<2x6xf32>
  %6 = onnx.Trilu %x, %k {upper = 0 : i64} : (tensor<2x6xf32>, tensor<i64>) -> tensor<2x6xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x?xf32>, tensor<2x?xf32>, tensor<4x18xf32>, tensor<?x?xf32>, tensor<2x6xf32>
}

// CHECK-LABEL: func.func @pad_onehot_eyelike_range
func.func @pad_onehot_eyelike_range(%x: tensor<2x3xf32>, %p: tensor<4xi64>, %v: tensor<f32>,
                                    %i: tensor<4xi64>, %d: tensor<f32>, %vals: tensor<2xi32>,
                                    %s: tensor<i64>)
    -> (tensor<3x6xf32>, tensor<?x?xf32>, tensor<4x?xi32>, tensor<2x3xf64>, tensor<4xf32>, tensor<?xi64>) {
  %pads = onnx.Constant {value = dense<[0, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.Pad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<4xi64>, tensor<f32>, none) -> tensor<3x6xf32>
  %0 = onnx.Pad %x, %pads, %v, %none : (tensor<2x3xf32>, tensor<4xi64>, tensor<f32>, none) -> tensor<3x6xf32>
  // CHECK: onnx.Pad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<?x?xf32>
  %1 = onnx.Pad %x, %p, %none, %none {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<?x?xf32>
  // CHECK: onnx.OneHot %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<f32>, tensor<2xi32>) -> tensor<4x?xi32>
  %2 = onnx.OneHot %i, %d, %vals : (tensor<4xi64>, tensor<f32>, tensor<2xi32>) -> tensor<4x?xi32>
  // CHECK: onnx.EyeLike %{{.*}} {dtype = 11 : i64, k = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf64>
  %3 = onnx.EyeLike %x {dtype = 11 : i64, k = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf64>
  %start = onnx.Constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %limit = onnx.Constant {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %delta = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  // CHECK: onnx.Range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %4 = onnx.Range %start, %limit, %delta : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: onnx.Range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %5 = onnx.Range %s, %s, %s : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<3x6xf32>, tensor<?x?xf32>, tensor<4x?xi32>, tensor<2x3xf64>, tensor<4xf32>, tensor<?xi64>
}

// CHECK-LABEL: func.func @depth_space
func.func @depth_space(%x: tensor<1x8x2x3xf32>, %y: tensor<?x2x4x?xf32>)
    -> (tensor<1x2x4x6xf32>, tensor<?x8x2x?xf32>) {
  // CHECK: onnx.DepthToSpace %{{.*}} {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  // CHECK: onnx.SpaceToDepth %{{.*}} {blocksize = 2 : i64} : (tensor<?x2x4x?xf32>) -> tensor<?x8x2x?xf32>
  %1 = onnx.SpaceToDepth %y {blocksize = 2 : i64} : (tensor<?x2x4x?xf32>) -> tensor<?x8x2x?xf32>
  return %0, %1 : tensor<1x2x4x6xf32>, tensor<?x8x2x?xf32>
}

// Unranked operands are accepted where the spec allows any rank.
// CHECK-LABEL: func.func @unranked
func.func @unranked(%x: tensor<*xf32>, %y: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<?xi64>) {
  // CHECK: onnx.Add %{{.*}}, %{{.*}} : (tensor<*xf32>, tensor<4xf32>) -> tensor<*xf32>
  %0 = onnx.Add %x, %y : (tensor<*xf32>, tensor<4xf32>) -> tensor<*xf32>
  // CHECK: onnx.Relu %{{.*}} : (tensor<*xf32>) -> tensor<*xf32>
  %1 = onnx.Relu %0 : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: onnx.Shape %{{.*}} : (tensor<*xf32>) -> tensor<?xi64>
  %2 = onnx.Shape %1 : (tensor<*xf32>) -> tensor<?xi64>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<?xi64>
}

// CHECK-LABEL: func.func @convtranspose
func.func @convtranspose(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>,
                         %b: tensor<4xf32>, %d: tensor<?x4x?xf32>,
                         %v: tensor<4x1x2xf32>) -> (tensor<1x4x10x8xf32>, tensor<?x4x?xf32>) {
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.ConvTranspose {{.*}} {group = 2 : i64, output_shape = array<i64: 10, 8>, strides = array<i64: 3, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x10x8xf32>
  %0 = onnx.ConvTranspose %x, %w, %b {group = 2 : i64, output_shape = array<i64: 10, 8>, strides = array<i64: 3, 2>}
      : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x10x8xf32>
  // CHECK: onnx.ConvTranspose {{.*}} {auto_pad = "SAME_UPPER", group = 4 : i64, strides = array<i64: 2>} : (tensor<?x4x?xf32>, tensor<4x1x2xf32>, none) -> tensor<?x4x?xf32>
  %1 = onnx.ConvTranspose %d, %v, %none {auto_pad = "SAME_UPPER", group = 4 : i64, strides = array<i64: 2>}
      : (tensor<?x4x?xf32>, tensor<4x1x2xf32>, none) -> tensor<?x4x?xf32>
  return %0, %1 : tensor<1x4x10x8xf32>, tensor<?x4x?xf32>
}

// CHECK-LABEL: func.func @resize
func.func @resize(%x: tensor<1x3x4x4xf32>, %roi: tensor<8xf32>, %s: tensor<4xf32>, %z: tensor<4xi64>)
    -> (tensor<?x?x?x?xf32>, tensor<1x3x8x8xf32>) {
  %none = onnx.NoValue : () -> none
  %c = onnx.Constant {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // CHECK: onnx.Resize {{.*}} {coordinate_transformation_mode = "tf_crop_and_resize", mode = "linear"} : (tensor<1x3x4x4xf32>, tensor<8xf32>, none, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %0 = onnx.Resize %x, %roi, %none, %z {coordinate_transformation_mode = "tf_crop_and_resize", mode = "linear"}
      : (tensor<1x3x4x4xf32>, tensor<8xf32>, none, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  // CHECK: onnx.Resize {{.*}} {cubic_coeff_a = -5.000000e-01 : f32, exclude_outside = 1 : i64, mode = "cubic"} : (tensor<1x3x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x3x8x8xf32>
  %1 = onnx.Resize %x, %none, %c, %none {cubic_coeff_a = -5.000000e-01 : f32, exclude_outside = 1 : i64, mode = "cubic"}
      : (tensor<1x3x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x3x8x8xf32>
  return %0, %1 : tensor<?x?x?x?xf32>, tensor<1x3x8x8xf32>
}

// CHECK-LABEL: func.func @resize_antialias
func.func @resize_antialias(%x: tensor<1x3x8x8xf32>, %s: tensor<4xf32>) -> tensor<1x3x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.Resize {{.*}} {antialias = 1 : i64, mode = "linear"} : (tensor<1x3x8x8xf32>, none, tensor<4xf32>, none) -> tensor<1x3x?x?xf32>
  %0 = onnx.Resize %x, %none, %s, %none {antialias = 1 : i64, mode = "linear"}
      : (tensor<1x3x8x8xf32>, none, tensor<4xf32>, none) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}

// CHECK-LABEL: func.func @gridsample
func.func @gridsample(%x: tensor<?x3x4x4xf32>, %g: tensor<?x5x6x2xf32>) -> tensor<?x3x5x6xf32> {
  // CHECK: onnx.GridSample {{.*}} {align_corners = 1 : i64, mode = "nearest", padding_mode = "reflection"} : (tensor<?x3x4x4xf32>, tensor<?x5x6x2xf32>) -> tensor<?x3x5x6xf32>
  %0 = onnx.GridSample %x, %g {align_corners = 1 : i64, mode = "nearest", padding_mode = "reflection"}
      : (tensor<?x3x4x4xf32>, tensor<?x5x6x2xf32>) -> tensor<?x3x5x6xf32>
  return %0 : tensor<?x3x5x6xf32>
}

// CHECK-LABEL: func.func @gridsample_volumetric
func.func @gridsample_volumetric(%x: tensor<2x3x4x4x4xf32>, %g: tensor<?x5x6x7x3xf32>) -> tensor<2x3x5x6x7xf32> {
  // CHECK: onnx.GridSample {{.*}} : (tensor<2x3x4x4x4xf32>, tensor<?x5x6x7x3xf32>) -> tensor<2x3x5x6x7xf32>
  %0 = onnx.GridSample %x, %g : (tensor<2x3x4x4x4xf32>, tensor<?x5x6x7x3xf32>) -> tensor<2x3x5x6x7xf32>
  return %0 : tensor<2x3x5x6x7xf32>
}

// CHECK-LABEL: func.func @image_geometry
func.func @image_geometry(%cols: tensor<1x5x15xf32>, %shape2: tensor<2xi64>,
                          %theta: tensor<2x2x3xf32>, %size: tensor<4xi64>,
                          %x: tensor<1x2x3x3xf32>, %w: tensor<1x2x2x2xf32>,
                          %off: tensor<1x16x2x2xf32>, %mask: tensor<1x8x2x2xf32>)
    -> (tensor<1x1x5x5xf32>, tensor<1x?x?x?xf32>, tensor<2x?x?x2xf32>,
        tensor<2x5x6x2xf32>, tensor<1x1x2x2xf32>) {
  %none = onnx.NoValue : () -> none
  %image = onnx.Constant {value = dense<5> : tensor<2xi64>} : () -> tensor<2xi64>
  %block = onnx.Constant {value = dense<[1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Col2Im %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 0, 1, 0, 1>} : (tensor<1x5x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x5x5xf32>
  %0 = onnx.Col2Im %cols, %image, %block {pads = array<i64: 0, 1, 0, 1>} : (tensor<1x5x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x5x5xf32>
  // CHECK: onnx.Col2Im %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x5x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?x?x?xf32>
  %1 = onnx.Col2Im %cols, %shape2, %shape2 : (tensor<1x5x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?x?x?xf32>
  // CHECK: onnx.AffineGrid %{{.*}}, %{{.*}} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x?x?x2xf32>
  %2 = onnx.AffineGrid %theta, %size : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x?x?x2xf32>
  %sizes = onnx.Constant {value = dense<[2, 3, 5, 6]> : tensor<4xi64>} : () -> tensor<4xi64>
  // CHECK: onnx.AffineGrid %{{.*}}, %{{.*}} {align_corners = 1 : i64} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x5x6x2xf32>
  %3 = onnx.AffineGrid %theta, %sizes {align_corners = 1 : i64} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x5x6x2xf32>
  // CHECK: onnx.DeformConv %{{.*}} {offset_group = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<1x2x2x2xf32>, tensor<1x16x2x2xf32>, none, tensor<1x8x2x2xf32>) -> tensor<1x1x2x2xf32>
  %4 = onnx.DeformConv %x, %w, %off, %none, %mask {offset_group = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<1x2x2x2xf32>, tensor<1x16x2x2xf32>, none, tensor<1x8x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0, %1, %2, %3, %4 : tensor<1x1x5x5xf32>, tensor<1x?x?x?xf32>, tensor<2x?x?x2xf32>, tensor<2x5x6x2xf32>, tensor<1x1x2x2xf32>
}

// CHECK-LABEL: func.func @image_decoder
func.func @image_decoder(%x: tensor<?xui8>) -> (tensor<?x?x3xui8>, tensor<?x?x1xui8>) {
  // CHECK: onnx.ImageDecoder %{{.*}} : (tensor<?xui8>) -> tensor<?x?x3xui8>
  %0 = onnx.ImageDecoder %x : (tensor<?xui8>) -> tensor<?x?x3xui8>
  // CHECK: onnx.ImageDecoder %{{.*}} {pixel_format = "Grayscale"} : (tensor<?xui8>) -> tensor<?x?x1xui8>
  %1 = onnx.ImageDecoder %x {pixel_format = "Grayscale"} : (tensor<?xui8>) -> tensor<?x?x1xui8>
  return %0, %1 : tensor<?x?x3xui8>, tensor<?x?x1xui8>
}

// CHECK-LABEL: func.func @tensor_scatter
func.func @tensor_scatter(%cache: tensor<2x1x4x5xf32>, %u: tensor<2x1x2x5xf32>, %i: tensor<2xi64>,
                          %c3: tensor<3x4x5xf32>, %u3: tensor<3x?x5xf32>)
    -> (tensor<2x1x4x5xf32>, tensor<3x4x5xf32>) {
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.TensorScatter %{{.*}}, %{{.*}}, %{{.*}} {mode = "circular"} : (tensor<2x1x4x5xf32>, tensor<2x1x2x5xf32>, tensor<2xi64>) -> tensor<2x1x4x5xf32>
  %0 = onnx.TensorScatter %cache, %u, %i {mode = "circular"} : (tensor<2x1x4x5xf32>, tensor<2x1x2x5xf32>, tensor<2xi64>) -> tensor<2x1x4x5xf32>
  // CHECK: onnx.TensorScatter %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<3x4x5xf32>, tensor<3x?x5xf32>, none) -> tensor<3x4x5xf32>
  %1 = onnx.TensorScatter %c3, %u3, %none {axis = 1 : i64} : (tensor<3x4x5xf32>, tensor<3x?x5xf32>, none) -> tensor<3x4x5xf32>
  return %0, %1 : tensor<2x1x4x5xf32>, tensor<3x4x5xf32>
}

// Large initializers are dense resources.
// CHECK-LABEL: func.func @resource_constant
func.func @resource_constant() -> tensor<2x2xf32> {
  // CHECK: onnx.Constant {value = dense_resource<weight> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %0 = onnx.Constant {value = dense_resource<weight> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @recurrent
func.func @recurrent(%x: tensor<?x?x3xf32>, %w: tensor<2x12x3xf32>, %r: tensor<2x12x4xf32>,
                     %lens: tensor<?xi32>, %w1: tensor<2x4x3xf32>, %r1: tensor<2x4x4xf32>) -> (tensor<?x2x?x4xf32>, tensor<2x?x4xf32>, tensor<?x?x2x4xf32>) {
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.GRU %{{.*}} {direction = "bidirectional", hidden_size = 4 : i64, linear_before_reset = 1 : i64} : (tensor<?x?x3xf32>, tensor<2x12x3xf32>, tensor<2x12x4xf32>, none, tensor<?xi32>, none) -> (tensor<?x2x?x4xf32>, tensor<2x?x4xf32>)
  %y, %h = onnx.GRU %x, %w, %r, %none, %lens, %none {direction = "bidirectional", hidden_size = 4 : i64, linear_before_reset = 1 : i64} : (tensor<?x?x3xf32>, tensor<2x12x3xf32>, tensor<2x12x4xf32>, none, tensor<?xi32>, none) -> (tensor<?x2x?x4xf32>, tensor<2x?x4xf32>)
  // CHECK: onnx.RNN %{{.*}} {activations = ["Relu", "Tanh"], direction = "bidirectional", hidden_size = 4 : i64, layout = 1 : i64} : (tensor<?x?x3xf32>, tensor<2x4x3xf32>, tensor<2x4x4xf32>, none, none, none) -> (tensor<?x?x2x4xf32>, tensor<?x2x4xf32>)
  %y2, %h2 = onnx.RNN %x, %w1, %r1, %none, %none, %none {activations = ["Relu", "Tanh"], direction = "bidirectional", hidden_size = 4 : i64, layout = 1 : i64} : (tensor<?x?x3xf32>, tensor<2x4x3xf32>, tensor<2x4x4xf32>, none, none, none) -> (tensor<?x?x2x4xf32>, tensor<?x2x4xf32>)
  return %y, %h, %y2 : tensor<?x2x?x4xf32>, tensor<2x?x4xf32>, tensor<?x?x2x4xf32>
}

// CHECK-LABEL: func.func @quantized
func.func @quantized(%x: tensor<1x3x4x4xf32>, %s: tensor<3xf32>, %z: tensor<3xui8>,
                     %w: tensor<2x3x3x3xi8>, %ws: tensor<2xf32>, %wz: tensor<2xi8>,
                     %ys: tensor<f32>, %yz: tensor<ui8>) -> (tensor<1x2x2x2xui8>, tensor<1x3x4x4xf32>) {
  %none = onnx.NoValue : () -> none
  // CHECK: onnx.QuantizeLinear %{{.*}} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x4x4xui8>
  %q = onnx.QuantizeLinear %x, %s, %z : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x4x4xui8>
  // CHECK: onnx.DequantizeLinear %{{.*}} : (tensor<1x3x4x4xui8>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x4x4xf32>
  %d = onnx.DequantizeLinear %q, %s, %z : (tensor<1x3x4x4xui8>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x4x4xf32>
  %q1 = onnx.QuantizeLinear %x, %ys, %yz : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xui8>
  // CHECK: onnx.QLinearConv %{{.*}} : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x2x2x2xui8>
  %0 = onnx.QLinearConv %q1, %ys, %yz, %w, %ws, %wz, %ys, %yz, %none : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x2x2x2xui8>
  // CHECK: onnx.ConvInteger %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x3x4x4xui8>, tensor<2x3x3x3xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<1x2x1x1xi32>
  %1 = onnx.ConvInteger %q1, %w, %yz, %wz {strides = array<i64: 2, 2>} : (tensor<1x3x4x4xui8>, tensor<2x3x3x3xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<1x2x1x1xi32>
  return %0, %d : tensor<1x2x2x2xui8>, tensor<1x3x4x4xf32>
}

// CHECK-LABEL: func.func @quantized_blocked
func.func @quantized_blocked(%x: tensor<3x4xf32>, %s: tensor<3x2xf32>, %z: tensor<3x2xi8>) -> tensor<3x4xf32> {
  // CHECK: onnx.QuantizeLinear %{{.*}} {block_size = 2 : i64} : (tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x2xi8>) -> tensor<3x4xi8>
  %q = onnx.QuantizeLinear %x, %s, %z {block_size = 2 : i64} : (tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x2xi8>) -> tensor<3x4xi8>
  // CHECK: onnx.DequantizeLinear %{{.*}} {axis = 0 : i64, block_size = 3 : i64} : (tensor<3x4xi8>, tensor<1x4xf32>, none) -> tensor<3x4xf32>
  %none = onnx.NoValue : () -> none
  %s0 = onnx.Constant {value = dense<1.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %d = onnx.DequantizeLinear %q, %s0, %none {axis = 0 : i64, block_size = 3 : i64} : (tensor<3x4xi8>, tensor<1x4xf32>, none) -> tensor<3x4xf32>
  return %d : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @strings
func.func @strings(%x: tensor<3x!onnx.string>, %y: tensor<1x!onnx.string>) -> (tensor<3xi1>, tensor<3x?x!onnx.string>, tensor<3xi64>, tensor<?x!onnx.string>, tensor<3xi1>) {
  // CHECK: onnx.Constant {value = dense<["a", "b"]> : tensor<2x!onnx.string>}
  %c = onnx.Constant {value = dense<["a", "b"]> : tensor<2x!onnx.string>} : () -> tensor<2x!onnx.string>
  // CHECK: onnx.StringConcat %{{.*}}, %{{.*}} : (tensor<3x!onnx.string>, tensor<1x!onnx.string>) -> tensor<3x!onnx.string>
  %z = onnx.StringConcat %x, %y : (tensor<3x!onnx.string>, tensor<1x!onnx.string>) -> tensor<3x!onnx.string>
  // CHECK: onnx.Equal %{{.*}}, %{{.*}} : (tensor<3x!onnx.string>, tensor<1x!onnx.string>) -> tensor<3xi1>
  %e = onnx.Equal %z, %y : (tensor<3x!onnx.string>, tensor<1x!onnx.string>) -> tensor<3xi1>
  // CHECK: onnx.StringSplit %{{.*}} {delimiter = ".", maxsplit = 1 : i64} : (tensor<3x!onnx.string>) -> (tensor<3x?x!onnx.string>, tensor<3xi64>)
  %p:2 = onnx.StringSplit %z {delimiter = ".", maxsplit = 1 : i64} : (tensor<3x!onnx.string>) -> (tensor<3x?x!onnx.string>, tensor<3xi64>)
  // CHECK: onnx.StringNormalizer %{{.*}} {case_change_action = "LOWER", stopwords = ["a"]} : (tensor<3x!onnx.string>) -> tensor<?x!onnx.string>
  %n = onnx.StringNormalizer %x {case_change_action = "LOWER", stopwords = ["a"]} : (tensor<3x!onnx.string>) -> tensor<?x!onnx.string>
  // CHECK: onnx.RegexFullMatch %{{.*}} {pattern = "[a-z]+\\.(com|org)"} : (tensor<3x!onnx.string>) -> tensor<3xi1>
  %r = onnx.RegexFullMatch %x {pattern = "[a-z]+\\.(com|org)"} : (tensor<3x!onnx.string>) -> tensor<3xi1>
  return %e, %p#0, %p#1, %n, %r : tensor<3xi1>, tensor<3x?x!onnx.string>, tensor<3xi64>, tensor<?x!onnx.string>, tensor<3xi1>
}

// CHECK: dialect_resources
// CHECK: weight: "0x040000000000803F0000004000004040000080C0"
{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F0000004000004040000080C0"
    }
  }
#-}

