/*===- TensorIO.c - Reading and writing tensors as .pb and .npy files ------===*
 *
 * .pb files hold one ONNX TensorProto, decoded here straight from the
 * protobuf wire format (no protobuf library). .npy files follow numpy's
 * format versions 1.0 to 3.0; we write 1.0.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "RuntimeInternal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*===----------------------------------------------------------------------===
 * Files.
 *===----------------------------------------------------------------------===*/

/// Reads all of `path` into a malloc'd buffer (one spare byte at the end).
static onnxc_status readFile(const char *path, unsigned char **data,
                             size_t *size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return onnxcSetError(ONNXC_ERROR_IO, "cannot read '%s': %s", path,
                         strerror(errno));
  struct stat st;
  size_t capacity = 4096;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    capacity = (size_t)st.st_size + 1;
  unsigned char *buf = malloc(capacity);
  if (!buf) {
    close(fd);
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY,
                         "out of memory reading '%s'", path);
  }
  size_t used = 0;
  for (;;) {
    if (used == capacity) {
      unsigned char *bigger =
          capacity < SIZE_MAX / 2 ? realloc(buf, capacity * 2) : NULL;
      if (!bigger) {
        free(buf);
        close(fd);
        return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY,
                             "out of memory reading '%s'", path);
      }
      buf = bigger;
      capacity *= 2;
    }
    ssize_t n = read(fd, buf + used, capacity - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int err = errno;
      free(buf);
      close(fd);
      return onnxcSetError(ONNXC_ERROR_IO, "cannot read '%s': %s", path,
                           strerror(err));
    }
    if (n == 0)
      break;
    used += (size_t)n;
  }
  close(fd);
  *data = buf;
  *size = used;
  return ONNXC_OK;
}

onnxc_status onnxcWriteTemp(const char *path, const void *const *parts,
                            const size_t *sizes, int numParts, char **tmpPath) {
  static atomic_uint counter;
  *tmpPath = NULL;
  if (!path || !*path)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "empty output path");
  // A hidden name in the same directory: ".BASE.tmp.PID.N".
  const char *slash = strrchr(path, '/');
  size_t dirLen = slash ? (size_t)(slash - path) + 1 : 0;
  size_t tmpSize = strlen(path) + 64;
  char *tmp = malloc(tmpSize);
  if (!tmp)
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    snprintf(tmp, tmpSize, "%.*s.%s.tmp.%ld.%u", (int)dirLen, path,
             path + dirLen, (long)getpid(), atomic_fetch_add(&counter, 1u));
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      break;
  }
  if (fd < 0) {
    int err = errno;
    free(tmp);
    return onnxcSetError(ONNXC_ERROR_IO, "cannot write '%s': %s", path,
                         strerror(err));
  }
  for (int i = 0; i < numParts; ++i) {
    const unsigned char *p = parts[i];
    size_t left = sizes[i];
    while (left > 0) {
      ssize_t n = write(fd, p, left);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        int err = n < 0 ? errno : EIO;
        close(fd);
        unlink(tmp);
        free(tmp);
        return onnxcSetError(ONNXC_ERROR_IO, "cannot write '%s': %s", path,
                             strerror(err));
      }
      p += n;
      left -= (size_t)n;
    }
  }
  if (close(fd) != 0) {
    int err = errno;
    unlink(tmp);
    free(tmp);
    return onnxcSetError(ONNXC_ERROR_IO, "cannot write '%s': %s", path,
                         strerror(err));
  }
  *tmpPath = tmp;
  return ONNXC_OK;
}

onnxc_status onnxcCommitTemp(const char *tmpPath, const char *path) {
  if (rename(tmpPath, path) == 0)
    return ONNXC_OK;
  int err = errno;
  unlink(tmpPath);
  return onnxcSetError(ONNXC_ERROR_IO, "cannot write '%s': %s", path,
                       strerror(err));
}

/*===----------------------------------------------------------------------===
 * TensorProto decoding.
 *===----------------------------------------------------------------------===*/

/// Sets a format error about `path` and returns its status.
static onnxc_status pbError(const char *path, const char *fmt, ...)
    ONNXC_PRINTF(2, 3);
static onnxc_status pbError(const char *path, const char *fmt, ...) {
  char detail[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(detail, sizeof(detail), fmt, args);
  va_end(args);
  return onnxcSetError(ONNXC_ERROR_FORMAT,
                       "'%s' is not a valid TensorProto: %s", path, detail);
}

/// A growable array of 64-bit values, used for the repeated fields.
typedef struct {
  uint64_t *items;
  size_t count;
  size_t capacity;
} U64Vec;

static bool vecPush(U64Vec *vec, uint64_t value) {
  if (vec->count == vec->capacity) {
    size_t capacity = vec->capacity ? vec->capacity * 2 : 16;
    uint64_t *items = realloc(vec->items, capacity * sizeof(uint64_t));
    if (!items)
      return false;
    vec->items = items;
    vec->capacity = capacity;
  }
  vec->items[vec->count++] = value;
  return true;
}

/// Decodes a varint in [*pos, end). Returns 0 on success, 1 if the input ends
/// first, 2 if it is longer than 10 bytes.
static int readVarint(const unsigned char *data, size_t end, size_t *pos,
                      uint64_t *value) {
  uint64_t result = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (*pos >= end)
      return 1;
    unsigned char byte = data[(*pos)++];
    if (shift < 64)
      result |= (uint64_t)(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *value = result;
      return 0;
    }
  }
  return 2;
}

static uint64_t loadLE(const unsigned char *p, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i)
    value |= (uint64_t)p[i] << (8 * i);
  return value;
}

/// The repeated numeric fields of TensorProto that can carry data.
enum {
  FieldFloat,
  FieldInt32,
  FieldInt64,
  FieldDouble,
  FieldUint64,
  NumDataFields
};

static const char *const dataFieldNames[NumDataFields] = {
    "float_data", "int32_data", "int64_data", "double_data", "uint64_data"};

/// The data field that holds values of `dtype` when raw_data is not used:
/// int32_data for int32 and every type of one or two bytes (bool, float16
/// and the float8 types as their bits, the 2- and 4-bit types packed).
static int dataFieldFor(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_FLOAT:
    return FieldFloat;
  case ONNXC_DTYPE_INT32:
    return FieldInt32;
  case ONNXC_DTYPE_INT64:
    return FieldInt64;
  case ONNXC_DTYPE_DOUBLE:
    return FieldDouble;
  default:
    return onnxc_dtype_size(dtype) <= 2 ? FieldInt32 : FieldUint64;
  }
}

typedef struct {
  U64Vec dims;
  U64Vec values[NumDataFields];
  uint64_t dataType;
  const unsigned char *raw;
  size_t rawSize;
  bool hasRaw;
  const unsigned char *name;
  size_t nameSize;
  /// string_data: the begin and end offset of each string in the file.
  U64Vec strings;
} PbTensor;

static void pbTensorClear(PbTensor *pb) {
  free(pb->dims.items);
  free(pb->strings.items);
  for (int i = 0; i < NumDataFields; ++i)
    free(pb->values[i].items);
}

