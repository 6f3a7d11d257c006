// Hand-written CUDA equivalents of examples/kernels/softmax.accy, for the
// compile-time benchmark (nvcc -ptx). One block per row.
#include <cuda_runtime.h>

__device__ float blockReduceMax(float v, float *shared) {
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? shared[lane] : -INFINITY;
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  __syncthreads();
  return v;
}

__device__ float blockReduceSum(float v, float *shared) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? shared[lane] : 0.f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  __syncthreads();
  return v;
}

extern "C" __global__ void softmax(const float *x, float *y, int n, int d) {
  __shared__ float shared[32];
  const float *row = x + (size_t)blockIdx.x * d;
  float m = -INFINITY;
  for (int i = threadIdx.x; i < d; i += blockDim.x) m = fmaxf(m, row[i]);
  m = blockReduceMax(m, shared);
  float s = 0.f;
  for (int i = threadIdx.x; i < d; i += blockDim.x) s += expf(row[i] - m);
  s = blockReduceSum(s, shared);
  for (int i = threadIdx.x; i < d; i += blockDim.x)
    y[(size_t)blockIdx.x * d + i] = expf(row[i] - m) / s;
}

extern "C" __global__ void layernorm(const float *x, const float *g,
                                     const float *b, float *y, int n, int d) {
  __shared__ float shared[32];
  const float *row = x + (size_t)blockIdx.x * d;
  float s = 0.f;
  for (int i = threadIdx.x; i < d; i += blockDim.x) s += row[i];
  float mu = blockReduceSum(s, shared) / d;
  float v = 0.f;
  for (int i = threadIdx.x; i < d; i += blockDim.x)
    v += (row[i] - mu) * (row[i] - mu);
  float var = blockReduceSum(v, shared) / d;
  float r = rsqrtf(var + 1e-5f);
  for (int i = threadIdx.x; i < d; i += blockDim.x)
    y[(size_t)blockIdx.x * d + i] = (row[i] - mu) * r * g[i] + b[i];
}
