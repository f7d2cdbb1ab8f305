/*===- onnxc_runtime.h - Public C API of the onnxc runtime -----------------===*
 *
 * The thin runtime that compiled onnxc models link against. Plain C11: this
 * header compiles as C and as C++, and includes only standard C headers.
 *
 * Four layers:
 *   1. The model ABI (onnxc_model_desc): what a compiled model object exports.
 *   2. Tensors and tensor I/O (.pb ONNX TensorProto, .npy).
 *   3. Values that are not tensors: sequences, maps and optionals, and their
 *      .pb files (SequenceProto, MapProto, OptionalProto).
 *   4. Sessions: validated runs of a model, with a thread pool per session.
 * Errors are reported as onnxc_status codes plus a thread-local message
 * (onnxc_last_error()).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_H
#define ONNXC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===------------------------------------------------------------------------===
 * Element types: the values of ONNX's TensorProto.DataType.
 *
 * In memory every element takes onnxc_dtype_size() bytes. The types
 * narrower than 16 bits take one byte each, unpacked:
 *   FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ, FLOAT8E8M0:
 *     the 8-bit code (ONNX's encoding).
 *   FLOAT4E2M1: the 4-bit code in the low bits, the high bits zero.
 *   INT4, INT2: the value as an int8 (-8..7, -2..1); UINT4, UINT2: the value
 *     as a uint8 (0..15, 0..3).
 *   STRING: a 64-bit handle of a string the runtime owns (8 bytes); read
 *     the strings with onnxc_tensor_string and make string tensors with
 *     onnxc_tensor_create_strings (.pb files hold them as string_data; .npy
 *     files cannot).
 * Only .pb files pack INT4, UINT4, FLOAT4E2M1 (two a byte) and INT2, UINT2
 * (four a byte), the first value in the low bits, as ONNX specifies; the
 * runtime packs and unpacks them when it writes and reads .pb files. numpy
 * has none of these types: .npy files cannot hold them.
 *===------------------------------------------------------------------------===*/
typedef enum onnxc_dtype {
  ONNXC_DTYPE_UNDEFINED = 0,
  ONNXC_DTYPE_FLOAT = 1,
  ONNXC_DTYPE_UINT8 = 2,
  ONNXC_DTYPE_INT8 = 3,
  ONNXC_DTYPE_UINT16 = 4,
  ONNXC_DTYPE_INT16 = 5,
  ONNXC_DTYPE_INT32 = 6,
  ONNXC_DTYPE_INT64 = 7,
  ONNXC_DTYPE_STRING = 8,
  ONNXC_DTYPE_BOOL = 9,
  ONNXC_DTYPE_FLOAT16 = 10,
  ONNXC_DTYPE_DOUBLE = 11,
  ONNXC_DTYPE_UINT32 = 12,
  ONNXC_DTYPE_UINT64 = 13,
  ONNXC_DTYPE_BFLOAT16 = 16,
  ONNXC_DTYPE_FLOAT8E4M3FN = 17,
  ONNXC_DTYPE_FLOAT8E4M3FNUZ = 18,
  ONNXC_DTYPE_FLOAT8E5M2 = 19,
  ONNXC_DTYPE_FLOAT8E5M2FNUZ = 20,
  ONNXC_DTYPE_UINT4 = 21,
  ONNXC_DTYPE_INT4 = 22,
  ONNXC_DTYPE_FLOAT4E2M1 = 23,
  ONNXC_DTYPE_FLOAT8E8M0 = 24,
  ONNXC_DTYPE_UINT2 = 25,
  ONNXC_DTYPE_INT2 = 26
} onnxc_dtype;

