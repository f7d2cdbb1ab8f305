/*===- Values.c - Sequences, maps and optionals, and what models call on them
 *===*
 *
 * Every value is an onnxc_tensor object (RuntimeInternal.h) of a kind:
 * TENSOR, SEQUENCE (items: tensors or maps), MAP (a keys and a values
 * tensor) or NONE (an optional holding nothing). The public functions build
 * caller-owned values on the heap. The onnxc_seq_* and onnxc_value_*
 * functions are what compiled models call on int64 handles of such objects:
 * what they make lives in the run arena (Strings.c), never changes once
 * returned, and goes when the run ends; a user error aborts with a message,
 * as a compiled cf.assert does.
 *
 *===----------------------------------------------------------------------===*/
#include "RuntimeInternal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *onnxcKindName(int32_t kind) {
  switch (kind) {
  case ONNXC_KIND_TENSOR:
    return "tensor";
  case ONNXC_KIND_SEQUENCE:
    return "sequence";
  case ONNXC_KIND_MAP:
    return "map";
  case ONNXC_KIND_OPTIONAL:
    return "optional";
  case ONNXC_KIND_NONE:
    return "none";
  default:
    return "unknown kind";
  }
}

/*===----------------------------------------------------------------------===
 * The public API: caller-owned values.
 *===----------------------------------------------------------------------===*/

/// A heap value of `kind` holding nothing yet.
static onnxc_tensor *newValue(int32_t kind, int32_t dtype) {
  onnxc_tensor *value = calloc(1, sizeof(*value));
  if (!value) {
    onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  value->kind = kind;
  value->dtype = dtype;
  return value;
}

int32_t onnxc_value_kind(const onnxc_tensor *value) {
  return value ? value->kind : -1;
}

onnxc_tensor *onnxc_sequence_create(int32_t elem_dtype) {
  if (elem_dtype != ONNXC_DTYPE_UNDEFINED && !onnxcDtypeIsKnown(elem_dtype)) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "unknown dtype %d",
                  (int)elem_dtype);
    return NULL;
  }
  return newValue(ONNXC_KIND_SEQUENCE, elem_dtype);
}

/// Appends `item` to the heap sequence `seq` without checking it.
static onnxc_status pushItem(onnxc_tensor *seq, onnxc_tensor *item) {
  if (seq->count == seq->capacity) {
    int64_t capacity = seq->capacity ? 2 * seq->capacity : 4;
    onnxc_tensor **items =
        realloc(seq->items, (size_t)capacity * sizeof(onnxc_tensor *));
    if (!items)
      return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    seq->items = items;
    seq->capacity = capacity;
  }
  seq->items[seq->count++] = item;
  return ONNXC_OK;
}

onnxc_status onnxc_sequence_append(onnxc_tensor *seq, onnxc_tensor *item) {
  if (!seq || seq->kind != ONNXC_KIND_SEQUENCE)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "cannot append to a %s: not a sequence",
                         seq ? onnxcKindName(seq->kind) : "null value");
  if (seq->inArena)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "a sequence made by a run cannot change");
  if (!item || item == seq)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "cannot append %s to a sequence",
                         item ? "a sequence to itself" : "a null item");
  if (item->kind != ONNXC_KIND_TENSOR && item->kind != ONNXC_KIND_MAP)
    return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                         "sequences hold tensors or maps, not a %s",
                         onnxcKindName(item->kind));
  if (seq->dtype != ONNXC_DTYPE_UNDEFINED && item->dtype != seq->dtype)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "cannot append a %s %s to a sequence of %s",
                         onnxc_dtype_name(item->dtype),
                         onnxcKindName(item->kind),
                         onnxc_dtype_name(seq->dtype));
  if (seq->count > 0 &&
      (item->kind != seq->elemKind ||
       (item->kind == ONNXC_KIND_MAP && item->keyDtype != seq->keyDtype)))
    return onnxcSetError(
        ONNXC_ERROR_INVALID_ARGUMENT, "cannot append a %s to a sequence of %ss",
        onnxcKindName(item->kind), onnxcKindName(seq->elemKind));
  onnxc_status status = pushItem(seq, item);
  if (status != ONNXC_OK)
    return status;
  if (seq->count == 1) {
    seq->dtype = item->dtype;
    seq->elemKind = item->kind;
    seq->keyDtype = item->keyDtype;
  }
  return ONNXC_OK;
}

