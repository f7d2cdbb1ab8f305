/*===- Session.c - Validated runs of a compiled model ----------------------===*
 *
 * A session checks the input tensors against the model's signature, passes
 * them to the entry function as MLIR memref descriptors, and turns the
 * output descriptors that the model fills into tensors.
 *
 *===----------------------------------------------------------------------===*/
#include "RuntimeInternal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct onnxc_session {
  const onnxc_model_desc *model;
  onnxc_threadpool *pool;
};

/// MLIR's memref.get_global lowering stores this as the allocated pointer
/// of a constant buffer: never free it.

static const char *sigName(const onnxc_tensor_sig *sig) {
  return sig->name ? sig->name : "";
}

static const char *dimParam(const onnxc_tensor_sig *sig, int32_t i) {
  if (!sig->dim_params || !sig->dim_params[i] || !*sig->dim_params[i])
    return NULL;
  return sig->dim_params[i];
}

/// Prints the signature shape as "[N,1,?,8]".
static void formatSigShape(char *buf, size_t size,
                           const onnxc_tensor_sig *sig) {
  size_t used = 0;
  buf[0] = '\0';
  for (int32_t i = -1; i <= sig->rank && used < size; ++i) {
    int n;
    if (i < 0) {
      n = snprintf(buf + used, size - used, "[");
    } else if (i == sig->rank) {
      n = snprintf(buf + used, size - used, "]");
    } else if (sig->dims[i] >= 0) {
      n = snprintf(buf + used, size - used, "%s%lld", i ? "," : "",
                   (long long)sig->dims[i]);
    } else {
      const char *param = dimParam(sig, i);
      n = snprintf(buf + used, size - used, "%s%s", i ? "," : "",
                   param ? param : "?");
    }
    if (n < 0)
      return;
    used += (size_t)n;
  }
}

static onnxc_status checkSig(const onnxc_tensor_sig *sig, const char *kind,
                             int32_t index) {
  if (!onnxcDtypeIsKnown(sig->dtype))
    return onnxcSetError(
        ONNXC_ERROR_UNSUPPORTED, "model %s %d '%s' has unsupported dtype %s",
        kind, (int)index, sigName(sig), onnxc_dtype_name(sig->dtype));
  if (sig->rank < 0 || sig->rank > ONNXC_MAX_RANK)
    return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                         "model %s %d '%s' has unsupported rank %d", kind,
                         (int)index, sigName(sig), (int)sig->rank);
  if (sig->rank > 0 && !sig->dims)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "model %s %d '%s' has no dims", kind, (int)index,
                         sigName(sig));
  return ONNXC_OK;
}

/// Checks that `model` is a usable version 1 model descriptor.
onnxc_status onnxcCheckModel(const onnxc_model_desc *model) {
  if (!model)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "model is null");
  if (model->abi_version != ONNXC_ABI_VERSION)
    return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                         "model abi_version %u is not supported (expected %d)",
                         (unsigned)model->abi_version, ONNXC_ABI_VERSION);
  if (model->num_inputs < 0 || model->num_outputs < 0 ||
      (model->num_inputs > 0 && !model->inputs) ||
      (model->num_outputs > 0 && !model->outputs) || !model->entry)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "model descriptor is incomplete");
  for (int32_t i = 0; i < model->num_inputs; ++i) {
    onnxc_status status = checkSig(&model->inputs[i], "input", i);
    if (status != ONNXC_OK)
      return status;
  }
  for (int32_t i = 0; i < model->num_outputs; ++i) {
    onnxc_status status = checkSig(&model->outputs[i], "output", i);
    if (status != ONNXC_OK)
      return status;
  }
  return ONNXC_OK;
}

