// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Strings (passes/Conversion/ONNXToLinalg/String.cpp): i64 handles of the
// runtime's string records once lowered, the string ops calls of the
// runtime (all of them declared once a module has strings).

// A constant is its records in a byte global (size, bytes, NUL, padded to
// 8: "a" at 0, "bc" at 16) and its handles the global's address plus each
// record's offset.
// CHECK: func.func private @onnxc_string_equal(i64, i64) -> i1
// CHECK: memref.global "private" constant @__onnxc_strings : memref<32xi8> = dense<[1, 0, 0, 0, 0, 0, 0, 0, 97, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 98, 99, 0, 0, 0, 0, 0, 0]> {alignment = 8 : i64}
// CHECK-LABEL: func.func @equal_constant
// CHECK: %[[OFFSETS:.+]] = arith.constant dense<[0, 16]> : tensor<2xi64>
// CHECK: %[[G:.+]] = memref.get_global @__onnxc_strings : memref<32xi8>
// CHECK: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[G]]
// CHECK: %[[BASE:.+]] = arith.index_cast %[[P]] : index to i64
// CHECK: linalg.generic {{.+}} ins(%[[OFFSETS]] : tensor<2xi64>) outs(%{{.+}} : tensor<2xi64>)
// CHECK: arith.addi %[[BASE]], %{{.+}} : i64
// CHECK: linalg.generic
// CHECK: %[[R:.+]] = func.call @onnxc_string_equal(%{{.+}}, %{{.+}}) : (i64, i64) -> i1
// CHECK: linalg.yield %[[R]] : i1
func.func @equal_constant(%x: tensor<2x!onnx.string>) -> tensor<2xi1> {
  %c = onnx.Constant {value = dense<["a", "bc"]> : tensor<2x!onnx.string>} : () -> tensor<2x!onnx.string>
  %0 = onnx.Equal %x, %c : (tensor<2x!onnx.string>, tensor<2x!onnx.string>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK: linalg.generic
// CHECK: func.call @onnxc_string_concat(%{{.+}}, %{{.+}}) : (i64, i64) -> i64
func.func @concat(%x: tensor<3x!onnx.string>, %y: tensor<1x!onnx.string>) -> tensor<3x!onnx.string> {
  %0 = onnx.StringConcat %x, %y : (tensor<3x!onnx.string>, tensor<1x!onnx.string>) -> tensor<3x!onnx.string>
  return %0 : tensor<3x!onnx.string>
}

// -----

// RegexFullMatch compiles the pattern (a string constant) once, outside the
// elementwise loop, and matches each string with it.
// CHECK-LABEL: func.func @regex_full_match
// CHECK: %[[REGEX:.+]] = call @onnxc_regex_compile(%{{.+}}) : (i64) -> i64
// CHECK: linalg.generic
// CHECK: func.call @onnxc_regex_full_match(%[[REGEX]], %{{.+}}) : (i64, i64) -> i1
func.func @regex_full_match(%x: tensor<2x3x!onnx.string>) -> tensor<2x3xi1> {
  %0 = onnx.RegexFullMatch %x {pattern = "a+b"} : (tensor<2x3x!onnx.string>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// StringSplit counts the parts, takes the most of them as the new dim and
// asks for each part by its index (-1: no maxsplit).
// CHECK-LABEL: func.func @split
// CHECK: %[[M:.+]] = arith.constant -1 : i64
// CHECK: %[[Z:.+]] = linalg.generic
// CHECK: func.call @onnxc_string_split_count(%{{.+}}, %{{.+}}, %[[M]])
// CHECK: %[[MOST:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]{{.+}} ins(%[[Z]] : tensor<2xi64>)
// CHECK: arith.maxsi
// CHECK: %[[W:.+]] = tensor.extract %[[MOST]][] : tensor<i64>
// CHECK: %[[WI:.+]] = arith.index_cast %[[W]] : i64 to index
// CHECK: tensor.empty(%[[WI]]) : tensor<2x?xi64>
// CHECK: linalg.generic
// CHECK: %[[I:.+]] = linalg.index 1 : index
// CHECK: func.call @onnxc_string_split_part
func.func @split(%x: tensor<2x!onnx.string>) -> (tensor<2x?x!onnx.string>, tensor<2xi64>) {
  %0:2 = onnx.StringSplit %x {delimiter = "."} : (tensor<2x!onnx.string>) -> (tensor<2x?x!onnx.string>, tensor<2xi64>)
  return %0#0, %0#1 : tensor<2x?x!onnx.string>, tensor<2xi64>
}

// -----

// StringNormalizer keeps the strings not in the stop-word table at the next
// free position, then slices the kept ones out (at least one).
// CHECK-LABEL: func.func @normalizer
// CHECK: %[[F:.+]]:2 = scf.for %{{.+}} = %c0 to %c4 step %c1 iter_args
// CHECK: func.call @onnxc_string_in_table
// CHECK: scf.if
// CHECK: func.call @onnxc_string_change_case
// CHECK: tensor.insert
// CHECK: %[[N:.+]] = arith.maxsi %[[F]]#1, %c1
// CHECK: tensor.extract_slice %[[F]]#0[0, 0] [1, %[[N]]] [1, 1]
func.func @normalizer(%x: tensor<1x4x!onnx.string>) -> tensor<1x?x!onnx.string> {
  %0 = onnx.StringNormalizer %x {case_change_action = "UPPER", stopwords = ["monday"]} : (tensor<1x4x!onnx.string>) -> tensor<1x?x!onnx.string>
  return %0 : tensor<1x?x!onnx.string>
}

// -----

// Cast to and from strings: each element through the runtime, a float
// widened to f64 (with is_float32 = 1), a parsed double truncated to f32.
// CHECK-LABEL: func.func @cast_strings
// CHECK: linalg.generic
// CHECK: %[[W:.+]] = arith.extf %{{.+}} : f32 to f64
// CHECK: %[[S:.+]] = func.call @onnxc_string_from_float(%[[W]], %{{.+}}) : (f64, i64) -> i64
// CHECK: linalg.generic
// CHECK: %[[D:.+]] = func.call @onnxc_string_to_float(%{{.+}}) : (i64) -> f64
// CHECK: arith.truncf %[[D]] : f64 to f32
func.func @cast_strings(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = onnx.Cast %x {to = 8 : i64} : (tensor<2xf32>) -> tensor<2x!onnx.string>
  %1 = onnx.Cast %0 {to = 1 : i64} : (tensor<2x!onnx.string>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
