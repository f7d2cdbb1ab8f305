/*===- FakeCudaDriver.c - A stand-in libcuda for the GPU runtime's tests ---===*
 *
 * The CUDA driver functions lib/Device/CUDA/CudaDriver.c loads, over host
 * memory: a module "loads" if its data looks like PTX, kernels launch as no-ops
 * (their outputs are whatever the buffers held). It lets the runtime's staging,
 * buffer ownership and error paths run on a machine without a GPU
 * (ONNXC_CUDA_DRIVER=libonnxc_fake_cuda.so). FAKE_CUDA_FAIL names a function
 * that fails (cuInit, cuDeviceGetCount, cuModuleLoadDataEx, cuLaunchKernel,
 * cuMemAllocManaged) and FAKE_CUDA_LOG counts the launches, stream
 * synchronizations, prefetches and memory advices on stderr.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum { kFailed = 719 /* CUDA_ERROR_LAUNCH_FAILED */ };

static int fails(const char *name) {
  const char *fail = getenv("FAKE_CUDA_FAIL");
  return fail && strcmp(fail, name) == 0;
}

static long launches, syncs, prefetches, advices;
static void report(void) {
  fprintf(stderr,
          "fake-cuda: %ld launches, %ld syncs, %ld prefetches, %ld advices\n",
          launches, syncs, prefetches, advices);
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  if (getenv("FAKE_CUDA_LOG"))
    atexit(report);
  return fails("cuInit") ? 100 /* CUDA_ERROR_NO_DEVICE */ : 0;
}
CUresult cuDeviceGetCount(int *count) {
  *count = fails("cuDeviceGetCount") ? 0 : 1;
  return 0;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return 0;
}
CUresult cuDeviceGetName(char *name, int len, int device) {
  (void)device;
  snprintf(name, (size_t)len, "fake");
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  /* An sm_80 with concurrent managed access (every other attribute 1). */
  *value = attribute == 75 ? 8 : attribute == 76 ? 0 : 1;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
  (void)device;
  *ctx = (void *)1;
  return 0;
}
CUresult cuCtxSetCurrent(void *ctx) { return ctx ? 0 : 1; }
CUresult cuCtxSynchronize(void) { return 0; }
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n,
                            int *options, void **values) {
  (void)n, (void)options, (void)values;
  if (fails("cuModuleLoadDataEx") || !strstr(image, ".visible .entry"))
    return 218;                       /* CUDA_ERROR_INVALID_PTX */
  *module = (void *)(uintptr_t)image; /* an opaque handle: never written */
  return 0;
}
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  if (!strstr(module, name))
    return 500;                        /* CUDA_ERROR_NOT_FOUND */
  *function = (void *)(uintptr_t)name; /* an opaque handle: never written */
  return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  (void)f, (void)gy, (void)gz, (void)by, (void)bz, (void)smem, (void)stream,
      (void)extra;
  if (!params || gx == 0 || bx == 0 || bx > 1024)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  ++launches;
  return fails("cuLaunchKernel") ? kFailed : 0;
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
  (void)flags;
  *stream = (void *)2;
  return 0;
}
CUresult cuStreamSynchronize(void *stream) {
  ++syncs;
  return stream ? 0 : 1;
}
CUresult cuMemAllocManaged(uint64_t *ptr, size_t bytes, unsigned flags) {
  (void)flags;
  if (fails("cuMemAllocManaged"))
    return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  void *p = calloc(1, bytes);
  *ptr = (uint64_t)(uintptr_t)p;
  return p ? 0 : 2;
}
CUresult cuMemPrefetchAsync(uint64_t ptr, size_t bytes, int device,
                            void *stream) {
  (void)stream;
  if (!ptr || !bytes || device < -1)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  ++prefetches;
  return 0;
}
CUresult cuMemAdvise(uint64_t ptr, size_t bytes, int advice, int device) {
  (void)device;
  if (!ptr || !bytes || advice != 1 /* CU_MEM_ADVISE_SET_READ_MOSTLY */)
    return 1;
  ++advices;
  return 0;
}
CUresult cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
  return cuMemAllocManaged(ptr, bytes, 1);
}
CUresult cuMemFree_v2(uint64_t ptr) {
  free((void *)(uintptr_t)ptr);
  return 0;
}
CUresult cuMemcpy(uint64_t dst, uint64_t src, size_t bytes) {
  memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return 0;
}
CUresult cuMemsetD32_v2(uint64_t dst, unsigned value, size_t count) {
  uint32_t *p = (uint32_t *)(uintptr_t)dst;
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
  return 0;
}
CUresult cuGetErrorName(CUresult result, const char **name) {
  switch (result) {
  case 100:
    *name = "CUDA_ERROR_NO_DEVICE";
    break;
  case 218:
    *name = "CUDA_ERROR_INVALID_PTX";
    break;
  case 2:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    break;
  case kFailed:
    *name = "CUDA_ERROR_LAUNCH_FAILED";
    break;
  default:
    *name = "CUDA_ERROR_UNKNOWN";
    break;
  }
  return 0;
}
