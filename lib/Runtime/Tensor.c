/*===- Tensor.c - Dense row-major tensors of the runtime -----------------===*/

#include "RuntimeInternal.h"

#include <stdlib.h>
#include <string.h>

onnxc_status onnxcCheckShape(int32_t dtype, int32_t rank, const int64_t *dims,
                             int64_t *numel, size_t *nbytes) {
  size_t elemSize = onnxc_dtype_size(dtype);
  if (elemSize == 0)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "unknown dtype %d",
                         (int)dtype);
  if (rank < 0 || rank > ONNXC_MAX_RANK)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "rank %d is out of range [0, %d]", (int)rank,
                         ONNXC_MAX_RANK);
  if (rank > 0 && !dims)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "dims is null for a tensor of rank %d", (int)rank);
  // Keep the byte size within what ptrdiff_t and malloc can represent.
  const uint64_t limit = (uint64_t)PTRDIFF_MAX;
  uint64_t count = 1;
  bool zero = false;
  for (int32_t i = 0; i < rank; ++i) {
    if (dims[i] < 0)
      return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                           "dim %d is negative (%lld)", (int)i,
                           (long long)dims[i]);
    if (dims[i] == 0) {
      zero = true;
      continue;
    }
    if (count > limit / (uint64_t)dims[i])
      return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                           "tensor of %d dims is too large", (int)rank);
    count *= (uint64_t)dims[i];
  }
  if (count > limit / elemSize)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "tensor of %llu elements is too large",
                         (unsigned long long)count);
  if (zero)
    count = 0;
  if (numel)
    *numel = (int64_t)count;
  if (nbytes)
    *nbytes = (size_t)count * elemSize;
  return ONNXC_OK;
}

/// A tensor with no data yet, or NULL with the last error set.
static onnxc_tensor *newTensor(int32_t dtype, int32_t rank,
                               const int64_t *dims) {
  int64_t numel;
  size_t nbytes;
  if (onnxcCheckShape(dtype, rank, dims, &numel, &nbytes) != ONNXC_OK)
    return NULL;
  onnxc_tensor *tensor = calloc(1, sizeof(*tensor));
  if (!tensor) {
    onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  tensor->dtype = dtype;
  tensor->rank = rank;
  for (int32_t i = 0; i < rank; ++i)
    tensor->dims[i] = dims[i];
  tensor->numel = numel;
  tensor->nbytes = nbytes;
  return tensor;
}

onnxc_tensor *onnxc_tensor_create(int32_t dtype, int32_t rank,
                                  const int64_t *dims) {
  onnxc_tensor *tensor = newTensor(dtype, rank, dims);
  if (!tensor)
    return NULL;
  // Never a null data pointer, even for empty tensors.
  tensor->allocation = calloc(tensor->nbytes ? tensor->nbytes : 1, 1);
  if (!tensor->allocation) {
    onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY,
                  "out of memory allocating a tensor of %zu bytes",
                  tensor->nbytes);
    free(tensor);
    return NULL;
  }
  tensor->data = tensor->allocation;
  return tensor;
}

onnxc_tensor *onnxc_tensor_wrap(int32_t dtype, int32_t rank,
                                const int64_t *dims, void *data) {
  if (dtype == ONNXC_DTYPE_STRING) {
    onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                  "string tensors cannot wrap caller data: use "
                  "onnxc_tensor_create_strings");
    return NULL;
  }
  onnxc_tensor *tensor = newTensor(dtype, rank, dims);
  if (!tensor)
    return NULL;
  if (!data && tensor->nbytes != 0) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                  "cannot wrap a null pointer as a tensor of %zu bytes",
                  tensor->nbytes);
    free(tensor);
    return NULL;
  }
  tensor->data = data;
  return tensor;
}

onnxc_tensor *onnxcTensorAdopt(int32_t dtype, int32_t rank, const int64_t *dims,
                               void *data, void *allocation) {
  onnxc_tensor *tensor = newTensor(dtype, rank, dims);
  if (!tensor)
    return NULL;
  tensor->data = data;
  tensor->allocation = allocation;
  return tensor;
}

void onnxc_tensor_free(onnxc_tensor *tensor) {
  // Run-arena objects go with their arena.
  if (!tensor || tensor->inArena)
    return;
  for (int64_t i = 0; i < tensor->count; ++i)
    onnxc_tensor_free(tensor->items[i]);
  free(tensor->items);
  onnxc_tensor_free(tensor->keys);
  onnxc_tensor_free(tensor->values);
  free(tensor->allocation);
  free(tensor->name);
  free(tensor);
}

int32_t onnxc_tensor_dtype(const onnxc_tensor *tensor) {
  return tensor ? tensor->dtype : ONNXC_DTYPE_UNDEFINED;
}

int32_t onnxc_tensor_rank(const onnxc_tensor *tensor) {
  return tensor ? tensor->rank : 0;
}

const int64_t *onnxc_tensor_dims(const onnxc_tensor *tensor) {
  return tensor && tensor->kind == ONNXC_KIND_TENSOR ? tensor->dims : NULL;
}

int64_t onnxc_tensor_numel(const onnxc_tensor *tensor) {
  return tensor ? tensor->numel : 0;
}

size_t onnxc_tensor_nbytes(const onnxc_tensor *tensor) {
  return tensor ? tensor->nbytes : 0;
}

void *onnxc_tensor_data(const onnxc_tensor *tensor) {
  return tensor ? tensor->data : NULL;
}

const char *onnxc_tensor_name(const onnxc_tensor *tensor) {
  return tensor && tensor->name ? tensor->name : "";
}

onnxc_status onnxc_tensor_set_name(onnxc_tensor *tensor, const char *name) {
  if (!tensor)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "tensor is null");
  char *copy = NULL;
  if (name && *name) {
    size_t len = strlen(name);
    copy = malloc(len + 1);
    if (!copy)
      return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    memcpy(copy, name, len + 1);
  }
  free(tensor->name);
  tensor->name = copy;
  return ONNXC_OK;
}
