// RUN: onnx-opt %s -split-input-file -onnx-quantize-qdq | FileCheck %s
// RUN: onnx-opt %s -split-input-file -onnx-quantize-qdq="activation-type=int8 per-channel=false" | FileCheck %s --check-prefix=INT8
// RUN: not onnx-opt %s -split-input-file -onnx-quantize-qdq="activation-type=int4" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: onnx-quantize-qdq: activation-type must be uint8 or int8 (got 'int4')

// A calibrated input [-1, 1] and Relu [0, 4] (uint8: scales 2/255 and
// 4/255, zero points 127 (1 over the f32 scale is just under 127.5) and 0);
// Conv weights per output channel (absmax 1 and 2 over 127), its bias int32
// of scale x_scale * w_scale; Gemm's B (transB) per row; the opset raised
// to 13.
// CHECK: module attributes {onnx.opset_import = {ai.onnx = 13 : i64}}
// CHECK-LABEL: func.func @main_graph
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x4x4xf32>)
// CHECK-DAG: %[[XS:.+]] = onnx.Constant {value = dense<0.00784313772> : tensor<f32>}
// CHECK-DAG: %[[XZ:.+]] = onnx.Constant {value = dense<127> : tensor<ui8>}
// CHECK: %[[XQ:.+]] = onnx.QuantizeLinear %[[X]], %[[XS]], %[[XZ]] : {{.*}} -> tensor<1x1x4x4xui8>
// CHECK: %[[XD:.+]] = onnx.DequantizeLinear %[[XQ]], %[[XS]], %[[XZ]]
// CHECK-DAG: %[[W:.+]] = onnx.Constant {value = dense<{{\[\[\[\[}}64, -32], [127, 0]]], {{\[\[\[}}127, 64], [-32, 16]]]]> : tensor<2x1x2x2xi8>}
// CHECK-DAG: %[[WS:.+]] = onnx.Constant {value = dense<[0.00787401571, 0.0157480314]> : tensor<2xf32>}
// CHECK-DAG: %[[WZ:.+]] = onnx.Constant {value = dense<0> : tensor<2xi8>}
// CHECK: %[[WD:.+]] = onnx.DequantizeLinear %[[W]], %[[WS]], %[[WZ]] {axis = 0 : i64}
// CHECK-DAG: %[[B:.+]] = onnx.Constant {value = dense<[1619, -1619]> : tensor<2xi32>}
// CHECK-DAG: %[[BS:.+]] = onnx.Constant {value = dense<[6.17569895E-5, 1.23513979E-4]> : tensor<2xf32>}
// CHECK: %[[BD:.+]] = onnx.DequantizeLinear %[[B]], %[[BS]], %{{.+}} {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, none)
// The Relu of the Conv goes: the Conv's result is quantized with the
// Relu's range (zero point 0 clamps as the Relu did), and every reader of
// the Relu reads the pair.
// CHECK: %[[C:.+]] = onnx.Conv %[[XD]], %[[WD]], %[[BD]]
// CHECK-DAG: %[[RS:.+]] = onnx.Constant {value = dense<0.0156862754> : tensor<f32>}
// CHECK-DAG: %[[RZ:.+]] = onnx.Constant {value = dense<0> : tensor<ui8>}
// CHECK: %[[RQ:.+]] = onnx.QuantizeLinear %[[C]], %[[RS]], %[[RZ]]
// CHECK: %[[RD:.+]] = onnx.DequantizeLinear %[[RQ]], %[[RS]], %[[RZ]]
// CHECK: %[[P:.+]] = onnx.GlobalAveragePool %[[RD]]
// CHECK: %[[F:.+]] = onnx.Flatten %[[RD]]
// CHECK: %[[GD:.+]] = onnx.DequantizeLinear %{{.+}}, %{{.+}}, %{{.+}} {axis = 0 : i64} : (tensor<3x18xi8>, tensor<3xf32>, tensor<3xi8>)
// CHECK: %[[GB:.+]] = onnx.DequantizeLinear %{{.+}}, %{{.+}}, %{{.+}} {axis = 0 : i64} : (tensor<3xi32>, tensor<3xf32>, none)
// CHECK: onnx.Gemm %{{.+}}, %[[GD]], %[[GB]] {transB = 1 : i64}
// CHECK-NOT: onnxc.range
// CHECK-NOT: tensor<2x1x2x2xf32>}
// CHECK-NOT: onnx.Relu