int64_t onnxc_sequence_length(const onnxc_tensor *seq) {
  if (!seq || seq->kind != ONNXC_KIND_SEQUENCE) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "not a sequence");
    return -1;
  }
  return seq->count;
}

const onnxc_tensor *onnxc_sequence_at(const onnxc_tensor *seq, int64_t index) {
  if (onnxc_sequence_length(seq) < 0)
    return NULL;
  if (index < 0 || index >= seq->count) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                  "index %lld is out of range for a sequence of %lld",
                  (long long)index, (long long)seq->count);
    return NULL;
  }
  return seq->items[index];
}

/// Checks the keys and values of a map.
static onnxc_status checkMap(const onnxc_tensor *keys,
                             const onnxc_tensor *values) {
  if (!keys || !values || keys->kind != ONNXC_KIND_TENSOR ||
      values->kind != ONNXC_KIND_TENSOR)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "a map's keys and values must be tensors");
  if (keys->rank != 1 || values->rank != 1 || keys->numel != values->numel)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "a map needs 1-D keys and values of one length (got "
                         "ranks %d and %d, %lld and %lld elements)",
                         (int)keys->rank, (int)values->rank,
                         (long long)keys->numel, (long long)values->numel);
  if (keys->dtype != ONNXC_DTYPE_INT64 && keys->dtype != ONNXC_DTYPE_STRING)
    return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                         "map keys must be int64 or string, not %s",
                         onnxc_dtype_name(keys->dtype));
  return ONNXC_OK;
}

onnxc_tensor *onnxc_map_create(onnxc_tensor *keys, onnxc_tensor *values) {
  if (checkMap(keys, values) != ONNXC_OK)
    return NULL;
  onnxc_tensor *map = newValue(ONNXC_KIND_MAP, values->dtype);
  if (!map)
    return NULL;
  map->keyDtype = keys->dtype;
  map->keys = keys;
  map->values = values;
  return map;
}

const onnxc_tensor *onnxc_map_keys(const onnxc_tensor *map) {
  if (!map || map->kind != ONNXC_KIND_MAP) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "not a map");
    return NULL;
  }
  return map->keys;
}

const onnxc_tensor *onnxc_map_values(const onnxc_tensor *map) {
  return onnxc_map_keys(map) ? map->values : NULL;
}

onnxc_tensor *onnxc_none_create(void) {
  return newValue(ONNXC_KIND_NONE, ONNXC_DTYPE_UNDEFINED);
}

/// A heap copy of the tensor `t`, its strings copied.
static onnxc_tensor *copyTensor(const onnxc_tensor *t) {
  if (t->dtype == ONNXC_DTYPE_STRING)
    return onnxcStringTensorFromHandles(t->rank, t->dims, t->data, t->numel);
  onnxc_tensor *copy = onnxc_tensor_create(t->dtype, t->rank, t->dims);
  if (copy && t->nbytes)
    memcpy(copy->data, t->data, t->nbytes);
  return copy;
}

onnxc_tensor *onnxcValueCopy(const onnxc_tensor *value) {
  onnxc_tensor *copy = NULL;
  switch (value->kind) {
  case ONNXC_KIND_TENSOR:
    copy = copyTensor(value);
    break;
  case ONNXC_KIND_NONE:
    copy = onnxc_none_create();
    break;
  case ONNXC_KIND_MAP: {
    onnxc_tensor *keys = onnxcValueCopy(value->keys);
    onnxc_tensor *values = keys ? onnxcValueCopy(value->values) : NULL;
    copy = values ? onnxc_map_create(keys, values) : NULL;
    if (!copy) {
      onnxc_tensor_free(keys);
      onnxc_tensor_free(values);
    }
    break;
  }
  case ONNXC_KIND_SEQUENCE:
    copy = onnxc_sequence_create(value->dtype);
    if (!copy)
      break;
    copy->elemKind = value->elemKind;
    copy->keyDtype = value->keyDtype;
    for (int64_t i = 0; i < value->count; ++i) {
      onnxc_tensor *item = onnxcValueCopy(value->items[i]);
      if (!item || pushItem(copy, item) != ONNXC_OK) {
        onnxc_tensor_free(item);
        onnxc_tensor_free(copy);
        return NULL;
      }
    }
    break;
  default:
    onnxcSetError(ONNXC_ERROR_INTERNAL, "cannot copy a value of kind %d",
                  (int)value->kind);
    return NULL;
  }
  if (copy && onnxc_tensor_set_name(copy, value->name) != ONNXC_OK) {
    onnxc_tensor_free(copy);
    return NULL;
  }
  return copy;
}

