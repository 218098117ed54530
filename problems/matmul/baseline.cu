// The matmul baseline: cuBLAS SGEMM in strict FP32, timed like a solution. Its outputs are the second
// reference (problem.yaml: is_reference), so it must never use TF32 or any other reduced precision.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "matmul baseline: %s failed: %s (%s)\n", call, cublasGetStatusName(status),
               cublasGetStatusString(status));
  std::abort();
}

// Created on the first call and kept for the life of the runner: creating a handle costs far more than
// one multiplication and must not be timed.
cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t created = nullptr;
    check_cublas(cublasCreate(&created), "cublasCreate");
    // The default math mode may use TF32 (e.g. under NVIDIA_TF32_OVERRIDE); pedantic math forbids it.
    check_cublas(cublasSetMathMode(created, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    return created;
  }();
  return h;
}

} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const float one = 1.0f;
  const float zero = 0.0f;
  // cuBLAS is column-major: a row-major matrix is its transpose in column-major, so C = A·B row-major
  // is Cᵀ = Bᵀ·Aᵀ column-major, a K×M result from B (K×N, leading dimension K) and A (N×M, leading
  // dimension N).
  check_cublas(cublasSgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K), "cublasSgemm");
  cudaDeviceSynchronize();
}
