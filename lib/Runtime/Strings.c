/*===- Strings.c - String tensors and the string ops of compiled models ----===*
 *
 * A string tensor holds one 64-bit handle an element: the address of a
 * string record, an int64 byte count followed by the bytes and a NUL, the
 * record 8-byte aligned. Handle 0 is the empty string (what a zero-filled
 * tensor holds). Records live
 *   - in the model's constants (one byte global per constant, records back
 *     to back: passes/Conversion/ONNXToLinalg/String.cpp),
 *   - in the caller's input tensors (one block: the handles, then the
 *     records),
 *   - or in the run arena of the running session, for the strings that a
 *     model makes (StringConcat, StringSplit...): the arena is freed once
 *     onnxc_session_run has copied the outputs into tensors of their own.
 * The onnxc_string_* functions are what compiled models call, one element at
 * a time.
 *
 *===----------------------------------------------------------------------===*/
#include "RuntimeInternal.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int64_t size;
  char bytes[];
} StringRecord;

/// The size of a record of `size` bytes, padded to keep the next aligned.
static size_t recordSize(size_t size) {
  return (sizeof(StringRecord) + size + 1 + 7) & ~(size_t)7;
}

/// The record of "": a zero size and the NUL after it.
static const int64_t emptyRecord[2] = {0, 0};

static const StringRecord *record(int64_t handle) {
  return (const StringRecord *)(handle ? (intptr_t)handle
                                       : (intptr_t)emptyRecord);
}

const char *onnxcStringData(int64_t handle, size_t *size) {
  const StringRecord *r = record(handle);
  *size = (size_t)r->size;
  return r->bytes;
}

/*===----------------------------------------------------------------------===
 * The arena of a run: the strings and values (Values.c) a model makes.
 *===----------------------------------------------------------------------===*/

typedef struct onnxcArenaBlock {
  struct onnxcArenaBlock *next;
  _Alignas(8) unsigned char data[];
} ArenaBlock;

static _Thread_local onnxcRunArena *currentArena;

/// Strings and values made outside onnxc_session_run (an entry function
/// called directly) go here and live as long as the process.
static onnxcRunArena processArena = ONNXC_RUN_ARENA_INIT;

void onnxcRunArenaRelease(onnxcRunArena *arena) {
  for (ArenaBlock *b = arena->blocks; b;) {
    ArenaBlock *next = b->next;
    free(b);
    b = next;
  }
  arena->blocks = NULL;
}

onnxcRunArena *onnxcCurrentRunArena(void) { return currentArena; }

onnxcRunArena *onnxcSetCurrentRunArena(onnxcRunArena *arena) {
  onnxcRunArena *previous = currentArena;
  currentArena = arena;
  return previous;
}

/// A new block of `size` bytes in the current arena; aborts when memory
/// runs out, as the compiled model's own allocations do.
static void *arenaBlock(size_t size) {
  onnxcRunArena *arena = currentArena ? currentArena : &processArena;
  ArenaBlock *block = malloc(sizeof(ArenaBlock) + size);
  if (!block)
    abort();
  pthread_mutex_lock(&arena->mutex);
  block->next = arena->blocks;
  arena->blocks = block;
  pthread_mutex_unlock(&arena->mutex);
  return block->data;
}

void *onnxcRunArenaAlloc(size_t size) {
  void *p = arenaBlock(size);
  memset(p, 0, size);
  return p;
}

/// A new record of `size` bytes (uninitialized, NUL-terminated) in the
/// current arena.
static StringRecord *newRecord(size_t size) {
  StringRecord *r = arenaBlock(recordSize(size));
  r->size = (int64_t)size;
  r->bytes[size] = '\0';
  return r;
}

static int64_t handleOf(const StringRecord *r) { return (int64_t)(intptr_t)r; }

static int64_t newString(const char *bytes, size_t size) {
  StringRecord *r = newRecord(size);
  if (size)
    memcpy(r->bytes, bytes, size);
  return handleOf(r);
}

/*===----------------------------------------------------------------------===
 * String tensors.
 *===----------------------------------------------------------------------===*/