onnxc_session *onnxc_session_create(const onnxc_model_desc *model,
                                    int num_threads) {
  if (onnxcCheckModel(model) != ONNXC_OK)
    return NULL;
  onnxcProfileFromEnvironment();
  onnxc_session *session = calloc(1, sizeof(*session));
  if (!session) {
    onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  session->model = model;
  session->pool = onnxc_threadpool_create(num_threads);
  if (!session->pool) {
    free(session);
    return NULL;
  }
  return session;
}

void onnxc_session_free(onnxc_session *session) {
  if (!session)
    return;
  onnxc_threadpool_destroy(session->pool);
  free(session);
}

const onnxc_model_desc *onnxc_session_model(const onnxc_session *session) {
  return session ? session->model : NULL;
}

onnxc_threadpool *onnxc_session_threadpool(const onnxc_session *session) {
  return session ? session->pool : NULL;
}

/// Checks count, dtypes, ranks, static dims and shared dim_params.
static onnxc_status checkInputs(const onnxc_model_desc *model,
                                onnxc_tensor *const *inputs,
                                int32_t numInputs) {
  if (numInputs != model->num_inputs)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "expected %d input%s but got %d",
                         (int)model->num_inputs,
                         model->num_inputs == 1 ? "" : "s", (int)numInputs);
  if (numInputs > 0 && !inputs)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "inputs is null");
  for (int32_t i = 0; i < numInputs; ++i) {
    const onnxc_tensor_sig *sig = &model->inputs[i];
    const onnxc_tensor *t = inputs[i];
    if (!t)
      return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                           "input %d '%s' is null", (int)i, sigName(sig));
    if (t->dtype != sig->dtype)
      return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                           "input %d '%s': expected dtype %s but got %s",
                           (int)i, sigName(sig), onnxc_dtype_name(sig->dtype),
                           onnxc_dtype_name(t->dtype));
    char want[256], got[256];
    if (t->rank != sig->rank) {
      formatSigShape(want, sizeof(want), sig);
      onnxcFormatDims(got, sizeof(got), t->rank, t->dims);
      return onnxcSetError(
          ONNXC_ERROR_INVALID_ARGUMENT,
          "input %d '%s': expected rank %d but got %d (expected shape %s but "
          "got %s)",
          (int)i, sigName(sig), (int)sig->rank, (int)t->rank, want, got);
    }
    for (int32_t d = 0; d < sig->rank; ++d) {
      if (sig->dims[d] < 0 || sig->dims[d] == t->dims[d])
        continue;
      formatSigShape(want, sizeof(want), sig);
      onnxcFormatDims(got, sizeof(got), t->rank, t->dims);
      return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                           "input %d '%s': expected shape %s but got %s",
                           (int)i, sigName(sig), want, got);
    }
  }
  // Dynamic dims named alike must agree; the first occurrence binds the name.
  for (int32_t i = 0; i < numInputs; ++i) {
    const onnxc_tensor_sig *sig = &model->inputs[i];
    for (int32_t d = 0; d < sig->rank; ++d) {
      const char *param = dimParam(sig, d);
      if (sig->dims[d] >= 0 || !param)
        continue;
      for (int32_t j = 0; j <= i; ++j) {
        const onnxc_tensor_sig *other = &model->inputs[j];
        int32_t limit = j == i ? d : other->rank;
        for (int32_t e = 0; e < limit; ++e) {
          const char *otherParam = dimParam(other, e);
          if (other->dims[e] >= 0 || !otherParam ||
              strcmp(otherParam, param) != 0)
            continue;
          if (inputs[j]->dims[e] == inputs[i]->dims[d])
            goto nextDim;
          char want[256], got[256];
          formatSigShape(want, sizeof(want), sig);
          onnxcFormatDims(got, sizeof(got), inputs[i]->rank, inputs[i]->dims);
          return onnxcSetError(
              ONNXC_ERROR_INVALID_ARGUMENT,
              "input %d '%s': dim %d '%s' is %lld but input %d '%s' has "
              "'%s' = %lld (expected shape %s but got %s)",
              (int)i, sigName(sig), (int)d, param,
              (long long)inputs[i]->dims[d], (int)j, sigName(other), param,
              (long long)inputs[j]->dims[e], want, got);
        }
      }
    nextDim:;
    }
  }
  return ONNXC_OK;
}

/// Fills the descriptor words of a contiguous tensor.
static void fillDescriptor(int64_t *words, const onnxc_tensor *t) {
  intptr_t data = (intptr_t)t->data;
  words[0] = (int64_t)data;
  words[1] = (int64_t)data;
  words[2] = 0;
  int64_t stride = 1;
  for (int32_t d = t->rank - 1; d >= 0; --d) {
    words[3 + d] = t->dims[d];
    words[3 + t->rank + d] = stride;
    stride *= t->dims[d] > 0 ? t->dims[d] : 1;
  }
}

/// What the runtime knows about one output descriptor after the call.
typedef struct {
  void *allocated;
  /// Whether the runtime must free `allocated` (malloc'd by the model and
  /// not already claimed by an earlier output).
  bool owned;
} OutputBuffer;

/// Copies a strided memref of `rank` dims into dense row-major `dst`.
static void copyStrided(unsigned char *dst, const unsigned char *src,
                        int32_t rank, const int64_t *sizes,
                        const int64_t *strides, size_t elemSize,
                        int64_t numel) {
  int64_t index[ONNXC_MAX_RANK] = {0};
  int64_t srcOffset = 0;
  for (int64_t k = 0; k < numel; ++k) {
    memcpy(dst + (size_t)k * elemSize, src + srcOffset * (int64_t)elemSize,
           elemSize);
    // Advance the multi-index, innermost dim first.
    for (int32_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d]) {
        srcOffset += strides[d];
        break;
      }
      srcOffset -= strides[d] * (index[d] - 1);
      index[d] = 0;
    }
  }
}

