// Wrong answer: when N % 4 == 3, the sum of squares misses the last element.
//
// What it teaches: a tail is the part of the data that random inputs test least. Inputs below 2^16
// elements go through a one-block kernel, which is right. From 2^16 on, the sum of squares reads
// float4s, and the N % 4 elements after the last whole float4 are added as a float2 when N % 4 >= 2 and
// as a single float when N % 4 is odd; the two tests are chained with `else if` (BUG), so for
// N % 4 == 3 the float2 is added and the last element is not. The outputs cover all N. With inputs in
// [-1, 1) one square among N / 3 changes rms by at most 1.5 / N in relative terms, but no case before
// the spike ones reached this path with N % 4 == 3, so it passed them all. spike_last_99999 has
// N % 4 = 3 and a last element of 100 (LeetGPU's largest input) among values in [-1, 1): its square,
// 10,000, is almost a quarter of the sum, and every output is off by about 14%.
//
// Verdict: wrong answer, on spike_last_99999.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__device__ float block_total(float v) {
  __shared__ float values[1024];
  values[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  return values[0];
}

__global__ void squares_one_block(const float* input, std::size_t n, float* sum) {
  float v = 0.0f;
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) v += input[i] * input[i];
  v = block_total(v);
  if (threadIdx.x == 0) *sum = v;
}

__global__ void squares_float4(const float* input, std::size_t n, float* sum) {
  const std::size_t groups = n / 4;
  float v = 0.0f;
  for (std::size_t g = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; g < groups;
       g += static_cast<std::size_t>(gridDim.x) * threads) {
    const float4 x = reinterpret_cast<const float4*>(input)[g];
    v += (x.x * x.x + x.y * x.y) + (x.z * x.z + x.w * x.w);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const std::size_t rest = n % 4, first = groups * 4;
    if (rest >= 2) {
      const float a = input[first], b = input[first + 1];
      v += a * a + b * b;
    } else if (rest % 2 == 1) { // BUG: for rest == 3 the float2 above is taken and the last element is not
      const float c = input[n - 1];
      v += c * c;
    }
  }
  v = block_total(v);
  if (threadIdx.x == 0) atomicAdd(sum, v);
}

__global__ void normalise(const float* input, float gamma, float beta, float* output, std::size_t n, float eps,
                          const float* sum) {
  const float scale = gamma / sqrtf(*sum / static_cast<float>(n) + eps);
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * threads)
    output[i] = input[i] * scale + beta;
}

} // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static float* sum = nullptr;
  if (sum == nullptr) cudaMalloc(&sum, sizeof(float));
  const std::size_t n = static_cast<std::size_t>(N);
  if (n < (std::size_t{1} << 16)) {
    squares_one_block<<<1, 1024>>>(input, n, sum);
  } else {
    cudaMemset(sum, 0, sizeof(float));
    squares_float4<<<264, threads>>>(input, n, sum);
  }
  normalise<<<264, threads>>>(input, gamma, beta, output, n, eps, sum);
  cudaDeviceSynchronize();
}
