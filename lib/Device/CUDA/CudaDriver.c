/*===- CudaDriver.c - The CUDA device backend (the nvptx target) -----------===*
 *
 * What a model compiled with --target nvptx calls: the mgpu* entry points
 * that MLIR's gpu-to-llvm lowering emits (module loading, kernel launches,
 * streams, memory), the buffer allocator of its host code (managed memory,
 * readable by kernels and host alike), onnxc_gpu_constant for its weights,
 * and onnxc_gpu_run, which wraps each run: it sets up the device, stages the
 * inputs into managed memory and hands back outputs in malloc'ed memory, as
 * the CPU build's ABI promises.
 *
 * Device memory is CUDA managed memory: host code between kernels (the loops
 * that stay on the host) reads and writes the same buffers. Kernels are
 * launched on one stream per thread without waiting between them; the
 * generated code waits (mgpuStreamSynchronize) before the host touches
 * memory. The inputs are copied in and the outputs out by the driver's copy
 * engine (cuMemcpy), so that their pages stay on the GPU instead of
 * migrating to the host and faulting back at the next run's first kernel.
 * Where the device supports it (concurrent managed access), the inputs are
 * prefetched to the GPU on the run's stream before the first kernel, and the
 * weights are advised read-mostly and prefetched once.
 *
 * The CUDA driver (libcuda.so.1) is loaded with dlopen on first use: nothing
 * links against CUDA, and a machine without a driver or a GPU gets an error
 * from onnxc_session_run (ONNXC_ERROR_DEVICE) instead of a crash. After a
 * failure the model's remaining launches are skipped and its buffers come
 * from malloc, so that the host code runs to its end harmlessly and the run
 * reports the first error.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "lib/Runtime/RuntimeInternal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// The GPU build's entry: runs `body` (the model) with its inputs staged
/// into GPU-visible memory and its outputs handed back in malloc'ed memory;
/// on a missing driver or GPU, or a GPU error, sets ONNXC_ERROR_DEVICE and
/// leaves the output descriptors zeroed. Generated code calls it and the
/// next one; they are declared here, beside their only definitions.
void onnxc_gpu_run(const onnxc_model_desc *model, onnxc_entry_fn body,
                   void *const *inputs, void *outputs);

/// A copy of the constant `bytes` at `host` that kernels can read, made once
/// per process.
void *onnxc_gpu_constant(const void *host, int64_t bytes);

/*===------------------------------------------------------------------------===
 * The slice of the CUDA driver API that onnxc uses, declared here (no CUDA
 * header at build time).
 *===------------------------------------------------------------------------===*/

typedef int CUresult; /* CUDA_SUCCESS = 0 */
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

enum {
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
  CU_MEM_ADVISE_SET_READ_MOSTLY = 1,
  CU_DEVICE_CPU = -1,
};

typedef struct CudaDriver {
  CUresult (*init)(unsigned);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetName)(char *, int, CUdevice);
  CUresult (*deviceGetAttribute)(int *, int, CUdevice);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*ctxSynchronize)(void);
  CUresult (*moduleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                               void **);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*streamCreate)(CUstream *, unsigned);
  CUresult (*streamSynchronize)(CUstream);
  CUresult (*memAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpy)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*memsetD32)(CUdeviceptr, unsigned, size_t);
  CUresult (*getErrorName)(CUresult, const char **);
  /* Optional (performance hints only): NULL when the driver lacks them or
     the device cannot prefetch managed memory. */
  CUresult (*memPrefetchAsync)(CUdeviceptr, size_t, CUdevice, CUstream);
  CUresult (*memAdvise)(CUdeviceptr, size_t, int, CUdevice);
} CudaDriver;

static CudaDriver cuda;
static CUcontext context;
static CUdevice device;
/// The device's name and compute capability (86 for 8.6).
static char deviceName[128];
static int deviceSM;
static pthread_once_t initOnce = PTHREAD_ONCE_INIT;
/// Why the GPU cannot be used ("" while it can).
static char initError[512];
/// ONNXC_GPU_SYNC=1: wait for each kernel before the next launch (to tell a
/// race between kernels and the host apart, and to time the difference).
static bool syncEachLaunch;
/// ONNXC_GPU_PROFILE=1: time each launch (waiting for it) and print each
/// kernel's share at exit (see the profile section below).
static bool profileLaunches;

/// The first GPU error of the run on this thread ("" if none).
static _Thread_local char runError[1024];
static _Thread_local CUstream threadStream;

static const char *cudaErrorName(CUresult result) {
  const char *name = NULL;
  if (cuda.getErrorName && cuda.getErrorName(result, &name) == 0 && name)
    return name;
  return "unknown CUDA error";
}

