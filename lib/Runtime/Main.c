/*===- Main.c - Command line of a compiled model's executable --------------===*
 *
 *   OUT [--output-dir DIR] [--threads T] [--bench N] [--profile PATH] [--info]
 *       [INPUT ...]
 *
 * Reads the inputs (.pb or .npy, in the model's input order; a sequence, map
 * or optional input from a .pb SequenceProto, MapProto or OptionalProto),
 * runs the model and writes DIR/output_K.pb (for those kinds, their proto).
 *Exit status: 0 on success, 1 on an error (one "error: ..." line on stderr, no
 *output file left behind), 2 on a usage error.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700

#include "RuntimeInternal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { ExitOk = 0, ExitError = 1, ExitUsage = 2 };

typedef struct {
  const char *outputDir;
  int threads;
  long bench;          // 0: no benchmark
  const char *profile; // NULL: no profile
  bool info;
  int numInputs;
  char **inputs;
} Options;

static void printUsage(FILE *out, const char *prog) {
  fprintf(out,
          "usage: %s [--output-dir DIR] [--threads T] [--bench N] "
          "[--profile PATH] [--info] [INPUT ...]\n",
          prog);
}

static void printHelp(const char *prog) {
  printUsage(stdout, prog);
  fputs("\nRuns the compiled model on INPUT files (.pb TensorProto or .npy, in "
        "the model's\ninput order; .pb SequenceProto, MapProto or "
        "OptionalProto for sequence, map\nand optional inputs) and writes "
        "DIR/output_K.pb for each output K.\n\n"
        "options:\n"
        "  --output-dir DIR  where to write the outputs (default: .)\n"
        "  --threads T       threads to run with, 0 for all cores "
        "(default: 1)\n"
        "  --bench N         time N runs after a warm-up run and print JSON\n"
        "  --profile PATH    time each node (model compiled with --profile) "
        "over the\n                    runs (the timed ones with --bench): "
        "Chrome trace JSON\n                    to PATH, a table to "
        "PATH.txt\n"
        "  --info            print the model signature as JSON and exit\n"
        "  --help            print this help and exit\n",
        stdout);
}

static int usageError(const char *prog, const char *fmt, const char *arg) {
  fputs("error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  printUsage(stderr, prog);
  return ExitUsage;
}

/// Parses a whole decimal number in [min, max].
static bool parseLong(const char *text, long min, long max, long *value) {
  if (!text || !*text)
    return false;
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || v < min || v > max)
    return false;
  *value = v;
  return true;
}

/// Parses argv into `opts`; returns -1 to go on, or the exit code.
static int parseArgs(int argc, char **argv, Options *opts) {
  const char *prog = argc > 0 && argv[0] ? argv[0] : "model";
  bool optionsDone = false;
  for (int i = 1; i < argc; ++i) {
    char *arg = argv[i];
    if (optionsDone || arg[0] != '-' || arg[1] == '\0') {
      opts->inputs[opts->numInputs++] = arg;
      continue;
    }
    if (strcmp(arg, "--") == 0) {
      optionsDone = true;
      continue;
    }
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      printHelp(prog);
      return ExitOk;
    }
    if (strcmp(arg, "--info") == 0) {
      opts->info = true;
      continue;
    }
    static const char *const valued[] = {"--output-dir", "--threads", "--bench",
                                         "--profile"};
    int which = -1;
    const char *value = NULL;
    for (int k = 0; k < 4; ++k) {
      size_t len = strlen(valued[k]);
      if (strncmp(arg, valued[k], len) != 0)
        continue;
      if (arg[len] == '=') {
        value = arg + len + 1;
      } else if (arg[len] == '\0') {
        if (i + 1 >= argc)
          return usageError(prog, "option '%s' needs a value", arg);
        value = argv[++i];
      } else {
        continue;
      }
      which = k;
      break;
    }
    if (which < 0)
      return usageError(prog, "unknown option '%s'", arg);
    long number;
    switch (which) {
    case 0:
      if (!*value)
        return usageError(prog, "empty output directory%s", "");
      opts->outputDir = value;
      break;
    case 1:
      if (!parseLong(value, 0, 4096, &number))
        return usageError(prog,
                          "--threads needs a whole number in [0, 4096], not "
                          "'%s'",
                          value);
      opts->threads = (int)number;
      break;
    case 3:
      if (!*value)
        return usageError(prog, "empty profile path%s", "");
      opts->profile = value;
      break;
    default:
      if (!parseLong(value, 1, 100000000, &number))
        return usageError(prog,
                          "--bench needs a whole number in [1, 100000000], "
                          "not '%s'",
                          value);
      opts->bench = number;
      break;
    }
  }
  return -1;
}

/// Prints `s` as a JSON string.
static void printJsonString(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", out);
    else if (*p == '\t')
      fputs("\\t", out);
    else if (*p < 0x20)
      fprintf(out, "\\u%04x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

static void printJsonSigs(FILE *out, const onnxc_tensor_sig *sigs,
                          int32_t count) {
  fputc('[', out);
  for (int32_t i = 0; i < count; ++i) {
    const onnxc_tensor_sig *sig = &sigs[i];
    fputs(i ? ", {\"name\": " : "{\"name\": ", out);
    printJsonString(out, sig->name);
    // Other kinds say so; dtype and shape are then their innermost
    // tensors' (a shape of null: any rank).
    if (sig->kind != ONNXC_KIND_TENSOR) {
      fputs(", \"kind\": ", out);
      printJsonString(out, onnxcKindName(sig->kind));
      fputs(", \"elem_kind\": ", out);
      printJsonString(out, onnxcKindName(sig->elem_kind));
      if (sig->key_dtype) {
        fputs(", \"key_dtype\": ", out);
        printJsonString(out, onnxc_dtype_name(sig->key_dtype));
      }
    }
    fputs(", \"dtype\": ", out);
    printJsonString(out, onnxc_dtype_name(sig->dtype));
    if (sig->rank < 0) {
      fputs(", \"shape\": null, \"dim_params\": null}", out);
      continue;
    }
    fputs(", \"shape\": [", out);
    for (int32_t d = 0; d < sig->rank; ++d)
      fprintf(out, "%s%lld", d ? ", " : "", (long long)sig->dims[d]);
    fputs("], \"dim_params\": [", out);
    for (int32_t d = 0; d < sig->rank; ++d) {
      fputs(d ? ", " : "", out);
      const char *param = sig->dim_params ? sig->dim_params[d] : NULL;
      if (param && *param)
        printJsonString(out, param);
      else
        fputs("null", out);
    }
    fputs("]}", out);
  }
  fputc(']', out);
}

static void printInfo(const onnxc_model_desc *model) {
  fputs("{\"name\": ", stdout);
  printJsonString(stdout, model->name);
  fprintf(stdout,
          ", \"abi_version\": %u, \"inputs\": ", (unsigned)model->abi_version);
  printJsonSigs(stdout, model->inputs, model->num_inputs);
  fputs(", \"outputs\": ", stdout);
  printJsonSigs(stdout, model->outputs, model->num_outputs);
  fputs("}\n", stdout);
  fflush(stdout);
}

/// Creates `dir` and its missing parents.
static onnxc_status makeDirs(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return ONNXC_OK;
    return onnxcSetError(ONNXC_ERROR_IO,
                         "output directory '%s' is not a directory", dir);
  }
  size_t len = strlen(dir);
  char *path = malloc(len + 1);
  if (!path)
    return onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
  memcpy(path, dir, len + 1);
  for (size_t i = 1; i <= len; ++i) {
    if (path[i] != '/' && path[i] != '\0')
      continue;
    char saved = path[i];
    path[i] = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      int err = errno;
      free(path);
      return onnxcSetError(ONNXC_ERROR_IO,
                           "cannot create output directory '%s': %s", dir,
                           strerror(err));
    }
    path[i] = saved;
  }
  free(path);
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return onnxcSetError(ONNXC_ERROR_IO,
                         "output directory '%s' is not a directory", dir);
  return ONNXC_OK;
}

/// True if the existing file `a` is the same file as `b`.
static bool sameFile(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
    return false;
  if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
    return true;
  char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
  bool same = ra && rb && strcmp(ra, rb) == 0;
  free(ra);
  free(rb);
  return same;
}

/// True if `path` starts with the .npy magic.
static bool isNpy(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  char magic[6];
  bool npy = fread(magic, 1, 6, f) == 6 && memcmp(magic, "\x93NUMPY", 6) == 0;
  fclose(f);
  return npy;
}

static double nowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void freeTensors(onnxc_tensor **tensors, int32_t count) {
  for (int32_t i = 0; i < count; ++i) {
    onnxc_tensor_free(tensors[i]);
    tensors[i] = NULL;
  }
}

/// Reads, runs and writes; sets the last error and returns its status on
/// failure.
static onnxc_status runModel(const onnxc_model_desc *model,
                             const Options *opts) {
  int32_t numIn = model->num_inputs, numOut = model->num_outputs;
  if (opts->numInputs != numIn)
    return onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                         "expected %d input%s but got %d", (int)numIn,
                         numIn == 1 ? "" : "s", opts->numInputs);
  const char *dir = opts->outputDir ? opts->outputDir : ".";
  onnxc_status status = makeDirs(dir);
  if (status != ONNXC_OK)
    return status;

  size_t dirLen = strlen(dir);
  bool slash = dirLen > 0 && dir[dirLen - 1] == '/';
  size_t pathSize = dirLen + 32;
  char **outPaths = calloc((size_t)numOut + 1, sizeof(char *));
  char **tmpPaths = calloc((size_t)numOut + 1, sizeof(char *));
  onnxc_tensor **inputs = calloc((size_t)numIn + 1, sizeof(onnxc_tensor *));
  onnxc_tensor **outputs = calloc((size_t)numOut + 1, sizeof(onnxc_tensor *));
  double *times =
      opts->bench ? calloc((size_t)opts->bench, sizeof(double)) : NULL;
  onnxc_session *session = NULL;
  bool haveOutputs = false;
  if (!outPaths || !tmpPaths || !inputs || !outputs ||
      (opts->bench && !times)) {
    status = onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  for (int32_t k = 0; k < numOut; ++k) {
    outPaths[k] = malloc(pathSize);
    if (!outPaths[k]) {
      status = onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
      goto done;
    }
    snprintf(outPaths[k], pathSize, "%s%soutput_%d.pb", dir, slash ? "" : "/",
             (int)k);
    for (int32_t i = 0; i < numIn; ++i) {
      if (sameFile(outPaths[k], opts->inputs[i])) {
        status = onnxcSetError(ONNXC_ERROR_INVALID_ARGUMENT,
                               "refusing to overwrite input %d '%s' with "
                               "output %d ('%s')",
                               (int)i, opts->inputs[i], (int)k, outPaths[k]);
        goto done;
      }
    }
  }

  for (int32_t i = 0; i < numIn; ++i) {
    const onnxc_tensor_sig *sig = &model->inputs[i];
    if (sig->kind == ONNXC_KIND_TENSOR) {
      inputs[i] = onnxc_tensor_read(opts->inputs[i]);
    } else if (isNpy(opts->inputs[i])) {
      status = onnxcSetError(ONNXC_ERROR_UNSUPPORTED,
                             "input %d '%s' is a %s: '%s' is a .npy file, "
                             "which cannot hold one (use a .pb file)",
                             (int)i, sig->name ? sig->name : "",
                             onnxcKindName(sig->kind), opts->inputs[i]);
      goto done;
    } else {
      // An OPTIONAL input's OptionalProto may hold nothing: a NONE value.
      inputs[i] = onnxc_value_read_pb(opts->inputs[i], sig->kind);
    }
    if (!inputs[i]) {
      status = onnxc_last_status() != ONNXC_OK ? onnxc_last_status()
                                               : ONNXC_ERROR_IO;
      goto done;
    }
  }
  session = onnxc_session_create(model, opts->threads);
  if (!session) {
    status = ONNXC_ERROR_INVALID_ARGUMENT;
    goto done;
  }
  // The run that produces the outputs doubles as the benchmark's warm-up.
  for (long iter = -1; iter < opts->bench; ++iter) {
    if (haveOutputs)
      freeTensors(outputs, numOut);
    if (opts->profile && iter == (opts->bench ? 0 : -1) &&
        (status = onnxc_profile_start(opts->profile)) != ONNXC_OK)
      goto done;
    double start = nowMs();
    status = onnxc_session_run(session, inputs, numIn, outputs);
    double elapsed = nowMs() - start;
    if (status != ONNXC_OK)
      goto done;
    haveOutputs = true;
    if (iter >= 0)
      times[iter] = elapsed;
  }
  if (opts->profile && (status = onnxc_profile_stop()) != ONNXC_OK)
    goto done;

  // Write every output under a temporary name first, so that a failure
  // leaves none of them behind.
  for (int32_t k = 0; k < numOut; ++k) {
    status =
        onnxcWriteValuePbTemp(outputs[k], outPaths[k], model->outputs[k].kind,
                              model->outputs[k].name, &tmpPaths[k]);
    if (status != ONNXC_OK)
      goto done;
  }
  for (int32_t k = 0; k < numOut; ++k) {
    status = onnxcCommitTemp(tmpPaths[k], outPaths[k]);
    free(tmpPaths[k]);
    tmpPaths[k] = NULL;
    if (status != ONNXC_OK) {
      for (int32_t j = 0; j < k; ++j)
        unlink(outPaths[j]);
      goto done;
    }
  }

  if (opts->bench) {
    qsort(times, (size_t)opts->bench, sizeof(double), compareDoubles);
    long n = opts->bench;
    double median =
        n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    printf("{\"median_ms\": %.6f, \"min_ms\": %.6f, \"iterations\": %ld, "
           "\"threads\": %d}\n",
           median, times[0], n,
           onnxc_threadpool_size(onnxc_session_threadpool(session)));
    fflush(stdout);
  }

done:
  if (tmpPaths)
    for (int32_t k = 0; k < numOut; ++k) {
      if (tmpPaths[k])
        unlink(tmpPaths[k]);
      free(tmpPaths[k]);
    }
  if (outPaths)
    for (int32_t k = 0; k < numOut; ++k)
      free(outPaths[k]);
  if (inputs)
    freeTensors(inputs, numIn);
  if (outputs && haveOutputs)
    freeTensors(outputs, numOut);
  onnxc_session_free(session);
  free(outPaths);
  free(tmpPaths);
  free(inputs);
  free(outputs);
  free(times);
  return status;
}

int onnxc_main(const onnxc_model_desc *model, int argc, char **argv) {
  Options opts = {NULL, 1, 0, NULL, false, 0, NULL};
  opts.inputs = calloc((size_t)(argc > 0 ? argc : 1), sizeof(char *));
  if (!opts.inputs) {
    fputs("error: out of memory\n", stderr);
    return ExitError;
  }
  int code = parseArgs(argc, argv, &opts);
  if (code < 0) {
    if (onnxcCheckModel(model) != ONNXC_OK) {
      code = ExitError;
    } else if (opts.info) {
      printInfo(model);
      code = ExitOk;
    } else {
      code = runModel(model, &opts) == ONNXC_OK ? ExitOk : ExitError;
    }
    if (code == ExitError) {
      fprintf(stderr, "error: %s\n", onnxc_last_error());
      fflush(stderr);
    }
  }
  free(opts.inputs);
  return code;
}
