// Accepted: a sort as public LeetGPU solutions write it.
//
// What it shows: a bitonic sorting network with one thread per element and one launch per step, `int`
// indices and grids of (size + 255) / 256 blocks of 256 threads, cudaDeviceSynchronize() at the end. N
// need not be a power of two: the data is copied into a scratch array padded to the next power of two
// with +infinity, which is above every finite float, so the padding sorts to the end and is never copied
// back. The comparisons are float comparisons: -0.0 and +0.0 compare equal (the judge counts them
// equal too), denormals compare by value, and the largest floats stay below the padding.
//
// Verdict: accepted. Within LeetGPU's limits (N <= 1,000,000, padded to 2^20) every index fits an int.
// Robustness: it passes the robustness cases beyond the limits too (N up to 2^24 and 4,194,304); the
// padded size would overflow an int for N above 2^30, which no case reaches.
#include <cuda_runtime.h>

__global__ void pad(const float* data, float* padded, int N, int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) padded[i] = i < N ? data[i] : INFINITY;
}

__global__ void bitonic_step(float* padded, int j, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int partner = i ^ j;
  if (partner > i) {
    bool ascending = (i & k) == 0;
    float a = padded[i], b = padded[partner];
    if ((a > b) == ascending) {
      padded[i] = b;
      padded[partner] = a;
    }
  }
}

__global__ void copy_back(const float* padded, float* data, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) data[i] = padded[i];
}

extern "C" void solve(float* data, int N) {
  static float* padded = nullptr;
  static int capacity = 0;
  int size = 1;
  while (size < N) size *= 2;
  if (size < 256) size = 256; // one whole block, so that every thread of a step has a partner
  if (size > capacity) {
    cudaFree(padded);
    cudaMalloc(&padded, size * sizeof(float));
    capacity = size;
  }
  int threadsPerBlock = 256;
  int blocksPerGrid = (size + threadsPerBlock - 1) / threadsPerBlock;
  pad<<<blocksPerGrid, threadsPerBlock>>>(data, padded, N, size);
  for (int k = 2; k <= size; k *= 2)
    for (int j = k / 2; j > 0; j /= 2) bitonic_step<<<blocksPerGrid, threadsPerBlock>>>(padded, j, k);
  copy_back<<<(N + threadsPerBlock - 1) / threadsPerBlock, threadsPerBlock>>>(padded, data, N);
  cudaDeviceSynchronize();
}