/// Records the first error of this run; later ones are consequences.
static void gpuFail(const char *what, CUresult result) {
  if (runError[0])
    return;
  snprintf(runError, sizeof(runError), "GPU error: %s failed: %s (%d)", what,
           cudaErrorName(result), result);
}

static bool gpuFailed(void) { return runError[0] != 0; }

/*===------------------------------------------------------------------------===
 * ONNXC_GPU_PROFILE=1: where a run's time goes. Each launch is timed on the
 * host from the launch to the end of the kernel (the stream is idle before
 * it: every launch waits), so a kernel's time includes its launch (a few
 * microseconds). The process's first run (module loading, weights moving to
 * the GPU) is left out. At exit, a table on stderr: per run, the wall time,
 * the kernels' sum, and each kernel (named after its ONNX node) costliest
 * first.
 *===------------------------------------------------------------------------===*/

typedef struct KernelTime {
  const char *name; /* NULL: an empty slot */
  uint64_t launches;
  double ms;
  unsigned grid, block; /* of the last launch, flattened */
} KernelTime;

enum { kProfileSlots = 8192 };
static pthread_mutex_t profileLock = PTHREAD_MUTEX_INITIALIZER;
static KernelTime *kernelTimes; /* kProfileSlots, by name hash */
static uint64_t startedRuns, profiledRuns;
static double profiledRunMs;
/// Whether this thread's run is one that the profile counts.
static _Thread_local bool profileThisRun;
/// The name of the function that mgpuModuleGetFunction last returned on this
/// thread: the generated code asks for a kernel right before launching it.
static _Thread_local const char *nextKernelName;

static double nowMs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void recordKernel(const char *name, double ms, unsigned grid,
                         unsigned block) {
  pthread_mutex_lock(&profileLock);
  if (!kernelTimes)
    kernelTimes = calloc(kProfileSlots, sizeof(KernelTime));
  uint64_t hash = 1469598103934665603ull;
  for (const char *c = name; *c; ++c)
    hash = (hash ^ (unsigned char)*c) * 1099511628211ull;
  for (size_t probe = 0; kernelTimes && probe < kProfileSlots; ++probe) {
    KernelTime *slot = &kernelTimes[(hash + probe) % kProfileSlots];
    if (slot->name && strcmp(slot->name, name) != 0)
      continue;
    slot->name = name;
    slot->launches += 1;
    slot->ms += ms;
    slot->grid = grid;
    slot->block = block;
    break;
  }
  pthread_mutex_unlock(&profileLock);
}

static int byTimeDescending(const void *a, const void *b) {
  double x = ((const KernelTime *)a)->ms, y = ((const KernelTime *)b)->ms;
  return x < y ? 1 : x > y ? -1 : 0;
}

static void printProfile(void) {
  pthread_mutex_lock(&profileLock);
  size_t used = 0;
  double kernelMs = 0;
  for (size_t i = 0; kernelTimes && i < kProfileSlots; ++i)
    if (kernelTimes[i].name) {
      kernelTimes[used++] = kernelTimes[i];
      kernelMs += kernelTimes[i].ms;
    }
  double runs = profiledRuns ? (double)profiledRuns : 1.0;
  fprintf(stderr,
          "onnxc GPU profile: %llu runs, per run %.3f ms, kernels %.3f ms "
          "in %zu kernels\n",
          (unsigned long long)profiledRuns, profiledRunMs / runs,
          kernelMs / runs, used);
  fprintf(stderr, "onnxc GPU profile: ms/run launches/run grid block kernel\n");
  if (used)
    qsort(kernelTimes, used, sizeof(KernelTime), byTimeDescending);
  for (size_t i = 0; i < used; ++i)
    fprintf(stderr, "onnxc GPU profile: %.4f %.1f %u %u %s\n",
            kernelTimes[i].ms / runs, (double)kernelTimes[i].launches / runs,
            kernelTimes[i].grid, kernelTimes[i].block, kernelTimes[i].name);
  pthread_mutex_unlock(&profileLock);
}

#define LOAD(field, name)                                                      \
  do {                                                                         \
    *(void **)&cuda.field = dlsym(lib, name);                                  \
    if (!cuda.field) {                                                         \
      snprintf(initError, sizeof(initError),                                   \
               "no usable NVIDIA GPU: libcuda.so.1 lacks %s (driver too old)", \
               name);                                                          \
      return;                                                                  \
    }                                                                          \
  } while (0)

