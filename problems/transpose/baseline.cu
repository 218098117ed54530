// The transpose baseline: cuBLAS's out-of-place transpose, cublasSgeam with alpha = 1 and beta = 0, timed
// like a solution. Its outputs are the second reference (problem.yaml: is_reference); a transpose by
// geam is exact (1·x + 0 is x), so it agrees with the CPU reference bit for bit.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "transpose baseline: %s failed: %s (%s)\n", call, cublasGetStatusName(status),
               cublasGetStatusString(status));
  std::abort();
}

// Created on the first call and kept for the life of the runner: creating a handle costs far more than
// one transpose and must not be timed.
cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t created = nullptr;
    check_cublas(cublasCreate(&created), "cublasCreate");
    // Strict FP32 like every baseline that is also a reference: no reduced precision anywhere.
    check_cublas(cublasSetMathMode(created, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    return created;
  }();
  return h;
}

} // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const float one = 1.0f;
  const float zero = 0.0f;
  // cuBLAS is column-major. The row-major rows×cols input is, read column-major, a cols×rows matrix X
  // with leading dimension cols; the row-major cols×rows output is a rows×cols matrix Y with leading
  // dimension rows. output[j * rows + i] = input[i * cols + j] is Y = Xᵀ: geam's C = α·op(A) + β·op(B)
  // with m = rows, n = cols, op(A) = Xᵀ (transa = T, A = X is n×m, lda = cols ≥ n), and B = C (geam's
  // documented in-place form C = α·op(A) + β·C: ldb = ldc = rows, transb = N). α = 1, β = 0 is the
  // case the documentation names for a transpose: C's old contents are not used, so the garbage in
  // output before the call cannot leak into the result.
  check_cublas(cublasSgeam(handle(), CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, input, cols, &zero, output, rows,
                           output, rows),
               "cublasSgeam");
  cudaDeviceSynchronize();
}