onnxc_tensor *onnxc_tensor_create_strings(int32_t rank, const int64_t *dims,
                                          const char *const *values,
                                          const size_t *sizes) {
  int64_t numel;
  if (onnxcCheckShape(ONNXC_DTYPE_STRING, rank, dims, &numel, NULL) != ONNXC_OK)
    return NULL;
  if (numel > 0 && !values) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "values is null");
    return NULL;
  }
  size_t total = (size_t)numel * sizeof(int64_t);
  for (int64_t i = 0; i < numel; ++i) {
    size_t size = sizes ? sizes[i] : (values[i] ? strlen(values[i]) : 0);
    if (size && !values[i]) {
      onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "string %lld is null",
                    (long long)i);
      return NULL;
    }
    size_t bytes = recordSize(size);
    if (bytes < size || total > SIZE_MAX - bytes) {
      onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "strings are too large");
      return NULL;
    }
    total += bytes;
  }
  unsigned char *block = aligned_alloc(8, (total + 7) & ~(size_t)7);
  if (!block) {
    onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  int64_t *handles = (int64_t *)block;
  size_t at = (size_t)numel * sizeof(int64_t);
  for (int64_t i = 0; i < numel; ++i) {
    size_t size = sizes ? sizes[i] : (values[i] ? strlen(values[i]) : 0);
    StringRecord *r = (StringRecord *)(block + at);
    r->size = (int64_t)size;
    if (size)
      memcpy(r->bytes, values[i], size);
    r->bytes[size] = '\0';
    handles[i] = handleOf(r);
    at += recordSize(size);
  }
  onnxc_tensor *tensor =
      onnxcTensorAdopt(ONNXC_DTYPE_STRING, rank, dims, block, block);
  if (!tensor)
    free(block);
  return tensor;
}

const char *onnxc_tensor_string(const onnxc_tensor *tensor, int64_t index,
                                size_t *size) {
  if (!tensor || tensor->dtype != ONNXC_DTYPE_STRING || index < 0 ||
      index >= tensor->numel) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                  "not a string tensor, or index out of range");
    return NULL;
  }
  size_t ignored;
  return onnxcStringData(((const int64_t *)tensor->data)[index],
                         size ? size : &ignored);
}

onnxc_tensor *onnxcStringTensorFromHandles(int32_t rank, const int64_t *dims,
                                           const int64_t *handles,
                                           int64_t numel) {
  const char **values = malloc(((size_t)numel + 1) * sizeof(char *));
  size_t *sizes = malloc(((size_t)numel + 1) * sizeof(size_t));
  onnxc_tensor *tensor = NULL;
  if (!values || !sizes) {
    onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  } else {
    for (int64_t i = 0; i < numel; ++i)
      values[i] = onnxcStringData(handles[i], &sizes[i]);
    tensor = onnxc_tensor_create_strings(rank, dims, values, sizes);
  }
  free(values);
  free(sizes);
  return tensor;
}

/*===----------------------------------------------------------------------===
 * What compiled models call.
 *===----------------------------------------------------------------------===*/

bool onnxc_string_equal(int64_t a, int64_t b) {
  const StringRecord *x = record(a), *y = record(b);
  return x->size == y->size && memcmp(x->bytes, y->bytes, (size_t)x->size) == 0;
}

int64_t onnxc_string_concat(int64_t a, int64_t b) {
  const StringRecord *x = record(a), *y = record(b);
  StringRecord *r = newRecord((size_t)(x->size + y->size));
  memcpy(r->bytes, x->bytes, (size_t)x->size);
  memcpy(r->bytes + x->size, y->bytes, (size_t)y->size);
  return handleOf(r);
}

static bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}

/// Finds part `index` of `s` split as StringSplit does (Python's str.split:
/// at each `delim`, or at whitespace runs when `delim` is empty; at most
/// `maxsplit` splits when it is not negative). Returns the number of parts,
/// and the bounds of part `index` when there is one.
static int64_t splitString(const StringRecord *s, const StringRecord *delim,
                           int64_t maxsplit, int64_t index, size_t *begin,
                           size_t *end) {
  const char *p = s->bytes;
  size_t n = (size_t)s->size, d = (size_t)delim->size;
  int64_t parts = 0;
  size_t at = 0;
  if (d == 0) {
    for (;;) {
      while (at < n && isSpace(p[at]))
        ++at;
      if (at == n)
        return parts;
      size_t start = at;
      if (maxsplit >= 0 && parts == maxsplit) {
        at = n; // the rest, trailing whitespace kept (as Python)
      } else {
        while (at < n && !isSpace(p[at]))
          ++at;
      }
      if (parts == index) {
        *begin = start;
        *end = at;
      }
      ++parts;
    }
  }
  for (;;) {
    size_t start = at, stop = n;
    if (maxsplit < 0 || parts < maxsplit)
      for (size_t i = at; i + d <= n; ++i)
        if (memcmp(p + i, delim->bytes, d) == 0) {
          stop = i;
          break;
        }
    if (parts == index) {
      *begin = start;
      *end = stop;
    }
    ++parts;
    if (stop == n)
      return parts;
    at = stop + d;
  }
}

int64_t onnxc_string_split_count(int64_t s, int64_t delim, int64_t maxsplit) {
  size_t begin, end;
  return splitString(record(s), record(delim), maxsplit, -1, &begin, &end);
}

int64_t onnxc_string_split_part(int64_t s, int64_t delim, int64_t maxsplit,
                                int64_t index) {
  size_t begin = 0, end = 0;
  const StringRecord *r = record(s);
  if (index >= splitString(r, record(delim), maxsplit, index, &begin, &end))
    return 0;
  return newString(r->bytes + begin, end - begin);
}

