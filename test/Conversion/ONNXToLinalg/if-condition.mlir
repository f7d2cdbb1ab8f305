// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// An If's condition, and a Loop's trip count and condition, are any
// one-element tensor (ControlFlow.cpp, extractOneElement):
// its element is extracted with one zero index per dim, and a tensor of
// unknown rank is first reshaped to rank 0.

// CHECK-LABEL: func.func @if_condition_rank2
// CHECK: %[[ZERO:.+]] = arith.constant 0 : index
// CHECK: %[[C:.+]] = tensor.extract %{{.+}}[%[[ZERO]], %[[ZERO]]] : tensor<1x1xi1>
// CHECK: scf.if %[[C]] -> (tensor<3xf32>)
func.func @if_condition_rank2(%c: tensor<1x1xi1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = onnx.If %c : (tensor<1x1xi1>) -> tensor<3xf32> {
    %1 = onnx.Neg %a : (tensor<3xf32>) -> tensor<3xf32>
    onnx.Yield %1 : tensor<3xf32>
  }, {
    onnx.Yield %a : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @if_condition_unranked
// CHECK: %[[NO_DIMS:.+]] = arith.constant dense<> : tensor<0xindex>
// CHECK: %[[SCALAR:.+]] = tensor.reshape %{{.+}}(%[[NO_DIMS]]) : (tensor<*xi1>, tensor<0xindex>) -> tensor<i1>
// CHECK: %[[C:.+]] = tensor.extract %[[SCALAR]][] : tensor<i1>
// CHECK: scf.if %[[C]] -> (tensor<3xf32>)
func.func @if_condition_unranked(%c: tensor<*xi1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = onnx.If %c : (tensor<*xi1>) -> tensor<3xf32> {
    %1 = onnx.Neg %a : (tensor<3xf32>) -> tensor<3xf32>
    onnx.Yield %1 : tensor<3xf32>
  }, {
    onnx.Yield %a : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @loop_one_element_shapes
// CHECK: %[[ZERO:.+]] = arith.constant 0 : index
// CHECK: %[[M:.+]] = tensor.extract %{{.+}}[%[[ZERO]]] : tensor<1xi64>
// CHECK: %[[C:.+]] = tensor.extract %{{.+}}[%[[ZERO]], %[[ZERO]]] : tensor<1x1xi1>
// CHECK: scf.while ({{.*}} = %[[C]]
// CHECK: arith.cmpi slt, %{{.+}}, %[[M]] : i64
func.func @loop_one_element_shapes(%m: tensor<1xi64>, %c: tensor<1x1xi1>, %y0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = onnx.Loop %m, %c, %y0 : (tensor<1xi64>, tensor<1x1xi1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %yi: tensor<3xf32>):
    %y1 = onnx.Neg %yi : (tensor<3xf32>) -> tensor<3xf32>
    onnx.Yield %ci, %y1 : tensor<i1>, tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}