/*===------------------------------------------------------------------------===
 * Model ABI (version 2): emitted by onnx-compile into the model object.
 *
 * The entry function takes the inputs as MLIR ranked memref descriptors and
 * fills one descriptor per output. A descriptor of rank r is a sequence of
 * 3 + 2r 64-bit words:
 *     [0] allocated pointer   (the pointer to pass to free())
 *     [1] aligned pointer     (where element 0 lives, before the offset)
 *     [2] offset              (in elements)
 *     [3 .. 3+r)              sizes
 *     [3+r .. 3+2r)           strides (in elements)
 * `inputs` is an array of num_inputs pointers, each to one descriptor.
 * `outputs` points to the descriptors of all outputs laid out back to back
 * (output k starts after the 3 + 2 r_j words of every output j < k).
 * Output buffers are freshly allocated with malloc() by the model: the caller
 * owns them and releases each with free(allocated). Input buffers are only
 * read.
 *
 * An input or output whose kind is not ONNXC_KIND_TENSOR (a sequence, map or
 * optional) is passed as a rank-0 int64 memref (3 words) whose element is a
 * handle: (int64_t)(intptr_t) of an onnxc_tensor value object; for OPTIONAL
 * kinds handle 0 is an optional holding nothing. The model mallocs the 0-d
 * buffer of such an output, as for tensors.
 *===------------------------------------------------------------------------===*/
#define ONNXC_ABI_VERSION 2

/* What a value is (onnxc_value_kind) or what a model input/output takes. */
typedef enum onnxc_kind {
  ONNXC_KIND_TENSOR = 0,
  /* An ordered list of values (tensors or maps), all of one element dtype. */
  ONNXC_KIND_SEQUENCE = 1,
  /* keys: a 1-D INT64 or STRING tensor; values: a 1-D tensor of as many
   * elements. */
  ONNXC_KIND_MAP = 2,
  /* Only in signatures: an optional of elem_kind. */
  ONNXC_KIND_OPTIONAL = 3,
  /* A value: an optional holding nothing. */
  ONNXC_KIND_NONE = 4
} onnxc_kind;

typedef struct onnxc_tensor_sig {
  const char *name;    /* the ONNX graph input/output name */
  int32_t dtype;       /* onnxc_dtype; for other kinds 0 (UNDEFINED) = any */
  int32_t rank;        /* for other kinds -1 = unknown (dims NULL) */
  const int64_t *dims; /* rank entries; -1 marks a dynamic dim */
  const char *const *dim_params; /* rank entries; a name or NULL, or NULL */
  /* Version 2. For kinds other than TENSOR, dtype, rank, dims and dim_params
   * describe the innermost tensor: a sequence's element tensors, a map's
   * values. */
  int32_t kind;      /* onnxc_kind: TENSOR, SEQUENCE, MAP or OPTIONAL */
  int32_t elem_kind; /* SEQUENCE: TENSOR or MAP; OPTIONAL: TENSOR or
                        SEQUENCE; else TENSOR (0) */
  int32_t key_dtype; /* maps and sequences of maps: the key dtype, else 0 */
} onnxc_tensor_sig;

typedef void (*onnxc_entry_fn)(void *const *inputs, void *outputs);

typedef struct onnxc_model_desc {
  uint32_t abi_version; /* ONNXC_ABI_VERSION */
  const char *name;     /* the model (graph) name */
  int32_t num_inputs;
  int32_t num_outputs;
  const onnxc_tensor_sig *inputs;
  const onnxc_tensor_sig *outputs;
  onnxc_entry_fn entry;
} onnxc_model_desc;

/*===------------------------------------------------------------------------===
 * Errors.
 *===------------------------------------------------------------------------===*/
typedef enum onnxc_status {
  ONNXC_OK = 0,
  ONNXC_ERROR_INVALID_ARGUMENT = 1, /* wrong count, dtype or shape */
  ONNXC_ERROR_IO = 2,               /* file cannot be read or written */
  ONNXC_ERROR_FORMAT = 3,           /* malformed .pb or .npy */
  ONNXC_ERROR_UNSUPPORTED = 4,      /* e.g. string tensors, big-endian .npy */
  ONNXC_ERROR_OUT_OF_MEMORY = 5,
  ONNXC_ERROR_INTERNAL = 6,
  ONNXC_ERROR_DEVICE = 7 /* no usable GPU, or a GPU error */
} onnxc_status;

/* The message of the last error on this thread ("" if none). */
const char *onnxc_last_error(void);
/* The status of the last error on this thread (ONNXC_OK if none): how
 * functions that return a pointer report what kind of error they hit. */