/// Appends the value(s) of one repeated numeric field occurrence: a single
/// scalar of wire type `wireType`, or a packed run in [begin, end).
static onnxc_status pbAppend(const char *path, U64Vec *vec, unsigned field,
                             const char *fieldName, unsigned wireType,
                             unsigned scalarType, uint64_t scalar,
                             const unsigned char *data, size_t begin,
                             size_t end, size_t keyPos) {
  if (wireType == scalarType) {
    if (!vecPush(vec, scalar))
      return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    return ONNXC_OK;
  }
  if (wireType != 2)
    return pbError(path, "field %u (%s) has wire type %u at byte %zu", field,
                   fieldName, wireType, keyPos);
  if (scalarType == 0) {
    size_t pos = begin;
    while (pos < end) {
      size_t at = pos;
      uint64_t value;
      int rc = readVarint(data, end, &pos, &value);
      if (rc != 0)
        return pbError(path, "%s varint at byte %zu",
                       rc == 1 ? "truncated" : "overlong", at);
      if (!vecPush(vec, value))
        return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    return ONNXC_OK;
  }
  unsigned width = scalarType == 5 ? 4 : 8;
  if ((end - begin) % width != 0)
    return pbError(path,
                   "packed field %u (%s) at byte %zu has %zu bytes, not a "
                   "multiple of %u",
                   field, fieldName, keyPos, end - begin, width);
  for (size_t pos = begin; pos < end; pos += width)
    if (!vecPush(vec, loadLE(data + pos, width)))
      return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  return ONNXC_OK;
}

/// One field of a protobuf message: its number, wire type, and a scalar
/// (wire types 0, 1, 5) or the byte range [begin, end) (wire type 2).
typedef struct {
  uint64_t field;
  unsigned wireType;
  uint64_t scalar;
  size_t begin;
  size_t end;
  size_t keyPos;
} PbField;

/// Reads the field at *pos of the message in [0, size).
static onnxc_status pbNextField(const char *path, const unsigned char *data,
                                size_t size, size_t *pos, PbField *f) {
  size_t keyPos = *pos;
  uint64_t key;
  int rc = readVarint(data, size, pos, &key);
  if (rc != 0)
    return pbError(path, "%s varint at byte %zu",
                   rc == 1 ? "truncated" : "overlong", keyPos);
  uint64_t field = key >> 3;
  unsigned wireType = (unsigned)(key & 7);
  if (field == 0 || field > 0x1fffffff)
    return pbError(path, "invalid field number %llu at byte %zu",
                   (unsigned long long)field, keyPos);
  f->field = field;
  f->wireType = wireType;
  f->keyPos = keyPos;
  f->scalar = 0;
  f->begin = f->end = *pos;
  switch (wireType) {
  case 0: {
    size_t at = *pos;
    rc = readVarint(data, size, pos, &f->scalar);
    if (rc != 0)
      return pbError(path, "%s varint at byte %zu",
                     rc == 1 ? "truncated" : "overlong", at);
    return ONNXC_OK;
  }
  case 1:
  case 5: {
    unsigned width = wireType == 1 ? 8 : 4;
    if (size - *pos < width)
      return pbError(path, "truncated field %llu at byte %zu",
                     (unsigned long long)field, keyPos);
    f->scalar = loadLE(data + *pos, width);
    *pos += width;
    return ONNXC_OK;
  }
  case 2: {
    size_t at = *pos;
    uint64_t length;
    rc = readVarint(data, size, pos, &length);
    if (rc != 0)
      return pbError(path, "%s varint at byte %zu",
                     rc == 1 ? "truncated" : "overlong", at);
    if (length > size - *pos)
      return pbError(path,
                     "field %llu at byte %zu has length %llu but only %zu "
                     "bytes remain",
                     (unsigned long long)field, keyPos,
                     (unsigned long long)length, size - *pos);
    f->begin = *pos;
    *pos += (size_t)length;
    f->end = *pos;
    return ONNXC_OK;
  }
  case 3:
  case 4:
    return pbError(path, "unsupported group (wire type %u) at byte %zu",
                   wireType, keyPos);
  default:
    return pbError(path, "invalid wire type %u at byte %zu", wireType, keyPos);
  }
}

/// Decodes the fields of a TensorProto into `pb`.
static onnxc_status pbParse(const char *path, const unsigned char *data,
                            size_t size, PbTensor *pb) {
  size_t pos = 0;
  while (pos < size) {
    PbField f;
    onnxc_status fieldStatus = pbNextField(path, data, size, &pos, &f);
    if (fieldStatus != ONNXC_OK)
      return fieldStatus;
    uint64_t field = f.field, scalar = f.scalar;
    unsigned wireType = f.wireType;
    size_t begin = f.begin, end = f.end, keyPos = f.keyPos;
    onnxc_status status = ONNXC_OK;
    switch (field) {
    case 1:
      status = pbAppend(path, &pb->dims, 1, "dims", wireType, 0, scalar, data,
                        begin, end, keyPos);
      break;
    case 2:
      if (wireType != 0)
        return pbError(path, "field 2 (data_type) has wire type %u at byte %zu",
                       wireType, keyPos);
      pb->dataType = scalar;
      break;
    case 3:
      return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                           "'%s': segmented tensors are not supported", path);
    case 4:
      status = pbAppend(path, &pb->values[FieldFloat], 4, "float_data",
                        wireType, 5, scalar, data, begin, end, keyPos);
      break;
    case 5:
      status = pbAppend(path, &pb->values[FieldInt32], 5, "int32_data",
                        wireType, 0, scalar, data, begin, end, keyPos);
      break;
    case 6:
      if (wireType != 2)
        return pbError(path,
                       "field 6 (string_data) has wire type %u at byte %zu",
                       wireType, keyPos);
      if (!vecPush(&pb->strings, begin) || !vecPush(&pb->strings, end))
        return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
      break;
    case 7:
      status = pbAppend(path, &pb->values[FieldInt64], 7, "int64_data",
                        wireType, 0, scalar, data, begin, end, keyPos);
      break;
    case 8:
    case 9:
      if (wireType != 2)
        return pbError(path, "field %llu (%s) has wire type %u at byte %zu",
                       (unsigned long long)field,
                       field == 8 ? "name" : "raw_data", wireType, keyPos);
      if (field == 8) {
        pb->name = data + begin;
        pb->nameSize = end - begin;
      } else {
        pb->raw = data + begin;
        pb->rawSize = end - begin;
        pb->hasRaw = true;
      }
      break;
    case 10:
      status = pbAppend(path, &pb->values[FieldDouble], 10, "double_data",
                        wireType, 1, scalar, data, begin, end, keyPos);
      break;
    case 11:
      status = pbAppend(path, &pb->values[FieldUint64], 11, "uint64_data",
                        wireType, 0, scalar, data, begin, end, keyPos);
      break;
    case 13:
      return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                           "'%s': external data is not supported", path);
    case 14:
      if (wireType == 0 && scalar == 1)
        return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                             "'%s': external data is not supported", path);
      break;
    default:
      // doc_string, metadata_props and fields from later ONNX versions.
      break;
    }
    if (status != ONNXC_OK)
      return status;
  }
  return ONNXC_OK;
}

/// The bytes that `numel` elements of `dtype` take in a .pb file.
static size_t pbDataSize(int32_t dtype, int64_t numel) {
  unsigned bits = onnxcDtypePackedBits(dtype);
  if (!bits)
    return (size_t)numel * onnxc_dtype_size(dtype);
  return ((size_t)numel * bits + 7) / 8;
}

/// Unpacks `numel` elements of the packed `dtype` from `packed` into `out`,
/// one a byte (onnxc_runtime.h): INT4 and INT2 sign-extended.
static void unpackElements(int32_t dtype, const unsigned char *packed,
                           int64_t numel, unsigned char *out) {
  unsigned bits = onnxcDtypePackedBits(dtype), perByte = 8 / bits;
  unsigned mask = (1u << bits) - 1, signBit = 1u << (bits - 1);
  bool isSigned = dtype == ONNXC_DTYPE_INT4 || dtype == ONNXC_DTYPE_INT2;
  for (int64_t i = 0; i < numel; ++i) {
    unsigned v = (packed[i / perByte] >> (i % perByte * bits)) & mask;
    if (isSigned && (v & signBit))
      v |= ~mask & 0xFFu;
    out[i] = (unsigned char)v;
  }
}

