// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Sequences and optionals (passes/Conversion/ONNXToLinalg/Sequence.cpp):
// tensor<i64> handles of runtime values once lowered, each op a call of the
// runtime declared with i64 arguments only.

// A tensor goes in as a copy: its buffer's descriptor (aligned pointer
// twice, offset, sizes, strides) built on the stack of an alloca_scope.
// CHECK-LABEL: func.func @insert
// CHECK-SAME: (%[[S:.+]]: tensor<i64>, %[[T:.+]]: tensor<3xf32>) -> tensor<i64>
// CHECK: %[[H:.+]] = tensor.extract %[[S]][] : tensor<i64>
// CHECK: %[[B:.+]] = bufferization.to_memref %[[T]] read_only
// CHECK: %[[ITEM:.+]] = memref.alloca_scope -> (i64) {
// CHECK: %[[D:.+]] = memref.alloca() : memref<5xi64>
// CHECK: memref.extract_strided_metadata
// CHECK: memref.store %{{.+}}, %[[D]]
// CHECK: %[[C:.+]] = {{.*}}call @onnxc_value_from_memref(%{{.+}}, %{{.+}}, %{{.+}}) : (i64, i64, i64) -> i64
// CHECK: memref.alloca_scope.return %[[C]] : i64
// CHECK: %[[R:.+]] = {{.*}}call @onnxc_seq_insert(%[[H]], %[[ITEM]], %{{.+}}, %{{.+}}) : (i64, i64, i64, i64) -> i64
// CHECK: tensor.from_elements %[[R]] : tensor<i64>
func.func @insert(%s: !onnx.seq<tensor<?xf32>>, %t: tensor<3xf32>) -> !onnx.seq<tensor<?xf32>> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.SequenceInsert %s, %t, %none : (!onnx.seq<tensor<?xf32>>, tensor<3xf32>, none) -> !onnx.seq<tensor<?xf32>>
  return %0 : !onnx.seq<tensor<?xf32>>
}

// -----

// A tensor comes out into a buffer sized by onnxc_value_dim (dynamic dims
// only) and filled by onnxc_value_to_memref, which checks the static ones.
// CHECK-LABEL: func.func @at
// CHECK: %[[ITEM:.+]] = {{.*}}call @onnxc_seq_at(%{{.+}}, %{{.+}}) : (i64, i64) -> i64
// CHECK: %[[D0:.+]] = {{.*}}call @onnxc_value_dim(%[[ITEM]], %{{.+}}, %{{.+}}, %{{.+}}) : (i64, i64, i64, i64) -> i64
// CHECK-NOT: onnxc_value_dim
// CHECK: %[[N:.+]] = arith.index_cast %[[D0]] : i64 to index
// CHECK: %[[BUF:.+]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK: {{.*}}call @onnxc_value_to_memref(%[[ITEM]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : (i64, i64, i64, i64, i64) -> ()
// CHECK: bufferization.to_tensor %[[BUF]] restrict writable
func.func @at(%s: !onnx.seq<tensor<?x4xf32>>, %i: tensor<i64>) -> tensor<?x4xf32> {
  %0 = onnx.SequenceAt %s, %i : (!onnx.seq<tensor<?x4xf32>>, tensor<i64>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// An optional is the handle of what it holds, 0 for nothing.
// CHECK-LABEL: func.func @optional
// CHECK-SAME: (%[[O:.+]]: tensor<i64>) -> tensor<i1>
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK: %[[H:.+]] = tensor.extract %[[O]][] : tensor<i64>
// CHECK: %[[HAS:.+]] = arith.cmpi ne, %[[H]], %[[ZERO]] : i64
// CHECK: tensor.from_elements %[[HAS]] : tensor<i1>
func.func @optional(%o: !onnx.opt<tensor<4xf32>>) -> tensor<i1> {
  %0 = onnx.OptionalHasElement %o : (!onnx.opt<tensor<4xf32>>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

// ZipMap's labels go in as a constant tensor.
// CHECK-LABEL: func.func @zipmap
// CHECK: arith.constant dense<[3, 5]> : tensor<2xi64>
// CHECK: {{.*}}call @onnxc_zipmap(%{{.+}}, %{{.+}}) : (i64, i64) -> i64
func.func @zipmap(%x: tensor<?x2xf32>) -> !onnx.seq<!onnx.map<i64, f32>> {
  %0 = onnx.ZipMap %x {classlabels_int64s = array<i64: 3, 5>} : (tensor<?x2xf32>) -> !onnx.seq<!onnx.map<i64, f32>>
  return %0 : !onnx.seq<!onnx.map<i64, f32>>
}
