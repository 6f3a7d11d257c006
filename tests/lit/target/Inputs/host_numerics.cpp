//===- host_numerics.cpp - Host objects against a reference ---------------===//
//
// Calls every kernel of kernels.mlir through its C interface (docs/abi.md:
// one pointer to a strided memref descriptor per input, then per output)
// and compares with a double-precision reference. Prints one line per
// result and exits non-zero on a mismatch.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>
template <int N> struct Memref { float *base, *data; int64_t offset, sizes[N], strides[N]; };
template <> struct Memref<0> { float *base, *data; int64_t offset; };
extern "C" {
void _mlir_ciface_softmax(Memref<2>*, Memref<2>*);
void _mlir_ciface_bias_gelu(Memref<2>*, Memref<1>*, Memref<1>*, Memref<2>*);
void _mlir_ciface_row_stats(Memref<2>*, Memref<1>*, Memref<1>*, Memref<1>*, Memref<1>*);
void _mlir_ciface_col_total(Memref<2>*, Memref<1>*, Memref<0>*);
void _mlir_ciface_matmul_generic(Memref<2>*, Memref<2>*, Memref<2>*);
void _mlir_ciface_matmul_static(Memref<2>*, Memref<2>*, Memref<1>*, Memref<2>*);
void _mlir_ciface_batch_einsum(Memref<3>*, Memref<3>*, Memref<3>*);
void _mlir_ciface_softmax_static(Memref<2>*, Memref<2>*);
}
static Memref<1> m1(std::vector<float>& v) { return {v.data(), v.data(), 0, {(int64_t)v.size()}, {1}}; }
static Memref<2> m2(std::vector<float>& v, int64_t r, int64_t c) { return {v.data(), v.data(), 0, {r, c}, {c, 1}}; }
static Memref<3> m3(std::vector<float>& v, int64_t a, int64_t b, int64_t c) { return {v.data(), v.data(), 0, {a, b, c}, {b * c, c, 1}}; }
static std::mt19937 rng(42);
static std::vector<float> rnd(size_t n, float lo = -3, float hi = 3) { std::uniform_real_distribution<float> d(lo, hi); std::vector<float> v(n); for (auto &x : v) x = d(rng); return v; }
static int failures = 0;
static void check(const char *what, const std::vector<float> &got, const std::vector<double> &ref, double tol) {
  double worst = 0; size_t at = 0;
  for (size_t i = 0; i < got.size(); ++i) { double e = std::fabs(got[i] - ref[i]) / std::max(1.0, std::fabs(ref[i])); if (!(e <= worst)) { worst = e; at = i; } }
  bool ok = worst <= tol; failures += !ok;
  printf("%-16s %s max rel err %.3g at %zu (got %g want %g)\n", what, ok ? "ok  " : "FAIL", worst, at, got[at], ref[at]);
}
int main() {
  { int64_t N = 5, D = 1000; auto x = rnd(N * D, -50, 50); std::vector<float> o(N * D); std::vector<double> r(N * D);
    auto X = m2(x, N, D); auto O = m2(o, N, D); _mlir_ciface_softmax(&X, &O);
    for (int i = 0; i < N; ++i) { double m = -INFINITY, s = 0; for (int j = 0; j < D; ++j) m = std::max(m, (double)x[i*D+j]); for (int j = 0; j < D; ++j) s += std::exp(x[i*D+j] - m); for (int j = 0; j < D; ++j) r[i*D+j] = std::exp(x[i*D+j] - m) / s; }
    check("softmax", o, r, 1e-5); }
  { int64_t N = 3, D = 333; auto x = rnd(N * D), w = rnd(D), b = rnd(D); std::vector<float> o(N * D); std::vector<double> r(N * D);
    auto X = m2(x, N, D); auto W = m1(w); auto B = m1(b); auto O = m2(o, N, D); _mlir_ciface_bias_gelu(&X, &W, &B, &O);
    for (int i = 0; i < N; ++i) for (int j = 0; j < D; ++j) { double a = (double)x[i*D+j] * w[j] + b[j]; r[i*D+j] = 0.5 * a * (1 + std::tanh(0.7978845608 * (a + 0.044715 * a * a * a))); }
    check("bias_gelu", o, r, 1e-5); }
  { int64_t N = 4, D = 777; auto x = rnd(N * D); std::vector<float> s(N), mean(N), mx(N), mn(N); std::vector<double> rs(N), rm(N), rx(N), rn(N);
    auto X = m2(x, N, D); auto S = m1(s); auto M = m1(mean); auto MX = m1(mx); auto MN = m1(mn); _mlir_ciface_row_stats(&X, &S, &M, &MX, &MN);
    for (int i = 0; i < N; ++i) { double a = 0, hi = -INFINITY, lo = INFINITY; for (int j = 0; j < D; ++j) { a += x[i*D+j]; hi = std::max(hi, (double)x[i*D+j]); lo = std::min(lo, (double)x[i*D+j]); } rs[i] = a; rm[i] = a / D; rx[i] = hi; rn[i] = lo; }
    check("row_stats.sum", s, rs, 1e-4); check("row_stats.mean", mean, rm, 1e-5); check("row_stats.max", mx, rx, 0); check("row_stats.min", mn, rn, 0); }
  { int64_t N = 129, D = 17; auto x = rnd(N * D); std::vector<float> c(D), t(1); std::vector<double> rc(D, 0), rt(1, 0);
    auto X = m2(x, N, D); auto C = m1(c); Memref<0> T{t.data(), t.data(), 0}; _mlir_ciface_col_total(&X, &C, &T);
    for (int i = 0; i < N; ++i) for (int j = 0; j < D; ++j) { rc[j] += x[i*D+j]; rt[0] += x[i*D+j]; }
    check("col_total.cols", c, rc, 1e-4); check("col_total.total", t, rt, 1e-4); }
  { int64_t M = 33, K = 47, N = 19; auto a = rnd(M * K), b = rnd(K * N); std::vector<float> c(M * N); std::vector<double> r(M * N, 0);
    auto A = m2(a, M, K); auto B = m2(b, K, N); auto C = m2(c, M, N); _mlir_ciface_matmul_generic(&A, &B, &C);
    for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) for (int k = 0; k < K; ++k) r[i*N+j] += (double)a[i*K+k] * b[k*N+j];
    check("matmul_generic", c, r, 1e-4); }
  { int64_t M = 37, K = 29, N = 53; auto a = rnd(M * K), b = rnd(K * N), bias = rnd(N); std::vector<float> c(M * N); std::vector<double> r(M * N, 0);
    auto A = m2(a, M, K); auto B = m2(b, K, N); auto Bi = m1(bias); auto C = m2(c, M, N); _mlir_ciface_matmul_static(&A, &B, &Bi, &C);
    for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) { for (int k = 0; k < K; ++k) r[i*N+j] += (double)a[i*K+k] * b[k*N+j]; r[i*N+j] += bias[j]; }
    check("matmul_static", c, r, 1e-4); }
  { int64_t Bt = 3, M = 17, K = 9, N = 21; auto a = rnd(Bt * M * K), b = rnd(Bt * K * N); std::vector<float> c(Bt * M * N); std::vector<double> r(Bt * M * N, 0);
    auto A = m3(a, Bt, M, K); auto B = m3(b, Bt, K, N); auto C = m3(c, Bt, M, N); _mlir_ciface_batch_einsum(&A, &B, &C);
    for (int q = 0; q < Bt; ++q) for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) for (int k = 0; k < K; ++k) r[(q*M+i)*N+j] += (double)a[(q*M+i)*K+k] * b[(q*K+k)*N+j];
    check("batch_einsum", c, r, 1e-4); }
  { int64_t N = 7, D = 300; auto x = rnd(N * D, -100, 100); std::vector<float> o(N * D); std::vector<double> r(N * D);
    auto X = m2(x, N, D); auto O = m2(o, N, D); _mlir_ciface_softmax_static(&X, &O);
    for (int i = 0; i < N; ++i) { double m = -INFINITY, s = 0; for (int j = 0; j < D; ++j) m = std::max(m, (double)x[i*D+j]); for (int j = 0; j < D; ++j) s += std::exp(x[i*D+j] - m); for (int j = 0; j < D; ++j) r[i*D+j] = std::exp(x[i*D+j] - m) / s; }
    check("softmax_static", o, r, 1e-5); }
  return failures ? 1 : 0;
}