/// Packs the `numel` one-a-byte elements of `dtype` at `in` into `out`
/// (pbDataSize bytes), the first in the low bits.
static void packElements(int32_t dtype, const unsigned char *in, int64_t numel,
                         unsigned char *out) {
  unsigned bits = onnxcDtypePackedBits(dtype), perByte = 8 / bits;
  unsigned mask = (1u << bits) - 1;
  memset(out, 0, pbDataSize(dtype, numel));
  for (int64_t i = 0; i < numel; ++i)
    out[i / perByte] |= (unsigned char)((in[i] & mask) << (i % perByte * bits));
}

/// Stores `values` (as a typed field holds them) into `out` as `dtype`.
static void storeValues(int32_t dtype, const uint64_t *values, size_t count,
                        void *out) {
  for (size_t i = 0; i < count; ++i) {
    uint64_t v = values[i];
    switch (onnxc_dtype_size(dtype)) {
    case 1: {
      uint8_t x = dtype == ONNXC_DTYPE_BOOL ? (v != 0) : (uint8_t)v;
      memcpy((uint8_t *)out + i, &x, 1);
      break;
    }
    case 2: {
      uint16_t x = (uint16_t)v;
      memcpy((uint16_t *)out + i, &x, 2);
      break;
    }
    case 4: {
      uint32_t x = (uint32_t)v;
      memcpy((uint32_t *)out + i, &x, 4);
      break;
    }
    default:
      memcpy((uint64_t *)out + i, &v, 8);
      break;
    }
  }
}

/// Builds the tensor of the TensorProto in [data, data + size). `reuse`,
/// if not NULL, holds the malloc'd buffer that `data` starts, for the tensor
/// to take over as its data (then set to NULL).
static onnxc_tensor *decodeTensor(const char *path, const unsigned char *data,
                                  size_t size, unsigned char **reuse) {
  PbTensor pb;
  memset(&pb, 0, sizeof(pb));
  onnxc_tensor *tensor = NULL;
  char *name = NULL;
  if (pbParse(path, data, size, &pb) != ONNXC_OK)
    goto done;

  if (pb.dataType == 0) {
    pbError(path, "missing data_type");
    goto done;
  }
  int32_t dtype = pb.dataType > INT32_MAX ? -1 : (int32_t)pb.dataType;
  if (!onnxcDtypeIsKnown(dtype)) {
    onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                  "'%s': data_type %llu is not supported", path,
                  (unsigned long long)pb.dataType);
    goto done;
  }
  if (pb.dims.count > ONNXC_MAX_RANK) {
    onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                  "'%s': rank %zu exceeds the maximum of %d", path,
                  pb.dims.count, ONNXC_MAX_RANK);
    goto done;
  }
  int32_t rank = (int32_t)pb.dims.count;
  int64_t dims[ONNXC_MAX_RANK];
  for (int32_t i = 0; i < rank; ++i) {
    dims[i] = (int64_t)pb.dims.items[i];
    if (dims[i] < 0) {
      pbError(path, "dim %d is negative (%lld)", (int)i, (long long)dims[i]);
      goto done;
    }
  }
  int64_t numel;
  size_t nbytes;
  if (onnxcCheckShape(dtype, rank, dims, &numel, &nbytes) != ONNXC_OK) {
    char detail[256];
    snprintf(detail, sizeof(detail), "%s", onnxc_last_error());
    pbError(path, "%s", detail);
    goto done;
  }
  char shape[256];
  onnxcFormatDims(shape, sizeof(shape), rank, dims);

  // The name points into `buf`, which may become the tensor's data.
  if (pb.nameSize) {
    name = malloc(pb.nameSize + 1);
    if (!name) {
      onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
      goto done;
    }
    memcpy(name, pb.name, pb.nameSize);
    name[pb.nameSize] = '\0';
  }

  if (dtype == ONNXC_DTYPE_STRING) {
    size_t count = pb.strings.count / 2;
    if (pb.hasRaw || count != (uint64_t)numel) {
      pbError(path,
              "a string tensor %s needs %lld strings in string_data "
              "(got %zu%s)",
              shape, (long long)numel, count, pb.hasRaw ? " and raw_data" : "");
      goto done;
    }
    const char **values = malloc((count + 1) * sizeof(char *));
    size_t *sizes = malloc((count + 1) * sizeof(size_t));
    if (values && sizes) {
      for (size_t i = 0; i < count; ++i) {
        values[i] = (const char *)data + pb.strings.items[2 * i];
        sizes[i] = pb.strings.items[2 * i + 1] - pb.strings.items[2 * i];
      }
      tensor = onnxc_tensor_create_strings(rank, dims, values, sizes);
    } else {
      onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    free(values);
    free(sizes);
    if (tensor) {
      tensor->name = name;
      name = NULL;
    }
    goto done;
  }

  // Exactly one place holds the data, unless there is none to hold.
  int source = -1;
  const char *sourceName = "raw_data";
  if (pb.hasRaw)
    source = NumDataFields;
  for (int i = 0; i < NumDataFields; ++i) {
    if (pb.values[i].count == 0)
      continue;
    if (source >= 0) {
      pbError(path, "both %s and %s hold data", sourceName, dataFieldNames[i]);
      goto done;
    }
    source = i;
    sourceName = dataFieldNames[i];
  }

  size_t pbBytes = pbDataSize(dtype, numel);
  if (source == NumDataFields) {
    if (pb.rawSize != pbBytes) {
      pbError(path, "raw_data has %zu bytes but %s %s needs %zu", pb.rawSize,
              onnxc_dtype_name(dtype), shape, pbBytes);
      goto done;
    }
  }
  if (onnxcDtypePackedBits(dtype) && source >= 0) {
    // Packed in raw_data, or in int32_data one byte a value.
    if (source != NumDataFields && source != FieldInt32) {
      pbError(path, "%s cannot hold %s values", sourceName,
              onnxc_dtype_name(dtype));
      goto done;
    }
    if (source == FieldInt32 && pb.values[source].count != pbBytes) {
      pbError(path,
              "int32_data has %zu values but %s %s needs %zu packed bytes",
              pb.values[source].count, onnxc_dtype_name(dtype), shape, pbBytes);
      goto done;
    }
    unsigned char *packed = malloc(pbBytes ? pbBytes : 1);
    tensor = packed ? onnxc_tensor_create(dtype, rank, dims) : NULL;
    if (!packed)
      onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    if (tensor) {
      for (size_t i = 0; i < pbBytes; ++i)
        packed[i] = source == FieldInt32
                        ? (unsigned char)pb.values[source].items[i]
                        : pb.raw[i];
      unpackElements(dtype, packed, numel, tensor->data);
    }
    free(packed);
  } else if (source == NumDataFields && reuse) {
    // Reuse the file buffer for the data.
    unsigned char *buf = *reuse;
    memmove(buf, pb.raw, nbytes);
    unsigned char *shrunk = realloc(buf, nbytes ? nbytes : 1);
    if (shrunk)
      buf = shrunk;
    *reuse = buf;
    tensor = onnxcTensorAdopt(dtype, rank, dims, buf, buf);
    if (tensor)
      *reuse = NULL;
  } else if (source == NumDataFields) {
    tensor = onnxc_tensor_create(dtype, rank, dims);
    if (tensor && nbytes)
      memcpy(tensor->data, pb.raw, nbytes);
  } else {
    if (source >= 0 && source != dataFieldFor(dtype)) {
      pbError(path, "%s cannot hold %s values", sourceName,
              onnxc_dtype_name(dtype));
      goto done;
    }
    size_t count = source >= 0 ? pb.values[source].count : 0;
    if (source < 0 && numel > 0) {
      pbError(path, "has no data but %s %s needs %lld values",
              onnxc_dtype_name(dtype), shape, (long long)numel);
      goto done;
    }
    if (count != (uint64_t)numel) {
      pbError(path, "%s has %zu values but %s %s needs %lld", sourceName, count,
              onnxc_dtype_name(dtype), shape, (long long)numel);
      goto done;
    }
    tensor = onnxc_tensor_create(dtype, rank, dims);
    if (tensor && count)
      storeValues(dtype, pb.values[source].items, count, tensor->data);
  }
  if (tensor) {
    tensor->name = name;
    name = NULL;
  }

done:
  pbTensorClear(&pb);
  free(name);
  return tensor;
}

