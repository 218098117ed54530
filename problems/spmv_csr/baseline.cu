// The spmv_csr baseline: cuSPARSE's generic SpMV on a CSR descriptor (32-bit indices, float values), with
// alpha = 1 and beta = 0 (y is not read). The handle and the work buffer are made once; the
// descriptors wrap the call's pointers, which is host work only.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstddef>

extern "C" void solve(const int* row_offsets, const int* columns, const float* values, const float* x, float* y, int M,
                      int N, int nnz) {
  static cusparseHandle_t handle = nullptr;
  static void* buffer = nullptr;
  static std::size_t buffer_bytes = 0;
  if (!handle) cusparseCreate(&handle);
  cusparseSpMatDescr_t a;
  cusparseDnVecDescr_t vx, vy;
  cusparseCreateCsr(&a, M, N, nnz, const_cast<int*>(row_offsets), const_cast<int*>(columns), const_cast<float*>(values),
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(&vx, N, const_cast<float*>(x), CUDA_R_32F);
  cusparseCreateDnVec(&vy, M, y, CUDA_R_32F);
  const float one = 1.0f, zero = 0.0f;
  std::size_t needed = 0;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, CUDA_R_32F,
                          CUSPARSE_SPMV_CSR_ALG1, &needed);
  if (needed > buffer_bytes) {
    cudaFree(buffer);
    cudaMalloc(&buffer, needed);
    buffer_bytes = needed;
  }
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1,
               buffer);
  cusparseDestroySpMat(a);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cudaDeviceSynchronize();
}