static void initialize(void) {
  /* ONNXC_CUDA_DRIVER names another driver library (tests point it at a
     missing file to check the no-GPU path on any machine). */
  const char *sync = getenv("ONNXC_GPU_SYNC");
  syncEachLaunch = sync && sync[0] == '1';
  const char *profile = getenv("ONNXC_GPU_PROFILE");
  profileLaunches = profile && profile[0] == '1';
  if (profileLaunches)
    atexit(printProfile);
  const char *driver = getenv("ONNXC_CUDA_DRIVER");
  if (!driver || !driver[0])
    driver = "libcuda.so.1";
  void *lib = dlopen(driver, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(initError, sizeof(initError),
             "no usable NVIDIA GPU: cannot load the CUDA driver (%s): is the "
             "NVIDIA driver installed?",
             driver);
    return;
  }
  LOAD(init, "cuInit");
  LOAD(deviceGetCount, "cuDeviceGetCount");
  LOAD(deviceGet, "cuDeviceGet");
  LOAD(deviceGetName, "cuDeviceGetName");
  LOAD(deviceGetAttribute, "cuDeviceGetAttribute");
  LOAD(primaryCtxRetain, "cuDevicePrimaryCtxRetain");
  LOAD(ctxSetCurrent, "cuCtxSetCurrent");
  LOAD(ctxSynchronize, "cuCtxSynchronize");
  LOAD(moduleLoadDataEx, "cuModuleLoadDataEx");
  LOAD(moduleGetFunction, "cuModuleGetFunction");
  LOAD(launchKernel, "cuLaunchKernel");
  LOAD(streamCreate, "cuStreamCreate");
  LOAD(streamSynchronize, "cuStreamSynchronize");
  LOAD(memAllocManaged, "cuMemAllocManaged");
  LOAD(memAlloc, "cuMemAlloc_v2");
  LOAD(memFree, "cuMemFree_v2");
  LOAD(memcpy, "cuMemcpy");
  LOAD(memsetD32, "cuMemsetD32_v2");
  LOAD(getErrorName, "cuGetErrorName");

  CUresult result = cuda.init(0);
  if (result != 0) {
    snprintf(initError, sizeof(initError),
             "no usable NVIDIA GPU: cuInit failed: %s (%d)",
             cudaErrorName(result), result);
    return;
  }
  int count = 0;
  result = cuda.deviceGetCount(&count);
  if (result != 0 || count == 0) {
    snprintf(initError, sizeof(initError),
             "no usable NVIDIA GPU: the CUDA driver finds no device");
    return;
  }
  /* CUDA_VISIBLE_DEVICES picks the device; onnxc uses the first. */
  if ((result = cuda.deviceGet(&device, 0)) != 0 ||
      (result = cuda.primaryCtxRetain(&context, device)) != 0) {
    snprintf(initError, sizeof(initError),
             "no usable NVIDIA GPU: cannot create a context: %s (%d)",
             cudaErrorName(result), result);
    return;
  }
  int major = 0, minor = 0;
  if (cuda.deviceGetName(deviceName, (int)sizeof(deviceName), device) != 0)
    snprintf(deviceName, sizeof(deviceName), "device 0");
  if (cuda.deviceGetAttribute(
          &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) == 0 &&
      cuda.deviceGetAttribute(
          &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) == 0)
    deviceSM = 10 * major + minor;
  int concurrent = 0;
  if (cuda.deviceGetAttribute(&concurrent,
                              CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
                              device) == 0 &&
      concurrent) {
    *(void **)&cuda.memPrefetchAsync = dlsym(lib, "cuMemPrefetchAsync");
    *(void **)&cuda.memAdvise = dlsym(lib, "cuMemAdvise");
  }
}

/// Sets up the driver once and makes the context current on this thread;
/// false (with the reason in initError) when there is no usable GPU.
static bool gpuReady(void) {
  pthread_once(&initOnce, initialize);
  if (initError[0])
    return false;
  CUresult result = cuda.ctxSetCurrent(context);
  if (result != 0) {
    gpuFail("cuCtxSetCurrent", result);
    return false;
  }
  return true;
}

/*===------------------------------------------------------------------------===
 * Buffers: managed memory, with its bookkeeping on the host. A header inside
 * the buffer would be a host access to memory that kernels use: a page
 * migration each way at every allocation and free.
 *===------------------------------------------------------------------------===*/

/// A managed block: live (handed out) or free (kept for reuse by size, since
/// a model allocates the same buffers at every run and cuMemAllocManaged is
/// slow). `stream` is the stream whose kernels may still use a free block
/// (freed while that thread's run had launches in flight; the generated code
/// waits for them only before the host touches memory), NULL once nothing
/// can: such a block is reused by that stream alone until its run ends.
typedef struct Block {
  void *ptr;
  size_t size;
  CUstream stream;
} Block;

