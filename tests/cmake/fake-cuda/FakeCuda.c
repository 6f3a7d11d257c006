/* A stand-in for libcuda.so.1, for testing the runtime's CUDA path on
 * machines without a GPU. Memory is host memory and launches only print
 * "fake-cuda: launch NAME grid X Y Z block X Y Z" to stderr. An image is
 * accepted when it looks like PTX (".version" and ".entry" in NUL-terminated
 * text), else rejected with CUDA_ERROR_INVALID_PTX, as the driver's JIT
 * would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kSuccess = 0, kInvalidValue = 1, kInvalidPtx = 218, kNotFound = 500 };

int cuInit(unsigned flags) { (void)flags; return kSuccess; }
int cuDeviceGet(int *device, int ordinal) { *device = ordinal; return kSuccess; }
int cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  *value = attribute == 75 ? 9 : 0; /* compute capability 9.0 */
  return kSuccess;
}
int cuDeviceGetName(char *name, int length, int device) {
  (void)device;
  snprintf(name, (size_t)length, "Fake CUDA device");
  return kSuccess;
}
int cuDevicePrimaryCtxRetain(void **context, int device) {
  (void)device;
  static int token;
  *context = &token;
  return kSuccess;
}
int cuCtxSetCurrent(void *context) { (void)context; return kSuccess; }
int cuGetErrorString(int error, const char **text) {
  *text = error == kInvalidPtx ? "CUDA_ERROR_INVALID_PTX"
          : error == kNotFound ? "CUDA_ERROR_NOT_FOUND"
                               : "CUDA_ERROR_INVALID_VALUE";
  return kSuccess;
}
int cuModuleLoadData(void **module, const void *image) {
  const char *text = (const char *)image;
  if (!strstr(text, ".version") || !strstr(text, ".entry"))
    return kInvalidPtx;
  *module = (void *)text;
  return kSuccess;
}
int cuModuleGetFunction(void **function, void *module, const char *name) {
  char entry[256];
  snprintf(entry, sizeof entry, ".entry %s(", name);
  if (!strstr((const char *)module, entry))
    return kNotFound;
  *function = strdup(name);
  return kSuccess;
}
int cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                   unsigned bx, unsigned by, unsigned bz, unsigned shared,
                   void *stream, void **params, void **extra) {
  (void)shared; (void)stream; (void)extra;
  if (!params)
    return kInvalidValue;
  fprintf(stderr, "fake-cuda: launch %s grid %u %u %u block %u %u %u\n",
          (const char *)function, gx, gy, gz, bx, by, bz);
  return kSuccess;
}
int cuMemAlloc_v2(void **pointer, size_t bytes) {
  *pointer = aligned_alloc(256, (bytes + 255) / 256 * 256);
  return *pointer ? kSuccess : kInvalidValue;
}
int cuMemFree_v2(void *pointer) { free(pointer); return kSuccess; }
int cuMemcpyHtoDAsync_v2(void *device, const void *host, size_t bytes,
                         void *stream) {
  (void)stream;
  memcpy(device, host, bytes);
  return kSuccess;
}
int cuMemcpyDtoHAsync_v2(void *host, const void *device, size_t bytes,
                         void *stream) {
  (void)stream;
  memcpy(host, device, bytes);
  return kSuccess;
}
int cuStreamSynchronize(void *stream) { (void)stream; return kSuccess; }
