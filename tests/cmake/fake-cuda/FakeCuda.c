/* A stand-in for libcuda.so.1, for testing the runtime's CUDA path on
 * machines without a GPU. Memory is host memory and launches only print
 * "fake-cuda: launch NAME grid X Y Z block X Y Z params P0 P1 ..." to
 * stderr, reading as many parameters as the PTX entry declares, each of its
 * declared size, as the driver does. An image is accepted when it looks like
 * PTX (".version" and ".entry" in NUL-terminated text), else rejected with
 * CUDA_ERROR_INVALID_PTX, as the driver's JIT would. Events read the
 * monotonic clock when recorded (launches do nothing, so that is when the
 * work before them was done). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
struct Function {
  char name[128];
  int numParams;
  int paramBytes[64];
};

int cuModuleGetFunction(void **function, void *module, const char *name) {
  char entry[160];
  snprintf(entry, sizeof entry, ".entry %s(", name);
  const char *text = strstr((const char *)module, entry);
  if (!text || strlen(name) >= 128)
    return kNotFound;
  struct Function *f = calloc(1, sizeof *f);
  strcpy(f->name, name);
  const char *end = strchr(text, ')');
  for (const char *p = strstr(text, ".param ."); p && p < end && f->numParams < 64;
       p = strstr(p + 1, ".param ."))
    f->paramBytes[f->numParams++] = atoi(p + 9) / 8; /* .u64 -> 8 */
  *function = f;
  return kSuccess;
}

int cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                   unsigned bx, unsigned by, unsigned bz, unsigned shared,
                   void *stream, void **params, void **extra) {
  (void)shared; (void)stream; (void)extra;
  struct Function *f = function;
  if (!params)
    return kInvalidValue;
  fprintf(stderr, "fake-cuda: launch %s grid %u %u %u block %u %u %u params",
          f->name, gx, gy, gz, bx, by, bz);
  for (int i = 0; i < f->numParams; ++i) {
    uint64_t value = 0;
    memcpy(&value, params[i], (size_t)f->paramBytes[i]);
    fprintf(stderr, " %llu", (unsigned long long)value);
  }
  fprintf(stderr, "\n");
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

struct Event {
  int recorded;
  struct timespec time;
};
int cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  *event = calloc(1, sizeof(struct Event));
  return *event ? kSuccess : kInvalidValue;
}
int cuEventDestroy_v2(void *event) { free(event); return kSuccess; }
int cuEventRecord(void *event, void *stream) {
  (void)stream;
  struct Event *e = event;
  e->recorded = 1;
  clock_gettime(CLOCK_MONOTONIC, &e->time);
  return kSuccess;
}
int cuEventSynchronize(void *event) { (void)event; return kSuccess; }
int cuEventElapsedTime(float *milliseconds, void *start, void *end) {
  struct Event *a = start, *b = end;
  if (!a->recorded || !b->recorded)
    return kInvalidValue;
  *milliseconds = (float)((b->time.tv_sec - a->time.tv_sec) * 1e3 +
                          (b->time.tv_nsec - a->time.tv_nsec) / 1e6);
  return kSuccess;
}