typedef struct BlockList {
  Block *blocks;
  size_t size, capacity;
} BlockList;

enum { kMaxFreeBlocks = 4096 };
static pthread_mutex_t blocksLock = PTHREAD_MUTEX_INITIALIZER;
static BlockList liveBlocks, freeBlocks;
/// Whether this thread's run has launched kernels it has not waited for.
static _Thread_local bool runInFlight;

/// Appends `block` to `list`; false when out of memory (blocksLock held).
static bool pushBlock(BlockList *list, Block block) {
  if (list->size == list->capacity) {
    size_t capacity = list->capacity ? 2 * list->capacity : 256;
    Block *grown = realloc(list->blocks, capacity * sizeof(Block));
    if (!grown)
      return false;
    list->blocks = grown;
    list->capacity = capacity;
  }
  list->blocks[list->size++] = block;
  return true;
}

/// Removes and returns the block at `i` of `list` (blocksLock held).
static Block removeBlock(BlockList *list, size_t i) {
  Block block = list->blocks[i];
  list->blocks[i] = list->blocks[--list->size];
  return block;
}

/// The live block at `ptr`, or -1 (a malloc'ed fallback buffer); blocksLock
/// held. The newest are searched first: buffers die young.
static ptrdiff_t findLive(const void *ptr) {
  for (size_t i = liveBlocks.size; i-- > 0;)
    if (liveBlocks.blocks[i].ptr == ptr)
      return (ptrdiff_t)i;
  return -1;
}

