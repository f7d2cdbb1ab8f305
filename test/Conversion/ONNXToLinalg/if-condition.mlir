// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// An If's condition is any one-element tensor (ControlFlow.cpp, IfLowering):
// its element is extracted with one zero index per dim, and a condition of
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