onnxc_status onnxc_last_status(void);
/* Name of a dtype as numpy spells it ("float32", "int64", "bool", ...; the
 * types numpy lacks as ml_dtypes does: "float8_e4m3fn", "int4", ...). */
const char *onnxc_dtype_name(int32_t dtype);
/* Size of one element in memory in bytes (1 for the 2- and 4-bit types, 8
 * for a string's handle); 0 for unknown dtypes. */
size_t onnxc_dtype_size(int32_t dtype);

/*===------------------------------------------------------------------------===
 * Tensors: dense, row-major, owning or borrowing their data.
 *===------------------------------------------------------------------------===*/
#define ONNXC_MAX_RANK 16

typedef struct onnxc_tensor onnxc_tensor;

/* A zero-filled tensor. NULL on error. */
onnxc_tensor *onnxc_tensor_create(int32_t dtype, int32_t rank,
                                  const int64_t *dims);
/* A tensor over caller-owned `data` (not copied, never freed by the runtime);
 * not for strings. */
onnxc_tensor *onnxc_tensor_wrap(int32_t dtype, int32_t rank,
                                const int64_t *dims, void *data);
/* Frees a value of any kind, with what it holds. */
void onnxc_tensor_free(onnxc_tensor *tensor);

/* On a value that is not a tensor (below), dtype is its element dtype (a
 * sequence's elements', a map's values'), rank and numel 0, nbytes 0, dims
 * and data NULL. */
int32_t onnxc_tensor_dtype(const onnxc_tensor *tensor);
int32_t onnxc_tensor_rank(const onnxc_tensor *tensor);
const int64_t *onnxc_tensor_dims(const onnxc_tensor *tensor);
int64_t onnxc_tensor_numel(const onnxc_tensor *tensor);
size_t onnxc_tensor_nbytes(const onnxc_tensor *tensor);
void *onnxc_tensor_data(const onnxc_tensor *tensor);
/* The tensor's name (from a .pb file or set by the caller); "" if none. */
const char *onnxc_tensor_name(const onnxc_tensor *tensor);
onnxc_status onnxc_tensor_set_name(onnxc_tensor *tensor, const char *name);

/* A STRING tensor holding copies of `values`: numel strings of sizes[i]
 * bytes each (any bytes; NULL sizes: NUL-terminated strings). A tensor of
 * `onnxc_tensor_create(ONNXC_DTYPE_STRING, ...)` holds empty strings. */
onnxc_tensor *onnxc_tensor_create_strings(int32_t rank, const int64_t *dims,
                                          const char *const *values,
                                          const size_t *sizes);
/* String `index` (row-major) of a STRING tensor, NUL-terminated, its byte
 * count in *size (may be NULL); owned by the tensor. NULL on error. */
const char *onnxc_tensor_string(const onnxc_tensor *tensor, int64_t index,
                                size_t *size);

/* Reads a .pb (ONNX TensorProto) or .npy file, chosen by content. */
onnxc_tensor *onnxc_tensor_read(const char *path);
/* Writes a TensorProto (raw_data) named `name` (NULL: the tensor's name);
 * a value that is not a tensor as its own kind's proto (onnxc_value_write_pb).
 * The file is written under a temporary name and renamed into place. */
onnxc_status onnxc_tensor_write_pb(const onnxc_tensor *tensor, const char *path,
                                   const char *name);
onnxc_status onnxc_tensor_write_npy(const onnxc_tensor *tensor,
                                    const char *path);

/*===------------------------------------------------------------------------===
 * Values that are not tensors. One object type holds every value: an
 * onnxc_tensor of kind SEQUENCE, MAP or NONE (onnxc_value_kind), freed with
 * onnxc_tensor_free with everything it holds. Sequences hold tensors or maps
 * (not sequences); all of a sequence's elements have its element dtype.
 *===------------------------------------------------------------------------===*/

/* The onnxc_kind of `value`: TENSOR, SEQUENCE, MAP or NONE; -1 if NULL. */
int32_t onnxc_value_kind(const onnxc_tensor *value);
/* An empty sequence of `elem_dtype` (UNDEFINED: the first item's). */
onnxc_tensor *onnxc_sequence_create(int32_t elem_dtype);
/* Appends a tensor or map `item` whose dtype is the sequence's element
 * dtype (and whose kind is that of the items already there); takes
 * ownership of `item` on success. */
