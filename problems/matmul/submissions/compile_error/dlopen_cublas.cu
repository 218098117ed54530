// Hostile: cuBLAS is banned for matmul, so it is not linked; this one loads it at run time with dlopen
// and calls cublasSgemm through dlsym. Its object imports dlopen, which solutions may not use: a compile
// error (judge/compile/object_inspection.cpp); the runner's banned-library check stays as a second line.
#include <cuda_runtime.h>
#include <dlfcn.h>
__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

static void launch(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream = 0) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  void* lib = dlopen("libcublas.so.13", RTLD_NOW);
  if (!lib) lib = dlopen("libcublas.so", RTLD_NOW);
  using create_fn = int (*)(void**);
  using sgemm_fn = int (*)(void*, int, int, int, int, int, const float*, const float*, int, const float*, int,
                           const float*, float*, int);
  if (lib) {
    auto create = reinterpret_cast<create_fn>(dlsym(lib, "cublasCreate_v2"));
    auto sgemm = reinterpret_cast<sgemm_fn>(dlsym(lib, "cublasSgemm_v2"));
    void* handle = nullptr;
    const float one = 1.0f, zero = 0.0f;
    if (create && sgemm && create(&handle) == 0) {
      sgemm(handle, 0, 0, K, M, N, &one, B, K, A, N, &zero, C, K); // CUBLAS_OP_N = 0
      cudaDeviceSynchronize();
      return;
    }
  }
  launch(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
