// Banned: calls cuBLAS directly. matmul's problem.yaml bans cublas and cublasLt, so the library is not
// linked and the link error is reported as the ban, naming the rule.
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static cublasHandle_t handle = nullptr;
  if (!handle) cublasCreate(&handle);
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K);
  cudaDeviceSynchronize();
}
