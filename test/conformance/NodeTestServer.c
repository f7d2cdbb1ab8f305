/*===- NodeTestServer.c - Runs compiled model libraries for the node tests -===*
 *
 * run_node_tests.py --server: one long-lived process per worker runs the
 * libraries that `onnx-compile --emit lib` wrote for each test, so that what
 * a process sets up once (the CUDA driver and the device's primary context,
 * for --target nvptx) is paid once per worker instead of once per test.
 *
 * Commands on stdin, one a line, fields separated by tabs; one reply line
 * per command on stdout, `ok` or `error: MESSAGE`:
 *
 *   load LIB SYMBOL      dlopen LIB (RTLD_NOW | RTLD_LOCAL: each library
 *                        keeps its own copy of the runtime) and find its
 *                        model descriptor SYMBOL
 *   run DIR INPUT...     run the loaded model as its executable would: the
 *                        library's onnxc_main with --output-dir DIR, so the
 *                        outputs are DIR/output_K.pb, written the same way
 *   unload               dlclose the loaded library
 *
 * The process ends at the end of its input. Anything else written to stdout
 * (by a model or the runtime) goes to stderr, which keeps the runtime's own
 * `error: ...` lines: the client reads it when the process dies.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "onnxc_runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*MainFn)(const onnxc_model_desc *, int, char **);
typedef const char *(*LastErrorFn)(void);

/// The loaded library: its handle, model and the runtime functions of its
/// own copy of the runtime.
typedef struct Loaded {
  void *handle;
  const onnxc_model_desc *model;
  MainFn main;
  LastErrorFn lastError;
} Loaded;

static FILE *replies;

/// Writes one reply line: `ok`, or `error: ` and `message` with its line
/// breaks and tabs made spaces.
static void reply(const char *message) {
  if (!message) {
    fputs("ok\n", replies);
  } else {
    fputs("error: ", replies);
    for (const char *c = message; *c; ++c)
      fputc(*c == '\n' || *c == '\r' || *c == '\t' ? ' ' : *c, replies);
    fputc('\n', replies);
  }
  fflush(replies);
  fflush(stderr);
}

static void unload(Loaded *lib) {
  if (lib->handle)
    dlclose(lib->handle);
  *lib = (Loaded){0};
}

/// Loads `path` and finds `symbol` in it; the error message, or NULL.
static const char *load(Loaded *lib, const char *path, const char *symbol) {
  static char message[1024];
  unload(lib);
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(message, sizeof(message), "cannot load the library: %s",
             dlerror());
    return message;
  }
  Loaded loaded = {handle, dlsym(handle, symbol), NULL, NULL};
  *(void **)&loaded.main = dlsym(handle, "onnxc_main");
  *(void **)&loaded.lastError = dlsym(handle, "onnxc_last_error");
  if (!loaded.model || !loaded.main || !loaded.lastError) {
    snprintf(message, sizeof(message), "%s lacks %s", path,
             !loaded.model  ? symbol
             : !loaded.main ? "onnxc_main"
                            : "onnxc_last_error");
    dlclose(handle);
    return message;
  }
  *lib = loaded;
  return NULL;
}

/// Runs the loaded model on `inputs`, writing DIR/output_K.pb; the error
/// message, or NULL.
static const char *run(Loaded *lib, char *dir, char **inputs, int numInputs) {
  static char message[1024];
  if (!lib->handle)
    return "no library loaded";
  char **argv = calloc((size_t)numInputs + 5, sizeof(char *));
  if (!argv)
    return "out of memory";
  static char program[] = "model", outputDir[] = "--output-dir",
              endOfOptions[] = "--";
  int argc = 0;
  argv[argc++] = program;
  argv[argc++] = outputDir;
  argv[argc++] = dir;
  argv[argc++] = endOfOptions;
  for (int i = 0; i < numInputs; ++i)
    argv[argc++] = inputs[i];
  int code = lib->main(lib->model, argc, argv);
  free(argv);
  if (code == 0)
    return NULL;
  const char *error = lib->lastError();
  if (error && *error)
    snprintf(message, sizeof(message), "%s", error);
  else
    snprintf(message, sizeof(message), "exit status %d", code);
  return message;
}

int main(void) {
  /* Replies go to the original stdout; stdout itself becomes stderr. */
  int fd = dup(STDOUT_FILENO);
  if (fd < 0 || !(replies = fdopen(fd, "w")) ||
      dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    perror("onnxc-node-test-server");
    return 1;
  }
  Loaded lib = {0};
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  char **fields = NULL;
  size_t fieldsCapacity = 0;
  while ((length = getline(&line, &capacity, stdin)) >= 0) {
    if (length > 0 && line[length - 1] == '\n')
      line[--length] = '\0';
    size_t numFields = 0;
    for (char *rest = line, *field; (field = strsep(&rest, "\t"));) {
      if (numFields == fieldsCapacity) {
        size_t grown = fieldsCapacity ? 2 * fieldsCapacity : 16;
        char **more = realloc(fields, grown * sizeof(char *));
        if (!more) {
          fputs("onnxc-node-test-server: out of memory\n", stderr);
          return 1;
        }
        fields = more;
        fieldsCapacity = grown;
      }
      fields[numFields++] = field;
    }
    const char *command = fields[0];
    if (strcmp(command, "load") == 0 && numFields == 3) {
      reply(load(&lib, fields[1], fields[2]));
    } else if (strcmp(command, "run") == 0 && numFields >= 2) {
      reply(run(&lib, fields[1], fields + 2, (int)numFields - 2));
    } else if (strcmp(command, "unload") == 0 && numFields == 1) {
      unload(&lib);
      reply(NULL);
    } else {
      reply("unknown command (expected load LIB SYMBOL, run DIR INPUT..., "
            "unload)");
    }
  }
  unload(&lib);
  free(fields);
  free(line);
  return 0;
}