/// Builds the tensor of a .pb file; `buf` is consumed either way.
static onnxc_tensor *readPb(const char *path, unsigned char *buf, size_t size) {
  onnxc_tensor *tensor = decodeTensor(path, buf, size, &buf);
  free(buf);
  return tensor;
}

/*===----------------------------------------------------------------------===
 * .npy decoding.
 *===----------------------------------------------------------------------===*/

static const char npyMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

static onnxc_status npyError(const char *path, const char *fmt, ...)
    ONNXC_PRINTF(2, 3);
static onnxc_status npyError(const char *path, const char *fmt, ...) {
  char detail[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(detail, sizeof(detail), fmt, args);
  va_end(args);
  return onnxcSetError(ONNXC_ERROR_FORMAT, "'%s' is not a valid .npy file: %s",
                       path, detail);
}

/// A cursor over the Python dict literal of a .npy header.
typedef struct {
  const char *p;
  const char *end;
} NpyCursor;

static void skipSpace(NpyCursor *c) {
  while (c->p < c->end &&
         (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    ++c->p;
}

static bool consume(NpyCursor *c, char ch) {
  skipSpace(c);
  if (c->p < c->end && *c->p == ch) {
    ++c->p;
    return true;
  }
  return false;
}

/// Parses a quoted string into `out` (truncated to `size`).
static bool parseString(NpyCursor *c, char *out, size_t size) {
  skipSpace(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return false;
  char quote = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != quote) {
    if (n + 1 < size)
      out[n++] = *c->p;
    ++c->p;
  }
  if (c->p >= c->end)
    return false;
  ++c->p;
  out[n] = '\0';
  return true;
}

static bool parseWord(NpyCursor *c, const char *word) {
  skipSpace(c);
  size_t len = strlen(word);
  if ((size_t)(c->end - c->p) < len || memcmp(c->p, word, len) != 0)
    return false;
  c->p += len;
  return true;
}

/// Maps a little-endian or byte-order-free numpy descr to a dtype; returns
/// ONNXC_DTYPE_UNDEFINED if unsupported and sets *bigEndian for '>' descrs.
static int32_t dtypeFromDescr(const char *descr, bool *bigEndian) {
  *bigEndian = false;
  char order = '|';
  if (*descr == '<' || *descr == '>' || *descr == '|' || *descr == '=')
    order = *descr++;
  static const struct {
    const char *code;
    int32_t dtype;
  } table[] = {{"f2", ONNXC_DTYPE_FLOAT16}, {"f4", ONNXC_DTYPE_FLOAT},
               {"f8", ONNXC_DTYPE_DOUBLE},  {"i1", ONNXC_DTYPE_INT8},
               {"i2", ONNXC_DTYPE_INT16},   {"i4", ONNXC_DTYPE_INT32},
               {"i8", ONNXC_DTYPE_INT64},   {"u1", ONNXC_DTYPE_UINT8},
               {"u2", ONNXC_DTYPE_UINT16},  {"u4", ONNXC_DTYPE_UINT32},
               {"u8", ONNXC_DTYPE_UINT64},  {"b1", ONNXC_DTYPE_BOOL},
               {"?", ONNXC_DTYPE_BOOL}};
  for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i) {
    if (strcmp(descr, table[i].code) != 0)
      continue;
    if (order == '>' && onnxc_dtype_size(table[i].dtype) > 1) {
      *bigEndian = true;
      return ONNXC_DTYPE_UNDEFINED;
    }
    return table[i].dtype;
  }
  return ONNXC_DTYPE_UNDEFINED;
}

/// Builds the tensor of a .npy file; `buf` is consumed either way.
static onnxc_tensor *readNpy(const char *path, unsigned char *buf,
                             size_t size) {
  onnxc_tensor *tensor = NULL;
  if (size < 10) {
    npyError(path, "truncated header");
    goto done;
  }
  unsigned major = buf[6], minor = buf[7];
  size_t headerStart, headerLen;
  if (major == 1) {
    headerStart = 10;
    headerLen = (size_t)loadLE(buf + 8, 2);
  } else if (major == 2 || major == 3) {
    if (size < 12) {
      npyError(path, "truncated header");
      goto done;
    }
    headerStart = 12;
    headerLen = (size_t)loadLE(buf + 8, 4);
  } else {
    onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                  "'%s': .npy format version %u.%u is not supported", path,
                  major, minor);
    goto done;
  }
  if (headerLen > size - headerStart) {
    npyError(path, "header of %zu bytes is truncated", headerLen);
    goto done;
  }

  NpyCursor c = {(const char *)buf + headerStart,
                 (const char *)buf + headerStart + headerLen};
  char descr[64] = "";
  int fortran = -1;
  bool hasDescr = false, hasShape = false;
  int32_t rank = 0;
  int64_t dims[ONNXC_MAX_RANK];
  if (!consume(&c, '{')) {
    npyError(path, "header is not a dict");
    goto done;
  }
  while (!consume(&c, '}')) {
    char key[32];
    if (!parseString(&c, key, sizeof(key)) || !consume(&c, ':')) {
      npyError(path, "malformed header");
      goto done;
    }
    if (strcmp(key, "descr") == 0) {
      skipSpace(&c);
      if (c.p < c.end && *c.p == '[') {
        onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                      "'%s': structured .npy dtypes are not supported", path);
        goto done;
      }
      if (!parseString(&c, descr, sizeof(descr))) {
        npyError(path, "malformed descr");
        goto done;
      }
      hasDescr = true;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (parseWord(&c, "True")) {
        fortran = 1;
      } else if (parseWord(&c, "False")) {
        fortran = 0;
      } else {
        npyError(path, "malformed fortran_order");
        goto done;
      }
    } else if (strcmp(key, "shape") == 0) {
      if (!consume(&c, '(')) {
        npyError(path, "malformed shape");
        goto done;
      }
      while (!consume(&c, ')')) {
        skipSpace(&c);
        int64_t dim = 0;
        int digits = 0;
        while (c.p < c.end && *c.p >= '0' && *c.p <= '9') {
          if (dim > (INT64_MAX - 9) / 10) {
            npyError(path, "dim too large in shape");
            goto done;
          }
          dim = dim * 10 + (*c.p++ - '0');
          ++digits;
        }
        if (c.p < c.end && *c.p == 'L')
          ++c.p;
        if (!digits) {
          npyError(path, "malformed shape");
          goto done;
        }
        if (rank == ONNXC_MAX_RANK) {
          onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                        "'%s': rank exceeds the maximum of %d", path,
                        ONNXC_MAX_RANK);
          goto done;
        }
        dims[rank++] = dim;
        if (!consume(&c, ',')) {
          if (!consume(&c, ')')) {
            npyError(path, "malformed shape");
            goto done;
          }
          break;
        }
      }
      hasShape = true;
    } else {
      npyError(path, "unexpected key '%s' in header", key);
      goto done;
    }
    if (!consume(&c, ',')) {
      if (!consume(&c, '}')) {
        npyError(path, "malformed header");
        goto done;
      }
      break;
    }
  }
  if (!hasDescr || !hasShape || fortran < 0) {
    npyError(path, "header lacks '%s'",
             !hasDescr   ? "descr"
             : !hasShape ? "shape"
                         : "fortran_order");
    goto done;
  }
  bool bigEndian;
  int32_t dtype = dtypeFromDescr(descr, &bigEndian);
  if (bigEndian) {
    onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                  "'%s': big-endian .npy data ('%s') is not supported", path,
                  descr);
    goto done;
  }
  if (dtype == ONNXC_DTYPE_UNDEFINED) {
    onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                  "'%s': .npy dtype '%s' is not supported", path, descr);
    goto done;
  }
  int64_t numel;
  size_t nbytes;
  if (onnxcCheckShape(dtype, rank, dims, &numel, &nbytes) != ONNXC_OK) {
    char detail[256];
    snprintf(detail, sizeof(detail), "%s", onnxc_last_error());
    npyError(path, "%s", detail);
    goto done;
  }
  // Fortran and C order agree when at most one dim exceeds 1.
  int bigDims = 0;
  for (int32_t i = 0; i < rank; ++i)
    bigDims += dims[i] > 1;
  if (fortran == 1 && bigDims > 1) {
    onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                  "'%s': fortran_order True is not supported", path);
    goto done;
  }
  size_t dataStart = headerStart + headerLen;
  if (size - dataStart != nbytes) {
    char shape[256];
    onnxcFormatDims(shape, sizeof(shape), rank, dims);
    npyError(path, "has %zu bytes of data but %s %s needs %zu",
             size - dataStart, onnxc_dtype_name(dtype), shape, nbytes);
    goto done;
  }
  memmove(buf, buf + dataStart, nbytes);
  unsigned char *data = realloc(buf, nbytes ? nbytes : 1);
  if (data)
    buf = data;
  tensor = onnxcTensorAdopt(dtype, rank, dims, buf, buf);
  if (tensor)
    buf = NULL;

