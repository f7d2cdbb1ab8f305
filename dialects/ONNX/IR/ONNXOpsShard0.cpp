//===- ONNXOpsShard0.cpp - Shard 0 of the generated onnx op definitions ---===//

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"

#define GET_OP_DEFS_0
#include "dialects/ONNX/IR/ONNXOps.cpp.inc"