/*===----------------------------------------------------------------------===
 * What compiled models call: run-arena values on int64 handles.
 *===----------------------------------------------------------------------===*/

static _Noreturn void fail(const char *op, const char *fmt, ...)
    ONNXC_PRINTF(2, 3);
static _Noreturn void fail(const char *op, const char *fmt, ...) {
  fprintf(stderr, "onnxc: %s: ", op);
  va_list args;
  va_start(args, fmt);
  vfprintf(stderr, fmt, args);
  va_end(args);
  fputc('\n', stderr);
  fflush(stderr);
  abort();
}

static onnxc_tensor *valueOf(int64_t handle) {
  return (onnxc_tensor *)(intptr_t)handle;
}

static int64_t handleOf(const onnxc_tensor *value) {
  return (int64_t)(intptr_t)value;
}

/// The value of `handle`, which must be of `kind`.
static onnxc_tensor *need(int64_t handle, int32_t kind, const char *op) {
  onnxc_tensor *value = valueOf(handle);
  int32_t got = value ? value->kind : ONNXC_KIND_NONE;
  if (got != kind)
    fail(op, "expected a %s but got %s", onnxcKindName(kind),
         got == ONNXC_KIND_NONE ? "an optional holding nothing"
                                : onnxcKindName(got));
  return value;
}

onnxc_tensor *onnxcArenaTensor(int32_t dtype, int32_t rank, const int64_t *dims,
                               const char *op) {
  int64_t numel;
  size_t nbytes;
  if (onnxcCheckShape(dtype, rank, dims, &numel, &nbytes) != ONNXC_OK)
    fail(op, "%s", onnxc_last_error());
  size_t head = (sizeof(onnxc_tensor) + 15) & ~(size_t)15;
  unsigned char *block = onnxcRunArenaAlloc(head + (nbytes ? nbytes : 1));
  onnxc_tensor *t = (onnxc_tensor *)block;
  t->dtype = dtype;
  t->rank = rank;
  for (int32_t i = 0; i < rank; ++i)
    t->dims[i] = dims[i];
  t->numel = numel;
  t->nbytes = nbytes;
  t->data = block + head;
  t->inArena = true;
  return t;
}

/// A sequence in the run arena with room for (and a count of) `count` items.
static onnxc_tensor *arenaSequence(int32_t dtype, int32_t elemKind,
                                   int32_t keyDtype, int64_t count) {
  size_t head = (sizeof(onnxc_tensor) + 15) & ~(size_t)15;
  unsigned char *block =
      onnxcRunArenaAlloc(head + (size_t)count * sizeof(onnxc_tensor *));
  onnxc_tensor *seq = (onnxc_tensor *)block;
  seq->kind = ONNXC_KIND_SEQUENCE;
  seq->dtype = dtype;
  seq->elemKind = elemKind;
  seq->keyDtype = keyDtype;
  seq->inArena = true;
  seq->count = seq->capacity = count;
  seq->items = (onnxc_tensor **)(block + head);
  return seq;
}

/// The element size of `dtype`, which compiled code passes.
static size_t elemSize(int64_t dtype, const char *op) {
  size_t size = dtype > 0 && dtype < 64 ? onnxc_dtype_size((int32_t)dtype) : 0;
  if (!size)
    fail(op, "unknown dtype %lld", (long long)dtype);
  return size;
}