static void *gpuAlloc(size_t bytes) {
  size_t size = bytes ? bytes : 1;
  if (!gpuFailed() && !initError[0]) {
    void *ptr = NULL;
    pthread_mutex_lock(&blocksLock);
    for (size_t i = freeBlocks.size; i-- > 0 && !ptr;) {
      Block *block = &freeBlocks.blocks[i];
      if (block->size == size &&
          (!block->stream || block->stream == threadStream))
        ptr = removeBlock(&freeBlocks, i).ptr;
    }
    pthread_mutex_unlock(&blocksLock);
    if (!ptr) {
      CUdeviceptr fresh = 0;
      CUresult result =
          cuda.memAllocManaged(&fresh, size, CU_MEM_ATTACH_GLOBAL);
      if (result != 0)
        gpuFail("cuMemAllocManaged", result);
      ptr = (void *)(uintptr_t)fresh;
    }
    if (ptr) {
      pthread_mutex_lock(&blocksLock);
      bool tracked = pushBlock(&liveBlocks, (Block){ptr, size, NULL});
      pthread_mutex_unlock(&blocksLock);
      if (tracked)
        return ptr;
      cuda.memFree((CUdeviceptr)(uintptr_t)ptr);
      snprintf(runError, sizeof(runError), "out of memory (host bookkeeping)");
    }
  }
  /* After a GPU error the remaining kernels are skipped: zeroed buffers keep
     the host code that reads what they would have written (sizes, loop
     bounds) small and harmless until the run reports the error. */
  void *host = calloc(1, size);
  if (!host) {
    /* The generated code cannot take a null buffer. */
    if (gpuFailed())
      fprintf(stderr, "error: %s\n", runError);
    else
      fprintf(stderr, "error: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return host;
}

static void gpuRelease(void *ptr) {
  if (!ptr)
    return;
  pthread_mutex_lock(&blocksLock);
  ptrdiff_t live = findLive(ptr);
  if (live < 0) {
    pthread_mutex_unlock(&blocksLock);
    free(ptr);
    return;
  }
  Block block = removeBlock(&liveBlocks, (size_t)live);
  block.stream = runInFlight ? threadStream : NULL;
  bool kept = freeBlocks.size < kMaxFreeBlocks && pushBlock(&freeBlocks, block);
  pthread_mutex_unlock(&blocksLock);
  /* cuMemFree waits for the kernels that may still use the block. */
  if (!kept)
    cuda.memFree((CUdeviceptr)(uintptr_t)ptr);
}

/// This thread's launches are done: the blocks it freed meanwhile are free
/// for every thread.
static void releaseStreamBlocks(void) {
  runInFlight = false;
  pthread_mutex_lock(&blocksLock);
  for (size_t i = 0; i < freeBlocks.size; ++i)
    if (freeBlocks.blocks[i].stream == threadStream)
      freeBlocks.blocks[i].stream = NULL;
  pthread_mutex_unlock(&blocksLock);
}

/// Moves the buffer `ptr` (from gpuAlloc) to `where` (the device or
/// CU_DEVICE_CPU), ordered on `stream`: a hint, so failures are ignored, and
/// buffers of the malloc fallback are left alone.
static void prefetch(const void *ptr, CUdevice where, CUstream stream) {
  if (!cuda.memPrefetchAsync || !ptr || gpuFailed())
    return;
  pthread_mutex_lock(&blocksLock);
  ptrdiff_t live = findLive(ptr);
  size_t size = live < 0 ? 0 : liveBlocks.blocks[live].size;
  pthread_mutex_unlock(&blocksLock);
  if (size)
    (void)cuda.memPrefetchAsync((CUdeviceptr)(uintptr_t)ptr, size, where,
                                stream);
}

/* The allocator of the host code (finalize-memref-to-llvm with
   use-generic-functions). */
void *_mlir_memref_to_llvm_alloc(size_t bytes) { return gpuAlloc(bytes); }
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t bytes) {
  /* Managed memory is 256-byte aligned; malloc's fallback 16. */
  (void)alignment;
  return gpuAlloc(bytes);
}
void _mlir_memref_to_llvm_free(void *ptr) { gpuRelease(ptr); }

/*===------------------------------------------------------------------------===
 * Constants: a managed copy of each constant global, made once.
 *===------------------------------------------------------------------------===*/

typedef struct ConstantCopy {
  const void *host;
  void *copy;
} ConstantCopy;

static pthread_mutex_t constantsLock = PTHREAD_MUTEX_INITIALIZER;
static ConstantCopy *constants;
static size_t numConstants, constantsCapacity;

void *onnxc_gpu_constant(const void *host, int64_t bytes) {
  if (gpuFailed() || initError[0])
    return (void *)host;
  pthread_mutex_lock(&constantsLock);
  void *copy = NULL;
  for (size_t i = 0; i < numConstants && !copy; ++i)
    if (constants[i].host == host)
      copy = constants[i].copy;
  if (!copy) {
    CUdeviceptr ptr = 0;
    CUresult result = cuda.memAllocManaged(&ptr, bytes > 0 ? (size_t)bytes : 1,
                                           CU_MEM_ATTACH_GLOBAL);
    if (result != 0) {
      pthread_mutex_unlock(&constantsLock);
      gpuFail("cuMemAllocManaged (constants)", result);
      return (void *)host;
    }
    copy = (void *)(uintptr_t)ptr;
    /* Without concurrent managed access the host may not touch managed
       memory while kernels run, and launches no longer wait one by one. */
    if (!cuda.memAdvise)
      (void)cuda.ctxSynchronize();
    memcpy(copy, host, (size_t)bytes);
    /* Weights: read-only copies may live on the device and the host alike. */
    if (cuda.memAdvise && bytes > 0) {
      (void)cuda.memAdvise(ptr, (size_t)bytes, CU_MEM_ADVISE_SET_READ_MOSTLY,
                           device);
      (void)cuda.memPrefetchAsync(ptr, (size_t)bytes, device, NULL);
    }
    if (numConstants == constantsCapacity) {
      size_t capacity = constantsCapacity ? 2 * constantsCapacity : 64;
      ConstantCopy *grown = realloc(constants, capacity * sizeof(*grown));
      if (!grown) {
        pthread_mutex_unlock(&constantsLock);
        return copy; /* used, not cached */
      }
      constants = grown;
      constantsCapacity = capacity;
    }
    constants[numConstants++] = (ConstantCopy){host, copy};
  }
  pthread_mutex_unlock(&constantsLock);
  return copy;
}

/*===------------------------------------------------------------------------===
 * The mgpu* entry points of MLIR's GPU lowering.
 *===------------------------------------------------------------------------===*/

typedef struct LoadedModule {
  const void *data;
  CUmodule module;
} LoadedModule;

static pthread_mutex_t modulesLock = PTHREAD_MUTEX_INITIALIZER;
static LoadedModule loadedModules[16];
static size_t numLoadedModules;

/// The XY of the ".target sm_XY" of the PTX text `data`, 0 if none.
static int ptxTargetSM(const char *data) {
  const char *target = strstr(data, ".target sm_");
  return target ? atoi(target + strlen(".target sm_")) : 0;
}

/// The module of `data` (PTX or cubin), loaded once per process: the lowered
/// code loads and unloads it around every launch.
static CUmodule loadModule(const void *data, int optLevel) {
  if (gpuFailed())
    return NULL;
  /* PTX runs on its target and newer GPUs: say so rather than pass on the
     JIT's error. */
  int targetSM = ptxTargetSM(data);
  if (deviceSM && targetSM > deviceSM) {
    snprintf(runError, sizeof(runError),
             "GPU error: the kernels are for sm_%d, but the GPU (%s) is "
             "sm_%d: compile with --gpu sm_%d or older",
             targetSM, deviceName, deviceSM, deviceSM);
    return NULL;
  }
  pthread_mutex_lock(&modulesLock);
  CUmodule module = NULL;
  for (size_t i = 0; i < numLoadedModules && !module; ++i)
    if (loadedModules[i].data == data)
      module = loadedModules[i].module;
  if (!module) {
    char log[4096] = "";
    int options[3] = {CU_JIT_ERROR_LOG_BUFFER,
                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                      CU_JIT_OPTIMIZATION_LEVEL};
    void *values[3] = {log, (void *)(uintptr_t)sizeof(log),
                       (void *)(uintptr_t)(optLevel < 0 ? 4 : optLevel)};
    CUresult result = cuda.moduleLoadDataEx(&module, data, 3, options, values);
    if (result != 0) {
      module = NULL;
      gpuFail("loading the kernels (cuModuleLoadDataEx)", result);
      if (log[0]) {
        for (char *c = log; *c; ++c)
          if (*c == '\n')
            *c = ' ';
        size_t used = strlen(runError);
        snprintf(runError + used, sizeof(runError) - used, ": %s", log);
      }
    } else if (numLoadedModules <
               sizeof(loadedModules) / sizeof(loadedModules[0])) {
      loadedModules[numLoadedModules++] = (LoadedModule){data, module};
    }
  }
  pthread_mutex_unlock(&modulesLock);
  return module;
}

void *mgpuModuleLoad(void *data, size_t size) {
  (void)size;
  return loadModule(data, -1);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return loadModule(data, optLevel);
}

void mgpuModuleUnload(void *module) { (void)module; /* cached */ }

/// The kernels already looked up, by module and name (the generated code
/// asks before every launch, with the same name constant each time): a
/// driver call saved per launch. Open addressing; when full, the driver.
typedef struct KnownFunction {
  void *module;
  const char *name;
  CUfunction function;
} KnownFunction;
enum { kKnownFunctions = 8192 };
static KnownFunction knownFunctions[kKnownFunctions];

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module || gpuFailed())
    return NULL;
  nextKernelName = name;
  size_t slot = ((uintptr_t)name >> 3) % kKnownFunctions;
  pthread_mutex_lock(&modulesLock);
  for (size_t probe = 0; probe < kKnownFunctions; ++probe) {
    KnownFunction *known = &knownFunctions[(slot + probe) % kKnownFunctions];
    if (!known->name)
      break;
    if (known->name == name && known->module == module) {
      CUfunction function = known->function;
      pthread_mutex_unlock(&modulesLock);
      return function;
    }
  }
  pthread_mutex_unlock(&modulesLock);
  CUfunction function = NULL;
  CUresult result = cuda.moduleGetFunction(&function, (CUmodule)module, name);
  if (result != 0) {
    gpuFail("cuModuleGetFunction", result);
    return NULL;
  }
  pthread_mutex_lock(&modulesLock);
  for (size_t probe = 0; probe < kKnownFunctions; ++probe) {
    KnownFunction *known = &knownFunctions[(slot + probe) % kKnownFunctions];
    if (!known->name || (known->name == name && known->module == module)) {
      *known = (KnownFunction){module, name, function};
      break;
    }
  }
  pthread_mutex_unlock(&modulesLock);
  return function;
}

