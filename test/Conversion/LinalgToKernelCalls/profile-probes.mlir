// RUN: onnx-opt %s -onnxc-insert-profile-probes | FileCheck %s

// onnx-compile --profile: runs of the entry's work ops of one node (their
// location's name) between onnxc_profile_enter and onnxc_profile_exit on a
// label "NODE (WHAT)". Ops that do no work (constants, views) neither start
// nor end a site; a node's second run is a site of its own; private
// functions (outlined loop bodies) get no probes.

// CHECK-DAG: func.func private @onnxc_profile_enter(!llvm.ptr)
// CHECK-DAG: func.func private @onnxc_profile_exit(!llvm.ptr)
// CHECK-LABEL: func.func @main_graph
// CHECK: %[[S0:.+]] = llvm.mlir.addressof @onnxc_profile_site_0 : !llvm.ptr
// CHECK-NEXT: call @onnxc_profile_enter(%[[S0]])
// CHECK-NEXT: call @onnxc_kernel_matmul_f32(%arg0)
// CHECK-NEXT: memref.subview
// CHECK-NEXT: scf.for
// CHECK: }
// CHECK-NEXT: call @onnxc_profile_exit(%[[S0]])
// CHECK-NEXT: %[[S1:.+]] = llvm.mlir.addressof @onnxc_profile_site_1 : !llvm.ptr
// CHECK-NEXT: call @onnxc_profile_enter(%[[S1]])
// CHECK-NEXT: memref.copy %arg0, %arg1
// CHECK-NEXT: call @onnxc_profile_exit(%[[S1]])
// CHECK-NEXT: %[[S2:.+]] = llvm.mlir.addressof @onnxc_profile_site_2 : !llvm.ptr
// CHECK-NEXT: call @onnxc_profile_enter(%[[S2]])
// CHECK-NEXT: call @onnxc_kernel_matmul_f32(%arg1)
// CHECK-NEXT: call @onnxc_profile_exit(%[[S2]])
// CHECK-NEXT: %[[S3:.+]] = llvm.mlir.addressof @onnxc_profile_site_3 : !llvm.ptr
// CHECK-NEXT: call @onnxc_profile_enter(%[[S3]])
// CHECK-NEXT: call @onnxc_arena_acquire()
// CHECK-NEXT: call @onnxc_profile_exit(%[[S3]])
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @body
// CHECK-NOT: onnxc_profile
// CHECK: return
// CHECK-DAG: llvm.mlir.global private constant @onnxc_profile_site_0("fc (matmul_f32, loops)\00")
// CHECK-DAG: llvm.mlir.global private constant @onnxc_profile_site_1("resize (copy)\00")
// CHECK-DAG: llvm.mlir.global private constant @onnxc_profile_site_2("fc (matmul_f32)\00")
// CHECK-DAG: llvm.mlir.global private constant @onnxc_profile_site_3("(no node) (arena_acquire)\00")

func.func private @onnxc_kernel_matmul_f32(memref<4x4xf32>)
func.func private @onnxc_arena_acquire()

func.func @main_graph(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  call @onnxc_kernel_matmul_f32(%a) : (memref<4x4xf32>) -> () loc("fc")
  %row = memref.subview %a[0, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %row[%i] : memref<4xf32, strided<[1]>>
    memref.store %v, %b[%c0, %i] : memref<4x4xf32>
  } loc("fc")
  memref.copy %a, %b : memref<4x4xf32> to memref<4x4xf32> loc("resize")
  call @onnxc_kernel_matmul_f32(%b) : (memref<4x4xf32>) -> () loc("fc")
  call @onnxc_arena_acquire() : () -> ()
  return
}

func.func private @body(%a: memref<4x4xf32>) {
  call @onnxc_kernel_matmul_f32(%a) : (memref<4x4xf32>) -> () loc("fc")
  return
}