onnxc_status onnxc_sequence_append(onnxc_tensor *seq, onnxc_tensor *item);
/* The number of items; -1 (and an error) if `seq` is not a sequence. */
int64_t onnxc_sequence_length(const onnxc_tensor *seq);
/* Item `index` (0-based), owned by the sequence; NULL on error. */
const onnxc_tensor *onnxc_sequence_at(const onnxc_tensor *seq, int64_t index);
/* A map of `keys` (a 1-D INT64 or STRING tensor) to `values` (a 1-D tensor
 * of as many elements); takes ownership of both on success. */
onnxc_tensor *onnxc_map_create(onnxc_tensor *keys, onnxc_tensor *values);
const onnxc_tensor *onnxc_map_keys(const onnxc_tensor *map);
const onnxc_tensor *onnxc_map_values(const onnxc_tensor *map);
/* A NONE value: an optional holding nothing. */
onnxc_tensor *onnxc_none_create(void);
/* Reads a .pb file holding a TensorProto (kind TENSOR), SequenceProto
 * (SEQUENCE), MapProto (MAP) or OptionalProto (OPTIONAL: gives a NONE value
 * or the value it holds). A MapProto's values (one scalar TensorProto per
 * key, as onnx.numpy_helper.from_dict writes them) become one 1-D tensor. */
onnxc_tensor *onnxc_value_read_pb(const char *path, int32_t kind);
/* Writes `value` as the proto of `kind`: TENSOR, SEQUENCE or MAP as the
 * value's own kind; OPTIONAL wraps the value (NULL or NONE: nothing) in an
 * OptionalProto. Written atomically, as onnxc_tensor_write_pb. */
onnxc_status onnxc_value_write_pb(const onnxc_tensor *value, const char *path,
                                  int32_t kind);

/*===------------------------------------------------------------------------===
 * Thread pool.
 *===------------------------------------------------------------------------===*/
typedef struct onnxc_threadpool onnxc_threadpool;
typedef void (*onnxc_range_fn)(void *ctx, int64_t begin, int64_t end);

/* A pool of `num_threads` workers including the caller (<= 0: all cores). */
onnxc_threadpool *onnxc_threadpool_create(int num_threads);
void onnxc_threadpool_destroy(onnxc_threadpool *pool);
int onnxc_threadpool_size(const onnxc_threadpool *pool);
/* Splits [0, n) into contiguous chunks and runs fn on each, blocking until
 * all are done. A NULL pool runs fn(ctx, 0, n) on the caller. */
void onnxc_parallel_for(onnxc_threadpool *pool, int64_t n, onnxc_range_fn fn,
                        void *ctx);
/* The pool of the session whose model is running on this thread (set by
 * onnxc_session_run around the entry call), or NULL: compiled models pass it
 * to onnxc_parallel_for. Chunks that run on workers see NULL, so nested
 * parallel loops run serially. */
onnxc_threadpool *onnxc_current_threadpool(void);

/*===------------------------------------------------------------------------===
 * Sessions.
 *===------------------------------------------------------------------------===*/
typedef struct onnxc_session onnxc_session;

/* A session over a compiled model; num_threads <= 0 means all cores. */
onnxc_session *onnxc_session_create(const onnxc_model_desc *model,
                                    int num_threads);
void onnxc_session_free(onnxc_session *session);
const onnxc_model_desc *onnxc_session_model(const onnxc_session *session);
/* The session's thread pool (owned by the session). */
onnxc_threadpool *onnxc_session_threadpool(const onnxc_session *session);