/// Copies between dense row-major memory and a strided memref of `rank`
/// dims, in the direction `toStrided` says.
static void stridedCopy(unsigned char *dense, unsigned char *strided,
                        int32_t rank, const int64_t *sizes,
                        const int64_t *strides, size_t size, int64_t numel,
                        bool toStrided) {
  int64_t index[ONNXC_MAX_RANK] = {0};
  int64_t offset = 0;
  for (int64_t k = 0; k < numel; ++k) {
    unsigned char *d = dense + (size_t)k * size;
    unsigned char *s = strided + offset * (int64_t)size;
    memcpy(toStrided ? s : d, toStrided ? d : s, size);
    // Advance the multi-index, innermost dim first.
    for (int32_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < sizes[i]) {
        offset += strides[i];
        break;
      }
      offset -= strides[i] * (index[i] - 1);
      index[i] = 0;
    }
  }
}

void onnxcCopyStrided(unsigned char *dst, const unsigned char *src,
                      int32_t rank, const int64_t *sizes,
                      const int64_t *strides, size_t elemSize, int64_t numel) {
  // Read only: the cast serves the shared walk.
  stridedCopy(dst, (unsigned char *)(uintptr_t)src, rank, sizes, strides,
              elemSize, numel, false);
}

/// Writes dense `src` into a strided memref, the inverse of
/// onnxcCopyStrided.
static void storeStrided(unsigned char *dst, const unsigned char *src,
                         int32_t rank, const int64_t *sizes,
                         const int64_t *strides, size_t size, int64_t numel) {
  stridedCopy((unsigned char *)(uintptr_t)src, dst, rank, sizes, strides, size,
              numel, true);
}

int64_t onnxc_value_from_memref(int64_t dtype, int64_t rank, void *desc) {
  const char *op = "onnxc_value_from_memref";
  const int64_t *words = desc;
  size_t size = elemSize(dtype, op);
  if (rank < 0 || rank > ONNXC_MAX_RANK)
    fail(op, "rank %lld is out of range", (long long)rank);
  onnxc_tensor *t =
      onnxcArenaTensor((int32_t)dtype, (int32_t)rank, words + 3, op);
  const unsigned char *aligned = (const unsigned char *)(intptr_t)words[1];
  if (t->numel)
    onnxcCopyStrided(t->data, aligned + words[2] * (int64_t)size, (int32_t)rank,
                     words + 3, words + 3 + rank, size, t->numel);
  return handleOf(t);
}

int64_t onnxc_value_dim(int64_t value, int64_t axis, int64_t rank,
                        const char *op) {
  const onnxc_tensor *t = need(value, ONNXC_KIND_TENSOR, op);
  if (t->rank != rank)
    fail(op, "expected a tensor of rank %lld but got rank %d", (long long)rank,
         (int)t->rank);
  if (axis < 0 || axis >= rank)
    fail(op, "dim %lld of a tensor of rank %lld", (long long)axis,
         (long long)rank);
  return t->dims[axis];
}

void onnxc_value_to_memref(int64_t value, int64_t dtype, int64_t rank,
                           void *desc, const char *op) {
  const onnxc_tensor *t = need(value, ONNXC_KIND_TENSOR, op);
  size_t size = elemSize(dtype, op);
  if (t->dtype != dtype)
    fail(op, "expected a %s tensor but got %s",
         onnxc_dtype_name((int32_t)dtype), onnxc_dtype_name(t->dtype));
  const int64_t *words = desc;
  bool same = t->rank == rank;
  for (int32_t d = 0; same && d < t->rank; ++d)
    same = words[3 + d] == t->dims[d];
  if (!same) {
    char want[256], got[256];
    onnxcFormatDims(want, sizeof(want), (int32_t)rank, words + 3);
    onnxcFormatDims(got, sizeof(got), t->rank, t->dims);
    fail(op, "expected shape %s but got %s", want, got);
  }
  unsigned char *aligned = (unsigned char *)(intptr_t)words[1];
  if (t->numel)
    storeStrided(aligned + words[2] * (int64_t)size, t->data, t->rank,
                 words + 3, words + 3 + rank, size, t->numel);
}