static char lowerAscii(char c) {
  return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static char upperAscii(char c) {
  return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

bool onnxc_string_in_table(int64_t s, int64_t table, int64_t count,
                           bool caseSensitive) {
  const StringRecord *x = record(s);
  const unsigned char *at = (const unsigned char *)(intptr_t)table;
  for (int64_t k = 0; k < count; ++k) {
    const StringRecord *w = (const StringRecord *)at;
    if (w->size == x->size) {
      int64_t i = 0;
      if (caseSensitive)
        i = memcmp(w->bytes, x->bytes, (size_t)x->size) ? -1 : x->size;
      else
        while (i < x->size &&
               lowerAscii(w->bytes[i]) == lowerAscii(x->bytes[i]))
          ++i;
      if (i == x->size)
        return true;
    }
    at += recordSize((size_t)w->size);
  }
  return false;
}

int64_t onnxc_string_change_case(int64_t s, int64_t upper) {
  const StringRecord *x = record(s);
  StringRecord *r = newRecord((size_t)x->size);
  for (int64_t i = 0; i < x->size; ++i)
    r->bytes[i] = upper ? upperAscii(x->bytes[i]) : lowerAscii(x->bytes[i]);
  return handleOf(r);
}

/*===----------------------------------------------------------------------===
 * Cast to and from strings.
 *===----------------------------------------------------------------------===*/

/// The shortest decimal digits of `value` that read back to it (as a float
/// when `isFloat32`): "%.*e" at growing precision. `digits` gets them
/// without the point, `*exponent` the decimal exponent of the first.
static void shortestDigits(double value, bool isFloat32, char *digits,
                           int *exponent) {
  char buf[40];
  for (int precision = 0; precision < 17; ++precision) {
    snprintf(buf, sizeof(buf), "%.*e", precision, value);
    double back = strtod(buf, NULL);
    if (isFloat32 ? (float)back == (float)value : back == value)
      break;
  }
  // buf: d[.ddd]e[+-]XX
  char *e = strchr(buf, 'e');
  *exponent = atoi(e + 1);
  size_t n = 0;
  for (const char *p = buf; p < e; ++p)
    if (*p >= '0' && *p <= '9')
      digits[n++] = *p;
  while (n > 1 && digits[n - 1] == '0')
    --n;
  digits[n] = '\0';
}

int64_t onnxc_string_from_float(double value, int64_t isFloat32) {
  char out[64];
  size_t n = 0;
  if (isnan(value))
    return newString("nan", 3);
  if (signbit(value))
    out[n++] = '-';
  value = fabs(value);
  if (isinf(value)) {
    memcpy(out + n, "inf", 3);
    return newString(out, n + 3);
  }
  char digits[24];
  int exponent = 0;
  if (value == 0.0) {
    strcpy(digits, "0");
  } else {
    shortestDigits(value, isFloat32 != 0, digits, &exponent);
  }
  size_t count = strlen(digits);
  // As numpy writes it: positional for 1e-4 <= |x| < 1e16 (and 0), with a
  // ".0" on whole numbers; scientific otherwise, a two-digit exponent at
  // least.
  if (value == 0.0 || (value >= 1e-4 && value < 1e16)) {
    if (exponent < 0) {
      out[n++] = '0';
      out[n++] = '.';
      for (int z = -1; z > exponent; --z)
        out[n++] = '0';
      memcpy(out + n, digits, count);
      n += count;
    } else {
      for (int i = 0; i <= exponent; ++i)
        out[n++] = (size_t)i < count ? digits[i] : '0';
      out[n++] = '.';
      if ((size_t)exponent + 1 < count) {
        memcpy(out + n, digits + exponent + 1, count - exponent - 1);
        n += count - exponent - 1;
      } else {
        out[n++] = '0';
      }
    }
    return newString(out, n);
  }
  out[n++] = digits[0];
  if (count > 1) {
    out[n++] = '.';
    memcpy(out + n, digits + 1, count - 1);
    n += count - 1;
  }
  n += (size_t)snprintf(out + n, sizeof(out) - n, "e%c%02d",
                        exponent < 0 ? '-' : '+', abs(exponent));
  return newString(out, n);
}

int64_t onnxc_string_from_int(int64_t value, int64_t isUnsigned) {
  char out[32];
  int n = isUnsigned ? snprintf(out, sizeof(out), "%" PRIu64, (uint64_t)value)
                     : snprintf(out, sizeof(out), "%" PRId64, value);
  return newString(out, (size_t)n);
}

double onnxc_string_to_float(int64_t s) {
  size_t size;
  return strtod(onnxcStringData(s, &size), NULL);
}

int64_t onnxc_string_to_int(int64_t s, int64_t isUnsigned) {
  size_t size;
  const char *text = onnxcStringData(s, &size);
  return isUnsigned ? (int64_t)strtoull(text, NULL, 10)
                    : (int64_t)strtoll(text, NULL, 10);
}
