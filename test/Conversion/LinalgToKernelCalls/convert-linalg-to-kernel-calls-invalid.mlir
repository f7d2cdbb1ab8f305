// RUN: onnx-opt %s -split-input-file -convert-linalg-to-kernel-calls -verify-diagnostics

// expected-error @+1 {{expects 'onnxc.gemm_isa' to be one of "avx512", "avx2", "neon", "generic" (got "sse2")}}
module attributes {onnxc.gemm_isa = "sse2"} {
  func.func @unknown_isa(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
    linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
    return
  }
}

// -----

// expected-error @+1 {{expects 'onnxc.gemm_isa' to be one of "avx512", "avx2", "neon", "generic" (got 512 : i64)}}
module attributes {onnxc.gemm_isa = 512} {
}