int64_t onnxc_seq_empty(int64_t elem_dtype) {
  return handleOf(arenaSequence((int32_t)elem_dtype, ONNXC_KIND_TENSOR, 0, 0));
}

int64_t onnxc_seq_insert(int64_t seq, int64_t item, int64_t pos,
                         int64_t has_pos) {
  const char *op = "SequenceInsert";
  const onnxc_tensor *s = need(seq, ONNXC_KIND_SEQUENCE, op);
  onnxc_tensor *it = valueOf(item);
  int32_t kind = it ? it->kind : ONNXC_KIND_NONE;
  if (kind != ONNXC_KIND_TENSOR && kind != ONNXC_KIND_MAP)
    fail(op, "cannot insert %s into a sequence",
         kind == ONNXC_KIND_NONE ? "an optional holding nothing"
                                 : "a sequence");
  if (s->dtype != ONNXC_DTYPE_UNDEFINED && it->dtype != s->dtype)
    fail(op, "cannot insert a %s %s into a sequence of %s",
         onnxc_dtype_name(it->dtype), onnxcKindName(kind),
         onnxc_dtype_name(s->dtype));
  if (s->count > 0 && kind != s->elemKind)
    fail(op, "cannot insert a %s into a sequence of %ss", onnxcKindName(kind),
         onnxcKindName(s->elemKind));
  int64_t n = s->count, at = has_pos ? pos : n;
  if (at < -n || at > n)
    fail(op, "position %lld is out of range [%lld, %lld]", (long long)at,
         (long long)-n, (long long)n);
  if (at < 0)
    at += n;
  onnxc_tensor *r = arenaSequence(it->dtype, kind, it->keyDtype, n + 1);
  for (int64_t i = 0, j = 0; i <= n; ++i)
    r->items[i] = i == at ? it : s->items[j++];
  return handleOf(r);
}

/// Position `pos` of a sequence of `n` (has_pos 0: the last), in [-n, n-1].
static int64_t itemPosition(int64_t n, int64_t pos, int64_t has_pos,
                            const char *op) {
  int64_t at = has_pos ? pos : n - 1;
  if (n == 0)
    fail(op, "the sequence is empty");
  if (at < -n || at >= n)
    fail(op, "position %lld is out of range [%lld, %lld]", (long long)at,
         (long long)-n, (long long)(n - 1));
  return at < 0 ? at + n : at;
}

int64_t onnxc_seq_erase(int64_t seq, int64_t pos, int64_t has_pos) {
  const char *op = "SequenceErase";
  const onnxc_tensor *s = need(seq, ONNXC_KIND_SEQUENCE, op);
  int64_t at = itemPosition(s->count, pos, has_pos, op);
  onnxc_tensor *r =
      arenaSequence(s->dtype, s->elemKind, s->keyDtype, s->count - 1);
  for (int64_t i = 0, j = 0; i < s->count; ++i)
    if (i != at)
      r->items[j++] = s->items[i];
  return handleOf(r);
}

int64_t onnxc_seq_at(int64_t seq, int64_t pos) {
  const char *op = "SequenceAt";
  const onnxc_tensor *s = need(seq, ONNXC_KIND_SEQUENCE, op);
  return handleOf(s->items[itemPosition(s->count, pos, 1, op)]);
}

int64_t onnxc_optional_value(int64_t optional, const char *op) {
  if (!valueOf(optional))
    fail(op, "the optional holds nothing");
  return optional;
}

int64_t onnxc_seq_length(int64_t seq) {
  return need(seq, ONNXC_KIND_SEQUENCE, "SequenceLength")->count;
}

/// Element `i` of an integer tensor.
static int64_t intAt(const onnxc_tensor *t, int64_t i) {
  if (t->dtype == ONNXC_DTYPE_INT32)
    return ((const int32_t *)t->data)[i];
  return ((const int64_t *)t->data)[i];
}