// INT8-LABEL: func.func @main_graph
// INT8: onnx.QuantizeLinear %{{.+}} -> tensor<1x1x4x4xi8>
// INT8: %[[W:.+]] = onnx.Constant {value = dense<{{\[\[\[\[}}32, -16], [64, 0]]], {{\[\[\[}}127, 64], [-32, 16]]]]> : tensor<2x1x2x2xi8>}
// INT8: %[[WS:.+]] = onnx.Constant {value = dense<0.0157480314> : tensor<f32>}
// INT8: onnx.DequantizeLinear %[[W]], %[[WS]], %{{.+}} : (tensor<2x1x2x2xi8>, tensor<f32>, tensor<i8>)
// INT8: %[[C:.+]] = onnx.Conv
// INT8: %[[RZ:.+]] = onnx.Constant {value = dense<-128> : tensor<i8>}
// INT8: onnx.QuantizeLinear %[[C]], %{{.+}}, %[[RZ]]
module attributes {onnx.opset_import = {ai.onnx = 11 : i64}} {
func.func @main_graph(%x: tensor<1x1x4x4xf32> {onnxc.range = array<f64: -1.0, 1.0>}) -> (tensor<1x3xf32>, tensor<1x2x1x1xf32>) {
  %w = onnx.Constant {value = dense<[[[[0.5, -0.25], [1.0, 0.0]]], [[[2.0, 1.0], [-0.5, 0.25]]]]> : tensor<2x1x2x2xf32>} : () -> tensor<2x1x2x2xf32>
  %b = onnx.Constant {value = dense<[0.1, -0.2]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = onnx.Conv %x, %w, %b : (tensor<1x1x4x4xf32>, tensor<2x1x2x2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %r = onnx.Relu %c {onnxc.range = array<f64: 0.0, 4.0>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p = onnx.GlobalAveragePool %r : (tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32>
  %f = onnx.Flatten %r {axis = 1 : i64, onnxc.range = array<f64: 0.0, 4.0>} : (tensor<1x2x3x3xf32>) -> tensor<1x18xf32>
  %gw = onnx.Constant {value = dense<0.5> : tensor<3x18xf32>} : () -> tensor<3x18xf32>
  %gb = onnx.Constant {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %g = onnx.Gemm %f, %gw, %gb {transB = 1 : i64} : (tensor<1x18xf32>, tensor<3x18xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %g, %p : tensor<1x3xf32>, tensor<1x2x1x1xf32>
}
}

// -----

// Without a range an activation stays float (the weights are still
// quantized); MatMul's constant B is per column (axis 1, the default); an Add of two calibrated
// activations gets a pair on each side.
// CHECK-LABEL: func.func @uncalibrated
// CHECK-SAME: (%[[A:.+]]: tensor<2x4xf32>, %[[B:.+]]: tensor<2x3xf32>)
// CHECK: onnx.QuantizeLinear %[[B]]
// CHECK: %[[BD:.+]] = onnx.DequantizeLinear
// CHECK: %[[WD:.+]] = onnx.DequantizeLinear %{{.+}}, %{{.+}}, %{{.+}} : (tensor<4x3xi8>, tensor<3xf32>, tensor<3xi8>)
// CHECK: %[[M:.+]] = onnx.MatMul %[[A]], %[[WD]]
// CHECK: onnx.QuantizeLinear %[[M]]
// CHECK: %[[MD:.+]] = onnx.DequantizeLinear
// CHECK: onnx.Add %[[MD]], %[[BD]]
func.func @uncalibrated(%a: tensor<2x4xf32>, %b: tensor<2x3xf32> {onnxc.range = array<f64: -3.0, 3.0>}) -> tensor<2x3xf32> {
  %w = onnx.Constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [-1.0, 0.0, 1.0], [0.5, 0.5, 0.5]]> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %m = onnx.MatMul %a, %w {onnxc.range = array<f64: -10.0, 10.0>} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = onnx.Add %m, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// A Relu stays when its product has another reader; its result is
// quantized as any other.
// CHECK-LABEL: func.func @relu_kept
// CHECK: %[[M:.+]] = onnx.MatMul
// CHECK: %[[R:.+]] = onnx.Relu %[[M]]
// CHECK: onnx.QuantizeLinear %[[R]]
// CHECK: %[[RD:.+]] = onnx.DequantizeLinear
// CHECK: onnx.Add %[[RD]], %[[RD]]
// CHECK: return %{{.+}}, %[[M]]
func.func @relu_kept(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %w = onnx.Constant {value = dense<[[1.0, -1.0], [0.5, 2.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %m = onnx.MatMul %a, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = onnx.Relu %m {onnxc.range = array<f64: 0.0, 2.0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = onnx.Add %r, %r : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y, %m : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// A Relu of an Add goes too: DequantizeLinear x2 -> Add -> QuantizeLinear.
// CHECK-LABEL: func.func @add_relu
// CHECK: %[[S:.+]] = onnx.Add %{{.+}}, %{{.+}} : (tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK: %[[SQ:.+]] = onnx.QuantizeLinear %[[S]], %{{.+}}, %{{.+}}
// CHECK: %[[SD:.+]] = onnx.DequantizeLinear %[[SQ]]
// CHECK: onnx.Add %[[SD]], %[[SD]]
// CHECK-NOT: onnx.Relu
func.func @add_relu(%a: tensor<2x2xf32> {onnxc.range = array<f64: -1.0, 1.0>}, %b: tensor<2x2xf32> {onnxc.range = array<f64: -1.0, 1.0>}) -> tensor<2x2xf32> {
  %s = onnx.Add %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = onnx.Relu %s {onnxc.range = array<f64: 0.0, 2.0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = onnx.Add %r, %r : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
