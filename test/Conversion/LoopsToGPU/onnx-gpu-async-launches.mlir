// RUN: onnx-opt %s -split-input-file -onnx-gpu-async-launches | FileCheck %s

// Launches chain on one token; allocations, deallocations, views and index
// arithmetic between them do not wait; the host's first memory access does,
// and so does the terminator.
// CHECK-LABEL: func.func @chain
// CHECK: %[[T0:.+]] = gpu.wait async
// CHECK-NEXT: %[[T1:.+]] = gpu.launch_func async [%[[T0]]] @kernels::@a
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: memref.subview
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[T2:.+]] = gpu.launch_func async [%[[T1]]] @kernels::@b
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: gpu.wait [%[[T2]]]
// CHECK-NEXT: memref.load
// CHECK-NEXT: %[[T3:.+]] = gpu.wait async
// CHECK-NEXT: %[[T4:.+]] = gpu.launch_func async [%[[T3]]] @kernels::@a
// CHECK-NEXT: gpu.wait [%[[T4]]]
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @a(%x: memref<4xf32>) kernel { gpu.return }
    gpu.func @b(%x: memref<4xf32>, %y: memref<2xf32, strided<[1], offset: 2>>) kernel { gpu.return }
  }
  func.func @chain(%x: memref<4xf32>, %i: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    %y = memref.alloc() : memref<4xf32>
    %s = memref.subview %y[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
    %j = arith.addi %i, %c1 : index
    gpu.launch_func @kernels::@b blocks in (%j, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>, %s : memref<2xf32, strided<[1], offset: 2>>)
    memref.dealloc %y : memref<4xf32>
    %v = memref.load %x[%c0] : memref<4xf32>
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return %v : f32
  }
}

// -----

// A loop on the host waits for the launches before it; the launches in its
// body chain on their own and are waited for at the end of each iteration.
// CHECK-LABEL: func.func @loop
// CHECK: gpu.launch_func async
// CHECK-NEXT: gpu.wait [%{{.+}}]
// CHECK-NEXT: scf.for
// CHECK-NEXT: gpu.wait async
// CHECK-NEXT: gpu.launch_func async
// CHECK-NEXT: gpu.wait [%{{.+}}]
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @a(%x: memref<4xf32>) kernel { gpu.return }
  }
  func.func @loop(%x: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    }
    return
  }
}