int64_t onnxc_seq_split(int64_t input, int64_t split, int64_t axis,
                        int64_t keepdims) {
  const char *op = "SplitToSequence";
  const onnxc_tensor *in = need(input, ONNXC_KIND_TENSOR, op);
  int32_t rank = in->rank;
  if (rank == 0)
    fail(op, "cannot split a scalar");
  if (axis < -rank || axis >= rank)
    fail(op, "axis %lld is out of range [%d, %d]", (long long)axis, (int)-rank,
         (int)rank - 1);
  int32_t ax = (int32_t)(axis < 0 ? axis + rank : axis);
  int64_t d = in->dims[ax];
  const onnxc_tensor *sp = split ? need(split, ONNXC_KIND_TENSOR, op) : NULL;
  int64_t count, pieceSize = 1;
  bool dropAxis = !sp && !keepdims;
  if (!sp) {
    count = d;
  } else {
    if (sp->dtype != ONNXC_DTYPE_INT32 && sp->dtype != ONNXC_DTYPE_INT64)
      fail(op, "split must be int32 or int64, not %s",
           onnxc_dtype_name(sp->dtype));
    if (sp->rank == 0) {
      pieceSize = intAt(sp, 0);
      if (pieceSize <= 0)
        fail(op, "split %lld is not positive", (long long)pieceSize);
      count = (d + pieceSize - 1) / pieceSize;
    } else if (sp->rank == 1) {
      count = sp->numel;
      int64_t sum = 0;
      for (int64_t i = 0; i < count; ++i) {
        if (intAt(sp, i) < 0)
          fail(op, "split %lld is negative", (long long)intAt(sp, i));
        sum += intAt(sp, i);
      }
      if (sum != d)
        fail(op, "the splits sum to %lld but dim %d is %lld", (long long)sum,
             (int)ax, (long long)d);
    } else {
      fail(op, "split must be a scalar or 1-D, not of rank %d", (int)sp->rank);
    }
  }
  int64_t outer = 1, inner = 1;
  for (int32_t i = 0; i < ax; ++i)
    outer *= in->dims[i];
  for (int32_t i = ax + 1; i < rank; ++i)
    inner *= in->dims[i];
  size_t size = onnxc_dtype_size(in->dtype);
  onnxc_tensor *r = arenaSequence(in->dtype, ONNXC_KIND_TENSOR, 0, count);
  int64_t start = 0;
  for (int64_t k = 0; k < count; ++k) {
    int64_t len = !sp             ? 1
                  : sp->rank == 1 ? intAt(sp, k)
                  : k + 1 < count ? pieceSize
                                  : d - pieceSize * k;
    int64_t dims[ONNXC_MAX_RANK];
    int32_t outRank = 0;
    for (int32_t i = 0; i < rank; ++i)
      if (i != ax || !dropAxis)
        dims[outRank++] = i == ax ? len : in->dims[i];
    onnxc_tensor *piece = onnxcArenaTensor(in->dtype, outRank, dims, op);
    size_t chunk = (size_t)(len * inner) * size;
    for (int64_t o = 0; o < outer && chunk; ++o)
      memcpy((unsigned char *)piece->data + (size_t)o * chunk,
             (const unsigned char *)in->data +
                 (size_t)((o * d + start) * inner) * size,
             chunk);
    r->items[k] = piece;
    start += len;
  }
  return handleOf(r);
}

/// The result shape of ConcatFromSequence, and the normalized axis.
static void concatShape(const onnxc_tensor *s, int64_t axis, int64_t newAxis,
                        int32_t *rank, int64_t *dims, int32_t *ax) {
  const char *op = "ConcatFromSequence";
  if (s->count == 0)
    fail(op, "the sequence is empty");
  const onnxc_tensor *first = s->items[0];
  if (first->kind != ONNXC_KIND_TENSOR)
    fail(op, "expected a sequence of tensors but got one of %ss",
         onnxcKindName(first->kind));
  int32_t r = first->rank, outRank = r + (newAxis ? 1 : 0);
  if (outRank == 0)
    fail(op, "cannot concatenate scalars without new_axis");
  if (axis < -outRank || axis >= outRank)
    fail(op, "axis %lld is out of range [%d, %d]", (long long)axis,
         (int)-outRank, (int)outRank - 1);
  int32_t a = (int32_t)(axis < 0 ? axis + outRank : axis);
  int64_t sum = 0;
  for (int64_t k = 0; k < s->count; ++k) {
    const onnxc_tensor *t = s->items[k];
    bool same = t->rank == r && t->dtype == first->dtype;
    for (int32_t i = 0; same && i < r; ++i)
      same = t->dims[i] == first->dims[i] || (!newAxis && i == a);
    if (!same) {
      char want[256], got[256];
      onnxcFormatDims(want, sizeof(want), r, first->dims);
      onnxcFormatDims(got, sizeof(got), t->rank, t->dims);
      fail(op, "item %lld (%s %s) does not match item 0 (%s %s)", (long long)k,
           onnxc_dtype_name(t->dtype), got, onnxc_dtype_name(first->dtype),
           want);
    }
    sum += newAxis ? 1 : t->dims[a];
  }
  for (int32_t i = 0, j = 0; i < outRank; ++i)
    dims[i] = newAxis && i == a ? s->count : first->dims[j++];
  if (!newAxis)
    dims[a] = sum;
  *rank = outRank;
  *ax = a;
}

