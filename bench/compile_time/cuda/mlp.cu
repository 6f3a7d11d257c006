// Hand-written CUDA equivalents of examples/kernels/mlp.accy: tiled matmuls
// with fused bias and activation.
#include <cuda_runtime.h>

template <int Act>
__device__ void matmulBiasAct(const float *a, const float *w, const float *b,
                              float *y, int m, int k, int n) {
  __shared__ float ta[16][16], tw[16][16];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < k; t += 16) {
    ta[threadIdx.y][threadIdx.x] =
        row < m && t + threadIdx.x < k ? a[row * k + t + threadIdx.x] : 0.f;
    tw[threadIdx.y][threadIdx.x] =
        col < n && t + threadIdx.y < k ? w[(t + threadIdx.y) * n + col] : 0.f;
    __syncthreads();
    for (int i = 0; i < 16; ++i) acc += ta[threadIdx.y][i] * tw[i][threadIdx.x];
    __syncthreads();
  }
  if (row >= m || col >= n) return;
  float v = acc + (b ? b[col] : 0.f);
  if (Act == 1) v = fmaxf(v, 0.f);
  if (Act == 2)
    v = 0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  y[row * n + col] = v;
}

extern "C" __global__ void mlp_layer1(const float *x, const float *w1,
                                      const float *b1, float *h, int batch) {
  matmulBiasAct<1>(x, w1, b1, h, batch, 784, 256);
}
extern "C" __global__ void mlp_layer2(const float *h, const float *w2,
                                      float *y, int batch) {
  matmulBiasAct<0>(h, w2, nullptr, y, batch, 256, 10);
}
extern "C" __global__ void gelu_mlp(const float *x, const float *w,
                                    const float *b, float *y, int m, int k,
                                    int n) {
  matmulBiasAct<2>(x, w, b, y, m, k, n);
}