void *mgpuStreamCreate(void) {
  if (gpuFailed())
    return NULL;
  if (!threadStream) {
    CUresult result = cuda.streamCreate(&threadStream, 0);
    if (result != 0) {
      gpuFail("cuStreamCreate", result);
      threadStream = NULL;
    }
  }
  return threadStream;
}

void mgpuStreamDestroy(void *stream) { (void)stream; /* one per thread */ }

void mgpuStreamSynchronize(void *stream) {
  if (gpuFailed())
    return;
  CUresult result = cuda.streamSynchronize((CUstream)stream);
  if (result != 0)
    gpuFail("running a kernel (cuStreamSynchronize)", result);
  else if ((CUstream)stream == threadStream)
    releaseStreamBlocks();
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)paramsCount;
  if (!function || gpuFailed())
    return;
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return; /* an empty tensor */
  double start = profileLaunches ? nowMs() : 0;
  CUresult result = cuda.launchKernel(
      (CUfunction)function, (unsigned)gridX, (unsigned)gridY, (unsigned)gridZ,
      (unsigned)blockX, (unsigned)blockY, (unsigned)blockZ, (unsigned)smem,
      (CUstream)stream, params, extra);
  if (result != 0)
    gpuFail("cuLaunchKernel", result);
  else if (syncEachLaunch || profileLaunches)
    mgpuStreamSynchronize(stream);
  else
    runInFlight = true;
  if (profileThisRun && result == 0)
    recordKernel(nextKernelName ? nextKernelName : "(unnamed)", nowMs() - start,
                 (unsigned)(gridX * gridY * gridZ),
                 (unsigned)(blockX * blockY * blockZ));
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared) {
  (void)stream;
  if (gpuFailed())
    return NULL;
  CUdeviceptr ptr = 0;
  CUresult result =
      isHostShared ? cuda.memAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL)
                   : cuda.memAlloc(&ptr, bytes);
  if (result != 0) {
    gpuFail("cuMemAlloc", result);
    return NULL;
  }
  return (void *)(uintptr_t)ptr;
}