int64_t onnxc_seq_concat_dim(int64_t seq, int64_t axis, int64_t new_axis,
                             int64_t d) {
  const char *op = "ConcatFromSequence";
  const onnxc_tensor *s = need(seq, ONNXC_KIND_SEQUENCE, op);
  int32_t rank, ax;
  int64_t dims[ONNXC_MAX_RANK + 1];
  concatShape(s, axis, new_axis, &rank, dims, &ax);
  if (d < 0 || d >= rank)
    fail(op, "dim %lld of a result of rank %d", (long long)d, (int)rank);
  return dims[d];
}

void onnxc_seq_concat(int64_t seq, int64_t axis, int64_t new_axis,
                      int64_t dtype, int64_t rank, void *desc) {
  const char *op = "ConcatFromSequence";
  const onnxc_tensor *s = need(seq, ONNXC_KIND_SEQUENCE, op);
  int32_t outRank, ax;
  int64_t dims[ONNXC_MAX_RANK + 1];
  concatShape(s, axis, new_axis, &outRank, dims, &ax);
  size_t size = elemSize(dtype, op);
  const int64_t *words = desc;
  bool same = outRank == rank && s->items[0]->dtype == dtype;
  for (int32_t i = 0; same && i < outRank; ++i)
    same = words[3 + i] == dims[i];
  if (!same)
    fail(op, "the result memref does not match the sequence");
  const int64_t *strides = words + 3 + rank;
  unsigned char *base =
      (unsigned char *)(intptr_t)words[1] + words[2] * (int64_t)size;
  int64_t along = 0;
  for (int64_t k = 0; k < s->count; ++k) {
    const onnxc_tensor *t = s->items[k];
    // Element idx of item k goes to result index idx, with k inserted at
    // the axis (new_axis) or idx[axis] shifted by the items before.
    int64_t index[ONNXC_MAX_RANK] = {0};
    for (int64_t e = 0; e < t->numel; ++e) {
      int64_t offset = 0;
      for (int32_t i = 0, j = 0; i < outRank; ++i) {
        int64_t at;
        if (new_axis && i == ax)
          at = k;
        else if (!new_axis && i == ax)
          at = index[j++] + along;
        else
          at = index[j++];
        offset += at * strides[i];
      }
      memcpy(base + offset * (int64_t)size,
             (const unsigned char *)t->data + (size_t)e * size, size);
      for (int32_t d = t->rank - 1; d >= 0; --d) {
        if (++index[d] < t->dims[d])
          break;
        index[d] = 0;
      }
    }
    along += new_axis ? 0 : t->dims[ax];
  }
}