/* Checks `inputs` against the signature (count, non-null, kind, dtype, rank,
 * static dims and equal sizes for dims sharing a dim_param, within an input
 * and across inputs), runs the model, checks its outputs' static dims too
 * (a mismatch is ONNXC_ERROR_INTERNAL; an output's dim_param is the model's
 * claim and not checked, as in ONNX Runtime), and stores num_outputs new
 * tensors (named after the graph outputs) in `outputs`; the caller frees
 * them with onnxc_tensor_free. On error nothing is stored. A session may be
 * used by several threads at once; onnxc_last_error() is per thread.
 * Inputs of other kinds: a SEQUENCE or MAP input takes a value of that kind
 * whose dtype is the signature's (unless either is UNDEFINED) and whose
 * element tensors have its rank (unless -1); an OPTIONAL input takes NULL,
 * a NONE value or a value of its elem_kind. Outputs of other kinds are deep
 * copies, owned by the caller; an OPTIONAL output holding nothing is a NONE
 * value. */
onnxc_status onnxc_session_run(onnxc_session *session,
                               onnxc_tensor *const *inputs, int32_t num_inputs,
                               onnxc_tensor **outputs);

/*===------------------------------------------------------------------------===
 * Profiling (models compiled with onnx-compile --profile).
 *===------------------------------------------------------------------------===*/

/* Starts timing each node of every profiled model that runs in this
 * process, until onnxc_profile_stop, which writes the events as Chrome trace
 * JSON to `path` (chrome://tracing, Perfetto) and a table of the nodes by
 * total time to `path`.txt. Setting ONNXC_PROFILE=PATH does the same from
 * the first onnxc_session_create, the files written at exit. A model
 * compiled without --profile records nothing. */
onnxc_status onnxc_profile_start(const char *path);
onnxc_status onnxc_profile_stop(void);
/* Called by profiled models around each node's work, `site` naming it. */
void onnxc_profile_enter(const char *site);
void onnxc_profile_exit(const char *site);

/*===------------------------------------------------------------------------===
 * String operations that compiled models call on string handles, one
 * element at a time (handle 0 is ""). The strings they make live until the
 * run that made them ends; onnxc_session_run copies the output strings.
 *===------------------------------------------------------------------------===*/
#ifndef __cplusplus
#include <stdbool.h>
#endif
bool onnxc_string_equal(int64_t a, int64_t b);
int64_t onnxc_string_concat(int64_t a, int64_t b);
/* StringSplit: the parts of `s` split at `delim` ("" or 0: at whitespace
 * runs), at most `maxsplit` splits (negative: no limit); part `index`, or
 * "" past the last. */
int64_t onnxc_string_split_count(int64_t s, int64_t delim, int64_t maxsplit);
int64_t onnxc_string_split_part(int64_t s, int64_t delim, int64_t maxsplit,
                                int64_t index);
/* Whether `s` is one of the `count` records at `table` (a constant string
 * table: records back to back), ignoring ASCII case unless case_sensitive. */
bool onnxc_string_in_table(int64_t s, int64_t table, int64_t count,
                           bool case_sensitive);
/* `s` with its ASCII letters in upper case (upper != 0) or lower case. */
int64_t onnxc_string_change_case(int64_t s, int64_t upper);
/* Cast: a float as the shortest decimal that reads back to it (as a float
 * when is_float32), written as numpy writes it ("0.1", "1e-05", "100.0",
 * "nan", "-inf"); an integer as its decimal; a string as the number that
 * strtod / strtoll (strtoull) reads from it, 0 where none is read. */
int64_t onnxc_string_from_float(double value, int64_t is_float32);
int64_t onnxc_string_from_int(int64_t value, int64_t is_unsigned);
double onnxc_string_to_float(int64_t s);
int64_t onnxc_string_to_int(int64_t s, int64_t is_unsigned);
/* RegexFullMatch (libonnxc_regex.a, which the driver links with -lre2
 * -lstdc++ into the models that use it): the RE2 regex of the string
 * `pattern`, compiled once per process (0 when it is not RE2 syntax, which
 * the compiler already rejects), and whether all of `s` matches `regex`
 * (false for regex 0). */
int64_t onnxc_regex_compile(int64_t pattern);
bool onnxc_regex_full_match(int64_t regex, int64_t s);
/* ImageDecoder (libonnxc_image.a, which the driver links with the image
 * libraries into the models that use it): the [H, W, C] uint8 tensor value
 * (in the run's arena) of the image whose bytes the uint8 tensor value
 * `encoded` holds, C = 3 for `format` 0 (RGB) and 1 (BGR), 1 for 2
 * (Grayscale); [0, 0, C] when it does not decode. */
