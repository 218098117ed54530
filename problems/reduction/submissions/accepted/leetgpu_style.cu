// Accepted: a reduction as public LeetGPU solutions write it.
//
// What it shows: one thread per element, an `int` index, a grid of (N + 255) / 256 blocks of 256
// threads, a shared-memory tree per block, and one atomicAdd per block into output[0], which is zeroed
// first (it holds garbage when solve() is called). cudaDeviceSynchronize() at the end. The float sum's
// order is the blocks' tree order and then whatever order the atomics land in: inside the tolerance of a
// sum (statement.md, "Correctness"), and exact on whole-number inputs whose partial sums stay below 2^24.
//
// Verdict: accepted. Within LeetGPU's limits (N <= 100,000,000) an int holds every index and N + 255.
// Robustness: on n_int_max (N = 2^31 - 1, beyond LeetGPU's limit) N + 255 overflows an int, the grid
// size is negative, the launch fails and output[0] keeps the 0 of the memset: a wrong answer there,
// unless the exact sum happens to lie within that case's tolerance of 0. A robustness case does not
// change the verdict.
#include <cuda_runtime.h>

__global__ void block_sums(const float* input, float* output, int N) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < N ? input[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
  int threadsPerBlock = 256;
  int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
  cudaMemset(output, 0, sizeof(float));
  block_sums<<<blocksPerGrid, threadsPerBlock>>>(input, output, N);
  cudaDeviceSynchronize();
}