done:
  free(buf);
  return tensor;
}

/*===----------------------------------------------------------------------===
 * Public entry points.
 *===----------------------------------------------------------------------===*/

onnxc_tensor *onnxc_tensor_read(const char *path) {
  if (!path) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "path is null");
    return NULL;
  }
  unsigned char *buf = NULL;
  size_t size = 0;
  if (readFile(path, &buf, &size) != ONNXC_OK)
    return NULL;
  if (size >= sizeof(npyMagic) && memcmp(buf, npyMagic, sizeof(npyMagic)) == 0)
    return readNpy(path, buf, size);
  return readPb(path, buf, size);
}

static size_t putVarint(unsigned char *out, uint64_t value) {
  size_t n = 0;
  while (value >= 0x80) {
    out[n++] = (unsigned char)(value | 0x80);
    value >>= 7;
  }
  out[n++] = (unsigned char)value;
  return n;
}

/// The string_data fields of a string tensor (one key, length and the bytes
/// a string), malloc'd.
static onnxc_status encodeStrings(const onnxc_tensor *tensor,
                                  unsigned char **out, size_t *outSize) {
  const int64_t *handles = tensor->data;
  size_t total = 0;
  for (int64_t i = 0; i < tensor->numel; ++i) {
    size_t size;
    onnxcStringData(handles[i], &size);
    total += 11 + size;
  }
  unsigned char *bytes = malloc(total ? total : 1);
  if (!bytes)
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  size_t n = 0;
  for (int64_t i = 0; i < tensor->numel; ++i) {
    size_t size;
    const char *data = onnxcStringData(handles[i], &size);
    bytes[n++] = 0x32;
    n += putVarint(bytes + n, size);
    memcpy(bytes + n, data, size);
    n += size;
  }
  *out = bytes;
  *outSize = n;
  return ONNXC_OK;
}

onnxc_status onnxcEncodePbHeader(const onnxc_tensor *tensor, const char *name,
                                 unsigned char **header, size_t *headerSize) {
  size_t nameLen = name ? strlen(name) : 0;
  // Each key is one byte; each varint at most 10.
  size_t capacity = (size_t)tensor->rank * 11 + 11 + (11 + nameLen) + 11;
  unsigned char *out = malloc(capacity);
  if (!out)
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  size_t n = 0;
  // dims is not declared packed in onnx.proto (proto2): one key per dim.
  for (int32_t i = 0; i < tensor->rank; ++i) {
    out[n++] = 0x08;
    n += putVarint(out + n, (uint64_t)tensor->dims[i]);
  }
  out[n++] = 0x10;
  n += putVarint(out + n, (uint64_t)tensor->dtype);
  if (nameLen) {
    out[n++] = 0x42;
    n += putVarint(out + n, nameLen);
    memcpy(out + n, name, nameLen);
    n += nameLen;
  }
  // A string tensor's string_data fields follow instead of raw_data.
  if (tensor->dtype != ONNXC_DTYPE_STRING) {
    out[n++] = 0x4a;
    n += putVarint(out + n, pbDataSize(tensor->dtype, tensor->numel));
  }
  *header = out;
  *headerSize = n;
  return ONNXC_OK;
}

/// The two byte ranges of the TensorProto of `tensor`: parts[0] the header
/// (`*header`, malloc'd), parts[1] the data, the tensor's own or `*packed`
/// (malloc'd, or NULL).
static onnxc_status tensorProtoParts(const onnxc_tensor *tensor,
                                     const char *name, unsigned char **header,
                                     unsigned char **packed,
                                     const void *parts[2], size_t sizes[2]) {
  *packed = NULL;
  onnxc_status status = onnxcEncodePbHeader(tensor, name, header, &sizes[0]);
  if (status != ONNXC_OK)
    return status;
  parts[0] = *header;
  parts[1] = tensor->data;
  sizes[1] = tensor->nbytes;
  if (tensor->dtype == ONNXC_DTYPE_STRING) {
    status = encodeStrings(tensor, packed, &sizes[1]);
    if (status != ONNXC_OK) {
      free(*header);
      return status;
    }
    parts[1] = *packed;
  } else if (onnxcDtypePackedBits(tensor->dtype)) {
    int64_t numel = tensor->numel;
    sizes[1] = pbDataSize(tensor->dtype, numel);
    *packed = malloc(sizes[1] ? sizes[1] : 1);
    if (!*packed) {
      free(*header);
      return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    packElements(tensor->dtype, tensor->data, numel, *packed);
    parts[1] = *packed;
  }
  return ONNXC_OK;
}

/// The proto kind a value is written as by default: its own, NONE as an
/// empty optional.
static int32_t protoKindOf(const onnxc_tensor *value) {
  return value->kind == ONNXC_KIND_NONE ? ONNXC_KIND_OPTIONAL : value->kind;
}

onnxc_status onnxcWritePbTemp(const onnxc_tensor *tensor, const char *path,
                              const char *name, char **tmpPath) {
  *tmpPath = NULL;
  if (!tensor || !path)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "tensor or path is null");
  if (tensor->kind != ONNXC_KIND_TENSOR)
    return onnxcWriteValuePbTemp(tensor, path, protoKindOf(tensor), name,
                                 tmpPath);
  unsigned char *header, *packed;
  const void *parts[2];
  size_t sizes[2];
  onnxc_status status =
      tensorProtoParts(tensor, name ? name : onnxc_tensor_name(tensor), &header,
                       &packed, parts, sizes);
  if (status != ONNXC_OK)
    return status;
  status = onnxcWriteTemp(path, parts, sizes, 2, tmpPath);
  free(packed);
  free(header);
  return status;
}

onnxc_status onnxc_tensor_write_pb(const onnxc_tensor *tensor, const char *path,
                                   const char *name) {
  char *tmp;
  onnxc_status status = onnxcWritePbTemp(tensor, path, name, &tmp);
  if (status != ONNXC_OK)
    return status;
  status = onnxcCommitTemp(tmp, path);
  free(tmp);
  return status;
}

