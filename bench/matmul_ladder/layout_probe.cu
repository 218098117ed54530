// Patterned products that tell a wrong shared-memory or accumulator layout apart from a wrong sum: each
// prints its first wrong elements. "cols" (A a column of ones, B its column numbers) shows where the
// columns of C went, "rows" the rows, "inner" and "inner_b" which inner values met, "rand" a ragged
// shape. Run on step9_wgmma.cu as written and without the swizzle (build.sh links both).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

extern "C" void solve_09w(const float*, const float*, float*, int, int, int);
extern "C" void solve_09n(const float*, const float*, float*, int, int, int);
using mm_fn = void (*)(const float*, const float*, float*, int, int, int);

static void probe(mm_fn f, const char* name, int M, int N, int K, float (*a)(int, int), float (*b)(int, int)) {
  std::vector<float> hA(size_t(M) * N), hB(size_t(N) * K), hC(size_t(M) * K), want(size_t(M) * K);
  for (int i = 0; i < M; ++i)
    for (int p = 0; p < N; ++p) hA[size_t(i) * N + p] = a(i, p);
  for (int p = 0; p < N; ++p)
    for (int j = 0; j < K; ++j) hB[size_t(p) * K + j] = b(p, j);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < K; ++j) {
      double s = 0;
      for (int p = 0; p < N; ++p) s += double(hA[size_t(i) * N + p]) * hB[size_t(p) * K + j];
      want[size_t(i) * K + j] = float(s);
    }
  float *A, *B, *C;
  cudaMalloc(&A, hA.size() * 4);
  cudaMalloc(&B, hB.size() * 4);
  cudaMalloc(&C, hC.size() * 4);
  cudaMemcpy(A, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(B, hB.data(), hB.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(C, 0xff, hC.size() * 4); // NaN: an element never written is wrong
  f(A, B, C, M, N, K);
  const cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(hC.data(), C, hC.size() * 4, cudaMemcpyDeviceToHost);
  long bad = 0;
  for (size_t x = 0; x < hC.size(); ++x)
    if (!(std::fabs(hC[x] - want[x]) <= 1e-3f * (1 + std::fabs(want[x])))) {
      if (bad < 10) std::printf("  %s: C[%zu][%zu] got %g want %g\n", name, x / K, x % K, hC[x], want[x]);
      ++bad;
    }
  std::printf("probe %s %dx%dx%d: %s, %ld of %zu wrong\n", name, M, N, K, cudaGetErrorString(e), bad, hC.size());
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
}

int main() {
  const struct {
    mm_fn f;
    const char* name;
  } kernels[] = {{solve_09w, "step9_wgmma.cu"}, {solve_09n, "step9_wgmma.cu without the swizzle"}};
  for (const auto& k : kernels) {
    std::printf("== %s\n", k.name);
    probe(k.f, "cols", 128, 32, 128, [](int, int p) { return p == 0 ? 1.0f : 0.0f; },
          [](int p, int j) { return float(j + 1000 * p); });
    probe(k.f, "rows", 128, 32, 128, [](int i, int p) { return p == 0 ? float(i) : 0.0f; },
          [](int, int) { return 1.0f; });
    probe(k.f, "inner", 128, 32, 128, [](int, int p) { return p == 5 ? 1.0f : 0.0f; },
          [](int p, int j) { return float(p + 100 * (j % 3)); });
    probe(k.f, "inner_b", 128, 32, 128, [](int, int p) { return float(p); },
          [](int p, int) { return p == 7 ? 1.0f : 0.0f; });
    probe(k.f, "rand", 200, 70, 150, [](int i, int p) { return float((i * 7 + p * 3) % 11) - 5; },
          [](int p, int j) { return float((p * 5 + j) % 7) - 3; });
  }
  return 0;
}
