/*===- Status.c - Thread-local errors and dtype helpers of the runtime ---===*/

#include "RuntimeInternal.h"

#include <stdarg.h>
#include <stdio.h>

/// The message of the last error on this thread.
static _Thread_local char lastError[1024];
static _Thread_local onnxc_status lastStatus = ONNXC_OK;

const char *onnxc_last_error(void) { return lastError; }

onnxc_status onnxc_last_status(void) { return lastStatus; }

void onnxcClearError(void) {
  lastError[0] = 0;
  lastStatus = ONNXC_OK;
}

onnxc_status onnxcSetError(onnxc_status status, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(lastError, sizeof(lastError), fmt, args);
  va_end(args);
  lastStatus = status;
  return status;
}

const char *onnxc_dtype_name(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_UNDEFINED:
    return "undefined";
  case ONNXC_DTYPE_FLOAT:
    return "float32";
  case ONNXC_DTYPE_UINT8:
    return "uint8";
  case ONNXC_DTYPE_INT8:
    return "int8";
  case ONNXC_DTYPE_UINT16:
    return "uint16";
  case ONNXC_DTYPE_INT16:
    return "int16";
  case ONNXC_DTYPE_INT32:
    return "int32";
  case ONNXC_DTYPE_INT64:
    return "int64";
  case ONNXC_DTYPE_STRING:
    return "string";
  case ONNXC_DTYPE_BOOL:
    return "bool";
  case ONNXC_DTYPE_FLOAT16:
    return "float16";
  case ONNXC_DTYPE_DOUBLE:
    return "float64";
  case ONNXC_DTYPE_UINT32:
    return "uint32";
  case ONNXC_DTYPE_UINT64:
    return "uint64";
  case ONNXC_DTYPE_BFLOAT16:
    return "bfloat16";
  case ONNXC_DTYPE_FLOAT8E4M3FN:
    return "float8_e4m3fn";
  case ONNXC_DTYPE_FLOAT8E4M3FNUZ:
    return "float8_e4m3fnuz";
  case ONNXC_DTYPE_FLOAT8E5M2:
    return "float8_e5m2";
  case ONNXC_DTYPE_FLOAT8E5M2FNUZ:
    return "float8_e5m2fnuz";
  case ONNXC_DTYPE_UINT4:
    return "uint4";
  case ONNXC_DTYPE_INT4:
    return "int4";
  case ONNXC_DTYPE_FLOAT4E2M1:
    return "float4_e2m1fn";
  case ONNXC_DTYPE_FLOAT8E8M0:
    return "float8_e8m0fnu";
  case ONNXC_DTYPE_UINT2:
    return "uint2";
  case ONNXC_DTYPE_INT2:
    return "int2";
  default:
    return "unknown";
  }
}

size_t onnxc_dtype_size(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_UINT8:
  case ONNXC_DTYPE_INT8:
  case ONNXC_DTYPE_BOOL:
  case ONNXC_DTYPE_FLOAT8E4M3FN:
  case ONNXC_DTYPE_FLOAT8E4M3FNUZ:
  case ONNXC_DTYPE_FLOAT8E5M2:
  case ONNXC_DTYPE_FLOAT8E5M2FNUZ:
  case ONNXC_DTYPE_UINT4:
  case ONNXC_DTYPE_INT4:
  case ONNXC_DTYPE_FLOAT4E2M1:
  case ONNXC_DTYPE_FLOAT8E8M0:
  case ONNXC_DTYPE_UINT2:
  case ONNXC_DTYPE_INT2:
    return 1;
  case ONNXC_DTYPE_UINT16:
  case ONNXC_DTYPE_INT16:
  case ONNXC_DTYPE_FLOAT16:
  case ONNXC_DTYPE_BFLOAT16:
    return 2;
  case ONNXC_DTYPE_FLOAT:
  case ONNXC_DTYPE_INT32:
  case ONNXC_DTYPE_UINT32:
    return 4;
  case ONNXC_DTYPE_INT64:
  case ONNXC_DTYPE_DOUBLE:
  case ONNXC_DTYPE_UINT64:
  case ONNXC_DTYPE_STRING: /* a handle (Strings.c) */
    return 8;
  default:
    return 0;
  }
}

bool onnxcDtypeIsNumeric(int32_t dtype) {
  return dtype != ONNXC_DTYPE_STRING && onnxc_dtype_size(dtype) != 0;
}

bool onnxcDtypeIsKnown(int32_t dtype) { return onnxc_dtype_size(dtype) != 0; }

unsigned onnxcDtypePackedBits(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_UINT4:
  case ONNXC_DTYPE_INT4:
  case ONNXC_DTYPE_FLOAT4E2M1:
    return 4;
  case ONNXC_DTYPE_UINT2:
  case ONNXC_DTYPE_INT2:
    return 2;
  default:
    return 0;
  }
}

void onnxcFormatDims(char *buf, size_t size, int32_t rank,
                     const int64_t *dims) {
  if (size == 0)
    return;
  size_t used = 0;
  buf[0] = '\0';
  for (int32_t i = -1; i <= rank && used < size; ++i) {
    int n;
    if (i < 0)
      n = snprintf(buf + used, size - used, "[");
    else if (i == rank)
      n = snprintf(buf + used, size - used, "]");
    else
      n = snprintf(buf + used, size - used, "%s%lld", i ? "," : "",
                   (long long)dims[i]);
    if (n < 0)
      return;
    used += (size_t)n;
  }
}
