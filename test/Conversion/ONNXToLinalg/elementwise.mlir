// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Elementwise ops (passes/Conversion/ONNXToLinalg/Elementwise.cpp): one linalg.generic
// each, with numpy broadcasting in the indexing maps.

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[A:.+]]: tensor<?x3xf32>, %[[B:.+]]: tensor<3xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x3xf32>
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<?x3xf32>, tensor<3xf32>) outs(%[[E]] : tensor<?x3xf32>)
// CHECK: arith.addf
func.func @add_broadcast(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = onnx.Add %a, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// A static size-1 dim facing a larger one reads index 0.
// CHECK-LABEL: func.func @mul_unit_dim
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK: arith.mulf
func.func @mul_unit_dim(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Mul %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @integer_ops
// CHECK: arith.subi
// CHECK: arith.divsi
// CHECK: arith.maxsi
func.func @integer_ops(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = onnx.Sub %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = onnx.Div %0, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %2 = onnx.Relu %1 : (tensor<4xi64>) -> tensor<4xi64>
  return %2 : tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @relu
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.+}}, %[[ZERO]] : f32
func.func @relu(%a: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = onnx.Relu %a : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// CHECK-LABEL: func.func @sigmoid
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
func.func @sigmoid(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Sigmoid %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @clip
// CHECK: %[[LO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic
// CHECK: arith.maximumf %{{.+}}, %[[LO]]
// CHECK-NOT: arith.minimumf
func.func @clip(%a: tensor<4xf32>) -> tensor<4xf32> {
  %lo = onnx.Constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %none = onnx.NoValue : () -> none
  %0 = onnx.Clip %a, %lo, %none : (tensor<4xf32>, tensor<f32>, none) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @pow_int_exponent
// CHECK: %[[E:.+]] = arith.sitofp %{{.+}} : i64 to f32
// CHECK: math.powf %{{.+}}, %[[E]] : f32
func.func @pow_int_exponent(%a: tensor<4xf32>, %b: tensor<i64>) -> tensor<4xf32> {
  %0 = onnx.Pow %a, %b : (tensor<4xf32>, tensor<i64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @compare_where
// CHECK: arith.cmpf olt
// CHECK: arith.cmpi sgt
// CHECK: arith.select
func.func @compare_where(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xf32>) {
  %0 = onnx.Less %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = onnx.Greater %i, %j : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = onnx.Where %1, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %2 : tensor<4xi1>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @leaky_relu
// CHECK: %[[ALPHA:.+]] = arith.constant 1.000000e-01 : f32
// CHECK: %[[NEG:.+]] = arith.cmpf olt
// CHECK: %[[SCALED:.+]] = arith.mulf %{{.+}}, %[[ALPHA]]
// CHECK: arith.select %[[NEG]], %[[SCALED]]
func.func @leaky_relu(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.LeakyRelu %a {alpha = 0.1 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK: arith.fptosi %{{.+}} : f32 to i64
// CHECK: arith.cmpi ne
// CHECK: arith.uitofp %{{.+}} : i1 to f16
func.func @casts(%a: tensor<4xf32>) -> (tensor<4xi64>, tensor<4xf16>) {
  %0 = onnx.Cast %a {to = 7 : i64} : (tensor<4xf32>) -> tensor<4xi64>
  %1 = onnx.Cast %0 {to = 9 : i64} : (tensor<4xi64>) -> tensor<4xi1>
  %2 = onnx.Cast %1 {to = 10 : i64} : (tensor<4xi1>) -> tensor<4xf16>
  return %0, %2 : tensor<4xi64>, tensor<4xf16>
}

// -----

// CHECK-LABEL: func.func @unary_math
// CHECK: math.sqrt
// CHECK: math.erf
// CHECK: math.tanh
// CHECK: math.absf
func.func @unary_math(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Sqrt %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Erf %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Tanh %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = onnx.Abs %2 : (tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// A `?` dim may be 1 at run time: the loop is versioned between affine reads
// (all dims equal) and reads at `dim == 1 ? 0 : i`.
// CHECK-LABEL: func.func @add_runtime_broadcast
func.func @add_runtime_broadcast(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // CHECK: %[[EQ:.+]] = arith.andi
  // CHECK: scf.if %[[EQ]] -> (tensor<?x3xf32>)
  // CHECK: linalg.generic
  // CHECK: } else {
  // CHECK: arith.select
  // CHECK: tensor.extract
  %0 = onnx.Add %a, %b : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Variadic ops: one generic reading every input with its broadcast map.
// CHECK-DAG: #[[ID1:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW1:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[SCALAR:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @variadic
// CHECK: linalg.generic {indexing_maps = [#[[ID1]], #[[ROW1]], #[[SCALAR]], #[[ID1]]]
// CHECK: %[[M:.+]] = arith.maximumf
// CHECK: arith.maximumf %[[M]]
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: %[[S:.+]] = arith.addf
// CHECK: arith.divf %[[S]], %{{.+}} : f32
func.func @variadic(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<f32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %0 = onnx.Max %a, %b, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = onnx.Mean %b, %b, %b : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<3xf32>
}

// -----

// Mod: fmod = 0 on signed integers takes the divisor's sign (Python's %).
// CHECK-LABEL: func.func @mod
// CHECK: %[[REM:.+]] = arith.remsi %[[A:.+]], %[[B:.+]] : i32
// CHECK: %[[DIFFER:.+]] = arith.xori
// CHECK: %[[ADJUST:.+]] = arith.andi %{{.+}}, %[[DIFFER]]
// CHECK: %[[SUM:.+]] = arith.addi %[[REM]], %[[B]]
// CHECK: arith.select %[[ADJUST]], %[[SUM]], %[[REM]]
// CHECK: linalg.generic
// CHECK-NOT: arith.xori
// CHECK: arith.remsi
// CHECK: linalg.generic
// CHECK: arith.remf
func.func @mod(%a: tensor<4xi32>, %b: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) {
  %0 = onnx.Mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = onnx.Mod %a, %b {fmod = 1 : i64} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = onnx.Mod %f, %f {fmod = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
}

// -----

// Unsigned integers compute as signless ones with the unsigned arith ops; the
// function, the constants and the generics end up signless, with no casts.
// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: (%{{.+}}: tensor<4xi8>, %{{.+}}: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi1>, tensor<4xf32>, tensor<4xi8>, tensor<4xi8>)
// CHECK-NOT: unrealized_conversion_cast
// CHECK: arith.constant dense<[1, 2, -56, -1]> : tensor<4xi8>
// CHECK: arith.divui
// CHECK: arith.cmpi ult
// CHECK: arith.uitofp %{{.+}} : i8 to f32
// CHECK: arith.maxui
// CHECK: arith.minui
// CHECK: arith.maxui
// CHECK-NOT: unrealized_conversion_cast
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xf32>, tensor<4xui8>, tensor<4xui8>) {
  %c = onnx.Constant {value = dense<[1, 2, 200, 255]> : tensor<4xui8>} : () -> tensor<4xui8>
  %0 = onnx.Div %a, %c : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = onnx.Less %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %2 = onnx.Cast %a {to = 1 : i64} : (tensor<4xui8>) -> tensor<4xf32>
  %lo = onnx.Constant {value = dense<10> : tensor<ui8>} : () -> tensor<ui8>
  %hi = onnx.Constant {value = dense<200> : tensor<ui8>} : () -> tensor<ui8>
  %3 = onnx.Clip %a, %lo, %hi : (tensor<4xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4xui8>
  %4 = onnx.Max %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0, %1, %2, %3, %4 : tensor<4xui8>, tensor<4xi1>, tensor<4xf32>, tensor<4xui8>, tensor<4xui8>
}

// -----

// Shifts by the bit width or more give 0.
// CHECK-LABEL: func.func @bitshift
// CHECK: %[[WIDTH:.+]] = arith.constant 16 : i16
// CHECK: %[[SHIFTED:.+]] = arith.shli %[[X:.+]], %[[Y:.+]] : i16
// CHECK: %[[FAR:.+]] = arith.cmpi uge, %[[Y]], %[[WIDTH]]
// CHECK: arith.select %[[FAR]], %{{.+}}, %[[SHIFTED]]
// CHECK: arith.shrui
func.func @bitshift(%x: tensor<3xui16>, %y: tensor<3xui16>) -> (tensor<3xui16>, tensor<3xui16>) {
  %0 = onnx.BitShift %x, %y {direction = "LEFT"} : (tensor<3xui16>, tensor<3xui16>) -> tensor<3xui16>
  %1 = onnx.BitShift %x, %y {direction = "RIGHT"} : (tensor<3xui16>, tensor<3xui16>) -> tensor<3xui16>
  return %0, %1 : tensor<3xui16>, tensor<3xui16>
}

// -----

// BitwiseNot flips every bit: xor with all ones.
// CHECK-LABEL: func.func @bitwise
// CHECK: %[[ONES:.+]] = arith.constant -1 : i8
// CHECK: arith.andi %{{.+}}, %{{.+}} : i8
// CHECK: arith.ori %{{.+}}, %{{.+}} : i8
// CHECK: arith.xori %{{.+}}, %{{.+}} : i8
// CHECK: arith.xori %{{.+}}, %[[ONES]] : i8
func.func @bitwise(%a: tensor<2x4xui8>, %b: tensor<4xui8>) -> tensor<2x4xui8> {
  %0 = onnx.BitwiseAnd %a, %b : (tensor<2x4xui8>, tensor<4xui8>) -> tensor<2x4xui8>
  %1 = onnx.BitwiseOr %0, %b : (tensor<2x4xui8>, tensor<4xui8>) -> tensor<2x4xui8>
  %2 = onnx.BitwiseXor %1, %a : (tensor<2x4xui8>, tensor<2x4xui8>) -> tensor<2x4xui8>
  %3 = onnx.BitwiseNot %2 : (tensor<2x4xui8>) -> tensor<2x4xui8>
  return %3 : tensor<2x4xui8>
}

// -----

// BitCast keeps the bits; bools are the bytes 0 and 1.
// CHECK-LABEL: func.func @bitcast
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.extui %{{.+}} : i1 to i8
// CHECK: arith.cmpi ne, %{{.+}}, %{{.+}} : i8
func.func @bitcast(%x: tensor<2x3xf32>, %b: tensor<4xi1>, %u: tensor<4xui8>)
    -> (tensor<2x3xui32>, tensor<4xi8>, tensor<4xi1>) {
  %0 = onnx.BitCast %x {to = 12 : i64} : (tensor<2x3xf32>) -> tensor<2x3xui32>
  %1 = onnx.BitCast %b {to = 3 : i64} : (tensor<4xi1>) -> tensor<4xi8>
  %2 = onnx.BitCast %u {to = 9 : i64} : (tensor<4xui8>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<2x3xui32>, tensor<4xi8>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @logical_compare
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: arith.andi
// CHECK: arith.ori
// CHECK: arith.xori
// CHECK: arith.xori %{{.+}}, %[[TRUE]]
// CHECK: arith.cmpf oge
// CHECK: arith.cmpi sle
func.func @logical_compare(%a: tensor<4xi1>, %b: tensor<4xi1>, %x: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = onnx.And %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = onnx.Or %0, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = onnx.Xor %1, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = onnx.Not %2 : (tensor<4xi1>) -> tensor<4xi1>
  %4 = onnx.GreaterOrEqual %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = onnx.LessOrEqual %i, %i : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  return %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @rounding_trig
// CHECK: math.ceil
// CHECK: math.floor
// CHECK: math.roundeven
// CHECK: math.sin
// CHECK: math.cos
// CHECK: math.tan
// CHECK: math.asin
// CHECK: math.acos
// CHECK: math.atan
// CHECK: math.sinh
// CHECK: math.cosh
// CHECK: math.asinh
// CHECK: math.acosh
// CHECK: math.atanh
func.func @rounding_trig(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Ceil %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Floor %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Round %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = onnx.Sin %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = onnx.Cos %3 : (tensor<4xf32>) -> tensor<4xf32>
  %5 = onnx.Tan %4 : (tensor<4xf32>) -> tensor<4xf32>
  %6 = onnx.Asin %5 : (tensor<4xf32>) -> tensor<4xf32>
  %7 = onnx.Acos %6 : (tensor<4xf32>) -> tensor<4xf32>
  %8 = onnx.Atan %7 : (tensor<4xf32>) -> tensor<4xf32>
  %9 = onnx.Sinh %8 : (tensor<4xf32>) -> tensor<4xf32>
  %10 = onnx.Cosh %9 : (tensor<4xf32>) -> tensor<4xf32>
  %11 = onnx.Asinh %10 : (tensor<4xf32>) -> tensor<4xf32>
  %12 = onnx.Acosh %11 : (tensor<4xf32>) -> tensor<4xf32>
  %13 = onnx.Atanh %12 : (tensor<4xf32>) -> tensor<4xf32>
  return %13 : tensor<4xf32>
}

// -----

// Sign of a float: 1, -1, or the value itself (zero or NaN).
// CHECK-LABEL: func.func @sign
// CHECK: %[[POS:.+]] = arith.cmpf ogt, %[[X:.+]], %{{.+}}
// CHECK: %[[NEG:.+]] = arith.cmpf olt, %[[X]], %{{.+}}
// CHECK: %[[REST:.+]] = arith.select %[[NEG]], %{{.+}}, %[[X]]
// CHECK: arith.select %[[POS]], %{{.+}}, %[[REST]]
func.func @sign(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Sign %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @float_tests
// CHECK-DAG: %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[ABS:.+]] = math.absf
// CHECK: arith.cmpf oeq, %[[ABS]], %[[INF]]
// CHECK: arith.cmpf oeq, %{{.+}}, %[[NEGINF]]
// CHECK: arith.cmpf uno
func.func @float_tests(%a: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = onnx.IsInf %a : (tensor<4xf32>) -> tensor<4xi1>
  %1 = onnx.IsInf %a {detect_positive = 0 : i64} : (tensor<4xf32>) -> tensor<4xi1>
  %2 = onnx.IsNaN %a : (tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CastLike reads only its input; `target_type` gives the element type.
// CHECK-LABEL: func.func @castlike
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %{{.+}}: tensor<1xf16>)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<2x3xf32>)
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @castlike(%x: tensor<2x3xf32>, %like: tensor<1xf16>) -> tensor<2x3xf16> {
  %0 = onnx.CastLike %x, %like : (tensor<2x3xf32>, tensor<1xf16>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

// CHECK-LABEL: func.func @activations
// CHECK: math.exp
// CHECK: arith.select
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: math.log1p
// CHECK: math.erf
// CHECK: math.tanh
func.func @activations(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = onnx.Elu %a {alpha = 2.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.HardSigmoid %a : (tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Softplus %a : (tensor<4xf32>) -> tensor<4xf32>
  %3 = onnx.Gelu %a : (tensor<4xf32>) -> tensor<4xf32>
  %4 = onnx.Gelu %a {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// PRelu broadcasts slope to X; Shrink computes integers in f64.
// CHECK-DAG: #[[ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[CHAN:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @prelu_shrink
// CHECK: linalg.generic {indexing_maps = [#[[ID3]], #[[CHAN]], #[[ID3]]]
// CHECK: %[[NEG:.+]] = arith.cmpf olt
// CHECK: %[[SCALED:.+]] = arith.mulf
// CHECK: arith.select %[[NEG]], %[[SCALED]]
// CHECK: arith.sitofp %{{.+}} : i32 to f64
// CHECK: arith.fptosi %{{.+}} : f64 to i32
func.func @prelu_shrink(%x: tensor<2x3x4xf32>, %slope: tensor<3x1xf32>, %i: tensor<4xi32>) -> (tensor<2x3x4xf32>, tensor<4xi32>) {
  %0 = onnx.PRelu %x, %slope : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %1 = onnx.Shrink %i {lambd = 1.5 : f32} : (tensor<4xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<2x3x4xf32>, tensor<4xi32>
}