/// The numpy descr of `dtype`, or NULL if numpy has none.
static const char *npyDescr(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_FLOAT:
    return "<f4";
  case ONNXC_DTYPE_DOUBLE:
    return "<f8";
  case ONNXC_DTYPE_FLOAT16:
    return "<f2";
  case ONNXC_DTYPE_INT8:
    return "|i1";
  case ONNXC_DTYPE_UINT8:
    return "|u1";
  case ONNXC_DTYPE_BOOL:
    return "|b1";
  case ONNXC_DTYPE_INT16:
    return "<i2";
  case ONNXC_DTYPE_UINT16:
    return "<u2";
  case ONNXC_DTYPE_INT32:
    return "<i4";
  case ONNXC_DTYPE_UINT32:
    return "<u4";
  case ONNXC_DTYPE_INT64:
    return "<i8";
  case ONNXC_DTYPE_UINT64:
    return "<u8";
  default:
    return NULL;
  }
}

onnxc_status onnxc_tensor_write_npy(const onnxc_tensor *tensor,
                                    const char *path) {
  if (!tensor || !path)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "tensor or path is null");
  const char *descr = npyDescr(tensor->dtype);
  if (!descr)
    return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                         "cannot write '%s': %s has no .npy dtype", path,
                         onnxc_dtype_name(tensor->dtype));
  // Version 1.0: magic, version, u16 header length, then the dict padded
  // with spaces and a newline so that the data starts 64-byte aligned.
  char header[1024];
  int n = snprintf(header + 10, sizeof(header) - 10,
                   "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int32_t i = 0; i < tensor->rank; ++i)
    n += snprintf(header + 10 + n, sizeof(header) - 10 - (size_t)n, "%s%lld%s",
                  i ? " " : "", (long long)tensor->dims[i],
                  tensor->rank == 1 || i + 1 < tensor->rank ? "," : "");
  n += snprintf(header + 10 + n, sizeof(header) - 10 - (size_t)n, "), }");
  size_t total = 10 + (size_t)n + 1;
  size_t padded = (total + 63) / 64 * 64;
  memset(header + 10 + n, ' ', padded - total);
  header[padded - 1] = '\n';
  memcpy(header, npyMagic, sizeof(npyMagic));
  header[6] = 1;
  header[7] = 0;
  header[8] = (char)((padded - 10) & 0xff);
  header[9] = (char)((padded - 10) >> 8);

  const void *parts[2] = {header, tensor->data};
  size_t sizes[2] = {padded, tensor->nbytes};
  char *tmp;
  onnxc_status status = onnxcWriteTemp(path, parts, sizes, 2, &tmp);
  if (status != ONNXC_OK)
    return status;
  status = onnxcCommitTemp(tmp, path);
  free(tmp);
  return status;
}

/*===----------------------------------------------------------------------===
 * Sequences, maps and optionals: SequenceProto, MapProto, OptionalProto.
 *===----------------------------------------------------------------------===*/

/// The elem_type values of SequenceProto and OptionalProto.
enum {
  ProtoUndefined = 0,
  ProtoTensor = 1,
  ProtoSparseTensor = 2,
  ProtoSequence = 3,
  ProtoMap = 4,
  ProtoOptional = 5
};

/// Sets a format error about the message `what` of `path`.
static onnxc_status valueError(const char *path, const char *what,
                               const char *fmt, ...) ONNXC_PRINTF(3, 4);
static onnxc_status valueError(const char *path, const char *what,
                               const char *fmt, ...) {
  char detail[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(detail, sizeof(detail), fmt, args);
  va_end(args);
  return onnxcSetError(ONNXC_ERROR_FORMAT, "'%s' is not a valid %s: %s", path,
                       what, detail);
}

/// Checks that field `f` of `what` is length-delimited.
static onnxc_status expectBytes(const char *path, const char *what,
                                const PbField *f) {
  if (f->wireType == 2)
    return ONNXC_OK;
  return valueError(path, what, "field %llu has wire type %u at byte %zu",
                    (unsigned long long)f->field, f->wireType, f->keyPos);
}

/// Sets the name of `value` from the bytes of field `f`.
static onnxc_status setNameFrom(onnxc_tensor *value, const unsigned char *data,
                                const PbField *f) {
  size_t size = f->end - f->begin;
  char *name = malloc(size + 1);
  if (!name)
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  memcpy(name, data + f->begin, size);
  name[size] = '\0';
  free(value->name);
  value->name = name;
  return ONNXC_OK;
}

static onnxc_tensor *decodeMap(const char *path, const unsigned char *data,
                               size_t size);

/// The refusal of a nested value that onnxc does not hold.
static onnxc_status unsupportedElement(const char *path, const char *what,
                                       uint64_t field) {
  static const char *const names[] = {
      "", "", "", "", "sparse tensors", "sequences", "", "optionals"};
  const char *name = field < 8 && *names[field] ? names[field] : "these";
  return onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                       "'%s': a %s holding %s is not supported (only tensors "
                       "and maps)",
                       path, what, name);
}

/// Builds the sequence of the SequenceProto in [data, data + size).
static onnxc_tensor *decodeSequence(const char *path, const unsigned char *data,
                                    size_t size) {
  const char *what = "SequenceProto";
  onnxc_tensor *seq = onnxc_sequence_create(ONNXC_DTYPE_UNDEFINED);
  if (!seq)
    return NULL;
  uint64_t elemType = ProtoUndefined;
  size_t pos = 0;
  while (pos < size) {
    PbField f;
    if (pbNextField(path, data, size, &pos, &f) != ONNXC_OK)
      goto fail;
    onnxc_tensor *item = NULL;
    switch (f.field) {
    case 1:
      if (expectBytes(path, what, &f) != ONNXC_OK ||
          setNameFrom(seq, data, &f) != ONNXC_OK)
        goto fail;
      break;
    case 2:
      if (f.wireType != 0) {
        valueError(path, what, "elem_type has wire type %u", f.wireType);
        goto fail;
      }
      elemType = f.scalar;
      break;
    case 3:
    case 6:
      if (expectBytes(path, what, &f) != ONNXC_OK)
        goto fail;
      item = f.field == 3
                 ? decodeTensor(path, data + f.begin, f.end - f.begin, NULL)
                 : decodeMap(path, data + f.begin, f.end - f.begin);
      if (!item)
        goto fail;
      if (onnxc_sequence_append(seq, item) != ONNXC_OK) {
        onnxc_tensor_free(item);
        goto fail;
      }
      break;
    case 4:
    case 5:
    case 7:
      unsupportedElement(path, "sequence", f.field);
      goto fail;
    default:
      break;
    }
  }
  if (elemType != ProtoUndefined && elemType != ProtoTensor &&
      elemType != ProtoMap) {
    unsupportedElement(path, "sequence", elemType + 2);
    goto fail;
  }
  if (seq->count > 0 && elemType != ProtoUndefined &&
      (elemType == ProtoMap) != (seq->elemKind == ONNXC_KIND_MAP)) {
    valueError(path, what, "elem_type %llu but it holds %ss",
               (unsigned long long)elemType, onnxcKindName(seq->elemKind));
    goto fail;
  }
  if (elemType == ProtoMap)
    seq->elemKind = ONNXC_KIND_MAP;
  return seq;
fail:
  onnxc_tensor_free(seq);
  return NULL;
}