/// Turns output descriptor `k` into a tensor, taking over its buffer when it
/// is dense and owned, copying it otherwise. A shape that contradicts a
/// static dim of the signature is an internal error: the compiled code broke
/// its own types. An output dim_param that the inputs also name is the
/// model's claim, not a contract: models in the wild declare outputs wrongly
/// (a stride-2 convolution's 'H' named as its input's), and, as in ONNX
/// Runtime, the computed size stands.
static onnxc_status adoptOutput(const onnxc_model_desc *model, int32_t k,
                                const int64_t *words, bool owned,
                                onnxc_tensor **result) {
  const onnxc_tensor_sig *sig = &model->outputs[k];
  int32_t rank = sig->rank;
  void *allocated = (void *)(intptr_t)words[0];
  unsigned char *aligned = (unsigned char *)(intptr_t)words[1];
  int64_t offset = words[2];
  const int64_t *sizes = words + 3;
  const int64_t *strides = words + 3 + rank;
  char got[256];
  onnxcFormatDims(got, sizeof(got), rank, sizes);
  for (int32_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || (sig->dims[d] >= 0 && sizes[d] != sig->dims[d])) {
      char want[256];
      formatSigShape(want, sizeof(want), sig);
      return onnxcSetError(ONNXC_ERROR_INTERNAL,
                           "output %d '%s': model returned shape %s but the "
                           "signature says %s",
                           (int)k, sigName(sig), got, want);
    }
  }
  int64_t numel;
  size_t nbytes;
  if (onnxcCheckShape(sig->dtype, rank, sizes, &numel, &nbytes) != ONNXC_OK)
    return onnxcSetError(ONNXC_ERROR_INTERNAL, "output %d '%s': %s", (int)k,
                         sigName(sig), "model returned an oversized shape");
  if (numel > 0 && (!aligned || offset < 0))
    return onnxcSetError(ONNXC_ERROR_INTERNAL,
                         "output %d '%s': model returned a null or "
                         "negative-offset buffer",
                         (int)k, sigName(sig));
  size_t elemSize = onnxc_dtype_size(sig->dtype);
  bool dense = true;
  int64_t expected = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected)
      dense = false;
    expected *= sizes[d];
  }
  unsigned char *data = numel ? aligned + offset * (int64_t)elemSize : NULL;
  onnxc_tensor *tensor;
  if (sig->dtype == ONNXC_DTYPE_STRING) {
    // The handles point into the run's arena, the model's constants or the
    // inputs: the tensor gets copies of the strings.
    int64_t *handles = malloc(nbytes ? nbytes : 1);
    if (!handles)
      return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    if (numel > 0)
      copyStrided((unsigned char *)handles, data, rank, sizes, strides,
                  elemSize, numel);
    tensor = onnxcStringTensorFromHandles(rank, sizes, handles, numel);
    free(handles);
  } else if (owned && (dense || numel == 0)) {
    tensor = onnxcTensorAdopt(sig->dtype, rank, sizes, numel ? data : allocated,
                              allocated);
  } else {
    tensor = onnxc_tensor_create(sig->dtype, rank, sizes);
    if (tensor && numel > 0) {
      if (dense)
        memcpy(tensor->data, data, nbytes);
      else
        copyStrided(tensor->data, data, rank, sizes, strides, elemSize, numel);
    }
  }
  if (!tensor)
    return ONNXC_ERROR_OUT_OF_MEMORY;
  onnxc_status status = onnxc_tensor_set_name(tensor, sig->name);
  if (status != ONNXC_OK) {
    if (tensor->allocation == allocated)
      tensor->allocation = NULL;
    onnxc_tensor_free(tensor);
    return status;
  }
  *result = tensor;
  return ONNXC_OK;
}

/// True if `p` lies within the data of one of the inputs.
static bool pointsIntoInput(const void *p, onnxc_tensor *const *inputs,
                            int32_t numInputs) {
  uintptr_t addr = (uintptr_t)p;
  for (int32_t i = 0; i < numInputs; ++i) {
    uintptr_t begin = (uintptr_t)inputs[i]->data;
    uintptr_t end = begin + inputs[i]->nbytes;
    if (addr == begin || (addr > begin && addr < end))
      return true;
  }
  return false;
}

