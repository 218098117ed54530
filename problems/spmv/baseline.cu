// The spmv baseline: cuBLAS SGEMV on the dense matrix in strict FP32, timed like a solution. cuSPARSE
// cannot take a dense matrix, and converting it to CSR would read it anyway; the matrix-vector product
// is the vendor's kernel for this input. Its outputs are the second reference (problem.yaml:
// is_reference).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "spmv baseline: %s failed: %s (%s)\n", call, cublasGetStatusName(status),
               cublasGetStatusString(status));
  std::abort();
}

// Created on the first call and kept for the life of the runner: creating a handle costs far more than
// one product and must not be timed.
cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t created = nullptr;
    check_cublas(cublasCreate(&created), "cublasCreate");
    check_cublas(cublasSetMathMode(created, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    return created;
  }();
  return h;
}

} // namespace

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  const float one = 1.0f;
  const float zero = 0.0f;
  // cuBLAS is column-major: the row-major M×N matrix A is the column-major N×M matrix Aᵀ (leading
  // dimension N), so y = A·x is (Aᵀ)ᵀ·x, the transposed product of that matrix.
  check_cublas(cublasSgemv(handle(), CUBLAS_OP_T, N, M, &one, A, N, x, 1, &zero, y, 1), "cublasSgemv");
  (void)nnz;
  cudaDeviceSynchronize();
}
