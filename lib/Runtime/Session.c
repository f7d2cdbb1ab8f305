/*===- Session.c - Validated runs of a compiled model ----------------------===*
 *
 * A session checks the input tensors against the model's signature, passes
 * them to the entry function as MLIR memref descriptors, and turns the
 * output descriptors that the model fills into tensors. Sequences, maps and
 * optionals travel as handles of their objects in rank-0 memrefs; their
 * outputs are deep copies, made before the run's arena goes.
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
  bool isTensor = sig->kind == ONNXC_KIND_TENSOR;
  bool kindOk = isTensor;
  if (sig->kind == ONNXC_KIND_SEQUENCE)
    kindOk =
        sig->elem_kind == ONNXC_KIND_TENSOR || sig->elem_kind == ONNXC_KIND_MAP;
  else if (sig->kind == ONNXC_KIND_MAP)
    kindOk = sig->elem_kind == ONNXC_KIND_TENSOR;
  else if (sig->kind == ONNXC_KIND_OPTIONAL)
    kindOk = sig->elem_kind == ONNXC_KIND_TENSOR ||
             sig->elem_kind == ONNXC_KIND_SEQUENCE;
  if (!kindOk)
    return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                         "model %s %d '%s' has unsupported kind %d (elem_kind "
                         "%d)",
                         kind, (int)index, sigName(sig), (int)sig->kind,
                         (int)sig->elem_kind);
  if (!onnxcDtypeIsKnown(sig->dtype) &&
      (isTensor || sig->dtype != ONNXC_DTYPE_UNDEFINED))
    return onnxcSetError(
        ONNXC_ERROR_UNSUPPORTED, "model %s %d '%s' has unsupported dtype %s",
        kind, (int)index, sigName(sig), onnxc_dtype_name(sig->dtype));
  if (sig->rank < (isTensor ? 0 : -1) || sig->rank > ONNXC_MAX_RANK)
    return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                         "model %s %d '%s' has unsupported rank %d", kind,
                         (int)index, sigName(sig), (int)sig->rank);
  if (sig->rank > 0 && !sig->dims)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "model %s %d '%s' has no dims", kind, (int)index,
                         sigName(sig));
  return ONNXC_OK;
}

int32_t onnxcDescriptorRank(const onnxc_tensor_sig *sig) {
  return sig->kind == ONNXC_KIND_TENSOR ? sig->rank : 0;
}

size_t onnxcDescriptorElementSize(const onnxc_tensor_sig *sig) {
  return sig->kind == ONNXC_KIND_TENSOR ? onnxc_dtype_size(sig->dtype)
                                        : sizeof(int64_t);
}

/// The words of the memref descriptor of `sig`.
static size_t descWords(const onnxc_tensor_sig *sig) {
  return 3 + 2 * (size_t)onnxcDescriptorRank(sig);
}

/// Checks that `model` is a usable version 2 model descriptor.
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

/// Checks the dtype, rank and static dims of tensor `t` against `sig` (a
/// dtype of 0 and a rank of -1 accept any, for a sequence's items); `what`
/// says which tensor of input `i` it is.
static onnxc_status checkTensor(const onnxc_tensor_sig *sig,
                                const onnxc_tensor *t, int32_t i,
                                const char *what) {
  if (t->kind != ONNXC_KIND_TENSOR)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "input %d '%s'%s: expected a tensor but got a %s",
                         (int)i, sigName(sig), what, onnxcKindName(t->kind));
  if (t->dtype != sig->dtype &&
      (sig->kind == ONNXC_KIND_TENSOR || sig->dtype != ONNXC_DTYPE_UNDEFINED))
    return onnxcSetError(
        ONNXC_ERROR_INVALID_ARGUMENT,
        "input %d '%s'%s: expected dtype %s but got %s", (int)i, sigName(sig),
        what, onnxc_dtype_name(sig->dtype), onnxc_dtype_name(t->dtype));
  if (sig->rank < 0)
    return ONNXC_OK;
  char want[256], got[256];
  if (t->rank != sig->rank) {
    formatSigShape(want, sizeof(want), sig);
    onnxcFormatDims(got, sizeof(got), t->rank, t->dims);
    return onnxcSetError(
        ONNXC_ERROR_INVALID_ARGUMENT,
        "input %d '%s'%s: expected rank %d but got %d (expected shape %s but "
        "got %s)",
        (int)i, sigName(sig), what, (int)sig->rank, (int)t->rank, want, got);
  }
  for (int32_t d = 0; d < sig->rank; ++d) {
    if (sig->dims[d] < 0 || sig->dims[d] == t->dims[d])
      continue;
    formatSigShape(want, sizeof(want), sig);
    onnxcFormatDims(got, sizeof(got), t->rank, t->dims);
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "input %d '%s'%s: expected shape %s but got %s",
                         (int)i, sigName(sig), what, want, got);
  }
  return ONNXC_OK;
}

/// Checks a map input (or item) against `sig`'s value dtype and key dtype.
static onnxc_status checkMapValue(const onnxc_tensor_sig *sig,
                                  const onnxc_tensor *m, int32_t i,
                                  const char *what) {
  if (m->kind != ONNXC_KIND_MAP)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "input %d '%s'%s: expected a map but got a %s", (int)i,
                         sigName(sig), what, onnxcKindName(m->kind));
  if ((sig->key_dtype && m->keyDtype != sig->key_dtype) ||
      (sig->dtype && m->dtype != sig->dtype))
    return onnxcSetError(
        ONNXC_ERROR_INVALID_ARGUMENT,
        "input %d '%s'%s: expected a map of %s to %s but got "
        "one of %s to %s",
        (int)i, sigName(sig), what, onnxc_dtype_name(sig->key_dtype),
        onnxc_dtype_name(sig->dtype), onnxc_dtype_name(m->keyDtype),
        onnxc_dtype_name(m->dtype));
  return ONNXC_OK;
}

/// Checks a value of kind `kind` (SEQUENCE, or TENSOR/SEQUENCE as an
/// optional's element) against `sig`.
static onnxc_status checkValue(const onnxc_tensor_sig *sig, int32_t kind,
                               const onnxc_tensor *v, int32_t i) {
  if (kind == ONNXC_KIND_TENSOR)
    return checkTensor(sig, v, i, "");
  if (kind == ONNXC_KIND_MAP)
    return checkMapValue(sig, v, i, "");
  if (v->kind != ONNXC_KIND_SEQUENCE)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "input %d '%s': expected a sequence but got a %s",
                         (int)i, sigName(sig), onnxcKindName(v->kind));
  if (sig->dtype && v->dtype && v->dtype != sig->dtype)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "input %d '%s': expected a sequence of %s but got "
                         "one of %s",
                         (int)i, sigName(sig), onnxc_dtype_name(sig->dtype),
                         onnxc_dtype_name(v->dtype));
  // A sequence's elem_kind is TENSOR or MAP; an optional's sequence holds
  // tensors.
  int32_t itemKind =
      sig->kind == ONNXC_KIND_SEQUENCE ? sig->elem_kind : ONNXC_KIND_TENSOR;
  for (int64_t k = 0; k < v->count; ++k) {
    char what[48];
    snprintf(what, sizeof(what), " item %lld", (long long)k);
    onnxc_status status = itemKind == ONNXC_KIND_MAP
                              ? checkMapValue(sig, v->items[k], i, what)
                              : checkTensor(sig, v->items[k], i, what);
    if (status != ONNXC_OK)
      return status;
  }
  return ONNXC_OK;
}

/// Checks count, kinds, dtypes, ranks, static dims and shared dim_params.
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
    bool optional = sig->kind == ONNXC_KIND_OPTIONAL;
    if (optional && (!t || t->kind == ONNXC_KIND_NONE))
      continue;
    if (!t)
      return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                           "input %d '%s' is null", (int)i, sigName(sig));
    onnxc_status status =
        checkValue(sig, optional ? sig->elem_kind : sig->kind, t, i);
    if (status != ONNXC_OK)
      return status;
  }
  // Dynamic dims named alike must agree; the first occurrence binds the name.
  for (int32_t i = 0; i < numInputs; ++i) {
    const onnxc_tensor_sig *sig = &model->inputs[i];
    if (sig->kind != ONNXC_KIND_TENSOR)
      continue;
    for (int32_t d = 0; d < sig->rank; ++d) {
      const char *param = dimParam(sig, d);
      if (sig->dims[d] >= 0 || !param)
        continue;
      for (int32_t j = 0; j <= i; ++j) {
        const onnxc_tensor_sig *other = &model->inputs[j];
        int32_t limit = other->kind != ONNXC_KIND_TENSOR ? 0
                        : j == i                         ? d
                                                         : other->rank;
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
      onnxcCopyStrided((unsigned char *)handles, data, rank, sizes, strides,
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
        onnxcCopyStrided(tensor->data, data, rank, sizes, strides, elemSize,
                         numel);
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

/// Turns output descriptor `k` of a kind other than TENSOR, a handle's
/// rank-0 memref, into a deep copy of the value it holds.
static onnxc_status adoptValueOutput(const onnxc_model_desc *model, int32_t k,
                                     const int64_t *words,
                                     onnxc_tensor **result) {
  const onnxc_tensor_sig *sig = &model->outputs[k];
  const int64_t *aligned = (const int64_t *)(intptr_t)words[1];
  if (!aligned || words[2] < 0)
    return onnxcSetError(ONNXC_ERROR_INTERNAL,
                         "output %d '%s': model returned a null or "
                         "negative-offset buffer",
                         (int)k, sigName(sig));
  const onnxc_tensor *value = (const onnxc_tensor *)(intptr_t)aligned[words[2]];
  bool optional = sig->kind == ONNXC_KIND_OPTIONAL;
  int32_t want = optional ? sig->elem_kind : sig->kind;
  onnxc_tensor *copy;
  if (!value || value->kind == ONNXC_KIND_NONE) {
    if (!optional)
      return onnxcSetError(ONNXC_ERROR_INTERNAL,
                           "output %d '%s': model returned no %s", (int)k,
                           sigName(sig), onnxcKindName(want));
    copy = onnxc_none_create();
  } else {
    if (value->kind != want)
      return onnxcSetError(ONNXC_ERROR_INTERNAL,
                           "output %d '%s': model returned a %s for a %s",
                           (int)k, sigName(sig), onnxcKindName(value->kind),
                           onnxcKindName(want));
    copy = onnxcValueCopy(value);
  }
  if (!copy)
    return onnxc_last_status() != ONNXC_OK ? onnxc_last_status()
                                           : ONNXC_ERROR_OUT_OF_MEMORY;
  onnxc_status status = onnxc_tensor_set_name(copy, sig->name);
  if (status != ONNXC_OK) {
    onnxc_tensor_free(copy);
    return status;
  }
  *result = copy;
  return ONNXC_OK;
}

/// True if `p` lies within the data of one of the inputs.
static bool pointsIntoInput(const void *p, onnxc_tensor *const *inputs,
                            int32_t numInputs) {
  uintptr_t addr = (uintptr_t)p;
  for (int32_t i = 0; i < numInputs; ++i) {
    if (!inputs[i] || inputs[i]->kind != ONNXC_KIND_TENSOR)
      continue;
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

  // One block for the input descriptors, then the outputs', then the
  // handles of the inputs that are not tensors.
  size_t inWords = 0, outWords = 0;
  for (int32_t i = 0; i < num_inputs; ++i)
    inWords += descWords(&model->inputs[i]);
  for (int32_t k = 0; k < model->num_outputs; ++k)
    outWords += descWords(&model->outputs[k]);
  size_t numIn = (size_t)num_inputs, numOut = (size_t)model->num_outputs;
  size_t totalWords = inWords + outWords + numIn + 1;
  int64_t *words = calloc(totalWords, sizeof(int64_t));
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
  int64_t *handles = words + inWords + outWords;
  for (int32_t i = 0; i < num_inputs; ++i) {
    if (model->inputs[i].kind == ONNXC_KIND_TENSOR) {
      fillDescriptor(w, inputs[i]);
    } else {
      // NULL and NONE (optionals holding nothing) are handle 0.
      const onnxc_tensor *v = inputs[i];
      handles[i] = v && v->kind != ONNXC_KIND_NONE ? (int64_t)(intptr_t)v : 0;
      w[0] = w[1] = (int64_t)(intptr_t)&handles[i];
      w[2] = 0;
    }
    inPtrs[i] = w;
    w += descWords(&model->inputs[i]);
  }
  int64_t *outDesc = w;

  onnxcRunArena arena = ONNXC_RUN_ARENA_INIT;
  onnxcRunArena *previousArena = onnxcSetCurrentRunArena(&arena);
  onnxc_threadpool *previous = onnxcSetCurrentThreadpool(session->pool);
  onnxcClearError();
  model->entry((void *const *)inPtrs, outDesc);
  onnxcSetCurrentThreadpool(previous);
  onnxcSetCurrentRunArena(previousArena);
  // An entry that reports an error (a GPU build without a usable GPU) has
  // left no outputs.
  if (onnxc_last_status() != ONNXC_OK) {
    status = onnxc_last_status();
    onnxcRunArenaRelease(&arena);
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
    // An input's handle buffer (an Identity of a sequence) is ours.
    bool ownWords = (uintptr_t)allocated >= (uintptr_t)words &&
                    (uintptr_t)allocated < (uintptr_t)(words + totalWords);
    bool owned = allocated && (uintptr_t)allocated != ONNXC_GLOBAL_SENTINEL &&
                 !ownWords && !pointsIntoInput(allocated, inputs, num_inputs);
    for (int32_t j = 0; j < k && owned; ++j)
      if (buffers[j].allocated == allocated)
        owned = false;
    buffers[k].allocated = allocated;
    buffers[k].owned = owned;
    w += descWords(&model->outputs[k]);
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
    if (model->outputs[k].kind != ONNXC_KIND_TENSOR)
      status = adoptValueOutput(model, k, w, &results[k]);
    else
      status = adoptOutput(model, k, w, buffers[k].owned, &results[k]);
    if (status != ONNXC_OK)
      break;
    if (results[k]->allocation == buffers[k].allocated)
      buffers[k].owned = false; // now the tensor's
    w += descWords(&model->outputs[k]);
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
  onnxcRunArenaRelease(&arena);
  free(words);
  free(inPtrs);
  free(buffers);
  free(results);
  return status;
}