int64_t onnxc_image_decode(int64_t encoded, int64_t format);

/*===------------------------------------------------------------------------===
 * Value operations that compiled models call (lib/Runtime/Values.c). Every
 * value is an int64 handle of an onnxc_tensor object. The objects they make
 * live in the run's arena, as the strings above do, and never change once
 * returned (sequence operations return new sequences, which may share
 * items). A user error at run time (a position out of range, a rank or
 * dtype mismatch, a NONE where a value is needed) prints
 * `onnxc: <Op>: <message>` to stderr and calls abort(), as a compiled
 * cf.assert does. An unranked memref argument is passed as `(rank, desc)`,
 * desc pointing at a ranked memref descriptor (strides in elements, maybe 0
 * for broadcasts); the element size comes from the dtype argument (STRING
 * elements are string handles, copied as such).
 *===------------------------------------------------------------------------===*/
/* A new tensor holding a contiguous copy of the memref. */
int64_t onnxc_value_from_memref(int64_t dtype, int64_t rank, void *desc);
/* Dim `axis` of a tensor value of rank `rank`. */
int64_t onnxc_value_dim(int64_t value, int64_t axis, int64_t rank,
                        const char *op);
/* Copies a tensor value into the memref (allocated by the caller with the
 * value's shape; strided writes allowed). */
void onnxc_value_to_memref(int64_t value, int64_t dtype, int64_t rank,
                           void *desc, const char *op);
/* The value an optional holds (its handle); stops the run when it holds
 * nothing. */
int64_t onnxc_optional_value(int64_t optional, const char *op);
int64_t onnxc_seq_empty(int64_t elem_dtype);
/* SequenceInsert: pos in [-n, n] (negative from the end); has_pos 0: at the
 * back. */
int64_t onnxc_seq_insert(int64_t seq, int64_t item, int64_t pos,
                         int64_t has_pos);
/* SequenceErase: pos in [-n, n-1]; has_pos 0: the last. */
int64_t onnxc_seq_erase(int64_t seq, int64_t pos, int64_t has_pos);
/* SequenceAt: pos in [-n, n-1]; the item's handle. */
int64_t onnxc_seq_at(int64_t seq, int64_t pos);
int64_t onnxc_seq_length(int64_t seq);
/* SplitToSequence: `input` a tensor value; `split` 0 (absent: pieces of 1,
 * the axis dropped unless keepdims) or a tensor value, a scalar (pieces of
 * that size, the last smaller) or a 1-D list of sizes summing to the dim. */
int64_t onnxc_seq_split(int64_t input, int64_t split, int64_t axis,
                        int64_t keepdims);
/* ConcatFromSequence: dim d of the result (new_axis 1: the items stacked
 * on a new axis, a negative axis counting from the end of the result), and
 * the result itself into the memref. */
int64_t onnxc_seq_concat_dim(int64_t seq, int64_t axis, int64_t new_axis,
                             int64_t d);
void onnxc_seq_concat(int64_t seq, int64_t axis, int64_t new_axis,
                      int64_t dtype, int64_t rank, void *desc);
/* ZipMap: `probs` a float tensor [N, C] or [C], `labels` a 1-D INT64 or
 * STRING tensor of C labels; a sequence of N maps {label -> prob}. */
int64_t onnxc_zipmap(int64_t probs, int64_t labels);
/* DictVectorizer: `value` a map or a sequence of N maps, `vocabulary` a 1-D
 * INT64 or STRING tensor value of V keys; fills the [1 or N, V] memref with
 * each map's values in vocabulary order, 0 (or "") where a key is missing. */
void onnxc_dict_vectorize(int64_t value, int64_t vocabulary, int64_t dtype,
                          int64_t rank, void *desc);

/* The standalone executable's main, given the model it was linked with:
 *   OUT [--output-dir DIR] [--threads T] [--bench N] [--profile PATH]
 *       [--info] [INPUT ...] */
int onnxc_main(const onnxc_model_desc *model, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_RUNTIME_H */
