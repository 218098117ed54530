// Accepted: a softmax as public LeetGPU solutions write it.
//
// What it shows: three kernels over a grid of (N + 255) / 256 blocks of 256 threads, one element per
// thread and `int` indices: each block's maximum (a shared-memory tree) goes into one word with an
// integer atomicMax, on an encoding of floats whose integer order is their float order (negative floats
// have their magnitude bits flipped); each block's sum of exp(x - max) goes into a second word with
// atomicAdd; the last kernel divides. cudaDeviceSynchronize() at the end. The sum is a block's tree
// followed by a chain of one atomic per block, in any order: with 1,954 blocks at N = 500,000 its
// typical rounding is about 15 units of 2^-24, well inside the 85 the tolerance allows at that N.
//
// Verdict: accepted. Within LeetGPU's limits (N <= 500,000) every index and N + 255 fit an int.
// Robustness: on the robustness cases beyond that limit (N = 2^24 and 25,000,000: 65,536 and 97,657
// blocks) the chain of atomics is long enough that its rounding, about sqrt(blocks) / 3 units of 2^-24,
// comes close to the tolerance (about 90 units there) and may exceed it; an int index would also wrap for
// N above 2^31 - 256, which no case reaches. A robustness case does not change the verdict.
#include <cuda_runtime.h>

#include <climits>

// Order-preserving map from float to int: non-negative floats keep their bits, negative ones have their
// magnitude bits flipped, so that a larger float is a larger int.
__device__ int ordered_key(float x) {
  int bits = __float_as_int(x);
  return bits >= 0 ? bits : bits ^ 0x7fffffff;
}

__device__ float ordered_value(int key) { return __int_as_float(key >= 0 ? key : key ^ 0x7fffffff); }

__global__ void reset(int* max_key, float* sum) {
  *max_key = INT_MIN;
  *sum = 0.0f;
}

__global__ void block_max(const float* input, int* max_key, int N) {
  __shared__ float best[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  best[threadIdx.x] = i < N ? input[i] : -INFINITY;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) best[threadIdx.x] = fmaxf(best[threadIdx.x], best[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicMax(max_key, ordered_key(best[0]));
}

__global__ void block_exp_sum(const float* input, const int* max_key, float* sum, int N) {
  __shared__ float partial[256];
  float max_value = ordered_value(*max_key);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < N ? expf(input[i] - max_value) : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, partial[0]);
}

__global__ void normalise(const float* input, float* output, const int* max_key, const float* sum, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) output[i] = expf(input[i] - ordered_value(*max_key)) / *sum;
}

extern "C" void solve(const float* input, float* output, int N) {
  static int* max_key = nullptr;
  static float* sum = nullptr;
  if (max_key == nullptr) {
    cudaMalloc(&max_key, sizeof(int));
    cudaMalloc(&sum, sizeof(float));
  }
  int threadsPerBlock = 256;
  int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
  reset<<<1, 1>>>(max_key, sum);
  block_max<<<blocksPerGrid, threadsPerBlock>>>(input, max_key, N);
  block_exp_sum<<<blocksPerGrid, threadsPerBlock>>>(input, max_key, sum, N);
  normalise<<<blocksPerGrid, threadsPerBlock>>>(input, output, max_key, sum, N);
  cudaDeviceSynchronize();
}
