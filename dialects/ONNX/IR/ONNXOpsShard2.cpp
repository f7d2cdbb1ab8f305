//===- ONNXOpsShard2.cpp - Shard 2 of the generated onnx op definitions ---===//

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"

#define GET_OP_DEFS_2
#include "dialects/ONNX/IR/ONNXOps.cpp.inc"
