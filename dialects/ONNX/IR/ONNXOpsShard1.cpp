//===- ONNXOpsShard1.cpp - Shard 1 of the generated onnx op definitions ---===//

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"

#define GET_OP_DEFS_1
#include "dialects/ONNX/IR/ONNXOps.cpp.inc"