int64_t onnxc_zipmap(int64_t probs, int64_t labels) {
  const char *op = "ZipMap";
  const onnxc_tensor *p = need(probs, ONNXC_KIND_TENSOR, op);
  onnxc_tensor *l = need(labels, ONNXC_KIND_TENSOR, op);
  if (p->dtype != ONNXC_DTYPE_FLOAT || p->rank < 1 || p->rank > 2)
    fail(op,
         "expected float probabilities [N, C] or [C] but got %s of rank "
         "%d",
         onnxc_dtype_name(p->dtype), (int)p->rank);
  int64_t classes = p->dims[p->rank - 1];
  int64_t rows = p->rank == 2 ? p->dims[0] : 1;
  if (l->rank != 1 || l->numel != classes ||
      (l->dtype != ONNXC_DTYPE_INT64 && l->dtype != ONNXC_DTYPE_STRING))
    fail(op, "expected %lld int64 or string labels but got %lld %s",
         (long long)classes, (long long)l->numel, onnxc_dtype_name(l->dtype));
  onnxc_tensor *r =
      arenaSequence(ONNXC_DTYPE_FLOAT, ONNXC_KIND_MAP, l->dtype, rows);
  for (int64_t n = 0; n < rows; ++n) {
    onnxc_tensor *values = onnxcArenaTensor(ONNXC_DTYPE_FLOAT, 1, &classes, op);
    memcpy(values->data, (const float *)p->data + n * classes, values->nbytes);
    onnxc_tensor *map = onnxcRunArenaAlloc(sizeof(onnxc_tensor));
    map->kind = ONNXC_KIND_MAP;
    map->dtype = ONNXC_DTYPE_FLOAT;
    map->keyDtype = l->dtype;
    map->inArena = true;
    map->keys = l;
    map->values = values;
    r->items[n] = map;
  }
  return handleOf(r);
}

/// Whether key `k` of the map keys `keys` is element `v` of `vocabulary`
/// (both int64, or both strings).
static bool sameKey(const onnxc_tensor *keys, int64_t k,
                    const onnxc_tensor *vocabulary, int64_t v) {
  int64_t a = ((const int64_t *)keys->data)[k];
  int64_t b = ((const int64_t *)vocabulary->data)[v];
  if (keys->dtype != ONNXC_DTYPE_STRING)
    return a == b;
  size_t sizeA, sizeB;
  const char *bytesA = onnxcStringData(a, &sizeA);
  const char *bytesB = onnxcStringData(b, &sizeB);
  return sizeA == sizeB && memcmp(bytesA, bytesB, sizeA) == 0;
}

void onnxc_dict_vectorize(int64_t value, int64_t vocabulary, int64_t dtype,
                          int64_t rank, void *desc) {
  const char *op = "DictVectorizer";
  const onnxc_tensor *x = valueOf(value);
  const onnxc_tensor *vocab = need(vocabulary, ONNXC_KIND_TENSOR, op);
  // One map, or a sequence of maps: a row each.
  int64_t rows = 1;
  const onnxc_tensor *const *maps = &x;
  if (x && x->kind == ONNXC_KIND_SEQUENCE) {
    rows = x->count;
    maps = (const onnxc_tensor *const *)x->items;
  } else {
    need(value, ONNXC_KIND_MAP, op);
  }
  size_t size = elemSize(dtype, op);
  const int64_t *words = desc;
  if (rank != 2 || words[3] != rows || words[4] != vocab->numel)
    fail(op, "expected a [%lld, %lld] result buffer", (long long)rows,
         (long long)vocab->numel);
  unsigned char *out =
      (unsigned char *)(intptr_t)words[1] + words[2] * (int64_t)size;
  for (int64_t n = 0; n < rows; ++n) {
    const onnxc_tensor *m = maps[n];
    if (!m || m->kind != ONNXC_KIND_MAP)
      fail(op, "item %lld of the sequence is not a map", (long long)n);
    if (m->keyDtype != vocab->dtype || m->dtype != dtype)
      fail(op, "expected a map of %s to %s but got one of %s to %s",
           onnxc_dtype_name(vocab->dtype), onnxc_dtype_name((int32_t)dtype),
           onnxc_dtype_name(m->keyDtype), onnxc_dtype_name(m->dtype));
    for (int64_t v = 0; v < vocab->numel; ++v) {
      unsigned char *dst = out + (n * words[5] + v * words[6]) * (int64_t)size;
      // A key the map lacks gives 0 ("" for strings: handle 0).
      memset(dst, 0, size);
      for (int64_t k = 0; k < m->keys->numel; ++k)
        if (sameKey(m->keys, k, vocab, v)) {
          memcpy(dst, (const unsigned char *)m->values->data + k * size, size);
          break;
        }
    }
  }
}
