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

// Unsigned integers compute as signless ones with the unsigned arith ops; the
// function, the constants and the generics end up signless, with no casts.
// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: (%{{.+}}: tensor<4xi8>, %{{.+}}: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi1>, tensor<4xf32>, tensor<4xi8>)
// CHECK-NOT: unrealized_conversion_cast
// CHECK: arith.constant dense<[1, 2, -56, -1]> : tensor<4xi8>
// CHECK: arith.divui
// CHECK: arith.cmpi ult
// CHECK: arith.uitofp %{{.+}} : i8 to f32
// CHECK: arith.maxui
// CHECK: arith.minui
// CHECK-NOT: unrealized_conversion_cast
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xf32>, tensor<4xui8>) {
  %c = onnx.Constant {value = dense<[1, 2, 200, 255]> : tensor<4xui8>} : () -> tensor<4xui8>
  %0 = onnx.Div %a, %c : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = onnx.Less %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %2 = onnx.Cast %a {to = 1 : i64} : (tensor<4xui8>) -> tensor<4xf32>
  %lo = onnx.Constant {value = dense<10> : tensor<ui8>} : () -> tensor<ui8>
  %hi = onnx.Constant {value = dense<200> : tensor<ui8>} : () -> tensor<ui8>
  %3 = onnx.Clip %a, %lo, %hi : (tensor<4xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4xui8>
  return %0, %1, %2, %3 : tensor<4xui8>, tensor<4xi1>, tensor<4xf32>, tensor<4xui8>
}