/// Builds the map of the MapProto in [data, data + size): its values, a
/// SequenceProto of one scalar tensor per key, become one 1-D tensor.
static onnxc_tensor *decodeMap(const char *path, const unsigned char *data,
                               size_t size) {
  const char *what = "MapProto";
  U64Vec keys = {0}, stringKeys = {0};
  uint64_t keyType = 0;
  const unsigned char *valuesData = NULL;
  size_t valuesSize = 0;
  char *name = NULL;
  onnxc_tensor *seq = NULL, *keyTensor = NULL, *valueTensor = NULL;
  onnxc_tensor *map = NULL;
  int64_t *handles = NULL;
  size_t pos = 0;
  while (pos < size) {
    PbField f;
    if (pbNextField(path, data, size, &pos, &f) != ONNXC_OK)
      goto done;
    switch (f.field) {
    case 1:
      if (expectBytes(path, what, &f) != ONNXC_OK)
        goto done;
      free(name);
      name = strndup((const char *)data + f.begin, f.end - f.begin);
      if (!name) {
        onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
      }
      break;
    case 2:
      keyType = f.scalar;
      break;
    case 3:
      if (pbAppend(path, &keys, 3, "keys", f.wireType, 0, f.scalar, data,
                   f.begin, f.end, f.keyPos) != ONNXC_OK)
        goto done;
      break;
    case 4:
      if (expectBytes(path, what, &f) != ONNXC_OK)
        goto done;
      if (!vecPush(&stringKeys, f.begin) || !vecPush(&stringKeys, f.end)) {
        onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
      }
      break;
    case 5:
      if (expectBytes(path, what, &f) != ONNXC_OK)
        goto done;
      valuesData = data + f.begin;
      valuesSize = f.end - f.begin;
      break;
    default:
      break;
    }
  }
  if (keyType != ONNXC_DTYPE_INT64 && keyType != ONNXC_DTYPE_STRING) {
    onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                  "'%s': map keys of type %s are not supported (only int64 "
                  "and string)",
                  path,
                  keyType < 64 ? onnxc_dtype_name((int32_t)keyType) : "?");
    goto done;
  }
  bool stringKeyed = keyType == ONNXC_DTYPE_STRING;
  int64_t count = (int64_t)(stringKeyed ? stringKeys.count / 2 : keys.count);
  if ((stringKeyed ? keys.count : stringKeys.count) != 0) {
    valueError(path, what, "key_type %s but it has %s keys",
               onnxc_dtype_name((int32_t)keyType),
               stringKeyed ? "int64" : "string");
    goto done;
  }
  seq = valuesData ? decodeSequence(path, valuesData, valuesSize)
                   : onnxc_sequence_create(ONNXC_DTYPE_UNDEFINED);
  if (!seq)
    goto done;
  if (seq->count != count ||
      (count > 0 && seq->elemKind != ONNXC_KIND_TENSOR)) {
    valueError(path, what, "%lld keys but %lld %s values", (long long)count,
               (long long)seq->count,
               seq->elemKind == ONNXC_KIND_MAP ? "map" : "tensor");
    goto done;
  }
  // An empty map does not say its values' dtype: float, as ZipMap's.
  int32_t dtype = seq->dtype ? seq->dtype : ONNXC_DTYPE_FLOAT;
  for (int64_t i = 0; i < count; ++i) {
    if (seq->items[i]->numel != 1) {
      valueError(path, what, "value %lld has %lld elements, not 1",
                 (long long)i, (long long)seq->items[i]->numel);
      goto done;
    }
  }
  if (stringKeyed) {
    const char **values = malloc(((size_t)count + 1) * sizeof(char *));
    size_t *sizes = malloc(((size_t)count + 1) * sizeof(size_t));
    if (values && sizes) {
      for (int64_t i = 0; i < count; ++i) {
        values[i] = (const char *)data + stringKeys.items[2 * i];
        sizes[i] = stringKeys.items[2 * i + 1] - stringKeys.items[2 * i];
      }
      keyTensor = onnxc_tensor_create_strings(1, &count, values, sizes);
    } else {
      onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    free(values);
    free(sizes);
  } else {
    keyTensor = onnxc_tensor_create(ONNXC_DTYPE_INT64, 1, &count);
    if (keyTensor)
      for (int64_t i = 0; i < count; ++i)
        ((int64_t *)keyTensor->data)[i] = (int64_t)keys.items[i];
  }
  if (!keyTensor)
    goto done;
  size_t elemSize = onnxc_dtype_size(dtype);
  if (dtype == ONNXC_DTYPE_STRING) {
    handles = malloc(((size_t)count + 1) * sizeof(int64_t));
    if (!handles) {
      onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
      goto done;
    }
    for (int64_t i = 0; i < count; ++i)
      handles[i] = *(const int64_t *)seq->items[i]->data;
    valueTensor = onnxcStringTensorFromHandles(1, &count, handles, count);
  } else {
    valueTensor = onnxc_tensor_create(dtype, 1, &count);
    if (valueTensor)
      for (int64_t i = 0; i < count; ++i)
        memcpy((unsigned char *)valueTensor->data + (size_t)i * elemSize,
               seq->items[i]->data, elemSize);
  }
  if (!valueTensor)
    goto done;
  map = onnxc_map_create(keyTensor, valueTensor);
  if (map) {
    keyTensor = valueTensor = NULL;
    map->name = name;
    name = NULL;
  }
done:
  free(keys.items);
  free(stringKeys.items);
  free(handles);
  free(name);
  onnxc_tensor_free(seq);
  onnxc_tensor_free(keyTensor);
  onnxc_tensor_free(valueTensor);
  return map;
}

/// Builds the value of the OptionalProto in [data, data + size): a NONE
/// value if it holds nothing.
static onnxc_tensor *decodeOptional(const char *path, const unsigned char *data,
                                    size_t size) {
  const char *what = "OptionalProto";
  onnxc_tensor *value = NULL;
  PbField nameField = {0};
  bool named = false;
  size_t pos = 0;
  while (pos < size) {
    PbField f;
    if (pbNextField(path, data, size, &pos, &f) != ONNXC_OK)
      goto fail;
    onnxc_tensor *held = NULL;
    switch (f.field) {
    case 1:
      if (expectBytes(path, what, &f) != ONNXC_OK)
        goto fail;
      nameField = f;
      named = true;
      break;
    case 3:
    case 5:
    case 6:
      if (expectBytes(path, what, &f) != ONNXC_OK)
        goto fail;
      held = f.field == 3
                 ? decodeTensor(path, data + f.begin, f.end - f.begin, NULL)
             : f.field == 5
                 ? decodeSequence(path, data + f.begin, f.end - f.begin)
                 : decodeMap(path, data + f.begin, f.end - f.begin);
      if (!held)
        goto fail;
      onnxc_tensor_free(value);
      value = held;
      break;
    case 4:
    case 7:
      unsupportedElement(path, "optional", f.field);
      goto fail;
    default:
      break;
    }
  }
  if (!value && !(value = onnxc_none_create()))
    return NULL;
  if (named && setNameFrom(value, data, &nameField) != ONNXC_OK)
    goto fail;
  return value;
fail:
  onnxc_tensor_free(value);
  return NULL;
}

onnxc_tensor *onnxc_value_read_pb(const char *path, int32_t kind) {
  if (!path) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "path is null");
    return NULL;
  }
  if (kind != ONNXC_KIND_TENSOR && kind != ONNXC_KIND_SEQUENCE &&
      kind != ONNXC_KIND_MAP && kind != ONNXC_KIND_OPTIONAL) {
    onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                  "cannot read a .pb file as kind %d", (int)kind);
    return NULL;
  }
  unsigned char *buf = NULL;
  size_t size = 0;
  if (readFile(path, &buf, &size) != ONNXC_OK)
    return NULL;
  if (kind == ONNXC_KIND_TENSOR)
    return readPb(path, buf, size);
  onnxc_tensor *value =
      kind == ONNXC_KIND_SEQUENCE ? decodeSequence(path, buf, size)
      : kind == ONNXC_KIND_MAP    ? decodeMap(path, buf, size)
                                  : decodeOptional(path, buf, size);
  free(buf);
  return value;
}

