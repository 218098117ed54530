// Accepted: RMS normalisation as public LeetGPU solutions write it.
//
// What it shows: two kernels over a grid of (N + 255) / 256 blocks of 256 threads, one element per
// thread and `int` indices: each block's sum of squares (a shared-memory tree) is added into one word
// with atomicAdd (zeroed first), then every thread computes rms = sqrt(sum / N + eps) itself and writes
// gamma · x / rms + beta. The floats gamma, beta and eps arrive by value, in LeetGPU's order.
// cudaDeviceSynchronize() at the end.
//
// Verdict: accepted. Within LeetGPU's limits (N <= 100,000) every index fits an int, and the chain of
// 391 atomics rounds far less than the tolerance of a sum of N squares allows.
// Robustness: it passes the robustness cases beyond that limit as well (up to N = 25,000,000 and eps
// other than 1e-5): half the rounding of a chain of 97,657 atomics is well inside rtol. An int index
// would wrap for N above 2^31 - 256, which no case reaches.
#include <cuda_runtime.h>

__global__ void block_squares(const float* input, float* sum, int N) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i < N ? input[i] : 0.0f;
  partial[threadIdx.x] = x * x;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, partial[0]);
}

__global__ void scale_shift(const float* input, float gamma, float beta, float* output, int N, float eps,
                            const float* sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float rms = sqrtf(*sum / N + eps);
    output[i] = gamma * input[i] / rms + beta;
  }
}

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static float* sum = nullptr;
  if (sum == nullptr) cudaMalloc(&sum, sizeof(float));
  int threadsPerBlock = 256;
  int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
  cudaMemset(sum, 0, sizeof(float));
  block_squares<<<blocksPerGrid, threadsPerBlock>>>(input, sum, N);
  scale_shift<<<blocksPerGrid, threadsPerBlock>>>(input, gamma, beta, output, N, eps, sum);
  cudaDeviceSynchronize();
}