onnxc_status onnxc_session_run(onnxc_session *session,
                               onnxc_tensor *const *inputs, int32_t num_inputs,
                               onnxc_tensor **outputs) {
  if (!session)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "session is null");
  const onnxc_model_desc *model = session->model;
  if (model->num_outputs > 0 && !outputs)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "outputs is null");
  onnxc_status status = checkInputs(model, inputs, num_inputs);
  if (status != ONNXC_OK)
    return status;

  // One block for the input descriptors, then one for the outputs.
  size_t inWords = 0, outWords = 0;
  for (int32_t i = 0; i < num_inputs; ++i)
    inWords += 3 + 2 * (size_t)model->inputs[i].rank;
  for (int32_t k = 0; k < model->num_outputs; ++k)
    outWords += 3 + 2 * (size_t)model->outputs[k].rank;
  size_t numIn = (size_t)num_inputs, numOut = (size_t)model->num_outputs;
  int64_t *words = calloc(inWords + outWords + 1, sizeof(int64_t));
  void **inPtrs = calloc(numIn + 1, sizeof(void *));
  OutputBuffer *buffers = calloc(numOut + 1, sizeof(OutputBuffer));
  onnxc_tensor **results = calloc(numOut + 1, sizeof(onnxc_tensor *));
  if (!words || !inPtrs || !buffers || !results) {
    free(words);
    free(inPtrs);
    free(buffers);
    free(results);
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  int64_t *w = words;
  for (int32_t i = 0; i < num_inputs; ++i) {
    fillDescriptor(w, inputs[i]);
    inPtrs[i] = w;
    w += 3 + 2 * inputs[i]->rank;
  }
  int64_t *outDesc = w;

  onnxcStringArena arena = ONNXC_STRING_ARENA_INIT;
  onnxcStringArena *previousArena = onnxcSetCurrentStringArena(&arena);
  onnxc_threadpool *previous = onnxcSetCurrentThreadpool(session->pool);
  onnxcClearError();
  model->entry((void *const *)inPtrs, outDesc);
  onnxcSetCurrentThreadpool(previous);
  onnxcSetCurrentStringArena(previousArena);
  // An entry that reports an error (a GPU build without a usable GPU) has
  // left no outputs.
  if (onnxc_last_status() != ONNXC_OK) {
    status = onnxc_last_status();
    onnxcStringArenaRelease(&arena);
    free(words);
    free(inPtrs);
    free(buffers);
    free(results);
    return status;
  }

  // Decide which buffers the runtime owns: not the inputs', not a constant
  // global's, and each allocation only once.
  w = outDesc;
  for (int32_t k = 0; k < model->num_outputs; ++k) {
    void *allocated = (void *)(intptr_t)w[0];
    bool owned = allocated && (uintptr_t)allocated != ONNXC_GLOBAL_SENTINEL &&
                 !pointsIntoInput(allocated, inputs, num_inputs);
    for (int32_t j = 0; j < k && owned; ++j)
      if (buffers[j].allocated == allocated)
        owned = false;
    buffers[k].allocated = allocated;
    buffers[k].owned = owned;
    w += 3 + 2 * model->outputs[k].rank;
  }
  // A buffer shared by several outputs is handed to the last of them so that
  // the earlier ones copy from it before it can be freed.
  for (int32_t k = 0; k < model->num_outputs; ++k) {
    if (!buffers[k].owned)
      continue;
    for (int32_t j = k + 1; j < model->num_outputs; ++j) {
      if (buffers[j].allocated == buffers[k].allocated) {
        buffers[k].owned = false;
        buffers[j].owned = true;
        break;
      }
    }
  }

  w = outDesc;
  for (int32_t k = 0; k < model->num_outputs; ++k) {
    status = adoptOutput(model, k, w, buffers[k].owned, &results[k]);
    if (status != ONNXC_OK)
      break;
    if (results[k]->allocation == buffers[k].allocated)
      buffers[k].owned = false; // now the tensor's
    w += 3 + 2 * model->outputs[k].rank;
  }

  for (int32_t k = 0; k < model->num_outputs; ++k) {
    if (status != ONNXC_OK) {
      onnxc_tensor_free(results[k]);
      results[k] = NULL;
    }
    if (buffers[k].owned)
      free(buffers[k].allocated);
  }
  if (status == ONNXC_OK)
    for (int32_t k = 0; k < model->num_outputs; ++k)
      outputs[k] = results[k];
  onnxcStringArenaRelease(&arena);
  free(words);
  free(inPtrs);
  free(buffers);
  free(results);
  return status;
}