void mgpuMemFree(void *ptr, void *stream) {
  (void)stream;
  if (ptr && !initError[0])
    cuda.memFree((CUdeviceptr)(uintptr_t)ptr);
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  (void)stream;
  if (gpuFailed())
    return;
  CUresult result = cuda.memcpy((CUdeviceptr)(uintptr_t)dst,
                                (CUdeviceptr)(uintptr_t)src, bytes);
  if (result != 0)
    gpuFail("cuMemcpy", result);
}

void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream) {
  (void)stream;
  if (gpuFailed())
    return;
  CUresult result = cuda.memsetD32((CUdeviceptr)(uintptr_t)dst, value, count);
  if (result != 0)
    gpuFail("cuMemsetD32", result);
}

/*===------------------------------------------------------------------------===
 * A run: inputs into managed memory, outputs back into malloc'ed memory.
 *===------------------------------------------------------------------------===*/

/// Number of elements of a descriptor with `rank` sizes at `sizes`.
static int64_t descriptorNumel(const int64_t *sizes, int32_t rank) {
  int64_t numel = 1;
  for (int32_t d = 0; d < rank; ++d)
    numel *= sizes[d];
  return numel;
}

/// Copies the strided elements of descriptor `desc` into contiguous `dst`.
/// Copies `bytes` from `src` to `dst`, either of which may be managed
/// memory: with the driver's copy engine while the GPU works (managed pages
/// stay where they are, on the GPU), with memcpy otherwise (the buffers
/// then come from malloc).
static void copyBytes(void *dst, const void *src, size_t bytes) {
  if (bytes && !gpuFailed() && !initError[0] &&
      cuda.memcpy((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src,
                  bytes) == 0)
    return;
  memcpy(dst, src, bytes);
}

/// The elements of the memref `desc` into the contiguous `dst`: one copy if
/// they are contiguous (copyBytes), element by element otherwise.
static void gatherStrided(char *dst, const int64_t *desc, int32_t rank,
                          size_t elemSize) {
  const char *aligned = (const char *)(intptr_t)desc[1];
  int64_t offset = desc[2];
  const int64_t *sizes = desc + 3, *strides = desc + 3 + rank;
  int64_t numel = descriptorNumel(sizes, rank);
  if (numel <= 0)
    return;
  bool contiguous = true;
  int64_t expected = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected)
      contiguous = false;
    expected *= sizes[d];
  }
  if (contiguous) {
    copyBytes(dst, aligned + offset * (int64_t)elemSize,
              (size_t)numel * elemSize);
    return;
  }
  int64_t index[ONNXC_MAX_RANK] = {0};
  for (int64_t i = 0; i < numel; ++i) {
    int64_t at = offset;
    for (int32_t d = 0; d < rank; ++d)
      at += index[d] * strides[d];
    memcpy(dst + i * (int64_t)elemSize, aligned + at * (int64_t)elemSize,
           elemSize);
    for (int32_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

void onnxc_gpu_run(const onnxc_model_desc *model, onnxc_entry_fn body,
                   void *const *inputs, void *outputs) {
  runError[0] = 0;
  double start = nowMs();
  if (!gpuReady()) {
    onnxcSetError(ONNXC_ERROR_DEVICE, "%s",
                  initError[0] ? initError : runError);
    return;
  }
  if (profileLaunches) {
    pthread_mutex_lock(&profileLock);
    profileThisRun = startedRuns++ > 0;
    pthread_mutex_unlock(&profileLock);
  }
  int32_t numInputs = model->num_inputs;
  size_t words = 0;
  for (int32_t i = 0; i < numInputs; ++i)
    words += 3 + 2 * (size_t)onnxcDescriptorRank(&model->inputs[i]);
  int64_t *staged = calloc(words + 1, sizeof(int64_t));
  void **stagedPtrs = calloc((size_t)numInputs + 1, sizeof(void *));
  void **buffers = calloc((size_t)numInputs + 1, sizeof(void *));
  if (!staged || !stagedPtrs || !buffers) {
    free(staged);
    free(stagedPtrs);
    free(buffers);
    onnxcSetError(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    return;
  }
  int64_t *w = staged;
  for (int32_t i = 0; i < numInputs; ++i) {
    int32_t rank = onnxcDescriptorRank(&model->inputs[i]);
    const int64_t *desc = inputs[i];
    size_t elemSize = onnxcDescriptorElementSize(&model->inputs[i]);
    int64_t numel = descriptorNumel(desc + 3, rank);
    size_t bytes = (size_t)(numel > 0 ? numel : 0) * elemSize;
    buffers[i] = gpuAlloc(bytes ? bytes : 1);
    gatherStrided(buffers[i], desc, rank, elemSize);
    prefetch(buffers[i], device, mgpuStreamCreate());
    w[0] = w[1] = (int64_t)(intptr_t)buffers[i];
    w[2] = 0;
    int64_t stride = 1;
    for (int32_t d = rank - 1; d >= 0; --d) {
      w[3 + d] = desc[3 + d];
      w[3 + rank + d] = stride;
      stride *= desc[3 + d];
    }
    stagedPtrs[i] = w;
    w += 3 + 2 * rank;
  }

  body((void *const *)stagedPtrs, outputs);
  if (!gpuFailed()) {
    CUresult result = cuda.ctxSynchronize();
    if (result != 0)
      gpuFail("cuCtxSynchronize", result);
  }
  if (!gpuFailed())
    releaseStreamBlocks();

  /* Each output into its own malloc'ed buffer (what the session adopts),
     copied by the copy engine: its pages stay on the GPU, where the next
     run's kernels will reuse them (moved to the host, they would fault back
     one by one); the model's buffers are released once each. */
  int64_t *out = outputs;
  void **released = calloc((size_t)model->num_outputs + 1, sizeof(void *));
  for (int32_t k = 0; k < model->num_outputs; ++k) {
    int32_t rank = onnxcDescriptorRank(&model->outputs[k]);
    size_t elemSize = onnxcDescriptorElementSize(&model->outputs[k]);
    int64_t numel = descriptorNumel(out + 3, rank);
    size_t bytes = (size_t)(numel > 0 ? numel : 0) * elemSize;
    void *allocated = (void *)(intptr_t)out[0];
    char *host = malloc(bytes ? bytes : 1);
    if (!host) {
      fprintf(stderr, "error: out of memory (%zu bytes)\n", bytes);
      exit(1);
    }
    gatherStrided(host, out, rank, elemSize);
    bool ours = allocated && (uintptr_t)allocated != ONNXC_GLOBAL_SENTINEL;
    for (int32_t i = 0; i < numInputs && ours; ++i)
      if (allocated == buffers[i])
        ours = false;
    for (int32_t j = 0; j < k && ours; ++j)
      if (released && released[j] == allocated)
        ours = false;
    if (ours) {
      gpuRelease(allocated);
      if (released)
        released[k] = allocated;
    }
    out[0] = out[1] = (int64_t)(intptr_t)host;
    out[2] = 0;
    int64_t stride = 1;
    for (int32_t d = rank - 1; d >= 0; --d) {
      out[3 + rank + d] = stride;
      stride *= out[3 + d];
    }
    out += 3 + 2 * rank;
  }
  free(released);
  for (int32_t i = 0; i < numInputs; ++i)
    gpuRelease(buffers[i]);
  free(buffers);
  free(staged);
  free(stagedPtrs);
  if (profileThisRun) {
    pthread_mutex_lock(&profileLock);
    profiledRuns += 1;
    profiledRunMs += nowMs() - start;
    pthread_mutex_unlock(&profileLock);
  }
  if (!gpuFailed())
    return;
  /* The outputs are garbage: drop them; the session reports the error. */
  out = outputs;
  for (int32_t k = 0; k < model->num_outputs; ++k) {
    int32_t rank = onnxcDescriptorRank(&model->outputs[k]);
    free((void *)(intptr_t)out[0]);
    memset(out, 0, (3 + 2 * (size_t)rank) * sizeof(int64_t));
    out += 3 + 2 * rank;
  }
  onnxcSetError(ONNXC_ERROR_DEVICE, "%s", runError);
}