/// A growable byte buffer that remembers running out of memory.
typedef struct {
  unsigned char *data;
  size_t size;
  size_t capacity;
  bool failed;
} PbBuf;

static void bufPut(PbBuf *b, const void *bytes, size_t n) {
  if (b->failed || n == 0)
    return;
  if (b->capacity - b->size < n) {
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity - b->size < n)
      capacity *= 2;
    unsigned char *data = realloc(b->data, capacity);
    if (!data) {
      b->failed = true;
      return;
    }
    b->data = data;
    b->capacity = capacity;
  }
  memcpy(b->data + b->size, bytes, n);
  b->size += n;
}

static void bufVarint(PbBuf *b, uint64_t value) {
  unsigned char bytes[10];
  bufPut(b, bytes, putVarint(bytes, value));
}

static void bufKey(PbBuf *b, unsigned field, unsigned wireType) {
  bufVarint(b, (uint64_t)field << 3 | wireType);
}

static void bufBytes(PbBuf *b, unsigned field, const void *bytes, size_t n) {
  bufKey(b, field, 2);
  bufVarint(b, n);
  bufPut(b, bytes, n);
}

/// Appends `child` as field `field` of `b`, and frees it.
static void bufMessage(PbBuf *b, unsigned field, PbBuf *child) {
  b->failed |= child->failed;
  bufBytes(b, field, child->data, child->size);
  free(child->data);
}

static void bufName(PbBuf *b, const char *name) {
  if (name && *name)
    bufBytes(b, 1, name, strlen(name));
}

static onnxc_status encodeTensorTo(PbBuf *b, const onnxc_tensor *tensor,
                                   const char *name) {
  unsigned char *header, *packed;
  const void *parts[2];
  size_t sizes[2];
  onnxc_status status =
      tensorProtoParts(tensor, name, &header, &packed, parts, sizes);
  if (status != ONNXC_OK)
    return status;
  bufPut(b, parts[0], sizes[0]);
  bufPut(b, parts[1], sizes[1]);
  free(header);
  free(packed);
  return ONNXC_OK;
}

static onnxc_status encodeMapTo(PbBuf *b, const onnxc_tensor *map,
                                const char *name);

static onnxc_status encodeSequenceTo(PbBuf *b, const onnxc_tensor *seq,
                                     const char *name) {
  bufName(b, name);
  bufKey(b, 2, 0);
  bufVarint(b, seq->elemKind == ONNXC_KIND_MAP ? ProtoMap : ProtoTensor);
  for (int64_t i = 0; i < seq->count; ++i) {
    const onnxc_tensor *item = seq->items[i];
    PbBuf child = {0};
    onnxc_status status =
        item->kind == ONNXC_KIND_MAP
            ? encodeMapTo(&child, item, item->name)
            : encodeTensorTo(&child, item, onnxc_tensor_name(item));
    if (status != ONNXC_OK) {
      free(child.data);
      return status;
    }
    bufMessage(b, item->kind == ONNXC_KIND_MAP ? 6 : 3, &child);
  }
  return ONNXC_OK;
}

static onnxc_status encodeMapTo(PbBuf *b, const onnxc_tensor *map,
                                const char *name) {
  const onnxc_tensor *keys = map->keys, *values = map->values;
  bufName(b, name);
  bufKey(b, 2, 0);
  bufVarint(b, (uint64_t)keys->dtype);
  for (int64_t i = 0; i < keys->numel; ++i) {
    int64_t key = ((const int64_t *)keys->data)[i];
    if (keys->dtype == ONNXC_DTYPE_STRING) {
      size_t size;
      const char *bytes = onnxcStringData(key, &size);
      bufBytes(b, 4, bytes, size);
    } else {
      bufKey(b, 3, 0);
      bufVarint(b, (uint64_t)key);
    }
  }
  // The values as onnx.numpy_helper.from_dict writes them: a sequence of
  // one scalar tensor per key.
  PbBuf seq = {0};
  bufKey(&seq, 2, 0);
  bufVarint(&seq, ProtoTensor);
  size_t elemSize = onnxc_dtype_size(values->dtype);
  for (int64_t i = 0; i < values->numel; ++i) {
    onnxc_tensor scalar;
    memset(&scalar, 0, sizeof(scalar));
    scalar.dtype = values->dtype;
    scalar.numel = 1;
    scalar.nbytes = elemSize;
    scalar.data = (unsigned char *)values->data + (size_t)i * elemSize;
    PbBuf child = {0};
    onnxc_status status = encodeTensorTo(&child, &scalar, NULL);
    if (status != ONNXC_OK) {
      free(child.data);
      free(seq.data);
      return status;
    }
    bufMessage(&seq, 3, &child);
  }
  bufMessage(b, 5, &seq);
  return ONNXC_OK;
}

onnxc_status onnxcWriteValuePbTemp(const onnxc_tensor *value, const char *path,
                                   int32_t kind, const char *name,
                                   char **tmpPath) {
  *tmpPath = NULL;
  if (!path || (!value && kind != ONNXC_KIND_OPTIONAL))
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT, "value or path is null");
  if (kind != ONNXC_KIND_OPTIONAL && kind != value->kind)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "cannot write a %s as a %s",
                         onnxcKindName(value->kind), onnxcKindName(kind));
  if (kind == ONNXC_KIND_TENSOR)
    return onnxcWritePbTemp(value, path, name, tmpPath);
  if (!name)
    name = value ? onnxc_tensor_name(value) : "";
  PbBuf b = {0};
  onnxc_status status = ONNXC_OK;
  if (kind == ONNXC_KIND_SEQUENCE) {
    status = encodeSequenceTo(&b, value, name);
  } else if (kind == ONNXC_KIND_MAP) {
    status = encodeMapTo(&b, value, name);
  } else if (kind == ONNXC_KIND_OPTIONAL) {
    bufName(&b, name);
    int32_t held = value ? value->kind : ONNXC_KIND_NONE;
    bufKey(&b, 2, 0);
    bufVarint(&b, held == ONNXC_KIND_TENSOR     ? ProtoTensor
                  : held == ONNXC_KIND_SEQUENCE ? ProtoSequence
                  : held == ONNXC_KIND_MAP      ? ProtoMap
                                                : ProtoUndefined);
    if (held != ONNXC_KIND_NONE) {
      PbBuf child = {0};
      status = held == ONNXC_KIND_TENSOR ? encodeTensorTo(&child, value, NULL)
               : held == ONNXC_KIND_SEQUENCE
                   ? encodeSequenceTo(&child, value, NULL)
                   : encodeMapTo(&child, value, NULL);
      if (status == ONNXC_OK)
        bufMessage(&b,
                   held == ONNXC_KIND_TENSOR     ? 3
                   : held == ONNXC_KIND_SEQUENCE ? 5
                                                 : 6,
                   &child);
      else
        free(child.data);
    }
  } else {
    status = onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                           "cannot write a .pb file of kind %d", (int)kind);
  }
  if (status == ONNXC_OK && b.failed)
    status = onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  if (status == ONNXC_OK) {
    const void *parts[1] = {b.data ? (const void *)b.data : ""};
    size_t sizes[1] = {b.size};
    status = onnxcWriteTemp(path, parts, sizes, 1, tmpPath);
  }
  free(b.data);
  return status;
}

onnxc_status onnxc_value_write_pb(const onnxc_tensor *value, const char *path,
                                  int32_t kind) {
  char *tmp;
  onnxc_status status = onnxcWriteValuePbTemp(value, path, kind, NULL, &tmp);
  if (status != ONNXC_OK)
    return status;
  status = onnxcCommitTemp(tmp, path);
  free(tmp);
  return status;
}
